// TagHumanoidByExactNames, GuessHumanoid and CoverHumanoid (animconv/bone_names.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "animconv/bone_names.h"

namespace animconv {
namespace {

// A rig with one root node per name.
Rig MakeRig(const std::vector<std::string>& names) {
  Rig rig;
  for (const std::string& name : names) {
    Node node;
    node.name = name;
    rig.nodes.push_back(node);
  }
  return rig;
}

// Every bone the naming has, as prefix + name (Mixamo: prefix + the part after "mixamorig:").
std::vector<std::string> AllNames(BoneNaming naming, const std::string& prefix) {
  std::vector<std::string> names;
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const std::optional<std::string> name = HumanBoneName(static_cast<HumanBone>(i), naming);
    if (!name) continue;
    names.push_back(prefix + (naming == BoneNaming::kMixamo ? name->substr(10) : *name));
  }
  return names;
}

std::optional<HumanBone> BoneOf(const Rig& rig, const std::string& name) {
  for (const Node& node : rig.nodes) {
    if (node.name == name) return node.human_bone;
  }
  ADD_FAILURE() << "no node " << name;
  return std::nullopt;
}

TEST(GuessHumanoidTest, UnityNames) {
  Rig rig = MakeRig(AllNames(BoneNaming::kUnity, ""));
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kUnity);
  EXPECT_EQ(guess->bones_matched, 55);
  EXPECT_EQ(guess->prefix, "");
  EXPECT_FALSE(guess->thumbs_ambiguous);
  EXPECT_TRUE(guess->unmatched_candidates.empty());
  for (int i = 0; i < kHumanBoneCount; ++i) EXPECT_EQ(rig.nodes[i].human_bone, HumanBone(i));
}

TEST(GuessHumanoidTest, Vrm1NamesShiftTheThumbs) {
  Rig rig = MakeRig(AllNames(BoneNaming::kVrm1, ""));
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kVrm1);
  EXPECT_EQ(guess->bones_matched, 55);
  EXPECT_EQ(BoneOf(rig, "leftThumbMetacarpal"), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(BoneOf(rig, "leftThumbProximal"), HumanBone::kLeftThumbIntermediate);
  EXPECT_EQ(BoneOf(rig, "rightThumbProximal"), HumanBone::kRightThumbIntermediate);
  EXPECT_EQ(BoneOf(rig, "rightThumbDistal"), HumanBone::kRightThumbDistal);
}

TEST(GuessHumanoidTest, Vrm0NamesKeepUnityThumbs) {
  Rig rig = MakeRig(AllNames(BoneNaming::kVrm0, ""));
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kVrm0);
  EXPECT_FALSE(guess->thumbs_ambiguous);  // leftThumbIntermediate exists only in VRM 0.x
  EXPECT_EQ(BoneOf(rig, "leftThumbProximal"), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(BoneOf(rig, "leftThumbIntermediate"), HumanBone::kLeftThumbIntermediate);
}

TEST(GuessHumanoidTest, LowercaseThumbProximalAloneIsReadAsVrm0AndFlagged) {
  Rig rig = MakeRig({"hips", "spine", "head", "leftUpperLeg", "rightUpperLeg", "leftHand",
                     "rightHand", "leftThumbProximal", "leftThumbDistal"});
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kVrm0);
  EXPECT_TRUE(guess->thumbs_ambiguous);
  EXPECT_EQ(BoneOf(rig, "leftThumbProximal"), HumanBone::kLeftThumbProximal);
  EXPECT_NE(DescribeHumanoidGuess(*guess).find("read as VRM 0.x"), std::string::npos);
}

