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

// A rotation channel (width 4) keyed at `key_times` (sorted, unique) with `exact`'s value; linear
// unless `step`. Between two linear keys, where the slerp halfway leaves `exact` by more than
// kGazeToleranceRadians, a key is added there, halving again up to 12 times. `added_keys` grows
// by the keys added. The channel's node is left -1.
Channel FollowRotation(const std::vector<double>& key_times, bool step,
                       const std::function<Quat(double seconds)>& exact, size_t* added_keys);

}  // namespace animconv
