// Search allocates nothing per node: its stacks, the trail and the
// propagators' scratch space grow to the size the tree needs and are reused.
// This file replaces the global allocation functions with ones that count
// their calls, and checks that the number of allocations a search makes does
// not depend on how many nodes it visits.
//
// The replacements forward to malloc, aligned_alloc and free, which the
// sanitizers intercept, so AddressSanitizer still sees every block and
// checks every free against its allocation.

#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "nqueens_model.hpp"

#include "instances.hpp"

namespace {

// Atomic although the tests are single-threaded: nothing stops the test
// framework or the C++ runtime from allocating on another thread, and a
// data race in operator new would be undefined behaviour of its own.
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> deallocations{0};

std::uint64_t allocated() noexcept { return allocations.load(std::memory_order_relaxed); }
std::uint64_t freed() noexcept { return deallocations.load(std::memory_order_relaxed); }

// [new.delete.single]: a failed attempt calls the new-handler and tries
// again, until there is no handler, which means std::bad_alloc.
template <class Attempt>
void* allocate_or_throw(Attempt attempt) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
        if (void* p = attempt()) return p;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw std::bad_alloc();
        handler();
    }
}

// Size 0 must still give a unique pointer, and malloc(0) may return null.
void* allocate(std::size_t size) {
    const std::size_t bytes = size == 0 ? 1 : size;
    return allocate_or_throw([bytes] { return std::malloc(bytes); });
}

// aligned_alloc takes only sizes that are multiples of the alignment; one
// that cannot be rounded up without overflow cannot be allocated at all.
void* allocate(std::size_t size, std::align_val_t al) {
    const auto alignment = static_cast<std::size_t>(al);
    const std::size_t bytes = size == 0 ? 1 : size;
    const bool fits = bytes <= std::numeric_limits<std::size_t>::max() - (alignment - 1);
    const std::size_t rounded = fits ? (bytes + alignment - 1) / alignment * alignment : 0;
    return allocate_or_throw([=]() -> void* { return fits ? std::aligned_alloc(alignment, rounded) : nullptr; });
}

// [new.delete.single]: the nothrow forms return what the throwing ones
// would, and null where those would throw.
template <class... Args>
void* allocate_or_null(Args... args) noexcept {
    try {
        return allocate(args...);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void release(void* p) noexcept {
    if (p == nullptr) return;
    deallocations.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}

} // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, std::align_val_t al) { return allocate(size, al); }
void* operator new[](std::size_t size, std::align_val_t al) { return allocate(size, al); }

void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
    return allocate_or_null(size, al);
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
    return allocate_or_null(size, al);
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }

// The failure tests below ask for more memory than exists. AddressSanitizer
// reports such a request as an error and aborts unless told to return null,
// as malloc does without it.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

TYPE_TO_STRING_AS("w1", propane::BitDomain<1>);
TYPE_TO_STRING_AS("w2", propane::BitDomain<2>);
TYPE_TO_STRING_AS("dynamic", propane::BitDomain<propane::dynamic>);

namespace {

// The failure tests' new-handler. After each failed attempt operator new
// calls it and tries again; on its second call it gives up by removing
// itself, which leaves operator new nothing to do but fail.
int handler_calls = 0;
void give_up_on_second_call() {
    if (++handler_calls == 2) std::set_new_handler(nullptr);
}

// More memory than any machine has. Volatile, because a size the compiler
// can see would draw its warning about absurd allocation sizes.
volatile std::size_t absurd = std::numeric_limits<std::size_t>::max() / 2;

// Every pointer the tests below allocate passes through here. The
// replacements are defined in this file, so the compiler may inline them,
// see a malloc whose result goes unused or is only compared, and drop it
// as though it had succeeded; a store to a volatile is a use it must keep.
void* volatile kept = nullptr;
void* keep(void* p) noexcept {
    kept = p;
    return kept;
}

struct Call {
    void* p;
    std::uint64_t counted;
};

template <class Allocate>
Call call(Allocate allocate_fn) {
    const std::uint64_t before = allocated();
    void* p = keep(allocate_fn());
    return {p, allocated() - before};
}

template <class Free>
std::uint64_t frees(Free free_fn) {
    const std::uint64_t before = freed();
    free_fn();
    return freed() - before;
}

bool aligned_to(const void* p, std::align_val_t al) {
    return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(al) == 0;
}

constexpr std::size_t size = 24;
constexpr std::align_val_t wide{256}; // beyond what malloc guarantees

} // namespace

