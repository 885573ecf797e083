// libFuzzer target: random models against brute force, with the
// propagation checked at every node of the search.
//
// The input bytes are read as a small model (read_spec() says how): 2..6
// variables with domains of a few values, some negative, some with holes
// spread over a range as wide as the domain type holds; one to three
// AllDifferent constraints over x, x + c or a*x + b views (now and then two
// views of one variable in one constraint) at value, bounds or domain
// strength; a domain type (one word, two words or dynamic); a search order
// over x or a*x + b; a built-in strategy with a seed, maybe restarts, and
// maybe a limit. Every input is a model: past its end the input goes on
// as pseudo-random bytes (see Input).
//
// Every solution is enumerated by brute force (at most max_assignments
// assignments: an input takes about half a millisecond in an optimised
// build, a few under libFuzzer and the sanitizers) and the model is then
// searched three times:
//   built-in   the input's strategy and limits, on the store: the solutions
//              found are brute-force solutions, each once, all of them when
//              the search is complete, as many as the limit says when not;
//   copy       the same search on a copy of the store made before the first:
//              the same solutions in the same order and the same statistics;
//   checked    choosers written here, which log each decision, so that at
//              every node (at the propagation fixpoint, where the variable
//              chooser is called) the fuzzer checks that no brute-force
//              solution obeying the decisions on the path has lost a value
//              (soundness), and that each constraint has the strength it
//              claims, on its own, over the current domains:
//                value   no fixed view's value is left in another view;
//                bounds  that, and each view's min and max have a support
//                        when the other views may take any integer within
//                        their bounds (the interval relaxation);
//                domain  every value of every view has a support: distinct
//                        values for all the views, each from its domain.
//              Views of one variable count as independent there, as they
//              do for the propagators (tests/test_all_different.cpp says
//              why). The built-in choosers do not tell what they decided,
//              so this search has its own: the first four variable choices
//              or a random one; min, max, middle or random value, or a
//              split at the middle or at random.
// After each search the domains must be back where they were before it.
//
// The references use only the model's numbers (a view is a*x + b with its
// a and b) and the store's answers to contains() and size() on variables:
// nothing goes through propane's views or its propagators.
//
// A failed check prints what failed and the model, then aborts, which
// libFuzzer reports with the input that caused it.

#include <propane/propane.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using propane::IntVar;

constexpr std::uint64_t max_assignments = 4096;
constexpr int max_vars = 6;
constexpr int lowest = -20; // no value is smaller; pack() relies on it

// ---- reading the input ----------------------------------------------------------

// Past its end an input goes on as pseudo-random bytes seeded by a hash of
// the input itself: a short input still makes a model of every size, and
// a fuzzer that starts from nothing is not stuck with the one-value domains
// that trailing zeros would give while it learns to grow inputs.
class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
        for (std::size_t i = 0; i < size; ++i) state_ = (state_ ^ data[i]) * 0x100000001b3ULL; // FNV-1a
    }

    unsigned byte() {
        if (pos_ < size_) return data_[pos_++];
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL); // SplitMix64
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return static_cast<unsigned>((z ^ (z >> 31)) & 0xff);
    }
    int below(int n) { return static_cast<int>(byte() % static_cast<unsigned>(n)); }
    int between(int lo, int hi) { return lo + below(hi - lo + 1); }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

// ---- the model as numbers ---------------------------------------------------------

enum class Width { w1, w2, dynamic };
enum class Kind { var, offset, affine };

struct ViewSpec { // a*x_var + b
    int var, a, b;
    std::int64_t of(int x) const { return std::int64_t{a} * x + b; }
};

struct VarSpec {
    int lo, hi;
    std::vector<int> values; // ascending, within lo..hi
    int removal;             // which view kind removes the rest of lo..hi
};

struct ConSpec {
    Kind kind;
    propane::Consistency strength;
    std::vector<ViewSpec> views;
};

struct Spec {
    Width width = Width::w1;
    bool affine_search = false;
    bool holes_after_posting = false;
    bool propagate_first = false;
    std::vector<VarSpec> vars;
    std::vector<ConSpec> cons;
    std::vector<ViewSpec> search;
    propane::Strategy strategy;
    propane::Limits limits;
    int check_var = 0, check_val = 0;
    std::uint64_t check_seed = 0;

    int n() const { return static_cast<int>(vars.size()); }
    const VarSpec& var(int i) const { return vars[static_cast<std::size_t>(i)]; }
    bool restarts() const { return strategy.restarts.policy != propane::RestartPolicy::none; }

