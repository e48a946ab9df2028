#include "formats/bvh/bvh_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace animconv {
namespace {

// The tolerance of the key-grid test: the one `info` uses for "keys/s" (summary.h).
constexpr double kGridSeconds = 1e-6;
// The written Frame Time may drift from the keys' grid by this much at the last frame (1 ns: far
// below float32 key times' own resolution past 1 s).
constexpr double kFrameTimeDriftSeconds = 1e-9;

bool AllKeysOnGrid(const std::vector<const Channel*>& channels, double interval) {
  for (const Channel* channel : channels) {
    for (const double t : channel->times_seconds) {
      if (std::fabs(t - std::round(t / interval) * interval) > kGridSeconds) return false;
    }
  }
  return true;
}

// The grid's interval: the smallest key gap, refined by the last key's frame number so that
// float32 key times (whose gaps wobble by 1e-7 s) still give k·interval within 1e-6 s of every key.
double GridInterval(double smallest_gap, double last_key) {
  const double last_frame = std::round(last_key / smallest_gap);
  return last_frame > 0 ? last_key / last_frame : smallest_gap;
}

bool OnOneGrid(const std::vector<const Channel*>& channels, double smallest_gap, double last_key) {
  return AllKeysOnGrid(channels, GridInterval(smallest_gap, last_key));
}

// The shortest decimal text whose value stays within kFrameTimeDriftSeconds of `interval` over
// `frames` frames (0.008333 stays 0.008333 rather than 0.008333000000000001).
std::string ShortestInterval(double interval, size_t frames, double* value) {
  for (int digits = 1; digits <= 17; ++digits) {
    std::string text = fmt::format("{:.{}g}", interval, digits);
    const double parsed = std::strtod(text.c_str(), nullptr);
    if (parsed > 0 &&
        std::fabs(parsed - interval) * static_cast<double>(std::max<size_t>(frames, 1)) <=
            kFrameTimeDriftSeconds) {
      *value = parsed;
      return text;
    }
  }
  *value = interval;
  return fmt::format("{}", interval);
}

}  // namespace

BvhFrames ChooseBvhFrames(const Clip& clip, const std::vector<const Channel*>& channels,
                          std::optional<double> requested) {
  BvhFrames frames;
  double smallest_gap = 0;
  double last_key = 0;
  for (const Channel* channel : channels) {
    const std::vector<double>& times = channel->times_seconds;
    if (!times.empty()) last_key = std::max(last_key, times.back());
    for (size_t k = 1; k < times.size(); ++k) {
      const double gap = times[k] - times[k - 1];
      if (smallest_gap == 0 || gap < smallest_gap) smallest_gap = gap;
    }
  }
  const double duration = std::max(clip.duration(), last_key);
  double interval = 0;
  if (requested) {
    interval = *requested;
  } else if (smallest_gap == 0) {
    interval = 1 / kBvhPoseFps;
    frames.on_key_grid = duration == 0;
  } else if (smallest_gap > kGridSeconds && OnOneGrid(channels, smallest_gap, last_key)) {
    interval = GridInterval(smallest_gap, last_key);
    frames.on_key_grid = true;
  } else {
    interval = 1 / std::clamp(std::round(1 / smallest_gap), kBvhMinDefaultFps, kBvhMaxDefaultFps);
  }
  const double spans = std::ceil(duration / interval - kGridSeconds / interval);
  // Clamped before the cast; the writer refuses counts anywhere near this (kMaxValues).
  frames.count = static_cast<size_t>(std::clamp(spans, 0.0, 1e15)) + 1;
  frames.interval_text = ShortestInterval(interval, frames.count, &frames.interval_seconds);
  return frames;
}

}  // namespace animconv
