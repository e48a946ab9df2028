// Throughput of the glTF paths, per input file:
//   BM_GltfToThreeJson/<file>  the CLI's in-memory steps for `animconv convert IN -o OUT.json
//                              --three-array`: read (.gltf or .glb) + ValidateAsset +
//                              RenderAsset(three); every clip of the file, no file access.
//                              Bytes per second are of the glTF input.
//   BM_BakeP5Frames/<file>     BakeP5Frames (`animconv bake` without --fps: one frame per key of
//                              the first weights channel) on an asset read once. Reports frames/s
//                              vertex_frames/s (vertices x frames) and output_MB/s (JSON
//                              written).
// Inputs: the largest glTF samples in ${ANIMCONV_SHARED_DATA} (registered only when present), and
// the synthetic morph cube (bench/synthetic_morph_gltf.h) at its largest size, built in memory.
// Results and how to run: docs/performance.md.
#include "bench/bench_gltf.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <utility>

#include "animconv/bake.h"
#include "animconv/convert.h"
#include "animconv/format.h"
#include "animconv/io.h"
#include "animconv/model.h"
#include "bench/bench_loop.h"
#include "bench/synthetic_morph_gltf.h"

namespace {

using animconv::bench::Loop;

// The largest morph and skeletal glTF samples of ../shared/data (MANIFEST.md there).
struct SharedInput {
  const char* path;  // relative to ANIMCONV_SHARED_DATA_DIR
  bool bake;         // has a morph weights animation for `bake`
};
constexpr SharedInput kSharedInputs[] = {
    {"morph/khronos_MorphStressTest_embedded.gltf", true},  // 765 KB, base64 buffer
    {"morph/threejs_RobotExpressive.glb", true},            // 464 KB, 14 clips, 1 morph
    {"morph/threejs_facecap_meshopt.glb", true},            // 333 KB, meshopt, 52 targets
    {"skeletal/khronos_Fox.glb", false},                    // 163 KB, 3 skeletal clips
};

// The generator's largest cube: 6 x 104^2 = 64,896 vertices, the most a uint16 index reaches.
constexpr int kSyntheticSegments = 103;

// The inputs are small: run each case for at least this long (a bake takes up to about a second
// per iteration on the loaded reference VM), so every figure averages several iterations.
constexpr double kMinSeconds = 2.0;

struct Input {
  std::string name;  // as passed to the reader for format detection and messages
  std::string bytes;
};

animconv::Asset Read(const Input& input) {
  animconv::ReadOptions options;
  options.source = input.name;
  return animconv::DetectInputFormat(input.name, input.bytes, "").read(input.bytes, options);
}

void BM_GltfToThreeJson(benchmark::State& state, const Input& input) {
  const animconv::Format* three = animconv::FindFormat("three");
  animconv::ConvertOptions options;
  options.write.three_array = true;  // every clip, as the files hold several
  size_t output_bytes = 0;
  Loop(state, [&] {
    animconv::Asset asset = Read(input);
    animconv::ValidateAsset(asset, input.name);
    const std::string json = animconv::RenderAsset(std::move(asset), *three, options);
    output_bytes = json.size();
    benchmark::DoNotOptimize(json.data());
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(static_cast<int64_t>(input.bytes.size()) * state.iterations());
  state.counters["input_MB"] = static_cast<double>(input.bytes.size()) / 1e6;
  state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
}

void BM_BakeP5Frames(benchmark::State& state, const Input& input) {
  animconv::P5BakeReport report;
  size_t output_bytes = 0;
  try {
    const animconv::Asset asset = Read(input);
    Loop(state, [&] {
      const std::string json = animconv::BakeP5Frames(asset, {}, input.name, &report);
      output_bytes = json.size();
      benchmark::DoNotOptimize(json.data());
      benchmark::ClobberMemory();
    });
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const auto frames = static_cast<double>(report.frames);
  const auto vertex_frames = static_cast<double>(report.vertices) * frames;
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["frames"] = frames;
  state.counters["vertices"] = static_cast<double>(report.vertices);
  state.counters["frames/s"] = benchmark::Counter(frames * iterations, benchmark::Counter::kIsRate);
  state.counters["vertex_frames/s"] =
      benchmark::Counter(vertex_frames * iterations, benchmark::Counter::kIsRate);
  state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
  state.counters["output_MB/s"] = benchmark::Counter(
      static_cast<double>(output_bytes) / 1e6 * iterations, benchmark::Counter::kIsRate);
}

// Registers the benchmarks for `input`; the registered lambdas own copies of it.
void Register(Input input, bool bake) {
  const std::string name = input.name;
  benchmark::RegisterBenchmark(
      ("BM_GltfToThreeJson/" + name).c_str(),
      [input](benchmark::State& state) { BM_GltfToThreeJson(state, input); })
      ->Unit(benchmark::kMillisecond)
      ->MinTime(kMinSeconds)
      ->UseRealTime();
  if (bake) {
    benchmark::RegisterBenchmark(
        ("BM_BakeP5Frames/" + name).c_str(),
        [input](benchmark::State& state) { BM_BakeP5Frames(state, input); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(kMinSeconds)
        ->UseRealTime();
  }
}

}  // namespace

namespace animconv::bench {

void RegisterGltfBenchmarks() {
  const std::filesystem::path shared = ANIMCONV_SHARED_DATA_DIR;
  for (const SharedInput& shared_input : kSharedInputs) {
    const std::filesystem::path path = shared / shared_input.path;
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) continue;
    Register({path.filename().string(), animconv::ReadFile(path.string())}, shared_input.bake);
  }
  Register({"synthetic_morph_cube_" + std::to_string(kSyntheticSegments) + ".gltf",
            animconv::bench::SyntheticMorphCubeGltf(kSyntheticSegments)},
           true);
}

}  // namespace animconv::bench