    // One constraint at domain strength over views of distinct variables:
    // every value left has a support, so search never fails below the root.
    bool backtrack_free() const {
        if (cons.size() != 1 || cons[0].strength != propane::domain) return false;
        std::vector<int> seen;
        for (const ViewSpec& v : cons[0].views) {
            if (std::find(seen.begin(), seen.end(), v.var) != seen.end()) return false;
            seen.push_back(v.var);
        }
        return true;
    }

    std::string describe() const;
};

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::var: return "x";
    case Kind::offset: return "x + c";
    case Kind::affine: return "a*x + b";
    }
    return "?";
}

std::string Spec::describe() const {
    static constexpr const char* widths[] = {"BitDomain<1>", "BitDomain<2>", "BitDomain<dynamic>"};
    std::string o = std::string("store ") + widths[static_cast<int>(width)];
    o += holes_after_posting ? ", holes made after posting" : ", holes made before posting";
    o += propagate_first ? ", propagated before search\n" : "\n";
    for (int i = 0; i < n(); ++i) {
        o += "  x" + std::to_string(i) + " in " + std::to_string(var(i).lo) + ".." + std::to_string(var(i).hi) + " = {";
        for (std::size_t k = 0; k < var(i).values.size(); ++k) o += (k ? "," : "") + std::to_string(var(i).values[k]);
        o += "}\n";
    }
    auto view = [](const ViewSpec& v) {
        return std::to_string(v.a) + "*x" + std::to_string(v.var) + (v.b < 0 ? "" : "+") + std::to_string(v.b);
    };
    for (const ConSpec& c : cons) {
        o += std::string("  all_different<") + kind_name(c.kind) + ">(";
        for (std::size_t k = 0; k < c.views.size(); ++k) o += (k ? ", " : "") + view(c.views[k]);
        o += std::string(", ") + std::string(propane::to_string(c.strength)) + ")\n";
    }
    o += "  search over (";
    for (std::size_t k = 0; k < search.size(); ++k) o += (k ? ", " : "") + view(search[k]);
    o += ") var " + std::string(propane::to_string(strategy.var)) + ", val " +
         std::string(propane::to_string(strategy.val)) + ", seed " + std::to_string(strategy.seed) + ", restarts " +
         std::string(propane::to_string(strategy.restarts.policy)) + " scale " +
         std::to_string(strategy.restarts.scale) + "\n";
    auto limit = [](std::uint64_t v) { return v == propane::unlimited ? std::string("-") : std::to_string(v); };
    o += "  limits: solutions " + limit(limits.solutions) + ", branches " + limit(limits.branches) + ", failures " +
         limit(limits.failures) + "\n";
    o += "  checked search: var mode " + std::to_string(check_var) + ", val mode " + std::to_string(check_val) +
         ", seed " + std::to_string(check_seed) + "\n";
    return o;
}

[[noreturn]] void fail(const Spec& spec, const std::string& what) {
    std::fprintf(stderr, "fuzz_models: %s\nmodel:\n%s", what.c_str(), spec.describe().c_str());
    std::fflush(stderr);
    std::abort();
}

constexpr propane::Consistency strengths[] = {propane::value, propane::bounds, propane::domain};
constexpr propane::VarChoice var_choices[] = {propane::first_unbound, propane::smallest_domain,
                                              propane::largest_domain, propane::smallest_min, propane::dom_wdeg};
constexpr propane::ValChoice val_choices[] = {propane::min_value, propane::max_value, propane::middle_value,
                                              propane::split_value, propane::random_value};
constexpr int scales[] = {-3, -2, -1, 1, 2, 3};
constexpr int search_scales[] = {-2, -1, 1, 3};

