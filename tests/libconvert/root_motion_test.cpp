#include "animconv/root_motion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "animconv/quaternion.h"
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
using testing::PoseWorldRotations;
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

// --root-yaw. The walker turns about the vertical while it walks: 0°, 100°, 200° at the keys (in
// the armature's space, which is turned 90° about Y: the same turns in model space), leaning 20°
// forward, then back, then forward, so the turn is not the whole rotation; a head above the hips
// gives a lever arm of 0.6 m.
Asset TurningWalker() {
  Asset asset = Walker();
  asset.rig.nodes.push_back(Node{});
  Node& head = asset.rig.nodes.back();
  head.name = "Head";
  head.parent = 1;
  head.human_bone = HumanBone::kHead;
  head.rest_translation = {0, 60, 0};
  std::vector<double> rotations;
  const double turns[] = {0, 100, 200};
  const double leans[] = {20, -20, 20};
  for (size_t k = 0; k < 3; ++k) {
    const Quat q = Multiply(AxisAngle('Y', turns[k]), AxisAngle('X', leans[k]));
    rotations.insert(rotations.end(), q.begin(), q.end());
  }
  asset.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0, 0.5, 1}, rotations, 4));
  return asset;
}

// The definition in root_motion.h, computed from the source's world pose: the turn of the hips
// since their first key, and every joint turned back about the vertical through the hips' start
// and moved back by the travel.
double TurnOf(const Asset& asset, double seconds) {
  const Quat start = PoseWorldRotations(asset.rig, asset.clips[0], 0)[1];
  const Quat now = PoseWorldRotations(asset.rig, asset.clips[0], seconds)[1];
  const Quat delta = Multiply(now, Conjugate(start));
  return 2 * std::atan2(delta[1], delta[3]);
}

std::vector<Vec3> InPlaceAndUnturned(const Asset& source, double seconds) {
  const std::vector<Vec3> positions = WorldPositions(source, seconds);
  const Vec3 start = WorldPositions(source, 0)[1];
  const Vec3 hips = positions[1];
  const Quat back = AxisAngle('Y', -TurnOf(source, seconds) * 180 / M_PI);
  std::vector<Vec3> expected;
  for (const Vec3& p : positions) {
    const Vec3 turned = Rotate(back, {p[0] - hips[0], p[1], p[2] - hips[2]});
    expected.push_back({start[0] + turned[0], turned[1], start[2] + turned[2]});
  }
  return expected;
}

