#include "animconv/resample.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "libconvert/value_error.h"

namespace animconv {
namespace {

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;
// Points inside each chord where it is compared with the curve (ChordError, resample.h).
constexpr int kCheckPoints = 15;
// A chord is never shorter than its segment / 2^12 (AppendChordTimes): at 30 fps a piece of
// 8 microseconds, far below any real curve's need, and a bound on a hostile one's cost.
constexpr int kMaxDepth = 12;
// Halvings a whole channel may spend beyond its grid (BakeCubicSplines): 64 per segment on
// average, and 4096 for any channel. A curve the tolerance cannot follow (a fuzzed tangent of
// 1e30) then ends in bounded time, and the report says the error reached.
constexpr size_t kSplitsPerSegment = 64;
constexpr size_t kMinSplits = 4096;

std::vector<double> GridTimes(const Channel& channel, std::optional<double> interval_seconds) {
  if (!interval_seconds) return channel.times_seconds;
  const double first = channel.times_seconds.front();
  const double last = channel.times_seconds.back();
  std::vector<double> times;
  for (size_t i = 0;; ++i) {
    const double seconds = first + static_cast<double>(i) * *interval_seconds;
    // Stop short of the last key by a sliver so it is not followed by a near-duplicate.
    if (seconds >= last - *interval_seconds * 1e-6) break;
    times.push_back(seconds);
  }
  times.push_back(last);
  return times;
}

std::vector<double> At(const Channel& channel, double seconds) {
  std::vector<double> value(static_cast<size_t>(channel.width));
  EvaluateChannel(channel, seconds, value.data());
  return value;
}

double Split(const Channel& channel, double t0, double t1, double target, int depth, size_t* budget,
             std::vector<double>* times) {
  const double error = ChordError(channel, t0, t1);
  if (error > target && depth < kMaxDepth && (!budget || *budget > 0)) {
    if (budget) --*budget;
    const double middle = t0 + (t1 - t0) / 2;
    // Two statements: the first half's times must be appended first.
    const double first = Split(channel, t0, middle, target, depth + 1, budget, times);
    return std::max(first, Split(channel, middle, t1, target, depth + 1, budget, times));
  }
  times->push_back(t1);
  return error;
}

}  // namespace

double ToleranceOf(const ReduceOptions& tolerances, Path path) {
  switch (path) {
    case Path::kRotation:
      return tolerances.rotation_degrees * kRadiansPerDegree;
    case Path::kTranslation:
      return tolerances.translation_metres;
    case Path::kScale:
      return tolerances.scale_ratio;
    case Path::kWeights:
      return tolerances.weight;
  }
  return 0;
}

double ChordError(const Channel& channel, double t0, double t1) {
  const std::vector<double> v0 = At(channel, t0);
  const std::vector<double> v1 = At(channel, t1);
  std::vector<double> chord(v0.size());
  double error = 0;
  for (int i = 1; i <= kCheckPoints; ++i) {
    const double alpha = static_cast<double>(i) / (kCheckPoints + 1);
    if (channel.path == Path::kRotation) {
      StoreQuat(SlerpShortest(LoadQuat(v0.data()), LoadQuat(v1.data()), alpha), chord.data());
    } else {
      for (size_t c = 0; c < v0.size(); ++c) chord[c] = v0[c] + (v1[c] - v0[c]) * alpha;
    }
    const std::vector<double> curve = At(channel, t0 + (t1 - t0) * alpha);
    error = std::max(
        error, ValueError(channel.path, curve.data(), curve.size(), chord.data(), chord.size()));
  }
  return error;
}

double AppendChordTimes(const Channel& channel, double t0, double t1, double target,
                        std::vector<double>* times, size_t* budget) {
  return Split(channel, t0, t1, target, 0, budget, times);
}

Channel BakeCubicChannel(const Channel& channel, const std::vector<double>& grid, double tolerance,
                         double* max_error) {
  Channel linear;
  linear.node = channel.node;
  linear.path = channel.path;
  linear.width = channel.width;
  linear.interpolation = Interpolation::kLinear;
  linear.times_seconds.push_back(grid.front());
  double error = 0;
  size_t budget = std::max(kMinSplits, kSplitsPerSegment * (grid.size() - 1));
  for (size_t k = 1; k < grid.size(); ++k) {
    error = std::max(error, AppendChordTimes(channel, grid[k - 1], grid[k], tolerance / 2,
                                             &linear.times_seconds, &budget));
  }
  linear.values.resize(linear.key_count() * static_cast<size_t>(channel.width));
  for (size_t k = 0; k < linear.key_count(); ++k) {
    EvaluateChannel(channel, linear.times_seconds[k], linear.key_value(k));
  }
  if (max_error) *max_error = error;
  return linear;
}

double PlaybackError(const Channel& original, const Channel& played) {
  const std::vector<double>& keys = original.times_seconds;
  std::vector<double> a(static_cast<size_t>(original.width));
  std::vector<double> b(static_cast<size_t>(played.width));
  double error = 0;
  const auto measure = [&](double seconds) {
    EvaluateChannel(original, seconds, a.data());
    EvaluateChannel(played, seconds, b.data());
    error = std::max(error, ValueError(original.path, a.data(), a.size(), b.data(), b.size()));
  };
  size_t next_key = 0;
  for (size_t k = 0; k + 1 < played.key_count(); ++k) {
    const double t0 = played.times_seconds[k];
    const double t1 = played.times_seconds[k + 1];
    while (next_key < keys.size() && keys[next_key] <= t0) ++next_key;
    for (; next_key < keys.size() && keys[next_key] < t1; ++next_key) measure(keys[next_key]);
    for (int i = 1; i <= kCheckPoints; ++i) {
      measure(t0 + (t1 - t0) * static_cast<double>(i) / (kCheckPoints + 1));
    }
  }
  return error;
}

CubicBakeReport BakeCubicSplines(Asset& asset, std::optional<double> interval_seconds,
                                 const ReduceOptions& tolerances) {
  CubicBakeReport report;
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      if (channel.interpolation != Interpolation::kCubicSpline) continue;
      const size_t path = static_cast<size_t>(channel.path);
      const double tolerance = ToleranceOf(tolerances, channel.path);
      double max_error = 0;
      Channel linear =
          BakeCubicChannel(channel, GridTimes(channel, interval_seconds), tolerance, &max_error);
      ++report.channels;
      report.cubic_keys += channel.key_count();
      report.linear_keys += linear.key_count();
      report.has_path[path] = true;
      report.tolerance[path] = tolerance;
      if (report.worst_node[path] < 0 || max_error > report.max_error[path]) {
        report.max_error[path] = max_error;
        report.worst_node[path] = channel.node;
      }
      channel = std::move(linear);
    }
  }
  return report;
}

