#ifndef PROPANE_CONSTRAINTS_REGEX_PARSE_HPP
#define PROPANE_CONSTRAINTS_REGEX_PARSE_HPP

// The reading half of regex() (constraints/regex.hpp): a pattern in
// MiniZinc's syntax for regular(x, r) into a tree, each leaf a set of
// symbols. The grammar is MiniZinc's (lib/support/regex/parser.yxx):
//
//   pattern     := alternation                  (the whole text)
//   alternation := term ('|' term)*
//   term        := factor factor*
//   factor      := atom quantifier?             (one quantifier: "1**" is an error)
//   quantifier  := '*' | '+' | '?' | '{' n '}' | '{' n ',' '}' | '{' n ',' m '}'
//   atom        := number | '.' | '[' '^'? item item* ']' | '(' alternation ')'
//   item        := number | number '-' number   (a reversed range is read in order)
//
// Numbers are runs of decimal digits, 0 to INT_MAX; blanks (space, tab,
// line breaks) separate tokens and are otherwise ignored, so "12" is one
// symbol and "1 2" two. There is no empty pattern, alternative or group.
// '.' and '[^ ...]' need the alphabet (MiniZinc takes it from the domain of
// x): without one they are an error.
//
// The tree is small however large its automaton: a counted repetition is
// one node. Each node knows how many states Thompson's construction will
// give it, and a pattern whose automaton would pass regex_limit is refused
// here, at the position that takes it past, before anything is built.
// Groups nest at most max_depth deep, which bounds the recursion of the
// parser and of the construction.
//
// Parser is a template on nothing, as the rest of regex(): g++ compiles the
// std templates a non-template inline function uses in every file that
// includes it, called or not.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../engine/error.hpp"

namespace propane {

// regex() refuses (model_error) a pattern whose automaton would pass this
// size: the states of its nondeterministic automaton (a counted repetition
// copies what it repeats), the transitions of the deterministic one before
// minimization (and the NFA states their subsets hold, at ten times this),
// and the transitions of the result, one per symbol.
inline constexpr std::int64_t regex_limit = 1'000'000;

namespace detail::re {

// A closed range of symbols.
struct Interval {
    int lo = 0;
    int hi = 0;
    friend auto operator<=>(const Interval&, const Interval&) = default;
};

// Sorted, disjoint and not adjacent; empty for a class that excludes
// every symbol of the alphabet.
using SymbolSet = std::vector<Interval>;

inline constexpr int unbounded = -1;
inline constexpr int max_depth = 1000;

struct Node {
    enum class Kind : std::uint8_t { symbols, concat, alt, repeat };
    Kind kind = Kind::symbols;
    int set = -1;          // symbols: the index in Tree::sets
    std::vector<int> kids{}; // concat, alt: the parts in order; repeat: the one repeated
    int min = 0;           // repeat: at least min times,
    int max = 0;           // and at most max (or unbounded)
    std::int64_t size = 0; // the states Thompson's construction gives it
};

struct Tree {
    std::vector<Node> nodes;
    std::vector<SymbolSet> sets; // distinct: equal classes share one
    int root = -1;
};

// How a message names the pattern: quoted, cut short when long.
inline std::string describe(std::string_view text) {
    constexpr std::size_t shown = 60;
    std::string out = "regex(\"";
    out += text.substr(0, shown);
    if (text.size() > shown) out += "...";
    return out + "\")";
}

template <class = void>
class Parser {
public:
    Parser(std::string_view text, std::optional<Interval> alphabet) : text_(text), alphabet_(alphabet) {}

    Tree parse() {
        tree_.root = alternation(0);
        // alternation() stops only at the end or at a ')' it cannot close.
        if (!at_end()) fail("unmatched ')' at position " + std::to_string(pos_));
        share_sets();
        return std::move(tree_);
    }

private:
    std::string_view text_;
    std::optional<Interval> alphabet_;
    std::size_t pos_ = 0;
    Tree tree_;

    [[noreturn]] void fail(const std::string& what) const { throw model_error(describe(text_) + ": " + what); }

    std::string found() const {
        if (at_end()) return "the end";
        const char c = text_[pos_];
        if (c >= 0x21 && c <= 0x7e) return std::string("'") + c + "'";
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        return std::string("byte 0x") + hex;
    }

