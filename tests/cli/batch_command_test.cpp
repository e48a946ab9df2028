// `animconv batch` end to end: summary, report, exit code, resume.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::RunAnimconv;
using testing::TempDir;

TEST(BatchCommandTest, GoodAndBrokenFilesGiveSummaryReportAndExitCode) {
  TempDir dir;
  fs::create_directories(dir.File("in/sub"));
  testing::WriteText(dir.File("in/anim.csv"),
                     testing::ReadText(testing::SourcePath("data/unity/anim.csv")));
  testing::WriteText(dir.File("in/sub/walk.csv"),
                     testing::ReadText(testing::SourcePath("data/unity/walk.csv")));
  testing::WriteText(dir.File("in/sub/bad.csv"), "1,2,x\n");
  const std::string common = "batch " + dir.File("in") + " -o " + dir.File("out") +
                             " --to vrma -j 2 --report " + dir.File("report.json");
  const auto result = RunAnimconv(common);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("2 converted, 0 skipped, 1 failed"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("bad.csv:1:"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(dir.File("out/anim.vrma")));
  EXPECT_TRUE(fs::exists(dir.File("out/sub/walk.vrma")));
  EXPECT_FALSE(fs::exists(dir.File("out/sub/bad.vrma")));
  const nlohmann::json report = nlohmann::json::parse(testing::ReadText(dir.File("report.json")));
  EXPECT_EQ(report["totals"]["converted"], 2);
  EXPECT_EQ(report["totals"]["failed"], 1);

  // Resume: the converted files are skipped, the broken one fails again.
  const auto resumed = RunAnimconv(common + " --skip-existing");
  EXPECT_EQ(resumed.exit_code, 2);
  EXPECT_NE(resumed.output.find("0 converted, 2 skipped, 1 failed"), std::string::npos)
      << resumed.output;
}

TEST(BatchCommandTest, ConvertOptionsApplyToEveryFile) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  testing::WriteText(dir.File("in/walk.csv"),
                     testing::ReadText(testing::SourcePath("data/unity/walk.csv")));
  const auto result = RunAnimconv("batch " + dir.File("in") + " -o " + dir.File("out") +
                                  " --to three --trim 0:1 --bone-names mixamo");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json clip = nlohmann::json::parse(testing::ReadText(dir.File("out/walk.json")));
  EXPECT_DOUBLE_EQ(clip["duration"].get<double>(), 1.0);
  EXPECT_EQ(clip["tracks"][0]["name"], "mixamorigHips.quaternion");
}

TEST(BatchCommandTest, WarningsNameTheirFile) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  const std::string cube = testing::ReadText(testing::SourcePath("data/gltf/morph_cube.gltf"));
  testing::WriteText(dir.File("in/a.gltf"), cube);
  testing::WriteText(dir.File("in/b.gltf"), cube);
  const auto result = RunAnimconv("batch " + dir.File("in") + " -o " + dir.File("out") +
                                  " --to three-hierarchy -j 2 --allow-partial");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* file : {"in/a.gltf", "in/b.gltf"}) {
    EXPECT_NE(result.output.find("animconv: warning: " + dir.File(file) +
                                 ": three-hierarchy: 1 morph weight channel(s) not written"),
              std::string::npos)
        << result.output;
  }
}

TEST(BatchCommandTest, QuietPrintsOnlyFailures) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  testing::WriteText(dir.File("in/walk.csv"),
                     testing::ReadText(testing::SourcePath("data/unity/walk.csv")));
  testing::WriteText(dir.File("in/bad.csv"), "1,2,x\n");
  const auto result =
      RunAnimconv("-q batch " + dir.File("in") + " -o " + dir.File("out") + " --to three");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  // No progress line ("[1/2] converted ...") and no summary; the failure is an error, so it stays.
  EXPECT_EQ(result.output.find("converted"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("failed: " + dir.File("in/bad.csv")), std::string::npos)
      << result.output;
  EXPECT_TRUE(fs::exists(dir.File("out/walk.json")));
}

