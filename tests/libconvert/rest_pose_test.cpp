// FacingFromRestPose (animconv/rest_pose.h): which way a humanoid rig faces from where its
// left and right limbs are.
#include "animconv/rest_pose.h"

#include <gtest/gtest.h>

#include "animconv/axes.h"
#include "animconv/humanoid_pose.h"

namespace animconv {
namespace {

TEST(RestPoseTest, FacingFromTheLeftLimbsSide) {
  const std::vector<HumanBone> bones = {HumanBone::kHips, HumanBone::kLeftUpperLeg,
                                        HumanBone::kRightUpperLeg};
  Rig plus_z = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  plus_z.rest_pose_known = true;
  EXPECT_EQ(FacingFromRestPose(plus_z, Handedness::kRight), Facing::kPlusZ);
  // The same numbers in left-handed (Unity) space: the left leg at +X faces -Z.
  EXPECT_EQ(FacingFromRestPose(plus_z, Handedness::kLeft), Facing::kMinusZ);
  Rig minus_z = MakeHumanoidTPoseRig(bones, Facing::kMinusZ);
  minus_z.rest_pose_known = true;
  EXPECT_EQ(FacingFromRestPose(minus_z, Handedness::kRight), Facing::kMinusZ);
  // Turned to face +X: the legs are apart along Z, so X cannot tell.
  Asset turned;
  turned.rig = plus_z;
  AxisMap quarter;
  quarter.source = {2, 1, 0};
  quarter.sign = {1, 1, -1};
  ChangeBasis(turned, quarter);
  EXPECT_EQ(FacingFromRestPose(turned.rig, Handedness::kRight), Facing::kUnknown);
  // No rest pose, or no left/right pair: unknown.
  plus_z.rest_pose_known = false;
  EXPECT_EQ(FacingFromRestPose(plus_z, Handedness::kRight), Facing::kUnknown);
  Rig hips_only = MakeHumanoidTPoseRig({HumanBone::kHips}, Facing::kPlusZ);
  hips_only.rest_pose_known = true;
  EXPECT_EQ(FacingFromRestPose(hips_only, Handedness::kRight), Facing::kUnknown);
}

}  // namespace
}  // namespace animconv
