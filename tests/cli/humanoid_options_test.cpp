// convert's bone-naming and retargeting options (--bone-names, --bone-map, --skeleton,
// --source-facing), run through the real binary on data/unity/anim.csv.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Sample() { return testing::SourcePath("data/unity/anim.csv"); }

// The three.js clip's tracks by name: name -> values.
std::map<std::string, nlohmann::json> Tracks(const std::string& path) {
  std::map<std::string, nlohmann::json> tracks;
  const nlohmann::json clip = nlohmann::json::parse(testing::ReadText(path));
  for (const auto& track : clip["tracks"]) {
    tracks[track["name"].get<std::string>()] = track["values"];
  }
  return tracks;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HumanoidOptionsTest, BoneNamesMixamoGivesSanitisedMixamoTracks) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") + " --bone-names mixamo");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto tracks = Tracks(dir.File("a.json"));
  // three.js's sanitizeNodeName drops the ':' of "mixamorig:Hips".
  EXPECT_EQ(tracks.count("mixamorigHips.quaternion"), 1u);
  EXPECT_EQ(tracks.count("mixamorigSpine1.quaternion"), 1u);  // chest
  EXPECT_EQ(tracks.count("mixamorigSpine2.quaternion"), 1u);  // upperChest
  EXPECT_EQ(tracks.count("hips.quaternion"), 0u);
  // Mixamo has no eyes or jaw: those keep their names, with a warning.
  EXPECT_EQ(tracks.count("jaw.quaternion"), 1u);
  EXPECT_TRUE(Contains(result.output,
                       "warning: --bone-names: 'jaw' keeps its name: mixamo naming has no Jaw"))
      << result.output;
  EXPECT_EQ(tracks.size(), 55u);

  // Read back, the Mixamo names are guessed; the plain "jaw" does not stop that.
  const auto info = RunAnimconv("-q info --json " + dir.File("a.json"));
  ASSERT_EQ(info.exit_code, 0) << info.output;
  const auto humanoid = nlohmann::json::parse(info.output)["humanoid"];
  EXPECT_EQ(humanoid["bones_mapped"], 52);
  EXPECT_EQ(humanoid["guessed"]["naming"], "mixamo");
  EXPECT_EQ(humanoid["guessed"]["prefix"], "mixamorig");
}

