#include "animconv/convert.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "animconv/error.h"
#include "formats/csv/unity_csv.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

TEST(PipelineTest, ConvertsUnityCsvToThreeJsonWithTheDefaultMirror) {
  TempDir dir;
  const std::string output = dir.File("anim.json");
  const ConvertReport report =
      ConvertFile(testing::SourcePath("data/unity/anim.csv"), output, ConvertOptions{});
  EXPECT_EQ(report.input_format->id, "unity-csv");
  EXPECT_EQ(report.output_format->id, "three");
  const auto clip = nlohmann::json::parse(testing::ReadText(output));
  // Default mirror z: (x,y,z,w) -> (-x,-y,z,w); hips x was +0.030.
  EXPECT_LT(clip["tracks"][0]["values"][0].get<double>(), 0);
  EXPECT_EQ(dir.FileCount(), 1u);
}

TEST(PipelineTest, ThreeOutputIsUnitAndHemisphereAlignedWhileUnityCsvKeepsTheInput) {
  // Two rows of the same rotation printed with opposite signs, as some exporters do (w >= 0).
  std::string row_a, row_b;
  for (int b = 0; b < 55; ++b) {
    row_a += "0.000,0.707,0.000,0.707,";
    row_b += "0.000,-0.707,0.000,-0.707,";
  }
  const Asset asset = ReadUnityCsv(row_a + "\n" + row_b + "\n", {});
  const auto clip =
      nlohmann::json::parse(RenderAsset(asset, *FindFormat("three"), ConvertOptions{}));
  const auto& values = clip["tracks"][0]["values"];
  double dot = 0;
  for (int i = 0; i < 4; ++i) dot += values[i].get<double>() * values[4 + i].get<double>();
  EXPECT_NEAR(dot, 1, 1e-6);
  ConvertOptions options;
  options.write.precision = 3;
  EXPECT_EQ(RenderAsset(asset, *FindFormat("unity-csv"), options), row_a + "\n" + row_b + "\n");
}

TEST(PipelineTest, RefusesToWriteOverTheInput) {
  TempDir dir;
  const std::string input = dir.File("anim.csv");
  const std::string original = testing::ReadText(testing::SourcePath("data/unity/anim.csv"));
  testing::WriteText(input, original);
  ConvertOptions options;
  options.to = "unity-csv";
  EXPECT_THROW(ConvertFile(input, input, options), Error);
  EXPECT_THROW(ConvertFile(input, dir.path() + "/./anim.csv", options), Error);
  EXPECT_EQ(testing::ReadText(input), original);
}

TEST(PipelineTest, FailedConversionLeavesExistingOutputUntouched) {
  TempDir dir;
  const std::string input = dir.File("bad.csv");
  testing::WriteText(input, "0.1,0.2,oops\n");
  const std::string output = dir.File("out.json");
  testing::WriteText(output, "previous");
  try {
    ConvertFile(input, output, ConvertOptions{});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.source(), input);
    EXPECT_EQ(error.location(), "1:9");
  }
  EXPECT_EQ(testing::ReadText(output), "previous");
  EXPECT_EQ(dir.FileCount(), 2u);
}

TEST(PipelineTest, EmptyFileIsReportedAsSuch) {
  TempDir dir;
  testing::WriteText(dir.File("empty.csv"), "");
  try {
    LoadAsset(dir.File("empty.csv"), ConvertOptions{});
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.message(), "the file is empty");
  }
}

TEST(PipelineTest, WalkSampleRoundTripsExactlyThroughTheModel) {
  // unity-csv -> model -> unity-csv at the exporter's precision, and through the right-handed
  // model with either mirror, reproduces the generated sample byte for byte.
  const std::string walk = testing::ReadText(testing::SourcePath("data/unity/walk.csv"));
  ConvertOptions options;
  options.write.precision = 3;
  const Asset asset = ReadUnityCsv(walk, {});
  EXPECT_EQ(RenderAsset(asset, *FindFormat("unity-csv"), options), walk);
  for (const Mirror mirror : {Mirror::kX, Mirror::kZ}) {
    Asset mirrored = asset;
    ConvertHandedness(mirrored, Handedness::kRight, mirror);
    options.mirror = mirror;
    EXPECT_EQ(RenderAsset(mirrored, *FindFormat("unity-csv"), options), walk);
  }
}

TEST(PipelineTest, SelectClipByNameOrIndex) {
  Asset asset = testing::MakeAsset({"n"});
  asset.clips.push_back(asset.clips[0]);
  asset.clips[0].name = "walk";
  asset.clips[1].name = "run";
  Asset by_name = asset;
  SelectClip(by_name, "run");
  EXPECT_EQ(by_name.clips.size(), 1u);
  EXPECT_EQ(by_name.clips[0].name, "run");
  Asset by_index = asset;
  SelectClip(by_index, "0");
  EXPECT_EQ(by_index.clips[0].name, "walk");
  EXPECT_THROW(SelectClip(asset, "2"), Error);
  EXPECT_THROW(SelectClip(asset, "jump"), Error);
}

TEST(PipelineTest, SizeLimitIsCheckedBeforeParsing) {
  TempDir dir;
  const std::string input = dir.File("big.csv");
  testing::WriteText(input, std::string(2 << 20, '0'));
  ConvertOptions options;
  options.max_input_bytes = 1 << 20;
  try {
    LoadAsset(input, options);
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("larger than the limit of 1 MiB"), std::string::npos);
  }
}

}  // namespace
}  // namespace animconv