TEST(GuessHumanoidTest, MixamoPrefixVariants) {
  for (const std::string prefix :
       {"mixamorig:", "mixamorig1:", "mixamorig_", "mixamorig", "mixamorig1"}) {
    std::vector<std::string> names = AllNames(BoneNaming::kMixamo, prefix);
    names.push_back(prefix + "HeadTop_End");  // an end joint: no bone missed
    names.push_back(prefix + "Hat");          // a joint of the skeleton that matched nothing
    names.push_back("Camera");
    Rig rig = MakeRig(names);
    const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
    ASSERT_TRUE(guess.has_value()) << prefix;
    EXPECT_EQ(guess->naming, BoneNaming::kMixamo) << prefix;
    EXPECT_EQ(guess->prefix, prefix);
    EXPECT_EQ(guess->bones_matched, 52) << prefix;  // no eyes, no jaw
    EXPECT_EQ(guess->unmatched_candidates, std::vector<std::string>{prefix + "Hat"});
    EXPECT_EQ(BoneOf(rig, prefix + "Spine"), HumanBone::kSpine);
    EXPECT_EQ(BoneOf(rig, prefix + "Spine1"), HumanBone::kChest);
    EXPECT_EQ(BoneOf(rig, prefix + "Spine2"), HumanBone::kUpperChest);
    EXPECT_EQ(BoneOf(rig, prefix + "LeftHandThumb1"), HumanBone::kLeftThumbProximal);
    EXPECT_EQ(BoneOf(rig, "Camera"), std::nullopt);
  }
}

TEST(GuessHumanoidTest, OtherPrefixesEndingInASeparator) {
  for (const std::string prefix : {"Armature|", "Armature_", "rig:", "Character1/", "root."}) {
    Rig rig = MakeRig(AllNames(BoneNaming::kUnity, prefix));
    const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
    ASSERT_TRUE(guess.has_value()) << prefix;
    EXPECT_EQ(guess->naming, BoneNaming::kUnity);
    EXPECT_EQ(guess->prefix, prefix);
    EXPECT_EQ(BoneOf(rig, prefix + "UpperChest"), HumanBone::kUpperChest);
  }
  // Glued to the bone name, only the Mixamo prefix counts.
  Rig glued = MakeRig(AllNames(BoneNaming::kUnity, "Armature"));
  EXPECT_EQ(GuessHumanoid(glued), std::nullopt);
  EXPECT_EQ(glued.nodes[0].human_bone, std::nullopt);
}

TEST(GuessHumanoidTest, UnrelatedScenesAreLeftAlone) {
  Rig scene = MakeRig({"Scene", "Camera", "Light", "Hips", "Head", "LeftHand", "Cube"});
  EXPECT_EQ(GuessHumanoid(scene), std::nullopt);
  for (const Node& node : scene.nodes) EXPECT_EQ(node.human_bone, std::nullopt) << node.name;

  // VRoid's own names are not one of the four namings, though the centre line looks like Unity's.
  Rig vroid = MakeRig({"J_Bip_C_Hips", "J_Bip_C_Spine", "J_Bip_C_Chest", "J_Bip_C_UpperChest",
                       "J_Bip_C_Neck", "J_Bip_C_Head", "J_Bip_L_UpperLeg", "J_Bip_R_UpperLeg",
                       "J_Bip_L_UpperArm", "J_Bip_R_UpperArm"});
  EXPECT_EQ(GuessHumanoid(vroid), std::nullopt);

  // Matched names must share one prefix.
  Rig mixed = MakeRig({"Hips", "a:Spine", "b:Chest", "c:Neck", "d:Head", "e:LeftUpperLeg",
                       "f:RightUpperLeg", "g:LeftFoot", "h:RightFoot"});
  EXPECT_EQ(GuessHumanoid(mixed), std::nullopt);
}

TEST(GuessHumanoidTest, NeedsHipsAndEightBones) {
  const std::vector<std::string> seven = {
      "Hips", "Spine", "Head", "LeftUpperLeg", "RightUpperLeg", "LeftUpperArm", "RightUpperArm"};
  Rig too_few = MakeRig(seven);
  EXPECT_EQ(GuessHumanoid(too_few), std::nullopt);
  std::vector<std::string> eight = seven;
  eight.push_back("Neck");
  Rig enough = MakeRig(eight);
  ASSERT_TRUE(GuessHumanoid(enough).has_value());
  EXPECT_EQ(BoneOf(enough, "Neck"), HumanBone::kNeck);

  std::vector<std::string> no_hips = AllNames(BoneNaming::kUnity, "");
  no_hips.erase(no_hips.begin());
  Rig headless = MakeRig(no_hips);
  EXPECT_EQ(GuessHumanoid(headless), std::nullopt);
}

