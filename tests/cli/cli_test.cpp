// Runs the real binary: exit codes, messages, and the file-safety promises of docs/cli.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Sample() { return testing::SourcePath("data/unity/anim.csv"); }

TEST(CliTest, ConvertWritesTheOutputAndReportsIt) {
  TempDir dir;
  const auto result = RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("(unity-csv, 2782 bytes) -> "), std::string::npos) << result.output;
  EXPECT_TRUE(nlohmann::json::parse(testing::ReadText(dir.File("a.json"))).is_object());
}

TEST(CliTest, QuietPrintsNothingOnSuccess) {
  TempDir dir;
  const auto result = RunAnimconv("-q convert " + Sample() + " -o " + dir.File("a.json"));
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "");
}

TEST(CliTest, UsageErrorsExitWithOne) {
  EXPECT_EQ(RunAnimconv("").exit_code, 1);
  EXPECT_EQ(RunAnimconv("frobnicate").exit_code, 1);
  EXPECT_EQ(RunAnimconv("convert " + Sample()).exit_code, 1);  // no -o
  TempDir dir;
  const auto bad_mirror =
      RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") + " --mirror y");
  EXPECT_EQ(bad_mirror.exit_code, 1);
  EXPECT_NE(bad_mirror.output.find("--mirror must be one of none, x, z"), std::string::npos);
  EXPECT_EQ(RunAnimconv("convert " + Sample() + " -o " + dir.File("a.txt")).exit_code, 1);
  EXPECT_EQ(RunAnimconv("convert " + Sample() + " -o " + dir.File("a.json") + " --fps 0").exit_code,
            1);
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(CliTest, BadInputExitsWithTwoAndLeavesNoOutput) {
  TempDir dir;
  testing::WriteText(dir.File("bad.csv"), "0.1,0.2,NaN,\n");
  const auto result = RunAnimconv("convert " + dir.File("bad.csv") + " -o " + dir.File("a.json"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(
      result.output.find(dir.File("bad.csv") + ":1:9: expected a number for hips.z, found 'NaN'"),
      std::string::npos)
      << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);  // only the input
  // The message is printed once, with no exception type or stack trace.
  EXPECT_EQ(result.output.find("error"), result.output.rfind("error"));
  EXPECT_EQ(result.output.find("std::"), std::string::npos);
}

TEST(CliTest, IoErrorsExitWithThree) {
  TempDir dir;
  EXPECT_EQ(RunAnimconv("info " + dir.File("missing.csv")).exit_code, 3);
  EXPECT_EQ(RunAnimconv("convert " + Sample() + " -o " + dir.File("no/such/dir/a.json")).exit_code,
            3);
}

TEST(CliTest, WarningsBeforeAnErrorArePrintedFirst) {
  TempDir dir;
  // The writer drops the morph weights, then the output folder turns out not to exist.
  const auto result = RunAnimconv("convert " + testing::SourcePath("data/gltf/morph_cube.gltf") +
                                  " -o " + dir.File("no/such/dir/a.hierarchy.json") +
                                  " --allow-partial");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  const size_t warning = result.output.find("animconv: warning: three-hierarchy: 1 morph weight");
  const size_t error = result.output.find("animconv: error: ");
  ASSERT_NE(warning, std::string::npos) << result.output;
  ASSERT_NE(error, std::string::npos) << result.output;
  EXPECT_LT(warning, error) << result.output;
}

TEST(CliTest, OutputMayNotBeTheInput) {
  TempDir dir;
  const std::string input = dir.File("anim.csv");
  testing::WriteText(input, testing::ReadText(Sample()));
  const auto result = RunAnimconv("convert " + input + " -o " + input + " --to unity-csv");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(testing::ReadText(input), testing::ReadText(Sample()));
}

TEST(CliTest, HelpShowsDefaults) {
  const auto result = RunAnimconv("convert --help");
  EXPECT_EQ(result.exit_code, 0);
  // --mirror has no fixed default: z, or the --source-rig model's own convention.
  EXPECT_NE(result.output.find("Default z; with --source-rig"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("--time-unit arg (=s)"), std::string::npos);
  EXPECT_NE(result.output.find("--max-input-mb arg (=2048)"), std::string::npos);
  EXPECT_EQ(RunAnimconv("--help").exit_code, 0);
  EXPECT_EQ(RunAnimconv("info --help").exit_code, 0);
  EXPECT_NE(RunAnimconv("--version").output.find("animconv 0."), std::string::npos);
}

TEST(CliTest, FormatsListsReadersAndWriters) {
  const auto result = RunAnimconv("formats");
  EXPECT_EQ(result.exit_code, 0);
  for (const char* id : {"unity-csv", "csv", "three", "three-hierarchy"}) {
    EXPECT_NE(result.output.find(id), std::string::npos) << id;
  }
}

TEST(CliTest, InfoJsonDescribesTheClip) {
  const auto result = RunAnimconv("-q info --json " + Sample());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto info = nlohmann::json::parse(result.output);
  EXPECT_EQ(info["format"], "unity-csv");
  EXPECT_EQ(info["coordinates"]["handedness"], "left");
  EXPECT_EQ(info["coordinates"]["facing"], "+Z");
  EXPECT_EQ(info["clips"][0]["channels"], 55);
  EXPECT_EQ(info["clips"][0]["keys"], 110);
  EXPECT_DOUBLE_EQ(info["clips"][0]["key_rate_hz"].get<double>(), 5);
  EXPECT_DOUBLE_EQ(info["clips"][0]["duration_seconds"].get<double>(), 0.2);
  EXPECT_EQ(info["clips"][0]["channels_per_path"]["rotation"], 55);
}

TEST(CliTest, InfoTextMentionsDetectedQuirks) {
  TempDir dir;
  std::string text = testing::ReadText(Sample());
  std::replace(text.begin(), text.end(), '.', ',');
  testing::WriteText(dir.File("comma.csv"), text);
  const auto result = RunAnimconv("info " + dir.File("comma.csv"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("decimal comma"), std::string::npos) << result.output;
}

TEST(CliTest, HierarchyInMillisecondsAndBoneList) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Sample() + " -o " + dir.File("a.hierarchy.json") +
                  " --time-unit ms --bones " + testing::SourcePath("data/unity/bone.txt"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto out = nlohmann::json::parse(testing::ReadText(dir.File("a.hierarchy.json")));
  EXPECT_DOUBLE_EQ(out["length"].get<double>(), 200);
  EXPECT_EQ(out["hierarchy"].size(), 55u);
}

}  // namespace
}  // namespace animconv
