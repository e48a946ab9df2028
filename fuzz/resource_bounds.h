// The time and memory bounds of docs/reliability.md ("Time and memory bounds"), checked by the
// harnesses on every input: a slow or greedy input is a finding like a crash. libFuzzer's own
// -timeout and -rss_limit_mb (scripts/fuzz.sh) stay as backstops for hangs and for memory this
// accounting cannot see (C allocations inside third-party code).
#pragma once

#include <cstddef>

namespace animconv::fuzz {

// Heap bytes held through operator new right now (every C++ allocation of the process: ours,
// the standard library's, nlohmann's, Assimp's).
size_t LiveHeapBytes();

// One input's budget, from the moment it is made: CPU time (the process's, not the wall clock) ≤ 1
// s + N MiB × 0.2 s (ten times the Unity CSV path's ~0.02 s per MiB, docs/performance.md), N the
// input's and every output's bytes (a writer's time is linear in what it writes, and a 103-byte CSV
// spanning 10,000 s rightly writes megabytes of Unity CSV rows), times kSanitizerSlowdown (20) in a
// sanitizer build; the peak of heap bytes held beyond those held at the start ≤ 3 × (input +
// largest output) + kFixedHeapBytes + kHeapPerNode per node of the rig read (or made before a
// refusal: fuzz_reader.cpp). Check() aborts with the figures when either is exceeded.
class InputBudget {
 public:
  explicit InputBudget(size_t input_bytes);
  void AddOutput(size_t output_bytes);  // each output rendered from the input
  void SetNodes(size_t nodes);          // the rig the reader made (kHeapPerNode each)
  void Check() const;

  double TimeLimitSeconds() const;
  size_t HeapLimitBytes() const;

 private:
  size_t input_bytes_;
  size_t largest_output_bytes_ = 0;
  size_t total_output_bytes_ = 0;
  size_t nodes_ = 0;
  size_t live_at_start_;
  double start_seconds_;
};

}  // namespace animconv::fuzz
