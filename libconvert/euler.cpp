#include "animconv/euler.h"

#include <cmath>

#include "animconv/quaternion.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Below this cos(middle angle) the outer angles' atan2 arguments are rounding noise.
constexpr double kGimbalCos = 1e-7;

using Matrix = std::array<std::array<double, 3>, 3>;  // [row][column]

Matrix ToMatrix(const Quat& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
           {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
           {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}}};
}

Quat AxisRotation(int axis, double radians) {
  Quat q{0, 0, 0, std::cos(radians / 2)};
  q[static_cast<size_t>(axis)] = std::sin(radians / 2);
  return q;
}

// `value` plus the multiple of 2π that brings it nearest `near`.
double Unwrap(double value, double near) {
  return value + 2 * kPi * std::round((near - value) / (2 * kPi));
}

double SquaredDistance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  double sum = 0;
  for (size_t i = 0; i < 3; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return sum;
}

}  // namespace

std::optional<EulerOrder> ParseEulerOrder(std::string_view text) {
  if (text.size() != 3) return std::nullopt;
  EulerOrder order;
  bool used[3] = {false, false, false};
  for (size_t i = 0; i < 3; ++i) {
    const char c = text[i];
    const int axis = (c == 'X' || c == 'x')   ? 0
                     : (c == 'Y' || c == 'y') ? 1
                     : (c == 'Z' || c == 'z') ? 2
                                              : -1;
    if (axis < 0 || used[axis]) return std::nullopt;
    used[axis] = true;
    order.axes[i] = axis;
  }
  return order;
}

std::string EulerOrderName(const EulerOrder& order) {
  std::string name;
  for (const int axis : order.axes) name += static_cast<char>('X' + axis);
  return name;
}

Quat QuatFromEuler(const EulerOrder& order, const std::array<double, 3>& radians) {
  Quat q{0, 0, 0, 1};
  for (size_t i = 0; i < 3; ++i) q = Multiply(q, AxisRotation(order.axes[i], radians[i]));
  return q;
}

std::array<double, 3> EulerFromQuat(const EulerOrder& order, const Quat& q,
                                    const std::optional<std::array<double, 3>>& previous) {
  const size_t i = static_cast<size_t>(order.axes[0]);
  const size_t j = static_cast<size_t>(order.axes[1]);
  const size_t k = static_cast<size_t>(order.axes[2]);
  // +1 when (i, j, k) is a cyclic (even) permutation of XYZ, where e_i × e_j = e_k.
  const double s = (j + 3 - i) % 3 == 1 ? 1.0 : -1.0;
  const Matrix m = ToMatrix(q);
  // R_i(a)·R_j(b)·R_k(c) has m[i][k] = s·sin(b), and m[i][i], m[i][j] = cos(b)·(cos c, -s·sin c).
  const double sin_b = s * m[i][k];
  const double cos_b = std::hypot(m[i][i], m[i][j]);
  std::array<double, 3> angles;
  angles[1] = std::atan2(sin_b, cos_b);
  if (cos_b > kGimbalCos) {
    angles[0] = std::atan2(-s * m[j][k], m[k][k]);
    angles[2] = std::atan2(-s * m[i][j], m[i][i]);
  } else {
    // Gimbal lock: fix c, then R·R_k(-c) = R_i(a)·R_j(b) maps e_j to cos(a)·e_j + s·sin(a)·e_k.
    angles[2] = previous ? (*previous)[2] : 0.0;
    const Matrix n = ToMatrix(Multiply(q, AxisRotation(order.axes[2], -angles[2])));
    angles[0] = std::atan2(s * n[k][j], n[j][j]);
  }
  if (!previous) return angles;
  // The other branch: R_i(a+π)·R_j(π-b)·R_k(c+π) is the same rotation.
  std::array<double, 3> candidates[2] = {angles,
                                         {angles[0] + kPi, kPi - angles[1], angles[2] + kPi}};
  for (std::array<double, 3>& candidate : candidates) {
    for (size_t a = 0; a < 3; ++a) candidate[a] = Unwrap(candidate[a], (*previous)[a]);
  }
  std::array<double, 3> best =
      SquaredDistance(candidates[0], *previous) <= SquaredDistance(candidates[1], *previous)
          ? candidates[0]
          : candidates[1];
  // A tie (an angle exactly π from the previous one: a step of exactly 180°) leaves the sign of
  // the player's quaternion to chance, and a player slerping from the previous frame takes the
  // path that sign gives (three.js slerpFlat at cos = 0): take the triple that gives q itself,
  // as the source's own keys do. Adding 2π to one angle flips the sign and, only at a tie, keeps
  // the distance (magnum's animation.glb: 0° then 180° about X played the other way round).
  const Quat made = QuatFromEuler(order, best);
  const double dot = made[0] * q[0] + made[1] * q[1] + made[2] * q[2] + made[3] * q[3];
  if (dot >= 0) return best;
  const double distance = SquaredDistance(best, *previous);
  for (size_t a = 0; a < 3; ++a) {
    for (const double turn : {2 * kPi, -2 * kPi}) {
      std::array<double, 3> flipped = best;
      flipped[a] += turn;
      if (SquaredDistance(flipped, *previous) <= distance + 1e-9 * (1 + distance)) return flipped;
    }
  }
  return best;
}

}  // namespace animconv
