// The trail on its own (levels, stamps, replay order), then through the
// store: random updates between random push_level/pop_level must restore
// every domain and cell exactly as it was when the level was pushed, in a
// dynamic store with bitset and interval domains side by side too.

#include <doctest/doctest.h>

#include "runs_reference.hpp"
#include "support.hpp"

#include <propane/engine/domain.hpp>
#include <propane/engine/store.hpp>
#include <propane/engine/trail.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "instances_store.hpp"

namespace {

struct Save {
    int slot;
    int old;
    bool operator==(const Save&) const = default;
};

std::vector<Save> pop_collect(propane::Trail<Save>& t) {
    std::vector<Save> seen;
    t.pop_level([&](const Save& e) { seen.push_back(e); });
    return seen;
}

// Pops every level of t, checking that each replays its entries of
// `levels` (oldest level first) newest first, and that none is left.
void check_replays(propane::Trail<Save>& t, const std::vector<std::vector<Save>>& levels) {
    for (std::size_t l = levels.size(); l-- > 0;) {
        std::vector<Save> want(levels[l].rbegin(), levels[l].rend());
        CHECK(pop_collect(t) == want);
    }
    CHECK(t.entries() == 0);
}

} // namespace

TEST_CASE("trail: a fresh trail records nothing") {
    propane::Trail<Save> t;
    CHECK(t.level() == 0);
    CHECK_FALSE(t.recording());
    CHECK(t.stamp() == 0);
    t.record({1, 2});
    t.record({3, 4});
    CHECK(t.entries() == 0);
    // What was recorded before the first mark is not replayed by it.
    t.push_level();
    CHECK(t.recording());
    CHECK(t.level() == 1);
    CHECK(pop_collect(t).empty());
    CHECK(t.level() == 0);
    CHECK_FALSE(t.recording());
}

TEST_CASE("trail: pop_level replays its own level newest first") {
    propane::Trail<Save> t;
    t.push_level();
    t.record({0, 10});
    t.record({1, 11});
    t.push_level();
    CHECK(t.level() == 2);
    t.record({2, 12});
    t.record({0, 13});
    t.record({5, 14});
    CHECK(t.entries() == 5);
    CHECK(pop_collect(t) == std::vector<Save>{{5, 14}, {0, 13}, {2, 12}});
    CHECK(t.entries() == 2);
    CHECK(t.level() == 1);
    t.record({7, 15});
    CHECK(pop_collect(t) == std::vector<Save>{{7, 15}, {1, 11}, {0, 10}});
    CHECK(t.level() == 0);
    CHECK(t.entries() == 0);
}

TEST_CASE("trail: levels spanning many storage blocks replay exactly, and a copy replays the same") {
    // Blocks hold 4096 entries; level sizes around that straddle their edges.
    propane::Trail<Save> t;
    std::vector<std::vector<Save>> levels;
    std::mt19937 rng(5);
    int next = 0;
    for (int l = 0; l < 12; ++l) {
        t.push_level();
        levels.emplace_back();
        const int n = std::uniform_int_distribution<int>(0, 9000)(rng);
        for (int k = 0; k < n; ++k) {
            levels.back().push_back({next, -next});
            t.record(levels.back().back());
            ++next;
        }
    }
    propane::Trail<Save> copy = t;
    CHECK(copy.entries() == t.entries());
    CHECK(copy.level() == t.level());
    for (auto* trail : {&t, &copy}) check_replays(*trail, levels);
    // The blocks are reused: recording again works from the start.
    t.push_level();
    t.record({1, 2});
    CHECK(pop_collect(t) == std::vector<Save>{{1, 2}});
}

