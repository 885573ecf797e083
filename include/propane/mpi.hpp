#ifndef PROPANE_MPI_HPP
#define PROPANE_MPI_HPP

// Search over MPI: every rank of a communicator searches part of one tree,
// and the totals are those of one thread. Optional: <propane/propane.hpp>
// does not include this header, and only a program that includes it needs
// MPI (any MPI-3 library: Open MPI, MPICH).
//
//   MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
//   propane::mpi::Result r = propane::mpi::solve(MPI_COMM_WORLD, store, vars, strategy, {.threads = 2});
//   // r.stats: the whole search's solutions, failures and branches, on every rank
//
// How (Embarrassingly Parallel Search, Régin, Rezgui and Malapert, CP
// 2013): every rank splits the same model the same way (split() is
// deterministic), so the subproblem list never travels, only indices into
// it. Rank 0 hands the indices out one at a time, on request, and searches
// too; each rank runs `threads` workers, each on its own copy of the store,
// and its main thread does all of its MPI calls (so MPI_THREAD_FUNNELED is
// enough). The main threads wait by polling with short sleeps rather than
// in blocking calls, which many MPI libraries spin in: a spinning main
// thread would take a core from the workers. At the end every rank sends
// rank 0 one record per subproblem it searched; rank 0 adds them up in
// index order and broadcasts the totals.
//
// A search here is complete: no limits, no early stop (a distributed
// first-solution search would need a protocol of its own). Strategies must
// be splittable (split.hpp): no restarts, random_value or dom_wdeg.
//
// Ranks given different problems would hand out indices into different
// lists and add up a wrong count, or wait for ever on a message that never
// comes. So before any index travels, every rank hashes what it was given
// (the model's domains and propagator subscriptions, the views, the
// strategy, the options, and the subproblem list it split) and the ranks
// compare the hashes: on any difference every rank throws model_error. A
// rank that fails before the search (its split throws) stops them all too.

// Only MPI's C interface is used: skip the C++ bindings that Open MPI and
// MPICH would otherwise pull in (deprecated, and they warn).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "parallel.hpp"
#include "search/claim.hpp"
#include "search/clock.hpp"