    [[noreturn]] void expected(const std::string& what) const {
        fail("expected " + what + " at position " + std::to_string(pos_) + ", found " + found());
    }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    static bool digit(char c) { return c >= '0' && c <= '9'; }
    bool atom_start() const {
        if (at_end()) return false;
        const char c = peek();
        return digit(c) || c == '.' || c == '[' || c == '(';
    }

    void skip_blanks() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    // Strictly below: the accepting state comes on top of the tree's.
    void check_size(std::int64_t size, std::size_t at) const {
        if (size >= regex_limit)
            fail("the automaton would pass propane::regex_limit (" + std::to_string(regex_limit) +
                 " states) at position " + std::to_string(at));
    }

    int add(Node node, std::size_t at) {
        check_size(node.size, at);
        tree_.nodes.push_back(std::move(node));
        return static_cast<int>(tree_.nodes.size()) - 1;
    }

    int leaf(SymbolSet set, std::size_t at) {
        tree_.sets.push_back(std::move(set));
        return add(Node{.kind = Node::Kind::symbols, .set = static_cast<int>(tree_.sets.size()) - 1, .size = 1}, at);
    }

    // Equal classes share one set, numbered in sorted order: the automaton
    // does not depend on the numbering. Sorted afterwards rather than kept
    // in a std::map, whose header costs every file that includes propane.hpp.
    void share_sets() {
        std::vector<SymbolSet>& sets = tree_.sets;
        std::vector<int> order(sets.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
        const auto u = [](int i) { return static_cast<std::size_t>(i); };
        std::sort(order.begin(), order.end(), [&](int a, int b) { return sets[u(a)] < sets[u(b)]; });
        std::vector<int> id(sets.size());
        std::vector<SymbolSet> distinct;
        for (const int k : order) {
            if (distinct.empty() || distinct.back() != sets[u(k)]) distinct.push_back(std::move(sets[u(k)]));
            id[u(k)] = static_cast<int>(distinct.size()) - 1;
        }
        for (Node& node : tree_.nodes)
            if (node.kind == Node::Kind::symbols) node.set = id[u(node.set)];
        sets = std::move(distinct);
    }

    int alternation(int depth) {
        std::vector<int> parts{term(depth)};
        std::int64_t size = tree_.nodes[static_cast<std::size_t>(parts[0])].size;
        std::size_t bar = pos_;
        while (!at_end() && peek() == '|') {
            bar = pos_++;
            parts.push_back(term(depth));
            size += tree_.nodes[static_cast<std::size_t>(parts.back())].size + 1; // and a split state
            check_size(size, bar);
        }
        if (parts.size() == 1) return parts[0];
        return add(Node{.kind = Node::Kind::alt, .kids = std::move(parts), .size = size}, bar);
    }

    // Leaves the position on the '|', the ')' or the end that follows.
    int term(int depth) {
        skip_blanks();
        if (!atom_start()) expected("a number, '(', '[' or '.'");
        std::vector<int> parts;
        std::int64_t size = 0;
        std::size_t at = pos_;
        for (;;) {
            skip_blanks();
            if (at_end() || peek() == '|' || peek() == ')') break;
            if (!atom_start())
                expected(std::string("a number, '(', '[', '.', '|' or ") + (depth > 0 ? "')'" : "the end"));
            at = pos_;
            parts.push_back(factor(depth));
            size += tree_.nodes[static_cast<std::size_t>(parts.back())].size;
            check_size(size, at);
        }
        if (parts.size() == 1) return parts[0];
        return add(Node{.kind = Node::Kind::concat, .kids = std::move(parts), .size = size}, at);
    }

    int factor(int depth) {
        const int kid = atom(depth);
        skip_blanks();
        if (at_end()) return kid;
        const std::size_t at = pos_;
        int min = 0;
        int max = 0;
        switch (peek()) {
        case '*': min = 0, max = unbounded, ++pos_; break;
        case '+': min = 1, max = unbounded, ++pos_; break;
        case '?': min = 0, max = 1, ++pos_; break;
        case '{': counts(min, max); break;
        default: return kid;
        }
        const std::int64_t s = tree_.nodes[static_cast<std::size_t>(kid)].size;
        std::int64_t size = 0;
        if (max == unbounded) size = min == 0 ? s + 1 : min * s + 1; // r* or r{min-1} r+
        else if (max == 0) size = 1;                                 // the empty word
        else size = min * s + std::int64_t{max - min} * (s + 1);     // r{min} (r (r ...)?)?
        return add(Node{.kind = Node::Kind::repeat, .kids = {kid}, .min = min, .max = max, .size = size}, at);
    }

    void counts(int& min, int& max) {
        ++pos_; // '{'
        skip_blanks();
        if (at_end() || !digit(peek())) expected("a number");
        min = number();
        skip_blanks();
        if (!at_end() && peek() == '}') {
            ++pos_;
            max = min;
            return;
        }
        if (at_end() || peek() != ',') expected("',' or '}'");
        ++pos_;
        skip_blanks();
        if (!at_end() && peek() == '}') {
            ++pos_;
            max = unbounded;
            return;
        }
        if (at_end() || !digit(peek())) expected("a number or '}'");
        const std::size_t at = pos_;
        max = number();
        if (max < min)
            fail("expected a maximum of at least " + std::to_string(min) + " at position " + std::to_string(at) +
                 ", found " + std::to_string(max));
        skip_blanks();
        if (at_end() || peek() != '}') expected("'}'");
        ++pos_;
    }

    int number() {
        const std::size_t at = pos_;
        std::int64_t v = 0;
        while (!at_end() && digit(peek())) {
            v = v * 10 + (peek() - '0');
            if (v > std::numeric_limits<int>::max())
                fail("the number at position " + std::to_string(at) + " is larger than " +
                     std::to_string(std::numeric_limits<int>::max()));
            ++pos_;
        }
        return static_cast<int>(v);
    }

    Interval alphabet_for(char what) const {
        if (!alphabet_)
            fail(std::string("'") + what + "' at position " + std::to_string(pos_) +
                 " needs the alphabet: regex(pattern, lo, hi)");
        return *alphabet_;
    }

    int atom(int depth) {
        const std::size_t at = pos_;
        const char c = peek();
        if (digit(c)) {
            const int v = number();
            return leaf({Interval{v, v}}, at);
        }
        if (c == '.') {
            const Interval all = alphabet_for('.');
            ++pos_;
            return leaf({all}, at);
        }
        if (c == '[') return leaf(symbol_class(), at);
        // '(': atom_start() admits nothing else.
        if (depth + 1 > max_depth)
            fail("groups nest deeper than " + std::to_string(max_depth) + " at position " + std::to_string(pos_));
        ++pos_;
        const int inner = alternation(depth + 1);
        if (at_end()) expected("')'");
        ++pos_; // alternation() stops only at ')' or the end
        return inner;
    }

    SymbolSet symbol_class() {
        ++pos_; // '['
        skip_blanks();
        std::optional<Interval> negated;
        if (!at_end() && peek() == '^') {
            negated = alphabet_for('^');
            ++pos_;
        }
        std::vector<Interval> items;
        skip_blanks();
        if (at_end() || !digit(peek())) expected("a number");
        for (;;) {
            const int lo = number();
            int hi = lo;
            skip_blanks();
            const bool range = !at_end() && peek() == '-';
            if (range) {
                ++pos_;
                skip_blanks();
                if (at_end() || !digit(peek())) expected("a number");
                hi = number();
                skip_blanks();
            }
            items.push_back({std::min(lo, hi), std::max(lo, hi)});
            if (!at_end() && peek() == ']') break;
            if (at_end() || !digit(peek())) expected(range ? "a number or ']'" : "a number, '-' or ']'");
        }
        ++pos_; // ']'
        SymbolSet set = normalized(std::move(items));
        return negated ? complement(set, *negated) : set;
    }

    static SymbolSet normalized(std::vector<Interval> items) {
        std::sort(items.begin(), items.end());
        SymbolSet out;
        for (const Interval& i : items) {
            if (!out.empty() && std::int64_t{i.lo} <= std::int64_t{out.back().hi} + 1)
                out.back().hi = std::max(out.back().hi, i.hi);
            else
                out.push_back(i);
        }
        return out;
    }

    static SymbolSet complement(const SymbolSet& set, Interval within) {
        SymbolSet out;
        std::int64_t next = within.lo; // the least symbol not yet placed
        for (const Interval& i : set) {
            if (i.lo > next)
                out.push_back({static_cast<int>(next), static_cast<int>(std::min<std::int64_t>(i.lo - 1, within.hi))});
            next = std::max<std::int64_t>(next, std::int64_t{i.hi} + 1);
            if (next > within.hi) break;
        }
        if (next <= within.hi) out.push_back({static_cast<int>(next), within.hi});
        return out;
    }
};

} // namespace detail::re

} // namespace propane

#endif
