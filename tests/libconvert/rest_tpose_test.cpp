// LimbsOffTPose (libconvert/rest_tpose.h): the limbs a rest pose holds away from the T-pose that
// retargeting takes it for, and the warning a retarget gives for them.
#include "libconvert/rest_tpose.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "animconv/humanoid_pose.h"
#include "animconv/retarget.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<HumanBone> Arms() {
  return {HumanBone::kHips,          HumanBone::kSpine,     HumanBone::kChest,
          HumanBone::kNeck,          HumanBone::kHead,      HumanBone::kLeftUpperArm,
          HumanBone::kLeftLowerArm,  HumanBone::kLeftHand,  HumanBone::kRightUpperArm,
          HumanBone::kRightLowerArm, HumanBone::kRightHand, HumanBone::kLeftUpperLeg,
          HumanBone::kLeftLowerLeg,  HumanBone::kLeftFoot,  HumanBone::kRightUpperLeg,
          HumanBone::kRightLowerLeg, HumanBone::kRightFoot};
}

// The left arm lowered `degrees` at the shoulder (about the facing axis), the rest as generated.
Rig LeftArmDown(Facing facing, double degrees) {
  Rig rig = MakeHumanoidTPoseRig(Arms(), facing);
  const double half = degrees * kPi / 360;
  // +Z facing: the left arm along +X comes down by turning about -Z; -Z facing mirrors it.
  const double sign = facing == Facing::kMinusZ ? 1 : -1;
  rig.nodes[static_cast<size_t>(HumanBoneNode(rig, HumanBone::kLeftUpperArm))].rest_rotation = {
      0, 0, sign * std::sin(half), std::cos(half)};
  return rig;
}

TEST(RestTPoseTest, ATPoseHasNoLimbAwayFromIt) {
  for (const Facing facing : {Facing::kPlusZ, Facing::kMinusZ}) {
    const Rig rig = MakeHumanoidTPoseRig(Arms(), facing);
    EXPECT_TRUE(LimbsOffTPose(rig, facing, 0.001).empty());
  }
  Rig unknown = MakeHumanoidTPoseRig(Arms(), Facing::kPlusZ);
  EXPECT_TRUE(LimbsOffTPose(unknown, Facing::kUnknown, 0.001).empty());  // counts as +Z
  // Measured for the other facing, the arms point the wrong way (180 degrees); legs do not care.
  const std::vector<RestLimbAngle> turned =
      LimbsOffTPose(MakeHumanoidTPoseRig(Arms(), Facing::kMinusZ), Facing::kPlusZ, 10);
  ASSERT_EQ(turned.size(), 4u);
  EXPECT_NEAR(turned[0].degrees, 180, 1e-9);
  unknown.rest_pose_known = false;  // no rest pose: nothing to measure
  EXPECT_TRUE(LimbsOffTPose(unknown, Facing::kPlusZ, 0.001).empty());
}

// An arm lowered 84 degrees (a mocap BVH standing arms down): both of its segments, at their
// angle, largest first; one lowered 5 degrees stays under a 10 degree threshold.
TEST(RestTPoseTest, AnArmHangingDownIsMeasuredFromTheTPose) {
  for (const Facing facing : {Facing::kPlusZ, Facing::kMinusZ}) {
    const std::vector<RestLimbAngle> limbs = LimbsOffTPose(LeftArmDown(facing, 84), facing, 10);
    ASSERT_EQ(limbs.size(), 2u);
    EXPECT_EQ(limbs[0].bone, HumanBone::kLeftUpperArm);
    EXPECT_EQ(limbs[1].bone, HumanBone::kLeftLowerArm);
    EXPECT_NEAR(limbs[0].degrees, 84, 1e-9);
    EXPECT_NEAR(limbs[1].degrees, 84, 1e-9);
    EXPECT_TRUE(LimbsOffTPose(LeftArmDown(facing, 5), facing, 10).empty());
  }
  EXPECT_EQ(LimbsOffTPoseWarning({}, "the input's"), "");
}

// A retarget warns about either rig's rest pose (the review's mocap BVH onto a VRM: the arms
// played 84 degrees off with exit 0 and info lines only).
TEST(RestTPoseTest, ARetargetWarnsAboutEitherRestPose) {
  Asset source;
  source.rig = LeftArmDown(Facing::kPlusZ, 84);
  source.coordinates = {Handedness::kRight, Facing::kPlusZ};
  const Rig target = MakeHumanoidTPoseRig(Arms(), Facing::kPlusZ);
  RetargetReport report;
  RetargetClips(source, target, Facing::kPlusZ, {}, &report);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("the input's rest pose holds 2 limb segment(s) away from the "
                                    "T-pose (leftUpperArm 84 deg, leftLowerArm 84 deg)"),
            std::string::npos)
      << report.warnings[0];
  Asset tpose;
  tpose.rig = target;
  tpose.coordinates = source.coordinates;
  RetargetReport onto_arms_down;
  RetargetClips(tpose, source.rig, Facing::kPlusZ, {}, &onto_arms_down);
  ASSERT_EQ(onto_arms_down.warnings.size(), 1u);
  EXPECT_NE(onto_arms_down.warnings[0].find("the target's rest pose"), std::string::npos);
}

}  // namespace
}  // namespace animconv
