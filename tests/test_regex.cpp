// regex(pattern) (constraints/regex.hpp): regular expressions in MiniZinc's
// syntax to minimal deterministic automata for regular(xs, dfa).
//
// Claims checked:
// - the Dfa accepts exactly what std::regex_match (ECMAScript) accepts for
//   the same expression, written in both syntaxes by one random generator
//   (symbol v is the character 'a' + v), on every word of up to six
//   symbols over {0, 1, 12};
// - it is deterministic, trim (every state reachable from state 0 and
//   leading to a final state) and minimal: no two states, nor a state and
//   the rejecting sink, accept the same words (table filling);
// - it is canonical: numbered breadth-first from 0 by symbol, transitions
//   sorted by state and symbol, so equal languages give equal values;
// - regular(xs, regex(...)) posted in a store has exactly the brute-force
//   solutions;
// - malformed patterns throw model_error naming what was expected and the
//   position (from 0); sizes past regex_limit are refused.

#include <doctest/doctest.h>

#include <propane/constraints/regex.hpp>
#include <propane/constraints/regular.hpp>
#include <propane/engine/error.hpp>
#include <propane/engine/store.hpp>
#include <propane/search/solve.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "instances_search.hpp"

namespace {

using propane::Dfa;
using Word = std::vector<int>;

std::size_t u(int i) { return static_cast<std::size_t>(i); }

// The transition function; fails the test on two transitions from one
// state on one symbol.
std::map<std::pair<int, int>, int> function_of(const Dfa& d) {
    std::map<std::pair<int, int>, int> delta;
    for (const propane::Transition& t : d.transitions) {
        const bool fresh = delta.emplace(std::pair{t.from, t.symbol}, t.to).second;
        CHECK_MESSAGE(fresh, "two transitions from state " << t.from << " on " << t.symbol);
    }
    return delta;
}

bool accepts(const Dfa& d, const Word& w) {
    int q = d.start;
    for (const int v : w) {
        const propane::Transition* next = nullptr;
        for (const propane::Transition& t : d.transitions)
            if (t.from == q && t.symbol == v) next = &t;
        if (next == nullptr) return false;
        q = next->to;
    }
    for (const int f : d.finals)
        if (f == q) return true;
    return false;
}

// Deterministic, numbered and ordered as regex() promises, trim, and no two
// states (the rejecting sink included) equivalent.
void check_shape(const Dfa& d) {
    REQUIRE(d.states >= 1);
    CHECK(d.start == 0);
    const auto delta = function_of(d);
    for (std::size_t k = 1; k < d.transitions.size(); ++k) {
        const propane::Transition& a = d.transitions[k - 1];
        const propane::Transition& b = d.transitions[k];
        CHECK((a.from < b.from || (a.from == b.from && a.symbol < b.symbol)));
    }
    for (std::size_t k = 1; k < d.finals.size(); ++k) CHECK(d.finals[k - 1] < d.finals[k]);
    const int n = d.states;
    std::vector<char> final(u(n) + 1, 0);
    for (const int f : d.finals) final[u(f)] = 1;
    if (d.finals.empty()) { // the empty language: one state, nothing else
        CHECK(n == 1);
        CHECK(d.transitions.empty());
        return;
    }

    // Breadth-first order by symbol from 0 is the numbering.
    std::vector<int> order{0};
    std::vector<char> seen(u(n), 0);
    seen[0] = 1;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (const auto& [key, to] : delta)
            if (key.first == order[i] && !seen[u(to)]) seen[u(to)] = 1, order.push_back(to);
    REQUIRE(static_cast<int>(order.size()) == n);
    for (int q = 0; q < n; ++q) CHECK(order[u(q)] == q);

    std::set<int> symbols;
    for (const propane::Transition& t : d.transitions) symbols.insert(t.symbol);
    const int sink = n;
    const auto step = [&](int q, int a) {
        if (q == sink) return sink;
        const auto it = delta.find({q, a});
        return it == delta.end() ? sink : it->second;
    };
    std::vector<std::vector<char>> apart(u(n) + 1, std::vector<char>(u(n) + 1, 0));
    for (int p = 0; p <= n; ++p)
        for (int q = 0; q <= n; ++q) apart[u(p)][u(q)] = final[u(p)] != final[u(q)];
    for (bool changed = true; changed;) {
        changed = false;
        for (int p = 0; p <= n; ++p)
            for (int q = p + 1; q <= n; ++q) {
                if (apart[u(p)][u(q)]) continue;
                for (const int a : symbols)
                    if (apart[u(step(p, a))][u(step(q, a))]) {
                        apart[u(p)][u(q)] = apart[u(q)][u(p)] = 1;
                        changed = true;
                        break;
                    }
            }
    }
    for (int p = 0; p <= n; ++p)
        for (int q = p + 1; q <= n; ++q)
            CHECK_MESSAGE(apart[u(p)][u(q)], "states " << p << " and " << q << " accept the same words"
                                                       << std::string(q == sink ? " (none: a dead state)" : ""));
}

// One expression in both syntaxes.
struct Expr {
    enum class Kind { atom, quantified, concat, alt };
    std::string ours, ecma;
    Kind kind = Kind::atom;
    int loops = 0; // quantifiers nested
};

char letter(int v) { return static_cast<char>('a' + v); }

class Generator {
public:
    explicit Generator(std::uint32_t seed) : rng_(seed) {}

