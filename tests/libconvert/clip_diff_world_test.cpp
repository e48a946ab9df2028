// DiffClips in world space (libconvert/clip_diff_world.cpp) against what three.js r187 shows of a
// node's world values (getWorldScale, getWorldQuaternion: Matrix4.decompose).
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "animconv/clip_diff.h"
#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

// The review's d2: P > C > D, C's scale held at `scale`, D at rest turned by an identity
// rotation channel (so its world rotation is compared); `turned` gives P and C rest rotations of
// +90° and -90° about y (the same world frames, other rest rotations: world space).
Asset Mirror(const Vec3& scale, bool turned) {
  Asset asset = MakeAsset({"P", "C", "D"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[2].parent = 1;
  asset.rig.nodes[2].rest_translation = {1, 0, 0};
  if (turned) {
    const double h = std::sqrt(0.5);
    asset.rig.nodes[0].rest_rotation = {0, h, 0, h};
    asset.rig.nodes[1].rest_rotation = {0, -h, 0, h};
  }
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(1, Path::kScale, {0, 1},
                                 {scale[0], scale[1], scale[2], scale[0], scale[1], scale[2]}, 3));
  channels.push_back(MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  return asset;
}

double Max(const ClipDiff& diff, const char* unit) { return diff.overall.at(unit).max; }

TEST(ClipDiffWorldTest, AMirroringScaleIsANegativeWorldScaleAsThreeJsDecomposesIt) {
  // Scale (-1, 1, 1) against (1, 1, 1): three.js's world scale -1 against 1 (ratio 2); the axes'
  // lengths alone are 1 and 1.
  const ClipDiff diff = DiffClips(Mirror({-1, 1, 1}, false), Mirror({-1, 1, 1}, false).clips[0],
                                  Mirror({1, 1, 1}, true), Mirror({1, 1, 1}, true).clips[0], {});
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NEAR(Max(diff, "ratio"), 2, 1e-12);
  EXPECT_NEAR(Max(diff, "deg"), 0, 1e-9);  // a mirror is no turn: three.js's rotation is identity
}

TEST(ClipDiffWorldTest, TwoMirroredAxesAreAHalfTurnOfEveryNodeBelow) {
  // Scale (-1, -1, 1) is a half turn about z written as two mirrors (determinant +1): three.js
  // decomposes C's and D's world matrices to scale 1 and a 180° rotation.
  const Asset a = Mirror({-1, -1, 1}, false);
  const Asset b = Mirror({1, 1, 1}, true);
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    const ClipDiff diff = DiffClips(*x, x->clips[0], *y, y->clips[0], {});
    EXPECT_NEAR(Max(diff, "ratio"), 0, 1e-12);
    EXPECT_NEAR(Max(diff, "deg"), 180, 1e-9);
  }
  // The same half turn played as a rotation is the same world motion.
  Asset rotated = Mirror({1, 1, 1}, false);
  rotated.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 1}, {0, 0, 1, 0, 0, 0, 1, 0}, 4));
  DiffOptions world;
  world.space = DiffSpace::kWorld;
  const ClipDiff same = DiffClips(a, a.clips[0], rotated, rotated.clips[0], world);
  EXPECT_NEAR(Max(same, "deg"), 0, 1e-9);
  EXPECT_NEAR(Max(same, "ratio"), 0, 1e-12);
  EXPECT_NEAR(Max(same, "m"), 0, 1e-12);
}

// The review's r3: a .vrma's hips hung under a node moved by (0.5, 0, 2). three-vrm-animation
// applies the hips parent's world matrix to the hips track, so the same local numbers play the
// hips 2.06 m away; the clip with that offset folded into its hips keys (what `convert` writes of
// it) plays them where the moved one does. `moved`: the hips under such a node; `folded`: the
// offset added to the keys of a root hips.
Asset Hips(bool moved, bool folded) {
  Asset asset = MakeAsset({"hips", "moved_root"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[0].rest_translation = {0, 1, 0};
  if (moved) {
    asset.rig.nodes[0].parent = 1;
    asset.rig.nodes[1].rest_translation = {0.5, 0, 2};
  }
  const double x = folded ? 0.5 : 0;
  const double z = folded ? 2 : 0;
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {x, 1, z, x + 0.3, 1.1, z}, 3));
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0.1, 0, 1}, 4));
  return asset;
}