// The input, byte by byte: one byte of flags; the variable count; per
// variable its lowest value, its span, the values it keeps and how its
// holes are made; the constraint count; per constraint its kind and
// strength, the variables it takes, their coefficients and any twin views;
// the search order and its coefficients; the strategy; the limit; the
// checked search's choosers.
Spec read_spec(Input& in) {
    Spec s;
    const unsigned flags = in.byte();
    s.width = static_cast<Width>((flags & 3U) % 3);
    s.affine_search = (flags & 4U) != 0;
    s.holes_after_posting = (flags & 8U) != 0;
    s.propagate_first = (flags & 16U) != 0;

    const int n = in.between(2, max_vars);
    std::uint64_t assignments = 1;
    for (int i = 0; i < n; ++i) {
        VarSpec v{in.between(lowest, 20), 0, {}, 0};
        // One span in eight is wide: a few values far apart, across the
        // words of a two-word or dynamic domain.
        const unsigned span_byte = in.byte();
        const bool wide = span_byte >= 224;
        const int span = !wide ? 1 + static_cast<int>(span_byte % 9)
                         : s.width == Width::w1 ? 33 + static_cast<int>(span_byte % 31)
                                                : 65 + static_cast<int>(span_byte % 64);
        v.hi = v.lo + span - 1;
        if (wide) {
            const int count = in.between(1, 6);
            for (int k = 0; k < count; ++k) v.values.push_back(v.lo + in.below(span));
        } else {
            const unsigned low = in.byte();
            const unsigned mask = low | in.byte() << 8;
            for (int k = 0; k < span; ++k)
                if ((mask >> k & 1U) != 0) v.values.push_back(v.lo + k);
            if (v.values.empty()) v.values.push_back(v.lo + static_cast<int>(mask % static_cast<unsigned>(span)));
        }
        std::sort(v.values.begin(), v.values.end());
        v.values.erase(std::unique(v.values.begin(), v.values.end()), v.values.end());
        const std::uint64_t room = std::max<std::uint64_t>(1, max_assignments / assignments);
        if (v.values.size() > room) v.values.resize(static_cast<std::size_t>(room));
        assignments *= v.values.size();
        v.removal = in.below(3);
        s.vars.push_back(std::move(v));
    }

    const int ncons = in.between(1, 3);
    for (int c = 0; c < ncons; ++c) {
        const unsigned what = in.byte();
        ConSpec con{static_cast<Kind>(what % 3), strengths[what / 3 % 3], {}};
        const unsigned mask = in.byte();
        std::vector<int> picked;
        for (int i = 0; i < n; ++i)
            if ((mask >> i & 1U) != 0) picked.push_back(i);
        if (picked.size() < 2) {
            picked.clear();
            for (int i = 0; i < n; ++i) picked.push_back(i);
        }
        std::rotate(picked.begin(), picked.begin() + in.below(static_cast<int>(picked.size())), picked.end());
        auto view = [&](int var) -> ViewSpec {
            switch (con.kind) {
            case Kind::var: return {var, 1, 0};
            case Kind::offset: return {var, 1, in.between(-4, 4)};
            case Kind::affine: break;
            }
            return {var, scales[in.below(6)], in.between(-4, 4)};
        };
        for (int var : picked) con.views.push_back(view(var));
        if (con.kind != Kind::var && in.below(4) == 0) {
            const int twins = in.between(1, 2);
            for (int t = 0; t < twins; ++t) con.views.push_back(view(picked[static_cast<std::size_t>(
                in.below(static_cast<int>(picked.size())))]));
        }
        s.cons.push_back(std::move(con));
    }

    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(in.below(i + 1))]);
    for (int var : order)
        s.search.push_back(s.affine_search ? ViewSpec{var, search_scales[in.below(4)], in.between(-3, 3)}
                                           : ViewSpec{var, 1, 0});

    s.strategy.var = var_choices[in.below(5)];
    s.strategy.val = val_choices[in.below(5)];
    const unsigned seed_low = in.byte();
    s.strategy.seed = seed_low | in.byte() << 8;
    switch (in.below(4)) {
    case 0: s.strategy.restarts.policy = propane::RestartPolicy::luby; break;
    case 1:
        s.strategy.restarts.policy = propane::RestartPolicy::geometric;
        s.strategy.restarts.growth = 1.5;
        break;
    default: break;
    }
    s.strategy.restarts.scale = static_cast<std::uint64_t>(in.between(1, 3));
    switch (in.below(6)) {
    case 0: s.limits.solutions = static_cast<std::uint64_t>(in.between(1, 4)); break;
    case 1: s.limits.branches = static_cast<std::uint64_t>(in.below(40)); break;
    case 2: s.limits.failures = static_cast<std::uint64_t>(in.between(1, 9)); break;
    default: break;
    }
    s.check_var = in.below(5);
    s.check_val = in.below(6);
    s.check_seed = in.byte();
    return s;
}

// ---- brute force ----------------------------------------------------------------

// An assignment packed into one integer, a byte per variable (its value
// less `lowest`), the first variable the most significant.
using Code = std::uint64_t;
static_assert(8 * max_vars <= 64);

Code pack(std::span<const int> x) {
    Code c = 0;
    for (int v : x) c = c << 8 | static_cast<Code>(v - lowest);
    return c;
}

