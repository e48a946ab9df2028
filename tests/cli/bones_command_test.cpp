// `animconv bones` and the humanoid part of `animconv info`, run through the real binary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// Columns of a table row, split on runs of spaces.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::istringstream stream(row);
  for (std::string cell; stream >> cell;) cells.push_back(cell);
  return cells;
}

TEST(BonesCommandTest, ListsTheTableInAllFourNamings) {
  const auto result = RunAnimconv("bones");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> lines = Lines(result.output);
  ASSERT_EQ(lines.size(), 56u);
  EXPECT_EQ(Cells(lines[0]),
            (std::vector<std::string>{"#", "unity", "vrm0", "vrm1", "mixamo", "required"}));
  EXPECT_EQ(Cells(lines[1]), (std::vector<std::string>{"0", "Hips", "hips", "hips",
                                                       "mixamorig:Hips", "0.x", "1.0"}));
  EXPECT_EQ(Cells(lines[9]),
            (std::vector<std::string>{"8", "Chest", "chest", "chest", "mixamorig:Spine1", "0.x"}));
  EXPECT_EQ(Cells(lines[22]),
            (std::vector<std::string>{"21", "LeftEye", "leftEye", "leftEye", "-"}));
  EXPECT_EQ(Cells(lines[25]),
            (std::vector<std::string>{"24", "LeftThumbProximal", "leftThumbProximal",
                                      "leftThumbMetacarpal", "mixamorig:LeftHandThumb1"}));
  EXPECT_EQ(Cells(lines[55]), (std::vector<std::string>{"54", "UpperChest", "upperChest",
                                                        "upperChest", "mixamorig:Spine2"}));
}

TEST(BonesCommandTest, ListsOnlyTheChosenNamings) {
  const auto result = RunAnimconv("bones --from vrm0 --to vrm1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> lines = Lines(result.output);
  ASSERT_EQ(lines.size(), 56u);
  EXPECT_EQ(Cells(lines[0]), (std::vector<std::string>{"#", "vrm0", "vrm1", "required"}));
  EXPECT_EQ(Cells(lines[26]),
            (std::vector<std::string>{"25", "leftThumbIntermediate", "leftThumbProximal"}));
}

TEST(BonesCommandTest, TranslatesTheThumbShiftBothWays) {
  auto result = RunAnimconv("bones --from vrm0 leftThumbProximal leftThumbIntermediate");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "leftThumbMetacarpal\nleftThumbProximal\n");
  result = RunAnimconv("bones --from vrm1 --to vrm0 leftThumbMetacarpal leftThumbProximal");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "leftThumbProximal\nleftThumbIntermediate\n");
}

TEST(BonesCommandTest, GuessesTheInputNaming) {
  const auto result = RunAnimconv(
      "bones --to unity mixamorigHips mixamorig1:Spine2 mixamorig_LeftHandThumb1 "
      "rightThumbMetacarpal LeftThumbProximal");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            "Hips\nUpperChest\nLeftThumbProximal\nRightThumbProximal\nLeftThumbProximal\n");
  EXPECT_EQ(RunAnimconv("bones --to mixamo Chest").output, "mixamorig:Spine1\n");
}

TEST(BonesCommandTest, ExitCodes) {
  const auto unknown = RunAnimconv("bones hips J_Bip_C_Hips");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.output,
            "animconv: error: 'J_Bip_C_Hips' is not a humanoid bone name in any naming "
            "(animconv bones lists them)\n");
  const auto wrong_naming = RunAnimconv("bones --from mixamo leftUpperLeg");
  EXPECT_EQ(wrong_naming.exit_code, 2);
  EXPECT_NE(wrong_naming.output.find("'leftUpperLeg' is not a mixamo bone name"), std::string::npos)
      << wrong_naming.output;
  const auto no_eyes = RunAnimconv("bones --to mixamo leftEye");
  EXPECT_EQ(no_eyes.exit_code, 2);
  EXPECT_NE(no_eyes.output.find("'leftEye' (LeftEye) has no mixamo name"), std::string::npos);
  const auto ambiguous = RunAnimconv("bones leftThumbProximal");
  EXPECT_EQ(ambiguous.exit_code, 1);
  EXPECT_NE(ambiguous.output.find("give --from vrm0 or --from vrm1"), std::string::npos);
  const auto bad_naming = RunAnimconv("bones --to vrm2 hips");
  EXPECT_EQ(bad_naming.exit_code, 1);
  EXPECT_NE(bad_naming.output.find("--to must be unity, vrm0, vrm1 or mixamo, not 'vrm2'"),
            std::string::npos);
  EXPECT_EQ(RunAnimconv("bones --frm vrm0").exit_code, 1);
  const auto help = RunAnimconv("bones --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--from arg"), std::string::npos) << help.output;
  EXPECT_NE(RunAnimconv("--help").output.find("bones [NAME...]"), std::string::npos);
}

// A three.js clip whose tracks use three.js-sanitised Mixamo node names.
std::string MixamoClip() {
  nlohmann::json tracks = nlohmann::json::array();
  for (const char* bone : {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "LeftUpLeg",
                           "RightUpLeg", "LeftArm", "RightArm", "HeadTop_End", "Hat"}) {
    tracks.push_back({{"name", std::string("mixamorig") + bone + ".quaternion"},
                      {"times", {0}},
                      {"values", {0, 0, 0, 1}},
                      {"type", "quaternion"}});
  }
  return nlohmann::json{{"name", "wave"}, {"duration", 1}, {"tracks", tracks}}.dump();
}

