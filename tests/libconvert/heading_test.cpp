#include "libconvert/heading.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;

constexpr double kRadiansPerDegree = M_PI / 180;

TEST(HeadingTest, TheTwistAboutYIgnoresTheSwing) {
  EXPECT_NEAR(TwistAboutY(AxisAngle('Y', 30)), 30 * kRadiansPerDegree, 1e-12);
  EXPECT_NEAR(TwistAboutY(AxisAngle('Y', -170)), -170 * kRadiansPerDegree, 1e-12);
  // A lean forward after the turn, and before it (the swing about a horizontal axis either
  // side): the turn is the same.
  EXPECT_NEAR(TwistAboutY(Multiply(AxisAngle('Y', 40), AxisAngle('X', 25))), 40 * kRadiansPerDegree,
              1e-12);
  EXPECT_NEAR(TwistAboutY(Multiply(AxisAngle('X', 25), AxisAngle('Y', 40))), 40 * kRadiansPerDegree,
              1e-12);
  EXPECT_NEAR(TwistAboutY(AxisAngle('Z', 60)), 0, 1e-12);
  // q and -q are one rotation: one turn, wrapped into (-pi, pi].
  EXPECT_NEAR(TwistAboutY(Negated(AxisAngle('Y', 100))), 100 * kRadiansPerDegree, 1e-12);
  EXPECT_EQ(TwistAboutY(AxisAngle('X', 180)), 0);  // upside down: no twist defined
  EXPECT_NEAR(WrapRadians(3 * M_PI), M_PI, 1e-12);
  EXPECT_NEAR(WrapRadians(-M_PI), M_PI, 1e-12);
  const Quat turn = TurnAboutY(1.25);
  EXPECT_NEAR(AngleBetween(turn, AxisAngle('Y', 1.25 / kRadiansPerDegree)), 0, 1e-12);
}

TEST(HeadingTest, RefineHalvesOnlyTheSegmentsOverTheTolerance) {
  // The curve t² against its chords: the error of a chord over [a, b] is (b - a)² / 4 at its
  // middle, largest; so [0, 1] (0.25) is halved twice to reach 1/64 <= 0.02, [1, 1.1] is kept.
  const auto chord_error = [](double a, double b) { return (b - a) * (b - a) / 4; };
  const RefinedTimes refined = RefineKeyTimes({0, 1, 1.1}, chord_error, 0.02, 10, 1000);
  EXPECT_EQ(refined.seconds, (std::vector<double>{0, 0.25, 0.5, 0.75, 1, 1.1}));
  EXPECT_NEAR(refined.largest_error, 1.0 / 64, 1e-15);
  // The halvings and the key budget bound it, and the error left is reported.
  const RefinedTimes halved_once = RefineKeyTimes({0, 1}, chord_error, 1e-9, 1, 1000);
  EXPECT_EQ(halved_once.seconds, (std::vector<double>{0, 0.5, 1}));
  EXPECT_NEAR(halved_once.largest_error, 1.0 / 16, 1e-15);
  const RefinedTimes budget = RefineKeyTimes({0, 1}, chord_error, 1e-9, 10, 5);
  EXPECT_LE(budget.seconds.size(), 5u);
  EXPECT_GT(budget.largest_error, 1e-9);
  EXPECT_TRUE(RefineKeyTimes({}, chord_error, 1, 10, 10).seconds.empty());
}

}  // namespace
}  // namespace animconv
