// Batch conversion (animconv/batch.h): planning, parallel runs, failures that do not stop others.
#include "animconv/batch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>

#include "animconv/error.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// A motion library: two good CSVs in a tree, one broken file, one file no reader claims.
void MakeLibrary(const TempDir& dir) {
  fs::create_directories(dir.File("lib/walks"));
  const std::string csv = testing::ReadText(testing::SourcePath("data/unity/anim.csv"));
  testing::WriteText(dir.File("lib/anim.csv"), csv);
  testing::WriteText(dir.File("lib/walks/walk.csv"),
                     testing::ReadText(testing::SourcePath("data/unity/walk.csv")));
  testing::WriteText(dir.File("lib/walks/broken.csv"), "0.1,0.2,oops\n");
  testing::WriteText(dir.File("lib/notes.txt"), "not animation\n");
}

BatchOptions Options(const TempDir& dir, int jobs) {
  BatchOptions options;
  options.inputs = {dir.File("lib")};
  options.output_dir = dir.File(jobs == 1 ? "serial" : "parallel");
  options.to = "three";
  options.jobs = jobs;
  return options;
}

TEST(BatchTest, PlanMirrorsTheTreeAndSkipsUnreadableExtensions) {
  TempDir dir;
  MakeLibrary(dir);
  const std::vector<BatchItem> plan = PlanBatch(Options(dir, 1));
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].output, dir.File("serial/anim.json"));
  EXPECT_EQ(plan[1].output, dir.File("serial/walks/broken.json"));
  EXPECT_EQ(plan[2].output, dir.File("serial/walks/walk.json"));
}

TEST(BatchTest, OneFailureDoesNotStopTheOthersAndParallelEqualsSerial) {
  TempDir dir;
  MakeLibrary(dir);
  std::vector<std::vector<BatchResult>> runs;
  for (const int jobs : {1, 3}) {
    const BatchOptions options = Options(dir, jobs);
    size_t reported = 0;
    runs.push_back(ConvertBatch(
        PlanBatch(options), options, [&reported](const BatchResult&) { ++reported; }, nullptr));
    EXPECT_EQ(reported, 3u);
  }
  for (const std::vector<BatchResult>& results : runs) {
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].status, BatchStatus::kConverted);
    EXPECT_EQ(results[1].status, BatchStatus::kFailed);
    EXPECT_EQ(results[1].exit_code, 2);
    EXPECT_NE(results[1].message.find("broken.csv:1:"), std::string::npos) << results[1].message;
    EXPECT_FALSE(fs::exists(results[1].item.output));
    EXPECT_EQ(results[2].status, BatchStatus::kConverted);
  }
  for (const char* file : {"walks/walk.json", "anim.json"}) {
    EXPECT_TRUE(testing::ReadText(dir.File(std::string("serial/") + file)) ==
                testing::ReadText(dir.File(std::string("parallel/") + file)))
        << file << " differs between the serial and the parallel run";
  }

  const nlohmann::json report = nlohmann::json::parse(BatchReportJson(runs[1], 1.5));
  EXPECT_EQ(report["totals"]["converted"], 2);
  EXPECT_EQ(report["totals"]["failed"], 1);
  EXPECT_EQ(report["files"][1]["status"], "failed");
  EXPECT_EQ(report["files"][1]["exit_code"], 2);
}

TEST(BatchTest, ExistingOutputsNeedOverwriteOrAreSkipped) {
  TempDir dir;
  MakeLibrary(dir);
  BatchOptions options = Options(dir, 2);
  ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
  const std::vector<BatchResult> again =
      ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
  EXPECT_EQ(again[0].status, BatchStatus::kFailed);
  EXPECT_NE(again[0].message.find("--overwrite"), std::string::npos);
  options.skip_existing = true;
  const std::vector<BatchResult> resumed =
      ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
  EXPECT_EQ(resumed[0].status, BatchStatus::kSkipped);
  EXPECT_EQ(resumed[1].status, BatchStatus::kFailed);  // the broken file is tried again
  options.skip_existing = false;
  options.overwrite = true;
  EXPECT_EQ(ConvertBatch(PlanBatch(options), options, nullptr, nullptr)[0].status,
            BatchStatus::kConverted);
}

