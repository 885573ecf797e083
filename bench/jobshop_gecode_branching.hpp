#ifndef PROPANE_BENCH_JOBSHOP_GECODE_BRANCHING_HPP
#define PROPANE_BENCH_JOBSHOP_GECODE_BRANCHING_HPP

// The job-shop search of examples/jobshop_branching.hpp as a Gecode
// brancher, so that bench/jobshop_compare.cpp runs both engines on the same
// decisions: among the open order Booleans, the one whose pair has the
// least slack on the machine with the least slack (ties: the lower
// machine, then the lower Boolean), set to 1 (the lower job's operation
// first) when that operation can start earlier, or as early and must end
// no later; the right branch sets the other value. Gecode's merit
// functions would score each Boolean on its own and so recompute a
// machine's slack once per open pair on it; a brancher computes it once
// per machine and decision, as propane's chooser does.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <gecode/int.hh>

#include "jobshop_model.hpp"

namespace jobshop_gecode {

// Positions in the Gecode model's arrays: a task is its start's position
// (j * machines + k), an order Boolean its position in the order array,
// which runs as jobshop::Model's (machine by machine, pairs in job order).
struct Layout {
    struct Task {
        int start = 0;
        int duration = 0;
    };
    struct Machine {
        std::vector<Task> tasks;
        int first = 0, last = 0; // its order Booleans: [first, last)
    };
    std::vector<Task> a, b; // per order Boolean: the lower job's operation, the other
    std::vector<Machine> machines;

    explicit Layout(const jobshop::Instance& in) {
        std::vector<std::vector<Task>> on(static_cast<std::size_t>(in.machines));
        for (int j = 0; j < in.jobs; ++j)
            for (int k = 0; k < in.machines; ++k) {
                const jobshop::Operation& op = in.ops[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
                on[static_cast<std::size_t>(op.machine)].push_back({j * in.machines + k, op.duration});
            }
        int next = 0;
        for (const std::vector<Task>& tasks : on) {
            Machine m{tasks, next, next};
            for (std::size_t x = 0; x < tasks.size(); ++x)
                for (std::size_t y = x + 1; y < tasks.size(); ++y) {
                    a.push_back(tasks[x]);
                    b.push_back(tasks[y]);
                    ++next;
                }
            m.last = next;
            if (m.last > m.first) machines.push_back(std::move(m));
        }
    }
};

class LeastSlackPair final : public Gecode::Brancher {
public:
    // The layout must outlive every space the search makes.
    static void post(Gecode::Home home, const Gecode::BoolVarArgs& order, const Gecode::IntVarArgs& starts,
                     const Layout& layout) {
        Gecode::ViewArray<Gecode::Int::BoolView> o(home, order);
        Gecode::ViewArray<Gecode::Int::IntView> s(home, starts);
        (void)new (home) LeastSlackPair(home, o, s, layout);
    }

    bool status(const Gecode::Space&) const override {
        for (int i = 0; i < order_.size(); ++i)
            if (!order_[i].assigned()) return true;
        return false;
    }

    const Gecode::Choice* choice(Gecode::Space&) override {
        const Layout::Machine* critical = nullptr;
        std::int64_t least = std::numeric_limits<std::int64_t>::max();
        for (const Layout::Machine& m : layout_->machines) {
            bool open = false;
            for (int i = m.first; i < m.last && !open; ++i) open = !order_[i].assigned();
            if (!open) continue;
            std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
            std::int64_t total = 0;
            for (const Layout::Task& t : m.tasks) {
                lo = std::min<std::int64_t>(lo, starts_[t.start].min());
                hi = std::max<std::int64_t>(hi, std::int64_t{starts_[t.start].max()} + t.duration);
                total += t.duration;
            }
            if (hi - lo - total < least) {
                least = hi - lo - total;
                critical = &m;
            }
        }
        int chosen = critical->first;
        least = std::numeric_limits<std::int64_t>::max();
        for (int i = critical->first; i < critical->last; ++i) {
            if (order_[i].assigned()) continue;
            const Layout::Task& a = layout_->a[static_cast<std::size_t>(i)];
            const Layout::Task& b = layout_->b[static_cast<std::size_t>(i)];
            const std::int64_t lo = std::min(starts_[a.start].min(), starts_[b.start].min());
            const std::int64_t hi =
                std::max(std::int64_t{starts_[a.start].max()} + a.duration, std::int64_t{starts_[b.start].max()} + b.duration);
            if (hi - lo - a.duration - b.duration < least) {
                least = hi - lo - a.duration - b.duration;
                chosen = i;
            }
        }
        const Layout::Task& a = layout_->a[static_cast<std::size_t>(chosen)];
        const Layout::Task& b = layout_->b[static_cast<std::size_t>(chosen)];
        const int ea = starts_[a.start].min(), eb = starts_[b.start].min();
        const int value = ea != eb ? (ea < eb ? 1 : 0)
                                   : (std::int64_t{starts_[a.start].max()} + a.duration <=
                                              std::int64_t{starts_[b.start].max()} + b.duration
                                          ? 1
                                          : 0);
        return new PosVal(*this, chosen, value);
    }

    const Gecode::Choice* choice(const Gecode::Space&, Gecode::Archive& e) override {
        int pos = 0, value = 0;
        e >> pos >> value;
        return new PosVal(*this, pos, value);
    }

    Gecode::ExecStatus commit(Gecode::Space& home, const Gecode::Choice& c, unsigned alternative) override {
        const auto& pv = static_cast<const PosVal&>(c);
        Gecode::Int::BoolView x = order_[pv.pos];
        const Gecode::ModEvent me = alternative == 0 ? x.eq(home, pv.value) : x.nq(home, pv.value);
        return Gecode::me_failed(me) ? Gecode::ES_FAILED : Gecode::ES_OK;
    }

    void print(const Gecode::Space&, const Gecode::Choice& c, unsigned alternative, std::ostream& out) const override {
        const auto& pv = static_cast<const PosVal&>(c);
        out << "order[" << pv.pos << "] " << (alternative == 0 ? "=" : "!=") << ' ' << pv.value;
    }

    Gecode::Actor* copy(Gecode::Space& home) override { return new (home) LeastSlackPair(home, *this); }

    std::size_t dispose(Gecode::Space& home) override {
        (void)Gecode::Brancher::dispose(home);
        return sizeof(*this);
    }

private:
    class PosVal final : public Gecode::Choice {
    public:
        int pos, value;
        PosVal(const Gecode::Brancher& b, int p, int v) : Gecode::Choice(b, 2), pos(p), value(v) {}
        void archive(Gecode::Archive& e) const override {
            Gecode::Choice::archive(e);
            e << pos << value;
        }
    };

    LeastSlackPair(Gecode::Home home, Gecode::ViewArray<Gecode::Int::BoolView>& o,
                   Gecode::ViewArray<Gecode::Int::IntView>& s, const Layout& layout)
        : Gecode::Brancher(home), order_(o), starts_(s), layout_(&layout) {}
    LeastSlackPair(Gecode::Space& home, LeastSlackPair& other)
        : Gecode::Brancher(home, other), layout_(other.layout_) {
        order_.update(home, other.order_);
        starts_.update(home, other.starts_);
    }

    Gecode::ViewArray<Gecode::Int::BoolView> order_;
    Gecode::ViewArray<Gecode::Int::IntView> starts_;
    const Layout* layout_;
};

} // namespace jobshop_gecode

#endif
