#include "animconv/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/resample.h"
#include "animconv/sample.h"

namespace animconv {
namespace {

std::string ChannelLabel(const Clip& clip, size_t channel) {
  return fmt::format("clip '{}', channel {}", clip.name, channel);
}

bool Positive(double value) { return std::isfinite(value) && value > 0; }

size_t KeyCount(const Asset& asset) {
  size_t keys = 0;
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) keys += channel.key_count();
  }
  return keys;
}

// Times must stay finite, >= 0 and strictly increasing (the model's invariants) after a shift or
// a scale: a huge factor or offset can collapse neighbouring keys or overflow.
void CheckTimes(const Clip& clip, const std::string& option) {
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    const std::vector<double>& times = clip.channels[c].times_seconds;
    for (size_t k = 0; k < times.size(); ++k) {
      if (!std::isfinite(times[k]) || times[k] < 0 || (k > 0 && times[k] <= times[k - 1])) {
        const char* problem = !std::isfinite(times[k]) ? "out of range"
                              : times[k] < 0           ? "before 0 (use --trim to cut the start)"
                                             : "not after the key before it (too close to keep)";
        ThrowUsage(fmt::format("{}: {} would have key {} at {} s, {}", option,
                               ChannelLabel(clip, c), k, times[k], problem));
      }
    }
  }
}

Channel EmptyLike(const Channel& channel, Interpolation interpolation) {
  Channel out;
  out.node = channel.node;
  out.path = channel.path;
  out.width = channel.width;
  out.interpolation = interpolation;
  return out;
}

// A non-cubic channel holding `channel`'s values at `times`.
Channel Sample(const Channel& channel, const std::vector<double>& times,
               Interpolation interpolation) {
  Channel out = EmptyLike(channel, interpolation);
  out.times_seconds = times;
  out.values.resize(times.size() * static_cast<size_t>(channel.width));
  for (size_t k = 0; k < times.size(); ++k) EvaluateChannel(channel, times[k], out.key_value(k));
  return out;
}

// Index of the key within kTimingMergeSeconds of `seconds`, if any.
std::optional<size_t> KeyNear(const Channel& channel, double seconds) {
  const auto& times = channel.times_seconds;
  const auto next = std::lower_bound(times.begin(), times.end(), seconds - kTimingMergeSeconds);
  if (next != times.end() && *next <= seconds + kTimingMergeSeconds) {
    return static_cast<size_t>(next - times.begin());
  }
  return std::nullopt;
}

// The three elements (in-tangent, value, out-tangent) of a new cubic key at `seconds`: the value
// EvaluateChannel gives and the curve's derivative there as both tangents, so the two halves of
// the split segment are the same cubic (for rotations, the same curve to first order after
// normalisation: the derivative of q/|q| is (q' - n (n . q')) / |q|).
void CubicKeyAt(const Channel& channel, double seconds, double* elements) {
  const size_t width = static_cast<size_t>(channel.width);
  double* in_tangent = elements;
  double* value = elements + width;
  double* out_tangent = elements + 2 * width;
  const auto& times = channel.times_seconds;
  EvaluateChannel(channel, seconds, value);
  if (seconds <= times.front() || seconds >= times.back()) {
    std::fill_n(in_tangent, width, 0.0);  // the curve holds outside its keys
    std::fill_n(out_tangent, width, 0.0);
    return;
  }
  const size_t key =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) - times.begin()) -
      1;
  const double t_delta = times[key + 1] - times[key];
  const double s = (seconds - times[key]) / t_delta;
  const double* value0 = channel.values.data() + (3 * key + 1) * width;
  const double* out0 = channel.values.data() + (3 * key + 2) * width;
  const double* in1 = channel.values.data() + (3 * (key + 1)) * width;
  const double* value1 = channel.values.data() + (3 * (key + 1) + 1) * width;
  std::vector<double> raw(width);
  for (size_t i = 0; i < width; ++i) {
    // d/dt of glTF 2.0 Appendix C (CUBICSPLINE)'s Hermite form: d/ds divided by t_delta.
    out_tangent[i] = (6 * s * s - 6 * s) * value0[i] / t_delta + (3 * s * s - 4 * s + 1) * out0[i] +
                     (-6 * s * s + 6 * s) * value1[i] / t_delta + (3 * s * s - 2 * s) * in1[i];
    raw[i] = (2 * s * s * s - 3 * s * s + 1) * value0[i] +
             t_delta * (s * s * s - 2 * s * s + s) * out0[i] +
             (-2 * s * s * s + 3 * s * s) * value1[i] + t_delta * (s * s * s - s * s) * in1[i];
  }
  if (channel.path == Path::kRotation) {
    const double length = Length(LoadQuat(raw.data()));
    if (length > 0) {
      double along = 0;
      for (size_t i = 0; i < width; ++i) along += value[i] * out_tangent[i];
      for (size_t i = 0; i < width; ++i)
        out_tangent[i] = (out_tangent[i] - value[i] * along) / length;
    }
  }
  std::copy_n(out_tangent, width, in_tangent);
}

