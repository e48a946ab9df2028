#include "libconvert/memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace animconv {
namespace {

// The sanitizers bring an allocator of their own in place of glibc's heap (scripts/sanitize.sh),
// so there is no heap to prepare: PrepareHeapForLargeJob only sets options nobody reads.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kMallocReplaced = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kMallocReplaced = true;
#else
constexpr bool kMallocReplaced = false;
#endif
#else
constexpr bool kMallocReplaced = false;
#endif

// The VmFlags of the mapping that holds `address` (/proc/self/smaps), or "" if none does.
std::string VmFlagsAt(const void* address) {
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
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
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
        if (!PrepareHeapForLargeJob(size_t{512} << 20)) std::_Exit(2);
        char* const heap_end = static_cast<char*>(::sbrk(0));
        // 64 MiB: glibc would map a block this large on its own (its default threshold is
        // 128 KiB, 32 MiB at most), outside the heap and without huge pages.
        void* volatile block = std::malloc(size_t{64} << 20);
        if (block == nullptr || static_cast<char*>(block) >= heap_end) std::_Exit(3);
        if (VmFlagsAt(static_cast<char*>(block) + (size_t{32} << 20)).find(" hg") ==
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

TEST(MemoryTest, AHeapPreparedForNothingOnlyKeepsBlocksInTheHeap) {
  if (kMallocReplaced) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's heap";
  EXPECT_EXIT(
      {
        if (PrepareHeapForLargeJob(0)) std::_Exit(2);
        void* volatile block = std::malloc(size_t{40} << 20);
        std::_Exit(
            block != nullptr && static_cast<char*>(block) < static_cast<char*>(::sbrk(0)) ? 0 : 3);
      },
      ::testing::ExitedWithCode(0), "");
}
#endif

}  // namespace
}  // namespace animconv
