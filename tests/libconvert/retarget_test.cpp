// Property tests of the normalised-space retargeting (animconv/retarget.h): what must survive a
// change of rig is every humanoid bone's world-space turn away from its rest orientation.
#include "animconv/retarget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::WorldDelta;

Quat RandomRotation(std::mt19937& random) {
  std::normal_distribution<double> normal;
  return Normalized({normal(random), normal(random), normal(random), normal(random)});
}

std::vector<HumanBone> AllBones() {
  std::vector<HumanBone> bones;
  for (int b = 0; b < kHumanBoneCount; ++b) bones.push_back(static_cast<HumanBone>(b));
  return bones;
}

// The same T-pose (world positions and orientations of every bone's frame differ, but the
// skeleton stands the same), with each bone's frame turned at random: the rest local rotations of
// a rig exported from another tool.
Rig WithRandomRestRotations(const Rig& normalized, std::mt19937& random) {
  Rig rig = normalized;
  const RestPose rest(normalized);
  std::vector<Quat> frame(rig.nodes.size());
  for (Quat& q : frame) q = RandomRotation(random);
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const int parent = rig.nodes[n].parent;
    const Quat parent_frame = parent < 0 ? Quat{0, 0, 0, 1} : frame[static_cast<size_t>(parent)];
    // World frame F_n: local rotation R = F_parent⁻¹·F_n, local offset in the parent's frame.
    rig.nodes[n].rest_rotation = Multiply(Conjugate(parent_frame), frame[n]);
    Vec3 offset = rest.WorldPosition(static_cast<int>(n));
    if (parent >= 0) {
      const Vec3 p = rest.WorldPosition(parent);
      offset = {offset[0] - p[0], offset[1] - p[1], offset[2] - p[2]};
    }
    rig.nodes[n].rest_translation = Rotate(Conjugate(parent_frame), offset);
  }
  return rig;
}

// A clip turning every bone of `rig` at random, keyed at 0, 0.5 and 1 s.
Clip RandomClip(const Rig& rig, std::mt19937& random) {
  return testing::ClipOfRotations(rig, [&random] { return RandomRotation(random); });
}

Quat TurnY(const Quat& q) { return {-q[0], q[1], -q[2], q[3]}; }

void ExpectSameRotation(const Quat& expected, const Quat& actual, const std::string& what) {
  EXPECT_LT(AngleBetween(Normalized(expected), Normalized(actual)), 1e-5) << what;
}

Asset SourceAsset(const Rig& rig, Clip clip, Facing facing) {
  Asset asset;
  asset.rig = rig;
  asset.rig.rest_pose_known = true;
  asset.clips = {std::move(clip)};
  asset.coordinates = {Handedness::kRight, facing};
  return asset;
}

TEST(RetargetTest, RandomRestRotationsKeepWorldOrientationsAndRoundTrip) {
  std::mt19937 random(7);
  const Rig normalized = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  for (int trial = 0; trial < 5; ++trial) {
    const Rig raw = WithRandomRestRotations(normalized, random);
    const Asset source = SourceAsset(normalized, RandomClip(normalized, random), Facing::kPlusZ);
    RetargetReport report;
    const std::vector<Clip> on_raw =
        RetargetClips(source, raw, Facing::kPlusZ, RetargetOptions{}, &report);
    ASSERT_EQ(on_raw.size(), 1u);
    EXPECT_EQ(report.bones, static_cast<size_t>(kHumanBoneCount));
    const Asset back_source = SourceAsset(raw, on_raw[0], Facing::kPlusZ);
    const std::vector<Clip> back =
        RetargetClips(back_source, normalized, Facing::kPlusZ, RetargetOptions{}, nullptr);
    for (const double seconds : {0.0, 0.25, 0.5, 1.0}) {
      for (const HumanBone bone : AllBones()) {
        const Quat expected = WorldDelta(normalized, source.clips[0], seconds, bone);
        const std::string what = std::string(GetHumanBoneInfo(bone).unity) + " at " +
                                 std::to_string(seconds) + " s, trial " + std::to_string(trial);
        ExpectSameRotation(expected, WorldDelta(raw, on_raw[0], seconds, bone), what);
        ExpectSameRotation(expected, WorldDelta(normalized, back[0], seconds, bone),
                           "round trip " + what);
      }
    }
  }
}

