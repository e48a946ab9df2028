#include "pipeline/gaze.h"

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