TEST_CASE("trail: record_when keeps exactly the entries it is told to, across block edges") {
    propane::Trail<Save> t;
    // Below the first level nothing is kept, whatever `keep` says.
    t.record_when({1, 1}, true);
    t.record_when({2, 2}, false);
    CHECK(t.entries() == 0);
    std::vector<std::vector<Save>> levels;
    std::mt19937 rng(11);
    int next = 0;
    for (int l = 0; l < 6; ++l) {
        t.push_level();
        levels.emplace_back();
        const int n = std::uniform_int_distribution<int>(0, 9000)(rng);
        for (int k = 0; k < n; ++k) {
            const bool keep = std::bernoulli_distribution(0.5)(rng);
            const Save e{next, -next};
            ++next;
            if (keep) levels.back().push_back(e);
            t.record_when(e, keep);
        }
    }
    std::size_t kept = 0;
    for (const auto& level : levels) kept += level.size();
    CHECK(t.entries() == kept);
    check_replays(t, levels);
}

TEST_CASE("trail: every level instance gets its own stamp") {
    propane::Trail<Save> t;
    std::mt19937 rng(5);
    std::set<std::uint64_t> used{0}; // 0 is the stamp of level 0
    std::vector<std::uint64_t> open{0}; // stamps of the levels now open
    for (int step = 0; step < 2000; ++step) {
        CAPTURE(step);
        if (t.level() > 0 && std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
            t.pop_level([](const Save&) {});
            open.pop_back();
        } else if (step % 500 == 499) {
            // clear() drops the levels but must not hand out old stamps
            // again: stores compare saved stamps with stamp().
            t.clear();
            open.assign(1, 0);
            CHECK(t.level() == 0);
            CHECK(t.entries() == 0);
        } else {
            t.push_level();
            CHECK(used.insert(t.stamp()).second);
            open.push_back(t.stamp());
        }
        CHECK(t.level() == static_cast<int>(open.size()) - 1);
        // Popping returns to the enclosing level instance and its stamp.
        CHECK(t.stamp() == open.back());
    }
}

TEST_CASE("trail: once-per-level saving restores nested levels exactly") {
    // The protocol the store follows, on an array of ints: save a slot the
    // first time it changes within a level instance, found by its stamp.
    std::mt19937 rng(99);
    for (int run = 0; run < 20; ++run) {
        propane::Trail<Save> t;
        std::vector<int> slots(8, 0);
        std::vector<std::uint64_t> saved_at(slots.size(), 0);
        std::vector<std::vector<int>> snapshots;
        std::size_t max_entries_per_level = 0, entries_at_push = 0;
        for (int step = 0; step < 600; ++step) {
            const int what = std::uniform_int_distribution<int>(0, 9)(rng);
            if (what == 0 && t.level() < 10) {
                snapshots.push_back(slots);
                t.push_level();
                entries_at_push = t.entries();
            } else if (what == 1 && t.level() > 0) {
                t.pop_level([&](const Save& e) { slots[static_cast<std::size_t>(e.slot)] = e.old; });
                CHECK(slots == snapshots.back());
                snapshots.pop_back();
                entries_at_push = t.entries();
            } else {
                const auto i = std::uniform_int_distribution<std::size_t>(0, slots.size() - 1)(rng);
                if (saved_at[i] != t.stamp()) {
                    saved_at[i] = t.stamp();
                    t.record({static_cast<int>(i), slots[i]});
                }
                slots[i] = std::uniform_int_distribution<int>(-100, 100)(rng);
                max_entries_per_level = std::max(max_entries_per_level, t.entries() - entries_at_push);
            }
        }
        // The stamps did their job: no slot was saved twice in one level
        // instance.
        CHECK(max_entries_per_level <= slots.size());
        while (t.level() > 0) {
            t.pop_level([&](const Save& e) { slots[static_cast<std::size_t>(e.slot)] = e.old; });
            CHECK(slots == snapshots.back());
            snapshots.pop_back();
        }
    }
}

// ---- through the store ----------------------------------------------------

