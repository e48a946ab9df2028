// `animconv diff` through the real binary: the numbers, both outputs, and the exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Sample() { return testing::SourcePath("data/unity/anim.csv"); }

nlohmann::json DiffJson(const std::string& arguments) {
  const auto result = RunAnimconv("-q diff --json " + arguments);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return nlohmann::json::parse(result.output);
}

// A three.js clip: "hips" rotates 10° about Y over 1 s; `with_arm` adds an arm translation.
std::string ThreeClip(double hips_degrees, bool with_arm) {
  const double half = hips_degrees * 3.14159265358979323846 / 360;
  nlohmann::json tracks = nlohmann::json::array();
  tracks.push_back({{"name", "hips.quaternion"},
                    {"type", "quaternion"},
                    {"times", {0, 1}},
                    {"values", {0, 0, 0, 1, 0, std::sin(half), 0, std::cos(half)}}});
  if (with_arm) {
    tracks.push_back(
        {{"name", "arm.position"}, {"type", "vector"}, {"times", {0}}, {"values", {0, 0.25, 0}}});
  }
  return nlohmann::json{{"name", "clip"}, {"duration", 1}, {"tracks", tracks}}.dump();
}

TEST(DiffCommandTest, ACsvAndItsThreeConversionAgreeToFloatPrecision) {
  TempDir dir;
  ASSERT_EQ(RunAnimconv("-q convert " + Sample() + " -o " + dir.File("x.json")).exit_code, 0);
  const nlohmann::json diff = DiffJson(Sample() + " " + dir.File("x.json"));
  EXPECT_EQ(diff["overall"]["deg"]["channels"], 55);
  EXPECT_LT(diff["overall"]["deg"]["max"].get<double>(), 1e-4);
  // Not zero: the JSON holds float text, which is what this proves harmless.
  EXPECT_GT(diff["overall"]["deg"]["max"].get<double>(), 0);
  EXPECT_TRUE(diff["only_in_a"].empty());
  EXPECT_TRUE(diff["only_in_b"].empty());
  EXPECT_EQ(diff["duration_difference_seconds"], 0);
}

TEST(DiffCommandTest, TheSpaceIsInTheJsonAndOnlyAWorldComparisonPrintsIt) {
  const nlohmann::json diff = DiffJson(Sample() + " " + Sample());
  EXPECT_EQ(diff["space"]["name"], "local");
  EXPECT_EQ(diff["space"]["requested"], "auto");
  EXPECT_EQ(diff["space"]["translation_scale"], 1);
  // Same rigs: the text is what it always was, without a space line.
  const auto same = RunAnimconv("diff " + Sample() + " " + Sample());
  EXPECT_EQ(same.output.find("space:"), std::string::npos) << same.output;
  const auto world = RunAnimconv("diff " + Sample() + " " + Sample() + " --space world");
  ASSERT_EQ(world.exit_code, 0) << world.output;
  EXPECT_NE(world.output.find("space: world (--space world)"), std::string::npos) << world.output;
  EXPECT_EQ(DiffJson(Sample() + " " + Sample() + " --space world")["space"]["name"], "world");
  const auto bad = RunAnimconv("diff " + Sample() + " " + Sample() + " --space model");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.output.find("--space must be auto, local or world, not 'model'"), std::string::npos)
      << bad.output;
}

