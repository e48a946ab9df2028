// Our own three.js JSON read back (docs/formats/threejs.md): tracks named by the sanitised node
// names of a --skeleton model find their nodes again with --source-rig, and the facing the writer
// records in userData comes back, so a round trip plays like the direct conversion.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "animconv/clip_diff.h"
#include "animconv/convert.h"
#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

const std::string kRobot = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/vrmaddon_debug_robot.vrm";

std::string Walk() { return testing::SourcePath("data/unity/walk.csv"); }

Asset ReadVrma(const std::string& path) {
  ReadOptions options;
  options.source = path;
  return ReadGltf(testing::ReadText(path), options);
}

// The worst rotation error (degrees) between two .vrma files, and how many channels each has.
struct VrmaDiff {
  double max_deg = 0;
  size_t only_in_a = 0;
  size_t only_in_b = 0;
};
VrmaDiff DiffVrma(const std::string& a_path, const std::string& b_path) {
  const Asset a = ReadVrma(a_path);
  const Asset b = ReadVrma(b_path);
  const ClipDiff diff = DiffClips(a, a.clips.at(0), b, b.clips.at(0), DiffOptions{});
  return {diff.overall.at("deg").max, diff.only_in_a.size(), diff.only_in_b.size()};
}

bool HasWarning(const Diagnostics& diagnostics, const std::string& part) {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kWarning && d.text.find(part) != std::string::npos) return true;
  }
  return false;
}

size_t WarningCount(const Diagnostics& diagnostics) {
  size_t count = 0;
  for (const Diagnostic& d : diagnostics) count += d.severity == Severity::kWarning ? 1 : 0;
  return count;
}

class ThreeRoundTripTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kRobot)) GTEST_SKIP() << kRobot << " is absent";
  }
};

// Item 6: the robot's nodes are `upper_arm.L` and so on; the JSON's tracks say `upper_armL`.
// Before the fix 5 of 51 channels matched and the rest were dropped with only a note (74° off).
TEST_F(ThreeRoundTripTest, SkeletonJsonConvertsBackWithSourceRig) {
  TempDir dir;
  ConvertOptions on_robot;
  on_robot.skeleton = kRobot;
  ConvertFile(Walk(), dir.File("a.json"), on_robot);
  ConvertOptions from_robot;
  from_robot.source_rig = kRobot;
  const ConvertReport report = ConvertFile(dir.File("a.json"), dir.File("b.vrma"), from_robot);
  EXPECT_EQ(WarningCount(report.diagnostics), 0u);
  ConvertFile(Walk(), dir.File("direct.vrma"), ConvertOptions{});
  const VrmaDiff diff = DiffVrma(dir.File("direct.vrma"), dir.File("b.vrma"));
  EXPECT_EQ(diff.only_in_a, 0u);
  EXPECT_EQ(diff.only_in_b, 0u);
  EXPECT_LT(diff.max_deg, 1e-3);
}

TEST_F(ThreeRoundTripTest, SourceRigWarnsOnEveryUnmatchedTrack) {
  TempDir dir;
  std::string tracks;
  for (int i = 0; i < 7; ++i) {
    tracks += "{\"name\":\"nothere" + std::to_string(i) +
              ".quaternion\",\"times\":[0],\"values\":[0,0,0,1],\"type\":\"quaternion\"},";
  }
  testing::WriteText(dir.File("a.json"),
                     "{\"name\":\"a\",\"tracks\":[" + tracks +
                         "{\"name\":\"upper_armL.quaternion\",\"times\":[0],\"values\":[0,0,0,1],"
                         "\"type\":\"quaternion\"}]}");
  ConvertOptions options;
  options.source_rig = kRobot;
  const ConvertReport report = ConvertFile(dir.File("a.json"), dir.File("b.glb"), options);
  EXPECT_TRUE(HasWarning(report.diagnostics,
                         "7 channel(s) match no node of the model (by humanoid bone, name or "
                         "three.js name) and were dropped: nothere0 rotation, nothere1 rotation, "
                         "nothere2 rotation, nothere3 rotation, nothere4 rotation and 2 more"))
      << (report.diagnostics.empty() ? "" : report.diagnostics.back().text);
}