TEST(RetargetTest, CubicSplineSourceIsACallersBug) {
  std::mt19937 random(3);
  const Rig rig = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  Asset source = SourceAsset(rig, RandomClip(rig, random), Facing::kPlusZ);
  Channel& channel = source.clips[0].channels[0];
  channel.interpolation = Interpolation::kCubicSpline;
  channel.values.resize(channel.values.size() * 3);  // in-tangent, value, out-tangent per key
  EXPECT_EQ(testing::ErrorKindOf(
                [&] { RetargetClips(source, rig, Facing::kPlusZ, RetargetOptions{}, nullptr); }),
            ErrorKind::kInternal);
}

TEST(RetargetTest, SourceWithoutRestPoseIsNormalised) {
  std::mt19937 random(11);
  Rig generated = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  Asset source = SourceAsset(generated, RandomClip(generated, random), Facing::kPlusZ);
  // A Unity CSV: no rest pose at all, identity everywhere.
  for (Node& node : source.rig.nodes) node.rest_translation = {0, 0, 0};
  source.rig.rest_pose_known = false;
  const std::vector<Clip> clips =
      RetargetClips(source, generated, Facing::kPlusZ, RetargetOptions{}, nullptr);
  // Every bone comes through, with every key: an empty or short result must not pass the loop.
  ASSERT_EQ(clips.size(), 1u);
  ASSERT_EQ(clips[0].channels.size(), source.clips[0].channels.size());
  for (size_t c = 0; c < clips[0].channels.size(); ++c) {
    const Channel& out = clips[0].channels[c];
    const Channel& in = source.clips[0].channels[static_cast<size_t>(out.node)];
    ASSERT_EQ(out.key_count(), in.key_count()) << "channel " << c;
    for (size_t k = 0; k < out.key_count(); ++k) {
      ExpectSameRotation(LoadQuat(in.key_value(k)), LoadQuat(out.key_value(k)), "identity");
    }
  }
}

TEST(RetargetTest, FacingRoundTripBetweenVrm0AndVrm1) {
  std::mt19937 random(3);
  const Rig plus_z = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  const Rig minus_z =
      WithRandomRestRotations(MakeHumanoidTPoseRig(AllBones(), Facing::kMinusZ), random);
  const Asset source = SourceAsset(plus_z, RandomClip(plus_z, random), Facing::kPlusZ);
  const std::vector<Clip> on_vrm0 =
      RetargetClips(source, minus_z, Facing::kMinusZ, RetargetOptions{}, nullptr);
  const std::vector<Clip> back = RetargetClips(SourceAsset(minus_z, on_vrm0[0], Facing::kMinusZ),
                                               plus_z, Facing::kPlusZ, RetargetOptions{}, nullptr);
  for (const double seconds : {0.0, 0.5, 0.8}) {
    for (const HumanBone bone : AllBones()) {
      const Quat expected = WorldDelta(plus_z, source.clips[0], seconds, bone);
      // The -Z model performs the same motion turned 180° about Y.
      ExpectSameRotation(TurnY(expected), WorldDelta(minus_z, on_vrm0[0], seconds, bone),
                         std::string(GetHumanBoneInfo(bone).unity));
      ExpectSameRotation(expected, WorldDelta(plus_z, back[0], seconds, bone), "round trip");
    }
  }
}

