#include "libconvert/memory.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace animconv {
namespace {

using testing::kMallocReplaced;

// The line of `field` ("VmFlags:", "Rss:") of the mapping that holds `address`
// (/proc/self/smaps), or "" if none does.
std::string SmapsLineAt(const void* address, const std::string& field) {
  const auto wanted = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    // A mapping's first line starts "begin-end "; its field lines ("Size:", "VmFlags:") do not.
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " ", &begin, &end) == 2) {
      inside = begin <= wanted && wanted < end;
      continue;
    }
    if (inside && line.rfind(field, 0) == 0) return line;
  }
  return "";
}

#if defined(__GLIBC__) && defined(__linux__)
// PrepareHeapForLargeJob changes the allocator of the whole process, so each case runs in a child
// (a death test forks) and reports through its exit code.
TEST(MemoryTest, APreparedHeapServesLargeBlocksFromHugePagesAndKeepsThem) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(
      {
        char* const heap_start = static_cast<char*>(::sbrk(0));
        LargeJobHeapOptions heap;
        heap.reserve_bytes = size_t{512} << 20;
        if (!PrepareHeapForLargeJob(heap)) std::_Exit(2);
        char* const heap_end = static_cast<char*>(::sbrk(0));
        // 64 MiB: glibc would map a block this large on its own (its default threshold is
        // 128 KiB, 32 MiB at most), outside the heap and without huge pages.
        void* volatile block = std::malloc(size_t{64} << 20);
        if (block == nullptr || static_cast<char*>(block) >= heap_end) std::_Exit(3);
        // The heap's growth advised for huge pages (checked where no block of the heap before it
        // can be: a long-lived process's free top can hold the 64 MiB).
        if (SmapsLineAt(heap_start + (size_t{256} << 20), "VmFlags:").find(" hg") ==
            std::string::npos) {
          std::_Exit(4);
        }
        void* const first = block;
        std::free(block);
        void* volatile again = std::malloc(size_t{64} << 20);
        // Freed memory stayed in the heap and is handed out again (not unmapped and faulted in).
        std::_Exit(again == first ? 0 : 5);
      },
      ::testing::ExitedWithCode(0), "");
}

// How many bytes of [begin, end) are resident (mincore), whatever mappings the range was split
// into (the prefault thread can give part of it back to 4 KiB pages).
size_t ResidentBytesIn(const char* begin, const char* end) {
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~(page - 1);
  const size_t pages = (reinterpret_cast<uintptr_t>(end) - first + page - 1) / page;
  std::vector<unsigned char> resident(pages);
  if (::mincore(reinterpret_cast<void*>(first), pages * page, resident.data()) != 0) return 0;
  size_t count = 0;
  for (const unsigned char flags : resident) count += flags & 1;
  return count * page;
}

// Waits (up to 30 s) until `test` holds; false if it never did.
template <typename Test>
bool WaitFor(const Test& test) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!test()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// The prefault range is faulted in on a thread of its own, and a block handed out in it and
// written meanwhile keeps its bytes (MADV_POPULATE_WRITE never changes contents).
TEST(MemoryTest, APrefaultedRangeIsFaultedInWithoutChangingWhatIsWritten) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(
      {
        char* const heap_start = static_cast<char*>(::sbrk(0));
        LargeJobHeapOptions heap;
        heap.reserve_bytes = size_t{512} << 20;
        heap.prefault_begin_bytes = 0;
        heap.prefault_end_bytes = size_t{160} << 20;
        if (!PrepareHeapForLargeJob(heap)) std::_Exit(2);
        const size_t block_bytes = size_t{64} << 20;
        char* const block = static_cast<char*>(std::malloc(block_bytes));
        // In the range (from the free top below heap_start, which glibc hands out first).
        if (block == nullptr || block + block_bytes > heap_start + heap.prefault_end_bytes) {
          std::_Exit(3);
        }
        std::memset(block, 'x', block_bytes);
        // ~160 MiB of the range resident: the block's 64 and the rest, faulted in by the thread.
        if (!WaitFor([&] {
              return ResidentBytesIn(heap_start, heap_start + heap.prefault_end_bytes) >=
                     (size_t{150} << 20);
            })) {
          std::_Exit(4);
        }
        for (size_t i = 0; i < block_bytes; ++i) {
          if (block[i] != 'x') std::_Exit(5);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

// The prefault thread gives the heap's huge pages up at the second huge page slower than
// slow_huge_page_seconds (0 here: every one is), for every later fault; the threshold 1e9 keeps
// them. Exits 0 when the heap's mapping, near its start and far from it, has `expected_flag`.
int HugePagesAfterAPrefaultOf(double slow_huge_page_seconds, const char* expected_flag) {
  char* const heap_start = static_cast<char*>(::sbrk(0));
  LargeJobHeapOptions heap;
  heap.reserve_bytes = size_t{512} << 20;
  heap.prefault_begin_bytes = size_t{32} << 20;
  heap.prefault_end_bytes = size_t{128} << 20;
  heap.slow_huge_page_seconds = slow_huge_page_seconds;
  if (!PrepareHeapForLargeJob(heap)) return 2;
  if (!WaitFor([&] {
        return ResidentBytesIn(heap_start + (size_t{34} << 20), heap_start + (size_t{126} << 20)) ==
               size_t{92} << 20;
      })) {
    return 3;
  }
  for (const size_t offset : {size_t{8} << 20, size_t{400} << 20}) {
    const std::string flags = SmapsLineAt(heap_start + offset, "VmFlags:");
    if (flags.find(expected_flag) == std::string::npos) return 4;
  }
  return 0;
}

TEST(MemoryTest, HugePagesSlowerThanTheBoundAreGivenUpForTheRestOfTheHeap) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(std::_Exit(HugePagesAfterAPrefaultOf(0, " nh")), ::testing::ExitedWithCode(0), "");
}

TEST(MemoryTest, HugePagesWithinTheBoundAreKept) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(std::_Exit(HugePagesAfterAPrefaultOf(1e9, " hg")), ::testing::ExitedWithCode(0), "");
}

TEST(MemoryTest, AHeapPreparedForNothingOnlyKeepsBlocksInTheHeap) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(
      {
        if (PrepareHeapForLargeJob(LargeJobHeapOptions{})) std::_Exit(2);
        void* volatile block = std::malloc(size_t{40} << 20);
        std::_Exit(
            block != nullptr && static_cast<char*>(block) < static_cast<char*>(::sbrk(0)) ? 0 : 3);
      },
      ::testing::ExitedWithCode(0), "");
}
#endif

}  // namespace
}  // namespace animconv
