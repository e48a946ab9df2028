#include "libconvert/memory.h"

#include <sys/mman.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <thread>

namespace animconv {
namespace {
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;  // x86-64's transparent huge page
}  // namespace

bool AdviseHugePages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHugePage - 1);
  return end > begin && ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0;
#else
  (void)data;
  (void)bytes;
  return false;
#endif
}

namespace {

#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
// Faults [begin, end) in, one huge page at a time, on a thread that is left to run: the job does
// not wait for it, and at exit it simply ends. Stops at the first refusal (a kernel without
// MADV_POPULATE_WRITE says EINVAL).
void PrefaultInBackground(uintptr_t begin, uintptr_t end) {
#ifdef MADV_POPULATE_WRITE
  begin = (begin + kHugePage - 1) & ~(kHugePage - 1);
  end &= ~(kHugePage - 1);
  if (end <= begin) return;
  try {
    std::thread([begin, end] {
      for (uintptr_t page = begin; page < end; page += kHugePage) {
        if (::madvise(reinterpret_cast<void*>(page), kHugePage, MADV_POPULATE_WRITE) != 0) return;
      }
    }).detach();
  } catch (const std::system_error&) {
    // No thread to be had: the job faults its pages in itself, as without this.
  }
#else
  (void)begin;
  (void)end;
#endif
}
#endif

}  // namespace

bool PrepareHeapForLargeJob(const LargeJobHeapOptions& options) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
  const size_t reserve_bytes = options.reserve_bytes;
  // Worker threads would otherwise get arenas of their own, fresh mappings without huge pages.
  ::mallopt(M_ARENA_MAX, 1);
  // No block gets a mapping of its own: such a block is unmapped when freed, and the next one
  // faults its pages in again. (When the heap cannot grow, glibc still maps, whatever this says.)
  ::mallopt(M_MMAP_MAX, 0);
  // Freed memory stays in the heap for the next block.
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  if (reserve_bytes == 0) return false;
  // Grow the heap by `reserve_bytes` now, in one step, so that the growth can be advised: glibc
  // pads a growth of its heap's top by M_TOP_PAD, and the block freed again stays as free top.
  // Only address space until touched.
  constexpr size_t kPadLimit = static_cast<size_t>(std::numeric_limits<int>::max());
  const size_t pad = reserve_bytes < kPadLimit ? reserve_bytes : kPadLimit;
  char* const before = static_cast<char*>(::sbrk(0));
  ::mallopt(M_TOP_PAD, static_cast<int>(pad));
  // Larger than the free top (keepcost), so that the heap has to grow; volatile: a malloc freed
  // at once is otherwise left out by the optimiser.
  void* volatile block = std::malloc(::mallinfo2().keepcost + (size_t{1} << 20));
  std::free(block);
  ::mallopt(M_TOP_PAD, 128 << 10);  // glibc's default for later growth
  char* const after = static_cast<char*>(::sbrk(0));
  if (before == reinterpret_cast<char*>(-1) || after <= before) return false;
  const size_t grown = static_cast<size_t>(after - before);
  const bool advised = AdviseHugePages(before, grown);
  if (advised && options.prefault_begin_bytes < options.prefault_end_bytes) {
    const auto start = reinterpret_cast<uintptr_t>(before);
    PrefaultInBackground(start + std::min(options.prefault_begin_bytes, grown),
                         start + std::min(options.prefault_end_bytes, grown));
  }
  return advised;
#else
  (void)options;
  return false;
#endif
}

}  // namespace animconv