TEST(ClipDiffWorldTest, AParentsRestTranslationMovesTheTranslationsItHolds) {
  const Asset root = Hips(false, false);
  const Asset moved = Hips(true, false);
  const Asset folded = Hips(false, true);
  const ClipDiff apart = DiffClips(root, root.clips[0], moved, moved.clips[0], {});
  EXPECT_EQ(apart.space, DiffSpace::kWorld) << apart.space_reason;
  EXPECT_NEAR(Max(apart, "m"), std::hypot(0.5, 2.0), 1e-12);
  EXPECT_NEAR(Max(apart, "deg"), 0, 1e-9);
  const ClipDiff same = DiffClips(moved, moved.clips[0], folded, folded.clips[0], {});
  EXPECT_EQ(same.space, DiffSpace::kWorld) << same.space_reason;
  EXPECT_NEAR(Max(same, "m"), 0, 1e-12);
  EXPECT_NEAR(Max(same, "deg"), 0, 1e-9);
  // Rotations alone do not care where the parent is: local space as before.
  Asset rotations_a = Hips(false, false);
  Asset rotations_b = Hips(true, false);
  for (Asset* asset : {&rotations_a, &rotations_b})
    asset->clips[0].channels.erase(asset->clips[0].channels.begin());
  EXPECT_EQ(
      DiffClips(rotations_a, rotations_a.clips[0], rotations_b, rotations_b.clips[0], {}).space,
      DiffSpace::kLocal);
}

// The same legs with toes a joint on one side and not on the other (a .vrma's skeleton written as
// a BVH keeps its toes only as a foot's End Site): one size, so the hips positions are compared
// as they are. Measured to the toes on one side and the ankles on the other, the legs looked
// 0.765 m and 0.70 m long and B's positions were scaled by 1.02 (the sweep's hips_under_root case).
Asset Legs(bool toes) {
  Asset asset = MakeAsset({"hips", "leftFoot", "leftToes"});
  if (!toes) asset.rig.nodes.pop_back();
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[0].rest_translation = {0, 0.75, 0};
  asset.rig.nodes[1].human_bone = HumanBone::kLeftFoot;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0.1, -0.70, 0};
  if (toes) {
    asset.rig.nodes[2].human_bone = HumanBone::kLeftToes;
    asset.rig.nodes[2].parent = 1;
    asset.rig.nodes[2].rest_translation = {0, -0.065, 0.1};  // 1.5 cm below the origin
  }
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0.75, 0, 0.3, 0.8, 0}, 3));
  return asset;
}

TEST(ClipDiffWorldTest, TheSameLegsWithAndWithoutAToeJointAreOneSize) {
  const Asset with_toes = Legs(true);
  const Asset without = Legs(false);
  const ClipDiff diff = DiffClips(with_toes, with_toes.clips[0], without, without.clips[0], {});
  EXPECT_EQ(diff.space_reason.find("rest hips heights differ"), std::string::npos)
      << diff.space_reason;
  EXPECT_NEAR(Max(diff, "m"), 0, 1e-12);
}

// The review's e1: two .vrma with the same expression node names, `happy` and `aa` listed on each
// other's node. three-vrm-animation plays each track as the weight of the expression it is
// listed under (the translation's x), so the faces differ by the tracks' difference.
Asset Expressions(bool swapped) {
  Asset asset = MakeAsset({"E_happy", "E_aa"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].vrma_role =
      VrmaRole{VrmaRole::Kind::kPresetExpression, swapped ? "aa" : "happy", ""};
  asset.rig.nodes[1].vrma_role =
      VrmaRole{VrmaRole::Kind::kPresetExpression, swapped ? "happy" : "aa", ""};
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1.5, 0.25, 0}, 3));
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kTranslation, {0, 1}, {0.5, 0, 0, 0.5, 0, 0}, 3));
  return asset;
}

TEST(ClipDiffWorldTest, VrmaExpressionsPairByTheirExpressionAndCompareAsWeights) {
  const Asset a = Expressions(false);
  const Asset b = Expressions(true);
  const ClipDiff diff = DiffClips(a, a.clips[0], b, b.clips[0], {});
  ASSERT_EQ(diff.channels.size(), 2u);
  for (const ChannelDiff& channel : diff.channels) {
    EXPECT_EQ(channel.unit, "weight") << channel.node;
    EXPECT_FALSE(channel.only_in_a || channel.only_in_b) << channel.node;
  }
  EXPECT_EQ(diff.channels[0].node, "E_happy");
  EXPECT_EQ(diff.channels[0].node_b, "E_aa");    // B's `happy`
  EXPECT_NEAR(Max(diff, "weight"), 1.0, 1e-12);  // 1.5 against 0.5 at 1 s; y never counts
  EXPECT_EQ(diff.overall.at("m").channels, 0u);
  ASSERT_FALSE(diff.bones.empty());
  EXPECT_NEAR(diff.bones[0].weight, 1.0, 1e-12);
  EXPECT_EQ(diff.bones[0].translation_m, 0);
  // Against itself: nothing.
  EXPECT_NEAR(Max(DiffClips(a, a.clips[0], a, a.clips[0], {}), "weight"), 0, 1e-12);
  // A STEP expression track plays linear in three-vrm-animation (its NumberKeyframeTrack takes no
  // interpolation): the same keys as STEP and as LINEAR are the same face.
  Asset step = a;
  for (Channel& channel : step.clips[0].channels) channel.interpolation = Interpolation::kStep;
  EXPECT_NEAR(Max(DiffClips(a, a.clips[0], step, step.clips[0], {}), "weight"), 0, 1e-12);
}

}  // namespace
}  // namespace animconv