TEST(RetargetTest, BoneMissingOnTargetPassesItsRotationToChildren) {
  std::mt19937 random(5);
  const Rig full = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  std::vector<HumanBone> fewer;
  for (const HumanBone bone : AllBones()) {
    if (bone != HumanBone::kUpperChest && bone != HumanBone::kChest) fewer.push_back(bone);
  }
  const Rig target = WithRandomRestRotations(MakeHumanoidTPoseRig(fewer, Facing::kPlusZ), random);
  const Asset source = SourceAsset(full, RandomClip(full, random), Facing::kPlusZ);
  RetargetReport report;
  const std::vector<Clip> clips =
      RetargetClips(source, target, Facing::kPlusZ, RetargetOptions{}, &report);
  EXPECT_EQ(report.folded, 2u);
  for (const HumanBone bone :
       {HumanBone::kNeck, HumanBone::kHead, HumanBone::kLeftShoulder, HumanBone::kRightHand}) {
    // Keys come from the union of the folded channels' times; between keys the product of two
    // slerps is sampled, so compare at every key time (RandomClip keys 0, 0.5 and 1 s).
    for (const double seconds : {0.0, 0.5, 1.0}) {
      ExpectSameRotation(WorldDelta(full, source.clips[0], seconds, bone),
                         WorldDelta(target, clips[0], seconds, bone),
                         std::string(GetHumanBoneInfo(bone).unity));
    }
  }
}

// A BVH's joints that no humanoid bone names (CMU's LowerBack and Neck1, a Biovision Chest4)
// still turn everything below them: their rotation must reach the target.
TEST(RetargetTest, UnmappedSourceJointsBetweenBonesKeepTheirRotation) {
  std::mt19937 random(11);
  Rig source = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  const auto node_of = [&source](HumanBone bone) {
    for (size_t n = 0; n < source.nodes.size(); ++n) {
      if (source.nodes[n].human_bone == bone) return static_cast<int>(n);
    }
    return -1;
  };
  // "Chest4" between upperChest and its children, "LHipJoint" between hips and the left leg.
  for (const auto& [name, above, below] :
       {std::tuple<const char*, HumanBone, std::vector<HumanBone>>{
            "Chest4",
            HumanBone::kUpperChest,
            {HumanBone::kNeck, HumanBone::kLeftShoulder, HumanBone::kRightShoulder}},
        {"LHipJoint", HumanBone::kHips, {HumanBone::kLeftUpperLeg}}}) {
    Node joint;
    joint.name = name;
    joint.parent = node_of(above);
    // At rest the joint turns nothing, so the skeleton still stands in the T-pose (a turned one
    // would hold the limbs below it away from the T-pose, which retargeting aligns:
    // rest_tpose_test); its channel turns it at random like every other.
    source.nodes.push_back(joint);
    for (const HumanBone child : below) {
      source.nodes[static_cast<size_t>(node_of(child))].parent =
          static_cast<int>(source.nodes.size() - 1);
    }
  }
  const Rig target =
      WithRandomRestRotations(MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ), random);
  const Asset asset = SourceAsset(source, RandomClip(source, random), Facing::kPlusZ);
  const std::vector<Clip> clips =
      RetargetClips(asset, target, Facing::kPlusZ, RetargetOptions{}, nullptr);
  for (const HumanBone bone : {HumanBone::kNeck, HumanBone::kHead, HumanBone::kLeftHand,
                               HumanBone::kRightShoulder, HumanBone::kLeftFoot}) {
    for (const double seconds : {0.0, 0.5, 1.0}) {
      ExpectSameRotation(WorldDelta(source, asset.clips[0], seconds, bone),
                         WorldDelta(target, clips[0], seconds, bone),
                         std::string(GetHumanBoneInfo(bone).unity));
    }
  }
  // The consuming form gives the same clips, to the bit. A channel one bone takes alone (the
  // left hand's) leaves the source; one that several bones read (Chest4's: the neck's and both
  // shoulders') and one a bone reads with another (the left upper leg's, with LHipJoint's) stay.
  Asset consumed = asset;
  const std::vector<Clip> taken =
      RetargetClipsConsuming(consumed, target, Facing::kPlusZ, RetargetOptions{}, nullptr);
  ASSERT_EQ(taken.size(), 1u);
  ASSERT_EQ(taken[0].channels.size(), clips[0].channels.size());
  for (size_t c = 0; c < clips[0].channels.size(); ++c) {
    EXPECT_EQ(taken[0].channels[c].node, clips[0].channels[c].node);
    EXPECT_EQ(taken[0].channels[c].interpolation, clips[0].channels[c].interpolation);
    EXPECT_EQ(taken[0].channels[c].times_seconds, clips[0].channels[c].times_seconds);
    EXPECT_EQ(taken[0].channels[c].values, clips[0].channels[c].values) << c;
  }
  const auto source_channel = [&](int node) -> const Channel& {
    for (const Channel& channel : consumed.clips[0].channels) {
      if (channel.node == node && channel.path == Path::kRotation) return channel;
    }
    ADD_FAILURE() << "no rotation channel of node " << node;
    return consumed.clips[0].channels[0];
  };
  const auto named = [&](const char* name) {
    for (size_t n = 0; n < source.nodes.size(); ++n) {
      if (source.nodes[n].name == name) return static_cast<int>(n);
    }
    return -1;
  };
  EXPECT_TRUE(source_channel(node_of(HumanBone::kLeftHand)).values.empty());
  EXPECT_FALSE(source_channel(named("Chest4")).values.empty());
  EXPECT_FALSE(source_channel(node_of(HumanBone::kLeftUpperLeg)).values.empty());
}

