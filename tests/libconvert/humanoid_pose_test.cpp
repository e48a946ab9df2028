#include "animconv/humanoid_pose.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace animconv {
namespace {

Rig HumanoidRig() {
  Rig rig;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    Node node;
    node.human_bone = static_cast<HumanBone>(b);
    node.name = std::string(GetHumanBoneInfo(*node.human_bone).vrm0);
    rig.nodes.push_back(node);
  }
  for (Node& node : rig.nodes) {
    if (const auto parent = GetHumanBoneInfo(*node.human_bone).parent) {
      node.parent = static_cast<int>(*parent);
    }
  }
  return rig;
}

Vec3 World(const Rig& rig, int n) {
  Vec3 sum{0, 0, 0};
  for (; n >= 0; n = rig.nodes[static_cast<size_t>(n)].parent) {
    for (int i = 0; i < 3; ++i) sum[i] += rig.nodes[static_cast<size_t>(n)].rest_translation[i];
  }
  return sum;
}

TEST(HumanoidPoseTest, TPoseIsSymmetricStandingAndArmsAlongX) {
  Rig rig = HumanoidRig();
  ApplyHumanoidTPose(rig, Facing::kPlusZ);
  EXPECT_TRUE(rig.rest_pose_known);
  const auto at = [&](HumanBone bone) { return World(rig, static_cast<int>(bone)); };
  EXPECT_NEAR(at(HumanBone::kHips)[1], 0.95, 1e-12);
  EXPECT_NEAR(at(HumanBone::kLeftHand)[0], -at(HumanBone::kRightHand)[0], 1e-12);
  EXPECT_GT(at(HumanBone::kLeftHand)[0], 0.5);  // facing +Z, the left side is +X
  EXPECT_NEAR(at(HumanBone::kLeftHand)[1], at(HumanBone::kLeftUpperArm)[1], 1e-12);
  EXPECT_GT(at(HumanBone::kLeftToes)[2], 0);  // toes point to the front
  for (int b = 0; b < kHumanBoneCount; ++b) {
    EXPECT_GE(World(rig, b)[1], 0) << b;  // nothing below the floor
    EXPECT_EQ(rig.nodes[static_cast<size_t>(b)].rest_rotation, (Quat{0, 0, 0, 1}));
  }
}

TEST(HumanoidPoseTest, FacingMinusZTurnsHalfwayAboutY) {
  Rig plus = HumanoidRig();
  Rig minus = HumanoidRig();
  ApplyHumanoidTPose(plus, Facing::kPlusZ);
  ApplyHumanoidTPose(minus, Facing::kMinusZ);
  for (int b = 0; b < kHumanBoneCount; ++b) {
    const Vec3 p = World(plus, b);
    const Vec3 m = World(minus, b);
    EXPECT_NEAR(m[0], -p[0], 1e-12);
    EXPECT_NEAR(m[1], p[1], 1e-12);
    EXPECT_NEAR(m[2], -p[2], 1e-12);
  }
}

TEST(HumanoidPoseTest, MissingBonesAreSkippedOverByTheirChildren) {
  Rig rig = HumanoidRig();
  // Drop upperChest: neck hangs from chest, with the full offset between them.
  rig.nodes[static_cast<size_t>(HumanBone::kNeck)].parent = static_cast<int>(HumanBone::kChest);
  rig.nodes[static_cast<size_t>(HumanBone::kUpperChest)].human_bone.reset();
  ApplyHumanoidTPose(rig, Facing::kPlusZ);
  EXPECT_NEAR(World(rig, static_cast<int>(HumanBone::kNeck))[1], 1.45, 1e-12);
}

}  // namespace
}  // namespace animconv
