#include "animconv/ground.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "libconvert/lowest_foot.h"
#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::ErrorKindOf;
using testing::FindChannel;
using testing::MakeAsset;
using testing::MakeChannel;
using testing::WorldPositions;

// An armature node turned 90° about Y and scaled 0.01 (an FBX armature's centimetres); the hips
// below it bobbing 100 -> 60 -> 100 units, a knee swinging from -60° to +60° about X between two
// keys, and a foot 50 units below the knee. The foot is lowest when the knee is straight, at
// t = 0.5, between the knee's keys, and the hips are lowest at t = 0.5 too: 0.6 m - 0.5 m -
// 0.3 m (the hips-to-knee offset) = -0.2 m.
Asset Stepper() {
  Asset asset = MakeAsset({"Armature", "Hips", "Knee", "Foot"});
  Rig& rig = asset.rig;
  rig.rest_pose_known = true;
  rig.nodes[0].rest_rotation = AxisAngle('Y', 90);
  rig.nodes[0].rest_scale = {0.01, 0.01, 0.01};
  rig.nodes[1].parent = 0;
  rig.nodes[1].human_bone = HumanBone::kHips;
  rig.nodes[1].rest_translation = {0, 100, 0};
  rig.nodes[2].parent = 1;
  rig.nodes[2].human_bone = HumanBone::kLeftLowerLeg;
  rig.nodes[2].rest_translation = {10, -30, 0};
  rig.nodes[3].parent = 2;
  rig.nodes[3].human_bone = HumanBone::kLeftFoot;
  rig.nodes[3].rest_translation = {0, -50, 0};
  const Quat back = AxisAngle('X', -60);
  const Quat forward = AxisAngle('X', 60);
  asset.clips[0].channels = {
      MakeChannel(1, Path::kTranslation, {0, 0.5, 1}, {0, 100, 0, 0, 60, 0, 0, 100, 0}, 3),
      MakeChannel(
          2, Path::kRotation, {0, 1},
          {back[0], back[1], back[2], back[3], forward[0], forward[1], forward[2], forward[3]}, 4)};
  return asset;
}

// The lowest world height of node `foot` over [0, 1], on a grid much finer than ApplyGround's.
double LowestHeight(const Asset& asset, int foot) {
  double lowest = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= 1000; ++i) {
    lowest = std::min(lowest, WorldPositions(asset, i / 1000.0)[static_cast<size_t>(foot)][1]);
  }
  return lowest;
}

TEST(GroundTest, TheLowestFootPointBetweenKeysTouchesTheFloorAndEveryJointMovesAlike) {
  const Asset source = Stepper();
  EXPECT_NEAR(LowestHeight(source, 3), -0.2, 1e-12);
  Asset grounded = source;
  const GroundReport report = ApplyGround(grounded);
  ASSERT_EQ(report.clips.size(), 1u);
  EXPECT_NEAR(report.clips[0].lowest_before_metres, -0.2, 1e-12);
  EXPECT_NEAR(report.clips[0].shift_metres, 0.2, 1e-12);
  EXPECT_EQ(report.clips[0].lowest_node, "Foot");
  EXPECT_NEAR(report.clips[0].lowest_seconds, 0.5, 1e-12);
  EXPECT_NEAR(report.clips[0].lowest_after_metres, 0, 1e-12);
  EXPECT_NEAR(LowestHeight(grounded, 3), 0, 1e-12);
  for (const double seconds : {0.0, 0.1, 0.3, 0.5, 0.77, 1.0}) {
    const std::vector<Vec3> before = WorldPositions(source, seconds);
    const std::vector<Vec3> after = WorldPositions(grounded, seconds);
    for (size_t n = 1; n < before.size(); ++n) {
      EXPECT_NEAR(after[n][0], before[n][0], 1e-12) << n << " at " << seconds;
      EXPECT_NEAR(after[n][1], before[n][1] + 0.2, 1e-12) << n << " at " << seconds;
      EXPECT_NEAR(after[n][2], before[n][2], 1e-12) << n << " at " << seconds;
    }
  }
  // The offset went in through the armature's scale: 20 units of the hips' parent space.
  const Channel* hips = FindChannel(grounded.clips[0], 1, Path::kTranslation);
  EXPECT_NEAR(hips->values[4], 80, 1e-9);
}

