// RenameBones (animconv/bone_names.h, libconvert/rename_bones.cpp).
#include <gtest/gtest.h>

#include "animconv/bone_names.h"
#include "animconv/error.h"

namespace animconv {
namespace {

Node MakeNode(const std::string& name, std::optional<HumanBone> bone = std::nullopt) {
  Node node;
  node.name = name;
  node.human_bone = bone;
  return node;
}

std::vector<std::string> Names(const Rig& rig) {
  std::vector<std::string> names;
  for (const Node& node : rig.nodes) names.push_back(node.name);
  return names;
}

TEST(RenameBonesTest, ByNameByIdentityAndGivingIdentity) {
  Rig rig;
  rig.nodes = {MakeNode("Hips", HumanBone::kHips), MakeNode("thigh_l", HumanBone::kLeftUpperLeg),
               MakeNode("Bone.003"), MakeNode("Tail")};
  const std::vector<BoneMapEntry> map = {{"Hips", "J_Bip_C_Hips", 1},
                                         {"mixamorig:LeftUpLeg", "J_Bip_L_UpperLeg", 2},
                                         {"Bone.003", "leftThumbMetacarpal", 3},
                                         {"Wing", "J_Wing", 4}};
  const std::vector<std::string> warnings = RenameBones(rig, map, std::nullopt);
  EXPECT_EQ(Names(rig), (std::vector<std::string>{"J_Bip_C_Hips", "J_Bip_L_UpperLeg",
                                                  "leftThumbMetacarpal", "Tail"}));
  EXPECT_EQ(rig.nodes[0].human_bone, HumanBone::kHips);
  EXPECT_EQ(rig.nodes[1].human_bone, HumanBone::kLeftUpperLeg);
  EXPECT_EQ(rig.nodes[2].human_bone, HumanBone::kLeftThumbProximal);  // VRM 1.0 metacarpal
  EXPECT_EQ(rig.nodes[3].human_bone, std::nullopt);
  EXPECT_EQ(warnings, std::vector<std::string>{"bone map line 4: 'Wing' matches no node or bone"});
}

TEST(RenameBonesTest, OutputNamingRenamesTheOtherHumanoidNodes) {
  Rig rig;
  rig.nodes = {MakeNode("Hips", HumanBone::kHips),
               MakeNode("LeftThumbProximal", HumanBone::kLeftThumbProximal),
               MakeNode("LeftEye", HumanBone::kLeftEye), MakeNode("Prop")};
  std::vector<std::string> warnings =
      RenameBones(rig, {{"hips", "root_hips", 1}}, BoneNaming::kMixamo);
  EXPECT_EQ(Names(rig),
            (std::vector<std::string>{"root_hips", "mixamorig:LeftHandThumb1", "LeftEye", "Prop"}));
  EXPECT_EQ(warnings,
            std::vector<std::string>{"'LeftEye' keeps its name: mixamo naming has no LeftEye"});

  warnings = RenameBones(rig, {}, BoneNaming::kVrm1);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(Names(rig),
            (std::vector<std::string>{"hips", "leftThumbMetacarpal", "leftEye", "Prop"}));
}

TEST(RenameBonesTest, ClashIsAUsageErrorNamingBothAndLeavesTheRig) {
  Rig rig;
  rig.nodes = {MakeNode("Hips", HumanBone::kHips), MakeNode("spine", HumanBone::kSpine),
               MakeNode("Root")};
  try {
    RenameBones(rig, {{"Root", "hips", 3}}, BoneNaming::kVrm0);
    FAIL() << "no clash reported";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_EQ(std::string(error.what()),
              "renaming bones gives two nodes the name 'hips': 'Hips' (renamed to the vrm0 "
              "naming) and 'Root' (bone map line 3)");
  }
  try {
    RenameBones(rig, {{"Root", "spine", 7}}, std::nullopt);
    FAIL() << "no clash reported";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "renaming bones gives two nodes the name 'spine': 'spine' (not renamed) and 'Root' "
              "(bone map line 7)");
  }
  EXPECT_EQ(Names(rig), (std::vector<std::string>{"Hips", "spine", "Root"}));
  EXPECT_EQ(rig.nodes[2].human_bone, std::nullopt);
}

TEST(RenameBonesTest, SwapsAndOldDuplicatesAreFine) {
  Rig rig;
  rig.nodes = {MakeNode("A"), MakeNode("B"), MakeNode("dup"), MakeNode("dup")};
  EXPECT_TRUE(RenameBones(rig, {{"A", "B", 1}, {"B", "A", 2}}, std::nullopt).empty());
  EXPECT_EQ(Names(rig), (std::vector<std::string>{"B", "A", "dup", "dup"}));
}

TEST(RenameBonesTest, AmbiguousThumbNameIsAUsageError) {
  Rig rig;
  rig.nodes = {MakeNode("Thumb", HumanBone::kLeftThumbProximal)};
  try {
    RenameBones(rig, {{"leftThumbProximal", "T", 2}}, std::nullopt);
    FAIL() << "ambiguity not reported";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what())
                  .find("bone map line 2: 'leftThumbProximal' is Unity "
                        "LeftThumbProximal in VRM 0.x but Unity "
                        "LeftThumbIntermediate in VRM 1.0"),
              std::string::npos)
        << error.what();
  }
  // The Unity name is unambiguous.
  EXPECT_TRUE(RenameBones(rig, {{"LeftThumbProximal", "T", 1}}, std::nullopt).empty());
  EXPECT_EQ(rig.nodes[0].name, "T");
}

TEST(RenameBonesTest, RepeatedTargetsAndTakenIdentitiesWarn) {
  Rig rig;
  rig.nodes = {MakeNode("Hips", HumanBone::kHips), MakeNode("Pelvis")};
  const std::vector<std::string> warnings =
      RenameBones(rig, {{"Hips", "H", 1}, {"hips", "H2", 2}, {"Pelvis", "hips", 3}}, std::nullopt);
  EXPECT_EQ(Names(rig), (std::vector<std::string>{"H", "hips"}));
  EXPECT_EQ(rig.nodes[1].human_bone, std::nullopt);
  EXPECT_EQ(warnings,
            (std::vector<std::string>{
                "bone map line 2: node 'Hips' is already renamed by line 1",
                "bone map line 3: 'Pelvis' is not made humanoid Hips: node 'Hips' already is"}));
}

}  // namespace
}  // namespace animconv