namespace {

using Ref = std::set<int>;

using test_support::contents;

// Variable widths: a fixed domain is filled to at most its capacity; a
// dynamic one spans several words so that only some of them change.
template <class D>
std::int64_t max_width() {
    return D::is_dynamic ? 400 : D::capacity;
}
template <class D>
std::int64_t min_width() {
    return D::is_dynamic ? 129 : 1;
}

template <class D>
struct Model {
    propane::Store<D> s;
    std::vector<propane::IntVar> xs;
    std::vector<Ref> refs; // the reference: what each domain must contain
    std::vector<int> cells;
    std::vector<std::int64_t> cell_refs;
};

struct Snapshot {
    std::vector<Ref> refs;
    std::vector<std::int64_t> cells;
};

template <class D>
void check_model(const Model<D>& m) {
    for (std::size_t i = 0; i < m.xs.size(); ++i) {
        CAPTURE(i);
        const D& d = m.s.domain(m.xs[i]);
        CHECK(contents(d) == m.refs[i]);
        // Cached by the dynamic form: pop_to's raw restore must resync them.
        CHECK(d.size() == m.refs[i].size());
        CHECK(d.min() == *m.refs[i].begin());
        CHECK(d.max() == *m.refs[i].rbegin());
        CHECK(d.fixed() == (m.refs[i].size() == 1));
    }
    for (std::size_t c = 0; c < m.cells.size(); ++c) CHECK(m.s.cell(m.cells[c]) == m.cell_refs[c]);
}

// One random update of a random variable (or cell), applied to the store
// and to the reference.
template <class D>
void random_update(Model<D>& m, std::mt19937& rng) {
    const auto i = std::uniform_int_distribution<std::size_t>(0, m.xs.size() - 1)(rng);
    const propane::IntVar x = m.xs[i];
    Ref& ref = m.refs[i];
    const int lo = x.lo(), hi = x.hi();
    // Values near the current bounds change something more often than
    // values drawn from the initial range.
    auto pick = [&] {
        if (std::uniform_int_distribution<int>(0, 1)(rng) == 0)
            return std::uniform_int_distribution<int>(lo - 2, hi + 2)(rng);
        auto it = ref.begin();
        std::advance(it, std::uniform_int_distribution<std::size_t>(0, ref.size() - 1)(rng));
        return *it + std::uniform_int_distribution<int>(-1, 1)(rng);
    };
    Ref after = ref;
    propane::Change c{};
    switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0:
    case 1: {
        const int v = pick();
        c = m.s.remove(x, v);
        after.erase(v);
        break;
    }
    case 2: {
        const int v = pick();
        c = m.s.remove_below(x, v);
        after.erase(after.begin(), after.lower_bound(v));
        break;
    }
    case 3: {
        const int v = pick();
        c = m.s.remove_above(x, v);
        after.erase(after.upper_bound(v), after.end());
        break;
    }
    case 4: {
        const int v = pick();
        c = m.s.assign(x, v);
        after = after.count(v) ? Ref{v} : Ref{};
        break;
    }
    case 5: {
        // A mask of another width and base, with holes.
        const int mlo = pick() - std::uniform_int_distribution<int>(0, 100)(rng);
        const int mhi = mlo + std::uniform_int_distribution<int>(0, 150)(rng);
        propane::BitDomain<propane::dynamic> mask(mlo, mhi);
        for (int v = mlo; v <= mhi; ++v)
            if (v != mlo && std::uniform_int_distribution<int>(0, 3)(rng) == 0) CHECK(mask.remove(v) != propane::Change::failed);
        c = m.s.intersect(x, mask);
        Ref kept;
        for (int v : after)
            if (mask.contains(v)) kept.insert(v);
        after = kept;
        break;
    }
    default: {
        const auto k = std::uniform_int_distribution<std::size_t>(0, m.cells.size() - 1)(rng);
        const std::int64_t v = std::uniform_int_distribution<std::int64_t>(-(std::int64_t{1} << 40), 1 << 20)(rng);
        m.s.set_cell(m.cells[k], v);
        m.cell_refs[k] = v;
        return;
    }
    }
    CHECK((c == propane::Change::failed) == after.empty());
    if (!after.empty()) ref = after;
}

