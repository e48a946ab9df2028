#pragma once

#include <cstddef>

namespace animconv {

struct LargeJobHeapOptions {
  // Address space the heap grows by at once, mapped with transparent huge pages (MADV_HUGEPAGE:
  // one fault per 2 MiB; only touched pages cost memory). 0: the heap is only set up to keep its
  // blocks.
  size_t reserve_bytes = 0;
  // The part [prefault_begin_bytes, prefault_end_bytes) is faulted in on a thread of its own
  // (MADV_POPULATE_WRITE, Linux 5.14; skipped where the kernel lacks it), while the job's thread
  // reads its input. Contents are never changed, so blocks already handed out in the range are
  // safe. Equal: none.
  //
  // The thread times each huge page it faults in (its own CPU time). On the VMs this was measured
  // on, a fresh huge page costs 0.17 ms when its memory was freed a moment ago and 4.5 ms when
  // the host has taken it back, which it does within seconds; the same 2 MiB in 4 KiB pages cost
  // 0.8 ms either way (docs/performance.md, "Huge pages only where they are cheap"). At the
  // second huge page that takes longer than `slow_huge_page_seconds`, the whole growth goes back
  // to 4 KiB pages (MADV_NOHUGEPAGE) for every fault from then on, the job's thread's included;
  // pages already faulted in stay as they are.
  size_t prefault_begin_bytes = 0;
  size_t prefault_end_bytes = 0;
  double slow_huge_page_seconds = 1e-3;
};

// Sets up the C library's heap for one large job in this process (docs/performance.md, "Huge
// pages for the whole heap"): every block, whatever its size and thread, comes from the one
// heap; freed blocks stay there to be reused rather than being returned and faulted in again
// (the 50 MB input read into memory becomes the output's text), and the heap's next
// `reserve_bytes` are mapped as the options above say. This is the one place that asks for huge
// pages: nothing else in the library does, since whether they pay is learnt here.
//
// Process-wide and for a program's owner only: `animconv`'s commands call it before starting any
// thread of their own (cli/input_options.cpp), the library never does (an embedder's allocator is
// its own). glibc only; elsewhere, or where the heap cannot grow, it does nothing. Returns
// whether huge pages were asked for. Only the heap's layout changes, never a result.
bool PrepareHeapForLargeJob(const LargeJobHeapOptions& options);

}  // namespace animconv
