// animconv_time_reduce FILE [--runs N] [--rotation DEG] [--translation M] [--scale R] [--weight W]
// The key reducer alone, in process (issue 18 item 3: beside glTF Transform's `resample()` timed
// in its own process, bench/gltf-transform/resample.mjs). Reads FILE as `animconv convert` does
// (LoadAsset), then times Reduce (animconv/reduce.h, the defaults of `--reduce` unless given) on a
// fresh copy of the asset N times (default 5). Prints one JSON line: the first call's and the
// median call's milliseconds, and the keys before and after (what `convert --reduce` reports).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/reduce.h"

namespace {

constexpr const char* kUsage =
    "usage: animconv_time_reduce FILE [--runs N] [--rotation DEG] [--translation M] [--scale R] "
    "[--weight W]\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "animconv_time_reduce: %s\n%s", message.c_str(), kUsage);
  return 1;
}

// Reads a positive finite number from `text` into `value`; false when `text` is not one.
bool ParsePositive(const char* text, double* value) {
  char* end = nullptr;
  errno = 0;
  *value = std::strtod(text, &end);
  return errno == 0 && end != text && *end == '\0' && *value > 0 && std::isfinite(*value);
}

}  // namespace

int main(int argc, char** argv) {
  std::string input;
  double runs = 5;
  animconv::ReduceOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!input.empty()) return UsageError("one input file only");
      input = arg;
      continue;
    }
    if (i + 1 >= argc) return UsageError("missing value after " + arg);
    double* target = arg == "--runs"          ? &runs
                     : arg == "--rotation"    ? &options.rotation_degrees
                     : arg == "--translation" ? &options.translation_metres
                     : arg == "--scale"       ? &options.scale_ratio
                     : arg == "--weight"      ? &options.weight
                                              : nullptr;
    if (!target) return UsageError("unknown argument '" + arg + "'");
    if (!ParsePositive(argv[++i], target)) {
      return UsageError(arg + " must be a positive number, got '" + argv[i] + "'");
    }
  }
  if (input.empty() || runs != std::floor(runs) || runs > 1000) {
    return UsageError("an input file is required, and --runs must be a whole number up to 1000");
  }
  try {
    const animconv::Asset loaded = animconv::LoadAsset(input, animconv::ConvertOptions{}).asset;
    std::vector<double> milliseconds;
    animconv::ReduceReport report;
    for (int run = 0; run < static_cast<int>(runs); ++run) {
      animconv::Asset asset = loaded;  // copied outside the timed part
      const auto start = std::chrono::steady_clock::now();
      report = animconv::Reduce(asset, options);
      const auto end = std::chrono::steady_clock::now();
      milliseconds.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    const double first = milliseconds.front();
    std::sort(milliseconds.begin(), milliseconds.end());
    const size_t middle = milliseconds.size() / 2;
    const double median = milliseconds.size() % 2 != 0
                              ? milliseconds[middle]
                              : (milliseconds[middle - 1] + milliseconds[middle]) / 2;
    std::printf("%s\n", fmt::format("{{\"reduce_first_ms\":{:.3f},\"reduce_ms\":{:.3f},\"runs\":{},"
                                    "\"keys_before\":{},\"keys_after\":{}}}",
                                    first, median, milliseconds.size(), report.keys_before(),
                                    report.keys_after())
                            .c_str());
  } catch (const animconv::Error& error) {
    std::fprintf(stderr, "animconv_time_reduce: %s\n", error.what());
    return 2;
  }
  return 0;
}