double Distance(const Vec3& a, const Vec3& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// Between keys a channel computed from the turn plays it within 0.01° (root_motion.h): a joint
// strays by at most that angle times its distance from the hips (the head's 0.6 m, the foot's
// 0.91 m), plus the root translation's 1e-5 m.
double BetweenKeysMetres(const std::vector<Vec3>& source, size_t joint) {
  return Distance(source[joint], source[1]) * kRootYawToleranceDegrees * M_PI / 180 +
         kRootYawToleranceMetres;
}
constexpr double kBetween[] = {0.1, 0.25, 0.3, 0.62, 0.8, 0.97};

// `in_place` plays `source` turned back and in place between its keys, within the tolerance.
void ExpectInPlaceAndUnturnedBetweenKeys(const Asset& source, const Asset& in_place) {
  for (const double seconds : kBetween) {
    const std::vector<Vec3> expected = InPlaceAndUnturned(source, seconds);
    const std::vector<Vec3> got = WorldPositions(in_place, seconds);
    for (size_t n = 1; n < got.size(); ++n) {
      EXPECT_LT(Distance(got[n], expected[n]), BetweenKeysMetres(expected, n))
          << n << " at " << seconds;
    }
  }
}

TEST(RootMotionTest, InPlaceWithRootYawKeepsTheFirstHeading) {
  const Asset source = TurningWalker();
  Asset in_place = source;
  RootMotionOptions options{RootMotionMode::kInPlace, "root"};
  options.remove_yaw = true;
  const RootMotionReport report = ApplyRootMotion(in_place, options);
  // 200° from the start is -160° at the last key; keys added between may come nearer 180°.
  EXPECT_GE(report.largest_turn_degrees, 160 - 1e-9);
  EXPECT_LE(report.largest_turn_degrees, 180);
  EXPECT_GT(report.yaw_keys_added, 0u);  // the lean makes the unturned slerp stray
  EXPECT_LE(report.largest_yaw_error_degrees, kRootYawToleranceDegrees);
  for (const double seconds : {0.0, 0.5, 1.0}) {  // exact at the source's keys
    const std::vector<Vec3> expected = InPlaceAndUnturned(source, seconds);
    const std::vector<Vec3> got = WorldPositions(in_place, seconds);
    for (size_t n = 1; n < got.size(); ++n) {
      EXPECT_LT(Distance(got[n], expected[n]), 1e-12) << n << " at " << seconds;
    }
    EXPECT_NEAR(TurnOf(in_place, seconds), 0, 1e-12) << seconds;
  }
  ExpectInPlaceAndUnturnedBetweenKeys(source, in_place);
  for (const double seconds : kBetween) {
    EXPECT_NEAR(TurnOf(in_place, seconds), 0, kRootYawToleranceDegrees * M_PI / 180) << seconds;
  }
  // The travel is the same as without --root-yaw: the hips translation is untouched by the turn.
  Asset plain = source;
  ApplyRootMotion(plain, {RootMotionMode::kInPlace, "root"});
  EXPECT_EQ(FindChannel(in_place.clips[0], 1, Path::kTranslation)->values,
            FindChannel(plain.clips[0], 1, Path::kTranslation)->values);
}

TEST(RootMotionTest, ExtractWithRootYawTurnsTheRootAndKeepsEveryWorldPosition) {
  for (const bool created : {false, true}) {
    Asset source = TurningWalker();
    if (created) {  // a BVH-like rig: the hips a root, starting away from the origin
      source.rig.nodes[1].parent = -1;
      source.rig.nodes[1].rest_translation = {0.3, 1, -0.2};
      source.rig.nodes[2].rest_translation = {0.1, -0.9, 0};  // metres now, not centimetres
      source.rig.nodes[3].rest_translation = {0, 0.6, 0};
      Channel& walk = source.clips[0].channels[0];
      walk.values = {0.3, 1, -0.2, 0.8, 1.1, 0.4, 1.3, 1, 1.2};
    }
    Asset extracted = source;
    RootMotionOptions options{RootMotionMode::kExtract, "root"};
    options.remove_yaw = true;
    const RootMotionReport report = ApplyRootMotion(extracted, options);
    EXPECT_EQ(report.root_created, created);
    EXPECT_LE(report.largest_yaw_error_degrees, kRootYawToleranceDegrees);
    EXPECT_LE(report.largest_root_error_metres, kRootYawToleranceMetres);
    const int root = created ? NodeNamed(extracted, "root") : 0;
    ASSERT_GE(root, 0);
    ASSERT_NE(FindChannel(extracted.clips[0], root, Path::kRotation), nullptr);
    for (const double seconds : {0.0, 0.5, 1.0}) {
      const std::vector<Vec3> before = WorldPositions(source, seconds);
      const std::vector<Vec3> after = WorldPositions(extracted, seconds);
      for (size_t n = 1; n < before.size(); ++n) {
        EXPECT_LT(Distance(after[n], before[n]), 1e-12) << created << " " << n << " at " << seconds;
      }
    }
    // The root carries the turn: at the hips' middle key it is turned by θ from its placement.
    const Channel* turned = FindChannel(extracted.clips[0], root, Path::kRotation);
    const auto middle = std::find(turned->times_seconds.begin(), turned->times_seconds.end(), 0.5);
    ASSERT_NE(middle, turned->times_seconds.end());
    const Quat want = Multiply(AxisAngle('Y', TurnOf(source, 0.5) * 180 / M_PI),
                               extracted.rig.nodes[static_cast<size_t>(root)].rest_rotation);
    EXPECT_LT(AngleBetween(LoadQuat(turned->key_value(
                               static_cast<size_t>(middle - turned->times_seconds.begin()))),
                           want),
              1e-12);
    for (const double seconds : kBetween) {
      const std::vector<Vec3> before = WorldPositions(source, seconds);
      const std::vector<Vec3> after = WorldPositions(extracted, seconds);
      for (size_t n = 1; n < before.size(); ++n) {
        EXPECT_LT(Distance(after[n], before[n]), BetweenKeysMetres(before, n))
            << created << " " << n << " at " << seconds;
      }
    }
  }
}

TEST(RootMotionTest, RootYawKeepsStepKeysAndMakesCubicLinear) {
  for (const Interpolation interpolation : {Interpolation::kStep, Interpolation::kCubicSpline}) {
    Asset source = TurningWalker();
    Channel& rotation = source.clips[0].channels.back();
    if (interpolation == Interpolation::kCubicSpline) {
      std::vector<double> values;  // zero tangents around each key value
      for (size_t k = 0; k < 3; ++k) {
        values.insert(values.end(), 4, 0.0);
        values.insert(values.end(), rotation.values.begin() + 4 * k,
                      rotation.values.begin() + 4 * k + 4);
        values.insert(values.end(), 4, 0.0);
      }
      rotation.values = values;
    }
    rotation.interpolation = interpolation;
    Asset in_place = source;
    RootMotionOptions options{RootMotionMode::kInPlace, "root"};
    options.remove_yaw = true;
    const RootMotionReport report = ApplyRootMotion(in_place, options);
    const Channel* unturned = FindChannel(in_place.clips[0], 1, Path::kRotation);
    if (interpolation == Interpolation::kStep) {
      EXPECT_EQ(unturned->interpolation, Interpolation::kStep);
      EXPECT_EQ(unturned->times_seconds, source.clips[0].channels.back().times_seconds);
      EXPECT_EQ(report.yaw_keys_added, 0u);
    } else {
      EXPECT_EQ(unturned->interpolation, Interpolation::kLinear);
      EXPECT_GT(report.yaw_keys_added, 0u);
    }
    ExpectInPlaceAndUnturnedBetweenKeys(source, in_place);
  }
}

TEST(RootMotionTest, RootYawRefusesAnUnevenlyScaledAncestor) {
  Asset asset = TurningWalker();
  asset.rig.nodes[0].rest_scale = {0.01, 0.02, 0.01};
  RootMotionOptions options{RootMotionMode::kInPlace, "root"};
  options.remove_yaw = true;
  EXPECT_EQ(ErrorKindOf([&] { ApplyRootMotion(asset, options); }), ErrorKind::kUsage);
  // Without --root-yaw the travel alone is moved, which a linear map does exactly.
  EXPECT_EQ(ApplyRootMotion(asset, {RootMotionMode::kInPlace, "root"}).clips_changed, 1);
}

}  // namespace
}  // namespace animconv
