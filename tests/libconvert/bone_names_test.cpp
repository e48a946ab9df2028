#include "animconv/bone_names.h"

#include <gtest/gtest.h>

namespace animconv {
namespace {

struct Row {
  int index;
  const char* unity;
  const char* vrm0;
  const char* vrm1;
  const char* mixamo;  // after "mixamorig:"; empty when Mixamo has no such bone
  bool required_vrm0;
  bool required_vrm1;
};

// Unity HumanBodyBones and the VRM 0.x / 1.0 humanoid specs, transcribed row by row (the VRM 1.0
// column without its
// "(not in VRMA)" remarks).
constexpr Row kTable[] = {
    {0, "Hips", "hips", "hips", "Hips", true, true},
    {1, "LeftUpperLeg", "leftUpperLeg", "leftUpperLeg", "LeftUpLeg", true, true},
    {2, "RightUpperLeg", "rightUpperLeg", "rightUpperLeg", "RightUpLeg", true, true},
    {3, "LeftLowerLeg", "leftLowerLeg", "leftLowerLeg", "LeftLeg", true, true},
    {4, "RightLowerLeg", "rightLowerLeg", "rightLowerLeg", "RightLeg", true, true},
    {5, "LeftFoot", "leftFoot", "leftFoot", "LeftFoot", true, true},
    {6, "RightFoot", "rightFoot", "rightFoot", "RightFoot", true, true},
    {7, "Spine", "spine", "spine", "Spine", true, true},
    {8, "Chest", "chest", "chest", "Spine1", true, false},
    {9, "Neck", "neck", "neck", "Neck", true, false},
    {10, "Head", "head", "head", "Head", true, true},
    {11, "LeftShoulder", "leftShoulder", "leftShoulder", "LeftShoulder", false, false},
    {12, "RightShoulder", "rightShoulder", "rightShoulder", "RightShoulder", false, false},
    {13, "LeftUpperArm", "leftUpperArm", "leftUpperArm", "LeftArm", true, true},
    {14, "RightUpperArm", "rightUpperArm", "rightUpperArm", "RightArm", true, true},
    {15, "LeftLowerArm", "leftLowerArm", "leftLowerArm", "LeftForeArm", true, true},
    {16, "RightLowerArm", "rightLowerArm", "rightLowerArm", "RightForeArm", true, true},
    {17, "LeftHand", "leftHand", "leftHand", "LeftHand", true, true},
    {18, "RightHand", "rightHand", "rightHand", "RightHand", true, true},
    {19, "LeftToes", "leftToes", "leftToes", "LeftToeBase", false, false},
    {20, "RightToes", "rightToes", "rightToes", "RightToeBase", false, false},
    {21, "LeftEye", "leftEye", "leftEye", "", false, false},
    {22, "RightEye", "rightEye", "rightEye", "", false, false},
    {23, "Jaw", "jaw", "jaw", "", false, false},
    {24, "LeftThumbProximal", "leftThumbProximal", "leftThumbMetacarpal", "LeftHandThumb1", false,
     false},
    {25, "LeftThumbIntermediate", "leftThumbIntermediate", "leftThumbProximal", "LeftHandThumb2",
     false, false},
    {26, "LeftThumbDistal", "leftThumbDistal", "leftThumbDistal", "LeftHandThumb3", false, false},
    {27, "LeftIndexProximal", "leftIndexProximal", "leftIndexProximal", "LeftHandIndex1", false,
     false},
    {28, "LeftIndexIntermediate", "leftIndexIntermediate", "leftIndexIntermediate",
     "LeftHandIndex2", false, false},
    {29, "LeftIndexDistal", "leftIndexDistal", "leftIndexDistal", "LeftHandIndex3", false, false},
    {30, "LeftMiddleProximal", "leftMiddleProximal", "leftMiddleProximal", "LeftHandMiddle1", false,
     false},
    {31, "LeftMiddleIntermediate", "leftMiddleIntermediate", "leftMiddleIntermediate",
     "LeftHandMiddle2", false, false},
    {32, "LeftMiddleDistal", "leftMiddleDistal", "leftMiddleDistal", "LeftHandMiddle3", false,
     false},
    {33, "LeftRingProximal", "leftRingProximal", "leftRingProximal", "LeftHandRing1", false, false},
    {34, "LeftRingIntermediate", "leftRingIntermediate", "leftRingIntermediate", "LeftHandRing2",
     false, false},
    {35, "LeftRingDistal", "leftRingDistal", "leftRingDistal", "LeftHandRing3", false, false},
    {36, "LeftLittleProximal", "leftLittleProximal", "leftLittleProximal", "LeftHandPinky1", false,
     false},
    {37, "LeftLittleIntermediate", "leftLittleIntermediate", "leftLittleIntermediate",
     "LeftHandPinky2", false, false},
    {38, "LeftLittleDistal", "leftLittleDistal", "leftLittleDistal", "LeftHandPinky3", false,
     false},
    {39, "RightThumbProximal", "rightThumbProximal", "rightThumbMetacarpal", "RightHandThumb1",
     false, false},
    {40, "RightThumbIntermediate", "rightThumbIntermediate", "rightThumbProximal",
     "RightHandThumb2", false, false},
    {41, "RightThumbDistal", "rightThumbDistal", "rightThumbDistal", "RightHandThumb3", false,
     false},
    {42, "RightIndexProximal", "rightIndexProximal", "rightIndexProximal", "RightHandIndex1", false,
     false},
    {43, "RightIndexIntermediate", "rightIndexIntermediate", "rightIndexIntermediate",
     "RightHandIndex2", false, false},
    {44, "RightIndexDistal", "rightIndexDistal", "rightIndexDistal", "RightHandIndex3", false,
     false},
    {45, "RightMiddleProximal", "rightMiddleProximal", "rightMiddleProximal", "RightHandMiddle1",
     false, false},
    {46, "RightMiddleIntermediate", "rightMiddleIntermediate", "rightMiddleIntermediate",
     "RightHandMiddle2", false, false},
    {47, "RightMiddleDistal", "rightMiddleDistal", "rightMiddleDistal", "RightHandMiddle3", false,
     false},
    {48, "RightRingProximal", "rightRingProximal", "rightRingProximal", "RightHandRing1", false,
     false},
    {49, "RightRingIntermediate", "rightRingIntermediate", "rightRingIntermediate",
     "RightHandRing2", false, false},
    {50, "RightRingDistal", "rightRingDistal", "rightRingDistal", "RightHandRing3", false, false},
    {51, "RightLittleProximal", "rightLittleProximal", "rightLittleProximal", "RightHandPinky1",
     false, false},
    {52, "RightLittleIntermediate", "rightLittleIntermediate", "rightLittleIntermediate",
     "RightHandPinky2", false, false},
    {53, "RightLittleDistal", "rightLittleDistal", "rightLittleDistal", "RightHandPinky3", false,
     false},
    {54, "UpperChest", "upperChest", "upperChest", "Spine2", false, false},
};

class BoneTableTest : public ::testing::TestWithParam<Row> {};

TEST_P(BoneTableTest, NamesEveryRowInAllFourNamings) {
  const Row& row = GetParam();
  const HumanBone bone = static_cast<HumanBone>(row.index);
  EXPECT_EQ(HumanBoneName(bone, BoneNaming::kUnity), row.unity);
  EXPECT_EQ(HumanBoneName(bone, BoneNaming::kVrm0), row.vrm0);
  EXPECT_EQ(HumanBoneName(bone, BoneNaming::kVrm1), row.vrm1);
  if (*row.mixamo == '\0') {
    EXPECT_EQ(HumanBoneName(bone, BoneNaming::kMixamo), std::nullopt);
  } else {
    EXPECT_EQ(HumanBoneName(bone, BoneNaming::kMixamo), std::string("mixamorig:") + row.mixamo);
  }
  EXPECT_EQ(GetHumanBoneInfo(bone).required_vrm0, row.required_vrm0);
  EXPECT_EQ(GetHumanBoneInfo(bone).required_vrm1, row.required_vrm1);
}

TEST_P(BoneTableTest, FindsEveryRowInItsNaming) {
  const Row& row = GetParam();
  const HumanBone bone = static_cast<HumanBone>(row.index);
  EXPECT_EQ(FindHumanBone(row.unity, BoneNaming::kUnity), bone);
  EXPECT_EQ(FindHumanBone(row.vrm0, BoneNaming::kVrm0), bone);
  EXPECT_EQ(FindHumanBone(row.vrm1, BoneNaming::kVrm1), bone);
  if (*row.mixamo != '\0') {
    EXPECT_EQ(FindHumanBone(row.mixamo, BoneNaming::kMixamo), bone);
    EXPECT_EQ(FindHumanBone(std::string("mixamorig:") + row.mixamo, BoneNaming::kMixamo), bone);
  }
}

TEST_P(BoneTableTest, AnyNamingIsAmbiguousOnlyForTheVrmThumbProximal) {
  const Row& row = GetParam();
  const HumanBone bone = static_cast<HumanBone>(row.index);
  for (const char* name : {row.unity, row.vrm0, row.vrm1, row.mixamo}) {
    if (*name == '\0') continue;
    const std::vector<HumanBone> found = FindHumanBoneInAnyNaming(name);
    const std::string text = name;
    if (text == "leftThumbProximal" || text == "rightThumbProximal") {
      ASSERT_EQ(found.size(), 2u) << name;
      EXPECT_EQ(static_cast<int>(found[1]), static_cast<int>(found[0]) + 1) << name;
    } else {
      EXPECT_EQ(found, std::vector<HumanBone>{bone}) << name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FormatsMdTable, BoneTableTest, ::testing::ValuesIn(kTable));

TEST(BoneNamesTest, TableHasEveryBoneOnce) {
  ASSERT_EQ(std::size(kTable), static_cast<size_t>(kHumanBoneCount));
  for (int i = 0; i < kHumanBoneCount; ++i) EXPECT_EQ(kTable[i].index, i);
}

TEST(BoneNamesTest, NamingIdsRoundTrip) {
  for (const BoneNaming naming : kBoneNamings) {
    EXPECT_EQ(ParseBoneNaming(BoneNamingId(naming)), naming);
  }
  EXPECT_EQ(ParseBoneNaming("vrm"), std::nullopt);
  EXPECT_EQ(ParseBoneNaming("Unity"), std::nullopt);
}

TEST(BoneNamesTest, ThumbShiftBothWays) {
  // VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x: VRM 0.x thumbProximal = VRM 1.0
  // thumbMetacarpal, thumbIntermediate = proximal.
  EXPECT_EQ(FindHumanBone("leftThumbProximal", BoneNaming::kVrm0), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(FindHumanBone("leftThumbProximal", BoneNaming::kVrm1),
            HumanBone::kLeftThumbIntermediate);
  EXPECT_EQ(FindHumanBone("rightThumbMetacarpal", BoneNaming::kVrm1),
            HumanBone::kRightThumbProximal);
  EXPECT_EQ(FindHumanBone("rightThumbMetacarpal", BoneNaming::kVrm0), std::nullopt);
  EXPECT_EQ(FindHumanBone("leftThumbIntermediate", BoneNaming::kVrm1), std::nullopt);
  // vrm0 -> vrm1 and back through the identity.
  EXPECT_EQ(
      HumanBoneName(*FindHumanBone("leftThumbProximal", BoneNaming::kVrm0), BoneNaming::kVrm1),
      "leftThumbMetacarpal");
  EXPECT_EQ(
      HumanBoneName(*FindHumanBone("leftThumbIntermediate", BoneNaming::kVrm0), BoneNaming::kVrm1),
      "leftThumbProximal");
  EXPECT_EQ(
      HumanBoneName(*FindHumanBone("leftThumbProximal", BoneNaming::kVrm1), BoneNaming::kVrm0),
      "leftThumbIntermediate");
  EXPECT_EQ(
      HumanBoneName(*FindHumanBone("rightThumbMetacarpal", BoneNaming::kVrm1), BoneNaming::kVrm0),
      "rightThumbProximal");
  EXPECT_EQ(HumanBoneName(HumanBone::kLeftThumbDistal, BoneNaming::kVrm1), "leftThumbDistal");
}

TEST(BoneNamesTest, MixamoPrefixVariants) {
  for (const char* name : {"mixamorig:Hips", "mixamorig1:Hips", "mixamorig_Hips", "mixamorigHips",
                           "mixamorig1Hips", "mixamorig12:Hips", "Hips", "MIXAMORIG:hips"}) {
    EXPECT_EQ(FindHumanBone(name, BoneNaming::kMixamo), HumanBone::kHips) << name;
  }
  EXPECT_EQ(FindHumanBone("mixamorig:Spine1", BoneNaming::kMixamo), HumanBone::kChest);
  EXPECT_EQ(FindHumanBone("mixamorigSpine2", BoneNaming::kMixamo), HumanBone::kUpperChest);
  EXPECT_EQ(FindHumanBone("mixamorig_LeftHandThumb1", BoneNaming::kMixamo),
            HumanBone::kLeftThumbProximal);
  EXPECT_EQ(FindHumanBone("mixamorig:HeadTop_End", BoneNaming::kMixamo), std::nullopt);
  EXPECT_EQ(FindHumanBone("mixamorig:LeftHandThumb4", BoneNaming::kMixamo), std::nullopt);
  EXPECT_EQ(FindHumanBone("mixamorig:LeftUpperLeg", BoneNaming::kMixamo), std::nullopt);
  EXPECT_EQ(FindHumanBone("other:Hips", BoneNaming::kMixamo), std::nullopt);
  // The Unity naming takes no prefixes.
  EXPECT_EQ(FindHumanBone("mixamorig:Hips", BoneNaming::kUnity), std::nullopt);
}

TEST(BoneNamesTest, CaseVariants) {
  EXPECT_EQ(FindHumanBone("HIPS", BoneNaming::kUnity), HumanBone::kHips);
  EXPECT_EQ(FindHumanBone("upperchest", BoneNaming::kUnity), HumanBone::kUpperChest);
  EXPECT_EQ(FindHumanBone("LeftUpperLeg", BoneNaming::kVrm0), HumanBone::kLeftUpperLeg);
  EXPECT_EQ(FindHumanBone("LEFTTHUMBMETACARPAL", BoneNaming::kVrm1), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(FindHumanBone("mixamorig:lefthandthumb2", BoneNaming::kMixamo),
            HumanBone::kLeftThumbIntermediate);
  // Exact case decides where ignoring it would be ambiguous: PascalCase is Unity's name only.
  EXPECT_EQ(FindHumanBoneInAnyNaming("LeftThumbProximal"),
            std::vector<HumanBone>{HumanBone::kLeftThumbProximal});
  EXPECT_EQ(
      FindHumanBoneInAnyNaming("LEFTTHUMBPROXIMAL"),
      (std::vector<HumanBone>{HumanBone::kLeftThumbProximal, HumanBone::kLeftThumbIntermediate}));
  EXPECT_EQ(FindHumanBoneInAnyNaming("SPINE1"), std::vector<HumanBone>{HumanBone::kChest});
  EXPECT_TRUE(FindHumanBoneInAnyNaming("J_Bip_C_Hips").empty());
}

}  // namespace
}  // namespace animconv
