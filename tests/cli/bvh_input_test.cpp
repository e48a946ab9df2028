// BVH through the CLI (formats/bvh/bvh_reader.h): the mocap jobs of docs/formats/bvh.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Fixture(const std::string& name) { return testing::SourcePath("data/bvh/" + name); }

TEST(BvhInputTest, InfoSaysWhatWasAssumed) {
  const auto result = RunAnimconv("info " + Fixture("cmu_walk.bvh"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* part : {": bvh, ", "BVH has no unit: centimetres assumed", "in mixamo naming",
                           "facing +Z inferred from the rest pose", "clip 0 'cmu_walk'"}) {
    EXPECT_NE(result.output.find(part), std::string::npos) << part << "\n" << result.output;
  }
}

TEST(BvhInputTest, BvhToVrmaNeedsNoBoneMap) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + Fixture("mixamo_wave.bvh") + " -o " + dir.File("wave.vrma"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);
}

TEST(BvhInputTest, ScaleMultipliesLengths) {
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

TEST(BvhInputTest, NonHumanoidBvhToVrmaIsRefusedClearly) {
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

// --from assimp is no way around the BVH reader: Assimp 5.2 would lose what it corrects.
TEST(BvhInputTest, AssimpRefusesBvh) {
  TempDir dir;
  const auto result = RunAnimconv("convert " + Fixture("mixamo_wave.bvh") + " --from assimp -o " +
                                  dir.File("wave.glb"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("BVH is read by the 'bvh' reader, not through Assimp"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

}  // namespace
}  // namespace animconv