TEST(HumanoidOptionsTest, BoneNamesVrm1ShiftsTheThumbNames) {
  TempDir dir;
  ASSERT_EQ(RunAnimconv("-q convert " + Sample() + " -o " + dir.File("vrm0.json")).exit_code, 0);
  const auto result =
      RunAnimconv("-q convert " + Sample() + " -o " + dir.File("vrm1.json") + " --bone-names vrm1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto vrm0 = Tracks(dir.File("vrm0.json"));
  const auto vrm1 = Tracks(dir.File("vrm1.json"));
  // The same data, one thumb joint further along in name.
  EXPECT_EQ(vrm1.at("leftThumbMetacarpal.quaternion"), vrm0.at("leftThumbProximal.quaternion"));
  EXPECT_EQ(vrm1.at("leftThumbProximal.quaternion"), vrm0.at("leftThumbIntermediate.quaternion"));
  EXPECT_EQ(vrm1.at("rightThumbProximal.quaternion"), vrm0.at("rightThumbIntermediate.quaternion"));
  EXPECT_EQ(vrm1.at("leftThumbDistal.quaternion"), vrm0.at("leftThumbDistal.quaternion"));
  EXPECT_EQ(vrm1.count("leftThumbIntermediate.quaternion"), 0u);
  EXPECT_NE(vrm0.at("leftThumbProximal.quaternion"), vrm0.at("leftThumbIntermediate.quaternion"));

  // Read back, the VRM 1.0 names give each thumb joint its own data again: the unity-csv columns
  // come out as from the clip with VRM 0.x names.
  for (const std::string naming : {"vrm0", "vrm1"}) {
    const auto back = RunAnimconv("-q convert " + dir.File(naming + ".json") + " -o " +
                                  dir.File(naming + ".csv") + " --to unity-csv");
    ASSERT_EQ(back.exit_code, 0) << back.output;
  }
  EXPECT_EQ(testing::ReadText(dir.File("vrm1.csv")), testing::ReadText(dir.File("vrm0.csv")));
}

TEST(HumanoidOptionsTest, AGltfWhoseRestPoseFacesMinusZIsRetargetedAsFacingMinusZ) {
  // data/gltf/walk.glb is walk.csv's T-pose, facing -Z; glTF's +Z convention, taken as its
  // facing, turned its .vrma 180° (146° off walk.csv's own .vrma) with exit 0. The rest pose wins.
  TempDir dir;
  const auto from_csv = RunAnimconv("convert " + testing::SourcePath("data/unity/walk.csv") +
                                    " -o " + dir.File("csv.vrma"));
  ASSERT_EQ(from_csv.exit_code, 0) << from_csv.output;
  const auto from_glb = RunAnimconv("convert " + testing::SourcePath("data/gltf/walk.glb") +
                                    " -o " + dir.File("glb.vrma"));
  ASSERT_EQ(from_glb.exit_code, 0) << from_glb.output;
  const auto info = RunAnimconv("info " + testing::SourcePath("data/gltf/walk.glb"));
  EXPECT_NE(info.output.find("facing -Z"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("facing -Z measured from the rest pose"), std::string::npos)
      << info.output;
  const auto diff =
      RunAnimconv("-q diff --json " + dir.File("csv.vrma") + " " + dir.File("glb.vrma"));
  ASSERT_EQ(diff.exit_code, 0) << diff.output;
  const nlohmann::json result = nlohmann::json::parse(diff.output);
  EXPECT_LT(result["overall"]["deg"]["max"].get<double>(), 1e-3) << diff.output;
}

TEST(HumanoidOptionsTest, BoneMapRenamesTheHips) {
  TempDir dir;
  testing::WriteText(dir.File("map.txt"), "# VRoid names\nhips, J_Bip_C_Hips\n");
  const auto result = RunAnimconv("-q convert " + Sample() + " -o " + dir.File("a.json") +
                                  " --bone-map " + dir.File("map.txt"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto tracks = Tracks(dir.File("a.json"));
  EXPECT_EQ(tracks.count("J_Bip_C_Hips.quaternion"), 1u);
  EXPECT_EQ(tracks.count("hips.quaternion"), 0u);
  EXPECT_EQ(tracks.count("spine.quaternion"), 1u);
  EXPECT_EQ(tracks.size(), 55u);
}

TEST(HumanoidOptionsTest, BoneMapSyntaxErrorIsBadInputAtFileLineColumn) {
  TempDir dir;
  testing::WriteText(dir.File("map.txt"), "hips, J_Bip_C_Hips\nspine J_Bip_C_Spine\n");
  const auto result = RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") +
                                  " --bone-map " + dir.File("map.txt"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(Contains(result.output, dir.File("map.txt") +
                                          ":2:1: expected 'from,to', found no ',' in 'spine "
                                          "J_Bip_C_Spine'"))
      << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);  // only the map
}

TEST(HumanoidOptionsTest, UnknownBoneNamingIsAUsageError) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") + " --bone-names bogus");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.output, "--bone-names must be unity, vrm0, vrm1 or mixamo"))
      << result.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(HumanoidOptionsTest, BadSourceFacingIsAUsageError) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") + " --source-facing up");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.output, "--source-facing must be +z or -z")) << result.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

// A glTF scene of two nodes whose names follow no humanoid naming.
const char kPlainModel[] = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],)"
                           R"("nodes":[{"name":"root","children":[1]},{"name":"child"}]})";

TEST(HumanoidOptionsTest, SkeletonWithoutHumanoidBonesIsAUsageError) {
  TempDir dir;
  testing::WriteText(dir.File("plain.gltf"), kPlainModel);
  const auto result = RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") +
                                  " --skeleton " + dir.File("plain.gltf"));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.output, "the --skeleton model " + dir.File("plain.gltf") +
                                          " has no humanoid bones: name its nodes after a known "
                                          "naming (animconv bones) or map them with --bone-map"))
      << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);  // only the model
}

TEST(HumanoidOptionsTest, OutputMayNotBeTheSkeleton) {
  TempDir dir;
  const std::string model = dir.File("plain.gltf");
  testing::WriteText(model, kPlainModel);
  const auto result = RunAnimconv("convert " + Sample() + " -o " + model + " --skeleton " + model);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.output,
                       "the output '" + model + "' is the --skeleton model; choose another name"))
      << result.output;
  EXPECT_EQ(testing::ReadText(model), kPlainModel);
  EXPECT_EQ(dir.FileCount(), 1u);
}

// --- The hips plausibility check after retargeting (pipeline/retarget_job.cpp) ---

const char* const kHipsWarning = "the retargeted hips are";
const char* const kFeetWarning = "the retargeted feet go";

std::string SharedVrm(const std::string& name) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/" + name;
}

