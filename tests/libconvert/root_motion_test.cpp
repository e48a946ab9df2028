#include "animconv/root_motion.h"

#include <gtest/gtest.h>

#include <cmath>

#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::ErrorKindOf;
using testing::FindChannel;
using testing::MakeAsset;
using testing::MakeChannel;
using testing::NodeNamed;
using testing::WorldPositions;

// An armature node turned 90° about Y and scaled 0.01 (an FBX armature's centimetres), the hips
// below it walking 160 units along the armature's +Z (model +X, 1.6 m) with a bob and a sway
// along its X (model -Z), and a foot.
Asset Walker() {
  Asset asset = MakeAsset({"Armature", "Hips", "Foot"});
  Rig& rig = asset.rig;
  rig.rest_pose_known = true;
  rig.nodes[0].rest_rotation = AxisAngle('Y', 90);
  rig.nodes[0].rest_scale = {0.01, 0.01, 0.01};
  rig.nodes[1].parent = 0;
  rig.nodes[1].human_bone = HumanBone::kHips;
  rig.nodes[1].rest_translation = {0, 100, 0};
  rig.nodes[2].parent = 1;
  rig.nodes[2].human_bone = HumanBone::kLeftFoot;
  rig.nodes[2].rest_translation = {10, -90, 0};
  asset.clips[0].channels = {
      MakeChannel(1, Path::kTranslation, {0, 0.5, 1}, {0, 100, 0, 5, 110, 80, -3, 100, 160}, 3),
      MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0.2588190451, 0.9659258263}, 4)};
  return asset;
}

constexpr double kSeconds[] = {0, 0.25, 0.5, 0.8, 1};

TEST(RootMotionTest, InPlaceRemovesTheGroundTravelAndKeepsHeightAndPose) {
  const Asset source = Walker();
  Asset in_place = source;
  const RootMotionReport report = ApplyRootMotion(in_place, {RootMotionMode::kInPlace, "root"});
  EXPECT_EQ(report.clips_changed, 1);
  // Farthest at the end: 1.6 m along model +X and 0.03 m of sway along +Z.
  EXPECT_NEAR(report.largest_travel_metres, std::hypot(1.6, 0.03), 1e-12);
  const Vec3 start = WorldPositions(source, 0)[1];
  for (const double seconds : kSeconds) {  // between keys too: the map is affine
    const std::vector<Vec3> before = WorldPositions(source, seconds);
    const std::vector<Vec3> after = WorldPositions(in_place, seconds);
    EXPECT_NEAR(after[1][0], start[0], 1e-12) << seconds;
    EXPECT_NEAR(after[1][2], start[2], 1e-12) << seconds;
    EXPECT_NEAR(after[1][1], before[1][1], 1e-12) << seconds;  // the bob stays
    // Every joint moved back by the same travel: the pose is the source's.
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(after[2][c] - after[1][c], before[2][c] - before[1][c], 1e-12) << seconds;
    }
  }
  EXPECT_EQ(in_place.rig.nodes.size(), 3u);
}

TEST(RootMotionTest, ExtractMovesTheTravelToTheTopAncestorAndKeepsEveryWorldPosition) {
  const Asset source = Walker();
  Asset extracted = source;
  const RootMotionReport report = ApplyRootMotion(extracted, {RootMotionMode::kExtract, "root"});
  EXPECT_EQ(report.root_name, "Armature");
  EXPECT_FALSE(report.root_created);
  const Channel* root = FindChannel(extracted.clips[0], 0, Path::kTranslation);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->times_seconds, (std::vector<double>{0, 0.5, 1}));
  for (const double seconds : kSeconds) {
    const std::vector<Vec3> before = WorldPositions(source, seconds);
    const std::vector<Vec3> after = WorldPositions(extracted, seconds);
    for (size_t n = 1; n < 3; ++n) {
      for (size_t c = 0; c < 3; ++c) EXPECT_NEAR(after[n][c], before[n][c], 1e-12) << seconds;
    }
    // The root carries the ground travel only: no height.
    EXPECT_NEAR(after[0][1], 0, 1e-12);
  }
}

TEST(RootMotionTest, ExtractCreatesARootWhenTheHipsHaveNoParent) {
  Asset asset = MakeAsset({"hips", "root"});  // a BVH-like rig with a node already named root
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[1].parent = 0;
  asset.clips[0].channels = {
      MakeChannel(0, Path::kTranslation, {0, 1}, {1, 0.9, 2, 3, 1.0, -2}, 3)};
  const Asset source = asset;
  const RootMotionReport report = ApplyRootMotion(asset, {RootMotionMode::kExtract, "root"});
  EXPECT_TRUE(report.root_created);
  EXPECT_EQ(report.root_name, "root_2");
  const int root = NodeNamed(asset, "root_2");
  ASSERT_GE(root, 0);
  EXPECT_EQ(asset.rig.nodes[0].parent, root);
  for (const double seconds : kSeconds) {
    const std::vector<Vec3> before = WorldPositions(source, seconds);
    const std::vector<Vec3> after = WorldPositions(asset, seconds);
    for (size_t c = 0; c < 3; ++c) EXPECT_NEAR(after[0][c], before[0][c], 1e-12) << seconds;
  }
  // The hips keep their start over the ground and all their height.
  const Channel* hips = FindChannel(asset.clips[0], 0, Path::kTranslation);
  EXPECT_EQ(hips->values, (std::vector<double>{1, 0.9, 2, 1, 1.0, 2}));
}

TEST(RootMotionTest, CubicTangentsLoseTheirGroundComponent) {
  Asset asset = MakeAsset({"hips"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  // in-tangent, value, out-tangent per key (per second).
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1},
                                         {0, 0, 0, 0, 1, 0, 2, 0.5, 1, 2, 0.5, 1, 2, 2, 1, 0, 0, 0},
                                         3, Interpolation::kCubicSpline)};
  ApplyRootMotion(asset, {RootMotionMode::kInPlace, "root"});
  EXPECT_EQ(asset.clips[0].channels[0].values,
            (std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0.5, 0, 0, 2, 0, 0, 0, 0}));
}

TEST(RootMotionTest, AConstantAncestorKeyIsItsFrameAndAMovingOneIsRefused) {
  Asset asset = Walker();
  // The armature keyed constant at another turn than its rest: that turn is the frame.
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  const Asset source = asset;
  ApplyRootMotion(asset, {RootMotionMode::kInPlace, "root"});
  const Vec3 start = WorldPositions(source, 0)[1];
  EXPECT_NEAR(WorldPositions(asset, 1)[1][0], start[0], 1e-12);
  EXPECT_NEAR(WorldPositions(asset, 1)[1][2], start[2], 1e-12);

  asset.clips[0].channels.back() =
      MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0.1, 0, 0.995}, 4);
  EXPECT_EQ(ErrorKindOf([&] {
              ApplyRootMotion(asset, {RootMotionMode::kInPlace, "root"});
            }),
            ErrorKind::kUsage);
}

TEST(RootMotionTest, ARigWithoutHipsIsAUsageError) {
  Asset asset = MakeAsset({"Cube"});
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 0, 0}, 3)};
  EXPECT_EQ(ErrorKindOf([&] {
              ApplyRootMotion(asset, {RootMotionMode::kInPlace, "root"});
            }),
            ErrorKind::kUsage);
  // keep is no operation, with or without hips.
  EXPECT_EQ(ApplyRootMotion(asset, {}).clips_changed, 0);
}

}  // namespace
}  // namespace animconv
