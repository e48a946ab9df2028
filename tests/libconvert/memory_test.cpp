#include "libconvert/memory.h"

#include <gtest/gtest.h>
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
        LargeJobHeapOptions heap;
        heap.reserve_bytes = size_t{512} << 20;
        if (!PrepareHeapForLargeJob(heap)) std::_Exit(2);
        char* const heap_end = static_cast<char*>(::sbrk(0));
        // 64 MiB: glibc would map a block this large on its own (its default threshold is
        // 128 KiB, 32 MiB at most), outside the heap and without huge pages.
        void* volatile block = std::malloc(size_t{64} << 20);
        if (block == nullptr || static_cast<char*>(block) >= heap_end) std::_Exit(3);
        if (SmapsLineAt(static_cast<char*>(block) + (size_t{32} << 20), "VmFlags:").find(" hg") ==
            std::string::npos) {
          std::_Exit(4);  // the heap's growth was not advised for huge pages
        }
        void* const first = block;
        std::free(block);
        void* volatile again = std::malloc(size_t{64} << 20);
        // Freed memory stayed in the heap and is handed out again (not unmapped and faulted in).
        std::_Exit(again == first ? 0 : 5);
      },
      ::testing::ExitedWithCode(0), "");
}

// The mapping's resident KiB ("Rss:" of smaps).
size_t ResidentKibAt(const void* address) {
  const std::string line = SmapsLineAt(address, "Rss:");
  return line.empty() ? 0 : std::strtoull(line.c_str() + 4, nullptr, 10);
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
        // The advised mapping ~160 MiB resident: the block's 64 and the rest of the range,
        // faulted in by the thread.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (ResidentKibAt(block + block_bytes / 2) < (size_t{150} << 10)) {
          if (std::chrono::steady_clock::now() > deadline) std::_Exit(4);
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        for (size_t i = 0; i < block_bytes; ++i) {
          if (block[i] != 'x') std::_Exit(5);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "");
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