bool satisfies(const ConSpec& c, std::span<const int> x) {
    for (std::size_t i = 0; i < c.views.size(); ++i)
        for (std::size_t j = i + 1; j < c.views.size(); ++j)
            if (c.views[i].of(x[static_cast<std::size_t>(c.views[i].var)]) ==
                c.views[j].of(x[static_cast<std::size_t>(c.views[j].var)]))
                return false;
    return true;
}

struct Solutions {
    std::vector<int> values;          // n per solution
    std::vector<std::uint8_t> places; // the same, as positions in VarSpec::values
    std::vector<Code> codes;          // ascending
};

Solutions brute_force(const Spec& s) {
    Solutions out;
    const auto n = static_cast<std::size_t>(s.n());
    std::vector<std::size_t> at(n, 0);
    std::vector<int> x(n);
    for (;;) {
        for (std::size_t i = 0; i < n; ++i) x[i] = s.vars[i].values[at[i]];
        if (std::all_of(s.cons.begin(), s.cons.end(), [&](const ConSpec& c) { return satisfies(c, x); })) {
            out.values.insert(out.values.end(), x.begin(), x.end());
            for (const std::size_t k : at) out.places.push_back(static_cast<std::uint8_t>(k));
            out.codes.push_back(pack(x));
        }
        std::size_t i = n;
        while (i > 0 && ++at[i - 1] == s.vars[i - 1].values.size()) at[--i] = 0;
        if (i == 0) break;
    }
    std::sort(out.codes.begin(), out.codes.end());
    return out;
}

// ---- the strength each constraint claims --------------------------------------------

// Values of a view over the current domains, ascending.
using Values = std::vector<std::int64_t>;

// Some assignment of distinct values to the views other than k, each view
// j taking a value of its own values[j], and none taking u. Kuhn's
// augmenting paths: a handful of views and values.
class Matching {
public:
    bool exists(const std::vector<Values>& values, std::size_t k, std::int64_t u) {
        values_ = &values;
        skip_ = u;
        owner_.clear();
        for (std::size_t j = 0; j < values.size(); ++j) {
            if (j == k) continue;
            seen_.clear();
            if (!augment(j)) return false;
        }
        return true;
    }

private:
    struct Owned {
        std::int64_t value;
        std::size_t view;
    };
    bool augment(std::size_t j) {
        for (const std::int64_t v : (*values_)[j]) {
            if (v == skip_ || std::find(seen_.begin(), seen_.end(), v) != seen_.end()) continue;
            seen_.push_back(v);
            auto it = std::find_if(owner_.begin(), owner_.end(), [v](const Owned& o) { return o.value == v; });
            if (it == owner_.end()) {
                owner_.push_back({v, j});
                return true;
            }
            if (augment(it->view)) {
                // augment() may have grown owner_: find v's entry again.
                std::find_if(owner_.begin(), owner_.end(), [v](const Owned& o) { return o.value == v; })->view = j;
                return true;
            }
        }
        return false;
    }

    const std::vector<Values>* values_ = nullptr;
    std::int64_t skip_ = 0;
    std::vector<Owned> owner_;
    std::vector<std::int64_t> seen_;
};

// Some assignment of distinct integers to the views other than k, view j
// anywhere in [min j, max j] (holes ignored: the interval relaxation bounds
// consistency is defined on), none taking u. Glover's greedy is exact for
// intervals: by increasing upper end, each takes its lowest free value.
bool interval_support(const std::vector<Values>& values, std::size_t k, std::int64_t u) {
    std::vector<std::size_t> order;
    for (std::size_t j = 0; j < values.size(); ++j)
        if (j != k) order.push_back(j);
    std::sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return values[p].back() < values[q].back(); });
    std::vector<std::int64_t> used{u};
    for (const std::size_t j : order) {
        std::int64_t t = values[j].front();
        while (std::find(used.begin(), used.end(), t) != used.end()) ++t;
        if (t > values[j].back()) return false;
        used.push_back(t);
    }
    return true;
}

// ---- the model in propane ----------------------------------------------------------

template <class View>
View make_view(IntVar x, const ViewSpec& v) {
    if constexpr (std::is_same_v<View, IntVar>) return x;
    else if constexpr (std::is_same_v<View, propane::OffsetView>) return {x, v.b};
    else return {x, v.a, v.b};
}

template <class Store, class SView>
class Runner {
public:
    Runner(const Spec& spec, const Solutions& sols) : spec_(spec), sols_(sols) {}