double ErrorInPrintedUnit(Path path, double error) {
  return path == Path::kRotation ? error / kRadiansPerDegree : error;
}

const char* PrintedUnit(Path path) {
  switch (path) {
    case Path::kTranslation:
      return "m";
    case Path::kRotation:
      return "deg";
    case Path::kScale:
      return "ratio";
    case Path::kWeights:
      return "weight";
  }
  return "";
}

std::string DescribeCubicBake(const CubicBakeReport& report, const Rig& rig) {
  std::vector<std::string> errors;
  for (size_t path = 0; path < 4; ++path) {
    if (!report.has_path[path]) continue;
    const Path p = static_cast<Path>(path);
    std::string error =
        fmt::format("{:.2g} {} (tolerance {:g})", ErrorInPrintedUnit(p, report.max_error[path]),
                    PrintedUnit(p), ErrorInPrintedUnit(p, report.tolerance[path]));
    // Over the tolerance only where the halving budget ran out (a curve no sane key count
    // follows): name the channel, so the user knows which motion is off.
    const int node = report.worst_node[path];
    if (report.max_error[path] > report.tolerance[path] && node >= 0 &&
        static_cast<size_t>(node) < rig.nodes.size()) {
      error += fmt::format(", over it on {}.{}", rig.nodes[static_cast<size_t>(node)].name,
                           PathName(static_cast<Path>(path)));
    }
    errors.push_back(std::move(error));
  }
  return fmt::format("{} cubic-spline channel(s) ({} keys) baked to {} linear keys; max error {}",
                     report.channels, report.cubic_keys, report.linear_keys,
                     fmt::join(errors, ", "));
}

}  // namespace animconv
