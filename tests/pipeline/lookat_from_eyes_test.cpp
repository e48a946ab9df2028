// A VRMA's lookAt from the eye bones' rotations (pipeline/lookat_from_eyes.h).
#include "pipeline/lookat_from_eyes.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/euler.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::FindChannel;
using testing::MakeChannel;

constexpr double kDeg = 3.14159265358979323846 / 180;
const EulerOrder kYxz{{1, 0, 2}};

// yaw, pitch, roll in degrees, three.js Euler order YXZ.
Quat Gaze(double yaw, double pitch, double roll = 0) {
  return QuatFromEuler(kYxz, {yaw * kDeg, pitch * kDeg, roll * kDeg});
}

std::vector<double> Values(const std::vector<Quat>& quats) {
  std::vector<double> values;
  for (const Quat& q : quats) values.insert(values.end(), {q[0], q[1], q[2], q[3]});
  return values;
}

// hips, spine, head, leftEye, rightEye on the normalised T-pose; the head and both eyes keyed.
Asset EyesAsset(const std::vector<Quat>& left, const std::vector<Quat>& right) {
  Asset asset;
  asset.rig = MakeHumanoidTPoseRig({HumanBone::kHips, HumanBone::kSpine, HumanBone::kHead,
                                    HumanBone::kLeftEye, HumanBone::kRightEye},
                                   Facing::kPlusZ);
  asset.clips.resize(1);
  std::vector<double> times;
  for (size_t k = 0; k < left.size(); ++k) times.push_back(0.5 * static_cast<double>(k));
  const int head = HumanBoneNode(asset.rig, HumanBone::kHead);
  asset.clips[0].channels.push_back(
      MakeChannel(head, Path::kRotation, {0, 1}, Values({Gaze(0, 0), Gaze(10, 0)}), 4));
  asset.clips[0].channels.push_back(MakeChannel(HumanBoneNode(asset.rig, HumanBone::kLeftEye),
                                                Path::kRotation, times, Values(left), 4));
  asset.clips[0].channels.push_back(MakeChannel(HumanBoneNode(asset.rig, HumanBone::kRightEye),
                                                Path::kRotation, times, Values(right), 4));
  return asset;
}

Quat LookAtAt(const Asset& asset, double seconds) {
  int node = -1;
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    const auto& role = asset.rig.nodes[n].vrma_role;
    if (role && role->kind == VrmaRole::Kind::kLookAt) node = static_cast<int>(n);
  }
  EXPECT_GE(node, 0);
  const Channel* channel = FindChannel(asset.clips[0], node, Path::kRotation);
  EXPECT_NE(channel, nullptr);
  double value[4] = {0, 0, 0, 1};
  if (channel) EvaluateChannel(*channel, seconds, value);
  return LoadQuat(value);
}

TEST(LookAtFromEyesTest, GazeIsTheMeanOfTheEyesYawAndPitchAndTheEyesAreGone) {
  Asset asset = EyesAsset({Gaze(0, 0), Gaze(21, -9), Gaze(-30, 12)},
                          {Gaze(0, 0), Gaze(19, -11), Gaze(-28, 12)});
  EXPECT_TRUE(AnimatesEyes(asset));
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, nullptr, &diagnostics);
  EXPECT_FALSE(AnimatesEyes(asset));
  EXPECT_LT(HumanBoneNode(asset.rig, HumanBone::kLeftEye), 0);
  EXPECT_LT(HumanBoneNode(asset.rig, HumanBone::kRightEye), 0);
  ASSERT_EQ(asset.rig.nodes.size(), 4u);  // hips, spine, head, lookAt
  EXPECT_EQ(asset.rig.nodes.back().parent, -1);
  // The head's channel still animates the head.
  const int head = HumanBoneNode(asset.rig, HumanBone::kHead);
  ASSERT_NE(FindChannel(asset.clips[0], head, Path::kRotation), nullptr);
  EXPECT_EQ(asset.clips[0].channels.size(), 2u);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 0.5), Gaze(20, -10)), 1e-12);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 1.0), Gaze(-29, 12)), 1e-12);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("the eyes differ by up to 2 deg"), std::string::npos)
      << diagnostics[0].text;
  // Each eye plays 1 deg of yaw and 1 of pitch off its own at the keys (and more between them,
  // where the slerped eyes roll): past diff's 0.1 deg, so a warning that says how far.
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_NE(diagnostics[0].text.find("the eyes play up to"), std::string::npos)
      << diagnostics[0].text;
}

// Eyes that agree within the tolerance play as they were: a note, no warning.
TEST(LookAtFromEyesTest, EyesThatAgreeAreANote) {
  Asset asset = EyesAsset({Gaze(0, 0), Gaze(21, 0)}, {Gaze(0, 0), Gaze(21.1, 0)});
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, nullptr, &diagnostics);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kInfo) << diagnostics[0].text;
}