// Without this the search tests below could pass by counting nothing.
TEST_CASE("every replaced allocation function is the one called, and counts one call") {
    const Call scalar[] = {
        call([] { return ::operator new(size); }),
        call([] { return ::operator new(size, std::nothrow); }),
        call([] { return ::operator new(size); }),
    };
    const Call array[] = {
        call([] { return ::operator new[](size); }),
        call([] { return ::operator new[](size, std::nothrow); }),
        call([] { return ::operator new[](size); }),
    };
    const Call scalar_aligned[] = {
        call([] { return ::operator new(size, wide); }),
        call([] { return ::operator new(size, wide, std::nothrow); }),
        call([] { return ::operator new(size, wide); }),
    };
    const Call array_aligned[] = {
        call([] { return ::operator new[](size, wide); }),
        call([] { return ::operator new[](size, wide, std::nothrow); }),
        call([] { return ::operator new[](size, wide); }),
    };
    for (const auto* calls : {scalar, array, scalar_aligned, array_aligned}) {
        for (int k = 0; k < 3; ++k) {
            CAPTURE(k);
            CHECK(calls[k].p != nullptr);
            CHECK(calls[k].counted == 1);
        }
    }
    for (const auto* calls : {scalar_aligned, array_aligned})
        for (int k = 0; k < 3; ++k) CHECK(aligned_to(calls[k].p, wide));

    CHECK(frees([&] { ::operator delete(scalar[0].p); }) == 1);
    CHECK(frees([&] { ::operator delete(scalar[1].p, size); }) == 1);
    CHECK(frees([&] { ::operator delete(scalar[2].p, std::nothrow); }) == 1);
    CHECK(frees([&] { ::operator delete[](array[0].p); }) == 1);
    CHECK(frees([&] { ::operator delete[](array[1].p, size); }) == 1);
    CHECK(frees([&] { ::operator delete[](array[2].p, std::nothrow); }) == 1);
    CHECK(frees([&] { ::operator delete(scalar_aligned[0].p, wide); }) == 1);
    CHECK(frees([&] { ::operator delete(scalar_aligned[1].p, size, wide); }) == 1);
    CHECK(frees([&] { ::operator delete(scalar_aligned[2].p, wide, std::nothrow); }) == 1);
    CHECK(frees([&] { ::operator delete[](array_aligned[0].p, wide); }) == 1);
    CHECK(frees([&] { ::operator delete[](array_aligned[1].p, size, wide); }) == 1);
    CHECK(frees([&] { ::operator delete[](array_aligned[2].p, wide, std::nothrow); }) == 1);
}

TEST_CASE("a request for 0 bytes gives a distinct pointer each time") {
    const Call a = call([] { return ::operator new(0); });
    const Call b = call([] { return ::operator new(0); });
    const Call c = call([] { return ::operator new[](0); });
    const Call d = call([] { return ::operator new(0, wide); });
    const Call e = call([] { return ::operator new(0, wide); });
    for (const Call& x : {a, b, c, d, e}) CHECK(x.p != nullptr);
    CHECK(a.p != b.p);
    CHECK(d.p != e.p);
    CHECK(aligned_to(d.p, wide));
    ::operator delete(a.p);
    ::operator delete(b.p);
    ::operator delete[](c.p);
    ::operator delete(d.p, wide);
    ::operator delete(e.p, wide);
}

TEST_CASE("a request that cannot be met throws std::bad_alloc, or gives null from a nothrow form") {
    const std::size_t too_much = absurd;
    // Rounding this up to the alignment would overflow.
    const std::size_t everything = too_much * 2 + 1;
    CHECK_THROWS_AS(keep(::operator new(too_much)), std::bad_alloc);
    CHECK_THROWS_AS(keep(::operator new[](too_much)), std::bad_alloc);
    CHECK_THROWS_AS(keep(::operator new(too_much, wide)), std::bad_alloc);
    CHECK_THROWS_AS(keep(::operator new[](everything, wide)), std::bad_alloc);
    CHECK(keep(::operator new(too_much, std::nothrow)) == nullptr);
    CHECK(keep(::operator new[](too_much, std::nothrow)) == nullptr);
    CHECK(keep(::operator new(everything, wide, std::nothrow)) == nullptr);
    CHECK(keep(::operator new[](too_much, wide, std::nothrow)) == nullptr);

    const std::new_handler previous = std::set_new_handler(give_up_on_second_call);
    handler_calls = 0;
    CHECK_THROWS_AS(keep(::operator new(too_much)), std::bad_alloc);
    CHECK(handler_calls == 2);
    std::set_new_handler(give_up_on_second_call);
    handler_calls = 0;
    CHECK(keep(::operator new(everything, wide, std::nothrow)) == nullptr);
    CHECK(handler_calls == 2);
    std::set_new_handler(previous);
}

namespace {

constexpr int board = 12;
constexpr std::uint64_t board_solutions = 14200; // OEIS A000170
constexpr std::uint64_t full_branches_at_least = 100'000;
constexpr std::uint64_t cut_branches = 300;

} // namespace

