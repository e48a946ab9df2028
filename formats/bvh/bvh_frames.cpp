#include "formats/bvh/bvh_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace animconv {
namespace {

// The tolerance of the key-grid test: the one `info` uses for "keys/s" (summary.h), widened for
// times far from 0 to what float32 times hold there. A glTF's keys are float32: past 16 s their
// spacing is 1.9e-6 s, and a 24 fps key at 62 s is up to 3.8e-6 s off k/24, so a fixed 1e-6 s
// found no grid and 24 fps clips longer than about 20 s were sampled at 30 fps (review 3:
// bevy_animations_node_trs.gltf 1.24 mm off, a 62 s clip 10.6 deg off). 2^-21 of the time is
// four float32 spacings of it: a key computed in float32 arithmetic (k * (1.0f / 24)) stays
// within that, and at 1000 s it is still 0.5 ms, a tenth of a 120 fps frame.
constexpr double kGridSeconds = 1e-6;
double GridTolerance(double seconds) { return std::max(kGridSeconds, seconds * 0x1p-21); }
// The written Frame Time may drift from the keys' grid by this much at the last frame (1 ns: far
// below float32 key times' own resolution past 1 s).
constexpr double kFrameTimeDriftSeconds = 1e-9;

bool AllKeysOnGrid(const std::vector<const Channel*>& channels, double interval) {
  for (const Channel* channel : channels) {
    for (const double t : channel->times_seconds) {
      if (std::fabs(t - std::round(t / interval) * interval) > GridTolerance(t)) return false;
    }
  }
  return true;
}

// The grid's interval: `step` (a key gap, or a whole fraction of one), refined by the last key's
// frame number so that float32 key times (whose gaps wobble by 1e-7 s) still give k·interval
// within the tolerance of every key.
double GridInterval(double step, double last_key) {
  const double last_frame = std::round(last_key / step);
  return last_frame > 0 ? last_key / last_frame : step;
}

// The coarsest grid from 0 that holds every key: the smallest key gap g, else g/2, g/3, ... (keys
// at a common rate with a gap of several frames: the Fox's "Run" keys are 24 fps with one jump
// of 24/120 s, all on a 120 fps grid) while the rate stays within kBvhMaxDefaultFps. g itself is
// taken at any rate, as before: keys 1 ms apart are written 1 ms apart.
std::optional<double> KeyGrid(const std::vector<const Channel*>& channels, double smallest_gap,
                              double last_key) {
  // The rate's bound with room for float32 gaps (5 / 0.04166665 s is 120.00004 fps).
  const double most_fps = kBvhMaxDefaultFps * (1 + 1e-4);
  for (int n = 1; n == 1 || static_cast<double>(n) / smallest_gap <= most_fps; ++n) {
    const double interval = GridInterval(smallest_gap / n, last_key);
    if (AllKeysOnGrid(channels, interval)) return interval;
  }
  return std::nullopt;
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

double FrameSampleSeconds(const Channel& channel, double seconds) {
  // A linear or cubic channel is sampled where the player shows the frame: a key a hair away
  // moves it by no more than its speed times that hair (moving a fast hand's frames 1e-6 s took
  // Fox's walk past 1e-5 m in BVHLoader). Only a step's jump is worth the hair.
  if (channel.interpolation != Interpolation::kStep) return seconds;
  const std::vector<double>& times = channel.times_seconds;
  const auto after = std::upper_bound(times.begin(), times.end(), seconds);
  return after != times.end() && *after - seconds <= GridTolerance(seconds) ? *after : seconds;
}

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
  if (smallest_gap > kGridSeconds) {
    frames.key_grid_seconds = KeyGrid(channels, smallest_gap, last_key);
  }
  double interval = 0;
  if (requested) {
    interval = *requested;
  } else if (smallest_gap == 0) {
    interval = 1 / kBvhPoseFps;
    frames.on_key_grid = duration == 0;
  } else if (frames.key_grid_seconds) {
    interval = *frames.key_grid_seconds;
    frames.on_key_grid = true;
  } else {
    interval = 1 / std::clamp(std::round(1 / smallest_gap), kBvhMinDefaultFps, kBvhMaxDefaultFps);
  }
  const double spans = std::ceil(duration / interval - GridTolerance(duration) / interval);
  // Clamped before the cast; the writer refuses counts anywhere near this (kMaxValues).
  frames.count = static_cast<size_t>(std::clamp(spans, 0.0, 1e15)) + 1;
  frames.interval_text = ShortestInterval(interval, frames.count, &frames.interval_seconds);
  return frames;
}

}  // namespace animconv