TEST(GuessHumanoidTest, NeverOverridesIdentitiesAReaderSet) {
  Rig rig = MakeRig(AllNames(BoneNaming::kVrm1, ""));
  rig.nodes[5].human_bone = HumanBone::kJaw;
  EXPECT_EQ(GuessHumanoid(rig), std::nullopt);
  EXPECT_EQ(rig.nodes[5].human_bone, HumanBone::kJaw);
  EXPECT_EQ(rig.nodes[0].human_bone, std::nullopt);
}

TEST(GuessHumanoidTest, ReportsUnmatchedBonesBelowTheHipsAndDuplicates) {
  Rig rig = MakeRig(AllNames(BoneNaming::kUnity, ""));
  const int hips = 0;
  const int head = static_cast<int>(HumanBone::kHead);
  Node hair;
  hair.name = "J_Sec_Hair1";
  hair.parent = head;
  rig.nodes[head].parent = hips;
  rig.nodes.push_back(hair);
  Node twin;
  twin.name = "HEAD";
  rig.nodes.push_back(twin);
  Node camera;
  camera.name = "Camera";
  rig.nodes.push_back(camera);
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->unmatched_candidates, (std::vector<std::string>{"J_Sec_Hair1", "HEAD"}));
  EXPECT_EQ(rig.nodes[head].human_bone, HumanBone::kHead);
  EXPECT_EQ(BoneOf(rig, "HEAD"), std::nullopt);
  const std::string note = DescribeHumanoidGuess(*guess);
  EXPECT_EQ(note,
            "humanoid bones guessed from node names: 55 in unity naming; not matched: "
            "J_Sec_Hair1, HEAD");
}

TEST(GuessHumanoidTest, NoteForMixamoStatesTheSpineChoice) {
  Rig rig = MakeRig(AllNames(BoneNaming::kMixamo, "mixamorig:"));
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(DescribeHumanoidGuess(*guess),
            "humanoid bones guessed from node names: 52 in mixamo naming (prefix 'mixamorig:'); "
            "Spine1 read as chest, Spine2 as upperChest");
}

TEST(TagHumanoidByExactNamesTest, AMetacarpalAnywhereShiftsTheThumbs) {
  // Two thumb tracks and no hips: far below GuessHumanoid's minimum, still tagged.
  Rig vrm1 = MakeRig({"leftThumbMetacarpal", "rightThumbProximal"});
  TagHumanoidByExactNames(vrm1);
  EXPECT_EQ(BoneOf(vrm1, "leftThumbMetacarpal"), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(BoneOf(vrm1, "rightThumbProximal"), HumanBone::kRightThumbIntermediate);

  Rig vrm0 = MakeRig({"leftThumbProximal", "leftThumbIntermediate"});
  TagHumanoidByExactNames(vrm0);
  EXPECT_EQ(BoneOf(vrm0, "leftThumbProximal"), HumanBone::kLeftThumbProximal);
  EXPECT_EQ(BoneOf(vrm0, "leftThumbIntermediate"), HumanBone::kLeftThumbIntermediate);

  Rig full = MakeRig(AllNames(BoneNaming::kVrm1, ""));
  TagHumanoidByExactNames(full);
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = static_cast<HumanBone>(i);
    EXPECT_EQ(BoneOf(full, *HumanBoneName(bone, BoneNaming::kVrm1)), bone);
  }
}

TEST(TagHumanoidByExactNamesTest, WholeNamesOnlyAndOneNodePerBone) {
  Rig rig = MakeRig({"HIPS", "hips", "spine", "mixamorig:Spine1", "Armature|Head", "Face"});
  rig.nodes[5].human_bone = HumanBone::kJaw;  // replaced: names are all this function reads
  TagHumanoidByExactNames(rig);
  EXPECT_EQ(rig.nodes[0].human_bone, HumanBone::kHips);
  EXPECT_EQ(rig.nodes[1].human_bone, std::nullopt);  // the hips are taken
  EXPECT_EQ(rig.nodes[2].human_bone, HumanBone::kSpine);
  EXPECT_EQ(rig.nodes[3].human_bone, std::nullopt);  // left to GuessHumanoid
  EXPECT_EQ(rig.nodes[4].human_bone, std::nullopt);
  EXPECT_EQ(rig.nodes[5].human_bone, std::nullopt);
}