namespace propane::mpi {

struct Options {
    ThreadCount threads = 1;                 // workers per rank; 0 = all hardware threads (parallel.hpp)
    std::size_t subproblems_per_worker = 30; // over all workers of all ranks
    bool collect = false;                    // bring every solution to rank 0, in the search's order
};

// Thrown by solve() on the ranks that did not fail themselves when another
// rank did: that rank throws its own exception, which says why.
class remote_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Result {
    SearchStats stats;          // the whole search, on every rank, with its subproblems and split_time
    std::vector<int> solutions; // rank 0 with collect: the values of vars, one solution after another
    std::uint64_t rejected = 0; // solutions the check refused, over all ranks
    unsigned depth = 0;         // the subproblems' depth
};

namespace detail {

enum Tag : int { request_tag = 701, grant_tag = 702, header_tag = 703, records_tag = 704, values_tag = 705 };

// Statistics of one subproblem, as sent: index, then the counters, so one
// MPI message of uint64s carries them all.
struct Record {
    std::uint64_t index = 0, solutions = 0, failures = 0, branches = 0, propagations = 0, max_depth = 0,
                  rejected = 0, values = 0; // values: how many ints of `solutions` it brought
};
static_assert(sizeof(Record) == 8 * sizeof(std::uint64_t));

// How long an idle main thread sleeps between looks at MPI and its
// workers: short next to any subproblem worth splitting off, long enough
// that polling costs no measurable processor time.
inline constexpr std::chrono::microseconds poll_period{500};

// How many indices a rank other than 0 keeps waiting per worker. A grant
// takes a round trip of up to two poll periods, and subproblems shorter
// than that often come several in a row: keeping one waiting, rank 1's
// worker sat idle for 85 ms of a 1.5 s count (N-queens 14, value, two
// ranks); keeping four, 15 ms. At the end a rank holds at most this many
// more subproblems than the others, a few milliseconds of work.
inline constexpr unsigned waiting_per_worker = 4;

inline void check_mpi(int rc, const char* what) {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("propane::mpi: ") + what + " failed");
}

inline std::uint64_t add_checked(std::uint64_t a, std::uint64_t b) {
    std::uint64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw std::overflow_error("propane::mpi: a count passed 2^64 - 1");
    return sum;
}

// Waits for request r without blocking in MPI: tests it, sleeping between
// tests.
inline void wait_polling(MPI_Request& r) {
    for (;;) {
        int done = 0;
        check_mpi(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done) return;
        std::this_thread::sleep_for(poll_period);
    }
}

// A 64-bit FNV-1a hash, fed whole integers a byte at a time, low byte
// first: the same value on every rank for the same numbers, whatever the
// rank's pointers, byte order or standard library (std::hash is none of
// these).
class Fingerprint {
public:
    void add(std::uint64_t x) noexcept {
        for (int b = 0; b < 8; ++b) {
            h_ ^= (x >> (8 * b)) & 0xff;
            h_ *= 0x100000001b3;
        }
    }
    void add_signed(std::int64_t x) noexcept { add(static_cast<std::uint64_t>(x)); }
    std::uint64_t value() const noexcept { return h_; }

private:
    std::uint64_t h_ = 0xcbf29ce484222325;
};

// What every rank must agree on, one hash each, and what each is called in
// the message when the ranks differ in it.
enum Part : std::size_t { model_part, views_part, strategy_part, options_part, split_part, parts };
inline constexpr const char* part_names[parts] = {"the model (domains, propagators)", "the views", "the strategy",
                                                  "the options", "the split"};

// The store as given: not a copy propagated first, so a rank whose store
// was propagated before the call and one whose store was not may differ.
// The propagators only by number and by the variables they watch: their
// types' names (typeid) may differ between compilers for the same types.
template <class Store>
std::uint64_t model_hash(const Store& s) {
    Fingerprint f;
    f.add_signed(s.num_vars());
    f.add_signed(s.num_propagators());
    for (int v = 0; v < s.num_vars(); ++v) {
        const auto& d = s.domain(v);
        f.add_signed(d.min());
        f.add_signed(d.max());
        f.add(d.size());
        const std::vector<int>& props = s.propagators_of(v);
        f.add(props.size());
        for (const int p : props) f.add_signed(p);
    }
    return f.value();
}

template <class Store, class View>
std::uint64_t views_hash(const Store& s, const std::vector<View>& views) {
    Fingerprint f;
    f.add(views.size());
    for (const View& x : views) {
        f.add_signed(x.min(s));
        f.add_signed(x.max(s));
        f.add(x.size(s));
    }
    return f.value();
}

// A chooser that is a callable cannot be hashed; the split, which calls
// it, shows what it chose.
template <class VarSel, class ValSel>
std::uint64_t strategy_hash(const BasicStrategy<VarSel, ValSel>& strategy) {
    Fingerprint f;
    if constexpr (std::is_enum_v<VarSel>) f.add(static_cast<std::uint64_t>(strategy.var));
    else f.add(~std::uint64_t{0});
    if constexpr (std::is_enum_v<ValSel>) f.add(static_cast<std::uint64_t>(strategy.val));
    else f.add(~std::uint64_t{0});
    f.add(strategy.seed);
    f.add(static_cast<std::uint64_t>(strategy.restarts.policy));
    f.add(strategy.restarts.scale);
    f.add(std::bit_cast<std::uint64_t>(strategy.restarts.growth));
    f.add(std::uint64_t{strategy.assign_all});
    return f.value();
}

// The list and the work above the cut: two models whose tops propagate
// differently (AllDifferent's strengths) give other propagation counts.
inline std::uint64_t split_hash(const Split& sp) {
    Fingerprint f;
    f.add(sp.depth);
    f.add(sp.top.failures);
    f.add(sp.top.branches);
    f.add(sp.top.propagations);
    f.add(sp.subproblems.size());
    for (const Subproblem& sub : sp.subproblems) {
        f.add(sub.path.size());
        for (const Decision& d : sub.path) {
            f.add(static_cast<std::uint64_t>(d.branch));
            f.add_signed(d.value);
            f.add(d.var);
            f.add(d.right ? 1 : 0);
        }
    }
    return f.value();
}

// A blocking receive of a known-size message that polls instead of
// spinning.
template <class T>
void receive(std::vector<T>& into, MPI_Datatype type, int from, int tag, MPI_Comm comm) {
    MPI_Request r;
    check_mpi(MPI_Irecv(into.data(), static_cast<int>(into.size()), type, from, tag, comm, &r), "MPI_Irecv");
    wait_polling(r);
}

// The subproblem indices this rank has been given and not yet started, and
// the records of those its workers finished.
class RankWork {
public:
    void give(std::uint64_t index) {
        {
            const std::lock_guard lock(m_);
            todo_.push_back(index);
        }
        work_.notify_one();
    }
    void close() {
        {
            const std::lock_guard lock(m_);
            closed_ = true;
        }
        work_.notify_all();
    }
    // The next index for a worker, or nothing once closed and drained.
    std::optional<std::uint64_t> take() {
        std::unique_lock lock(m_);
        work_.wait(lock, [&] { return !todo_.empty() || closed_; });
        if (todo_.empty()) return std::nullopt;
        const std::uint64_t i = todo_.front();
        todo_.pop_front();
        lock.unlock();
        taken_.notify_all();
        return i;
    }
    std::size_t waiting() {
        const std::lock_guard lock(m_);
        return todo_.size();
    }
    // Sleeps until a worker takes an index, or for the poll period.
    void nap() {
        std::unique_lock lock(m_);
        taken_.wait_for(lock, poll_period);
    }
    void finished(Record r, const std::vector<int>& values) {
        const std::lock_guard lock(m_);
        records_.push_back(r);
        values_.insert(values_.end(), values.begin(), values.end());
    }
    void fail(std::exception_ptr e) {
        const std::lock_guard lock(m_);
        if (!error_) error_ = e;
        todo_.clear();
    }
    bool failed() {
        const std::lock_guard lock(m_);
        return error_ != nullptr;
    }
    std::exception_ptr error() const { return error_; }
    std::vector<Record>& records() { return records_; }
    std::vector<int>& values() { return values_; }

private:
    std::mutex m_;
    std::condition_variable work_, taken_;
    std::deque<std::uint64_t> todo_;
    bool closed_ = false;
    std::vector<Record> records_; // in the order finished
    std::vector<int> values_;     // the collected solutions, record after record
    std::exception_ptr error_;
};

// Rank 0's main thread: answers requests with the next index (or
// `count`, meaning none is left) and keeps its own workers supplied, until
// every rank has heard that nothing is left.
inline void hand_out(MPI_Comm comm, int ranks, std::uint64_t count, unsigned workers, RankWork& own) {
    std::uint64_t next = 0;
    int told_done = 1; // rank 0 itself
    bool own_closed = false;
    while (told_done < ranks || !own_closed) {
        bool busy = false;
        int pending = 0;
        MPI_Status status;
        check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, request_tag, comm, &pending, &status), "MPI_Iprobe");
        if (pending) {
            int ignored = 0;
            check_mpi(MPI_Recv(&ignored, 1, MPI_INT, status.MPI_SOURCE, request_tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
            const std::uint64_t grant = next < count ? next++ : count;
            check_mpi(MPI_Send(&grant, 1, MPI_UINT64_T, status.MPI_SOURCE, grant_tag, comm), "MPI_Send");
            if (grant == count) ++told_done;
            busy = true;
        }
        if (!own_closed) {
            // An index waiting for each worker: none idles while this
            // thread sleeps. Once rank 0 fails, every rank will throw, so
            // no more is handed out to anyone.
            if (own.failed()) next = count;
            if (next == count) {
                own.close();
                own_closed = true;
            } else if (own.waiting() < workers) {
                own.give(next++);
                busy = true;
            }
        }
        if (!busy) own.nap();
    }
}

// Any other rank's main thread: asks rank 0 for an index whenever fewer
// than waiting_per_worker per worker are waiting, one request in flight at
// a time.
inline void ask_for_work(MPI_Comm comm, std::uint64_t count, unsigned workers, RankWork& own) {
    for (;;) {
        if (own.waiting() >= waiting_per_worker * workers) {
            own.nap();
            continue;
        }
        const int ask = 0;
        check_mpi(MPI_Send(&ask, 1, MPI_INT, 0, request_tag, comm), "MPI_Send");
        std::vector<std::uint64_t> grant(1);
        receive(grant, MPI_UINT64_T, 0, grant_tag, comm);
        if (grant[0] >= count) break;
        // A failed rank still asks until told that nothing is left, so
        // rank 0 can count every rank out; it searches nothing more.
        if (!own.failed()) own.give(grant[0]);
    }
    own.close();
}

} // namespace detail

