// The web API's entry point (web/src/api.cpp) built natively, so its request handling, replies
// and error paths run under the sanitizers too (scripts/sanitize.sh): requests on real files,
// where the npm package hands it files in emscripten's file system. The outputs themselves are
// compared with the native CLI's by web/test/parity.mjs and api_test.mjs in the web build.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "animconv/io.h"
#include "animconv/listings.h"
#include "test_support.h"
#include "web/src/host.h"

namespace animconv::web {

// web/src/host.h, as this test's host: progress recorded, a stop asked for after `stop_after`.
std::vector<std::string> progress_reports;
size_t stop_after = SIZE_MAX;
void ReportBatchProgress(const char* result_json) { progress_reports.emplace_back(result_json); }
bool BatchStopRequested() { return progress_reports.size() >= stop_after; }

namespace {

using nlohmann::json;
using testing::SourcePath;
using testing::TempDir;

json Request(const json& request) { return json::parse(animconv_run(request.dump().c_str())); }

std::string Walk() { return SourcePath("data/unity/walk.csv"); }

TEST(WebApiTest, FormatsIsTheCliTable) {
  const json reply = Request({{"command", "formats"}});
  ASSERT_TRUE(reply["ok"]) << reply.dump();
  EXPECT_EQ(reply["result"]["text"], FormatsTable());
  EXPECT_GT(reply["result"]["formats"].size(), 5u);
}

TEST(WebApiTest, ConvertWritesTheCliBytesAndHandsBackTheDiagnostics) {
  TempDir dir;
  const json reply = Request({{"command", "convert"},
                              {"input", Walk()},
                              {"output", dir.File("walk.vrma")},
                              {"options", {{"ground", true}, {"fps", "30"}}}});
  ASSERT_TRUE(reply["ok"]) << reply.dump();
  EXPECT_EQ(reply["result"]["output_format"], "vrma");
  ConvertOptions options;
  options.ground = true;
  options.read.row_interval_seconds = 1.0 / 30;
  ConvertFile(Walk(), dir.File("native.vrma"), options);
  EXPECT_EQ(ReadFile(dir.File("walk.vrma")), ReadFile(dir.File("native.vrma")));
  bool told_retarget = false;
  for (const json& diagnostic : reply["diagnostics"]) {
    told_retarget |= diagnostic["severity"] == "info" &&
                     diagnostic["text"].get<std::string>().find("retargeted onto") == 0;
  }
  EXPECT_TRUE(told_retarget) << reply["diagnostics"].dump();
}

TEST(WebApiTest, ErrorsComeBackWithTheCliKindLocationAndTheDiagnosticsBefore) {
  TempDir dir;
  std::string csv = testing::ReadText(Walk());  // its second row's first value made '0.0x1'
  const size_t second_row = csv.find('\n') + 1;
  csv.replace(second_row, csv.find(',', second_row) - second_row, "0.0x1");
  testing::WriteText(dir.File("bad.csv"), csv);
  const json bad = Request(
      {{"command", "convert"}, {"input", dir.File("bad.csv")}, {"output", dir.File("out.json")}});
  ASSERT_FALSE(bad["ok"]);
  EXPECT_EQ(bad["error"]["kind"], "bad-input");
  EXPECT_EQ(bad["error"]["exit_code"], 2);
  EXPECT_EQ(bad["error"]["file"], dir.File("bad.csv"));
  EXPECT_EQ(bad["error"]["location"], "2:4");  // at the x, as the CLI says it
  EXPECT_EQ(dir.FileCount(), 1u);              // nothing written
  const json usage = Request({{"command", "convert"},
                              {"input", Walk()},
                              {"output", dir.File("out.json")},
                              {"options", {{"mirror", "sideways"}}}});
  EXPECT_EQ(usage["error"]["kind"], "usage");
  EXPECT_EQ(Request({{"command", "frobnicate"}})["error"]["exit_code"], 1);
  // Not JSON, or JSON without a command: the internal error kind, never a crash.
  const json garbage = json::parse(animconv_run("{not json"));
  EXPECT_FALSE(garbage["ok"]);
  EXPECT_EQ(garbage["error"]["kind"], "internal");
  EXPECT_FALSE(Request(json::object())["ok"]);
}

TEST(WebApiTest, BatchReportsEachFileAndStopsWhenAsked) {
  TempDir dir;
  progress_reports.clear();
  stop_after = SIZE_MAX;
  const json request = {{"command", "batch"},
                        {"inputs", {Walk(), SourcePath("data/unity/anim.csv")}},
                        {"output_dir", dir.File("out")},
                        {"to", "three"}};
  const json all = Request(request);
  ASSERT_TRUE(all["ok"]) << all.dump();
  EXPECT_EQ(all["result"]["exit_code"], 0);
  EXPECT_EQ(progress_reports.size(), 2u);
  EXPECT_EQ(json::parse(progress_reports[0])["status"], "converted");
  progress_reports.clear();
  stop_after = 1;  // Cancel after the first file: the second is not started
  json again = request;
  again["output_dir"] = dir.File("stopped");
  const json stopped = Request(again);
  stop_after = SIZE_MAX;
  ASSERT_TRUE(stopped["ok"]) << stopped.dump();
  EXPECT_EQ(stopped["result"]["stopped"], true);
  EXPECT_EQ(stopped["result"]["exit_code"], 130);
  EXPECT_EQ(progress_reports.size(), 1u);
}

TEST(WebApiTest, InfoDiffBonesBakePreviewAndEscape) {
  TempDir dir;
  const json info = Request({{"command", "info"}, {"input", Walk()}});
  ASSERT_TRUE(info["ok"]) << info.dump();
  EXPECT_EQ(info["result"]["report"]["format"], "unity-csv");
  const json diff = Request({{"command", "diff"}, {"inputs", {Walk(), Walk()}}, {"top", "3"}});
  ASSERT_TRUE(diff["ok"]) << diff.dump();
  EXPECT_NE(diff["result"]["text"].get<std::string>().find("max"), std::string::npos);
  EXPECT_TRUE(Request({{"command", "bones"}, {"names", {"Hips"}}, {"to", "mixamo"}})["ok"]);
  const json bake = Request({{"command", "bake"},
                             {"input", SourcePath("data/gltf/morph_cube.gltf")},
                             {"output", dir.File("frames.json")}});
  ASSERT_TRUE(bake["ok"]) << bake.dump();
  EXPECT_EQ(bake["result"]["frames"], 9);
  testing::WriteText(dir.File("viewer.html"), "<pre>/*ANIMCONV_PREVIEW_DATA*/</pre>");
  const json preview = Request({{"command", "preview"},
                                {"input", Walk()},
                                {"output", dir.File("page.html")},
                                {"viewer", dir.File("viewer.html")}});
  ASSERT_TRUE(preview["ok"]) << preview.dump();
  EXPECT_EQ(preview["result"]["show"], "vrma-on-humanoid");
  EXPECT_EQ(preview["result"]["page_bytes"], ReadFile(dir.File("page.html")).size());
  const json escaped = Request({{"command", "escape"}, {"texts", {"a\x1b[31mb"}}});
  EXPECT_EQ(escaped["result"]["texts"][0], "a\\x1b[31mb");
  EXPECT_TRUE(
      Request({{"command", "check-options"}, {"set", "bake"}, {"options", {{"fps", "2"}}}})["ok"]);
  EXPECT_FALSE(
      Request({{"command", "check-options"}, {"set", "bake"}, {"options", {{"fps", "x"}}}})["ok"]);
}

}  // namespace
}  // namespace animconv::web