// FeetReachDown answers what MeasureLowestFootPoint's height says, at every threshold: it stops at
// the first key that reaches the threshold, and where only the samples between keys do, it
// searches them as the measure does.
TEST(GroundTest, FeetReachDownAgreesWithTheLowestFootPoint) {
  Asset asset = Stepper();
  // The hips held at 1 m: the foot is lowest (0.2 m) at t = 0.5, between the knee's keys, and
  // 0.45 m at both keys.
  asset.clips[0].channels[0] =
      MakeChannel(1, Path::kTranslation, {0, 1}, {0, 100, 0, 0, 100, 0}, 3);
  const Clip& clip = asset.clips[0];
  const double lowest = MeasureLowestFootPoint(asset.rig, clip)->metres;
  EXPECT_NEAR(lowest, 0.2, 1e-12);
  for (const double metres :
       {-1.0, 0.1, 0.19, lowest - 1e-15, lowest, 0.21, 0.3, 0.44, 0.45, 0.46, 1.0}) {
    EXPECT_EQ(FeetReachDown(asset.rig, clip, metres), lowest <= metres) << metres;
  }
  const std::vector<int> feet = {3};
  const FootSamples samples = SampleFeet(clip, kGroundSubdivisions, size_t{1} << 20);
  EXPECT_FALSE(AnyFootAtOrBelowAtKeys(asset.rig, clip, feet, samples, 0.3));
  EXPECT_TRUE(FeetReachDown(asset.rig, clip, 0.3));  // between the keys
  EXPECT_TRUE(AnyFootAtOrBelowAtKeys(asset.rig, clip, feet, samples, 0.46));
  Asset no_feet = asset;
  no_feet.rig.nodes[3].human_bone.reset();
  EXPECT_FALSE(FeetReachDown(no_feet.rig, no_feet.clips[0], 1e9));
}

// A long clip is searched in blocks on every core: where the feet are as low at two times in
// different blocks, the earlier time is the one reported, as a search in order finds it.
TEST(GroundTest, TheLowestPointOfALongClipIsItsFirstAsInOrder) {
  Asset asset = MakeAsset({"Hips", "Foot"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[0].rest_translation = {0, 1, 0};
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].human_bone = HumanBone::kLeftFoot;
  asset.rig.nodes[1].rest_translation = {0, -0.9, 0};
  // 3,000 keys a second apart, 8 samples between each: 24,000 samples. The hips at 1 m but at
  // keys 200 and 2,500, where they dip to 0.5 m.
  std::vector<double> times, values;
  for (int k = 0; k < 3000; ++k) {
    times.push_back(k);
    values.insert(values.end(), {0, k == 200 || k == 2500 ? 0.5 : 1.0, 0});
  }
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, times, values, 3)};
  const std::optional<LowestFootPoint> lowest = MeasureLowestFootPoint(asset.rig, asset.clips[0]);
  ASSERT_TRUE(lowest.has_value());
  EXPECT_NEAR(lowest->metres, -0.4, 1e-12);
  EXPECT_EQ(lowest->seconds, 200);
  EXPECT_GT(lowest->samples, 8192u);  // more than two blocks
}

// The feet are posed without recursion (ClipPoser::World): a foot at the end of a 300,000-joint
// chain (a --max-depth raised that far) overflowed the stack, a segfault, when its height was
// measured for the retarget's note.
TEST(GroundTest, AFootAtTheEndOfAVeryDeepChainIsMeasured) {
  constexpr size_t kDepth = 300000;
  Asset asset;
  asset.rig.rest_pose_known = true;
  asset.rig.nodes.resize(kDepth);
  for (size_t n = 0; n < kDepth; ++n) {
    asset.rig.nodes[n].name = "j" + std::to_string(n);
    asset.rig.nodes[n].parent = static_cast<int>(n) - 1;
    asset.rig.nodes[n].rest_translation = {0, n == 0 ? 1.0 : -1e-6, 0};
  }
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[kDepth - 1].human_bone = HumanBone::kLeftFoot;
  asset.clips.resize(1);
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1}, {0, 1, 0, 0, 2, 0}, 3)};
  const std::optional<LowestFootPoint> lowest = MeasureLowestFootPoint(asset.rig, asset.clips[0]);
  ASSERT_TRUE(lowest.has_value());
  EXPECT_NEAR(lowest->metres, 1 - 1e-6 * (kDepth - 1), 1e-9);
  EXPECT_EQ(lowest->seconds, 0);
}

