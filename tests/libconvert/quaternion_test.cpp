#include "animconv/quaternion.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "test_support.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

Quat AxisAngle(double x, double y, double z, double radians) {
  const double s = std::sin(radians / 2);
  return {x * s, y * s, z * s, std::cos(radians / 2)};
}

TEST(QuaternionTest, SlerpEndpointsAreExact) {
  const Quat a = Normalized({0.03, -0.014, -0.005, 0.999});
  const Quat b = Normalized({0.028, -0.013, -0.004, 0.999});
  EXPECT_EQ(SlerpShortest(a, b, 0), a);
  EXPECT_EQ(SlerpShortest(a, b, 1), b);
}

TEST(QuaternionTest, SlerpFollowsTheShortPathAcrossHemispheres) {
  // 170 degrees and -170 degrees about Y are 20 degrees apart; the midpoint is 180 degrees.
  // As 4-vectors they are 340 degrees apart: dot(a, b) = cos(170°) < 0, so only the short path's
  // sign flip gets there (190 degrees written as such would be in a's hemisphere, dot cos(10°)).
  const Quat a = AxisAngle(0, 1, 0, 170 * kPi / 180);
  const Quat b = AxisAngle(0, 1, 0, -170 * kPi / 180);
  ASSERT_LT(Dot(a, b), -0.98);
  for (const double alpha : {0.25, 0.5, 0.75}) {
    const Quat q = SlerpShortest(a, b, alpha);
    // Through 180 degrees, not back through 0: 20·alpha degrees from a, about Y.
    EXPECT_NEAR(AngleBetween(a, q), 20 * alpha * kPi / 180, 1e-9) << alpha;
    EXPECT_NEAR(AngleBetween(q, AxisAngle(0, 1, 0, (170 + 20 * alpha) * kPi / 180)), 0, 1e-9)
        << alpha;
  }
}

TEST(QuaternionTest, SlerpHasConstantAngularSpeed) {
  const Quat a = AxisAngle(1, 0, 0, 0);
  const Quat b = AxisAngle(1, 0, 0, 2.0);
  for (double alpha = 0.1; alpha < 1; alpha += 0.2) {
    EXPECT_NEAR(AngleBetween(a, SlerpShortest(a, b, alpha)), 2.0 * alpha, 1e-12);
  }
}

TEST(QuaternionTest, NormalizeKeepsUnitKeysBitExactAndFixesOthers) {
  Channel channel = testing::MakeChannel(0, Path::kRotation, {0, 1},
                                         {0, 0, 0.6, 0.8, 0.030, -0.014, -0.005, 0.999}, 4);
  NormalizeRotationKeys(channel);
  EXPECT_EQ(channel.values[2], 0.6);
  EXPECT_EQ(channel.values[3], 0.8);
  EXPECT_NEAR(Length(LoadQuat(channel.values.data() + 4)), 1, 1e-15);
}

// Keys that repeat their previous key's bits take its result: the same bits as normalising each
// key alone, -0 and unit keys (left as they are) included, and the count of changed keys too.
TEST(QuaternionTest, NormalizeRotationKeysGivesRepeatedKeysTheirOwnResult) {
  const std::vector<std::array<double, 4>> pattern = {
      {0.1, 0.2, 0.3, 0.9},   {0.1, 0.2, 0.3, 0.9}, {-0.0, 0.0, 0.0, 1.0},  {0.0, 0.0, 0.0, 1.0},
      {0.0, 0.0, 0.0, 1.0},   {0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5},   {0.0, 0.6, 0.0, 0.801},
      {0.0, 0.6, 0.0, 0.801}, {0.1, 0.2, 0.3, 0.9}, {-0.0, 0.6, 0.0, 0.801}};
  std::vector<double> times, values;
  for (size_t k = 0; k < pattern.size(); ++k) {
    times.push_back(static_cast<double>(k));
    values.insert(values.end(), pattern[k].begin(), pattern[k].end());
  }
  Channel all = testing::MakeChannel(0, Path::kRotation, times, values, 4);
  const size_t changed = NormalizeRotationKeys(all);
  size_t changed_alone = 0;
  for (size_t k = 0; k < pattern.size(); ++k) {
    Channel one = testing::MakeChannel(
        0, Path::kRotation, {0}, {pattern[k][0], pattern[k][1], pattern[k][2], pattern[k][3]}, 4);
    changed_alone += NormalizeRotationKeys(one);
    EXPECT_EQ(std::memcmp(one.values.data(), all.key_value(k), 4 * sizeof(double)), 0) << k;
  }
  EXPECT_EQ(changed, changed_alone);
  EXPECT_EQ(changed, 6u);
}

