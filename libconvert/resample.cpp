#include "animconv/resample.h"

#include <cmath>

#include "animconv/sample.h"

namespace animconv {
namespace {

std::vector<double> SampleTimes(const Channel& channel, std::optional<double> interval_seconds) {
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

}  // namespace

size_t BakeCubicSplines(Asset& asset, std::optional<double> interval_seconds) {
  size_t converted = 0;
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      if (channel.interpolation != Interpolation::kCubicSpline) continue;
      Channel linear;
      linear.node = channel.node;
      linear.path = channel.path;
      linear.width = channel.width;
      linear.interpolation = Interpolation::kLinear;
      linear.times_seconds = SampleTimes(channel, interval_seconds);
      linear.values.resize(linear.times_seconds.size() * static_cast<size_t>(channel.width));
      for (size_t k = 0; k < linear.times_seconds.size(); ++k) {
        EvaluateChannel(channel, linear.times_seconds[k], linear.key_value(k));
      }
      channel = std::move(linear);
      ++converted;
    }
  }
  return converted;
}

}  // namespace animconv