// Searches the whole tree of solve(s, vars, strategy, ...) on every rank of
// comm, each rank calling this with the same model, views and strategy.
// check(solution) -> bool is called for each solution on the worker thread
// that found it, on whichever rank (so it must be safe to call from several
// threads at once); a false counts the solution in Result::rejected, and it
// is still a solution of the search. Collective: every rank of comm must
// call it. MPI must be initialised with at least MPI_THREAD_FUNNELED, and
// this called from the main thread. Throws model_error on every rank when
// the ranks were given different models, views, strategies or options
// (Options::threads aside). An exception on a worker stops that rank's
// workers (and the handing out, on rank 0); when the protocol has ended,
// that rank rethrows it and the others throw remote_error. So does an
// exception before the search (from the split), the others then throwing
// model_error if it was one and remote_error otherwise.
template <class Store, std::ranges::input_range R, class VarSel, class ValSel, class Check>
Result solve(MPI_Comm comm, Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
             const Options& options, Check&& check) {
    using View = std::ranges::range_value_t<R>;
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    int provided = 0, is_main = 0, rank = 0, ranks = 1;
    detail::check_mpi(MPI_Query_thread(&provided), "MPI_Query_thread");
    detail::check_mpi(MPI_Is_thread_main(&is_main), "MPI_Is_thread_main");
    if (provided < MPI_THREAD_FUNNELED || !is_main)
        throw model_error("propane::mpi::solve: needs MPI initialised with MPI_Init_thread(..., "
                          "MPI_THREAD_FUNNELED or more, ...) and to be called from the main thread");
    detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    detail::check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
    const unsigned workers = propane::detail::resolve_threads(options.threads);

    // Every rank needs the same number of subproblems to split alike: the
    // largest worker count of any rank decides it.
    unsigned most_workers = workers;
    detail::check_mpi(MPI_Allreduce(&workers, &most_workers, 1, MPI_UNSIGNED, MPI_MAX, comm), "MPI_Allreduce");
    const std::vector<View> views(std::ranges::begin(vars), std::ranges::end(vars));
    const std::size_t wanted = std::size_t{most_workers} * static_cast<std::size_t>(ranks) *
                               std::max<std::size_t>(1, options.subproblems_per_worker);
    // Whatever fails here fails on this rank alone: it must still take
    // part in the comparison below, or the others would wait for it.
    Split sp;
    std::uint64_t hashes[detail::parts] = {};
    std::exception_ptr early;
    bool early_model_error = false;
    // As the parallel solve on threads: the store is held as running for
    // the whole call (model_error for a search on it from check(), or from
    // another thread), and the split and the workers use copies of it. A
    // store already searched is refused here, in the agreement, so no rank
    // is left waiting.
    std::optional<propane::detail::StoreClaim<Store, View>> claim;
    std::optional<Store> root;
    try {
        claim.emplace(s, "mpi::solve");
        root.emplace(s);
        sp = split(*root, views, strategy, wanted);
        hashes[detail::model_part] = detail::model_hash(*root);
        hashes[detail::views_part] = detail::views_hash(*root, views);
        hashes[detail::strategy_part] = detail::strategy_hash(strategy);
        detail::Fingerprint of_options;
        of_options.add(options.subproblems_per_worker);
        of_options.add(options.collect ? 1 : 0);
        hashes[detail::options_part] = of_options.value();
        hashes[detail::split_part] = detail::split_hash(sp);
    } catch (const model_error&) {
        early = std::current_exception();
        early_model_error = true;
    } catch (...) {
        early = std::current_exception();
    }
    // One reduction by maximum compares them all: each hash h and its
    // complement ~h, whose maximum is ~(the minimum of h), so that all the
    // ranks agree exactly when every hash's maximum and minimum are this
    // rank's. Then the failures: how (2 for a model_error), and the lowest
    // rank that failed, as the largest ~rank.
    std::vector<std::uint64_t> agreement;
    for (const std::uint64_t h : hashes) agreement.insert(agreement.end(), {h, ~h});
    agreement.push_back(early ? (early_model_error ? 2 : 1) : 0);
    agreement.push_back(early ? ~static_cast<std::uint64_t>(rank) : 0);
    {
        std::vector<std::uint64_t> reduced(agreement.size());
        MPI_Request r;
        detail::check_mpi(MPI_Iallreduce(agreement.data(), reduced.data(), static_cast<int>(agreement.size()),
                                         MPI_UINT64_T, MPI_MAX, comm, &r),
                          "MPI_Iallreduce");
        detail::wait_polling(r);
        if (early) std::rethrow_exception(early);
        const std::uint64_t failed = reduced[2 * detail::parts];
        if (failed != 0) {
            const std::string first = std::to_string(~reduced[2 * detail::parts + 1]);
            if (failed == 2) throw model_error("mpi::solve: rank " + first + " refused its model (it says why)");
            throw remote_error("propane::mpi::solve: rank " + first + " failed before the search (it says why)");
        }
        std::string differ;
        for (std::size_t k = 0; k < detail::parts; ++k)
            if (reduced[2 * k] != hashes[k] || ~reduced[2 * k + 1] != hashes[k])
                differ += std::string(differ.empty() ? "" : ", ") + detail::part_names[k];
        if (!differ.empty())
            throw model_error("mpi::solve: the ranks were given different problems: they differ in " + differ +
                              " (every rank must pass the same model, views, strategy and options; the threads "
                              "may differ)");
    }
    const auto count = static_cast<std::uint64_t>(sp.subproblems.size());

    detail::RankWork own;
    std::vector<std::thread> crew;
    crew.reserve(workers);
    for (unsigned w = 0; w < workers; ++w)
        crew.emplace_back([&] {
            try {
                Store copy = *root;
                propane::detail::Replay<Store, View> replay(copy, views);
                std::vector<int> values;
                while (const std::optional<std::uint64_t> i = own.take()) {
                    const Subproblem& sub = sp.subproblems[static_cast<std::size_t>(*i)];
                    detail::Record r;
                    r.index = *i;
                    values.clear();
                    const SearchStats st = propane::detail::search_subproblem(
                        replay, strategy, Limits{}, sub, nullptr, [&](const auto& sol) {
                            if (!check(sol)) ++r.rejected;
                            if (options.collect)
                                for (std::size_t k = 0; k < sol.size(); ++k) values.push_back(sol[k]);
                            return Action::next;
                        });
                    r.solutions = st.solutions;
                    r.failures = st.failures;
                    r.branches = st.branches;
                    r.propagations = st.propagations;
                    r.max_depth = propane::detail::left_branches(sub) + st.max_depth;
                    r.values = values.size();
                    own.finished(r, values);
                }
            } catch (...) {
                own.fail(std::current_exception());
            }
        });
    // The protocol must run to its end whatever happens on this rank, or
    // the other ranks would wait for ever: its own MPI errors end the
    // program instead (MPI's default handler aborts all ranks).
    if (rank == 0) detail::hand_out(comm, ranks, count, workers, own);
    else detail::ask_for_work(comm, count, workers, own);
    for (std::thread& t : crew) t.join();

    // Every rank's records, at rank 0.
    Result out;
    out.depth = sp.depth;
    std::uint64_t errors = own.error() ? 1 : 0;
    std::vector<detail::Record> all;
    std::vector<std::vector<int>> values_of; // rank 0: each record's values, by record
    if (rank == 0) {
        std::vector<std::pair<std::vector<detail::Record>, std::vector<int>>> parts;
        parts.emplace_back(std::move(own.records()), std::move(own.values()));
        for (int from = 1; from < ranks; ++from) {
            std::vector<std::uint64_t> header(3);
            detail::receive(header, MPI_UINT64_T, from, detail::header_tag, comm);
            std::vector<detail::Record> rs(static_cast<std::size_t>(header[0]));
            std::vector<std::uint64_t> raw(rs.size() * 8);
            detail::receive(raw, MPI_UINT64_T, from, detail::records_tag, comm);
            for (std::size_t k = 0; k < rs.size(); ++k)
                rs[k] = {raw[8 * k], raw[8 * k + 1], raw[8 * k + 2], raw[8 * k + 3],
                         raw[8 * k + 4], raw[8 * k + 5], raw[8 * k + 6], raw[8 * k + 7]};
            std::vector<int> vs(static_cast<std::size_t>(header[1]));
            if (!vs.empty()) detail::receive(vs, MPI_INT, from, detail::values_tag, comm);
            errors += header[2];
            parts.emplace_back(std::move(rs), std::move(vs));
        }
        // Each record's values, then the records in index order.
        std::vector<std::pair<detail::Record, std::vector<int>>> merged;
        for (auto& [rs, vs] : parts) {
            std::size_t at = 0;
            for (const detail::Record& r : rs) {
                const auto n = static_cast<std::size_t>(r.values);
                merged.emplace_back(r, std::vector<int>(vs.begin() + static_cast<std::ptrdiff_t>(at),
                                                        vs.begin() + static_cast<std::ptrdiff_t>(at + n)));
                at += n;
            }
        }
        std::sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) { return a.first.index < b.first.index; });
        SearchStats& t = out.stats;
        t = sp.top;
        for (const auto& [r, vs] : merged) {
            t.solutions = detail::add_checked(t.solutions, r.solutions);
            t.failures = detail::add_checked(t.failures, r.failures);
            t.branches = detail::add_checked(t.branches, r.branches);
            t.propagations = detail::add_checked(t.propagations, r.propagations);
            t.max_depth = std::max(t.max_depth, r.max_depth);
            out.rejected = detail::add_checked(out.rejected, r.rejected);
            out.solutions.insert(out.solutions.end(), vs.begin(), vs.end());
        }
        // Every subproblem searched once: anything else is a bug here.
        if (errors == 0 && merged.size() != sp.subproblems.size())
            throw std::logic_error("propane::mpi::solve: " + std::to_string(merged.size()) + " records for " +
                                   std::to_string(sp.subproblems.size()) + " subproblems");
    } else {
        const std::vector<detail::Record>& rs = own.records();
        std::vector<std::uint64_t> header{rs.size(), own.values().size(), errors};
        detail::check_mpi(MPI_Send(header.data(), 3, MPI_UINT64_T, 0, detail::header_tag, comm), "MPI_Send");
        std::vector<std::uint64_t> raw;
        raw.reserve(rs.size() * 8);
        for (const detail::Record& r : rs)
            raw.insert(raw.end(), {r.index, r.solutions, r.failures, r.branches, r.propagations, r.max_depth,
                                   r.rejected, r.values});
        detail::check_mpi(MPI_Send(raw.data(), static_cast<int>(raw.size()), MPI_UINT64_T, 0, detail::records_tag, comm),
                          "MPI_Send");
        if (!own.values().empty())
            detail::check_mpi(MPI_Send(own.values().data(), static_cast<int>(own.values().size()), MPI_INT, 0,
                                       detail::values_tag, comm),
                              "MPI_Send");
    }

    // The totals, and whether any rank failed, to every rank.
    std::vector<std::uint64_t> totals{out.stats.solutions, out.stats.failures, out.stats.branches,
                                      out.stats.propagations, out.stats.max_depth, out.rejected, errors};
    MPI_Request r;
    detail::check_mpi(MPI_Ibcast(totals.data(), static_cast<int>(totals.size()), MPI_UINT64_T, 0, comm, &r), "MPI_Ibcast");
    detail::wait_polling(r);
    if (own.error()) std::rethrow_exception(own.error());
    if (totals[6] != 0) throw remote_error("propane::mpi::solve: a worker on another rank failed");
    out.stats.solutions = totals[0];
    out.stats.failures = totals[1];
    out.stats.branches = totals[2];
    out.stats.propagations = totals[3];
    out.stats.max_depth = totals[4];
    out.rejected = totals[5];
    out.stats.subproblems = sp.subproblems.size();
    out.stats.split_time = sp.time;
    out.stats.outcome = Outcome::complete;
    out.stats.wall_time = clock::now() - start;
    return out;
}

// The same without a check.
template <class Store, std::ranges::input_range R, class VarSel, class ValSel>
Result solve(MPI_Comm comm, Store& s, const R& vars, const BasicStrategy<VarSel, ValSel>& strategy,
             const Options& options = {}) {
    return solve(comm, s, vars, strategy, options, [](const auto&) { return true; });
}

} // namespace propane::mpi

#endif