// The CMU walk with every frame's Yposition (the second MOTION value) replaced by `y`.
std::string WalkWithHipsY(const std::string& y) {
  const std::string text =
      testing::ReadText(testing::SourcePath("data/bvh/cmu_walk_hips_at_origin.bvh"));
  const size_t motion = text.find("Frame Time:");
  std::string out = text.substr(0, text.find('\n', motion) + 1);
  std::istringstream lines(text.substr(out.size()));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream values(line);
    std::vector<std::string> fields;
    for (std::string field; values >> field;) fields.push_back(field);
    if (fields.size() > 1) fields[1] = y;
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? " " : "") + fields[i];
    out += "\n";
  }
  return out;
}

TEST(HumanoidOptionsTest, AWalkRetargetedOntoAVrmStandsOnTheFloorWithoutWarning) {
  const std::string model = SharedVrm("vrmaddon_debug_robot.vrm");
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent";
  TempDir dir;
  const std::string walk = testing::SourcePath("data/bvh/cmu_walk_hips_at_origin.bvh");
  for (const std::string output : {"walk.glb", "walk.vrma"}) {
    const auto result = RunAnimconv("convert " + walk + " -o " + dir.File(output) +
                                    (output == "walk.glb" ? " --skeleton " + model : ""));
    EXPECT_EQ(result.exit_code, 0) << output << result.output;
    EXPECT_FALSE(Contains(result.output, kHipsWarning)) << output << result.output;
    EXPECT_FALSE(Contains(result.output, kFeetWarning)) << output << result.output;
  }
  // The same file written back as a plain BVH copy: the test's rewriting changes nothing else.
  testing::WriteText(dir.File("same.bvh"), WalkWithHipsY("17.0000"));
  const auto same = RunAnimconv("convert " + dir.File("same.bvh") + " -o " + dir.File("same.glb") +
                                " --skeleton " + model);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_FALSE(Contains(same.output, kHipsWarning)) << same.output;
  EXPECT_FALSE(Contains(same.output, kFeetWarning)) << same.output;
}

TEST(HumanoidOptionsTest, HipsTranslationThatDoesNotFitTheRestPoseIsAWarningWithTheFix) {
  const std::string model = SharedVrm("vrmaddon_debug_robot.vrm");
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent";
  TempDir dir;
  // Hips translation relative to the start (Y = 0): the hips on the floor, the feet under it.
  testing::WriteText(dir.File("low.bvh"), WalkWithHipsY("0"));
  const auto low = RunAnimconv("convert " + dir.File("low.bvh") + " -o " + dir.File("low.glb") +
                               " --skeleton " + model);
  EXPECT_EQ(low.exit_code, 0) << low.output;
  EXPECT_TRUE(Contains(low.output, "animconv: warning: the retargeted hips are")) << low.output;
  EXPECT_TRUE(Contains(low.output, "--source-rig MODEL")) << low.output;
  // Ten times the rest pose's hips height: hips several metres up.
  testing::WriteText(dir.File("high.bvh"), WalkWithHipsY("170"));
  const auto high = RunAnimconv("convert " + dir.File("high.bvh") + " -o " + dir.File("high.vrma"));
  EXPECT_EQ(high.exit_code, 0) << high.output;
  EXPECT_TRUE(Contains(high.output, kHipsWarning)) << high.output;
  // Hips slightly lower than at rest (the knees bent by a few cm) is still a walk... but half
  // the rest height puts the feet well under the floor while the hips stay in a person's range.
  testing::WriteText(dir.File("half.bvh"), WalkWithHipsY("11"));
  const auto half = RunAnimconv("convert " + dir.File("half.bvh") + " -o " + dir.File("half.glb") +
                                " --skeleton " + model);
  EXPECT_EQ(half.exit_code, 0) << half.output;
  EXPECT_TRUE(Contains(half.output, "animconv: warning: the retargeted feet go")) << half.output;
}