TEST(DiffCommandTest, IdenticalFilesPrintZero) {
  const auto result = RunAnimconv("diff " + Sample() + " " + Sample() + " --hierarchical 0.1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("deg    max 0 (p99 0) over 55 channels\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("points at 0.1 m: max 0 m (p99 0) over 55 nodes\n"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("worst channels"), std::string::npos) << result.output;
}

TEST(DiffCommandTest, ReportsTheErrorAndAChannelOnlyInOneFile) {
  TempDir dir;
  testing::WriteText(dir.File("a.json"), ThreeClip(10, true));
  testing::WriteText(dir.File("b.json"), ThreeClip(12, false));
  const nlohmann::json diff = DiffJson(dir.File("a.json") + " " + dir.File("b.json"));
  EXPECT_NEAR(diff["overall"]["deg"]["max"].get<double>(), 2, 1e-5);
  EXPECT_NEAR(diff["overall"]["deg"]["time_of_max_seconds"].get<double>(), 1, 1e-12);
  EXPECT_EQ(diff["overall"]["deg"]["worst_node"], "hips");
  EXPECT_EQ(diff["only_in_a"], nlohmann::json({"arm.translation"}));
  ASSERT_EQ(diff["channels"].size(), 2u);
  EXPECT_EQ(diff["channels"][1]["node"], "arm");
  EXPECT_EQ(diff["channels"][1]["only_in_a"], true);
  EXPECT_NEAR(diff["channels"][1]["max"].get<double>(), 0.25, 1e-7);  // against the rest (0)
  EXPECT_EQ(diff["bones"].size(), 2u);
  EXPECT_TRUE(diff["hierarchical"].is_null());

  const auto text = RunAnimconv("diff " + dir.File("a.json") + " " + dir.File("b.json"));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("only in A (1): arm.translation\n"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("  hips.rotation"), std::string::npos) << text.output;
}

// Worst rotation error over channels in both clips (a channel only in one is another matter).
double WorstPairedDegrees(const nlohmann::json& diff) {
  double worst = 0;
  for (const auto& channel : diff["channels"]) {
    if (channel["unit"] == "deg" && !channel["only_in_a"] && !channel["only_in_b"]) {
      worst = std::max(worst, channel["max"].get<double>());
    }
  }
  return worst;
}

TEST(DiffCommandTest, AUnityCsvsRowsSpanTheOtherClipUnlessTheIntervalIsGiven) {
  // cmu_walk.bvh at 120 fps: its Unity CSV's rows are 1/120 s apart, which the file cannot say.
  TempDir dir;
  const std::string bvh = testing::SourcePath("data/bvh/cmu_walk.bvh");
  ASSERT_EQ(RunAnimconv("-q convert " + bvh + " -o " + dir.File("u.unity.csv")).exit_code, 0);
  for (const bool csv_first : {false, true}) {
    const std::string pair =
        csv_first ? dir.File("u.unity.csv") + " " + bvh : bvh + " " + dir.File("u.unity.csv");
    const nlohmann::json diff = DiffJson(pair);
    const char* side = csv_first ? "a" : "b";
    EXPECT_NEAR(diff[side]["row_interval_seconds"].get<double>(), 1.0 / 120, 1e-9) << pair;
    EXPECT_EQ(diff[side]["rows_fitted"], true);
    EXPECT_LT(std::abs(diff["duration_difference_seconds"].get<double>()), 1e-6);
    EXPECT_LT(WorstPairedDegrees(diff), 1e-3) << pair;
  }
  const auto text = RunAnimconv("diff " + bvh + " " + dir.File("u.unity.csv"));
  EXPECT_NE(text.output.find("timing: B's rows have no times: read 0.008333333"), std::string::npos)
      << text.output;
  // An interval given is the one used: at the reader's 0.2 s the walk plays 24 times slower.
  const nlohmann::json slow = DiffJson(bvh + " " + dir.File("u.unity.csv") + " --fps 5");
  EXPECT_FALSE(slow["b"].contains("rows_fitted"));
  EXPECT_GT(WorstPairedDegrees(slow), 10);
  // Same rate on both sides (anim.csv and its three.js conversion): nothing is fitted.
  ASSERT_EQ(RunAnimconv("-q convert " + Sample() + " -o " + dir.File("x.json")).exit_code, 0);
  EXPECT_FALSE(DiffJson(Sample() + " " + dir.File("x.json"))["a"].contains("rows_fitted"));
}

TEST(DiffCommandTest, ARestlessThreeClipIsComparedWithItsVrmaAsConvertRetargetsIt) {
  // walk.csv's three.js JSON has no rest pose and records facing -Z (userData); its VRMA faces +Z.
  // Compared as local values they were 146° apart with nothing said; read as convert retargets
  // them (normalised rotations on the -Z T-pose rig, the humanoid hierarchy) they are one motion.
  TempDir dir;
  const std::string walk = testing::SourcePath("data/unity/walk.csv");
  ASSERT_EQ(RunAnimconv("-q convert " + walk + " -o " + dir.File("w.json")).exit_code, 0);
  ASSERT_EQ(RunAnimconv("-q convert " + walk + " -o " + dir.File("w.vrma")).exit_code, 0);
  const nlohmann::json same = DiffJson(dir.File("w.json") + " " + dir.File("w.vrma"));
  EXPECT_EQ(same["a"]["read_as_normalised_humanoid"]["facing"], "-Z");
  EXPECT_EQ(same["space"]["name"], "world");
  EXPECT_TRUE(same["space"]["turn_b"].get<bool>());
  EXPECT_EQ(same["overall"]["deg"]["channels"], 51);
  EXPECT_LT(same["overall"]["deg"]["max"].get<double>(), 1e-3);
  const auto text = RunAnimconv("diff " + dir.File("w.vrma") + " " + dir.File("w.json"));
  EXPECT_NE(text.output.find("rest pose: B has none: its rotations read as normalised humanoid "
                             "ones on the T-pose rig facing -Z"),
            std::string::npos)
      << text.output;
  // The same clip retargeted as if it faced +Z is another motion, and diff must say so.
  ASSERT_EQ(RunAnimconv("-q convert " + dir.File("w.json") + " --source-facing +z -o " +
                        dir.File("turned.vrma"))
                .exit_code,
            0);
  const nlohmann::json turned = DiffJson(dir.File("w.json") + " " + dir.File("turned.vrma"));
  EXPECT_GT(turned["overall"]["deg"]["max"].get<double>(), 30);
}

// A clip retargeted onto a --skeleton model into three.js JSON holds no rest pose: played on the
// model (--skeleton-b), it is the .glb written for the same model, to float precision, and the
// BVH it came from but for the thumb the model lacks (warned by convert). Compared as bare local
// values it was 20 degrees off: the BVH's legs stand 20 degrees from the T-pose at rest.
TEST(DiffCommandTest, AClipWrittenForAModelIsComparedOnThatModel) {
  TempDir dir;
  const std::string bvh = testing::SourcePath("data/bvh/cmu_walk.bvh");
  const std::string model = testing::SourcePath("data/gltf/shod_figure.glb");
  for (const char* name : {"x.json", "x.glb"}) {
    ASSERT_EQ(RunAnimconv("-q convert " + bvh + " --skeleton " + model + " -o " + dir.File(name))
                  .exit_code,
              0);
  }
  const nlohmann::json same =
      DiffJson(dir.File("x.glb") + " " + dir.File("x.json") + " --skeleton-b " + model);
  EXPECT_LT(same["overall"]["deg"]["max"].get<double>(), 1e-3);
  EXPECT_LT(same["overall"]["m"]["max"].get<double>(), 1e-6);
  EXPECT_TRUE(same["only_in_a"].empty());
  EXPECT_TRUE(same["only_in_b"].empty());
  const nlohmann::json on_model =
      DiffJson(bvh + " " + dir.File("x.json") + " --skeleton-b " + model);
  const nlohmann::json as_glb = DiffJson(bvh + " " + dir.File("x.glb"));
  EXPECT_NEAR(on_model["overall"]["deg"]["max"].get<double>(),
              as_glb["overall"]["deg"]["max"].get<double>(), 1e-3);
  EXPECT_EQ(on_model["overall"]["deg"]["worst_node"], "LThumb");
  const nlohmann::json bare = DiffJson(bvh + " " + dir.File("x.json"));
  EXPECT_GT(bare["overall"]["deg"]["max"].get<double>(), 19.9);
  EXPECT_EQ(bare["overall"]["deg"]["worst_node"], "LeftFoot");
  // A B with a rest pose of its own plays on it; a track the model has no node for is refused.
  EXPECT_EQ(
      RunAnimconv("diff " + bvh + " " + dir.File("x.glb") + " --skeleton-b " + model).exit_code, 1);
  EXPECT_EQ(
      RunAnimconv("diff " + bvh + " " + dir.File("x.json") + " --skeleton-b " + bvh).exit_code, 1);
}

TEST(DiffCommandTest, BadRequestsExitLikeEveryCommand) {
  EXPECT_EQ(RunAnimconv("diff " + Sample()).exit_code, 1);  // one input
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + Sample() + " " + Sample()).exit_code, 1);
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + Sample() + " --clip 5").exit_code, 1);
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + Sample() + " --hierarchical 0").exit_code, 1);
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + Sample() + " --mirror y").exit_code, 1);
  TempDir dir;
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + dir.File("missing.csv")).exit_code, 3);
  testing::WriteText(dir.File("bad.json"), "{");
  EXPECT_EQ(RunAnimconv("diff " + Sample() + " " + dir.File("bad.json")).exit_code, 2);
}

}  // namespace
}  // namespace animconv
