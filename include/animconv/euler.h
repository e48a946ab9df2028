// Euler angles of the six Tait-Bryan orders, for formats that store rotations as three angles
// (BVH). An order names the axes as the angles are listed and multiplied: "ZXY" is
// R = Rz(a)·Rx(b)·Ry(c), the product BVH players form from "Zrotation Xrotation Yrotation"
// (three.js BVHLoader multiplies the channel rotations in the order the file lists them).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "animconv/model.h"

namespace animconv {

struct EulerOrder {
  std::array<int, 3> axes{2, 0, 1};  // 0 = X, 1 = Y, 2 = Z; the default is ZXY
};

// "ZXY", "zxy", ...: one of the six orders using each axis once; nullopt otherwise.
std::optional<EulerOrder> ParseEulerOrder(std::string_view text);
std::string EulerOrderName(const EulerOrder& order);  // "ZXY"

// R = R_axes[0](angles[0]) · R_axes[1](angles[1]) · R_axes[2](angles[2]), angles in radians.
Quat QuatFromEuler(const EulerOrder& order, const std::array<double, 3>& radians);

// Angles (radians) whose QuatFromEuler is `q` (a unit quaternion). Of the equivalent triples
// (the two branches of the middle angle, and every angle plus any multiple of 2π) it returns the
// one nearest `previous` (summed squared differences), so consecutive frames never jump by 360°
// and an Euler-interpolating player (Blender's F-curves) turns the short way. Without `previous`:
// the middle angle in [-π/2, π/2], the others in (-π, π]. At gimbal lock (middle angle ±90° to
// within 1e-7 rad of cos) only the sum or difference of the outer angles is defined; the third
// angle then keeps `previous`'s value (0 without one) and the first takes the rest, so the
// result is still exact. Between equally near triples, the one whose QuatFromEuler is q rather
// than -q: at a step of exactly 180° a slerping player's path depends on that sign.
std::array<double, 3> EulerFromQuat(const EulerOrder& order, const Quat& q,
                                    const std::optional<std::array<double, 3>>& previous);

}  // namespace animconv
