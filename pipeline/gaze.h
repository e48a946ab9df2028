// The gaze a VRM lookAt holds, as three-vrm reads it (VRMLookAtQuaternionProxy: the lookAt
// rotation as three.js Euler order YXZ, yaw about Y and pitch about X, in degrees), and a
// rotation channel that follows a rotation given as a function of time. Shared by
// lookat_from_eyes.h (eyes -> lookAt) and lookat_on_model.h (lookAt -> a model's eyes).
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// How far a channel from FollowRotation may leave the rotation it follows halfway between keys.
constexpr double kGazeToleranceRadians = 1e-5;

// {yaw, pitch, roll} of `rotation` in degrees: R = Ry(yaw) · Rx(pitch) · Rz(roll), pitch in
// [-90, 90] (three.js Euler.setFromQuaternion, order YXZ).
std::array<double, 3> YawPitchRollDegrees(const Quat& rotation);
// Ry(yaw) · Rx(pitch), angles in degrees.
Quat YawPitchRotation(double yaw_degrees, double pitch_degrees);

// VRMLookAtRangeMap.map: output_scale · saturate(input / input_max), degrees in, degrees (or a
// weight) out.
double MapRange(const VrmLookAt::RangeMap& map, double input_degrees);

// The yaw and pitch (degrees) three-vrm's VRMLookAtBoneApplier.applyYawPitch turns the left (else
// the right) eye by for the gaze (yaw_degrees, pitch_degrees), through `maps`' range maps: a
// positive yaw turns the left eye outward; a negative pitch (which turns the eye up) goes through
// the *down* map, as three-vrm 3.5 does (docs/formats/vrma.md, "lookAt on a model").
std::array<double, 2> EyeAnglesForGaze(const VrmLookAt& maps, bool left, double yaw_degrees,
                                       double pitch_degrees);
// The eye's turn Ry(eye yaw) · Rx(eye pitch) for the gaze: through `maps` (EyeAnglesForGaze), or
// 1:1 when `maps` is null (a rig without a lookAt of its own; lookat_from_eyes.h writes so).
Quat EyeTurnForGaze(const VrmLookAt* maps, bool left, double yaw_degrees, double pitch_degrees);
// Its inverse: the gaze for which EyeAnglesForGaze gives the eye (eye_yaw_degrees,
// eye_pitch_degrees). An angle past what its map reaches (its output scale) takes the map's input
// maximum, where the eye stops on the model, and sets `*beyond`.
std::array<double, 2> GazeForEyeAngles(const VrmLookAt& maps, bool left, double eye_yaw_degrees,
                                       double eye_pitch_degrees, bool* beyond);

// Halfway keys between two keys: adds to `times` (and `values`, when given) the points in (t0, t1)
// where `too_far(v0, v1, exact_middle)` says linear interpolation from v0 to v1 leaves `exact`
// halfway, halving again up to `max_depth` times. One mechanism for the lookAt's rotations
// (FollowRotation) and the look expressions' weights (lookat_on_model.cpp).
template <typename Value, typename Exact, typename TooFar>
void AddHalfwayKeys(double t0, const Value& v0, double t1, const Value& v1, int max_depth,
                    const Exact& exact, const TooFar& too_far, std::vector<double>& times,
                    std::vector<Value>* values) {
  const double middle = 0.5 * (t0 + t1);
  if (max_depth <= 0 || !(middle > t0 && middle < t1)) return;
  const Value value = exact(middle);
  if (!too_far(v0, v1, value)) return;
  AddHalfwayKeys(t0, v0, middle, value, max_depth - 1, exact, too_far, times, values);
  times.push_back(middle);
  if (values) values->push_back(value);
  AddHalfwayKeys(middle, value, t1, v1, max_depth - 1, exact, too_far, times, values);
}

// A rotation channel (width 4) keyed at `key_times` (sorted, unique) with `exact`'s value; linear
// unless `step`. Between two linear keys, where the slerp halfway leaves `exact` by more than
// kGazeToleranceRadians, a key is added there, halving again up to 12 times. `added_keys` grows
// by the keys added. The channel's node is left -1.
Channel FollowRotation(const std::vector<double>& key_times, bool step,
                       const std::function<Quat(double seconds)>& exact, size_t* added_keys);

}  // namespace animconv