    void run() {
        build();
        path_.assign(1, {});
        for (std::size_t k = 0; k < sols_.codes.size(); ++k) path_[0].push_back(static_cast<std::uint32_t>(k));
        if (spec_.propagate_first) {
            if (!store_.propagate()) {
                if (!sols_.codes.empty()) fail(spec_, "propagation at the root failed, but the model has solutions");
            } else {
                check_node(store_, -1);
            }
        }
        const std::vector<std::vector<int>> root = snapshot(store_);
        Store copy(store_);

        std::vector<Code> found;
        const propane::SearchStats st = builtin(store_, found);
        check_result("built-in search", st, found, spec_.limits, spec_.restarts());
        check_restored(store_, root, "the built-in search");

        if (snapshot(copy) != root) fail(spec_, "the copy's domains changed while the original was searched");
        std::vector<Code> found_copy;
        const propane::SearchStats st_copy = builtin(copy, found_copy);
        if (found_copy != found || st_copy.solutions != st.solutions || st_copy.failures != st.failures ||
            st_copy.branches != st.branches || st_copy.restarts != st.restarts || st_copy.outcome != st.outcome ||
            st_copy.max_depth != st.max_depth)
            fail(spec_, "the copy of the store searched differently: " + stats_line(st_copy) + " against " +
                            stats_line(st));
        check_restored(copy, root, "the search on the copy");

        const propane::SearchStats checked_st = checked(found);
        check_result("checked search", checked_st, found, {}, false);
        check_restored(store_, root, "the checked search");
    }

private:
    using Decision = propane::Decision;

    void build() {
        for (const VarSpec& v : spec_.vars) xs_.push_back(store_.int_var(v.lo, v.hi));
        if (!spec_.holes_after_posting) make_holes();
        for (const ConSpec& c : spec_.cons) {
            switch (c.kind) {
            case Kind::var: post<IntVar>(c); break;
            case Kind::offset: post<propane::OffsetView>(c); break;
            case Kind::affine: post<propane::AffineView>(c); break;
            }
        }
        if (spec_.holes_after_posting) make_holes();
        for (const ViewSpec& v : spec_.search) search_.push_back(make_view<SView>(x(v.var), v));
    }

    IntVar x(int i) const { return xs_[static_cast<std::size_t>(i)]; }

    // Through a view, so that the views' updates are exercised too.
    void make_holes() {
        for (int i = 0; i < spec_.n(); ++i) {
            const VarSpec& v = spec_.var(i);
            for (int value = v.lo; value <= v.hi; ++value) {
                if (std::binary_search(v.values.begin(), v.values.end(), value)) continue;
                propane::Change c = propane::Change::none;
                switch (v.removal) {
                case 0: c = x(i).remove(store_, value); break;
                case 1: c = (x(i) + 3).remove(store_, value + 3); break;
                default: c = propane::AffineView(x(i), -2, 1).remove(store_, -2 * value + 1); break;
                }
                if (c == propane::Change::failed || c == propane::Change::none)
                    fail(spec_, "removing " + std::to_string(value) + " from x" + std::to_string(i) +
                                    (c == propane::Change::failed ? " failed" : " changed nothing"));
            }
        }
    }

    template <class View>
    void post(const ConSpec& c) {
        std::vector<View> views;
        for (const ViewSpec& v : c.views) views.push_back(make_view<View>(x(v.var), v));
        store_.post(propane::all_different(views, c.strength));
    }

    std::vector<std::vector<int>> snapshot(const Store& s) const {
        std::vector<std::vector<int>> d;
        for (int i = 0; i < spec_.n(); ++i) {
            d.emplace_back();
            for (int v = spec_.var(i).lo; v <= spec_.var(i).hi; ++v)
                if (x(i).contains(s, v)) d.back().push_back(v);
        }
        return d;
    }

    void check_restored(const Store& s, const std::vector<std::vector<int>>& root, const char* after) const {
        if (snapshot(s) != root) fail(spec_, std::string("the domains differ from the root's after ") + after);
    }

    static std::string stats_line(const propane::SearchStats& st) {
        return std::to_string(st.solutions) + " solutions, " + std::to_string(st.failures) + " failures, " +
               std::to_string(st.branches) + " branches, " + std::to_string(st.restarts) + " restarts, depth " +
               std::to_string(st.max_depth) + ", " + std::string(propane::to_string(st.outcome));
    }

    Code solution_code(const Store& s) const {
        std::vector<int> v;
        for (int i = 0; i < spec_.n(); ++i) {
            if (!x(i).fixed(s)) fail(spec_, "a solution leaves x" + std::to_string(i) + " unfixed");
            v.push_back(x(i).value(s));
        }
        return pack(v);
    }