// Appends key `key` of `channel` (all its elements) to `out` at time `new_seconds`.
void CopyKey(const Channel& channel, size_t key, double new_seconds, Channel& out) {
  const size_t element_values = channel.elements_per_key() * static_cast<size_t>(channel.width);
  const double* from = channel.values.data() + key * element_values;
  out.times_seconds.push_back(new_seconds);
  out.values.insert(out.values.end(), from, from + element_values);
}

// Appends the key of `channel` at `seconds` (its own key when one is that close, else a new one)
// to `out` at time `new_seconds`.
void AppendKeyAt(const Channel& channel, double seconds, double new_seconds, Channel& out) {
  if (const std::optional<size_t> key = KeyNear(channel, seconds)) {
    CopyKey(channel, *key, new_seconds, out);
    return;
  }
  const size_t at = out.values.size();
  out.values.resize(at + channel.elements_per_key() * static_cast<size_t>(channel.width));
  out.times_seconds.push_back(new_seconds);
  if (channel.interpolation == Interpolation::kCubicSpline) {
    CubicKeyAt(channel, seconds, out.values.data() + at);
  } else {
    EvaluateChannel(channel, seconds, out.values.data() + at);
  }
}

// The clip's grid k / fps between the channel's first and last key, both kept; grid points within
// the merge distance of a key take the key's time, so sampling at the original rate returns the
// keys bit for bit.
std::vector<double> GridTimes(const std::vector<double>& keys, double fps) {
  const double first = keys.front();
  const double last = keys.back();
  const double tolerance = std::min(kTimingMergeSeconds, 1e-3 / fps);
  std::vector<double> times{first};
  if (keys.size() == 1) return times;
  size_t key = 0;
  for (double k = std::ceil(first * fps);; ++k) {
    double seconds = k / fps;
    if (seconds >= last - tolerance) break;
    if (seconds <= first + tolerance) continue;
    while (key + 1 < keys.size() && keys[key + 1] <= seconds) ++key;
    if (seconds - keys[key] <= tolerance) {
      seconds = keys[key];
    } else if (key + 1 < keys.size() && keys[key + 1] - seconds <= tolerance) {
      seconds = keys[key + 1];
    }
    times.push_back(seconds);
  }
  times.push_back(last);
  return times;
}

// Bounds what sampling at `fps` allocates, before allocating.
void CheckSampleCount(const Clip& clip, double fps, const std::string& option) {
  double values = 0;
  for (const Channel& channel : clip.channels) {
    const double span = channel.times_seconds.back() - channel.times_seconds.front();
    values += (span * fps + 2 + static_cast<double>(channel.key_count())) * channel.width;
  }
  if (!(values <= kMaxTimingValues)) {
    ThrowUsage(fmt::format("{}: clip '{}' would need {:.3g} values, more than the limit of {:.0f}",
                           option, clip.name, values, kMaxTimingValues));
  }
}

bool SameValues(const double* a, const double* b, size_t width) {
  return std::equal(a, a + width, b);
}

}  // namespace

Channel StepToLinear(const Channel& channel) {
  const size_t width = static_cast<size_t>(channel.width);
  Channel out = EmptyLike(channel, Interpolation::kLinear);
  for (size_t k = 0; k < channel.key_count(); ++k) {
    const double seconds = channel.times_seconds[k];
    if (k > 0 && !SameValues(channel.key_value(k - 1), channel.key_value(k), width)) {
      const double hold = std::min(kStepHoldSeconds, (seconds - channel.times_seconds[k - 1]) / 2);
      out.times_seconds.push_back(seconds - hold);
      out.values.insert(out.values.end(), channel.key_value(k - 1),
                        channel.key_value(k - 1) + width);
    }
    out.times_seconds.push_back(seconds);
    out.values.insert(out.values.end(), channel.key_value(k), channel.key_value(k) + width);
  }
  return out;
}

