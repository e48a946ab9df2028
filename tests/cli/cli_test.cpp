// Runs the real binary: exit codes, messages, and the file-safety promises of docs/cli.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

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
  // The writer drops the morph weights, then the output cannot be moved into place: its name is
  // a folder's. (A missing output folder fails before anything is rendered: the temporary file
  // is created first, as the output is written while it is made.)
  std::filesystem::create_directory(dir.File("a.hierarchy.json"));
  const auto result = RunAnimconv("convert " + testing::SourcePath("data/gltf/morph_cube.gltf") +
                                  " -o " + dir.File("a.hierarchy.json") + " --allow-partial");
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

// --help text with boost's line wrapping undone: runs of spaces and line breaks become one space.
std::string HelpText(const std::string& command) {
  std::string folded;
  for (const char c : RunAnimconv(command).output) {
    const bool space = c == ' ' || c == '\n';
    if (!space || (!folded.empty() && folded.back() != ' ')) folded += space ? ' ' : c;
  }
  return folded;
}

TEST(CliTest, HelpOfReadingCommandsShowsNoWriterText) {
  // info and diff write nothing: --interval must not promise an output grid there.
  for (const char* command : {"info --help", "diff --help"}) {
    const std::string help = HelpText(command);
    EXPECT_NE(help.find("--interval arg unity-csv: seconds between rows"), std::string::npos)
        << command << help;
    EXPECT_EQ(help.find("the grid to sample on"), std::string::npos) << command << help;
  }
  EXPECT_NE(HelpText("convert --help").find("Output: the grid to sample on when writing unity-csv"),
            std::string::npos);
}

TEST(CliTest, InfoAppliesABoneMapAsConvertDoes) {
  TempDir dir;
  testing::WriteText(dir.File("map.txt"), "morph_cube, hips\n");
  const auto result =
      RunAnimconv("-q info --json " + testing::SourcePath("data/gltf/morph_cube.gltf") +
                  " --bone-map " + dir.File("map.txt"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto info = nlohmann::json::parse(result.output);
  EXPECT_EQ(info["humanoid_nodes"], 1);
  ASSERT_EQ(info["humanoid"]["bones"].size(), 1u);
  EXPECT_EQ(info["humanoid"]["bones"][0]["bone"], "hips");
  EXPECT_EQ(info["humanoid"]["bones"][0]["node"], "hips");
  // A map entry that matches nothing is a warning, as in convert.
  testing::WriteText(dir.File("stale.txt"), "nosuchnode, hips\n");
  const auto stale = RunAnimconv("info " + testing::SourcePath("data/gltf/morph_cube.gltf") +
                                 " --bone-map " + dir.File("stale.txt"));
  EXPECT_EQ(stale.exit_code, 0) << stale.output;
  EXPECT_NE(stale.output.find("animconv: warning: --bone-map: "), std::string::npos)
      << stale.output;
}

TEST(CliTest, RetargetingConversionsSayWhichMirrorTheyApplied) {
  // docs/cli.md: convert prints the mirror it applied whenever it crossed handedness; the
  // retargeting steps (.vrma, --skeleton, --source-rig) cross it before the writer does.
  TempDir dir;
  const auto vrma = RunAnimconv("convert " + Sample() + " -o " + dir.File("a.vrma"));
  ASSERT_EQ(vrma.exit_code, 0) << vrma.output;
  EXPECT_NE(vrma.output.find("converting with --mirror z"), std::string::npos) << vrma.output;
  const auto x = RunAnimconv("convert " + Sample() + " -o " + dir.File("b.vrma") + " --mirror x");
  ASSERT_EQ(x.exit_code, 0) << x.output;
  EXPECT_NE(x.output.find("converting with --mirror x"), std::string::npos) << x.output;
}

// The numbers of a Unity CSV, one vector of values per row (the trailing comma dropped).
std::vector<std::vector<double>> CsvRows(const std::string& path) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(testing::ReadText(path));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

TEST(CliTest, UnityCsvThroughThreeComesBackWithinOneLastDigit) {
  // docs/formats/unity-csv.md, "Through another format": the numbers docs state, measured.
  TempDir dir;
  const std::string walk = testing::SourcePath("data/unity/walk.csv");
  ASSERT_EQ(RunAnimconv("-q convert " + walk + " -o " + dir.File("w.json")).exit_code, 0);
  ASSERT_EQ(RunAnimconv("-q convert " + dir.File("w.json") + " -o " + dir.File("back.unity.csv") +
                        " --precision 3")
                .exit_code,
            0);
  const auto original = CsvRows(walk);
  const auto back = CsvRows(dir.File("back.unity.csv"));
  ASSERT_EQ(original.size(), back.size());
  size_t quaternions = 0, flipped = 0, values = 0, differing = 0;
  double worst = 0;
  for (size_t r = 0; r < original.size(); ++r) {
    ASSERT_EQ(original[r].size(), back[r].size());
    for (size_t i = 0; i + 3 < original[r].size(); i += 4) {
      double dot = 0;
      for (size_t k = 0; k < 4; ++k) dot += original[r][i + k] * back[r][i + k];
      const double sign = dot < 0 ? -1 : 1;
      ++quaternions;
      flipped += dot < 0 ? 1 : 0;
      for (size_t k = 0; k < 4; ++k) {
        const double error = std::abs(original[r][i + k] - sign * back[r][i + k]);
        ++values;
        differing += error > 0 ? 1 : 0;
        worst = std::max(worst, error);
      }
    }
  }
  EXPECT_EQ(quaternions, 3300u);
  EXPECT_EQ(values, 13200u);
  EXPECT_LE(worst, 0.001 + 1e-12);
  EXPECT_EQ(flipped, 30u);
  EXPECT_EQ(differing, 252u);
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