// Two views of one complete count per strength and domain width, the pull
// form's, counted from the search's construction on:
// - in total, it allocates as much as a search of the same model cut off
//   after a few hundred branches, though it takes nearly a thousand times
//   as many;
// - from the return of the first next() that found a solution to the end
//   of the search, it allocates nothing at all.
// A search allocates once at its start (its own stacks, the first trail
// blocks, the queue saved with the root level): what it allocates per node
// would show as a difference of hundreds of thousands.
TEST_CASE_TEMPLATE("a complete 12-queens count allocates nothing per node", Domain, propane::BitDomain<1>,
                   propane::BitDomain<2>, propane::BitDomain<propane::dynamic>) {
    for (const propane::Consistency strength :
         std::initializer_list<propane::Consistency>{propane::value, propane::bounds, propane::domain}) {
        const std::string strength_name(propane::to_string(strength));
        CAPTURE(strength_name);

        nqueens::Model<Domain> cut_model(board, strength);
        const std::uint64_t before_cut = allocated();
        const propane::SearchStats cut = propane::solve(cut_model.store, cut_model.q, nqueens::guide_strategy,
                                                        {.branches = cut_branches},
                                                        [](const auto&) { return propane::next; });
        const std::uint64_t cut_allocations = allocated() - before_cut;
        CHECK(cut.outcome == propane::Outcome::branch_limit);
        CHECK(cut.branches == cut_branches);

        nqueens::Model<Domain> m(board, strength);
        const std::uint64_t before = allocated();
        std::uint64_t at_first = 0, solutions = 0, grown_at = 0, depth_then = 0;
        propane::SearchStats full;
        {
            propane::Search search(m.store, m.q, nqueens::guide_strategy);
            // Nothing in this loop may allocate, doctest included: it notes
            // what it sees, and the checks come after.
            while (search.next()) {
                if (++solutions == 1) at_first = allocated();
                else if (grown_at == 0 && allocated() != at_first) {
                    grown_at = solutions;
                    depth_then = search.stats().max_depth;
                }
            }
            full = search.stats();
        }
        const std::uint64_t at_end = allocated();
        REQUIRE(full.complete());
        CHECK(solutions == board_solutions);
        CHECK(full.solutions == board_solutions);
        CHECK(full.branches > full_branches_at_least);
        // The search's own stack at least: the counter sees the engine.
        CHECK(at_first > before);

        CHECK_MESSAGE(at_end - before == cut_allocations,
                      "the cut search reached depth " << cut.max_depth << ", the full one " << full.max_depth);
        CHECK_MESSAGE(grown_at == 0, "allocated by solution " << grown_at << " of " << solutions << ", at depth "
                                                              << depth_then << " (" << full.max_depth
                                                              << " at the end)");
        CHECK(at_end - at_first == 0);
    }
}

// Paths the guide's search does not take: the other variable and value
// choosers, and restarts. An allocation per node, per solution or per
// restart would make more allocations than there are solutions or restarts;
// buffers that double as the tree deepens grow a handful of times at most.
TEST_CASE("no built-in strategy allocates per node, per solution or per restart") {
    using propane::VarChoice, propane::ValChoice, propane::RestartPolicy;
    const VarChoice vars[] = {propane::first_unbound, propane::smallest_domain, propane::largest_domain,
                              propane::smallest_min, propane::dom_wdeg};
    const ValChoice vals[] = {propane::min_value, propane::max_value, propane::middle_value, propane::split_value,
                              propane::random_value};
    for (const VarChoice var : vars) {
        for (const ValChoice val : vals) {
            const std::string strategy_name =
                std::string(propane::to_string(var)) + "/" + std::string(propane::to_string(val));
            CAPTURE(strategy_name);

            nqueens::Model<propane::BitDomain<propane::dynamic>> m(8, propane::value);
            propane::Search search(m.store, m.q, propane::Strategy{.var = var, .val = val, .seed = 7});
            REQUIRE(search.next());
            const std::uint64_t at_first = allocated();
            while (search.next()) continue;
            const std::uint64_t after_first = allocated() - at_first;
            CHECK(search.stats().complete());
            REQUIRE(search.stats().solutions == 92);
            CHECK(after_first < search.stats().solutions - 1);

            // Seven pigeons, six holes: no solution ends the restarts early,
            // and a budget of one failure makes dozens to thousands of them.
            for (const RestartPolicy policy : {RestartPolicy::luby, RestartPolicy::geometric}) {
                const std::string policy_name(propane::to_string(policy));
                CAPTURE(policy_name);
                propane::Store<propane::BitDomain<propane::dynamic>> s;
                const std::vector<propane::IntVar> pigeons = s.int_vars(7, 0, 5);
                s.post(propane::all_different(pigeons, propane::value));
                const propane::Strategy restarting{
                    .var = var, .val = val, .seed = 7, .restarts = {.policy = policy, .scale = 1, .growth = 1.1}};
                const std::uint64_t before = allocated();
                const propane::SearchStats st = propane::solve(s, pigeons, restarting, [](const auto&) {});
                const std::uint64_t used = allocated() - before;
                CHECK(st.complete());
                CHECK(st.solutions == 0);
                REQUIRE(st.restarts >= 50);
                CHECK(used < st.restarts);
            }
        }
    }
}