TEST(TagHumanoidByExactNamesTest, LeavesAMixamoRigWithPlainEyesToGuessing) {
  // What --bone-names mixamo writes: Mixamo has no eyes or jaw, so those keep their VRM names.
  std::vector<std::string> names = AllNames(BoneNaming::kMixamo, "mixamorig");
  for (const char* plain : {"leftEye", "rightEye", "jaw"}) names.push_back(plain);
  Rig rig = MakeRig(names);
  TagHumanoidByExactNames(rig);
  for (const Node& node : rig.nodes) EXPECT_EQ(node.human_bone, std::nullopt) << node.name;
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kMixamo);
  EXPECT_EQ(guess->bones_matched, 52);
}

TEST(CoverHumanoidTest, ListsMappedAndMissingRequiredBones) {
  Rig empty;
  const HumanoidCoverage none = CoverHumanoid(empty);
  EXPECT_TRUE(none.mapped.empty());
  EXPECT_EQ(none.missing_required_vrm1.size(), 15u);
  EXPECT_EQ(none.missing_required_vrm0.size(), 17u);

  Rig rig;
  for (int i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = static_cast<HumanBone>(i);
    if (!GetHumanBoneInfo(bone).required_vrm1 && bone != HumanBone::kUpperChest) continue;
    Node node;
    node.name = *HumanBoneName(bone, BoneNaming::kVrm1);
    node.human_bone = bone;
    rig.nodes.push_back(node);
  }
  const HumanoidCoverage coverage = CoverHumanoid(rig);
  EXPECT_EQ(coverage.mapped.size(), 16u);
  EXPECT_EQ(coverage.mapped.front(), HumanBone::kHips);
  EXPECT_EQ(coverage.mapped.back(), HumanBone::kUpperChest);
  EXPECT_TRUE(coverage.missing_required_vrm1.empty());
  EXPECT_EQ(coverage.missing_required_vrm0,
            (std::vector<HumanBone>{HumanBone::kChest, HumanBone::kNeck}));
}

// BVH namings (animconv/mocap_bone_names.h): the same words mean other bones, so the whole
// skeleton decides. Joint lists as in ../shared/data/bvh.
TEST(GuessHumanoidTest, BiovisionBvhCollarIsTheShoulder) {
  Rig rig = MakeRig({"Hips",      "Chest",       "Chest2",        "Chest3",       "Chest4",
                     "Neck",      "Head",        "LeftCollar",    "LeftShoulder", "LeftElbow",
                     "LeftWrist", "RightCollar", "RightShoulder", "RightElbow",   "RightWrist",
                     "LeftHip",   "LeftKnee",    "LeftAnkle",     "LeftToe",      "RightHip",
                     "RightKnee", "RightAnkle",  "RightToe"});
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->mocap_naming, MocapNaming::kBiovision);
  EXPECT_EQ(guess->bones_matched, 22);
  EXPECT_EQ(BoneOf(rig, "Chest"), HumanBone::kSpine);
  EXPECT_EQ(BoneOf(rig, "Chest2"), HumanBone::kChest);
  EXPECT_EQ(BoneOf(rig, "Chest4"), std::nullopt);
  EXPECT_EQ(BoneOf(rig, "LeftCollar"), HumanBone::kLeftShoulder);
  EXPECT_EQ(BoneOf(rig, "LeftShoulder"), HumanBone::kLeftUpperArm);
  EXPECT_EQ(BoneOf(rig, "RightWrist"), HumanBone::kRightHand);
  EXPECT_EQ(BoneOf(rig, "LeftHip"), HumanBone::kLeftUpperLeg);
  EXPECT_EQ(BoneOf(rig, "RightAnkle"), HumanBone::kRightFoot);
  EXPECT_NE(DescribeHumanoidGuess(*guess).find("biovision naming"), std::string::npos);
}