TEST(BatchTest, StopLeavesTheRestNotStarted) {
  TempDir dir;
  MakeLibrary(dir);
  const BatchOptions options = Options(dir, 1);
  std::atomic<bool> stop{false};
  const std::vector<BatchResult> results = ConvertBatch(
      PlanBatch(options), options, [&stop](const BatchResult&) { stop = true; }, &stop);
  EXPECT_EQ(results[0].status, BatchStatus::kConverted);
  EXPECT_EQ(results[1].status, BatchStatus::kNotStarted);
  EXPECT_EQ(results[2].status, BatchStatus::kNotStarted);
  EXPECT_FALSE(fs::exists(results[2].item.output));
}

TEST(BatchTest, EachFilesWarningsStayWithItsResultAndReport) {
  TempDir dir;
  fs::create_directories(dir.File("lib"));
  // Both warn, differently: the reader skips a track of one, the writer drops the other's weights.
  testing::WriteText(dir.File("lib/a.json"),
                     R"({"name":"a","tracks":[{"name":"hips.visible","type":"bool","times":[0],
                         "values":[1]},{"name":"hips.quaternion","type":"quaternion",
                         "times":[0,1],"values":[0,0,0,1,0,0,0,1]}]})");
  testing::WriteText(dir.File("lib/b.gltf"),
                     testing::ReadText(testing::SourcePath("data/gltf/morph_cube.gltf")));
  BatchOptions options = Options(dir, 2);
  options.to = "three-hierarchy";
  // b's hierarchy output holds no animation (its clip is morph weights only): a partial output,
  // written on purpose so the writer's warning is in its result.
  options.convert.allow_partial = true;
  const std::vector<BatchResult> results =
      ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
  ASSERT_EQ(results.size(), 2u);
  auto warnings = [](const BatchResult& result) {
    std::vector<std::string> texts;
    for (const Diagnostic& diagnostic : result.diagnostics) {
      if (diagnostic.severity == Severity::kWarning) texts.push_back(diagnostic.text);
    }
    return texts;
  };
  EXPECT_EQ(results[0].status, BatchStatus::kConverted);
  EXPECT_EQ(results[0].item.input, dir.File("lib/a.json"));
  const std::vector<std::string> a_warnings = {
      "three: skipped track 'hips.visible': a bool track is not a transform or morph weight"};
  EXPECT_EQ(warnings(results[0]), a_warnings);
  EXPECT_EQ(results[1].status, BatchStatus::kConverted);
  const std::vector<std::string> b_warnings = {
      "--allow-partial: the three-hierarchy output would hold no animation: none of the input's 1 "
      "channel(s) has a place in it",
      "three-hierarchy: 1 morph weight channel(s) not written (parseAnimation's morph branch "
      "throws in every three.js version that has it)"};
  EXPECT_EQ(warnings(results[1]), b_warnings);

  const nlohmann::json report = nlohmann::json::parse(BatchReportJson(results, 1));
  EXPECT_EQ(report["files"][0]["warnings"], a_warnings);
  EXPECT_EQ(report["files"][1]["warnings"], b_warnings);
}

TEST(BatchTest, CollidingOutputsAndMissingInputsAreUsageErrors) {
  TempDir dir;
  MakeLibrary(dir);
  testing::WriteText(dir.File("lib/anim.json"), "{}");  // anim.csv and anim.json -> anim.json
  BatchOptions options = Options(dir, 1);
  options.to = "glb";
  try {
    PlanBatch(options);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(error.message().find("anim.glb"), std::string::npos) << error.message();
  }
  options.inputs = {dir.File("nothing-here")};
  EXPECT_THROW(PlanBatch(options), Error);
}

