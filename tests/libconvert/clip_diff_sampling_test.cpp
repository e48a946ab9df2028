// Where DiffClips samples (libconvert/clip_diff_sampling.cpp): the largest error it reports must
// be the largest a player shows, found against three.js r187 (tests/interop/check_diff_three.mjs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "animconv/clip_diff.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

Quat AboutX(double degrees) {
  const double half = degrees * kPi / 360;
  return {std::sin(half), 0, 0, std::cos(half)};
}

// One node "Bone" turning 0° -> 60° about x and moving 0 -> 1 m along x over [0, 1] s.
Asset TurnAndMove(Interpolation interpolation) {
  Asset asset = MakeAsset({"Bone"});
  std::vector<double> rotations;
  for (const Quat& q : {AboutX(0), AboutX(60)})
    rotations.insert(rotations.end(), q.begin(), q.end());
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, rotations, 4, interpolation));
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 0, 0}, 3, interpolation));
  return asset;
}

ClipDiff Diff(const Asset& a, const Asset& b, DiffOptions options = {}) {
  return DiffClips(a, a.clips[0], b, b.clips[0], options);
}

// The review's d1: a player holds the step's first key until t = 1, where the linear curve has
// arrived; keys and midpoints saw half of it (30°, 0.5 m), --samples-between N saw N/(N+1).
TEST(ClipDiffSamplingTest, AStepIsMeasuredJustBeforeItsNextKeyAgainstALinearCurve) {
  const Asset step = TurnAndMove(Interpolation::kStep);
  const Asset linear = TurnAndMove(Interpolation::kLinear);
  for (const int between : {0, 1, 7}) {
    DiffOptions options;
    options.samples_between_keys = between;
    for (const auto& [x, y] : {std::pair{&step, &linear}, std::pair{&linear, &step}}) {
      const ClipDiff diff = Diff(*x, *y, options);
      ASSERT_EQ(diff.channels.size(), 2u);
      EXPECT_NEAR(diff.overall.at("deg").max, 60, 1e-9) << between;
      EXPECT_NEAR(diff.overall.at("m").max, 1, 1e-12) << between;
      // Reported at the key time itself, not at a time just before it.
      EXPECT_EQ(diff.overall.at("deg").time_of_max_seconds, 1);
      EXPECT_EQ(diff.overall.at("m").time_of_max_seconds, 1);
      EXPECT_EQ(diff.channels[0].samples, static_cast<size_t>(2 + between));
    }
  }
}

TEST(ClipDiffSamplingTest, AStepIsMeasuredJustBeforeItsNextKeyAgainstACubicCurve) {
  const Asset step = TurnAndMove(Interpolation::kStep);
  Asset cubic = MakeAsset({"Bone"});
  // in-tangent, value, out-tangent per key: 0 -> 1 m with flat ends.
  cubic.clips[0].channels.push_back(MakeChannel(
      0, Path::kTranslation, {0, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}, 3,
      Interpolation::kCubicSpline));
  const ClipDiff diff = Diff(step, cubic);
  EXPECT_NEAR(diff.overall.at("m").max, 1, 1e-12);
  EXPECT_EQ(diff.overall.at("m").time_of_max_seconds, 1);
}

TEST(ClipDiffSamplingTest, AStepsLeftLimitCountsInWorldSpaceAndInTheHierarchicalError) {
  const Asset step = TurnAndMove(Interpolation::kStep);
  const Asset linear = TurnAndMove(Interpolation::kLinear);
  DiffOptions options;
  options.space = DiffSpace::kWorld;
  options.hierarchical_distance_metres = 0;
  const ClipDiff diff = Diff(step, linear, options);
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NEAR(diff.overall.at("deg").max, 60, 1e-9);
  EXPECT_NEAR(diff.overall.at("m").max, 1, 1e-12);
  EXPECT_EQ(diff.overall.at("m").time_of_max_seconds, 1);
  ASSERT_TRUE(diff.hierarchical_overall);
  EXPECT_NEAR(diff.hierarchical_overall->max, 1, 1e-12);
  EXPECT_EQ(diff.hierarchical_overall->time_of_max_seconds, 1);
}

// The review's d6: two slerps over 171° arcs whose keys differ by ~0.02° are farthest apart at
// 0.75 s, 7 % above the keys and the midpoint.
TEST(ClipDiffSamplingTest, TwoSlerpsPeakingBetweenSamplesAreMeasuredAtThePeak) {
  const auto clip = [](const Quat& q0, const Quat& q1) {
    Asset asset = MakeAsset({"Bone"});
    std::vector<double> values(q0.begin(), q0.end());
    values.insert(values.end(), q1.begin(), q1.end());
    asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, {0, 1}, values, 4));
    return asset;
  };
  const Asset a = clip(Normalized({-0.9266717827068184, -0.13957425146237207, 0.20688132089480346,
                                   0.28106681506095127}),
                       Normalized({-0.2596566684829874, 0.5331900291917843, -0.7685808629315906,
                                   0.23993804287380474}));
  const Asset b = clip(Normalized({-0.9266974400712391, -0.13954563671605896, 0.2069040992948272,
                                   0.28097964967932887}),
                       Normalized({-0.2596984728320299, 0.5332719238451682, -0.7685677576509622,
                                   0.2397527066511584}));
  // The true maximum, on a grid of 20,000 times (the refined peak may lie between its times).
  double peak = 0;
  for (int i = 0; i <= 20000; ++i) {
    Quat qa;
    Quat qb;
    EvaluateChannel(a.clips[0].channels[0], i / 20000.0, qa.data());
    EvaluateChannel(b.clips[0].channels[0], i / 20000.0, qb.data());
    peak = std::max(peak, AngleBetween(qa, qb) * 180 / kPi);
  }
  const ClipDiff diff = Diff(a, b);
  EXPECT_GT(peak, 0.0254);
  EXPECT_NEAR(diff.channels[0].max, peak, 1e-9 * peak + 1e-12);
  EXPECT_NEAR(diff.channels[0].time_of_max_seconds, 0.75, 0.01);
  EXPECT_GE(diff.channels[0].adaptive_samples, 1u);
}

TEST(ClipDiffSamplingTest, TwoStepsWithTheSameKeysDifferByNothing) {
  const Asset step = TurnAndMove(Interpolation::kStep);
  const ClipDiff diff = Diff(step, step);
  EXPECT_EQ(diff.overall.at("deg").max, 0);
  EXPECT_EQ(diff.overall.at("m").max, 0);
}

}  // namespace
}  // namespace animconv
