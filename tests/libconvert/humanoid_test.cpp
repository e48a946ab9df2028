#include "animconv/humanoid.h"

#include <gtest/gtest.h>

namespace animconv {
namespace {

TEST(HumanoidTest, UpperChestIsTheLastEnumValue) {
  // Unity HumanBodyBones and the VRM 0.x / 1.0 humanoid specs: Unity declares UpperChest between
  // Chest and Neck but gives it value 54.
  EXPECT_EQ(static_cast<int>(HumanBone::kUpperChest), 54);
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kUpperChest).unity, "UpperChest");
  EXPECT_EQ(GetHumanBoneInfo(static_cast<HumanBone>(53)).unity, "RightLittleDistal");
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kNeck).vrm0, "neck");
}

TEST(HumanoidTest, ThumbNamesShiftBetweenVrm0AndVrm1) {
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kLeftThumbProximal).vrm1, "leftThumbMetacarpal");
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kLeftThumbIntermediate).vrm1, "leftThumbProximal");
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kRightThumbDistal).vrm1, "rightThumbDistal");
}

TEST(HumanoidTest, RequiredBonesMatchTheSpecCounts) {
  int vrm0 = 0, vrm1 = 0;
  for (int i = 0; i < kHumanBoneCount; ++i) {
    vrm0 += GetHumanBoneInfo(static_cast<HumanBone>(i)).required_vrm0 ? 1 : 0;
    vrm1 += GetHumanBoneInfo(static_cast<HumanBone>(i)).required_vrm1 ? 1 : 0;
  }
  EXPECT_EQ(vrm0, 17);
  EXPECT_EQ(vrm1, 15);
}

TEST(HumanoidTest, ParentMapFollowsVrm1) {
  EXPECT_FALSE(GetHumanBoneInfo(HumanBone::kHips).parent.has_value());
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kNeck).parent, HumanBone::kUpperChest);
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kLeftShoulder).parent, HumanBone::kUpperChest);
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kUpperChest).parent, HumanBone::kChest);
  EXPECT_EQ(GetHumanBoneInfo(HumanBone::kLeftThumbProximal).parent, HumanBone::kLeftHand);
  // Every chain reaches hips without cycles.
  for (int i = 0; i < kHumanBoneCount; ++i) {
    std::optional<HumanBone> bone = static_cast<HumanBone>(i);
    int steps = 0;
    while (GetHumanBoneInfo(*bone).parent) {
      bone = GetHumanBoneInfo(*bone).parent;
      ASSERT_LT(++steps, 16);
    }
    EXPECT_EQ(*bone, HumanBone::kHips);
  }
}

TEST(HumanoidTest, FindsUnityAndVrm0NamesIgnoringCase) {
  EXPECT_EQ(FindHumanBoneByUnityName("Hips"), HumanBone::kHips);
  EXPECT_EQ(FindHumanBoneByUnityName("upperChest"), HumanBone::kUpperChest);
  EXPECT_EQ(FindHumanBoneByUnityName("LEFTTHUMBPROXIMAL"), HumanBone::kLeftThumbProximal);
  EXPECT_FALSE(FindHumanBoneByUnityName("J_Bip_C_Hips").has_value());
}

}  // namespace
}  // namespace animconv
