#include "libconvert/mesh_support.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace animconv {

const std::vector<Vec3>& SupportDirections() {
  static const std::vector<Vec3> directions = [] {
    constexpr double kStepDegrees = 15;
    constexpr double kPi = 3.14159265358979323846;
    std::vector<Vec3> out = {{0, -1, 0}};
    for (int ring = 1; ring <= 11; ++ring) {
      const double polar = ring * kStepDegrees * kPi / 180;
      const int count = std::max(
          6, static_cast<int>(std::lround(2 * kPi * std::sin(polar) / (kStepDegrees * kPi / 180))));
      for (int k = 0; k < count; ++k) {
        const double azimuth = 2 * kPi * k / count;
        out.push_back({std::sin(polar) * std::cos(azimuth), -std::cos(polar),
                       std::sin(polar) * std::sin(azimuth)});
      }
    }
    out.push_back({0, 1, 0});
    return out;
  }();
  return directions;
}

SupportPoints::SupportPoints()
    : reach_(SupportDirections().size(), -std::numeric_limits<double>::infinity()),
      best_(SupportDirections().size()) {}

void SupportPoints::Add(const Vec3& point) {
  if (!std::isfinite(point[0]) || !std::isfinite(point[1]) || !std::isfinite(point[2])) return;
  const std::vector<Vec3>& directions = SupportDirections();
  for (size_t d = 0; d < directions.size(); ++d) {
    const double along =
        directions[d][0] * point[0] + directions[d][1] * point[1] + directions[d][2] * point[2];
    if (along > reach_[d]) {
      reach_[d] = along;
      best_[d] = point;
    }
  }
  any_ = true;
}

std::vector<Vec3> SupportPoints::Points() const {
  std::vector<Vec3> out;
  if (!any_) return out;
  for (const Vec3& point : best_) {
    if (std::find(out.begin(), out.end(), point) == out.end()) out.push_back(point);
  }
  return out;
}

}  // namespace animconv