#define STORE_DOMAINS propane::BitDomain<1>, propane::BitDomain<2>, propane::BitDomain<4>, \
                      propane::BitDomain<propane::dynamic>

} // namespace

TEST_CASE_TEMPLATE("store: pop_level restores domains and cells exactly", D, STORE_DOMAINS) {
    std::mt19937 rng(31337);
    for (int run = 0; run < 12; ++run) {
        CAPTURE(run);
        Model<D> m;
        for (int k = 0; k < 5; ++k) {
            const auto width = std::uniform_int_distribution<std::int64_t>(min_width<D>(), max_width<D>())(rng);
            const int lo = std::uniform_int_distribution<int>(-200, 200)(rng);
            m.xs.push_back(m.s.int_var(lo, static_cast<int>(lo + width - 1)));
            Ref r;
            for (std::int64_t v = lo; v < lo + width; ++v) r.insert(static_cast<int>(v));
            m.refs.push_back(r);
        }
        for (int k = 0; k < 3; ++k) {
            m.cell_refs.push_back(k * 1000 - 7);
            m.cells.push_back(m.s.new_cell(m.cell_refs.back()));
        }
        // Changes at level 0 are permanent; make some before any level.
        for (int k = 0; k < 5; ++k) random_update(m, rng);
        check_model(m);

        std::vector<std::vector<D>> dom_snaps;
        std::vector<Snapshot> ref_snaps;
        auto snapshot_domains = [&] {
            std::vector<D> ds;
            for (auto x : m.xs) ds.push_back(m.s.domain(x));
            return ds;
        };
        for (int step = 0; step < 500; ++step) {
            CAPTURE(step);
            const int what = std::uniform_int_distribution<int>(0, 11)(rng);
            if (what == 0 && m.s.level() < 12) {
                dom_snaps.push_back(snapshot_domains());
                ref_snaps.push_back({m.refs, m.cell_refs});
                m.s.push_level();
                CHECK(m.s.level() == static_cast<int>(dom_snaps.size()));
            } else if (what == 1 && m.s.level() > 0) {
                // Half the time several levels at once, through pop_to.
                const int target = std::uniform_int_distribution<int>(0, 1)(rng) == 0
                                       ? m.s.level() - 1
                                       : std::uniform_int_distribution<int>(0, m.s.level() - 1)(rng);
                if (target == m.s.level() - 1) {
                    m.s.pop_level();
                } else {
                    m.s.pop_to(target);
                    dom_snaps.resize(static_cast<std::size_t>(target) + 1);
                    ref_snaps.resize(static_cast<std::size_t>(target) + 1);
                }
                CHECK(m.s.level() == static_cast<int>(dom_snaps.size()) - 1);
                const std::vector<D>& want = dom_snaps.back();
                for (std::size_t i = 0; i < m.xs.size(); ++i) {
                    CAPTURE(i);
                    CHECK(m.s.domain(m.xs[i]) == want[i]);
                }
                m.refs = ref_snaps.back().refs;
                m.cell_refs = ref_snaps.back().cells;
                dom_snaps.pop_back();
                ref_snaps.pop_back();
            } else {
                random_update(m, rng);
            }
            check_model(m);
            // A domain run down to one value cannot change much more; widen
            // the search by backtracking out of it.
            if (m.s.level() > 0 && step % 50 == 49) {
                m.s.pop_level();
                m.refs = ref_snaps.back().refs;
                m.cell_refs = ref_snaps.back().cells;
                dom_snaps.pop_back();
                ref_snaps.pop_back();
                check_model(m);
            }
        }
        while (m.s.level() > 0) {
            m.s.pop_level();
            m.refs = ref_snaps.back().refs;
            m.cell_refs = ref_snaps.back().cells;
            dom_snaps.pop_back();
            ref_snaps.pop_back();
            check_model(m);
        }
    }
}