TEST(RetargetTest, BoneMissingInSourceKeepsTargetRest) {
  const Rig target = MakeHumanoidTPoseRig(AllBones(), Facing::kPlusZ);
  Rig source_rig = MakeHumanoidTPoseRig({HumanBone::kHips, HumanBone::kSpine}, Facing::kPlusZ);
  Clip clip;
  Channel spine;
  spine.node = 1;
  spine.width = 4;
  spine.times_seconds = {0};
  spine.values = {0, 0, 0.6, 0.8};
  clip.channels = {spine};
  const std::vector<Clip> clips = RetargetClips(SourceAsset(source_rig, clip, Facing::kPlusZ),
                                                target, Facing::kPlusZ, RetargetOptions{}, nullptr);
  ASSERT_EQ(clips[0].channels.size(), 1u);
  EXPECT_EQ(target.nodes[static_cast<size_t>(clips[0].channels[0].node)].human_bone,
            HumanBone::kSpine);
}

TEST(RetargetTest, HipsTranslationScaledByHipsHeightThroughParentSpace) {
  Rig source = MakeHumanoidTPoseRig({HumanBone::kHips}, Facing::kPlusZ);  // hips at 0.95 m
  Rig target = MakeHumanoidTPoseRig({HumanBone::kHips}, Facing::kMinusZ);
  // The target's hips hang under a root turned 90° about X and scaled 0.01 (an FBX-style
  // centimetre armature), with the hips 1.90 m up in world space.
  Node root;
  root.name = "Armature";
  root.rest_rotation = {std::sqrt(0.5), 0, 0, std::sqrt(0.5)};
  root.rest_scale = {0.01, 0.01, 0.01};
  target.nodes.push_back(root);
  target.nodes[0].parent = 1;
  target.nodes[0].rest_translation = Rotate(Conjugate(root.rest_rotation), {0, 190, 0});
  Clip clip;
  Channel translation;
  translation.node = 0;
  translation.path = Path::kTranslation;
  translation.width = 3;
  translation.times_seconds = {0, 1};
  translation.values = {0, 0.95, 0, 0.1, 1.0, 0.2};
  clip.channels = {translation};
  RetargetReport report;
  const std::vector<Clip> clips = RetargetClips(SourceAsset(source, clip, Facing::kPlusZ), target,
                                                Facing::kMinusZ, RetargetOptions{}, &report);
  ASSERT_TRUE(report.hips_scale);
  EXPECT_NEAR(*report.hips_scale, 2.0, 1e-12);
  ASSERT_EQ(clips[0].channels.size(), 1u);
  const Channel& out = clips[0].channels[0];
  const RestPose rest(target);
  // Expected world position: doubled, then turned to face -Z.
  const Vec3 world = rest.ParentToWorld(0, {out.values[3], out.values[4], out.values[5]});
  EXPECT_NEAR(world[0], -0.2, 1e-9);
  EXPECT_NEAR(world[1], 2.0, 1e-9);
  EXPECT_NEAR(world[2], -0.4, 1e-9);
}