namespace {

double Smoothstep(double s) { return s * s * (3 - 2 * s); }

void LoopChannel(Channel& channel, double clip_end, double blend_seconds) {
  const size_t width = static_cast<size_t>(channel.width);
  const double blend_start = clip_end - blend_seconds;
  // Keys at both ends of the blend window, so the curve before it stays as it was and the final
  // key sits at the clip's end. A key within the merge distance of the window start serves as it.
  std::vector<double> times;
  bool window_start_kept = blend_start <= channel.times_seconds.front() + kTimingMergeSeconds;
  for (double seconds : channel.times_seconds) {
    if (!window_start_kept && seconds >= blend_start - kTimingMergeSeconds) {
      if (seconds > blend_start + kTimingMergeSeconds) times.push_back(blend_start);
      window_start_kept = true;
    }
    times.push_back(seconds);
  }
  if (!window_start_kept) times.push_back(blend_start);
  if (times.back() < clip_end - kTimingMergeSeconds) times.push_back(clip_end);
  Channel looped = Sample(channel, times, channel.interpolation);
  const double* first = channel.key_value(0);
  const double* last = channel.key_value(channel.key_count() - 1);
  const bool rotation = channel.path == Path::kRotation;
  Quat delta{0, 0, 0, 1};
  if (rotation) {
    delta = Multiply(Normalized(LoadQuat(first)), Conjugate(Normalized(LoadQuat(last))));
    if (delta[3] < 0) delta = Negated(delta);  // the short way round
  }
  for (size_t k = 0; k < looped.key_count(); ++k) {
    const double seconds = looped.times_seconds[k];
    if (seconds <= blend_start) continue;
    const double weight = Smoothstep(std::min(1.0, (seconds - blend_start) / blend_seconds));
    double* value = looped.key_value(k);
    if (rotation) {
      const Quat partial = SlerpShortest({0, 0, 0, 1}, delta, weight);
      StoreQuat(Multiply(partial, Normalized(LoadQuat(value))), value);
    } else {
      for (size_t i = 0; i < width; ++i) value[i] += weight * (first[i] - last[i]);
    }
  }
  std::copy_n(first, width, looped.key_value(looped.key_count() - 1));
  channel = std::move(looped);
}

}  // namespace

void TrimClip(Clip& clip, const TrimRange& range) {
  const double duration = clip.duration();
  const double start = range.start_seconds;
  const double end = range.end_seconds.value_or(duration);
  const std::string option = range.end_seconds ? fmt::format("--trim {}:{}", start, end)
                                               : fmt::format("--trim {}:", start);
  if (!std::isfinite(start) || start < 0 || !std::isfinite(end) || end <= start) {
    ThrowUsage(option + ": START and END must be seconds with 0 <= START < END");
  }
  if (end > duration + kTimingMergeSeconds) {
    ThrowUsage(fmt::format("{}: clip '{}' is only {} s long", option, clip.name, duration));
  }
  for (Channel& channel : clip.channels) {
    const double first = channel.times_seconds.front();
    const double last = channel.times_seconds.back();
    if (channel.key_count() == 1 || start >= last - kTimingMergeSeconds ||
        end <= first + kTimingMergeSeconds) {
      // Constant over the window: one key (linear, as a cubic spline needs two).
      const size_t key = start >= last - kTimingMergeSeconds ? channel.key_count() - 1 : 0;
      Channel out = EmptyLike(channel, channel.interpolation == Interpolation::kCubicSpline
                                           ? Interpolation::kLinear
                                           : channel.interpolation);
      out.times_seconds = {0};
      out.values.assign(channel.key_value(key), channel.key_value(key) + channel.width);
      channel = std::move(out);
      continue;
    }
    // A cut outside the keys needs no key: the end values hold there already (and a held key
    // next to a cubic key would bend the curve with that key's tangent).
    Channel out = EmptyLike(channel, channel.interpolation);
    if (start > first - kTimingMergeSeconds) AppendKeyAt(channel, start, 0, out);
    for (size_t k = 0; k < channel.key_count(); ++k) {
      const double seconds = channel.times_seconds[k];
      if (seconds > start + kTimingMergeSeconds && seconds < end - kTimingMergeSeconds) {
        CopyKey(channel, k, seconds - start, out);
      }
    }
    if (end < last + kTimingMergeSeconds) AppendKeyAt(channel, end, end - start, out);
    if (out.interpolation == Interpolation::kCubicSpline) {
      // The spec's SHOULD: the first in-tangent and the last out-tangent are unused and zero.
      const size_t width = static_cast<size_t>(out.width);
      std::fill_n(out.values.begin(), width, 0.0);
      std::fill_n(out.values.end() - static_cast<std::ptrdiff_t>(width), width, 0.0);
    }
    channel = std::move(out);
  }
  clip.duration_seconds = end - start;
}

void ChangeSpeed(Clip& clip, double factor) {
  if (!Positive(factor)) ThrowUsage(fmt::format("--speed {}: must be a number above 0", factor));
  for (Channel& channel : clip.channels) {
    for (double& seconds : channel.times_seconds) seconds /= factor;
    if (channel.interpolation != Interpolation::kCubicSpline) continue;
    const size_t width = static_cast<size_t>(channel.width);
    for (size_t k = 0; k < channel.key_count(); ++k) {
      double* in_tangent = channel.values.data() + 3 * k * width;
      double* out_tangent = in_tangent + 2 * width;
      for (size_t i = 0; i < width; ++i) {
        in_tangent[i] *= factor;
        out_tangent[i] *= factor;
      }
    }
  }
  CheckTimes(clip, fmt::format("--speed {}", factor));
  if (clip.duration_seconds) *clip.duration_seconds /= factor;
}

