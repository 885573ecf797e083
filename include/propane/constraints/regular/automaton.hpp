#ifndef PROPANE_CONSTRAINTS_REGULAR_AUTOMATON_HPP
#define PROPANE_CONSTRAINTS_REGULAR_AUTOMATON_HPP

// The automaton of regular(): as the user writes it (Dfa), and as the
// propagator reads it (Automaton), its transitions grouped by symbol.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../../engine/error.hpp"
#include "../../engine/words.hpp"

namespace propane {

struct Transition {
    int from = 0;
    int symbol = 0;
    int to = 0;
};

struct Dfa {
    int states = 0;
    int start = 0;
    std::vector<int> finals;
    std::vector<Transition> transitions;
};

namespace detail {

inline void check_dfa(const Dfa& d) {
    if (d.states < 1) throw model_error("regular: the automaton has " + std::to_string(d.states) + " states");
    const auto state = [&](int q, const std::string& what) {
        if (q < 0 || q >= d.states)
            throw model_error("regular: " + what + " is state " + std::to_string(q) + ", beyond 0.." +
                              std::to_string(d.states - 1));
    };
    state(d.start, "the start");
    for (std::size_t k = 0; k < d.finals.size(); ++k) state(d.finals[k], "finals[" + std::to_string(k) + "]");
    for (std::size_t k = 0; k < d.transitions.size(); ++k) {
        state(d.transitions[k].from, "transitions[" + std::to_string(k) + "].from");
        state(d.transitions[k].to, "transitions[" + std::to_string(k) + "].to");
    }
}

namespace automata {

// A set of states, or of symbols, is a row of words, bit q for member q.
inline bool has(const word* set, std::uint32_t q) noexcept { return ((set[q / word_bits] >> (q % word_bits)) & 1U) != 0; }
inline void add(word* set, std::uint32_t q) noexcept { set[q / word_bits] |= word{1} << (q % word_bits); }

// Read-only, shared by every copy of a propagator. Symbols are numbered
// by their rank among the distinct symbols of the transitions; the
// transitions on symbol a are pairs (from, to) at first(a) ..
// first(a + 1) - 1, without duplicates.
class Automaton {
public:
    // A template on nothing: g++ compiles the std templates (the sort) a
    // non-template function uses in every file that includes it.
    template <class = void>
    explicit Automaton(const Dfa& d)
        : states_(static_cast<std::uint32_t>(d.states)), start_(static_cast<std::uint32_t>(d.start)),
          state_words_((states_ + word_bits - 1) / word_bits), finals_(state_words_, 0) {
        std::vector<Transition> t = d.transitions;
        std::sort(t.begin(), t.end(), [](const Transition& a, const Transition& b) {
            return a.symbol != b.symbol ? a.symbol < b.symbol : a.from != b.from ? a.from < b.from : a.to < b.to;
        });
        t.erase(std::unique(t.begin(), t.end(),
                            [](const Transition& a, const Transition& b) {
                                return a.symbol == b.symbol && a.from == b.from && a.to == b.to;
                            }),
                t.end());
        for (const Transition& e : t) {
            if (symbols_.empty() || symbols_.back() != e.symbol) {
                symbols_.push_back(e.symbol);
                first_.push_back(static_cast<std::uint32_t>(from_.size()));
            }
            from_.push_back(static_cast<std::uint32_t>(e.from));
            to_.push_back(static_cast<std::uint32_t>(e.to));
        }
        first_.push_back(static_cast<std::uint32_t>(from_.size()));
        // At least one word: an automaton without transitions still gives
        // every position a row (empty) to address.
        symbol_words_ = std::max<std::size_t>(1, (symbols_.size() + word_bits - 1) / word_bits);
        for (const int f : d.finals) add(finals_.data(), static_cast<std::uint32_t>(f));
    }

    std::uint32_t states() const noexcept { return states_; }
    std::uint32_t start() const noexcept { return start_; }
    std::size_t state_words() const noexcept { return state_words_; }
    const word* finals() const noexcept { return finals_.data(); }

    std::size_t symbols() const noexcept { return symbols_.size(); }
    std::size_t symbol_words() const noexcept { return symbol_words_; }
    int symbol(std::size_t a) const noexcept { return symbols_[a]; }
    const std::vector<int>& symbol_values() const noexcept { return symbols_; }
    // The rank of value v among the symbols, or -1.
    int rank(int v) const noexcept {
        const auto it = std::lower_bound(symbols_.begin(), symbols_.end(), v);
        return it != symbols_.end() && *it == v ? static_cast<int>(it - symbols_.begin()) : -1;
    }

    std::uint32_t first(std::size_t a) const noexcept { return first_[a]; }
    std::uint32_t from(std::uint32_t k) const noexcept { return from_[k]; }
    std::uint32_t to(std::uint32_t k) const noexcept { return to_[k]; }

private:
    std::uint32_t states_;
    std::uint32_t start_;
    std::size_t state_words_;
    std::size_t symbol_words_ = 0;
    std::vector<word> finals_;
    std::vector<int> symbols_;
    std::vector<std::uint32_t> first_;
    std::vector<std::uint32_t> from_, to_;
};

} // namespace automata

} // namespace detail

} // namespace propane

#endif