// --hips-scale leg: a source whose legs (thigh and shin) are half the target's, on the same hips
// and torso: the hips translation is doubled (the stride of the target's legs), where the hips
// heights would have scaled it less; none leaves it as it is; a rig without legs falls back to
// the hips heights with a note.
TEST(RetargetTest, HipsTranslationScaledByLegLengthOrNotAtAll) {
  const std::vector<HumanBone> bones = {HumanBone::kHips,          HumanBone::kLeftUpperLeg,
                                        HumanBone::kRightUpperLeg, HumanBone::kLeftLowerLeg,
                                        HumanBone::kRightLowerLeg, HumanBone::kLeftFoot,
                                        HumanBone::kRightFoot};
  const Rig target = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  Rig source = target;
  int hips = -1;
  double shortening = 0;  // of the left leg, which the hips come down by to stand on the floor
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    Node& node = source.nodes[n];
    const HumanBone bone = *node.human_bone;
    if (bone == HumanBone::kLeftLowerLeg || bone == HumanBone::kRightLowerLeg ||
        bone == HumanBone::kLeftFoot || bone == HumanBone::kRightFoot) {
      if (bone == HumanBone::kLeftLowerLeg || bone == HumanBone::kLeftFoot) {
        shortening -= 0.5 * node.rest_translation[1];
      }
      for (double& length : node.rest_translation) length *= 0.5;
    }
    if (bone == HumanBone::kHips) hips = static_cast<int>(n);
  }
  ASSERT_GE(hips, 0);
  ASSERT_GT(shortening, 0.3);
  source.nodes[static_cast<size_t>(hips)].rest_translation[1] -= shortening;
  Clip clip;
  const Vec3 rest_hips = source.nodes[static_cast<size_t>(hips)].rest_translation;
  clip.channels = {testing::MakeChannel(hips, Path::kTranslation, {0, 1},
                                        {rest_hips[0], rest_hips[1], rest_hips[2], rest_hips[0],
                                         rest_hips[1], rest_hips[2] + 0.5},  // 0.5 m forward
                                        3)};
  const auto forward = [&](HipsScale basis, RetargetReport* report) {
    RetargetOptions options;
    options.hips_scale = basis;
    const std::vector<Clip> clips = RetargetClips(SourceAsset(source, clip, Facing::kPlusZ), target,
                                                  Facing::kPlusZ, options, report);
    const std::vector<double>& out = clips[0].channels[0].values;
    return out[5] - out[2];
  };
  RetargetReport legs;
  EXPECT_NEAR(forward(HipsScale::kLegLength, &legs), 1.0, 1e-12);
  ASSERT_TRUE(legs.hips_scale);
  EXPECT_NEAR(*legs.hips_scale, 2.0, 1e-12);
  EXPECT_EQ(legs.hips_scale_basis, HipsScale::kLegLength);
  EXPECT_NEAR(legs.target_length_metres, 2 * legs.source_length_metres, 1e-12);
  RetargetReport height;
  const double by_height = forward(HipsScale::kHipsHeight, &height);
  EXPECT_EQ(height.hips_scale_basis, HipsScale::kHipsHeight);
  // The hips heights differ by the legs' shortening only, so they scale the stride less.
  EXPECT_GT(by_height, 0.55);
  EXPECT_LT(by_height, 0.95);
  RetargetReport none;
  EXPECT_NEAR(forward(HipsScale::kNone, &none), 0.5, 1e-12);
  EXPECT_FALSE(none.hips_scale);

  // No legs on the source: the hips heights, and a note saying so.
  const Rig hips_only = MakeHumanoidTPoseRig({HumanBone::kHips}, Facing::kPlusZ);
  Clip hips_clip = clip;
  hips_clip.channels[0].node = 0;
  RetargetOptions options;
  options.hips_scale = HipsScale::kLegLength;
  RetargetReport fallback;
  RetargetClips(SourceAsset(hips_only, hips_clip, Facing::kPlusZ), target, Facing::kPlusZ, options,
                &fallback);
  EXPECT_EQ(fallback.hips_scale_basis, HipsScale::kHipsHeight);
  ASSERT_EQ(fallback.notes.size(), 1u);
  EXPECT_NE(fallback.notes[0].find("the source has no upper leg, lower leg and foot"),
            std::string::npos)
      << fallback.notes[0];
}

