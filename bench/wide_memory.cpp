// wide_memory: the heap a store takes for wide variables. Makes N variables
// (default 10,000) over 0..10^9 in a Store<BitDomain<dynamic>>, where each
// is kept in the interval form (bounds and holes), and prints the bytes
// allocated for them, in all and per variable; then the same count of
// variables over 0..65535, the widest a bitset is made automatically, for
// comparison. A bitset over 10^9 values would take 125 MB per variable.
//
// Bytes are counted by replacing the global operator new and delete, so the
// figure is what the store asked for, without the allocator's own overhead.

#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include <propane/propane.hpp>

namespace {

std::size_t live = 0;

// Each block is preceded by its size and the pointer malloc returned, so
// that plain and over-aligned blocks (a dynamic domain takes a cache line)
// are freed alike.
struct Header {
    std::size_t size;
    void* base;
};

void* allocate(std::size_t n, std::size_t align) {
    if (align < alignof(Header)) align = alignof(Header);
    void* base = std::malloc(n + sizeof(Header) + align);
    if (!base) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(base) + sizeof(Header);
    auto* block = reinterpret_cast<char*>((start + align - 1) / align * align);
    auto* h = reinterpret_cast<Header*>(block) - 1;
    h->size = n;
    h->base = base;
    live += n;
    return block;
}

void release(void* p) noexcept {
    if (!p) return;
    const Header* h = static_cast<Header*>(p) - 1;
    live -= h->size;
    std::free(h->base);
}

} // namespace

void* operator new(std::size_t n) { return allocate(n, alignof(std::max_align_t)); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, static_cast<std::size_t>(a)); }
void operator delete(void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }

namespace {

void measure(int n, int hi) {
    const std::size_t before = live;
    std::size_t after = 0;
    const char* form = "";
    {
        propane::Store<propane::BitDomain<propane::dynamic>> s;
        const std::vector<propane::IntVar> xs = s.int_vars(n, 0, hi);
        after = live;
        form = s.domain(xs[0]).representation() == propane::Representation::interval ? "interval" : "bitset";
    }
    std::printf("%d variables over 0..%d (%s form): %zu bytes, %zu per variable\n", n, hi, form, after - before,
                (after - before) / static_cast<std::size_t>(n));
}

} // namespace

int main(int argc, char** argv) {
    int n = 10'000;
    if (argc > 2 || (argc == 2 && (n = std::atoi(argv[1])) <= 0)) {
        std::fprintf(stderr, "wide_memory: expected one positive count of variables\nusage: wide_memory [N]\n");
        return 2;
    }
    measure(n, 1'000'000'000);
    measure(n, 65'535);
    return 0;
}
