// Where DiffClips samples (libconvert/clip_diff_sampling.cpp): the largest error it reports must
// be the largest a player shows, found against three.js r187 (tests/interop/check_diff_three.mjs).
#include <gtest/gtest.h>

#include <cmath>

#include "animconv/clip_diff.h"
#include "animconv/quaternion.h"
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

TEST(ClipDiffSamplingTest, TwoStepsWithTheSameKeysDifferByNothing) {
  const Asset step = TurnAndMove(Interpolation::kStep);
  const ClipDiff diff = Diff(step, step);
  EXPECT_EQ(diff.overall.at("deg").max, 0);
  EXPECT_EQ(diff.overall.at("m").max, 0);
}

}  // namespace
}  // namespace animconv
