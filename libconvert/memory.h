#pragma once

#include <cstddef>

namespace animconv {

// Asks for transparent huge pages on the 2 MiB-aligned part of [data, data + bytes), for a large
// buffer about to be filled front to back (a writer's output): one fault per 2 MiB instead of
// per 4 KiB. Only a hint: does nothing where the kernel lacks MADV_HUGEPAGE or THP is off.
// Returns whether the kernel took the advice (false too when no aligned 2 MiB fits).
bool AdviseHugePages(void* data, size_t bytes);

struct LargeJobHeapOptions {
  // Address space the heap grows by at once, mapped with transparent huge pages (only touched
  // pages cost memory). 0: the heap is only set up to keep its blocks.
  size_t reserve_bytes = 0;
  // The part [prefault_begin_bytes, prefault_end_bytes) of that growth, counted from its start, is
  // faulted in on a thread of its own (MADV_POPULATE_WRITE, Linux 5.14; skipped where the kernel
  // lacks it), while the job's thread reads its input into the first bytes. On these VMs the
  // first touch of memory the host has taken back costs microseconds a page, and right after
  // another large process most free memory is such: this puts that cost on the idle core
  // (docs/performance.md, "Less fresh memory, faulted in on the idle core"). Contents are never
  // changed, so blocks already handed out in the range are safe. Equal: none.
  size_t prefault_begin_bytes = 0;
  size_t prefault_end_bytes = 0;
};

// Sets up the C library's heap for one large job in this process (docs/performance.md, "Huge
// pages for the whole heap"): every block, whatever its size and thread, comes from the one
// heap; freed blocks stay there to be reused rather than being returned and faulted in again
// (the 50 MB input read into memory becomes the output's text), and the heap's next
// `reserve_bytes` are mapped with transparent huge pages, one fault per 2 MiB. On a VM each 4 KiB
// fault of fresh memory was most of a large conversion's time.
//
// Process-wide and for a program's owner only: `animconv`'s commands call it before starting any
// thread of their own (cli/input_options.cpp), the library never does (an embedder's allocator is
// its own). glibc only; elsewhere, or where the heap cannot grow, it does nothing. Returns
// whether huge pages were asked for. Only the heap's layout changes, never a result.
bool PrepareHeapForLargeJob(const LargeJobHeapOptions& options);

}  // namespace animconv
