#include "animconv/quaternion.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "libconvert/parallel.h"

namespace animconv {

Vec3 Rotate(const Quat& q, const Vec3& v) {
  const Quat rotated = Multiply(Multiply(q, {v[0], v[1], v[2], 0}), Conjugate(q));
  return {rotated[0], rotated[1], rotated[2]};
}

SlerpArc ArcBetween(const Quat& a, const Quat& b) {
  SlerpArc arc;
  double cosine = Dot(a, b);
  arc.sign = cosine < 0 ? -1.0 : 1.0;
  cosine *= arc.sign;
  // Near-parallel keys: sin(theta) vanishes, so use the normalised lerp, whose error there is far
  // below float precision.
  if (cosine < 1 - 1e-9) {
    arc.theta = std::acos(std::min(cosine, 1.0));
    arc.sine = std::sin(arc.theta);
  }
  return arc;
}

Quat SlerpAlong(const SlerpArc& arc, const Quat& a, const Quat& b, double alpha) {
  if (alpha <= 0) return a;
  if (alpha >= 1) return b;
  double weight_a = 1 - alpha;
  double weight_b = alpha;
  if (arc.sine != 0) {
    weight_a = std::sin((1 - alpha) * arc.theta) / arc.sine;
    weight_b = std::sin(alpha * arc.theta) / arc.sine;
  }
  weight_b *= arc.sign;
  return Normalized({weight_a * a[0] + weight_b * b[0], weight_a * a[1] + weight_b * b[1],
                     weight_a * a[2] + weight_b * b[2], weight_a * a[3] + weight_b * b[3]});
}

Quat SlerpShortest(const Quat& a, const Quat& b, double alpha) {
  if (alpha <= 0) return a;
  if (alpha >= 1) return b;
  return SlerpAlong(ArcBetween(a, b), a, b, alpha);
}

namespace {

// |a − b|² and |a + b|² on the short path (b negated when a·b < 0): a quarter of the rotation
// angle between a and b is atan2(|a − b|, |a + b|).
void ShortPathParts(const Quat& a, const Quat& b, double* difference, double* sum) {
  const double sign = Dot(a, b) < 0 ? -1.0 : 1.0;
  *difference = 0;
  *sum = 0;
  for (size_t i = 0; i < 4; ++i) {
    *difference += (a[i] - sign * b[i]) * (a[i] - sign * b[i]);
    *sum += (a[i] + sign * b[i]) * (a[i] + sign * b[i]);
  }
}

}  // namespace

double AngleBetween(const Quat& a, const Quat& b) {
  // 4·atan2(|a − b|, |a + b|) on the short path (a quarter of the rotation angle is half the
  // angle between the 4-vectors): exact for small angles, where acos(dot) loses
  // half the digits (a float32 rounding of 1e-7 would read as 4e-4 rad).
  double difference = 0;
  double sum = 0;
  ShortPathParts(a, b, &difference, &sum);
  return 4 * std::atan2(std::sqrt(difference), std::sqrt(sum));
}

AngleLimit::AngleLimit(double radians) : radians_(radians) {
  constexpr double kPi = 3.14159265358979323846;
  if (radians >= 0 && radians < kPi) {
    const double tangent = std::tan(radians / 4);
    tan_squared_ = tangent * tangent;
  }
}

bool AngleLimit::ExceededBy(const Quat& a, const Quat& b) const {
  double difference = 0;
  double sum = 0;
  ShortPathParts(a, b, &difference, &sum);
  // atan2(√d, √s) > r/4 ⇔ d > s·tan²(r/4) for angles in [0, π/4]. The sides are a few roundings
  // (each ~1e-16 relative) from that exact comparison, so a margin of 1e-9 decides it the same way
  // AngleBetween would; closer than that, AngleBetween's own arithmetic decides.
  if (tan_squared_ >= 0) {
    const double bound = sum * tan_squared_;
    if (difference < bound * (1 - 1e-9)) return false;
    if (difference > bound * (1 + 1e-9)) return true;
  }
  return 4 * std::atan2(std::sqrt(difference), std::sqrt(sum)) > radians_;
}

size_t NormalizeRotationKeys(Channel& channel) {
  size_t changed = 0;
  // A key whose bits are its previous key's (a bone held still: most keys of a sampled clip's
  // quiet bones) takes that key's result instead of a square root and four divisions again.
  double previous_input[4];
  double previous_output[4];
  bool have_previous = false;
  bool previous_changed = false;
  for (size_t k = 0; k < channel.key_count(); ++k) {
    double* value = channel.key_value(k);
    if (have_previous && std::memcmp(value, previous_input, sizeof previous_input) == 0) {
      if (previous_changed) {
        std::memcpy(value, previous_output, sizeof previous_output);
        ++changed;
      }
      continue;
    }
    std::memcpy(previous_input, value, sizeof previous_input);
    have_previous = true;
    const Quat q = LoadQuat(value);
    // Already unit to double precision: leave the bits alone so text round trips stay exact.
    const double length = Length(q);
    previous_changed = length > 0 && std::fabs(length - 1) > 1e-12;
    if (previous_changed) {
      StoreQuat(Normalized(q), value);
      std::memcpy(previous_output, value, sizeof previous_output);
      ++changed;
    }
  }
  return changed;
}

size_t AlignHemispheres(Channel& channel) {
  if (channel.interpolation == Interpolation::kCubicSpline) return 0;
  size_t flipped = 0;
  for (size_t k = 1; k < channel.key_count(); ++k) {
    const Quat previous = LoadQuat(channel.key_value(k - 1));
    const Quat current = LoadQuat(channel.key_value(k));
    if (Dot(previous, current) < 0) {
      StoreQuat(Negated(current), channel.key_value(k));
      ++flipped;
    }
  }
  return flipped;
}

RotationNormalization NormalizeRotations(Asset& asset) {
  std::atomic<size_t> renormalized{0}, flipped{0};
  ForEachChannel(asset.clips, [&](size_t, size_t, Channel& channel) {
    if (channel.path != Path::kRotation) return;
    renormalized += NormalizeRotationKeys(channel);
    flipped += AlignHemispheres(channel);
  });
  return {renormalized.load(), flipped.load()};
}

}  // namespace animconv