    propane::SearchStats builtin(Store& s, std::vector<Code>& found) const {
        found.clear();
        return propane::solve(s, search_, spec_.strategy, spec_.limits,
                              [&](const auto& sol) { found.push_back(solution_code(sol.store())); });
    }

    void check_result(const char* run, const propane::SearchStats& st, const std::vector<Code>& found,
                      const propane::Limits& lim, bool restarts) const {
        const std::string where = std::string(run) + " (" + stats_line(st) + "): ";
        std::vector<Code> sorted = found;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            fail(spec_, where + "a solution was found twice");
        for (const Code c : sorted)
            if (!std::binary_search(sols_.codes.begin(), sols_.codes.end(), c))
                fail(spec_, where + "an assignment that is not a solution was reported");
        if (st.solutions != found.size()) fail(spec_, where + "stats.solutions differs from the visitor's count");
        const std::uint64_t total = sols_.codes.size();
        switch (st.outcome) {
        case propane::Outcome::complete:
            if (found.size() != total)
                fail(spec_, where + "complete, but brute force finds " + std::to_string(total) + " solutions");
            if (lim.solutions <= total) fail(spec_, where + "complete, but the solution limit should have stopped it");
            if (!restarts && st.branches != 2 * (st.failures + st.solutions - 1))
                fail(spec_, where + "branches != 2 * (failures + solutions - 1) over a complete tree");
            break;
        case propane::Outcome::solution_limit:
            if (found.size() != lim.solutions) fail(spec_, where + "stopped by the solution limit at another count");
            break;
        case propane::Outcome::branch_limit:
            if (st.branches > lim.branches) fail(spec_, where + "took more branches than its limit");
            break;
        case propane::Outcome::failure_limit:
            if (st.failures != lim.failures) fail(spec_, where + "stopped by the failure limit at another count");
            break;
        default: fail(spec_, where + "an outcome no limit of this search can give");
        }
        if (spec_.backtrack_free() && st.failures > (st.solutions == 0 && st.branches == 0 ? 1U : 0U))
            fail(spec_, where + "one domain-consistent AllDifferent over distinct variables failed below the root");
    }

    // ---- the checked search ----------------------------------------------------------

    // The decisions taken at each depth of the current path, depth 0 being
    // the search's root level. At depth e < the node's, the last one is the
    // left branch the path went down and the others are refuted (their right
    // branches hold); at the node's own depth all are refuted. A decision
    // at depth d makes the log at depths > d stale, so it cuts them off.
    struct Logged {
        int pos;
        Decision d;
    };

    propane::SearchStats checked(std::vector<Code>& found) {
        found.clear();
        log_.clear();
        path_.resize(1);
        rng_ = spec_.check_seed;
        base_level_ = store_.level() + 1;
        auto var = [this](const Store& s, std::span<const SView>) { return choose_var(s); };
        auto val = [this](const Store& s, const SView&) { return choose_value(s); };
        return propane::solve(store_, search_, propane::strategy(var, val), [&](const auto& sol) {
            found.push_back(solution_code(sol.store()));
        });
    }

    int depth(const Store& s) const {
        const int d = s.level() - base_level_;
        if (d < 0 || d > static_cast<int>(log_.size()))
            fail(spec_, "a node at level " + std::to_string(s.level()) + " the decision log cannot place");
        return d;
    }

    bool obeys(const Logged& l, std::span<const int> sol) const {
        const ViewSpec& v = spec_.search[static_cast<std::size_t>(l.pos)];
        const std::int64_t y = v.of(sol[static_cast<std::size_t>(v.var)]);
        return l.d.branch == propane::Branch::assign ? y == l.d.value : y <= l.d.value;
    }

    std::span<const int> solution(std::size_t k) const {
        const auto n = static_cast<std::size_t>(spec_.n());
        return {sols_.values.data() + k * n, n};
    }

    // The brute-force solutions that obey every decision of the path to a
    // node at depth d: those of path_[d] that obey none of the refuted
    // decisions at depth d. path_[d] holds the solutions that obey the
    // decisions at the depths above; it is refiltered whenever a decision
    // is logged, so a node costs a pass over what its path still allows,
    // not over every solution.
    void on_path(int depth, std::vector<std::uint32_t>& out) const {
        out.clear();
        const auto d = static_cast<std::size_t>(depth);
        const std::vector<Logged>* refuted = d < log_.size() ? &log_[d] : nullptr;
        for (const std::uint32_t k : path_[d]) {
            bool keep = true;
            if (refuted != nullptr)
                for (const Logged& l : *refuted) keep = keep && !obeys(l, solution(k));
            if (keep) out.push_back(k);
        }
    }

