#include "animconv/euler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "animconv/quaternion.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;
const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};

TEST(EulerTest, ParsesTheSixOrdersOnly) {
  for (const char* name : kOrders) {
    const std::optional<EulerOrder> order = ParseEulerOrder(name);
    ASSERT_TRUE(order) << name;
    EXPECT_EQ(EulerOrderName(*order), name);
  }
  EXPECT_EQ(EulerOrderName(*ParseEulerOrder("zxy")), "ZXY");
  for (const char* bad : {"", "XY", "XXY", "XYZW", "ABC"})
    EXPECT_FALSE(ParseEulerOrder(bad)) << bad;
}

TEST(EulerTest, MultipliesInTheOrderListed) {
  // ZXY: Rz(a)·Rx(b)·Ry(c), as BVHLoader multiplies "Zrotation Xrotation Yrotation".
  const EulerOrder zxy = *ParseEulerOrder("ZXY");
  const Quat q = QuatFromEuler(zxy, {0.3, -0.4, 1.1});
  const Quat rz{0, 0, std::sin(0.15), std::cos(0.15)};
  const Quat rx{std::sin(-0.2), 0, 0, std::cos(-0.2)};
  const Quat ry{0, std::sin(0.55), 0, std::cos(0.55)};
  EXPECT_LT(AngleBetween(q, Multiply(Multiply(rz, rx), ry)), 1e-12);
}

TEST(EulerTest, RoundTripsRandomRotationsInEveryOrder) {
  std::mt19937 random(7);
  std::normal_distribution<double> normal;
  for (const char* name : kOrders) {
    const EulerOrder order = *ParseEulerOrder(name);
    for (int i = 0; i < 2000; ++i) {
      const Quat q = Normalized({normal(random), normal(random), normal(random), normal(random)});
      const std::array<double, 3> angles = EulerFromQuat(order, q, std::nullopt);
      EXPECT_LT(AngleBetween(QuatFromEuler(order, angles), q), 1e-12) << name;
      EXPECT_LE(std::fabs(angles[1]), kPi / 2 + 1e-12);
    }
  }
}

TEST(EulerTest, UnwrapsAcrossPlusMinus180) {
  // A turn about Y from 170° to 190°: the second frame is 190°, not -170°.
  const EulerOrder zxy = *ParseEulerOrder("ZXY");
  const double degrees = kPi / 180;
  const std::array<double, 3> first =
      EulerFromQuat(zxy, QuatFromEuler(zxy, {0, 0, 170 * degrees}), std::nullopt);
  EXPECT_NEAR(first[2], 170 * degrees, 1e-12);
  const std::array<double, 3> second =
      EulerFromQuat(zxy, QuatFromEuler(zxy, {0, 0, 190 * degrees}), first);
  EXPECT_NEAR(second[0], 0, 1e-12);
  EXPECT_NEAR(second[1], 0, 1e-12);
  EXPECT_NEAR(second[2], 190 * degrees, 1e-12);
  // And on, past a full turn (each step under 180°: the nearest equivalent is the one ahead).
  const std::array<double, 3> third =
      EulerFromQuat(zxy, QuatFromEuler(zxy, {0, 0, 290 * degrees}), second);
  EXPECT_NEAR(third[2], 290 * degrees, 1e-12);
  const std::array<double, 3> fourth =
      EulerFromQuat(zxy, QuatFromEuler(zxy, {0, 0, 380 * degrees}), third);
  EXPECT_NEAR(fourth[2], 380 * degrees, 1e-12);
  // A step of -190° is the same pose as +170°, the nearer: 380° then 190° is written 550°.
  EXPECT_NEAR(EulerFromQuat(zxy, QuatFromEuler(zxy, {0, 0, 190 * degrees}), fourth)[2],
              550 * degrees, 1e-12);
}

TEST(EulerTest, PicksTheNearerBranchOfTheMiddleAngle) {
  // (a, b, c) and (a+π, π-b, c+π) are the same rotation: after a middle angle of 100° (written
  // as such by a previous frame), 101° stays on that branch instead of (180°, 79°, 180°).
  const EulerOrder xyz = *ParseEulerOrder("XYZ");
  const double degrees = kPi / 180;
  const std::array<double, 3> previous{10 * degrees, 100 * degrees, 20 * degrees};
  const std::array<double, 3> next =
      EulerFromQuat(xyz, QuatFromEuler(xyz, {10 * degrees, 101 * degrees, 20 * degrees}), previous);
  EXPECT_NEAR(next[0], 10 * degrees, 1e-9);
  EXPECT_NEAR(next[1], 101 * degrees, 1e-9);
  EXPECT_NEAR(next[2], 20 * degrees, 1e-9);
}

TEST(EulerTest, GimbalLockIsExactAndKeepsTheThirdAngle) {
  for (const char* name : kOrders) {
    const EulerOrder order = *ParseEulerOrder(name);
    for (const double middle : {kPi / 2, -kPi / 2}) {
      const Quat q = QuatFromEuler(order, {0.7, middle, -0.2});
      const std::array<double, 3> fresh = EulerFromQuat(order, q, std::nullopt);
      EXPECT_LT(AngleBetween(QuatFromEuler(order, fresh), q), 1e-12) << name;
      EXPECT_EQ(fresh[2], 0) << name;  // only a ± c is defined: c = 0 without a previous frame
      const std::array<double, 3> previous{0.5, middle, 0.3};
      const std::array<double, 3> kept = EulerFromQuat(order, q, previous);
      EXPECT_LT(AngleBetween(QuatFromEuler(order, kept), q), 1e-12) << name;
      EXPECT_NEAR(kept[2], 0.3, 1e-12) << name;
    }
  }
}

TEST(EulerTest, AnExactHalfTurnKeepsTheQuaternionsSign) {
  // 0° then 180° about X (magnum's animation.glb): +180° and -180° are equally near 0°, but a
  // slerping player goes from identity towards the quaternion it forms, so only the triple that
  // forms (1,0,0,0) itself turns the way the source's keys do. Every order, either axis sign.
  for (const char* name : {"ZXY", "XYZ", "YZX", "XZY", "ZYX", "YXZ"}) {
    const EulerOrder order = *ParseEulerOrder(name);
    for (const Quat& half_turn :
         {Quat{1, 0, 0, 0}, Quat{-1, 0, 0, 0}, Quat{0, 1, 0, 0}, Quat{0, 0, -1, 0}}) {
      const std::array<double, 3> angles =
          EulerFromQuat(order, half_turn, std::array<double, 3>{0, 0, 0});
      const Quat made = QuatFromEuler(order, angles);
      const double dot = made[0] * half_turn[0] + made[1] * half_turn[1] + made[2] * half_turn[2] +
                         made[3] * half_turn[3];
      EXPECT_NEAR(dot, 1, 1e-12) << name << " " << half_turn[0] << half_turn[1] << half_turn[2];
    }
  }
}

}  // namespace
}  // namespace animconv
