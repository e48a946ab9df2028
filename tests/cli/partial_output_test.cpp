// Outputs that hold no animation or lost most of the input's fail with exit 2 unless
// --allow-partial (docs/cli.md "Partial outputs"); a Unity CSV written at another rate than the
// reader's 0.2 s default says how to read it back (docs/formats/unity-csv.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "animconv/convert.h"
#include "formats/csv/unity_csv.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::Has;
using testing::RunAnimconv;
using testing::TempDir;

std::string Shared(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

// `convert INPUT -o OUTPUT` fails with exit 2, writing nothing and saying `loss`; with
// --allow-partial it writes OUTPUT and warns with the same text.
void ExpectPartial(const std::string& input, const std::string& output_name,
                   const std::string& loss, const std::string& options = "") {
  TempDir dir;
  const std::string command = "convert " + input + " -o " + dir.File(output_name) + options;
  const auto refused = RunAnimconv(command);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(Has(refused.output, "error: " + input + ": " + loss)) << refused.output;
  EXPECT_TRUE(Has(refused.output, "pass --allow-partial to write it anyway")) << refused.output;
  EXPECT_EQ(dir.FileCount(), 0u);

  const auto allowed = RunAnimconv(command + " --allow-partial");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
  EXPECT_TRUE(Has(allowed.output, "warning: --allow-partial: " + loss)) << allowed.output;
  EXPECT_TRUE(fs::exists(dir.File(output_name)));
}

TEST(PartialOutputTest, AModelWithoutAnimationIsNoVrma) {
  ExpectPartial(Shared("vrm/vrmaddon_debug_robot.vrm"), "robot.vrma",
                "the input holds no animation (no clip)");
}

TEST(PartialOutputTest, AMorphOnlyClipIsNoHierarchyJson) {
  // The hierarchy writer drops morph weights (parseAnimation's morph branch throws), which left
  // a file with an empty clip that three.js's parseAnimation returns null for, with exit 0.
  ExpectPartial(testing::SourcePath("data/gltf/morph_cube.gltf"), "cube.hierarchy.json",
                "the three-hierarchy output would hold no animation");
}

TEST(PartialOutputTest, AMorphOnlyClipIsNoBvh) {
  // BVH has no morph weights (Format::holds_morph_weights is false): the writer would drop all.
  ExpectPartial(testing::SourcePath("data/gltf/morph_cube.gltf"), "cube.bvh",
                "the bvh output would hold no animation");
}

TEST(PartialOutputTest, AVrmasExpressionAndLookAtAreLostInABvh) {
  // BVH has no place for them (Format::holds_vrma_roles); they were written as joints "happy"
  // and "lookAt" with exit 0. This VRMA turns one bone besides them: most of it is lost.
  ExpectPartial(Shared("vrm/three-vrm_test.vrma"), "test.bvh",
                "2 of the input's 3 animated channel(s) have no place in the bvh output: "
                "happy.translation, lookAt.rotation");
}

TEST(PartialOutputTest, AnFbxWithoutClipIsNoGlb) {
  ExpectPartial(Shared("fbx/threejs_morph_test.fbx"), "m.glb",
                "the input holds no animation (no clip)");
}

TEST(PartialOutputTest, UnityCsvThatDropsMostChannelsFails) {
  // three-vrm's test VRMA animates rightUpperArm, an expression and lookAt: a Unity CSV holds
  // the arm only.
  ExpectPartial(Shared("vrm/three-vrm_test.vrma"), "t.unity.csv",
                "2 of the input's 3 animated channel(s) have no place in the unity-csv output: "
                "happy.translation, lookAt.rotation");
}

// A clip whose tracks name nodes the --source-rig model does not have: each is warned about, and
// when they are most of the clip the output is partial.
TEST(PartialOutputTest, TracksThatMissTheSourceRigMakeAPartialOutput) {
  nlohmann::json tracks = nlohmann::json::array();
  for (const char* node : {"Hips", "Tail1", "Tail2", "Tail3"}) {
    tracks.push_back({{"name", std::string(node) + ".quaternion"},
                      {"type", "quaternion"},
                      {"times", {0, 1}},
                      {"values", {0, 0, 0, 1, 0, 0.2, 0, 0.98}}});
  }
  TempDir inputs;
  const std::string input = inputs.File("tail.json");
  testing::WriteText(input, nlohmann::json{{"name", "tail"}, {"tracks", tracks}}.dump());
  ExpectPartial(input, "tail.vrma",
                "3 of the input's 4 animated channel(s) match no node of the --source-rig model",
                " --source-rig " + Shared("vrm/vrmaddon_debug_robot.vrm"));
}

TEST(PartialOutputTest, AClipOfANonHumanoidRobotIsNoVrma) {
  // RobotExpressive's bones are no humanoid naming; only its Head matches a bone, so a .vrma
  // would move the head alone.
  ExpectPartial(Shared("threejs/generated-by-three-r187/threejs_RobotExpressive.clips.json"),
                "robot.vrma",
                "9 of the input's 10 animated channel(s) have no place in the vrma output: "
                "Body.rotation",
                // A three.js clip records no facing: the retargeting step would refuse first.
                " --clip 0 --source-facing +z");
}

TEST(PartialOutputTest, BatchCountsAPartialOutputAsFailed) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  fs::copy_file(testing::SourcePath("data/unity/walk.csv"), dir.File("in/walk.csv"));
  fs::copy_file(Shared("vrm/vrmaddon_debug_robot.vrm"), dir.File("in/robot.vrm"));
  const std::string common = "batch " + dir.File("in") + " -o " + dir.File("out") +
                             " --to vrma -j 1 --report " + dir.File("report.json");
  const auto result = RunAnimconv(common);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(Has(result.output, "1 converted, 0 skipped, 1 failed")) << result.output;
  EXPECT_FALSE(fs::exists(dir.File("out/robot.vrma")));
  const nlohmann::json report = nlohmann::json::parse(testing::ReadText(dir.File("report.json")));
  EXPECT_EQ(report["totals"]["failed"], 1);

  const auto allowed = RunAnimconv(common + " --allow-partial --overwrite");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
  EXPECT_TRUE(Has(allowed.output, "2 converted, 0 skipped, 0 failed")) << allowed.output;
  EXPECT_TRUE(fs::exists(dir.File("out/robot.vrma")));
}