    // After a decision at depth d is logged: path_[d + 1] from path_[d].
    void extend_path(std::size_t d) {
        path_.resize(d + 2);
        std::vector<std::uint32_t>& next = path_[d + 1];
        next.clear();
        const std::vector<Logged>& at = log_[d];
        for (const std::uint32_t k : path_[d]) {
            bool keep = true;
            for (std::size_t j = 0; j < at.size(); ++j) keep = keep && obeys(at[j], solution(k)) == (j + 1 == at.size());
            if (keep) next.push_back(k);
        }
    }

    // Which of its initial values each variable keeps, bit k for
    // VarSpec::values[k], read from the store once per node so that the
    // checks, which leave coverage out, do not call into propane.
    void read_domains(const Store& s) {
        here_.assign(static_cast<std::size_t>(spec_.n()), 0);
        for (int i = 0; i < spec_.n(); ++i) {
            const std::vector<int>& vs = spec_.var(i).values;
            for (std::size_t k = 0; k < vs.size(); ++k)
                if (x(i).contains(s, vs[k])) here_[static_cast<std::size_t>(i)] |= 1U << k;
        }
    }

    int size_of(int var) const { return std::popcount(here_[static_cast<std::size_t>(var)]); }

    // Current values of a view, ascending (after read_domains()).
    void values(const ViewSpec& v, Values& out) const {
        out.clear();
        const std::vector<int>& vs = spec_.var(v.var).values;
        for (std::size_t k = 0; k < vs.size(); ++k)
            if ((here_[static_cast<std::size_t>(v.var)] >> k & 1U) != 0) out.push_back(v.of(vs[k]));
        if (v.a < 0) std::reverse(out.begin(), out.end());
    }

    // Where a node is, for messages: built only when a check fails.
    static std::string node_name(int depth) {
        return depth < 0 ? std::string("the root, propagated before search") : "depth " + std::to_string(depth);
    }

    // depth < 0: the root before search, where no decision was taken.
    void check_node(const Store& s, int depth) {
        read_domains(s);
        for (int i = 0; i < spec_.n(); ++i) {
            const auto kept = static_cast<unsigned>(std::popcount(here_[static_cast<std::size_t>(i)]));
            if (kept == 0 || kept != x(i).size(s))
                fail(spec_, "at " + node_name(depth) + ": x" + std::to_string(i) + " has " +
                                std::to_string(x(i).size(s)) + " values, " + std::to_string(kept) +
                                " of them from its initial domain");
        }
        const auto n = static_cast<std::size_t>(spec_.n());
        if (depth >= 0) on_path(depth, here_path_);
        else here_path_ = path_[0];
        for (const std::uint32_t k : here_path_) {
            const std::span<const int> sol = solution(k);
            for (std::size_t i = 0; i < n; ++i)
                if ((here_[i] >> sols_.places[k * n + i] & 1U) == 0)
                    fail(spec_, "at " + node_name(depth) + ": the solution " + show(sol) +
                                    ", which obeys every decision of the path, lost x" + std::to_string(i) + " = " +
                                    std::to_string(sol[i]));
        }
        for (std::size_t c = 0; c < spec_.cons.size(); ++c) check_strength(depth, c);
    }

    void check_strength(int depth, std::size_t c) {
        const ConSpec& con = spec_.cons[c];
        vals_.resize(con.views.size());
        for (std::size_t k = 0; k < con.views.size(); ++k) values(con.views[k], vals_[k]);
        const std::vector<Values>& vals = vals_;
        auto at = [&] {
            return "at " + node_name(depth) + ", constraint " + std::to_string(c) + " (" +
                   std::string(propane::to_string(con.strength)) + "): view ";
        };
        for (std::size_t k = 0; k < vals.size(); ++k) {
            if (vals[k].size() == 1)
                for (std::size_t j = 0; j < vals.size(); ++j)
                    if (j != k && std::binary_search(vals[j].begin(), vals[j].end(), vals[k][0]))
                        fail(spec_, at() + std::to_string(j) + " keeps " + std::to_string(vals[k][0]) +
                                        ", the value of fixed view " + std::to_string(k));
            if (con.strength == propane::bounds) {
                for (const std::int64_t u : {vals[k].front(), vals[k].back()})
                    if (!interval_support(vals, k, u))
                        fail(spec_, at() + std::to_string(k) + " keeps the bound " + std::to_string(u) +
                                        ", which has no support in the others' intervals");
            } else if (con.strength == propane::domain) {
                for (const std::int64_t u : vals[k])
                    if (!matching_.exists(vals, k, u))
                        fail(spec_, at() + std::to_string(k) + " keeps " + std::to_string(u) +
                                        ", which no assignment of distinct values to the views supports");
            }
        }
    }