TEST(GroundTest, HipsWithoutATranslationChannelGetAConstantOne) {
  Asset asset = Stepper();
  asset.clips[0].channels.erase(asset.clips[0].channels.begin());  // the hips stay at rest
  const Asset source = asset;
  const GroundReport report = ApplyGround(asset);
  ASSERT_EQ(report.clips.size(), 1u);
  // Rest hips at 1 m, knee 0.3 m below, foot 0.5 m below the knee when straight: 0.2 m up.
  EXPECT_NEAR(report.clips[0].shift_metres, -0.2, 1e-12);
  const Channel* hips = FindChannel(asset.clips[0], 1, Path::kTranslation);
  ASSERT_NE(hips, nullptr);
  EXPECT_EQ(hips->times_seconds, (std::vector<double>{0, 1}));
  EXPECT_NEAR(LowestHeight(asset, 3), 0, 1e-12);
  EXPECT_NEAR(WorldPositions(asset, 0.3)[1][1], WorldPositions(source, 0.3)[1][1] - 0.2, 1e-12);
}

TEST(GroundTest, CubicHipsMoveByTheOffsetBetweenKeysAndKeepTheirTangents) {
  Asset asset = MakeAsset({"Hips", "Foot"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].human_bone = HumanBone::kRightFoot;
  asset.rig.nodes[1].rest_translation = {0, -1, 0};
  // in-tangent, value, out-tangent per key (per second): the curve dips below both keys.
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1},
                                         {0, 0, 0, 0, 1, 0, 0, -2, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0}, 3,
                                         Interpolation::kCubicSpline)};
  const Asset source = asset;
  const GroundReport report = ApplyGround(asset);
  ASSERT_EQ(report.clips.size(), 1u);
  const std::vector<double>& values = asset.clips[0].channels[0].values;
  const std::vector<double>& original = source.clips[0].channels[0].values;
  const double shift = report.clips[0].shift_metres;
  // The curve dips from 1 m to 0.5 m at t = 0.5 (a sample; Hermite basis 1/2, 1/8, 1/2, -1/8),
  // which puts the foot 1 m below at -0.5 m.
  EXPECT_NEAR(shift, 0.5, 1e-12);
  for (size_t i = 0; i < values.size(); ++i) {
    const bool value_y = i % 9 == 4;  // key k's value element, y component
    EXPECT_NEAR(values[i], original[i] + (value_y ? shift : 0), 1e-12) << i;
  }
  EXPECT_NEAR(LowestHeight(asset, 1), 0, 1e-12);
}

TEST(GroundTest, NoHipsNoFeetOrAMovingAncestorIsAUsageError) {
  Asset no_feet = MakeAsset({"Hips"});
  no_feet.rig.nodes[0].human_bone = HumanBone::kHips;
  no_feet.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1}, {0, 1, 0, 0, 2, 0}, 3)};
  EXPECT_EQ(ErrorKindOf([&] { ApplyGround(no_feet); }), ErrorKind::kUsage);
  Asset no_hips = Stepper();
  no_hips.rig.nodes[1].human_bone.reset();
  EXPECT_EQ(ErrorKindOf([&] { ApplyGround(no_hips); }), ErrorKind::kUsage);
  Asset moving = Stepper();
  moving.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 0, 0.5, 0}, 3));
  EXPECT_EQ(ErrorKindOf([&] { ApplyGround(moving); }), ErrorKind::kUsage);
}

}  // namespace
}  // namespace animconv
