#include "animconv/resample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "libconvert/value_error.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

// A cubic translation that agrees with its chord at every key but swings 0.2 m off it in between
// (tangents of 4 m/s over 0.5 s segments), the shape that a chord bake lost.
Channel SwingingTranslation() {
  std::vector<double> values;
  const double tangents[] = {4, -3, 5};
  for (int k = 0; k < 3; ++k) {
    const double tangent = tangents[k];
    // in-tangent, value, out-tangent; the value is 0.1 m on x at every key.
    values.insert(values.end(), {tangent, 0, 0, 0.1, 0, 0, tangent, 0, 0});
  }
  return MakeChannel(0, Path::kTranslation, {0, 0.5, 1}, values, 3, Interpolation::kCubicSpline);
}

// A cubic rotation about an axis that turns from 0° to 90° and back with large tangents.
Channel SwingingRotation() {
  const auto axis_angle = [](double degrees) {
    const double half = degrees * kPi / 360;
    return Quat{0, std::sin(half), 0, std::cos(half)};
  };
  std::vector<double> values;
  for (const double degrees : {0.0, 90.0, 10.0}) {
    const Quat q = axis_angle(degrees);
    const Quat tangent{0, 1.5, 0, -0.5};  // per second, glTF Appendix C
    values.insert(values.end(), tangent.begin(), tangent.end());
    values.insert(values.end(), q.begin(), q.end());
    values.insert(values.end(), tangent.begin(), tangent.end());
  }
  return MakeChannel(0, Path::kRotation, {0, 0.4, 1}, values, 4, Interpolation::kCubicSpline);
}

// The largest ValueError of `baked` against `cubic` at 20001 evenly spaced times: an evaluation
// independent of the bake's own check points.
double DenseError(const Channel& cubic, const Channel& baked) {
  const double first = cubic.times_seconds.front();
  const double last = cubic.times_seconds.back();
  std::vector<double> a(static_cast<size_t>(cubic.width));
  std::vector<double> b(a.size());
  double error = 0;
  for (int i = 0; i <= 20000; ++i) {
    const double t = first + (last - first) * i / 20000;
    EvaluateChannel(cubic, t, a.data());
    EvaluateChannel(baked, t, b.data());
    error = std::max(error, ValueError(cubic.path, a.data(), a.size(), b.data(), b.size()));
  }
  return error;
}

TEST(BakeCubicSplinesTest, BakedTranslationPlaysWithinTheTolerance) {
  Asset asset = MakeAsset({"bone"});
  const Channel cubic = SwingingTranslation();
  asset.clips[0].channels = {cubic};
  const CubicBakeReport report = BakeCubicSplines(asset, std::nullopt);
  const Channel& baked = asset.clips[0].channels[0];
  EXPECT_EQ(baked.interpolation, Interpolation::kLinear);
  EXPECT_EQ(report.channels, 1u);
  EXPECT_EQ(report.cubic_keys, 3u);
  EXPECT_EQ(report.linear_keys, baked.key_count());
  EXPECT_GT(baked.key_count(), 3u);
  // The original keys stay keys.
  for (const double t : cubic.times_seconds) {
    EXPECT_TRUE(std::find(baked.times_seconds.begin(), baked.times_seconds.end(), t) !=
                baked.times_seconds.end());
  }
  const double error = DenseError(cubic, baked);
  // Within half the 0.1 mm tolerance (the other half is float32's), and the report says so.
  EXPECT_LE(error, 0.5e-4 * 1.01);
  EXPECT_NEAR(report.max_error[static_cast<size_t>(Path::kTranslation)], error, 0.01 * error);
  // The chord through the keys alone, what the bake wrote before, is 0.2 m off.
  Channel chord =
      MakeChannel(0, Path::kTranslation, {0, 0.5, 1}, {0.1, 0, 0, 0.1, 0, 0, 0.1, 0, 0}, 3);
  EXPECT_GT(DenseError(cubic, chord), 0.1);
  EXPECT_NE(
      DescribeCubicBake(report, asset.rig).find("1 cubic-spline channel(s) (3 keys) baked to"),
      std::string::npos);
}

TEST(BakeCubicSplinesTest, BakedRotationSlerpsWithinTheTolerance) {
  Asset asset = MakeAsset({"bone"});
  const Channel cubic = SwingingRotation();
  asset.clips[0].channels = {cubic};
  const CubicBakeReport report = BakeCubicSplines(asset, std::nullopt);
  const double error = DenseError(cubic, asset.clips[0].channels[0]);
  EXPECT_LE(error, 0.05 * kPi / 180 * 1.01);
  EXPECT_NEAR(report.max_error[static_cast<size_t>(Path::kRotation)], error, 0.01 * error);
}

TEST(BakeCubicSplinesTest, AGridIsKeptAndRefinedWhereItIsOff) {
  Asset asset = MakeAsset({"bone"});
  const Channel cubic = SwingingTranslation();
  asset.clips[0].channels = {cubic};
  BakeCubicSplines(asset, 0.25);
  const Channel& baked = asset.clips[0].channels[0];
  for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    EXPECT_TRUE(std::find(baked.times_seconds.begin(), baked.times_seconds.end(), t) !=
                baked.times_seconds.end())
        << t;
  }
  EXPECT_LE(DenseError(cubic, baked), 0.5e-4 * 1.01);
}

TEST(BakeCubicSplinesTest, ALinearCubicNeedsNoExtraKeys) {
  // Tangents equal to the slope: the curve is its chord, so the keys suffice.
  Asset asset = MakeAsset({"bone"});
  asset.clips[0].channels = {
      MakeChannel(0, Path::kWeights, {0, 1}, {1, 0, 1, 1, 1, 1}, 1, Interpolation::kCubicSpline)};
  const CubicBakeReport report = BakeCubicSplines(asset, std::nullopt);
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, 1}));
  EXPECT_LT(report.max_error[static_cast<size_t>(Path::kWeights)], 1e-12);
}

TEST(BakeCubicSplinesTest, ABakeOverItsToleranceNamesTheChannel) {
  // A tangent of 1e30 weight/s: no key budget follows it, so the bake ends over its tolerance and
  // the description must say where (a warning names what plays differently).
  Asset asset = MakeAsset({"calm", "wild"});
  asset.clips[0].channels = {
      MakeChannel(0, Path::kWeights, {0, 1}, {1, 0, 1, 1, 1, 1}, 1, Interpolation::kCubicSpline),
      MakeChannel(1, Path::kWeights, {0, 1}, {0, 0, 1e30, -1e30, 1, 0}, 1,
                  Interpolation::kCubicSpline)};
  const CubicBakeReport report = BakeCubicSplines(asset, std::nullopt);
  const size_t weights = static_cast<size_t>(Path::kWeights);
  EXPECT_GT(report.max_error[weights], report.tolerance[weights]);
  EXPECT_EQ(report.worst_node[weights], 1);
  EXPECT_NE(DescribeCubicBake(report, asset.rig).find("over it on wild.weights"), std::string::npos)
      << DescribeCubicBake(report, asset.rig);
  // Within the tolerance, no channel is named.
  Asset calm = MakeAsset({"calm"});
  calm.clips[0].channels = {
      MakeChannel(0, Path::kWeights, {0, 1}, {1, 0, 1, 1, 1, 1}, 1, Interpolation::kCubicSpline)};
  EXPECT_EQ(DescribeCubicBake(BakeCubicSplines(calm, std::nullopt), calm.rig).find("over it"),
            std::string::npos);
}

}  // namespace
}  // namespace animconv