TEST(InfoHumanoidTest, JsonReportsTheGuessAndMissingBones) {
  testing::TempDir dir;
  testing::WriteText(dir.File("wave.json"), MixamoClip());
  const auto result = RunAnimconv("-q info --json " + dir.File("wave.json"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto info = nlohmann::json::parse(result.output);
  EXPECT_EQ(info["notes"],
            nlohmann::json::array({"humanoid bones guessed from node names: 10 in mixamo naming "
                                   "(prefix 'mixamorig'); Spine1 read as chest, Spine2 as "
                                   "upperChest; not matched: mixamorigHat"}));
  const auto humanoid = info["humanoid"];
  EXPECT_EQ(humanoid["bones_mapped"], 10);
  EXPECT_EQ(humanoid["bones"][4],
            nlohmann::json({{"index", 8}, {"bone", "chest"}, {"node", "mixamorigSpine1"}}));
  EXPECT_EQ(humanoid["missing_required_vrm1"],
            nlohmann::json::array({"leftLowerLeg", "rightLowerLeg", "leftFoot", "rightFoot",
                                   "leftLowerArm", "rightLowerArm", "leftHand", "rightHand"}));
  EXPECT_EQ(humanoid["missing_required_vrm0"].size(), 8u);
  nlohmann::json guessed = nlohmann::json::object();
  guessed["naming"] = "mixamo";
  guessed["bones_matched"] = 10;
  guessed["prefix"] = "mixamorig";
  guessed["thumbs_ambiguous"] = false;
  guessed["unmatched"] = nlohmann::json::array({"mixamorigHat"});  // HeadTop_End: an end joint
  EXPECT_EQ(humanoid["guessed"], guessed);
}

// A BVH naming is the same in the text and in --json (the JSON said "unity" for them).
TEST(InfoHumanoidTest, JsonAndTextNameTheSameMocapNaming) {
  nlohmann::json tracks = nlohmann::json::array();
  for (const char* joint : {"hip", "abdomenLower", "chestLower", "neckLower", "head", "lThighBend",
                            "rThighBend", "lShin", "rShin", "lShldrBend", "rShldrBend"}) {
    tracks.push_back({{"name", std::string(joint) + ".quaternion"},
                      {"times", {0}},
                      {"values", {0, 0, 0, 1}},
                      {"type", "quaternion"}});
  }
  testing::TempDir dir;
  testing::WriteText(dir.File("daz.json"),
                     nlohmann::json{{"name", "daz"}, {"tracks", tracks}}.dump());
  const auto json = RunAnimconv("-q info --json " + dir.File("daz.json"));
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_EQ(nlohmann::json::parse(json.output)["humanoid"]["guessed"]["naming"], "daz-genesis");
  const auto text = RunAnimconv("info " + dir.File("daz.json"));
  EXPECT_NE(text.output.find("11 in daz-genesis naming"), std::string::npos) << text.output;
}

TEST(InfoHumanoidTest, JsonFlagsAGuessWithAmbiguousThumbs) {
  // Prefixed VRM 0.x / 1.0 lowercase names with a "leftThumbProximal" but no Metacarpal or
  // Intermediate: the guess reads it as VRM 0.x and says it may be one joint off.
  nlohmann::json tracks = nlohmann::json::array();
  for (const char* bone : {"hips", "spine", "chest", "neck", "head", "leftUpperLeg",
                           "rightUpperLeg", "leftUpperArm", "leftThumbProximal"}) {
    tracks.push_back({{"name", std::string("rig_") + bone + ".quaternion"},
                      {"times", {0}},
                      {"values", {0, 0, 0, 1}},
                      {"type", "quaternion"}});
  }
  testing::TempDir dir;
  testing::WriteText(dir.File("thumb.json"),
                     nlohmann::json{{"name", "thumb"}, {"tracks", tracks}}.dump());
  const auto result = RunAnimconv("-q info --json " + dir.File("thumb.json"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto humanoid = nlohmann::json::parse(result.output)["humanoid"];
  EXPECT_EQ(humanoid["guessed"]["naming"], "vrm0");
  EXPECT_EQ(humanoid["guessed"]["bones_matched"], 9);
  EXPECT_EQ(humanoid["guessed"]["prefix"], "rig_");
  EXPECT_EQ(humanoid["guessed"]["thumbs_ambiguous"], true);
  EXPECT_TRUE(humanoid["guessed"]["unmatched"].empty());
  EXPECT_EQ(humanoid["bones"][8], nlohmann::json({{"index", 24},
                                                  {"bone", "leftThumbMetacarpal"},
                                                  {"node", "rig_leftThumbProximal"}}));
}

TEST(InfoHumanoidTest, TextReportsCoverageAndTheGuess) {
  testing::TempDir dir;
  testing::WriteText(dir.File("wave.json"), MixamoClip());
  const auto result = RunAnimconv("info " + dir.File("wave.json"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("humanoid: 10 of 55 bones mapped; required missing for VRM "
                               "1.0/VRMA: leftLowerLeg, rightLowerLeg, leftFoot"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("note: humanoid bones guessed from node names: 10 in mixamo "
                               "naming (prefix 'mixamorig'); Spine1 read as chest"),
            std::string::npos)
      << result.output;

  const auto unity = RunAnimconv("-q info --json " + testing::SourcePath("data/unity/anim.csv"));
  ASSERT_EQ(unity.exit_code, 0) << unity.output;
  const auto humanoid = nlohmann::json::parse(unity.output)["humanoid"];
  EXPECT_EQ(humanoid["bones_mapped"], 55);
  EXPECT_TRUE(humanoid["missing_required_vrm1"].empty());
  EXPECT_TRUE(humanoid["missing_required_vrm0"].empty());
  EXPECT_EQ(humanoid["bones"][54]["node"], "upperChest");
  EXPECT_TRUE(humanoid["guessed"].is_null());  // the reader named the bones
}

}  // namespace
}  // namespace animconv