    Expr expr(int depth) {
        if (depth == 0 || pick(10) < 3) return leaf();
        switch (pick(5)) {
        case 0: return concat(depth);
        case 1: return alt(depth);
        case 2:
        case 3: return quantify(expr(depth - 1));
        default: return group(expr(depth - 1));
        }
    }

private:
    std::mt19937 rng_;
    static constexpr int symbols[] = {0, 1, 2, 3, 12};

    int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint32_t>(n)); }
    std::string blank() {
        static const char* const blanks[] = {"", "", "", " ", " ", "  ", "\t", "\n"};
        return blanks[pick(8)];
    }
    int symbol() { return symbols[pick(5)]; }

    Expr leaf() {
        const int kind = pick(8);
        if (kind < 4) {
            const int v = symbol();
            return {std::to_string(v), std::string(1, letter(v)), Expr::Kind::atom, 0};
        }
        if (kind == 7) return {".", ".", Expr::Kind::atom, 0};
        const bool negated = kind == 6;
        Expr e{"[" + blank() + (negated ? "^" + blank() : ""), negated ? "[^" : "[", Expr::Kind::atom, 0};
        const int items = 1 + pick(3);
        for (int i = 0; i < items; ++i) {
            if (i > 0) e.ours += pick(2) == 0 ? " " : " " + blank();
            int lo = symbol();
            if (pick(2) == 0) {
                e.ours += std::to_string(lo);
                e.ecma += letter(lo);
                continue;
            }
            int hi = symbol();
            e.ours += std::to_string(lo) + blank() + "-" + blank() + std::to_string(hi);
            if (lo > hi) std::swap(lo, hi); // read in order, as MiniZinc
            e.ecma += std::string(1, letter(lo)) + "-" + letter(hi);
        }
        e.ours += blank() + "]";
        e.ecma += "]";
        return e;
    }

    static Expr group(const Expr& e) { return {"(" + e.ours + ")", "(?:" + e.ecma + ")", Expr::Kind::atom, e.loops}; }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    Expr concat(int depth) {
        Expr out{"", "", Expr::Kind::concat, 0};
        const int parts = 2 + pick(2);
        for (int i = 0; i < parts; ++i) {
            Expr e = expr(depth - 1);
            if (e.kind == Expr::Kind::alt) e = group(e);
            // Two numbers side by side would be one number: a blank splits them.
            const bool must = !out.ours.empty() && digit(out.ours.back()) && digit(e.ours.front());
            std::string sep = out.ours.empty() ? "" : blank();
            if (must && sep.empty()) sep = " ";
            out.ours += sep + e.ours;
            out.ecma += e.ecma;
            out.loops = std::max(out.loops, e.loops);
        }
        return out;
    }

    Expr alt(int depth) {
        Expr out{"", "", Expr::Kind::alt, 0};
        const int parts = 2 + pick(2);
        for (int i = 0; i < parts; ++i) {
            const Expr e = expr(depth - 1);
            if (i > 0) {
                out.ours += blank() + "|" + blank();
                out.ecma += "|";
            }
            out.ours += e.ours;
            out.ecma += e.ecma;
            out.loops = std::max(out.loops, e.loops);
        }
        return out;
    }

    // std::regex backtracks: three quantifiers nested can take it minutes
    // on a word of six, so two is the most.
    Expr quantify(Expr e) {
        if (e.loops >= 2) return group(e);
        if (e.kind != Expr::Kind::atom) e = group(e);
        std::string q;
        switch (pick(6)) {
        case 0: q = "*"; break;
        case 1: q = "+"; break;
        case 2: q = "?"; break;
        case 3: q = "{" + std::to_string(pick(3)) + "}"; break;
        case 4: q = "{" + std::to_string(pick(3)) + ",}"; break;
        default: {
            const int lo = pick(3);
            q = "{" + std::to_string(lo) + "," + std::to_string(lo + pick(3)) + "}";
        }
        }
        std::string spaced = q;
        if (q.front() == '{') { // blanks are allowed between the tokens of counts
            spaced = "{";
            for (std::size_t i = 1; i < q.size(); ++i) spaced += blank() + q[i];
        }
        return {e.ours + blank() + spaced, e.ecma + q, Expr::Kind::quantified, e.loops + 1};
    }
};

