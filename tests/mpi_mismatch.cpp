// propane::mpi::solve given different problems on different ranks: every
// rank must throw (model_error for a modelling mismatch), never count
// wrong or wait for ever; a rank that fails before the search makes the
// others throw too. Run on two or more ranks, under a timeout (a regression
// hangs): tests/mpi_cli_test.sh does. Exit status 0 when every rank saw
// what it should, 1 otherwise, with one line per miss on standard error.

#include <cstdio>
#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <propane/mpi.hpp>

namespace {

int rank = 0, ranks = 1, misses = 0;

void miss(const std::string& what) {
    std::fprintf(stderr, "mpi_mismatch: rank %d: %s\n", rank, what.c_str());
    ++misses;
}

using Store = propane::Store<propane::BitDomain<1>>;

// Six variables in 0..5, all different: 720 solutions.
struct Model {
    Store s;
    std::vector<propane::IntVar> x;
    explicit Model(int last_max = 5, bool extra = false) {
        x = s.int_vars(5, 0, 5);
        x.push_back(s.int_var(0, last_max));
        s.post(propane::all_different(x));
        if (extra) s.post(propane::rel(x[0], propane::Rel::ne, x[1]));
    }
};

// What one case expects of this rank.
// refused: model_error or remote_error, whichever this rank meets first.
enum class Expect { count, model_error, own_error, remote_error, refused };

template <class Run>
void check(const char* name, Expect expect, Run&& run) {
    const char* got = "a result";
    std::string what;
    try {
        const propane::mpi::Result r = run();
        if (expect == Expect::count && r.stats.solutions != 720)
            miss(std::string(name) + ": " + std::to_string(r.stats.solutions) + " solutions, expected 720");
    } catch (const propane::mpi::remote_error& e) {
        got = "remote_error";
        what = e.what();
    } catch (const propane::model_error& e) {
        got = "model_error";
        what = e.what();
    } catch (const std::exception& e) {
        got = "own_error";
        what = e.what();
    }
    const char* wanted = expect == Expect::count         ? "a result"
                         : expect == Expect::model_error ? "model_error"
                         : expect == Expect::own_error   ? "own_error"
                         : expect == Expect::refused     ? "model_error or remote_error"
                                                         : "remote_error";
    const bool refused = expect == Expect::refused && (std::string(got) == "model_error" || std::string(got) == "remote_error");
    if (!refused && std::string(got) != wanted) miss(std::string(name) + ": got " + got + " (" + what + "), expected " + wanted);
}

} // namespace

int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const bool odd_one = rank == ranks - 1 && ranks > 1;
    const propane::Strategy strategy{propane::first_unbound, propane::min_value};

    check("the same problem", Expect::count, [&] {
        Model m;
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy);
    });
    check("other thread counts", Expect::count, [&] {
        Model m;
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy, {.threads = odd_one ? 2u : 1u});
    });
    check("a wider domain on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m(odd_one ? 6 : 5);
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy);
    });
    // x[0] != x[1] prunes nothing all_different does not, so the split
    // alone would not tell.
    check("one more constraint on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m(5, odd_one);
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy);
    });
    check("another value choice on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m;
        const propane::Strategy other{propane::first_unbound, odd_one ? propane::max_value : propane::min_value};
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, other);
    });
    check("fewer views on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m;
        const std::span<const propane::IntVar> views(m.x.data(), odd_one ? 5 : 6);
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, views, strategy);
    });
    check("other options on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m;
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy,
                                   {.subproblems_per_worker = odd_one ? 7u : 30u});
    });
    // A solution is a whole assignment: x[4] and x[5], outside the views,
    // are decided in the subproblems' searches, so the count is 720, not
    // the 360 assignments of x[0..3].
    check("two variables outside the views", Expect::count, [&] {
        Model m;
        const std::span<const propane::IntVar> views(m.x.data(), 4);
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, views, strategy);
    });
    // Over all six views the option changes nothing here, so only the
    // strategy's hash can tell.
    check("assign_all on one rank only", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m;
        propane::Strategy other = strategy;
        other.assign_all = !odd_one;
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, other);
    });
    // A chooser that throws on one rank: that rank's own exception there,
    // remote_error elsewhere.
    check("a split that throws on one rank", odd_one ? Expect::own_error : Expect::remote_error, [&] {
        if (ranks == 1) throw propane::mpi::remote_error("one rank: nothing to compare");
        Model m;
        const auto chooser = [&](const Store& at, std::span<const propane::IntVar> xs) -> int {
            if (odd_one) throw std::runtime_error("the chooser refuses");
            for (std::size_t k = 0; k < xs.size(); ++k)
                if (!xs[k].fixed(at)) return static_cast<int>(k);
            return 0;
        };
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, propane::strategy(chooser, propane::min_value));
    });
    // A handle from another store on one rank: model_error on every rank.
    check("a foreign handle on one rank", ranks > 1 ? Expect::model_error : Expect::count, [&] {
        Model m, other;
        std::vector<propane::IntVar> views = m.x;
        if (odd_one) views[0] = other.s.int_var(0, 5);
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, views, strategy);
    });

    // The store is held as running for the whole call, on every rank:
    // another search on it is refused, before the search (a search already
    // running there) and during it (one started from check(), on a worker
    // thread, while the workers copy the store).
    check("a store with a search running on one rank", Expect::model_error, [&] {
        Model m;
        propane::Search busy(m.s, m.x, strategy);
        if ((odd_one || ranks == 1) && !busy.next()) throw std::logic_error("no first solution");
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy);
    });
    check("a check() that searches the store", Expect::refused, [&] {
        Model m;
        return propane::mpi::solve(MPI_COMM_WORLD, m.s, m.x, strategy, {.threads = 1},
                                   [&](const auto&) { return propane::solve(m.s, m.x, [](const auto&) {}).solutions > 0; });
    });

    int all = 0;
    MPI_Allreduce(&misses, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) std::printf("mpi_mismatch: %d ranks, %d misses\n", ranks, all);
    MPI_Finalize();
    return all == 0 ? 0 : 1;
}
