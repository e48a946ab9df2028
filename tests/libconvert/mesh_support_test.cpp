// The support points --ground keeps of a foot's meshes (libconvert/mesh_support.h).
#include "libconvert/mesh_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Every unit vector is within 11° of a direction (checked on a fine grid of the sphere).
TEST(MeshSupportTest, TheDirectionsCoverTheSphereWithin11Degrees) {
  const std::vector<Vec3>& directions = SupportDirections();
  EXPECT_EQ(directions.size(), 184u);
  for (const Vec3& d : directions) EXPECT_NEAR(std::hypot(d[0], d[1], d[2]), 1, 1e-12);
  EXPECT_EQ(directions.front(), (Vec3{0, -1, 0}));
  EXPECT_EQ(directions.back(), (Vec3{0, 1, 0}));
  double widest = 0;
  for (int i = 0; i <= 180; ++i) {
    for (int j = 0; j < 360; ++j) {
      const double polar = i * kPi / 180, azimuth = j * kPi / 180;
      const Vec3 v{std::sin(polar) * std::cos(azimuth), -std::cos(polar),
                   std::sin(polar) * std::sin(azimuth)};
      double nearest = kPi;
      for (const Vec3& d : directions) {
        const double dot = std::clamp(v[0] * d[0] + v[1] * d[1] + v[2] * d[2], -1.0, 1.0);
        nearest = std::min(nearest, std::acos(dot));
      }
      widest = std::max(widest, nearest);
    }
  }
  EXPECT_LT(widest * 180 / kPi, 11);
}

// Points inside a box are never kept; its corners are. However the box turns (any angle), its
// lowest point is one of the points kept, exactly (a corner).
TEST(MeshSupportTest, ABoxKeepsOnlyCornersAndItsLowestPointAfterATurn) {
  SupportPoints support;
  EXPECT_TRUE(support.empty());
  std::mt19937 random(7);
  std::uniform_real_distribution<double> inside(0.01, 0.09);
  std::vector<Vec3> corners;
  for (const double x : {0.0, 0.1}) {
    for (const double y : {0.0, 0.05}) {
      for (const double z : {-0.05, 0.2}) corners.push_back({x, y, z});
    }
  }
  for (int i = 0; i < 200; ++i) support.Add({inside(random), inside(random) / 2, inside(random)});
  for (const Vec3& corner : corners) support.Add(corner);
  const std::vector<Vec3> kept = support.Points();
  for (const Vec3& point : kept) {
    EXPECT_NE(std::find(corners.begin(), corners.end(), point), corners.end());
  }
  std::uniform_real_distribution<double> angle(-180, 180);
  for (int trial = 0; trial < 100; ++trial) {
    const double pitch = angle(random) * kPi / 180, roll = angle(random) * kPi / 180;
    // Height after turning about X by `pitch`, then about Z by `roll`.
    const auto height = [&](const Vec3& p) {
      const double y1 = p[1] * std::cos(pitch) - p[2] * std::sin(pitch);
      return p[0] * std::sin(roll) + y1 * std::cos(roll);
    };
    double lowest = 1e9, lowest_kept = 1e9;
    for (const Vec3& corner : corners) lowest = std::min(lowest, height(corner));
    for (const Vec3& point : kept) lowest_kept = std::min(lowest_kept, height(point));
    EXPECT_NEAR(lowest_kept, lowest, 1e-12) << pitch << " " << roll;
  }
}

// A round toe (a sphere of radius r) turned any way: the lowest kept point is at most r (1 - cos
// 11°) above the sphere's true lowest point.
TEST(MeshSupportTest, ARoundedShapeIsMissedByLessThanTwoPercentOfItsRadius) {
  constexpr double kRadius = 0.05;
  SupportPoints support;
  for (int i = 0; i <= 180; ++i) {
    for (int j = 0; j < 360; ++j) {
      const double polar = i * kPi / 180, azimuth = j * kPi / 180;
      support.Add({kRadius * std::sin(polar) * std::cos(azimuth), kRadius * std::cos(polar),
                   kRadius * std::sin(polar) * std::sin(azimuth)});
    }
  }
  const std::vector<Vec3> kept = support.Points();
  EXPECT_LE(kept.size(), 184u);
  for (int tilt = 0; tilt <= 180; tilt += 5) {
    for (int azimuth = 0; azimuth < 360; azimuth += 7) {
      const double t = tilt * kPi / 180, a = azimuth * kPi / 180;
      const Vec3 down{std::sin(t) * std::cos(a), -std::cos(t), std::sin(t) * std::sin(a)};
      double deepest = -1e9;
      for (const Vec3& p : kept)
        deepest = std::max(deepest, p[0] * down[0] + p[1] * down[1] + p[2] * down[2]);
      EXPECT_GE(deepest, kRadius * std::cos(11 * kPi / 180) - 1e-9) << tilt << " " << azimuth;
    }
  }
}

}  // namespace
}  // namespace animconv