TEST(GuessHumanoidTest, PoserBvhNames) {
  Rig rig = MakeRig({"hip",     "abdomen", "chest",    "neck",  "head",     "leftEye",
                     "rCollar", "rShldr",  "rForeArm", "rHand", "rThumb1",  "rIndex2",
                     "lCollar", "lShldr",  "lForeArm", "lHand", "rButtock", "rThigh",
                     "rShin",   "rFoot",   "lThigh",   "lShin", "lFoot"});
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->mocap_naming, MocapNaming::kPoser);
  EXPECT_EQ(BoneOf(rig, "hip"), HumanBone::kHips);
  EXPECT_EQ(BoneOf(rig, "abdomen"), HumanBone::kSpine);
  EXPECT_EQ(BoneOf(rig, "lShldr"), HumanBone::kLeftUpperArm);
  EXPECT_EQ(BoneOf(rig, "rThumb1"), HumanBone::kRightThumbProximal);  // Unity numbering
  EXPECT_EQ(BoneOf(rig, "rIndex2"), HumanBone::kRightIndexIntermediate);
  EXPECT_EQ(BoneOf(rig, "lShin"), HumanBone::kLeftLowerLeg);
  EXPECT_EQ(BoneOf(rig, "rButtock"), std::nullopt);
}

// DAZ Genesis 3 / 8, as DAZ Studio exports it: bend/twist pairs, a split abdomen, chest and
// neck, and in-between joints (pelvis, Metatarsals, Carpals) that carry no bone.
TEST(GuessHumanoidTest, DazGenesisNames) {
  Rig rig =
      MakeRig({"hip",           "pelvis",       "lThighBend",    "lThighTwist", "lShin",
               "lFoot",         "lMetatarsals", "lToe",          "rThighBend",  "rThighTwist",
               "rShin",         "rFoot",        "rMetatarsals",  "rToe",        "abdomenLower",
               "abdomenUpper",  "chestLower",   "chestUpper",    "lCollar",     "lShldrBend",
               "lShldrTwist",   "lForearmBend", "lForearmTwist", "lHand",       "lThumb1",
               "lThumb2",       "lThumb3",      "lCarpal1",      "lIndex1",     "lIndex2",
               "lIndex3",       "rCollar",      "rShldrBend",    "rShldrTwist", "rForearmBend",
               "rForearmTwist", "rHand",        "neckLower",     "neckUpper",   "head",
               "lEye",          "rEye",         "lowerJaw"});
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->mocap_naming, MocapNaming::kDazGenesis);
  EXPECT_STREQ(HumanoidGuessNamingId(*guess), "daz-genesis");
  EXPECT_EQ(BoneOf(rig, "hip"), HumanBone::kHips);
  EXPECT_EQ(BoneOf(rig, "pelvis"), std::nullopt);
  EXPECT_EQ(BoneOf(rig, "abdomenLower"), HumanBone::kSpine);
  EXPECT_EQ(BoneOf(rig, "abdomenUpper"), std::nullopt);
  EXPECT_EQ(BoneOf(rig, "chestLower"), HumanBone::kChest);
  EXPECT_EQ(BoneOf(rig, "chestUpper"), HumanBone::kUpperChest);
  EXPECT_EQ(BoneOf(rig, "neckLower"), HumanBone::kNeck);
  EXPECT_EQ(BoneOf(rig, "neckUpper"), std::nullopt);
  EXPECT_EQ(BoneOf(rig, "lShldrBend"), HumanBone::kLeftUpperArm);
  EXPECT_EQ(BoneOf(rig, "lShldrTwist"), std::nullopt);
  EXPECT_EQ(BoneOf(rig, "rForearmBend"), HumanBone::kRightLowerArm);
  EXPECT_EQ(BoneOf(rig, "lThighBend"), HumanBone::kLeftUpperLeg);
  EXPECT_EQ(BoneOf(rig, "rShin"), HumanBone::kRightLowerLeg);
  EXPECT_EQ(BoneOf(rig, "lToe"), HumanBone::kLeftToes);
  EXPECT_EQ(BoneOf(rig, "lThumb1"), HumanBone::kLeftThumbProximal);  // Unity numbering
  EXPECT_EQ(BoneOf(rig, "lIndex3"), HumanBone::kLeftIndexDistal);
  EXPECT_EQ(BoneOf(rig, "lEye"), HumanBone::kLeftEye);
  EXPECT_EQ(BoneOf(rig, "lowerJaw"), HumanBone::kJaw);
  EXPECT_NE(DescribeHumanoidGuess(*guess).find("daz-genesis naming"), std::string::npos);
}