// A mocap skeleton drawn around its hips (CMU BVH: root OFFSET 0, the feet below the origin at
// rest, the floor at the origin in the motion): its hips height is measured from its feet, so a
// half-size recording lands on a full-size rig with its hips at the rig's height, not 0.5 m under
// it (the "hips not scaled" of a rest hips height of 0, issue "silent wrong results" item 1).
TEST(RetargetTest, HipsHeightOfARestPoseAroundTheOriginIsMeasuredFromTheFeet) {
  const std::vector<HumanBone> bones = {
      HumanBone::kHips,         HumanBone::kLeftUpperLeg,  HumanBone::kRightUpperLeg,
      HumanBone::kLeftLowerLeg, HumanBone::kRightLowerLeg, HumanBone::kLeftFoot,
      HumanBone::kRightFoot,    HumanBone::kLeftToes,      HumanBone::kRightToes};
  const Rig target = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  Rig source = target;
  int hips = -1;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    Node& node = source.nodes[n];
    for (double& length : node.rest_translation) length *= 0.5;
    if (node.human_bone == HumanBone::kHips) hips = static_cast<int>(n);
  }
  ASSERT_GE(hips, 0);
  source.nodes[static_cast<size_t>(hips)].rest_translation = {0, 0, 0};
  const RestPose target_rest(target);
  const double target_hips_height = target_rest.WorldPosition(hips)[1];
  // The source's lowest rest foot point (a toe joint) is where its floor is taken.
  const RestPose source_rest(source);
  double source_feet = 0;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    source_feet = std::min(source_feet, source_rest.WorldPosition(static_cast<int>(n))[1]);
  }
  ASSERT_LT(source_feet, -0.4);
  const double source_hips_height = -source_feet;
  const double scale = target_hips_height / source_hips_height;  // ~2: the target stands on 0

  Clip clip;
  Channel translation;
  translation.node = hips;
  translation.path = Path::kTranslation;
  translation.width = 3;
  translation.times_seconds = {0, 1};
  // Standing at rest height, then 0.1 m (source size) further up and forward.
  translation.values = {0, source_hips_height, 0, 0, source_hips_height + 0.1, 0.1};
  clip.channels = {translation};
  RetargetReport report;
  const std::vector<Clip> clips = RetargetClips(SourceAsset(source, clip, Facing::kPlusZ), target,
                                                Facing::kPlusZ, RetargetOptions{}, &report);
  ASSERT_TRUE(report.hips_scale);
  EXPECT_NEAR(*report.hips_scale, scale, 1e-12);
  EXPECT_NEAR(scale, 2.04, 0.01);
  EXPECT_TRUE(report.notes.empty());
  ASSERT_EQ(clips[0].channels.size(), 1u);
  const std::vector<double>& out = clips[0].channels[0].values;
  ASSERT_EQ(out.size(), 6u);
  EXPECT_NEAR(target_rest.ParentToWorld(hips, {out[0], out[1], out[2]})[1], target_hips_height,
              1e-12);
  const Vec3 raised = target_rest.ParentToWorld(hips, {out[3], out[4], out[5]});
  EXPECT_NEAR(raised[1], target_hips_height + 0.1 * scale, 1e-12);
  EXPECT_NEAR(raised[2], 0.1 * scale, 1e-12);
}