TEST(QuaternionTest, AlignHemispheresMakesConsecutiveDotsNonNegative) {
  Channel channel = testing::MakeChannel(0, Path::kRotation, {0, 1, 2},
                                         {0, 0, 0, 1, -0.1, 0, 0, -0.995, 0.2, 0, 0, 0.98}, 4);
  AlignHemispheres(channel);
  EXPECT_EQ(channel.values[7], 0.995);
  EXPECT_EQ(channel.values[4], 0.1);
  EXPECT_EQ(channel.values[11], 0.98);
  for (size_t k = 1; k < 3; ++k) {
    EXPECT_GE(Dot(LoadQuat(channel.key_value(k - 1)), LoadQuat(channel.key_value(k))), 0);
  }
}

TEST(QuaternionTest, AlignHemispheresLeavesCubicSplinesAlone) {
  std::vector<double> values(24, 0);
  values[7] = 1;    // key 0 value w
  values[19] = -1;  // key 1 value w
  Channel channel =
      testing::MakeChannel(0, Path::kRotation, {0, 1}, values, 4, Interpolation::kCubicSpline);
  AlignHemispheres(channel);
  EXPECT_EQ(channel.values[19], -1);
}

TEST(QuaternionTest, NormalizeRotationsFixesLengthAndSignsOfRotationChannelsOnly) {
  Asset asset = testing::MakeAsset({"hips"});
  auto& channels = asset.clips[0].channels;
  channels.push_back(testing::MakeChannel(0, Path::kRotation, {0, 0.2},
                                          {0, 0.707, 0, 0.707, 0, -0.707, 0, -0.707}, 4));
  channels.push_back(testing::MakeChannel(0, Path::kTranslation, {0}, {2, 0, 0}, 3));
  const RotationNormalization result = NormalizeRotations(asset);
  EXPECT_EQ(result.keys_renormalized, 2u);
  EXPECT_EQ(result.keys_flipped, 1u);
  EXPECT_NEAR(channels[0].values[5], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(channels[0].values[7], std::sqrt(0.5), 1e-15);
  EXPECT_EQ(channels[1].values[0], 2);
}

// The arc once, then points along it: SlerpShortest's bits, on both hemispheres, near-parallel
// keys (the nlerp branch) and the ends.
TEST(QuaternionTest, SlerpAlongAnArcIsSlerpShortest) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int pair = 0; pair < 500; ++pair) {
    const Quat a = Normalized({unit(random), unit(random), unit(random), unit(random)});
    Quat b = Normalized({unit(random), unit(random), unit(random), unit(random)});
    if (pair % 4 == 0) b = Normalized({a[0] + 1e-8, a[1], a[2], a[3]});
    if (pair % 4 == 1) b = Negated(b);
    const SlerpArc arc = ArcBetween(a, b);
    for (const double alpha : {0.0, 1e-9, 0.125, 0.5, 0.875, 1 - 1e-12, 1.0}) {
      const Quat expected = SlerpShortest(a, b, alpha);
      const Quat got = SlerpAlong(arc, a, b, alpha);
      ASSERT_EQ(std::memcmp(expected.data(), got.data(), sizeof(double) * 4), 0)
          << "pair " << pair << " alpha " << alpha;
    }
  }
}

// The reducer's shortcut decides every check as comparing AngleBetween's value does: random pairs
// and limits, limits at the pair's own angle and one step either side (where the shortcut must
// defer to atan2), tiny and wide angles, a limit of pi and beyond, and NaN.
TEST(QuaternionTest, AngleLimitAnswersAsAngleBetweenDoes) {
  std::mt19937 random(12);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_real_distribution<double> exponent(-9, 0.5);
  size_t checks = 0;
  const auto expect_same = [&](const Quat& a, const Quat& b, double limit) {
    ASSERT_EQ(AngleLimit(limit).ExceededBy(a, b), AngleBetween(a, b) > limit)
        << "limit " << limit << " angle " << AngleBetween(a, b);
    ++checks;
  };
  for (int pair = 0; pair < 20000; ++pair) {
    const Quat a = Normalized({unit(random), unit(random), unit(random), unit(random)});
    // From 1e-9 rad to well past a right angle, on either side of the short path.
    const Quat turn = AxisAngle(0.6, 0, 0.8, std::pow(10.0, exponent(random)));
    Quat b = Multiply(a, turn);
    if (pair % 3 == 0) b = Negated(b);
    const double angle = AngleBetween(a, b);
    for (const double limit :
         {angle, std::nextafter(angle, 0.0), std::nextafter(angle, 4.0), angle * (1 + 1e-10),
          angle * (1 - 1e-10), angle * 1.001, angle * 0.999, std::pow(10.0, exponent(random))}) {
      expect_same(a, b, limit);
    }
  }
  const Quat a = AxisAngle(0, 1, 0, 0.3);
  const Quat half_turn = Multiply(a, AxisAngle(1, 0, 0, kPi));
  for (const double limit : {0.0, kPi - 1e-12, kPi, 4.0, 100.0, std::nan("")}) {
    expect_same(a, a, limit);
    expect_same(a, half_turn, limit);
  }
  EXPECT_EQ(checks, 20000u * 8 + 12);
}

}  // namespace
}  // namespace animconv
