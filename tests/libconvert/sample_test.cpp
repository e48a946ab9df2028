#include "animconv/sample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

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

TEST(SampleTest, TheLeftLimitOfAStepIsThePreviousKeyAtEachKeyButTheFirst) {
  const Channel step = MakeChannel(0, Path::kTranslation, {0, 1, 2}, {0, 0, 0, 1, 0, 0, 5, 0, 0}, 3,
                                   Interpolation::kStep);
  double out[3];
  EvaluateChannelBefore(step, 1, out);
  EXPECT_EQ(out[0], 0);  // just before t = 1 the step still holds key 0
  EvaluateChannelBefore(step, 2, out);
  EXPECT_EQ(out[0], 1);
  EvaluateChannelBefore(step, 0, out);
  EXPECT_EQ(out[0], 0);  // nothing before the first key: it holds
  EvaluateChannelBefore(step, 1.5, out);
  EXPECT_EQ(out[0], 1);  // between keys the value itself
  // Linear curves are continuous: the left limit is the value.
  Channel linear = step;
  linear.interpolation = Interpolation::kLinear;
  EvaluateChannelBefore(linear, 2, out);
  EXPECT_EQ(out[0], 5);
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

TEST(SampleTest, ACubicRotationThroughZeroIsTheIdentityThereAsThreeJsNormalisesIt) {
  // The review's d11: q to -q with zero tangents passes through (0, 0, 0, 0) at s = 0.5; three.js's
  // Quaternion.normalize() makes that the identity.
  const double h = std::sqrt(0.5);
  std::vector<double> values = {0, 0, 0, 0, h,  0, 0, h,  0, 0, 0, 0,
                                0, 0, 0, 0, -h, 0, 0, -h, 0, 0, 0, 0};
  const Channel channel =
      MakeChannel(0, Path::kRotation, {0, 1}, values, 4, Interpolation::kCubicSpline);
  double out[4];
  EvaluateChannel(channel, 0.5, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 1);
}

// Random keys of every kind a cursor must follow: rotations (some pairs in opposite hemispheres,
// some near-parallel), translations, step and cubic splines.
std::vector<Channel> ChannelsToFollow() {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<double> times;
  for (int k = 0; k < 200; ++k) times.push_back(k * 0.01 + (k % 3 == 0 ? 0.004 : 0));
  std::vector<double> rotations;
  for (int k = 0; k < 200; ++k) {
    Quat q = Normalized({unit(random), unit(random), unit(random), unit(random)});
    if (k % 5 == 1)
      q = Normalized({rotations[rotations.size() - 4] + 1e-7, rotations[rotations.size() - 3],
                      rotations[rotations.size() - 2], rotations[rotations.size() - 1]});
    rotations.insert(rotations.end(), q.begin(), q.end());
  }
  std::vector<double> translations;
  for (int k = 0; k < 200 * 3; ++k) translations.push_back(unit(random));
  std::vector<double> cubic;
  for (int k = 0; k < 200 * 3 * 4; ++k) cubic.push_back(unit(random));
  return {MakeChannel(0, Path::kRotation, times, rotations, 4),
          MakeChannel(0, Path::kTranslation, times, translations, 3),
          MakeChannel(0, Path::kRotation, times, rotations, 4, Interpolation::kStep),
          MakeChannel(0, Path::kRotation, times, cubic, 4, Interpolation::kCubicSpline)};
}

// A cursor gives EvaluateChannel's values bit for bit, whatever the order of the times: rising
// finely (as the poser asks), at the keys, outside them, falling, and at random.
TEST(SampleTest, ACursorGivesEvaluateChannelsValuesInAnyOrder) {
  std::vector<double> rising;
  for (int i = -20; i < 2100; ++i) rising.push_back(i * 0.001);
  for (int k = 0; k < 200; ++k) rising.push_back(k * 0.01 + (k % 3 == 0 ? 0.004 : 0));
  std::sort(rising.begin(), rising.end());
  std::vector<double> falling(rising.rbegin(), rising.rend());
  std::vector<double> shuffled = rising;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
  for (const Channel& channel : ChannelsToFollow()) {
    for (const std::vector<double>* order : {&rising, &falling, &shuffled}) {
      ChannelCursor cursor;
      for (const double seconds : *order) {
        double expected[4] = {};
        double got[4] = {};
        EvaluateChannel(channel, seconds, expected);
        cursor.Evaluate(channel, seconds, got);
        ASSERT_EQ(std::memcmp(expected, got, sizeof expected), 0)
            << "path " << static_cast<int>(channel.path) << " interpolation "
            << static_cast<int>(channel.interpolation) << " at " << seconds << " s";
      }
    }
  }
}

}  // namespace
}  // namespace animconv
