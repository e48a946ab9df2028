// `animconv bake` through the real binary: output, exit codes, and no output file on any error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string MorphCube() { return testing::SourcePath("data/gltf/morph_cube.gltf"); }

TEST(BakeCommandTest, WritesFramesAndReportsThem) {
  TempDir dir;
  const auto result = RunAnimconv("bake " + MorphCube() + " -o " + dir.File("frames.json"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("clip 'pulse', node 'morph_cube': 9 frames of "), std::string::npos)
      << result.output;
  const nlohmann::json baked = nlohmann::json::parse(testing::ReadText(dir.File("frames.json")));
  EXPECT_EQ(baked["frames"].size(), 9u);
  EXPECT_EQ(baked["fps"], 4.0);
}

TEST(BakeCommandTest, OptionsSelectClipNodeAndRate) {
  TempDir dir;
  const auto result = RunAnimconv("-q bake " + MorphCube() + " -o " + dir.File("frames.json") +
                                  " --clip 0 --node morph_cube --fps 10");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "");
  const nlohmann::json baked = nlohmann::json::parse(testing::ReadText(dir.File("frames.json")));
  EXPECT_EQ(baked["frames"].size(), 21u);
  EXPECT_EQ(baked["fps"], 10.0);
}

TEST(BakeCommandTest, UsageErrorsExitWithOneAndWriteNothing) {
  TempDir dir;
  const std::string out = " -o " + dir.File("frames.json");
  EXPECT_EQ(RunAnimconv("bake " + MorphCube()).exit_code, 1);                 // no -o
  EXPECT_EQ(RunAnimconv("bake -o " + dir.File("frames.json")).exit_code, 1);  // no input
  EXPECT_EQ(RunAnimconv("bake " + MorphCube() + out + " --fps 0").exit_code, 1);
  EXPECT_EQ(RunAnimconv("bake " + MorphCube() + out + " --fps -3").exit_code, 1);
  EXPECT_EQ(RunAnimconv("bake " + MorphCube() + out + " --frobnicate").exit_code, 1);
  const auto clip = RunAnimconv("bake " + MorphCube() + out + " --clip 7");
  EXPECT_EQ(clip.exit_code, 1);
  EXPECT_NE(clip.output.find("--clip 7: no such clip"), std::string::npos) << clip.output;
  const auto node = RunAnimconv("bake " + MorphCube() + out + " --node nobody");
  EXPECT_EQ(node.exit_code, 1);
  EXPECT_NE(node.output.find("--node nobody: no node has that name"), std::string::npos);
  // A Unity CSV has no mesh to bake.
  const auto csv = RunAnimconv("bake " + testing::SourcePath("data/unity/anim.csv") + out);
  EXPECT_EQ(csv.exit_code, 1);
  EXPECT_NE(csv.output.find("bake needs a glTF or GLB input"), std::string::npos) << csv.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(BakeCommandTest, TheOutputMayNotBeTheInput) {
  TempDir dir;
  testing::WriteText(dir.File("cube.gltf"), testing::ReadText(MorphCube()));
  const auto result = RunAnimconv("bake " + dir.File("cube.gltf") + " -o " + dir.File("cube.gltf"));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(testing::ReadText(dir.File("cube.gltf")), testing::ReadText(MorphCube()));
}

TEST(BakeCommandTest, BadInputExitsWithTwoAndLeavesNoOutput) {
  TempDir dir;
  std::string text = testing::ReadText(MorphCube());
  // Make the mesh a line strip: readable glTF, but not something bake can evaluate.
  const std::string attributes = "\"attributes\"";
  text.insert(text.find(attributes), "\"mode\": 3, ");
  testing::WriteText(dir.File("lines.gltf"), text);
  const auto result = RunAnimconv("bake " + dir.File("lines.gltf") + " -o " + dir.File("f.json"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("lines.gltf:/meshes/0/primitives/0/mode: primitive mode 3"),
            std::string::npos)
      << result.output;
  testing::WriteText(dir.File("broken.gltf"), "{\"asset\": {\"version\": \"2.0\"");
  EXPECT_EQ(RunAnimconv("bake " + dir.File("broken.gltf") + " -o " + dir.File("f.json")).exit_code,
            2);
  EXPECT_EQ(dir.FileCount(), 2u);  // only the inputs
}

TEST(BakeCommandTest, IoErrorsExitWithThree) {
  TempDir dir;
  EXPECT_EQ(RunAnimconv("bake " + dir.File("missing.gltf") + " -o " + dir.File("f.json")).exit_code,
            3);
  EXPECT_EQ(
      RunAnimconv("bake " + MorphCube() + " -o " + dir.File("no/such/folder/f.json")).exit_code, 3);
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(BakeCommandTest, AnExistingOutputIsKeptOnError) {
  TempDir dir;
  testing::WriteText(dir.File("frames.json"), "old");
  EXPECT_EQ(
      RunAnimconv("bake " + MorphCube() + " -o " + dir.File("frames.json") + " --clip 9").exit_code,
      1);
  EXPECT_EQ(testing::ReadText(dir.File("frames.json")), "old");
}

}  // namespace
}  // namespace animconv