TEST(UnityCsvIntervalTest, TheWriterSaysAnIntervalOtherThanTheReadersDefault) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(testing::MakeChannel(
      0, Path::kRotation, {0, 1.0 / 24, 2.0 / 24}, {0, 0, 0, 1, 0, 0.6, 0, 0.8, 0, 0, 0, 1}, 4));
  Diagnostics diagnostics;
  WriteOptions write;
  write.diagnostics = &diagnostics;
  WriteUnityCsv(asset, write);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[0].text,
            "unity-csv: rows every 0.0416666667 s (24 fps); read it back with --fps 24 (or "
            "--interval 0.0416666667): the reader's default is 0.2 s");

  // Sampled on a requested grid: the same; at the default 0.2 s nothing to say.
  diagnostics.clear();
  write.row_interval_seconds = 0.03;
  WriteUnityCsv(asset, write);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_TRUE(Has(diagnostics[0].text, "read it back with --interval 0.03:"))
      << diagnostics[0].text;
  diagnostics.clear();
  write.row_interval_seconds = 0.2;
  asset.clips[0].channels[0].times_seconds = {0, 0.2, 0.4};
  WriteUnityCsv(asset, write);
  EXPECT_TRUE(diagnostics.empty());
}

TEST(UnityCsvIntervalTest, A24FpsVrmaRoundTripsWithThePrintedOption) {
  TempDir dir;
  // A 24 fps VRMA: walk.csv resampled, trimmed to a whole number of frames.
  const auto made = RunAnimconv("convert " + testing::SourcePath("data/unity/walk.csv") + " -o " +
                                dir.File("w24.vrma") + " --trim 0:10.5 --resample 24");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const auto written =
      RunAnimconv("convert " + dir.File("w24.vrma") + " -o " + dir.File("w.unity.csv"));
  ASSERT_EQ(written.exit_code, 0) << written.output;
  EXPECT_TRUE(Has(written.output, "warning: unity-csv: rows every 0.0416666") &&
              Has(written.output, "read it back with --fps 24"))
      << written.output;
  const auto source = RunAnimconv("-q info --json " + dir.File("w24.vrma"));
  const auto back = RunAnimconv("-q info --json " + dir.File("w.unity.csv") + " --fps 24");
  ASSERT_EQ(back.exit_code, 0) << back.output;
  const nlohmann::json a = nlohmann::json::parse(source.output);
  const nlohmann::json b = nlohmann::json::parse(back.output);
  EXPECT_NEAR(b["clips"][0]["duration_seconds"].get<double>(),
              a["clips"][0]["duration_seconds"].get<double>(), 1e-6);
  EXPECT_NEAR(b["clips"][0]["duration_seconds"].get<double>(), 10.5, 1e-6);
  EXPECT_NEAR(b["clips"][0]["key_rate_hz"].get<double>(), 24, 1e-6);
  // Read with the default, the same rows would last 252 x 0.2 s: what the warning is for.
  const auto wrong = RunAnimconv("-q info --json " + dir.File("w.unity.csv"));
  EXPECT_NEAR(nlohmann::json::parse(wrong.output)["clips"][0]["duration_seconds"].get<double>(),
              50.4, 1e-6);
}

}  // namespace
}  // namespace animconv