// The review of session 36: the CMU walk drawn Z-up (3ds Max axes) played lying on its back in its
// .vrma, and drawn facing +X it needed --source-facing and then played 117 degrees off; a .glb of
// it (which declares +Z) needed nothing. Each rig is turned by its rest pose's body frame: every
// .vrma plays as the upright walk's, the diff of the BVH against it finds the lost thumb only,
// and what cannot work along +Y on such a rig is refused with the fix.
TEST(HumanoidOptionsTest, RigsStandingZUpOrFacingXPlayAsTheUprightOne) {
  TempDir dir;
  const auto upright = RunAnimconv("convert " + testing::SourcePath("data/bvh/cmu_walk.bvh") +
                                   " -o " + dir.File("upright.vrma"));
  ASSERT_EQ(upright.exit_code, 0) << upright.output;
  for (const std::string& name : std::vector<std::string>{"cmu_walk_z_up", "cmu_walk_facing_x"}) {
    SCOPED_TRACE(name);
    const std::string bvh = testing::SourcePath("data/bvh/" + name + ".bvh");
    // Through the BVH, and through a .glb of it, which keeps the rig and declares +Z.
    ASSERT_EQ(RunAnimconv("convert " + bvh + " -o " + dir.File(name + ".glb")).exit_code, 0);
    for (const std::string& input : {bvh, dir.File(name + ".glb")}) {
      const auto vrma = RunAnimconv("convert " + input + " -o " + dir.File("turned.vrma"));
      ASSERT_EQ(vrma.exit_code, 0) << vrma.output;
      EXPECT_TRUE(Contains(vrma.output, "the input's rest pose stands up +")) << vrma.output;
      const auto diff =
          RunAnimconv("-q diff --json " + dir.File("upright.vrma") + " " + dir.File("turned.vrma"));
      ASSERT_EQ(diff.exit_code, 0) << diff.output;
      const nlohmann::json result = nlohmann::json::parse(diff.output);
      // float32 in the .glb: a few millionths of a degree.
      EXPECT_LT(result["overall"]["deg"]["max"].get<double>(), 1e-4) << diff.output;
      EXPECT_LT(result["overall"]["m"]["max"].get<double>(), 1e-6) << diff.output;
    }
    const auto against = RunAnimconv("-q diff --json " + bvh + " " + dir.File("turned.vrma"));
    ASSERT_EQ(against.exit_code, 0) << against.output;
    const nlohmann::json result = nlohmann::json::parse(against.output);
    EXPECT_TRUE(result["space"]["turn_b"].get<bool>());
    for (const auto& channel : result["channels"]) {
      if (channel["node"] == "LThumb") continue;  // no place in a .vrma, and warned about
      EXPECT_LT(channel["max"].get<double>(), 1e-3) << channel.dump();
    }
  }
  // --ground and --root-motion measure along +Y: refused on the Z-up rig as drawn, not applied
  // along its depth; on the retargeted one, and on the rig standing up +Y facing +X, they work.
  const std::string z_up = testing::SourcePath("data/bvh/cmu_walk_z_up.bvh");
  for (const std::string& option : std::vector<std::string>{"--ground", "--root-motion in-place"}) {
    const auto refused =
        RunAnimconv("convert " + z_up + " -o " + dir.File("refused.glb") + " " + option);
    EXPECT_EQ(refused.exit_code, 1) << refused.output;
    EXPECT_TRUE(Contains(refused.output,
                         "works along +Y, and the input's rest pose stands up +Z, "
                         "facing -Y: retarget it onto an upright rig first"))
        << refused.output;
    EXPECT_FALSE(std::filesystem::exists(dir.File("refused.glb")));
    const auto retargeted =
        RunAnimconv("convert " + z_up + " -o " + dir.File("grounded.vrma") + " " + option);
    EXPECT_EQ(retargeted.exit_code, 0) << retargeted.output;
    // Onto a --skeleton model drawn Z-up, the target is what stands otherwise, and is named.
    const auto onto =
        RunAnimconv("convert " + testing::SourcePath("data/bvh/cmu_walk.bvh") + " --skeleton " +
                    dir.File("cmu_walk_z_up.glb") + " -o " + dir.File("onto.glb") + " " + option);
    EXPECT_EQ(onto.exit_code, 1) << onto.output;
    EXPECT_TRUE(Contains(onto.output,
                         "the target's rest pose stands up +Z, facing -Y: give a "
                         "--skeleton model standing up +Y"))
        << onto.output;
    const auto facing_x =
        RunAnimconv("convert " + testing::SourcePath("data/bvh/cmu_walk_facing_x.bvh") + " -o " +
                    dir.File("facing_x.glb") + " " + option);
    EXPECT_EQ(facing_x.exit_code, 0) << facing_x.output;
  }
  // --source-facing says +Z or -Z of a rig standing up +Y: not used for one facing +X.
  const auto facing =
      RunAnimconv("convert " + testing::SourcePath("data/bvh/cmu_walk_facing_x.bvh") + " -o " +
                  dir.File("f.vrma") + " --source-facing -z");
  EXPECT_EQ(facing.exit_code, 0) << facing.output;
  EXPECT_TRUE(Contains(facing.output,
                       "warning: --source-facing -z is not used: the input's rest pose stands up "
                       "+Y, facing +X"))
      << facing.output;
}