    static std::string show(std::span<const int> sol) {
        std::string o = "(";
        for (std::size_t i = 0; i < sol.size(); ++i) o += (i ? "," : "") + std::to_string(sol[i]);
        return o + ")";
    }

    std::uint64_t random() {
        std::uint64_t z = (rng_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // Checks the node, then chooses as the mode says: first unfixed,
    // smallest domain, largest domain, smallest minimum, or at random.
    int choose_var(const Store& s) {
        const int d = depth(s);
        check_node(s, d);
        std::vector<int> open;
        for (std::size_t k = 0; k < search_.size(); ++k)
            if (size_of(spec_.search[k].var) > 1) open.push_back(static_cast<int>(k));
        if (open.empty()) fail(spec_, "the variable chooser was called with every view fixed");
        auto key = [&](int k) -> std::int64_t {
            const ViewSpec& v = spec_.search[static_cast<std::size_t>(k)];
            switch (spec_.check_var) {
            case 1: return size_of(v.var);
            case 2: return -size_of(v.var);
            case 3:
                values(v, scratch_);
                return scratch_.front();
            default: return 0;
            }
        };
        int pos = open[0];
        if (spec_.check_var == 4) {
            pos = open[static_cast<std::size_t>(random() % open.size())];
        } else {
            for (const int k : open)
                if (key(k) < key(pos)) pos = k;
        }
        chosen_ = pos;
        return pos;
    }

    // Chooses as the mode says: x = min, max, middle value or a random
    // value; x <= the middle of the bounds, or a random split point.
    Decision choose_value(const Store& s) {
        const int d = depth(s);
        const ViewSpec& v = spec_.search[static_cast<std::size_t>(chosen_)];
        read_domains(s);
        values(v, scratch_);
        const Values& vals = scratch_;
        if (vals.size() < 2) fail(spec_, "the value chooser was called on a fixed view");
        const std::int64_t lo = vals.front(), hi = vals.back();
        std::int64_t value = 0;
        propane::Branch branch = propane::Branch::assign;
        switch (spec_.check_val) {
        case 0: value = lo; break;
        case 1: value = hi; break;
        case 2: value = vals[(vals.size() - 1) / 2]; break;
        case 3:
            branch = propane::Branch::split;
            value = lo + (hi - lo) / 2;
            break;
        case 4: value = vals[static_cast<std::size_t>(random() % vals.size())]; break;
        default:
            branch = propane::Branch::split;
            value = lo + static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(hi - lo));
            break;
        }
        const Decision dec{branch, static_cast<int>(value)};
        log_.resize(static_cast<std::size_t>(d) + 1);
        log_[static_cast<std::size_t>(d)].push_back({chosen_, dec});
        extend_path(static_cast<std::size_t>(d));
        return dec;
    }

    const Spec& spec_;
    const Solutions& sols_;
    Store store_;
    std::vector<IntVar> xs_;
    std::vector<SView> search_;
    std::vector<std::vector<Logged>> log_;
    std::vector<std::vector<std::uint32_t>> path_; // see on_path()
    std::vector<std::uint32_t> here_path_;
    int base_level_ = 0;
    int chosen_ = 0;
    std::uint64_t rng_ = 0;
    Matching matching_;
    std::vector<std::uint32_t> here_;
    std::vector<Values> vals_;
    Values scratch_;
};

template <class Store>
void run_store(const Spec& spec, const Solutions& sols) {
    if (spec.affine_search) Runner<Store, propane::AffineView>(spec, sols).run();
    else Runner<Store, IntVar>(spec, sols).run();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    const Spec spec = read_spec(in);
    const Solutions sols = brute_force(spec);
    switch (spec.width) {
    case Width::w1: run_store<propane::Store<propane::BitDomain<1>>>(spec, sols); break;
    case Width::w2: run_store<propane::Store<propane::BitDomain<2>>>(spec, sols); break;
    case Width::dynamic: run_store<propane::Store<propane::BitDomain<propane::dynamic>>>(spec, sols); break;
    }
    return 0;
}