void OffsetClip(Clip& clip, double seconds) {
  if (!std::isfinite(seconds)) ThrowUsage("--offset must be a finite number of seconds");
  for (Channel& channel : clip.channels) {
    for (double& time : channel.times_seconds) time += seconds;
  }
  CheckTimes(clip, fmt::format("--offset {}", seconds));
  if (clip.duration_seconds)
    *clip.duration_seconds = std::max(0.0, *clip.duration_seconds + seconds);
}

void PlaybackErrors::Add(Path path, int node, double error) {
  const size_t p = static_cast<size_t>(path);
  if (worst_node[p] < 0 || error > max[p]) {
    max[p] = error;
    worst_node[p] = node;
  }
}

void ResampleClip(Clip& clip, double fps, PlaybackErrors* errors) {
  if (!Positive(fps))
    ThrowUsage(fmt::format("--resample {}: must be frames per second above 0", fps));
  CheckSampleCount(clip, fps, fmt::format("--resample {}", fps));
  for (Channel& channel : clip.channels) {
    const bool step = channel.interpolation == Interpolation::kStep;
    Channel resampled = Sample(channel, GridTimes(channel.times_seconds, fps),
                               step ? Interpolation::kStep : Interpolation::kLinear);
    if (errors && !step) errors->Add(channel.path, channel.node, PlaybackError(channel, resampled));
    channel = std::move(resampled);
  }
}

void ConvertInterpolation(Clip& clip, Interpolation target) {
  if (target == Interpolation::kCubicSpline) {
    ThrowUsage("--interpolation must be linear or step");
  }
  const bool any_cubic = std::any_of(
      clip.channels.begin(), clip.channels.end(),
      [](const Channel& channel) { return channel.interpolation == Interpolation::kCubicSpline; });
  if (any_cubic) CheckSampleCount(clip, kCubicSampleFps, "--interpolation");
  for (Channel& channel : clip.channels) {
    if (channel.interpolation == target) continue;
    if (channel.interpolation == Interpolation::kCubicSpline && target == Interpolation::kLinear) {
      // As every writer without cubic splines bakes them: within the --reduce defaults of the
      // curve, not chords of a fixed grid that cut its bends (issue 13: 12.8° off on a spline).
      channel = BakeCubicChannel(channel, channel.times_seconds,
                                 ToleranceOf(ReduceOptions{}, channel.path), nullptr);
    } else if (channel.interpolation == Interpolation::kCubicSpline) {
      std::vector<double> grid = GridTimes(channel.times_seconds, kCubicSampleFps);
      std::vector<double> times;
      std::merge(grid.begin(), grid.end(), channel.times_seconds.begin(),
                 channel.times_seconds.end(), std::back_inserter(times));
      times.erase(std::unique(times.begin(), times.end()), times.end());
      channel = Sample(channel, times, target);
    } else if (target == Interpolation::kStep) {
      channel.interpolation = Interpolation::kStep;
    } else {
      channel = StepToLinear(channel);
    }
  }
  CheckTimes(clip, "--interpolation");
}

void LoopClip(Clip& clip, double blend_seconds) {
  if (!Positive(blend_seconds)) {
    ThrowUsage(fmt::format("--loop-blend {}: must be seconds above 0", blend_seconds));
  }
  const double clip_end = clip.duration();
  if (clip_end <= 0) return;  // a pose, not a motion: nothing to blend
  const double blend = std::min(blend_seconds, clip_end);
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    Channel& channel = clip.channels[c];
    if (channel.interpolation == Interpolation::kCubicSpline) {
      ThrowUsage(
          fmt::format("--loop cannot blend the cubic spline of {}: add --resample FPS or "
                      "--interpolation linear",
                      ChannelLabel(clip, c)));
    }
    if (channel.key_count() > 1) LoopChannel(channel, clip_end, blend);
  }
}

TimingReport ApplyTiming(Asset& asset, const TimingOptions& options) {
  TimingReport report;
  report.keys_before = KeyCount(asset);
  for (Clip& clip : asset.clips) {
    if (options.trim) TrimClip(clip, *options.trim);
    if (options.speed) ChangeSpeed(clip, *options.speed);
    if (options.offset_seconds) OffsetClip(clip, *options.offset_seconds);
    if (options.resample_fps) ResampleClip(clip, *options.resample_fps, &report.resample);
    if (options.interpolation) ConvertInterpolation(clip, *options.interpolation);
    if (options.loop) LoopClip(clip, options.loop->blend_seconds);
  }
  report.keys_after = KeyCount(asset);
  return report;
}

}  // namespace animconv