std::vector<Word> words_up_to(const std::vector<int>& alphabet, int length) {
    std::vector<Word> out{{}};
    for (std::size_t begin = 0; begin < out.size(); ++begin) {
        if (static_cast<int>(out[begin].size()) == length) continue;
        for (const int v : alphabet) {
            Word w = out[begin];
            w.push_back(v);
            out.push_back(std::move(w));
        }
    }
    return out;
}

std::string text(const Word& w) {
    std::string s;
    for (const int v : w) s += letter(v);
    return s;
}

std::string shown(const Word& w) {
    std::string s = "[";
    for (const int v : w) s += (s.size() > 1 ? " " : "") + std::to_string(v);
    return s + "]";
}

} // namespace

TEST_CASE("regex: random patterns accept what std::regex matches, minimal and canonical") {
    const std::vector<Word> words = words_up_to({0, 1, 12}, 6);
    Generator gen(20240611);
    int largest = 0;
    for (int round = 0; round < 2000; ++round) {
        const Expr e = gen.expr(1 + round % 4);
        INFO("pattern \"" << e.ours << "\", ECMAScript \"" << e.ecma << "\"");
        const Dfa d = propane::regex(e.ours, 0, 12);
        largest = std::max(largest, d.states);
        check_shape(d);
        const std::regex oracle(e.ecma, std::regex::ECMAScript);
        for (const Word& w : words) {
            const bool want = std::regex_match(text(w), oracle);
            if (accepts(d, w) != want) {
                FAIL_CHECK("word " << shown(w) << ": the Dfa says " << !want);
                break;
            }
        }
    }
    MESSAGE("largest automaton: " << largest << " states");
}

TEST_CASE("regex: equal languages give equal Dfa values") {
    const auto same = [](const Dfa& a, const Dfa& b) {
        CHECK(a.states == b.states);
        CHECK(a.start == b.start);
        CHECK(a.finals == b.finals);
        REQUIRE(a.transitions.size() == b.transitions.size());
        for (std::size_t k = 0; k < a.transitions.size(); ++k) {
            CHECK(a.transitions[k].from == b.transitions[k].from);
            CHECK(a.transitions[k].symbol == b.transitions[k].symbol);
            CHECK(a.transitions[k].to == b.transitions[k].to);
        }
    };
    same(propane::regex("(0|1)*"), propane::regex("[0-1]*"));
    same(propane::regex("(0|1)*"), propane::regex("(0*1*)*"));
    same(propane::regex("(0|1)*"), propane::regex("[1 0]{0,}"));
    same(propane::regex("1{2,4}"), propane::regex("1 1 1? 1?"));
    same(propane::regex("(2 3)+"), propane::regex("2 3 (2 3)*"));
    same(propane::regex("5 (7 | 9)"), propane::regex("5 7 | 5 9"));
    same(propane::regex("[0-3]", 0, 3), propane::regex("."  , 0, 3));
    same(propane::regex("[^1]", 0, 3), propane::regex("[0 2-3]"));
    same(propane::regex("4 [0-3]{0}"), propane::regex("4"));
}