// A small Mixamo-named BVH whose rest pose is turned `degrees` about +Y, one frame at rest.
std::string TurnedBvh(double degrees) {
  const double radians = degrees * 3.14159265358979323846 / 180;
  const auto offset = [&](double x, double y, double z) {
    return fmt::format("OFFSET {:.6f} {:.6f} {:.6f}", x * std::cos(radians) + z * std::sin(radians),
                       y, -x * std::sin(radians) + z * std::cos(radians));
  };
  std::string text = "HIERARCHY\nROOT Hips\n{\n" + offset(0, 100, 0) +
                     "\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  const auto chain = [&](const std::vector<std::pair<std::string, std::array<double, 3>>>& joints) {
    std::string out;
    for (const auto& [name, at] : joints) {
      out += "JOINT " + name + "\n{\n" + offset(at[0], at[1], at[2]) +
             "\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
    }
    out += "End Site\n{\nOFFSET 0 1 0\n}\n";
    for (size_t i = 0; i < joints.size(); ++i) out += "}\n";
    return out;
  };
  text += chain({{"Spine", {0, 10, 0}}, {"Neck", {0, 30, 0}}, {"Head", {0, 10, 0}}});
  text += chain({{"LeftArm", {15, 45, 0}}, {"LeftForeArm", {25, 0, 0}}, {"LeftHand", {25, 0, 0}}});
  text += chain(
      {{"RightArm", {-15, 45, 0}}, {"RightForeArm", {-25, 0, 0}}, {"RightHand", {-25, 0, 0}}});
  text += chain({{"LeftUpLeg", {10, -5, 0}}, {"LeftLeg", {0, -45, 0}}, {"LeftFoot", {0, -45, 0}}});
  text +=
      chain({{"RightUpLeg", {-10, -5, 0}}, {"RightLeg", {0, -45, 0}}, {"RightFoot", {0, -45, 0}}});
  text += "}\nMOTION\nFrames: 2\nFrame Time: 0.5\n";
  for (int frame = 0; frame < 2; ++frame) {
    text += fmt::format("0 100 {}", frame * 10);
    for (int v = 0; v < 3 + 15 * 3; ++v) text += " 0";  // the root's rotation, 15 joints
    text += "\n";
  }
  return text;
}

// The review of session 36: a glTF facing 30 degrees off -Z (turned 150 degrees) kept the +Z its
// format declares, since its left limbs were too far off the X axis to say -Z, and its .vrma
// played 152 degrees off with exit 0 (the BVH itself was refused for want of a facing). The
// nearer of ±Z is the rest pose's: the glTF measures -Z, and both retarget with a warning of the
// 30 degrees, which the motion then plays about axes that far off.
TEST(HumanoidOptionsTest, ARigFacingBetweenAxesTakesTheNearerFacingAndWarns) {
  TempDir dir;
  testing::WriteText(dir.File("r150.bvh"), TurnedBvh(150));
  const auto glb = RunAnimconv("convert " + dir.File("r150.bvh") + " -o " + dir.File("r150.glb"));
  ASSERT_EQ(glb.exit_code, 0) << glb.output;
  const auto info = RunAnimconv("info " + dir.File("r150.glb"));
  EXPECT_TRUE(Contains(info.output, "facing -Z measured from the rest pose")) << info.output;
  for (const std::string& input : {dir.File("r150.bvh"), dir.File("r150.glb")}) {
    const auto vrma = RunAnimconv("convert " + input + " -o " + dir.File("r150.vrma"));
    EXPECT_EQ(vrma.exit_code, 0) << vrma.output;
    EXPECT_TRUE(Contains(vrma.output,
                         "warning: the input's rest pose faces 30 deg off the nearest "
                         "world axis"))
        << vrma.output;
  }
}

TEST(HumanoidOptionsTest, HipsInCentimetresWithoutARestPoseNameScale) {
  TempDir dir;
  // An animconv CSV has no rest pose: its hips translation is read as metres.
  testing::WriteText(dir.File("cm.csv"),
                     "time,hips.translation.x,hips.translation.y,hips.translation.z\n"
                     "0,0,95,0\n0.5,0,96,10\n1,0,95,20\n");
  const std::string common = "convert " + dir.File("cm.csv") + " --source-facing +z -o ";
  const auto cm = RunAnimconv(common + dir.File("cm.vrma"));
  EXPECT_EQ(cm.exit_code, 0) << cm.output;
  EXPECT_TRUE(Contains(cm.output, kHipsWarning)) << cm.output;
  EXPECT_TRUE(Contains(cm.output, "--scale F")) << cm.output;
  const auto metres = RunAnimconv(common + dir.File("m.vrma") + " --scale 0.01");
  EXPECT_EQ(metres.exit_code, 0) << metres.output;
  EXPECT_FALSE(Contains(metres.output, kHipsWarning)) << metres.output;
}

}  // namespace
}  // namespace animconv
