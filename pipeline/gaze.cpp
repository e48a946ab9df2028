#include "pipeline/gaze.h"

#include <algorithm>

#include "animconv/euler.h"
#include "animconv/quaternion.h"

namespace animconv {
namespace {

// three.js Euler order 'YXZ' (VRMLookAt.EULER_ORDER): R = Ry · Rx · Rz.
const EulerOrder kYawPitchRoll{{1, 0, 2}};
constexpr double kDegrees = 180.0 / 3.14159265358979323846;
constexpr int kMaxBisections = 12;

}  // namespace

std::array<double, 3> YawPitchRollDegrees(const Quat& rotation) {
  const std::array<double, 3> radians =
      EulerFromQuat(kYawPitchRoll, Normalized(rotation), std::nullopt);
  return {radians[0] * kDegrees, radians[1] * kDegrees, radians[2] * kDegrees};
}

Quat YawPitchRotation(double yaw_degrees, double pitch_degrees) {
  return QuatFromEuler(kYawPitchRoll, {yaw_degrees / kDegrees, pitch_degrees / kDegrees, 0});
}

double MapRange(const VrmLookAt::RangeMap& map, double input_degrees) {
  return map.output_scale * std::clamp(input_degrees / map.input_max_degrees, 0.0, 1.0);
}

namespace {

// The maps of the left (else right) eye for a yaw toward -Y and toward +Y.
struct YawMaps {
  const VrmLookAt::RangeMap& toward_minus;
  const VrmLookAt::RangeMap& toward_plus;
};
YawMaps YawMapsOf(const VrmLookAt& maps, bool left) {
  return left ? YawMaps{maps.horizontal_inner, maps.horizontal_outer}
              : YawMaps{maps.horizontal_outer, maps.horizontal_inner};
}

// The input >= 0 for which MapRange gives `output` >= 0; past the map's reach, its input maximum.
double UnmapRange(const VrmLookAt::RangeMap& map, double output, bool* beyond) {
  if (output <= 0) return 0;
  if (!(map.output_scale > 0)) {  // the map turns the eye by nothing: no gaze gives this turn
    *beyond = true;
    return 0;
  }
  // Within a float32 step of the reach counts as at it (the eyes were written as float32).
  if (output > map.output_scale * (1 + 1e-6)) *beyond = true;
  return std::min(output / map.output_scale, 1.0) * map.input_max_degrees;
}

}  // namespace

std::array<double, 2> EyeAnglesForGaze(const VrmLookAt& maps, bool left, double yaw_degrees,
                                       double pitch_degrees) {
  const YawMaps yaw_maps = YawMapsOf(maps, left);
  const double eye_yaw = yaw_degrees < 0 ? -MapRange(yaw_maps.toward_minus, -yaw_degrees)
                                         : MapRange(yaw_maps.toward_plus, yaw_degrees);
  const double eye_pitch = pitch_degrees < 0 ? -MapRange(maps.vertical_down, -pitch_degrees)
                                             : MapRange(maps.vertical_up, pitch_degrees);
  return {eye_yaw, eye_pitch};
}

Quat EyeTurnForGaze(const VrmLookAt* maps, bool left, double yaw_degrees, double pitch_degrees) {
  if (!maps) return YawPitchRotation(yaw_degrees, pitch_degrees);
  const std::array<double, 2> eye = EyeAnglesForGaze(*maps, left, yaw_degrees, pitch_degrees);
  return YawPitchRotation(eye[0], eye[1]);
}

std::array<double, 2> GazeForEyeAngles(const VrmLookAt& maps, bool left, double eye_yaw_degrees,
                                       double eye_pitch_degrees, bool* beyond) {
  const YawMaps yaw_maps = YawMapsOf(maps, left);
  const double yaw = eye_yaw_degrees < 0
                         ? -UnmapRange(yaw_maps.toward_minus, -eye_yaw_degrees, beyond)
                         : UnmapRange(yaw_maps.toward_plus, eye_yaw_degrees, beyond);
  const double pitch = eye_pitch_degrees < 0
                           ? -UnmapRange(maps.vertical_down, -eye_pitch_degrees, beyond)
                           : UnmapRange(maps.vertical_up, eye_pitch_degrees, beyond);
  return {yaw, pitch};
}

Channel FollowRotation(const std::vector<double>& key_times, bool step,
                       const std::function<Quat(double seconds)>& exact, size_t* added_keys) {
  Channel channel;
  channel.path = Path::kRotation;
  channel.width = 4;
  channel.interpolation = step ? Interpolation::kStep : Interpolation::kLinear;
  std::vector<Quat> values;
  for (size_t k = 0; k < key_times.size(); ++k) {
    const Quat value = exact(key_times[k]);
    if (k > 0 && !step) {
      AddHalfwayKeys(
          key_times[k - 1], Quat(values.back()), key_times[k], value, kMaxBisections, exact,
          [](const Quat& q0, const Quat& q1, const Quat& middle) {
            return AngleBetween(SlerpShortest(q0, q1, 0.5), middle) > kGazeToleranceRadians;
          },
          channel.times_seconds, &values);
    }
    channel.times_seconds.push_back(key_times[k]);
    values.push_back(value);
  }
  *added_keys += channel.times_seconds.size() - key_times.size();
  channel.values.resize(values.size() * 4);
  for (size_t k = 0; k < values.size(); ++k) StoreQuat(values[k], channel.values.data() + 4 * k);
  AlignHemispheres(channel);
  return channel;
}

}  // namespace animconv