// End joints (BVH End Sites as Assimp names them, Mixamo's HeadTop_End, Blender's _end) are not
// bones a naming missed; a real leaf joint that matched nothing is.
TEST(GuessHumanoidTest, EndJointsAreNotListedAsUnmatched) {
  Rig rig = MakeRig({"Hips", "Spine", "Chest", "Neck", "Head", "HeadTop_End", "EndSite_Head",
                     "LeftEar", "LeftUpperLeg", "LeftLowerLeg", "LeftFoot", "LeftFoot_end",
                     "RightUpperLeg", "RightLowerLeg", "RightFoot"});
  const int parents[] = {-1, 0, 1, 2, 3, 4, 4, 4, 0, 8, 9, 10, 0, 12, 13};
  for (size_t n = 0; n < rig.nodes.size(); ++n) rig.nodes[n].parent = parents[n];
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_EQ(guess->unmatched_candidates, std::vector<std::string>{"LeftEar"});
}

TEST(GuessHumanoidTest, CmuBvhReadsAsMixamo) {
  Rig rig = MakeRig({"Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
                     "LowerBack", "Spine", "Spine1", "Neck", "Neck1", "Head", "LeftShoulder",
                     "LeftArm", "LeftForeArm", "LeftHand", "LThumb"});
  const std::optional<HumanoidGuess> guess = GuessHumanoid(rig);
  ASSERT_TRUE(guess.has_value());
  EXPECT_FALSE(guess->mocap_naming.has_value());
  EXPECT_EQ(guess->naming, BoneNaming::kMixamo);
  EXPECT_EQ(BoneOf(rig, "LeftShoulder"), HumanBone::kLeftShoulder);  // not Biovision's upper arm
  EXPECT_EQ(BoneOf(rig, "LeftArm"), HumanBone::kLeftUpperArm);
  EXPECT_EQ(BoneOf(rig, "LHipJoint"), std::nullopt);
}

// Issue 14: every node named like a hips was a candidate prefix, and each read the whole rig:
// 40 s for 2,500 nodes named "Hips". Each prefix is read once now, by name lookup.
// Seconds GuessHumanoid takes on a chain of `count` nodes named by `pattern` ("{}": the index).
double SecondsToGuess(const std::string& pattern, size_t count) {
  std::vector<std::string> names;
  for (size_t i = 0; i < count; ++i) {
    names.push_back(pattern == "Hips" ? "Hips" : "p" + std::to_string(i) + "_Hips");
  }
  Rig rig = MakeRig(names);
  for (size_t i = 1; i < rig.nodes.size(); ++i) rig.nodes[i].parent = static_cast<int>(i - 1);
  const auto start = std::chrono::steady_clock::now();
  GuessHumanoid(rig);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Before: minutes for 20,000 "Hips" (O(n²) readings of the whole rig). Measured as growth, a
// quarter of the nodes against all of them (linear: 4×, quadratic: 16×), not as a wall-clock
// bound, which a loaded sanitizer build on a slow machine once missed (5.4 s for a linear run).
TEST(GuessHumanoidTest, ManyHipsLikeNamesStayLinear) {
  for (const char* pattern : {"Hips", "p{}_Hips"}) {
    // Distinct prefixes each cost ~7 readings of a few dozen lookups; a reading used to hold a
    // vector over every node, which made 2,000 distinct prefixes quadratic (12× for 4× the nodes,
    // and a failed CI run under ASan). Measured: 0.10 s for 5,000, 0.52 s for 20,000.
    const size_t count = std::string(pattern) == "Hips" ? 20000 : 10000;
    // The fastest of three runs each: a run slowed by the machine's other work says nothing.
    double quarter = 1e9, full = 1e9;
    for (int run = 0; run < 3; ++run) {
      quarter = std::min(quarter, SecondsToGuess(pattern, count / 4));
      full = std::min(full, SecondsToGuess(pattern, count));
    }
    EXPECT_LT(full, 8 * quarter + 0.25) << pattern << ": n/4 " << quarter << " s, n " << full;
  }
}

}  // namespace
}  // namespace animconv
