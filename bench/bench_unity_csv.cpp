// Throughput of the Unity CSV path on a ~50 MB synthetic file (bench/synthetic_unity_csv.h):
//   BM_ImportUnityCsv       ReadUnityCsv from memory
//   BM_CsvToThreeJson       the CLI's in-memory steps: ReadUnityCsv + ValidateAsset + RenderAsset
//                           (= ConvertHandedness(right, mirror z) + NormalizeRotations +
//                           WriteThreeJson), no file access
//   BM_RenderThreeJson      RenderAsset alone, on a copy (untimed) of an asset read once
//   BM_CsvToThreeJsonFiles  ConvertFile: read a file, convert, write atomically (fsync + rename)
// Bytes per second are always of the CSV input, so the figures compare directly.
// The same binary runs the glTF cases of bench_gltf.cpp.
// Results and how to run: docs/performance.md.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>

#include "animconv/convert.h"
#include "animconv/format.h"
#include "animconv/io.h"
#include "animconv/model.h"
#include "bench/bench_gltf.h"
#include "bench/bench_loop.h"
#include "bench/synthetic_unity_csv.h"
#include "formats/csv/unity_csv.h"

namespace {

using animconv::bench::Loop;

// 36,900 rows at 1/120 s: 307.5 s of motion, 50,018,322 bytes of CSV (printed in the context).
constexpr size_t kRows = 36900;
constexpr double kInterval = 1.0 / 120.0;

const std::string& InputCsv() {
  static const std::string csv = animconv::bench::SyntheticUnityCsv(kRows, kInterval);
  return csv;
}

animconv::ReadOptions MakeReadOptions() {
  animconv::ReadOptions options;
  options.source = "walk120.csv";
  options.row_interval_seconds = kInterval;
  return options;
}

void SetInputBytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(InputCsv().size()) * state.iterations());
}

void BM_ImportUnityCsv(benchmark::State& state) {
  const std::string& csv = InputCsv();
  const animconv::ReadOptions options = MakeReadOptions();
  Loop(state, [&] {
    animconv::Asset asset = animconv::ReadUnityCsv(csv, options);
    benchmark::DoNotOptimize(asset);
    benchmark::ClobberMemory();
  });
  SetInputBytes(state);
}

const animconv::Format& ThreeFormat() {
  const animconv::Format* format = animconv::FindFormat("three");
  if (format == nullptr) std::abort();
  return *format;
}

animconv::ConvertOptions MakeConvertOptions() {
  animconv::ConvertOptions options;  // mirror z: the CLI default
  options.read = MakeReadOptions();
  return options;
}

void BM_CsvToThreeJson(benchmark::State& state) {
  const std::string& csv = InputCsv();
  const animconv::ConvertOptions options = MakeConvertOptions();
  const animconv::Format& three = ThreeFormat();
  size_t output_bytes = 0;
  Loop(state, [&] {
    animconv::Asset asset = animconv::ReadUnityCsv(csv, options.read);
    animconv::ValidateAsset(asset, options.read.source);
    const std::string json = animconv::RenderAsset(std::move(asset), three, options);
    output_bytes = json.size();
    benchmark::DoNotOptimize(json.data());
    benchmark::ClobberMemory();
  });
  SetInputBytes(state);
  state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
}

void BM_RenderThreeJson(benchmark::State& state) {
  const animconv::ConvertOptions options = MakeConvertOptions();
  const animconv::Asset asset = animconv::ReadUnityCsv(InputCsv(), options.read);
  const animconv::Format& three = ThreeFormat();
  size_t output_bytes = 0;
  Loop(state, [&] {
    // RenderAsset takes the asset by value. The copy is not timed: filling ~75 MB of fresh pages
    // took 160-270 ms on the reference VM (docs/performance.md), and the CLI moves the asset.
    state.PauseTiming();
    animconv::Asset copy = asset;
    state.ResumeTiming();
    const std::string json = animconv::RenderAsset(std::move(copy), three, options);
    output_bytes = json.size();
    benchmark::DoNotOptimize(json.data());
    benchmark::ClobberMemory();
  });
  SetInputBytes(state);
  state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
}

void BM_CsvToThreeJsonFiles(benchmark::State& state) {
  char folder_template[] = "/tmp/animconv-bench-XXXXXX";
  const char* folder = ::mkdtemp(folder_template);
  if (!folder) {
    state.SkipWithError("cannot create a temporary folder in /tmp");
    return;
  }
  const std::string input = std::string(folder) + "/walk120.csv";
  const std::string output = std::string(folder) + "/walk120.json";
  const animconv::ConvertOptions options = MakeConvertOptions();
  size_t output_bytes = 0;
  try {
    animconv::WriteFileAtomic(input, InputCsv());
    for (auto _ : state) {
      const animconv::ConvertReport report = animconv::ConvertFile(input, output, options);
      output_bytes = report.output_bytes;
      if (report.input_format == nullptr || report.input_format->id != "unity-csv") {
        state.SkipWithError("the input was not read as unity-csv");
        break;
      }
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
  std::remove(output.c_str());
  std::remove(input.c_str());
  ::rmdir(folder);
  SetInputBytes(state);
  state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
}

BENCHMARK(BM_ImportUnityCsv)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_CsvToThreeJson)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_RenderThreeJson)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_CsvToThreeJsonFiles)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::string& csv = InputCsv();  // built once, before any timing
  benchmark::AddCustomContext("input", std::to_string(kRows) + " rows at 1/120 s, " +
                                           std::to_string(csv.size()) + " bytes (" +
                                           std::to_string(csv.size() / 1000000) + " MB)");
  animconv::bench::RegisterGltfBenchmarks();  // bench_gltf.cpp: reads its inputs now
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
