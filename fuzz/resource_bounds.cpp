#include "resource_bounds.h"

#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string_view>

namespace {

std::atomic<size_t> live_bytes{0};
std::atomic<size_t> peak_bytes{0};

void* Allocate(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) throw std::bad_alloc();
  const size_t live = live_bytes += malloc_usable_size(p);
  size_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (live > peak && !peak_bytes.compare_exchange_weak(peak, live)) {
  }
  return p;
}

void Release(void* p) {
  if (!p) return;
  live_bytes -= malloc_usable_size(p);
  std::free(p);
}

// The process's CPU time, not the wall clock: the bound is about the work the code does, and on
// a shared machine the wall clock counts other processes too (measured: the 103-byte CSV that
// writes 7 MB, 1.3 s of work, took 3.1 s of wall time beside two other builds and failed its
// 2.4 s bound). libFuzzer's -timeout stays the wall-clock backstop for a hang.
double NowSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANIMCONV_FUZZ_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ANIMCONV_FUZZ_SANITIZED 1
#endif

// ASan + UBSan with libFuzzer's coverage run this code about 11 times slower than Release
// (measured: a 103-byte CSV writing 7 MB took 1.3 s in Release, 14.5 s in a libFuzzer run with
// two harnesses on two cores); 20 keeps the bound about the code, not the instrumentation.
#ifdef ANIMCONV_FUZZ_SANITIZED
constexpr double kSanitizerSlowdown = 20;
#else
constexpr double kSanitizerSlowdown = 1;
#endif
constexpr double kFixedSeconds = 1;
constexpr double kSecondsPerMiB = 0.2;
constexpr double kMiB = 1024.0 * 1024.0;
// Heap per input byte the reader may hold: 3, for every reader. The glTF readers were allowed 32
// until 2026-12-05 (an nlohmann::json tree holds up to 32 bytes per byte of text: CI's fixed-seed
// fuzz_gltf found 37,000 `{}` in a 112 KB .gltf at 29 bytes per byte,
// fuzz/regressions/gltf/empty_objects_37k_syntax_error.gltf); since then no member of a glTF
// document is a tree larger than one element of a list, or than what the reader reads
// (docs/reliability.md "Time and memory bounds"). The .gltf harness kept 6 for a day: what looked
// like 5 bytes per byte of base64 data: URI text was each packed list reserving 64 KiB at its first
// element, a fixed cost the 100 KB corpus files showed as a rate (PackedJsonArray, 2026-12-05).
constexpr size_t kHeapPerInputByte = 3;
// Input-independent heap a run may take: the format table, fmt and iostream buffers, the first
// use of a static table. Measured under 64 KiB on the seeds; 1 MiB leaves room for the libraries.
constexpr size_t kFixedHeapBytes = 1 << 20;
// A rig node costs the model sizeof(Node) (352 bytes with GCC 12) whatever its text, and a format
// can name one in 3 bytes (`{}` in glTF's `nodes`, a hierarchy entry): twice that while a writer
// renders its copy of the asset (RenderAsset takes the asset by value), and a writer's tree of it
// (the glTF writer's node objects, ~130 bytes). Measured 0.86 KiB per node at the peak of a
// 128 KiB .gltf of 43,600 `{}` nodes; bounded by the node limit (100,000 by default,
// docs/reliability.md "Limits") whatever the file's size.
constexpr size_t kHeapPerNode = 1024;

}  // namespace

// Counted replacements of the global allocation functions ([new.delete], replaceable).
void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t) noexcept { Release(p); }
void operator delete[](void* p, size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }

namespace animconv::fuzz {

size_t LiveHeapBytes() { return live_bytes.load(); }

InputBudget::InputBudget(size_t input_bytes)
    : input_bytes_(input_bytes), live_at_start_(live_bytes.load()), start_seconds_(NowSeconds()) {
  peak_bytes = live_at_start_;
}

void InputBudget::SetNodes(size_t nodes) { nodes_ = nodes; }

void InputBudget::AddOutput(size_t output_bytes) {
  largest_output_bytes_ = std::max(largest_output_bytes_, output_bytes);
  total_output_bytes_ += output_bytes;
}

double InputBudget::TimeLimitSeconds() const {
  return kSanitizerSlowdown *
         (kFixedSeconds +
          static_cast<double>(input_bytes_ + total_output_bytes_) / kMiB * kSecondsPerMiB);
}

size_t InputBudget::HeapLimitBytes() const {
  return kHeapPerInputByte * input_bytes_ + 3 * largest_output_bytes_ + kFixedHeapBytes +
         kHeapPerNode * nodes_;
}

void InputBudget::Check() const {
  const double seconds = NowSeconds() - start_seconds_;
  const size_t peak = peak_bytes.load();
  const size_t used = peak > live_at_start_ ? peak - live_at_start_ : 0;
  if (std::getenv("ANIMCONV_FUZZ_REPORT")) {
    std::fprintf(stderr,
                 "fuzz: input %zu B, largest output %zu B, %zu nodes, heap peak %zu B (%.2f of the "
                 "limit), %.4f s\n",
                 input_bytes_, largest_output_bytes_, nodes_, used,
                 static_cast<double>(used) / static_cast<double>(HeapLimitBytes()), seconds);
  }
  if (seconds > TimeLimitSeconds()) {
    std::fprintf(
        stderr, "fuzz: time bound: %.3f s for %zu input bytes and %zu output bytes, limit %.3f s\n",
        seconds, input_bytes_, total_output_bytes_, TimeLimitSeconds());
    std::abort();
  }
  if (used > HeapLimitBytes()) {
    std::fprintf(stderr,
                 "fuzz: memory bound: heap peak %zu bytes for %zu input bytes and a largest "
                 "output of %zu bytes, limit %zu (%zu x input + 3 x output + %zu + %zu nodes x "
                 "%zu)\n",
                 used, input_bytes_, largest_output_bytes_, HeapLimitBytes(), kHeapPerInputByte,
                 kFixedHeapBytes, nodes_, kHeapPerNode);
    std::abort();
  }
}

}  // namespace animconv::fuzz