TEST(LookAtFromEyesTest, RollIsDroppedAndKeysAreAddedWhereTheSlerpWouldLeaveTheGaze) {
  // A rolling eye: between the keys its roll-free gaze is no slerp of the keys' gazes.
  const Quat start = Gaze(0, 0, 0);
  const Quat end = Gaze(60, 20, 80);
  Asset asset = EyesAsset({start, end}, {start, end});
  Channel original = asset.clips[0].channels[1];
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, nullptr, &diagnostics);
  const Channel* look_at = &asset.clips[0].channels.back();
  EXPECT_GT(look_at->key_count(), 2u);
  for (double seconds : {0.125, 0.25, 0.375}) {
    double eye[4];
    EvaluateChannel(original, seconds, eye);
    const auto angles = EulerFromQuat(kYxz, Normalized(LoadQuat(eye)), std::nullopt);
    const Quat want = QuatFromEuler(kYxz, {angles[0], angles[1], 0});
    EXPECT_LE(AngleBetween(LookAtAt(asset, seconds), want), 1e-4) << seconds;
  }
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("key(s) added"), std::string::npos) << diagnostics[0].text;
  EXPECT_NE(diagnostics[0].text.find("roll (up to 80 deg) is dropped"), std::string::npos)
      << diagnostics[0].text;
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);  // 80 deg of roll is motion lost
}

TEST(LookAtFromEyesTest, EyesFarApartAreAWarning) {
  Asset asset = EyesAsset({Gaze(0, 0), Gaze(20, 0)}, {Gaze(0, 0), Gaze(-20, 0)});
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, nullptr, &diagnostics);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 0.5), Gaze(0, 0)), 1e-12);
}

// A VRM model's eye clip: its eyes turned as its own lookAt turns them (a VRMA played on it), so
// the gaze is taken back through its range maps, each eye through its own (inner and outer
// differ), and the two agree. 1:1, the VRMA would turn the model's eyes again through the maps:
// by 12/90 of what they did.
TEST(LookAtFromEyesTest, AVrmModelsEyesAreTakenBackThroughItsRangeMaps) {
  VrmLookAt maps;
  maps.horizontal_inner = {90, 8};
  maps.horizontal_outer = {90, 12};
  maps.vertical_down = {60, 10};
  maps.vertical_up = {45, 15};
  const auto eye = [&](bool left, double yaw, double pitch) {
    const std::array<double, 2> angles = EyeAnglesForGaze(maps, left, yaw, pitch);
    return Gaze(angles[0], angles[1]);
  };
  // A sweep from (30, 20) to (-45, -30) deg, keyed every 0.5 s as EyesAsset keys.
  std::vector<Quat> left, right;
  for (int k = 0; k <= 20; ++k) {
    const double yaw = 30 - 3.75 * k, pitch = 20 - 2.5 * k;
    left.push_back(eye(true, yaw, pitch));
    right.push_back(eye(false, yaw, pitch));
  }
  Asset asset = EyesAsset(left, right);
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, &maps, &diagnostics);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 0), Gaze(30, 20)), 1e-9);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 2.5), Gaze(11.25, 7.5)), 1e-9);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 10), Gaze(-45, -30)), 1e-9);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kInfo) << diagnostics[0].text;
  EXPECT_NE(diagnostics[0].text.find("taken back through the input's lookAt range maps"),
            std::string::npos)
      << diagnostics[0].text;
}

// An eye turned past what its model's lookAt turns it by (12 deg outward) plays only as far as
// the maps reach: a warning with the fix.
TEST(LookAtFromEyesTest, EyesPastTheirModelsRangeAreAWarning) {
  VrmLookAt maps;
  maps.horizontal_inner = {90, 12};
  maps.horizontal_outer = {90, 12};
  Asset asset = EyesAsset({Gaze(0, 0), Gaze(20, 0)}, {Gaze(0, 0), Gaze(20, 0)});
  Diagnostics diagnostics;
  MoveEyesToLookAt(asset, &maps, &diagnostics);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 0.5), Gaze(90, 0)), 1e-9);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_NE(diagnostics[0].text.find("keep the eye bones with a glb or bvh output"),
            std::string::npos)
      << diagnostics[0].text;
}

// An expression lookAt turns no eye bone: that model's eye clip is taken 1:1.
TEST(LookAtFromEyesTest, AnExpressionLookAtsEyesAreTaken1To1) {
  VrmLookAt maps;
  maps.type = VrmLookAt::Type::kExpression;
  maps.horizontal_outer = {90, 1};
  Asset asset = EyesAsset({Gaze(0, 0), Gaze(20, 0)}, {Gaze(0, 0), Gaze(20, 0)});
  MoveEyesToLookAt(asset, &maps, nullptr);
  EXPECT_LT(AngleBetween(LookAtAt(asset, 0.5), Gaze(20, 0)), 1e-12);
}

TEST(LookAtFromEyesTest, StillEyesAreNotAnimated) {
  Asset asset = EyesAsset({Gaze(5, 5), Gaze(5, 5)}, {Gaze(5, 5), Gaze(5, 5)});
  EXPECT_FALSE(AnimatesEyes(asset));
}

}  // namespace
}  // namespace animconv