TEST_CASE_TEMPLATE("store: level-0 changes are permanent", D, STORE_DOMAINS) {
    propane::Store<D> s;
    const int hi = D::is_dynamic ? 300 : static_cast<int>(D::capacity) - 1;
    const propane::IntVar x = s.int_var(0, hi);
    const int c = s.new_cell(5);

    CHECK(s.remove(x, 3) != propane::Change::failed);
    s.set_cell(c, 6);
    s.push_level();
    CHECK(s.remove(x, 4) != propane::Change::failed);
    CHECK(s.remove_above(x, hi - 1) != propane::Change::failed);
    s.set_cell(c, 7);
    s.pop_level();
    CHECK_FALSE(s.domain(x).contains(3));
    CHECK(s.domain(x).contains(4));
    CHECK(s.domain(x).max() == hi);
    CHECK(s.cell(c) == 6);

    // Again after levels came and went, so that the variable and the cell
    // carry stamps of levels that no longer exist.
    CHECK(s.remove_below(x, 2) != propane::Change::failed);
    s.set_cell(c, 8);
    s.push_level();
    s.push_level();
    CHECK(s.remove(x, 10) != propane::Change::failed);
    s.pop_level();
    CHECK(s.remove(x, 11) != propane::Change::failed);
    s.set_cell(c, 9);
    s.pop_level();
    CHECK(s.domain(x).min() == 2);
    CHECK(s.domain(x).contains(10));
    CHECK(s.domain(x).contains(11));
    CHECK(s.cell(c) == 8);
    CHECK(s.level() == 0);
}

TEST_CASE_TEMPLATE("store: a variable saved before a nested level is restored past it", D, STORE_DOMAINS) {
    // Changes in level 1 both before and after a nested level 2 was pushed
    // and popped: the state at the push of level 1 must come back whole.
    propane::Store<D> s;
    const int hi = D::is_dynamic ? 250 : static_cast<int>(D::capacity) - 1;
    const propane::IntVar x = s.int_var(0, hi);
    const propane::IntVar y = s.int_var(-5, 5);
    const int c = s.new_cell(0);
    const D x0 = s.domain(x), y0 = s.domain(y);

    s.push_level();
    CHECK(s.remove(x, 1) != propane::Change::failed);
    s.set_cell(c, 1);
    s.push_level();
    CHECK(s.remove(x, hi) != propane::Change::failed);
    CHECK(s.assign(y, 2) != propane::Change::failed);
    s.set_cell(c, 2);
    s.pop_level();
    CHECK_FALSE(s.domain(x).contains(1));
    CHECK(s.domain(x).contains(hi));
    CHECK(s.domain(y) == y0);
    CHECK(s.cell(c) == 1);
    CHECK(s.remove(x, 0) != propane::Change::failed);
    CHECK(s.remove(y, -5) != propane::Change::failed);
    s.set_cell(c, 3);
    s.pop_level();
    CHECK(s.domain(x) == x0);
    CHECK(s.domain(y) == y0);
    CHECK(s.cell(c) == 0);
}

// ---- a dynamic store mixing bitset and interval domains -------------------
//
// An interval domain is saved whole once per level (its summary in the
// entry, its holes on a stack beside the trail), a bitset one word by
// word. Both kinds in one store, through pop_level, pop_to over many
// levels (the unwind path, which restores words raw and resyncs) and
// copies made mid-search.

