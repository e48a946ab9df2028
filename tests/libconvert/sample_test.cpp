#include "animconv/sample.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeChannel;

TEST(SampleTest, LinearVectorInterpolatesAndClampsOutside) {
  const Channel channel = MakeChannel(0, Path::kTranslation, {1, 3}, {0, 0, 0, 2, 4, 6}, 3);
  double out[3];
  EvaluateChannel(channel, 2, out);
  EXPECT_DOUBLE_EQ(out[0], 1);
  EXPECT_DOUBLE_EQ(out[2], 3);
  EvaluateChannel(channel, 0, out);  // before the first key: held
  EXPECT_EQ(out[1], 0);
  EvaluateChannel(channel, 10, out);  // after the last key: held
  EXPECT_EQ(out[1], 4);
}

TEST(SampleTest, StepHoldsThePreviousKey) {
  const Channel channel =
      MakeChannel(0, Path::kWeights, {0, 1, 2}, {0, 1, 5}, 1, Interpolation::kStep);
  double out;
  EvaluateChannel(channel, 0.999, &out);
  EXPECT_EQ(out, 0);
  EvaluateChannel(channel, 1, &out);
  EXPECT_EQ(out, 1);
  EvaluateChannel(channel, 1.5, &out);
  EXPECT_EQ(out, 1);
}

TEST(SampleTest, KeyTimesReturnKeyValuesExactly) {
  const Channel channel = MakeChannel(0, Path::kRotation, {0, 0.2},
                                      {0.1, 0.2, 0.3, 0.927362, 0.3, 0.1, 0.2, 0.927362}, 4);
  double out[4];
  EvaluateChannel(channel, 0.2, out);
  EXPECT_EQ(out[0], 0.3);
  EXPECT_EQ(out[3], 0.927362);
}

TEST(SampleTest, LinearRotationUsesShortPathSlerp) {
  const double half = std::sqrt(0.5);
  // 0 and 180+90 degrees about Z written with w < 0: the short way is 90 degrees backwards.
  const Channel channel =
      MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, half, -half}, 4);
  double out[4];
  EvaluateChannel(channel, 0.5, out);
  EXPECT_NEAR(AngleBetween(LoadQuat(out), {0, 0, -std::sin(M_PI / 8), std::cos(M_PI / 8)}), 0,
              1e-12);
}

TEST(SampleTest, CubicSplineUsesTangentsPerSecond) {
  // One scalar weight from 0 to 1 over 2 s with out-tangent 1/s and in-tangent 0 (glTF App. C).
  const Channel channel =
      MakeChannel(0, Path::kWeights, {0, 2}, {0, 0, 1, 0, 1, 0}, 1, Interpolation::kCubicSpline);
  double out;
  EvaluateChannel(channel, 1, &out);
  // s = 0.5, t_d = 2: (2s^3-3s^2+1)*0 + 2*(s^3-2s^2+s)*1 + (-2s^3+3s^2)*1 + 2*(s^3-s^2)*0
  EXPECT_DOUBLE_EQ(out, 2 * (0.125 - 0.5 + 0.5) + (-0.25 + 0.75));
  EvaluateChannel(channel, 2, &out);
  EXPECT_EQ(out, 1);
}

TEST(SampleTest, CubicRotationIsRenormalised) {
  std::vector<double> values = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  const Channel channel =
      MakeChannel(0, Path::kRotation, {0, 1}, values, 4, Interpolation::kCubicSpline);
  double out[4];
  EvaluateChannel(channel, 0.5, out);
  EXPECT_NEAR(Length(LoadQuat(out)), 1, 1e-12);
}

}  // namespace
}  // namespace animconv
