// BVH and FBX through the CLI (formats/assimp/assimp.h): the mocap jobs of docs/formats/assimp.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Fixture(const std::string& name) { return testing::SourcePath("data/bvh/" + name); }

TEST(AssimpInputTest, InfoSaysWhatWasAssumed) {
  const auto result = RunAnimconv("info " + Fixture("cmu_walk.bvh"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* part : {": assimp, ", "BVH has no unit: centimetres assumed", "in mixamo naming",
                           "facing +Z inferred from the rest pose", "clip 0 'cmu_walk'"}) {
    EXPECT_NE(result.output.find(part), std::string::npos) << part << "\n" << result.output;
  }
}

TEST(AssimpInputTest, BvhToVrmaNeedsNoBoneMap) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Fixture("mixamo_wave.bvh") + " -o " + dir.File("wave.vrma"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);
}

TEST(AssimpInputTest, ScaleMultipliesLengths) {
  TempDir dir;
  const std::string input = Fixture("mixamo_wave.bvh");
  ASSERT_EQ(RunAnimconv("convert " + input + " -o " + dir.File("m.json")).exit_code, 0);
  ASSERT_EQ(RunAnimconv("convert " + input + " --scale 2.54 -o " + dir.File("in.json")).exit_code,
            0);
  const auto hips = [](const nlohmann::json& clip) {
    for (const auto& track : clip["tracks"]) {
      if (track["name"] == "mixamorigHips.position") return track["values"][1].get<double>();
    }
    return 0.0;
  };
  const double metres = hips(nlohmann::json::parse(testing::ReadText(dir.File("m.json"))));
  const double inches = hips(nlohmann::json::parse(testing::ReadText(dir.File("in.json"))));
  EXPECT_NEAR(metres, 1.04, 0.03);  // hips OFFSET 104 cm, +- 2 cm of motion
  EXPECT_NEAR(inches / metres, 2.54, 1e-5);
  const auto bad = RunAnimconv("convert " + input + " --scale -1 -o " + dir.File("x.json"));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.output.find("--scale must be a positive number"), std::string::npos);
}

TEST(AssimpInputTest, NonHumanoidBvhToVrmaIsRefusedClearly) {
  TempDir dir;
  testing::WriteText(dir.File("arm.bvh"), R"(HIERARCHY
ROOT Base
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Link
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 10 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.1
0 0 0 0 0 0 0 0 0
0 0 0 10 0 0 20 0 0
)");
  const auto result = RunAnimconv("convert " + dir.File("arm.bvh") + " -o " + dir.File("arm.vrma"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("the input has no humanoid bones"), std::string::npos)
      << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);
  // The same file is fine as a glTF clip.
  EXPECT_EQ(RunAnimconv("convert " + dir.File("arm.bvh") + " -o " + dir.File("arm.glb")).exit_code,
            0);
}

TEST(AssimpInputTest, UnreadableFileIsBadInputWithAssimpsReason) {
  TempDir dir;
  testing::WriteText(dir.File("broken.fbx"), "Kaydara FBX Binary  \0\x1a\0garbage");
  const auto result =
      RunAnimconv("convert " + dir.File("broken.fbx") + " -o " + dir.File("out.glb"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("cannot import it:"), std::string::npos) << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);
}

}  // namespace
}  // namespace animconv
