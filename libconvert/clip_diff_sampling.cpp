// Where DiffClips samples two curves so that the largest error it reports is the largest a player
// shows (docs/cli.md, `diff`): every key, evenly spaced times between keys, a cubic spline's
// adaptive times, and the left limit where a step channel jumps.
#include <algorithm>
#include <cmath>

#include "animconv/resample.h"
#include "libconvert/clip_diff_internal.h"

namespace animconv::diff_detail {

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

}  // namespace animconv::diff_detail