TEST_CASE("regex: examples, whole automata") {
    // A nonogram row with clue 3 2.
    const Dfa row = propane::regex("0* 1{3} 0+ 1{2} 0*");
    CHECK(row.states == 7);
    CHECK(row.finals == std::vector<int>{6});
    const std::vector<std::vector<int>> want{{0, 0, 0}, {0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 0, 4},
                                             {4, 0, 4}, {4, 1, 5}, {5, 1, 6}, {6, 0, 6}};
    REQUIRE(row.transitions.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        CHECK(row.transitions[k].from == want[k][0]);
        CHECK(row.transitions[k].symbol == want[k][1]);
        CHECK(row.transitions[k].to == want[k][2]);
    }

    // Numbers of several digits; blanks split them, syntax too.
    const Dfa multi = propane::regex("10 11* 12");
    CHECK(multi.states == 3);
    CHECK(accepts(multi, {10, 12}));
    CHECK(accepts(multi, {10, 11, 11, 12}));
    CHECK_FALSE(accepts(multi, {1, 0, 1, 2}));
    CHECK(accepts(propane::regex("1(2)3"), {1, 2, 3}));
    CHECK(accepts(propane::regex("12"), {12}));
    CHECK_FALSE(accepts(propane::regex("12"), {1, 2}));
    CHECK(accepts(propane::regex(" \t1\n2 "), {1, 2}));
    CHECK(accepts(propane::regex("007"), {7}));
    CHECK(accepts(propane::regex("2147483647"), {2147483647}));

    // Classes: ranges, lists, both, reversed ranges; counted repetition.
    const Dfa cls = propane::regex("[1-3 7]{2,3}");
    for (const int a : {0, 1, 2, 3, 4, 7, 8})
        for (const int b : {1, 7, 5}) {
            const bool in_a = (a >= 1 && a <= 3) || a == 7;
            const bool in_b = b != 5;
            CHECK(accepts(cls, {a, b}) == (in_a && in_b));
            CHECK(accepts(cls, {a, b, 2}) == (in_a && in_b));
            CHECK_FALSE(accepts(cls, {a, b, 2, 2}));
        }
    CHECK_FALSE(accepts(cls, {1}));
    CHECK(accepts(propane::regex("[9-7]"), {8}));
    CHECK(accepts(propane::regex("[ 1 3 5 ]+"), {5, 1, 3}));
    CHECK(propane::regex("[0-999999]").transitions.size() == 1'000'000);

    // Nested groups and open counts.
    const Dfa nested = propane::regex("((1 (2|3))+ 4){2,}");
    CHECK(accepts(nested, {1, 2, 4, 1, 3, 1, 2, 4}));
    CHECK(accepts(nested, {1, 2, 4, 1, 3, 4, 1, 2, 4}));
    CHECK_FALSE(accepts(nested, {1, 2, 4}));
    CHECK_FALSE(accepts(nested, {1, 2, 4, 4}));
    const Dfa at_least = propane::regex("5{3,}");
    CHECK(at_least.states == 4);
    CHECK_FALSE(accepts(at_least, {5, 5}));
    CHECK(accepts(at_least, {5, 5, 5, 5, 5, 5, 5}));

    // The alphabet: '.' and negated classes.
    const Dfa any = propane::regex("1 . 1", 0, 2);
    CHECK(any.transitions.size() == 5);
    CHECK(accepts(any, {1, 0, 1}));
    CHECK_FALSE(accepts(any, {1, 3, 1}));
    const Dfa not_ = propane::regex("[^0 2-3]*", -2, 5);
    CHECK(accepts(not_, {-2, -1, 1, 4, 5}));
    CHECK_FALSE(accepts(not_, {2}));
    CHECK_FALSE(accepts(not_, {6}));

    for (const Dfa& d : {row, multi, cls, nested, at_least, any, not_}) check_shape(d);
    const Dfa suffix = propane::regex("(0|1)* 1 (0|1){4}");
    CHECK(suffix.states == 32);
    check_shape(suffix);

    // Nothing matches: one state, no final.
    const Dfa none = propane::regex("1 [^0-3] 1", 0, 3);
    CHECK(none.states == 1);
    CHECK(none.finals.empty());
    CHECK(none.transitions.empty());
    // Only the empty word.
    const Dfa empty = propane::regex("7{0}");
    CHECK(empty.states == 1);
    CHECK(empty.finals == std::vector<int>{0});
    CHECK(empty.transitions.empty());
    check_shape(none);
    check_shape(empty);
}