// A VRM or VRMA rig (Rig::vrm_humanoid) is measured as three-vrm measures it, the rest hips'
// world y from the origin (restHipsPosition.y), whatever its feet do: a VRMA whose hips hang under
// a root node 0.1 m below the origin (feet under it) played 6.6 cm off when measured from its feet.
// The same rig not from a VRM keeps the feet rule, and the report says where its floor was.
TEST(RetargetTest, HipsHeightOfAVrmRigIsTheRestHipsWorldHeight) {
  const std::vector<HumanBone> bones = {
      HumanBone::kHips,         HumanBone::kLeftUpperLeg,  HumanBone::kRightUpperLeg,
      HumanBone::kLeftLowerLeg, HumanBone::kRightLowerLeg, HumanBone::kLeftFoot,
      HumanBone::kRightFoot,    HumanBone::kLeftToes,      HumanBone::kRightToes};
  const Rig target = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  Rig source = target;
  Node root;
  root.name = "root";
  root.rest_translation = {0, -0.1, 0};
  source.nodes.push_back(root);
  const int root_index = static_cast<int>(source.nodes.size()) - 1;
  int hips = -1;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    if (source.nodes[n].human_bone == HumanBone::kHips) hips = static_cast<int>(n);
  }
  ASSERT_GE(hips, 0);
  source.nodes[static_cast<size_t>(hips)].parent = root_index;
  const double target_hips_height = RestPose(target).WorldPosition(hips)[1];
  const double source_hips_height = RestPose(source).WorldPosition(hips)[1];
  ASSERT_NEAR(source_hips_height, target_hips_height - 0.1, 1e-12);

  Clip clip;
  Channel translation;
  translation.node = hips;
  translation.path = Path::kTranslation;
  translation.width = 3;
  translation.times_seconds = {0};
  translation.values = {0, target_hips_height, 0};
  clip.channels = {translation};
  for (const bool vrm : {true, false}) {
    source.vrm_humanoid = vrm;
    RetargetReport report;
    RetargetClips(SourceAsset(source, clip, Facing::kPlusZ), target, Facing::kPlusZ,
                  RetargetOptions{}, &report);
    ASSERT_TRUE(report.hips_scale);
    if (vrm) {
      EXPECT_NEAR(*report.hips_scale, target_hips_height / source_hips_height, 1e-12);
      EXPECT_FALSE(report.source_feet_floor_metres);
    } else {
      ASSERT_TRUE(report.source_feet_floor_metres);
      EXPECT_LT(*report.source_feet_floor_metres, 0);
      EXPECT_NEAR(*report.hips_scale,
                  target_hips_height / (source_hips_height - *report.source_feet_floor_metres),
                  1e-12);
    }
  }
}

TEST(RetargetTest, NonHumanoidChannelsGoToSameNamedNodesOnly) {
  Rig source = MakeHumanoidTPoseRig({HumanBone::kHips}, Facing::kPlusZ);
  Node tail;
  tail.name = "Tail";
  tail.parent = 0;
  source.nodes.push_back(tail);
  Node ear = tail;
  ear.name = "Ear";
  source.nodes.push_back(ear);
  Rig target = source;
  target.nodes.pop_back();  // no "Ear"
  Clip clip;
  for (int node : {1, 2}) {
    Channel channel;
    channel.node = node;
    channel.width = 4;
    channel.times_seconds = {0};
    channel.values = {0, 0, 0, 1};
    clip.channels.push_back(channel);
  }
  RetargetReport report;
  const std::vector<Clip> clips = RetargetClips(SourceAsset(source, clip, Facing::kPlusZ), target,
                                                Facing::kPlusZ, RetargetOptions{}, &report);
  ASSERT_EQ(clips[0].channels.size(), 1u);
  EXPECT_EQ(clips[0].channels[0].node, 1);
  EXPECT_EQ(report.copied, 1u);
  EXPECT_EQ(report.dropped_channels, 1u);
}

}  // namespace
}  // namespace animconv
