// A VRMA's lookAt played onto a VRM model's eyes (pipeline/lookat_on_model.h), as three-vrm's
// VRMLookAtBoneApplier turns them.
#include "pipeline/lookat_on_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::FindChannel;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

Quat AxisAngle(const Vec3& axis, double degrees) {
  const double half = degrees * kPi / 360;
  return {axis[0] * std::sin(half), axis[1] * std::sin(half), axis[2] * std::sin(half),
          std::cos(half)};
}

// head (turned 30° about Z at rest) with two eyes (their own rest turns).
Rig EyesRig() {
  Rig rig;
  rig.rest_pose_known = true;
  rig.nodes.resize(3);
  rig.nodes[0].name = "head";
  rig.nodes[0].human_bone = HumanBone::kHead;
  rig.nodes[0].rest_rotation = AxisAngle({0, 0, 1}, 30);
  for (int e = 1; e <= 2; ++e) {
    rig.nodes[static_cast<size_t>(e)].parent = 0;
    rig.nodes[static_cast<size_t>(e)].name = e == 1 ? "eyeL" : "eyeR";
    rig.nodes[static_cast<size_t>(e)].human_bone =
        e == 1 ? HumanBone::kLeftEye : HumanBone::kRightEye;
    rig.nodes[static_cast<size_t>(e)].rest_rotation = AxisAngle({1, 0, 0}, 10.0 * e);
  }
  return rig;
}

VrmLookAt Maps() {
  VrmLookAt look_at;
  look_at.horizontal_inner = {90, 8};
  look_at.horizontal_outer = {60, 12};
  look_at.vertical_down = {90, 10};
  look_at.vertical_up = {45, 6};
  return look_at;
}

// P⁻¹ · turn · P · R for the head's rest P.
Quat OnRaw(const Rig& rig, int eye, const Quat& turn) {
  const Quat parent = rig.nodes[0].rest_rotation;
  return Multiply(Multiply(Multiply(Conjugate(parent), turn), parent),
                  rig.nodes[static_cast<size_t>(eye)].rest_rotation);
}

TEST(LookAtOnModelTest, YawGoesThroughTheOuterMapForTheLeftEyeAndTheInnerForTheRight) {
  const Rig rig = EyesRig();
  const Quat gaze = YawPitchRotation(30, 0);  // toward +X: the model's left
  // Left eye: outer, 12 · 30/60 = 6°; right eye: inner, 8 · 30/90.
  EXPECT_LT(AngleBetween(EyeRotationForGaze(rig, 1, true, Maps(), gaze),
                         OnRaw(rig, 1, YawPitchRotation(6, 0))),
            1e-12);
  EXPECT_LT(AngleBetween(EyeRotationForGaze(rig, 2, false, Maps(), gaze),
                         OnRaw(rig, 2, YawPitchRotation(8.0 / 3, 0))),
            1e-12);
}

TEST(LookAtOnModelTest, PitchSaturatesAndAVrm0ModelTurnsItToItsFront) {
  const Rig rig = EyesRig();
  VrmLookAt look_at = Maps();
  const Quat up = YawPitchRotation(0, 80);  // past the up map's 45°: its full 6°
  EXPECT_LT(AngleBetween(EyeRotationForGaze(rig, 1, true, look_at, up),
                         OnRaw(rig, 1, YawPitchRotation(0, 6))),
            1e-12);
  // Facing -Z, the same pitch turns about -X (F · Rx · F⁻¹, F = 180° about Y).
  look_at.faces_minus_z = true;
  EXPECT_LT(AngleBetween(EyeRotationForGaze(rig, 1, true, look_at, up),
                         OnRaw(rig, 1, YawPitchRotation(0, -6))),
            1e-12);
}

TEST(LookAtOnModelTest, ThePlayedEyesReplaceTheClipsAndFollowTheGazeBetweenKeys) {
  Asset model;
  model.rig = EyesRig();
  model.vrm_look_at = Maps();
  Asset out = model;
  out.clips.resize(1);
  out.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0}, {0, 0, 0, 1}, 4));  // replaced
  Node look_at_node;
  look_at_node.name = "lookAt";
  look_at_node.vrma_role = VrmaRole{VrmaRole::Kind::kLookAt, "lookAt", ""};
  std::vector<std::vector<Channel>> channels(1);
  const Quat a = YawPitchRotation(-50, 0);
  const Quat b = YawPitchRotation(50, 30);
  channels[0].push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]}, 4));
  Diagnostics diagnostics;
  PlayVrmaLookAtOnModel({look_at_node}, channels, model, "avatar.vrm", out, &diagnostics);
  ASSERT_EQ(out.clips[0].channels.size(), 2u);
  const Channel* left = FindChannel(out.clips[0], 1, Path::kRotation);
  ASSERT_NE(left, nullptr);
  // The yaw crosses 0 (inner map to outer): keys were added so the slerp follows.
  EXPECT_GT(left->key_count(), 2u);
  for (double seconds : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    double gaze[4];
    EvaluateChannel(channels[0][0], seconds, gaze);
    double eye[4];
    EvaluateChannel(*left, seconds, eye);
    EXPECT_LT(
        AngleBetween(LoadQuat(eye), EyeRotationForGaze(model.rig, 1, true, Maps(), LoadQuat(gaze))),
        1e-4)
        << seconds;
  }
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kInfo);
}