TEST_CASE("regex: syntax errors name what was expected and the position") {
    const std::vector<std::pair<const char*, const char*>> cases{
        {"0* (1 | 2", "regex(\"0* (1 | 2\"): expected ')' at position 9, found the end"},
        {"", "expected a number, '(', '[' or '.' at position 0, found the end"},
        {"   ", "expected a number, '(', '[' or '.' at position 3, found the end"},
        {"1 |", "expected a number, '(', '[' or '.' at position 3, found the end"},
        {"| 1", "expected a number, '(', '[' or '.' at position 0, found '|'"},
        {"1 || 2", "expected a number, '(', '[' or '.' at position 3, found '|'"},
        {"()", "expected a number, '(', '[' or '.' at position 1, found ')'"},
        {"*1", "expected a number, '(', '[' or '.' at position 0, found '*'"},
        {"1**", "expected a number, '(', '[', '.', '|' or the end at position 2, found '*'"},
        {"(1+?)", "expected a number, '(', '[', '.', '|' or ')' at position 3, found '?'"},
        {"1 a", "expected a number, '(', '[', '.', '|' or the end at position 2, found 'a'"},
        {"1 -2", "expected a number, '(', '[', '.', '|' or the end at position 2, found '-'"},
        {"1 2)", "unmatched ')' at position 3"},
        {"((1)", "expected ')' at position 4, found the end"},
        {"1{", "expected a number at position 2, found the end"},
        {"1{x}", "expected a number at position 2, found 'x'"},
        {"1{2 3}", "expected ',' or '}' at position 4, found '3'"},
        {"1{2,x}", "expected a number or '}' at position 4, found 'x'"},
        {"1{2,3", "expected '}' at position 5, found the end"},
        {"1{3,2}", "expected a maximum of at least 3 at position 4, found 2"},
        {"[]", "expected a number at position 1, found ']'"},
        {"[1-]", "expected a number at position 3, found ']'"},
        {"[1 2", "expected a number, '-' or ']' at position 4, found the end"},
        {"[1-2 x]", "expected a number or ']' at position 5, found 'x'"},
        {"[1-2-3]", "expected a number or ']' at position 4, found '-'"},
        {"1 \x01", "expected a number, '(', '[', '.', '|' or the end at position 2, found byte 0x01"},
        {"2147483648", "the number at position 0 is larger than 2147483647"},
        {"1 {99999999999}", "the number at position 3 is larger than 2147483647"},
        {".", "'.' at position 0 needs the alphabet: regex(pattern, lo, hi)"},
        {"1 [^2]", "'^' at position 3 needs the alphabet: regex(pattern, lo, hi)"},
    };
    for (const auto& c : cases) {
        INFO("pattern \"" << c.first << "\"");
        CHECK_THROWS_WITH_AS(propane::regex(c.first), doctest::Contains(c.second), propane::model_error);
    }
    CHECK_THROWS_WITH_AS(propane::regex("[^2] 1^", 0, 3),
                         doctest::Contains("expected a number, '(', '[', '.', '|' or the end at position 6, found '^'"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regex(".", 3, 2), doctest::Contains("regex(\".\"): the alphabet 3..2 is empty"),
                         propane::model_error);
    const std::string deep = std::string(1001, '(') + "1" + std::string(1001, ')');
    CHECK_THROWS_WITH_AS(propane::regex(deep), doctest::Contains("groups nest deeper than 1000 at position 1000"),
                         propane::model_error);
    const std::string ok = std::string(1000, '(') + "1" + std::string(1000, ')');
    CHECK(propane::regex(ok).states == 2);
    const std::string long_one = std::string(100, '1') + ")";
    const std::string cut = "regex(\"" + std::string(60, '1') + "...\")";
    CHECK_THROWS_WITH_AS(propane::regex(long_one), doctest::Contains(cut.c_str()), propane::model_error);
}

TEST_CASE("regex: sizes past regex_limit are refused") {
    CHECK(propane::regex_limit == 1'000'000);
    const Dfa chain = propane::regex("[0-9]{10000}");
    CHECK(chain.states == 10001);
    CHECK(chain.transitions.size() == 100'000);
    CHECK_THROWS_WITH_AS(propane::regex("1 0{1000000}"),
                         doctest::Contains("the automaton would pass propane::regex_limit (1000000 states) "
                                           "at position 3"),
                         propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regex("(1 2{1000}){1000}"),
                         doctest::Contains("regex_limit (1000000 states) at position 11"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regex("1{2147483647,}"), doctest::Contains("at position 1"), propane::model_error);
    CHECK_THROWS_WITH_AS(propane::regex("[0-2000000000]"),
                         doctest::Contains("the automaton has 2000000001 transitions, past propane::regex_limit"),
                         propane::model_error);
    // A small automaton over many symbol ranges: 1002 states, 1000 symbols
    // each, before minimization.
    std::string evens = "[";
    for (int v = 0; v < 2000; v += 2) evens += std::to_string(v) + " ";
    evens += "]{1001}";
    CHECK_THROWS_WITH_AS(propane::regex(evens),
                         doctest::Contains("the deterministic automaton grows past propane::regex_limit "
                                           "(1000000): more than 1000000 transitions over 1000 ranges of symbols"),
                         propane::model_error);
    // The subset construction's blow-up, caught by the size of its state
    // sets: each of the 2^40 states of the left alternative comes with the
    // 2000 of the right.
    CHECK_THROWS_WITH_AS(propane::regex("(0|1)* 1 (0|1){40} | (0|1)* (2*){2000}"),
                         doctest::Contains("grows past propane::regex_limit (1000000): its states are sets "
                                           "of more than 10000000 NFA states in all"),
                         propane::model_error);
    CHECK(propane::regex("(0|1)* 1 (0|1){12}").states == 8192);
}

TEST_CASE("regular(xs, regex(...)) in a store: the brute-force solutions") {
    using S = propane::Store<propane::BitDomain<1>>;
    const auto check = [](const std::string& ours, const std::string& ecma, int n, int lo, int hi) {
        INFO("pattern \"" << ours << "\" over " << n << " views of " << lo << ".." << hi);
        S s;
        const std::vector<propane::IntVar> xs = s.int_vars(n, lo, hi);
        s.post(propane::regular(xs, propane::regex(ours, lo, hi)));
        std::set<Word> found;
        const propane::SearchStats st = propane::solve(s, xs, propane::Strategy{}, [&](const auto& solution) {
            Word w;
            for (int i = 0; i < n; ++i) w.push_back(solution[u(i)]);
            found.insert(w);
        });
        const std::regex oracle(ecma, std::regex::ECMAScript);
        std::set<Word> want;
        Word w(u(n), lo);
        for (;;) {
            if (std::regex_match(text(w), oracle)) want.insert(w);
            int i = 0;
            while (i < n && w[u(i)] == hi) w[u(i++)] = lo;
            if (i == n) break;
            ++w[u(i)];
        }
        CHECK(st.solutions == want.size());
        CHECK(found == want);
        return want.size();
    };
    // Nonogram rows of 8 with clue 3 2: the slack of 2 over 3 gaps, 6 ways.
    CHECK(check("0* 1{3} 0+ 1{2} 0*", "a*b{3}a+b{2}a*", 8, 0, 1) == 6);
    CHECK(check("[1-3]* 0 (2|3){2,}", "[b-d]*a(?:c|d){2,}", 5, 0, 3) > 0);
    CHECK(check("(12 | 0 1)+ .?", "(?:m|ab)+.?", 4, 0, 12) > 0);
    CHECK(check("[^1]* 1 [^1]*", "[^b]*b[^b]*", 5, 0, 3) == 5 * 81);
    CHECK(check("1 [^0-3]", "b[^a-d]", 2, 0, 3) == 0);
    Generator gen(7);
    for (int round = 0; round < 200; ++round) {
        const Expr e = gen.expr(1 + round % 3);
        check(e.ours, e.ecma, 4 + round % 2, 0, 3);
    }
}
