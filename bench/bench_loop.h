// The timing loop every benchmark case shares.
#pragma once

#include <benchmark/benchmark.h>

#include <exception>

namespace animconv::bench {

// Runs `body` once per iteration; a library error ends the benchmark with its message.
template <typename Body>
void Loop(benchmark::State& state, Body body) {
  try {
    for (auto _ : state) body();
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace animconv::bench