// Item 11: walk.csv -> JSON faces -Z (the default --mirror z); read as +Z it played 146° off.
TEST(ThreeFacingTest, OwnJsonReadsBackItsFacing) {
  TempDir dir;
  ConvertFile(Walk(), dir.File("anim.json"), ConvertOptions{});
  const auto clip = nlohmann::json::parse(testing::ReadText(dir.File("anim.json")));
  EXPECT_EQ(nlohmann::json::parse(clip["userData"].get<std::string>()),
            nlohmann::json::parse(R"({"animconv":{"facing":"-z","handedness":"right"}})"));
  ConvertFile(dir.File("anim.json"), dir.File("round.vrma"), ConvertOptions{});
  ConvertFile(Walk(), dir.File("direct.vrma"), ConvertOptions{});
  const VrmaDiff diff = DiffVrma(dir.File("direct.vrma"), dir.File("round.vrma"));
  EXPECT_EQ(diff.only_in_a + diff.only_in_b, 0u);
  EXPECT_LT(diff.max_deg, 1e-3);
}

TEST(ThreeFacingTest, ExplicitSourceFacingWinsWithAWarning) {
  TempDir dir;
  ConvertFile(Walk(), dir.File("anim.json"), ConvertOptions{});
  ConvertOptions options;
  options.source_facing = Facing::kPlusZ;
  const ConvertReport report = ConvertFile(dir.File("anim.json"), dir.File("turned.vrma"), options);
  EXPECT_TRUE(HasWarning(report.diagnostics,
                         "--source-facing +z overrides the facing -z the input records"));
  ConvertFile(Walk(), dir.File("direct.vrma"), ConvertOptions{});
  EXPECT_GT(DiffVrma(dir.File("direct.vrma"), dir.File("turned.vrma")).max_deg, 90);
}

// A humanoid three.js clip that does not say its facing (not ours, or userData stripped): an
// error naming --source-facing, not a guess of +Z.
TEST(ThreeFacingTest, RetargetWithoutFacingIsAUsageError) {
  TempDir dir;
  ConvertFile(Walk(), dir.File("anim.json"), ConvertOptions{});
  auto clip = nlohmann::json::parse(testing::ReadText(dir.File("anim.json")));
  clip["userData"] = "{}";
  testing::WriteText(dir.File("plain.json"), clip.dump());
  try {
    ConvertFile(dir.File("plain.json"), dir.File("out.vrma"), ConvertOptions{});
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what()).find("--source-facing +z|-z"), std::string::npos)
        << error.what();
  }
  ConvertOptions options;
  options.source_facing = Facing::kMinusZ;
  ConvertFile(dir.File("plain.json"), dir.File("out.vrma"), options);
  ConvertFile(Walk(), dir.File("direct.vrma"), ConvertOptions{});
  EXPECT_LT(DiffVrma(dir.File("direct.vrma"), dir.File("out.vrma")).max_deg, 1e-3);
  // Not retargeted (three.js JSON to three.js JSON): nothing to guess, no error.
  ConvertFile(dir.File("plain.json"), dir.File("copy.json"), ConvertOptions{});
}

// The CLI's side of it: exit 1 (usage) and the option named on stderr.
TEST(ThreeFacingTest, CliExitsOneWithoutFacing) {
  TempDir dir;
  testing::WriteText(dir.File("plain.json"),
                     R"({"name":"a","tracks":[{"name":"Hips.quaternion","times":[0],)"
                     R"("values":[0,0,0,1],"type":"quaternion"}],"userData":"{}"})");
  const auto result =
      testing::RunAnimconv("convert " + dir.File("plain.json") + " -o " + dir.File("a.vrma"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("give --source-facing +z|-z"), std::string::npos) << result.output;
  const auto with_facing = testing::RunAnimconv("convert " + dir.File("plain.json") + " -o " +
                                                dir.File("a.vrma") + " --source-facing +z");
  EXPECT_EQ(with_facing.exit_code, 0) << with_facing.output;
}

}  // namespace
}  // namespace animconv
