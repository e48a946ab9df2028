#include "libconvert/memory.h"

#include <sys/mman.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <thread>

namespace animconv {
namespace {

#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;  // x86-64's transparent huge page

uintptr_t HugePageUp(uintptr_t address) { return (address + kHugePage - 1) & ~(kHugePage - 1); }
uintptr_t HugePageDown(uintptr_t address) { return address & ~(kHugePage - 1); }

// Asks for (or, with MADV_NOHUGEPAGE, against) transparent huge pages on the 2 MiB-aligned part
// of [begin, end). Returns whether the kernel took the advice (false too when no page fits).
bool AdviseRange(uintptr_t begin, uintptr_t end, int advice) {
  begin = HugePageUp(begin);
  end = HugePageDown(end);
  return end > begin && ::madvise(reinterpret_cast<void*>(begin), end - begin, advice) == 0;
}

// What the prefault thread is given (LargeJobHeapOptions, in addresses).
struct PrefaultPlan {
  uintptr_t begin = 0, end = 0;                  // faulted in, one huge page at a time
  uintptr_t advised_begin = 0, advised_end = 0;  // the growth advised MADV_HUGEPAGE
  double slow_huge_page_seconds = 0;
};

#ifdef MADV_POPULATE_WRITE
// The calling thread's CPU time: a huge page's cost without the time the thread waited for a
// core (the job's other threads share the machine's two).
double ThreadCpuSeconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}
#endif

// Faults the plan's range in on a thread that is left to run: the job does not wait for it, and
// at exit it simply ends. Stops at the first refusal (a kernel without MADV_POPULATE_WRITE says
// EINVAL). One slow page can be chance (an interrupt, the page's own zeroing); the second means
// fresh huge pages cost more than small ones here, and the huge range goes back to 4 KiB pages
// for every later fault, on any thread (LargeJobHeapOptions).
void PrefaultInBackground(PrefaultPlan plan) {
#ifdef MADV_POPULATE_WRITE
  plan.begin = HugePageUp(plan.begin);
  plan.end = HugePageDown(plan.end);
  if (plan.end <= plan.begin) return;
  try {
    std::thread([plan] {
      int slow_pages = 0;
      for (uintptr_t page = plan.begin; page < plan.end; page += kHugePage) {
        const double before = ThreadCpuSeconds();
        if (::madvise(reinterpret_cast<void*>(page), kHugePage, MADV_POPULATE_WRITE) != 0) return;
        if (slow_pages < 2 && ThreadCpuSeconds() - before > plan.slow_huge_page_seconds &&
            ++slow_pages == 2) {
          AdviseRange(plan.advised_begin, plan.advised_end, MADV_NOHUGEPAGE);
        }
      }
    }).detach();
  } catch (const std::system_error&) {
    // No thread to be had: the job faults its pages in itself, as without this.
  }
#else
  (void)plan;
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
  const auto start = reinterpret_cast<uintptr_t>(before);
  PrefaultPlan plan;
  plan.advised_begin = start;
  plan.advised_end = start + grown;
  const bool advised = AdviseRange(plan.advised_begin, plan.advised_end, MADV_HUGEPAGE);
  if (advised && options.prefault_begin_bytes < options.prefault_end_bytes) {
    plan.begin = start + std::min(options.prefault_begin_bytes, grown);
    plan.end = start + std::min(options.prefault_end_bytes, grown);
    plan.slow_huge_page_seconds = options.slow_huge_page_seconds;
    PrefaultInBackground(plan);
  }
  return advised;
#else
  (void)options;
  return false;
#endif
}

}  // namespace animconv