// The batch's --to decides the writer, not the output's name: `dance.hierarchy.bvh` becomes
// `dance.hierarchy.json`, which by its name alone is the legacy hierarchy format (three r187
// cannot parse it), and `walk.unity.bvh` with `--to csv` becomes `walk.unity.csv`, a Unity CSV
// by name. Each output must hold the bytes `convert` writes in the asked format.
TEST(BatchTest, EveryOutputIsWrittenInTheToFormatWhateverItsName) {
  TempDir dir;
  fs::create_directories(dir.File("lib"));
  const std::string bvh = testing::ReadText(testing::SourcePath("data/bvh/cmu_walk.bvh"));
  testing::WriteText(dir.File("lib/dance.hierarchy.bvh"), bvh);
  testing::WriteText(dir.File("lib/walk.unity.bvh"), bvh);
  for (const auto& [to, extension] : {std::pair<std::string, std::string>{"three", ".json"},
                                      std::pair<std::string, std::string>{"csv", ".csv"}}) {
    BatchOptions options = Options(dir, 2);
    options.output_dir = dir.File("out-" + to);
    options.to = to;
    const std::vector<BatchResult> results =
        ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
    ASSERT_EQ(results.size(), 2u);
    for (const BatchResult& result : results) {
      ASSERT_EQ(result.status, BatchStatus::kConverted) << result.message;
      // What `convert` writes of that input to a name that says only the format.
      const std::string expected = dir.File("expected" + extension);
      fs::remove(expected);
      ConvertFile(result.item.input, expected, ConvertOptions{});
      EXPECT_TRUE(testing::ReadText(result.item.output) == testing::ReadText(expected))
          << result.item.output << " is not written as --to " << to;
    }
    EXPECT_EQ(results[0].item.output, dir.File("out-" + to + "/dance.hierarchy" + extension));
    EXPECT_EQ(results[1].item.output, dir.File("out-" + to + "/walk.unity" + extension));
  }
}

// Inputs are never written: `batch in -o in --to csv` would write walk.unity.bvh's output over
// the input walk.unity.csv, then convert what it had just written. Refused before anything is
// written, however the output folder is spelt (here through a link to the input folder).
TEST(BatchTest, AnOutputThatIsAnotherInputIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  fs::create_directories(dir.File("in"));
  testing::WriteText(dir.File("in/walk.unity.bvh"),
                     testing::ReadText(testing::SourcePath("data/bvh/cmu_walk.bvh")));
  const std::string csv = testing::ReadText(testing::SourcePath("data/unity/walk.csv"));
  testing::WriteText(dir.File("in/walk.unity.csv"), csv);
  fs::create_directory_symlink(dir.File("in"), dir.File("link"));
  for (const std::string& output_dir : {dir.File("in"), dir.File("link")}) {
    BatchOptions options;
    options.inputs = {dir.File("in")};
    options.output_dir = output_dir;
    options.to = "csv";
    options.jobs = 1;
    options.overwrite = true;
    try {
      PlanBatch(options);
      FAIL() << "no error for -o " << output_dir;
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kUsage);
      EXPECT_NE(error.message().find("walk.unity.bvh' would be written to '" + output_dir +
                                     "/walk.unity.csv', which is the input '" +
                                     dir.File("in/walk.unity.csv") + "'"),
                std::string::npos)
          << error.message();
    }
    // A plan made by hand is refused the same way by ConvertBatch.
    const std::vector<BatchItem> plan = {
        {dir.File("in/walk.unity.bvh"), output_dir + "/walk.unity.csv"},
        {dir.File("in/walk.unity.csv"), output_dir + "/walk.csv"}};
    EXPECT_THROW(ConvertBatch(plan, options, nullptr, nullptr), Error);
  }
  EXPECT_TRUE(testing::ReadText(dir.File("in/walk.unity.csv")) == csv);
  EXPECT_FALSE(fs::exists(dir.File("in/walk.csv")));
  // Without --overwrite nothing is replaced: the same batch runs, the BVH's output fails as one
  // that exists (or is skipped, resuming), and the input stays as it was.
  for (const bool skip_existing : {false, true}) {
    fs::remove(dir.File("in/walk.csv"));  // the CSV's own output, from the first round
    BatchOptions options;
    options.inputs = {dir.File("in")};
    options.output_dir = dir.File("in");
    options.to = "csv";
    options.jobs = 1;
    options.skip_existing = skip_existing;
    const std::vector<BatchResult> results =
        ConvertBatch(PlanBatch(options), options, nullptr, nullptr);
    bool bvh_seen = false;
    for (const BatchResult& result : results) {
      if (result.item.input != dir.File("in/walk.unity.bvh")) continue;
      bvh_seen = true;
      EXPECT_EQ(result.status, skip_existing ? BatchStatus::kSkipped : BatchStatus::kFailed);
    }
    EXPECT_TRUE(bvh_seen);
    EXPECT_TRUE(testing::ReadText(dir.File("in/walk.unity.csv")) == csv);
  }
}

}  // namespace
}  // namespace animconv