namespace {

using DD = propane::BitDomain<propane::dynamic>;
using propane::Change;
using propane::Representation;
using propane::detail::Hole;

constexpr int int_min = std::numeric_limits<int>::min();
constexpr int int_max = std::numeric_limits<int>::max();

using test_support::Runs;

// A domain's holes, [lo,hi] each, or "bitset".
std::string holes_of(const DD& d) {
    if (!d.interval()) return "bitset";
    std::ostringstream os;
    for (const Hole& h : d.holes()) os << "[" << h.lo << "," << h.hi << "]";
    return os.str();
}
std::string holes_of(const Runs& r, bool interval) {
    if (!interval) return "bitset";
    std::ostringstream os;
    for (const Hole& h : r.gaps()) os << "[" << h.lo << "," << h.hi << "]";
    return os.str();
}

// Equal values, cached size and bounds, form and holes.
bool same(const DD& a, const DD& b) {
    return a == b && a.size() == b.size() && a.min() == b.min() && a.max() == b.max() &&
           a.interval() == b.interval() && holes_of(a) == holes_of(b);
}

struct MixedModel {
    propane::Store<DD> s;
    std::vector<propane::IntVar> xs;
    std::vector<Runs> refs;
    std::vector<bool> interval; // the form each variable must keep
};

struct MixedLevel {
    std::vector<DD> doms;
    std::vector<Runs> refs;
};

MixedLevel snapshot(const MixedModel& m) {
    MixedLevel l{{}, m.refs};
    for (const propane::IntVar x : m.xs) l.doms.push_back(m.s.domain(x));
    return l;
}

// The store's domains are exactly the snapshot's.
void check_restored(const MixedModel& m, const MixedLevel& want) {
    for (std::size_t i = 0; i < m.xs.size(); ++i) {
        CAPTURE(i);
        const DD& d = m.s.domain(m.xs[i]);
        CHECK(same(d, want.doms[i]));
        CHECK(holes_of(d) == holes_of(want.doms[i]));
    }
}

// Every domain agrees with its reference.
void check_mixed(const MixedModel& m) {
    for (std::size_t i = 0; i < m.xs.size(); ++i) {
        CAPTURE(i);
        const DD& d = m.s.domain(m.xs[i]);
        const Runs& ref = m.refs[i];
        CHECK(d.interval() == m.interval[i]);
        CHECK(d.min() == ref.min());
        CHECK(d.max() == ref.max());
        CHECK(d.size() == ref.size());
        CHECK(d.fixed() == (ref.size() == 1));
        CHECK(holes_of(d) == holes_of(ref, m.interval[i]));
        for (const Hole& h : ref.gaps())
            for (const std::int64_t v : {h.lo - 1, h.lo, h.hi, h.hi + 1}) CHECK(d.contains(v) == ref.contains(v));
        if (ref.size() <= 2000) {
            const std::vector<int> values = ref.values();
            CHECK(contents(d) == std::set<int>(values.begin(), values.end()));
        }
    }
}

int clamp_int(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, int_min, int_max)); }

// A value worth an update of a domain: beside a bound, at a hole's edge,
// around the middle (so that holes meet), or anywhere between the bounds.
int pick_value(std::mt19937& rng, const Runs& ref) {
    const auto any = [&](std::int64_t a, std::int64_t b) { return std::uniform_int_distribution<std::int64_t>(a, b)(rng); };
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0: return clamp_int(ref.min() + any(-1, 30));
    case 1: return clamp_int(ref.max() - any(-1, 30));
    case 2: {
        const std::vector<Hole> gaps = ref.gaps();
        if (gaps.empty()) break;
        const Hole& h = gaps[static_cast<std::size_t>(any(0, static_cast<std::int64_t>(gaps.size()) - 1))];
        return clamp_int(any(0, 1) == 0 ? h.lo - any(0, 1) : h.hi + any(0, 1));
    }
    case 3: return clamp_int(any(ref.min(), ref.max()));
    default: break;
    }
    return clamp_int(ref.min() + (ref.max() - ref.min()) / 2 + any(-100, 100));
}