double WeightAt(const ExpressionWeightTrack& track, double seconds) {
  Channel channel = MakeChannel(0, Path::kTranslation, track.times_seconds, {}, 1);
  channel.values = track.weights;
  double value = 0;
  EvaluateChannel(channel, seconds, &value);
  return value;
}

TEST(LookAtOnModelTest, AnExpressionLookAtWeighsTheLookExpressionsAsThreeVrmDoes) {
  VrmLookAt maps = Maps();
  maps.type = VrmLookAt::Type::kExpression;
  maps.horizontal_outer = {60, 1};
  maps.vertical_up = {45, 0.8};
  maps.vertical_down = {90, 1};
  // Yaw from -90° to +30° (crossing 0 at a third, saturating outer's 60° before it), pitch from
  // -20° (up) to +40° (down).
  const Quat a = YawPitchRotation(-90, -20);
  const Quat b = YawPitchRotation(30, 40);
  const Channel look_at =
      MakeChannel(0, Path::kRotation, {0, 1}, {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]}, 4);
  size_t added = 0;
  const std::vector<ExpressionWeightTrack> tracks = LookExpressionTracks(look_at, maps, &added);
  ASSERT_EQ(tracks.size(), 4u);
  EXPECT_EQ(tracks[0].name, "lookUp");
  EXPECT_EQ(tracks[3].name, "lookRight");
  EXPECT_GT(added, 0u);
  EXPECT_NEAR(tracks[0].weights.front(), 0.8 * 20 / 45, 1e-9);  // up, through the up map
  EXPECT_EQ(tracks[1].weights.front(), 0);
  EXPECT_NEAR(tracks[3].weights.front(), 1, 1e-9);  // right, saturated
  EXPECT_NEAR(tracks[1].weights.back(), 40.0 / 90, 1e-9);
  EXPECT_NEAR(tracks[2].weights.back(), 30.0 / 60, 1e-9);
  // Between the keys the linear tracks follow the weights of the slerped gaze.
  for (double seconds = 0; seconds <= 1; seconds += 1.0 / 64) {
    double q[4];
    EvaluateChannel(look_at, seconds, q);
    const std::array<double, 3> angles = YawPitchRollDegrees(LoadQuat(q));
    const double yaw = angles[0], pitch = angles[1];
    EXPECT_NEAR(WeightAt(tracks[0], seconds), pitch < 0 ? std::min(1.0, -pitch / 45) * 0.8 : 0,
                1e-6);
    EXPECT_NEAR(WeightAt(tracks[2], seconds), yaw > 0 ? std::min(1.0, yaw / 60) : 0, 1e-6);
    EXPECT_NEAR(WeightAt(tracks[3], seconds), yaw < 0 ? std::min(1.0, -yaw / 60) : 0, 1e-6);
  }
}

TEST(LookAtOnModelTest, AModelWithoutALookAtOrWithoutEyesIsAWarning) {
  Asset model;
  model.rig = EyesRig();
  model.rig.nodes.resize(1);  // the head alone
  Asset out = model;
  out.clips.resize(1);
  Node look_at_node;
  look_at_node.vrma_role = VrmaRole{VrmaRole::Kind::kLookAt, "lookAt", ""};
  std::vector<std::vector<Channel>> channels(1);
  channels[0].push_back(MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  for (int variant = 0; variant < 2; ++variant) {
    if (variant == 1) model.vrm_look_at = Maps();  // a bone lookAt, and no eyes to turn
    Diagnostics diagnostics;
    EXPECT_TRUE(
        PlayVrmaLookAtOnModel({look_at_node}, channels, model, "avatar.vrm", out, &diagnostics)[0]
            .empty());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
    EXPECT_TRUE(out.clips[0].channels.empty());
  }
}

}  // namespace
}  // namespace animconv
