#include "animconv/sample.h"

#include <algorithm>

#include "animconv/quaternion.h"

namespace animconv {
namespace {

void EvaluateCubic(const Channel& channel, size_t key, double seconds, double* out) {
  const size_t width = static_cast<size_t>(channel.width);
  const double t0 = channel.times_seconds[key];
  const double t_delta = channel.times_seconds[key + 1] - t0;
  const double s = (seconds - t0) / t_delta;
  const double s2 = s * s;
  const double s3 = s2 * s;
  const double* value0 = channel.values.data() + (3 * key + 1) * width;
  const double* out_tangent0 = channel.values.data() + (3 * key + 2) * width;
  const double* in_tangent1 = channel.values.data() + (3 * (key + 1)) * width;
  const double* value1 = channel.values.data() + (3 * (key + 1) + 1) * width;
  for (size_t i = 0; i < width; ++i) {
    out[i] = (2 * s3 - 3 * s2 + 1) * value0[i] + t_delta * (s3 - 2 * s2 + s) * out_tangent0[i] +
             (-2 * s3 + 3 * s2) * value1[i] + t_delta * (s3 - s2) * in_tangent1[i];
  }
  if (channel.path == Path::kRotation) {
    // three.js's GLTFCubicSplineQuaternionInterpolant normalises the result, and
    // Quaternion.normalize() makes a zero quaternion the identity: a curve through 0 plays the
    // rest rotation there, not a rotation of no length (which diff dropped as NaN).
    const Quat q = LoadQuat(out);
    StoreQuat(Length(q) > 0 ? Normalized(q) : Quat{0, 0, 0, 1}, out);
  }
}

// The channel at `seconds`, where `next` is the first key strictly after it (the segment is
// [next - 1, next]). A linear rotation's arc between its keys comes from `arc` when it holds
// that segment's (arc_key), and is kept there when `arc` is given.
void EvaluateInSegment(const Channel& channel, double seconds, size_t next, size_t* arc_key,
                       SlerpArc* arc, double* out) {
  const auto& times = channel.times_seconds;
  const size_t width = static_cast<size_t>(channel.width);
  if (next == 0 || next == times.size() || channel.interpolation == Interpolation::kStep ||
      times[next - 1] == seconds) {
    const size_t key = next == 0 ? 0 : next - 1;
    std::copy_n(channel.key_value(key), width, out);
    return;
  }
  const size_t key = next - 1;
  if (channel.interpolation == Interpolation::kCubicSpline) {
    EvaluateCubic(channel, key, seconds, out);
    return;
  }
  const double alpha = (seconds - times[key]) / (times[next] - times[key]);
  const double* a = channel.key_value(key);
  const double* b = channel.key_value(next);
  if (channel.path == Path::kRotation) {
    const Quat qa = LoadQuat(a);
    const Quat qb = LoadQuat(b);
    if (arc == nullptr) {
      StoreQuat(SlerpShortest(qa, qb, alpha), out);
      return;
    }
    if (*arc_key != key) {
      *arc = ArcBetween(qa, qb);
      *arc_key = key;
    }
    StoreQuat(SlerpAlong(*arc, qa, qb, alpha), out);
    return;
  }
  for (size_t i = 0; i < width; ++i) out[i] = a[i] + (b[i] - a[i]) * alpha;
}

}  // namespace

void EvaluateChannel(const Channel& channel, double seconds, double* out) {
  const auto& times = channel.times_seconds;
  const size_t next =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) - times.begin());
  EvaluateInSegment(channel, seconds, next, nullptr, nullptr, out);
}

void EvaluateChannelBefore(const Channel& channel, double seconds, double* out) {
  const auto& times = channel.times_seconds;
  const size_t next =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) - times.begin());
  if (channel.interpolation == Interpolation::kStep && next >= 2 && times[next - 1] == seconds) {
    std::copy_n(channel.key_value(next - 2), static_cast<size_t>(channel.width), out);
    return;
  }
  EvaluateInSegment(channel, seconds, next, nullptr, nullptr, out);
}

void ChannelCursor::Evaluate(const Channel& channel, double seconds, double* out) {
  const auto& times = channel.times_seconds;
  const size_t count = times.size();
  // Whether `next` is the first key strictly after `seconds` (what upper_bound finds).
  const auto first_after = [&](size_t next) {
    return next <= count && (next == 0 || times[next - 1] <= seconds) &&
           (next == count || times[next] > seconds);
  };
  if (!first_after(next_)) {
    if (first_after(next_ + 1)) {
      ++next_;
    } else {
      next_ = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) -
                                  times.begin());
    }
  }
  EvaluateInSegment(channel, seconds, next_, &arc_key_, &arc_, out);
}

}  // namespace animconv