// One random update of a random variable through the store, checked
// against its reference: every update the store has (keep_between and
// remove_bits through the variable's view methods).
void mixed_update(MixedModel& m, std::mt19937& rng) {
    const auto i = std::uniform_int_distribution<std::size_t>(0, m.xs.size() - 1)(rng);
    const propane::IntVar x = m.xs[i];
    Runs& ref = m.refs[i];
    Runs after = ref;
    const int v = pick_value(rng, ref);
    Change c{};
    const int kind = std::uniform_int_distribution<int>(0, 11)(rng);
    INFO("variable " << i << ", kind " << kind << ", value " << v);
    switch (kind) {
    case 0:
    case 1:
    case 2:
        c = m.s.remove(x, v);
        after.remove(v);
        break;
    case 3: {
        const int b = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? v : clamp_int(ref.min() + std::uniform_int_distribution<int>(0, 40)(rng));
        c = m.s.remove_below(x, b);
        after.keep(b, int_max);
        break;
    }
    case 4: {
        const int b = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? v : clamp_int(ref.max() - std::uniform_int_distribution<int>(0, 40)(rng));
        c = m.s.remove_above(x, b);
        after.keep(int_min, b);
        break;
    }
    case 5: {
        const int a = clamp_int(ref.min() + std::uniform_int_distribution<int>(-2, 20)(rng));
        const int b = clamp_int(ref.max() - std::uniform_int_distribution<int>(-2, 20)(rng));
        c = x.keep_between(m.s, a, b);
        after.keep(a, b);
        break;
    }
    case 6:
    case 7: {
        const std::int64_t start = std::int64_t{v} - std::uniform_int_distribution<int>(0, 63)(rng);
        const std::uint64_t mask = std::uniform_int_distribution<std::uint64_t>()(rng) | std::uniform_int_distribution<std::uint64_t>()(rng);
        c = x.remove_bits(m.s, start, mask);
        after.remove_bits(start, mask);
        break;
    }
    case 8:
    case 9: {
        const std::int64_t len = std::int64_t{1} << std::uniform_int_distribution<int>(0, 24)(rng);
        const std::int64_t b = std::int64_t{v} + std::uniform_int_distribution<std::int64_t>(0, len)(rng);
        c = m.s.remove_range(x, v, b);
        after.remove_range(v, b);
        break;
    }
    case 10: {
        if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) return; // it ends the width
        const int lo = clamp_int(std::int64_t{v} - std::uniform_int_distribution<int>(0, 100)(rng));
        const int hi = clamp_int(std::int64_t{lo} + std::uniform_int_distribution<int>(0, 150)(rng));
        DD mask(lo, hi);
        for (int w = lo; w < hi; ++w)
            if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) CHECK(mask.remove(w) != Change::failed);
        c = m.s.intersect(x, mask);
        after.intersect(mask);
        break;
    }
    default:
        if (std::uniform_int_distribution<int>(0, 5)(rng) != 0) return;
        c = m.s.assign(x, v);
        after = ref.contains(v) ? Runs(v, v) : Runs();
        break;
    }
    CHECK(test_support::str(c) == test_support::str(test_support::expected_change(ref, after)));
    if (!after.empty()) ref = after;
}

// Variables of every kind: intervals over 10^9 values, all of int but one,
// and narrow ones asked for; bitsets narrow and wide (1563 words).
MixedModel mixed_model() {
    MixedModel m;
    const auto add = [&](int lo, int hi, Representation r, bool interval) {
        m.xs.push_back(m.s.int_var(lo, hi, r));
        m.refs.emplace_back(lo, hi);
        m.interval.push_back(interval);
        CHECK(m.s.domain(m.xs.back()).interval() == interval);
    };
    add(0, 999'999'999, Representation::automatic, true);
    add(-50, 300, Representation::automatic, false);
    add(int_min + 1, int_max, Representation::automatic, true);
    add(-50, 300, Representation::interval, true);
    add(0, 100'000, Representation::bitset, false);
    add(-2'000'000'000, 2'000'000'000, Representation::interval, true);
    add(10, 73, Representation::interval, true);
    add(-1000, 1000, Representation::bitset, false);
    return m;
}

} // namespace

