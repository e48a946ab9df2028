// Every float32 bit pattern formatted by FormatShortestWithoutCharconv (what FormatShortest uses
// for floats, libconvert/text.h) against std::to_chars: the same text, byte for byte. A long check
// run by hand (about 4 CPU-minutes; docs/testing.md), not in CI: TextTest samples 200,000 values.
// Prints the first mismatches and exits 1 when there is any.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "libconvert/text.h"

namespace {

std::atomic<uint64_t> g_mismatches{0};

void CheckRange(uint64_t begin, uint64_t end) {
  char ours[64];
  char theirs[64];
  for (uint64_t bits = begin; bits < end; ++bits) {
    const auto pattern = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &pattern, sizeof value);
    const size_t length = animconv::FormatShortestWithoutCharconv(value, ours);
    const auto expected =
        static_cast<size_t>(std::to_chars(theirs, theirs + 64, value).ptr - theirs);
    if (length != expected || std::memcmp(ours, theirs, length) != 0) {
      if (g_mismatches++ < 10) {
        std::printf("0x%08x: %.*s, to_chars %.*s\n", pattern, static_cast<int>(length), ours,
                    static_cast<int>(expected), theirs);
      }
    }
  }
}

}  // namespace

int main() {
  constexpr uint64_t kPatterns = uint64_t{1} << 32;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back(CheckRange, kPatterns * t / threads, kPatterns * (t + 1) / threads);
  }
  for (std::thread& worker : workers) worker.join();
  std::printf("%llu float32 patterns, %llu formatted differently from std::to_chars\n",
              static_cast<unsigned long long>(kPatterns),
              static_cast<unsigned long long>(g_mismatches.load()));
  return g_mismatches.load() == 0 ? 0 : 1;
}
