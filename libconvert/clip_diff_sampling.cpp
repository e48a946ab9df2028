// Where DiffClips samples two curves so that the largest error it reports is the largest a player
// shows (docs/cli.md, `diff`): every key, evenly spaced times between keys, a cubic spline's
// adaptive times, the left limit where a step channel jumps, and the peaks of two rotations that
// turn against each other between samples.
#include <algorithm>
#include <cmath>
#include <functional>

#include "animconv/resample.h"
#include "libconvert/clip_diff_internal.h"

namespace animconv::diff_detail {
namespace {

// The golden section search's steps around one peak: the bracket shrinks to 0.618^24 ≈ 1e-5 of
// its width, where a smooth peak's value is within 1e-10 of its own scale of the true one.
constexpr int kGoldenSteps = 24;
// Peaks lower than this fraction of the largest sample are not refined: between samples two
// slerps' angle exceeds the samples around it by a few percent (7 % for 171° arcs), so so low a
// peak does not rise to the largest.
constexpr double kPeakFraction = 0.5;
// How much a refined peak must rise above its sample to be one (RefinePeaks).
constexpr double kRoundingFraction = 1e-9;

}  // namespace

// The union of the key times, plus `between` evenly spaced times inside every consecutive pair:
// a reduced curve can be exact at every key and still wrong between them.
std::vector<double> SampleTimes(std::vector<double> times, int between) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const size_t keys = times.size();
  for (size_t k = 0; k + 1 < keys; ++k) {
    for (int i = 1; i <= between; ++i) {
      times.push_back(times[k] + (times[k + 1] - times[k]) * i / (between + 1));
    }
  }
  std::sort(times.begin(), times.end());
  return times;
}

// `times` plus, for every cubic-spline channel, the times that halve each interval between them
// until the channel's curve stays within `fraction` of its --reduce tolerance of its chord between
// consecutive samples (AppendChordTimes). Between two samples a linear or slerp side is its chord,
// so the error there is the error at the samples' ends to within that bound: keys and midpoints
// alone cannot see a cubic replaced by its chord, which agrees at every key. Adds the count of new
// times to `added`.
std::vector<double> AdaptiveTimes(std::vector<double> times,
                                  const std::vector<const Channel*>& channels, double fraction,
                                  size_t* added) {
  std::vector<double> extra;
  for (const Channel* channel : channels) {
    if (channel->interpolation != Interpolation::kCubicSpline || !(fraction > 0)) continue;
    const double target = fraction * ToleranceOf(ReduceOptions{}, channel->path);
    for (size_t k = 0; k + 1 < times.size(); ++k) {
      // Outside its keys the channel holds its end value.
      if (times[k + 1] <= channel->times_seconds.front() ||
          times[k] >= channel->times_seconds.back()) {
        continue;
      }
      AppendChordTimes(*channel, times[k], times[k + 1], target, &extra);
      extra.pop_back();  // times[k + 1] itself
    }
  }
  if (extra.empty()) return times;
  const size_t before = times.size();
  times.insert(times.end(), extra.begin(), extra.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  *added += times.size() - before;
  return times;
}

std::vector<double> JumpTimes(const std::vector<const Channel*>& channels) {
  std::vector<double> jumps;
  for (const Channel* channel : channels) {
    if (!channel || channel->interpolation != Interpolation::kStep) continue;
    jumps.insert(jumps.end(), channel->times_seconds.begin() + 1, channel->times_seconds.end());
  }
  std::sort(jumps.begin(), jumps.end());
  jumps.erase(std::unique(jumps.begin(), jumps.end()), jumps.end());
  return jumps;
}

bool IsJump(const std::vector<double>& jumps, double seconds) {
  return std::binary_search(jumps.begin(), jumps.end(), seconds);
}

void RefinePeaks(const std::function<double(double)>& error_at, size_t max_peaks,
                 std::vector<double>* times, std::vector<double>* errors, size_t* added) {
  const size_t count = times->size();
  if (count < 2 || max_peaks == 0) return;
  const double largest = *std::max_element(errors->begin(), errors->end());
  if (!(largest > 0)) return;
  // The samples no neighbour clearly exceeds, largest first, in steps of a billionth of the
  // largest and then in time order: on a flat error, which samples are peaks and which of them
  // come first must not hang on the last bits of the maths library (the WebAssembly build
  // refined another peak than the native one and counted one sample more on walk.csv,
  // web/test/parity.mjs).
  const auto clearly_above = [](double x, double y) { return x > y * (1 + kRoundingFraction); };
  const auto rank = [&](size_t sample) {
    return std::llround((*errors)[sample] / (largest * kRoundingFraction));
  };
  std::vector<size_t> peaks;
  for (size_t s = 0; s < count; ++s) {
    const double e = (*errors)[s];
    if (e < kPeakFraction * largest) continue;
    if ((s > 0 && clearly_above((*errors)[s - 1], e)) ||
        (s + 1 < count && clearly_above((*errors)[s + 1], e))) {
      continue;
    }
    peaks.push_back(s);
  }
  std::sort(peaks.begin(), peaks.end(), [&](size_t x, size_t y) {
    const long long rank_x = rank(x);
    const long long rank_y = rank(y);
    return rank_x != rank_y ? rank_x > rank_y : (*times)[x] < (*times)[y];
  });
  if (peaks.size() > max_peaks) peaks.resize(max_peaks);
  constexpr double kInverseGolden = 0.6180339887498949;
  for (const size_t s : peaks) {
    // The sample and its neighbours bracket a maximum at least as large as the sample; at an end
    // of the samples the values hold outside, so only the one side can rise.
    double lo = (*times)[s > 0 ? s - 1 : s];
    double hi = (*times)[s + 1 < count ? s + 1 : s];
    double x1 = hi - kInverseGolden * (hi - lo);
    double x2 = lo + kInverseGolden * (hi - lo);
    double f1 = error_at(x1);
    double f2 = error_at(x2);
    double best_time = (*times)[s];
    double best = (*errors)[s];
    const auto consider = [&](double t, double e) {
      if (e > best) {
        best = e;
        best_time = t;
      }
    };
    consider(x1, f1);
    consider(x2, f2);
    for (int step = 0; step < kGoldenSteps; ++step) {
      if (f1 >= f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - kInverseGolden * (hi - lo);
        f1 = error_at(x1);
        consider(x1, f1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + kInverseGolden * (hi - lo);
        f2 = error_at(x2);
        consider(x2, f2);
      }
    }
    // One sample per peak, the largest found, so the percentile is not drawn towards the peaks.
    // A rise within a billionth is rounding, not a peak: on a flat error it came and went with
    // the last bits of the maths library (the WebAssembly build counted one sample more than the
    // native one on walk.csv, web/test/parity.mjs).
    if (best > (*errors)[s] * (1 + kRoundingFraction)) {
      times->push_back(best_time);
      errors->push_back(best);
      ++*added;
    }
  }
}

}  // namespace animconv::diff_detail