TEST_CASE("store: bitset and interval domains come back exactly through pop_level and pop_to") {
    std::mt19937 rng(4711);
    std::map<int, int> unwound; // levels undone by one pop_to, how often
    for (int run = 0; run < 8; ++run) {
        CAPTURE(run);
        MixedModel m = mixed_model();
        // Level 0 changes are permanent.
        for (int k = 0; k < 10; ++k) mixed_update(m, rng);
        check_mixed(m);
        std::vector<MixedLevel> levels; // the state at each push
        for (int step = 0; step < 700; ++step) {
            CAPTURE(step);
            // Pushes outnumber pops, so that levels pile up for pop_to.
            const int what = std::uniform_int_distribution<int>(0, 19)(rng);
            if (what <= 3 && m.s.level() < 40) {
                levels.push_back(snapshot(m));
                m.s.push_level();
            } else if (what == 4 && m.s.level() > 0) {
                m.s.pop_level();
                check_restored(m, levels.back());
                m.refs = levels.back().refs;
                levels.pop_back();
            } else if (what == 5 && m.s.level() > 1) {
                // Many levels at once, down to level 0 now and then.
                const int target = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                                       ? 0
                                       : std::uniform_int_distribution<int>(0, m.s.level() - 2)(rng);
                ++unwound[m.s.level() - target];
                m.s.pop_to(target);
                CHECK(m.s.level() == target);
                check_restored(m, levels[static_cast<std::size_t>(target)]);
                m.refs = levels[static_cast<std::size_t>(target)].refs;
                levels.resize(static_cast<std::size_t>(target));
            } else {
                mixed_update(m, rng);
            }
            check_mixed(m);
        }
        while (m.s.level() > 0) {
            m.s.pop_level();
            check_restored(m, levels.back());
            m.refs = levels.back().refs;
            levels.pop_back();
            check_mixed(m);
        }
    }
    // pop_to undid up to dozens of levels in one go.
    CHECK(unwound.rbegin()->first >= 15);
}

TEST_CASE("store: a copy made mid-search undoes its own levels, bitset and interval alike") {
    std::mt19937 rng(1701);
    for (int run = 0; run < 6; ++run) {
        CAPTURE(run);
        MixedModel m = mixed_model();
        std::vector<MixedLevel> levels;
        for (int depth = 0; depth < 12; ++depth) {
            levels.push_back(snapshot(m));
            m.s.push_level();
            for (int k = 0; k < 6; ++k) mixed_update(m, rng);
        }
        check_mixed(m);
        const MixedLevel at_copy = snapshot(m);
        // The copy goes on, deeper, then undoes everything: by pop_level or
        // pop_to, and through a copy of the copy by assignment.
        MixedModel copy{m.s, m.xs, m.refs, m.interval};
        std::vector<MixedLevel> copy_levels = levels;
        for (int depth = 0; depth < 6; ++depth) {
            copy_levels.push_back(snapshot(copy));
            copy.s.push_level();
            for (int k = 0; k < 6; ++k) mixed_update(copy, rng);
        }
        check_mixed(copy);
        check_restored(m, at_copy); // the original did not move
        if (run % 2 == 0) {
            propane::Store<DD> again;
            again = copy.s;
            copy.s = std::move(again);
        }
        while (copy.s.level() > 0) {
            const int target = run % 3 == 0 ? copy.s.level() - 1 : std::max(0, copy.s.level() - 5);
            copy.s.pop_to(target);
            check_restored(copy, copy_levels[static_cast<std::size_t>(target)]);
            copy.refs = copy_levels[static_cast<std::size_t>(target)].refs;
            copy_levels.resize(static_cast<std::size_t>(target));
            check_mixed(copy);
        }
        // And the original undoes its own, untouched by the copy's.
        check_restored(m, at_copy);
        for (int k = 0; k < 6; ++k) mixed_update(m, rng);
        m.s.pop_to(0);
        check_restored(m, levels.front());
    }
}
