// diff's lookAt played on eyes (pipeline/diff_look_at.h): the eye turns a player gives a lookAt,
// and no play where one side has no eyes or its lookAt moves no eye bone.
#include "pipeline/diff_look_at.h"

#include <gtest/gtest.h>

#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::FindChannel;
using testing::MakeChannel;

// A VRMA-like side: hips and head on the normalised rig, and a lookAt node whose gaze sweeps
// from straight ahead to (yaw, pitch).
Asset LookAtAsset(double yaw, double pitch) {
  Asset asset;
  asset.rig = MakeHumanoidTPoseRig({HumanBone::kHips, HumanBone::kHead}, Facing::kPlusZ);
  Node look_at;
  look_at.name = "lookAt";
  look_at.vrma_role = VrmaRole{VrmaRole::Kind::kLookAt, "lookAt", ""};
  asset.rig.nodes.push_back(look_at);
  asset.clips.resize(1);
  const Quat end = YawPitchRotation(yaw, pitch);
  asset.clips[0].channels.push_back(
      MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, end[0], end[1], end[2], end[3]}, 4));
  return asset;
}

Asset EyedAsset() {
  Asset asset;
  asset.rig = MakeHumanoidTPoseRig(
      {HumanBone::kHips, HumanBone::kHead, HumanBone::kLeftEye, HumanBone::kRightEye},
      Facing::kPlusZ);
  asset.clips.resize(1);
  return asset;
}

Quat EyeAt(const Asset& asset, HumanBone eye, double seconds) {
  const Channel* channel =
      FindChannel(asset.clips[0], HumanBoneNode(asset.rig, eye), Path::kRotation);
  EXPECT_NE(channel, nullptr);
  double value[4] = {0, 0, 0, 1};
  if (channel) EvaluateChannel(*channel, seconds, value);
  return LoadQuat(value);
}

TEST(DiffLookAtTest, ALookAtTurnsEyes1To1ForARigWithoutALookAt) {
  Asset look_at = LookAtAsset(20, -10);
  EXPECT_EQ(PlayLookAtOnEyes(look_at, EyedAsset()), LookAtEyeMapping::kOneToOne);
  EXPECT_LT(AngleBetween(EyeAt(look_at, HumanBone::kLeftEye, 1), YawPitchRotation(20, -10)), 1e-9);
  EXPECT_LT(AngleBetween(EyeAt(look_at, HumanBone::kRightEye, 0), {0, 0, 0, 1}), 1e-9);
  // The lookAt channel is gone: the eyes hold it now.
  EXPECT_EQ(look_at.clips[0].channels.size(), 2u);
}

TEST(DiffLookAtTest, ALookAtTurnsAVrmModelsEyesThroughItsRangeMaps) {
  Asset eyed = EyedAsset();
  VrmLookAt maps;
  maps.horizontal_inner = {90, 8};
  maps.horizontal_outer = {90, 12};
  maps.vertical_down = {60, 10};
  maps.vertical_up = {45, 15};
  eyed.vrm_look_at = maps;
  Asset look_at = LookAtAsset(45, 30);
  EXPECT_EQ(PlayLookAtOnEyes(look_at, eyed), LookAtEyeMapping::kRangeMaps);
  // A positive yaw turns the left eye outward (12/90 of it), the right one inward (8/90).
  EXPECT_LT(AngleBetween(EyeAt(look_at, HumanBone::kLeftEye, 1), YawPitchRotation(6, 10)), 1e-9);
  EXPECT_LT(AngleBetween(EyeAt(look_at, HumanBone::kRightEye, 1), YawPitchRotation(4, 10)), 1e-9);
}

TEST(DiffLookAtTest, NothingIsPlayedWithoutEyesOrWhenTheLookAtMovesNone) {
  Asset look_at = LookAtAsset(20, 0);
  Asset eyeless;
  eyeless.rig = MakeHumanoidTPoseRig({HumanBone::kHips, HumanBone::kHead}, Facing::kPlusZ);
  EXPECT_EQ(PlayLookAtOnEyes(look_at, eyeless), LookAtEyeMapping::kNone);
  Asset expression_look_at = EyedAsset();
  expression_look_at.vrm_look_at = VrmLookAt{};
  expression_look_at.vrm_look_at->type = VrmLookAt::Type::kExpression;
  EXPECT_EQ(PlayLookAtOnEyes(look_at, expression_look_at), LookAtEyeMapping::kNone);
  EXPECT_EQ(look_at.clips[0].channels.size(), 1u);  // untouched
  Asset eyed = EyedAsset();
  EXPECT_EQ(PlayLookAtOnEyes(eyed, LookAtAsset(20, 0)), LookAtEyeMapping::kNone);
}

}  // namespace
}  // namespace animconv