TEST(BatchCommandTest, AnOutputFolderThatCannotBeCreatedIsOneErrorNamingIt) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  for (const char* name : {"in/a.csv", "in/b.csv", "in/c.csv"}) {
    testing::WriteText(dir.File(name),
                       testing::ReadText(testing::SourcePath("data/unity/anim.csv")));
  }
  // A file where the output folder should go: create_directories fails, as on a read-only file
  // system (tests run as root, so a read-only mode bit would not stop them).
  testing::WriteText(dir.File("blocker"), "");
  const auto result =
      RunAnimconv("batch " + dir.File("in") + " -o " + dir.File("blocker/out") + " --to three");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  const std::string expected = dir.File("blocker/out") + ": cannot create the output folder";
  const size_t first = result.output.find(expected);
  EXPECT_NE(first, std::string::npos) << result.output;
  EXPECT_EQ(result.output.find(expected, first + 1), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("No such file"), std::string::npos) << result.output;
}

TEST(BatchCommandTest, AFoldersLegacyJsModelIsConvertedAndOtherJsIsLeftAlone) {
  const fs::path model =
      fs::path(ANIMCONV_SHARED_DATA_DIR) / "threejs/legacy/threejs_skinned_simple.js";
  if (!fs::exists(model)) GTEST_SKIP() << model << " is absent";
  TempDir dir;
  fs::create_directories(dir.File("in"));
  testing::WriteText(dir.File("in/skinned.js"), testing::ReadText(model.string()));
  testing::WriteText(dir.File("in/viewer.js"), "import * as THREE from 'three';\n");
  // `convert` reads the model by content; a batch over its folder must take it too.
  ASSERT_EQ(
      RunAnimconv("convert " + dir.File("in/skinned.js") + " -o " + dir.File("c.json")).exit_code,
      0);
  const auto result =
      RunAnimconv("batch " + dir.File("in") + " -o " + dir.File("out") + " --to three");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("1 converted, 0 skipped, 0 failed"), std::string::npos)
      << result.output;
  EXPECT_TRUE(fs::exists(dir.File("out/skinned.json")));
  EXPECT_FALSE(fs::exists(dir.File("out/viewer.json")));
}

TEST(BatchCommandTest, UsageErrors) {
  TempDir dir;
  EXPECT_EQ(RunAnimconv("batch " + dir.File("nothing") + " -o " + dir.File("out") + " --to three")
                .exit_code,
            1);
  EXPECT_EQ(RunAnimconv("batch " + testing::SourcePath("data/unity") + " -o " + dir.File("out"))
                .exit_code,
            1);  // --to is required
  EXPECT_EQ(RunAnimconv("batch " + testing::SourcePath("data/unity") + " -o " + dir.File("out") +
                        " --to three --overwrite --skip-existing")
                .exit_code,
            1);
}

// The reviewers' repro: the batch's outputs in its input folder, one of them another input's
// name (walk.unity.bvh -> walk.unity.csv). Exit 1 before anything is written; the input is as it
// was.
TEST(BatchCommandTest, AnOutputOverAnotherInputIsAUsageErrorAndWritesNothing) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  testing::WriteText(dir.File("in/walk.unity.bvh"),
                     testing::ReadText(testing::SourcePath("data/bvh/cmu_walk.bvh")));
  const std::string csv = testing::ReadText(testing::SourcePath("data/unity/walk.csv"));
  testing::WriteText(dir.File("in/walk.unity.csv"), csv);
  const auto result = RunAnimconv("batch " + dir.File("in") + " -o " + dir.File("in") +
                                  " --to csv --overwrite -j 1");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("which is the input '" + dir.File("in/walk.unity.csv") + "'"),
            std::string::npos)
      << result.output;
  EXPECT_TRUE(testing::ReadText(dir.File("in/walk.unity.csv")) == csv);
  EXPECT_FALSE(fs::exists(dir.File("in/walk.csv")));
}

}  // namespace
}  // namespace animconv
