// `animconv convert ... -o X.bvh` through the real binary: the options that shape a BVH output
// (--bvh-order, --bone-names, --fps) and what a BVH output says it lost (docs/formats/bvh.md).
#include <gtest/gtest.h>

#include "test_support.h"

namespace animconv {
namespace {

using testing::Has;
using testing::RunAnimconv;
using testing::TempDir;

std::string CmuWalk() { return testing::SourcePath("data/bvh/cmu_walk.bvh"); }

TEST(BvhOutputTest, KeepsTheInputsOrderElseZxyAndWritesTheOrderAsked) {
  TempDir dir;
  // cmu_walk.bvh declares Zrotation Yrotation Xrotation: the BVH reader records it per joint.
  auto result = RunAnimconv("convert " + CmuWalk() + " -o " + dir.File("a.bvh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string zyx = testing::ReadText(dir.File("a.bvh"));
  EXPECT_TRUE(Has(zyx, "CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"));
  EXPECT_TRUE(Has(zyx, "CHANNELS 3 Zrotation Yrotation Xrotation\n"));
  EXPECT_TRUE(Has(zyx, "Frames: 48\nFrame Time: 0.0083333333\n"));  // the input's own grid
  // An input with quaternions (glTF) has no order of its own: ZXY, what CMU and most tools write.
  result = RunAnimconv("convert " + testing::SourcePath("data/gltf/walk.glb") + " -o " +
                       dir.File("g.bvh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Has(testing::ReadText(dir.File("g.bvh")), "Zrotation Xrotation Yrotation\n"));
  result = RunAnimconv("convert " + CmuWalk() + " --bvh-order yzx -o " + dir.File("b.bvh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string yzx = testing::ReadText(dir.File("b.bvh"));
  EXPECT_TRUE(Has(yzx, "CHANNELS 3 Yrotation Zrotation Xrotation\n"));
  EXPECT_FALSE(Has(yzx, "Zrotation Yrotation Xrotation"));
}

TEST(BvhOutputTest, RefusesAnUnknownOrder) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + CmuWalk() + " --bvh-order XXY -o " + dir.File("a.bvh"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(Has(result.output, "--bvh-order must be ZXY, ZYX, XYZ, XZY, YXZ or YZX, not 'XXY'"))
      << result.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(BvhOutputTest, HumanoidNamingOnRequestMadeBvhSafe) {
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + CmuWalk() + " --bone-names mixamo -o " + dir.File("a.bvh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string text = testing::ReadText(dir.File("a.bvh"));
  // Mixamo's 'mixamorig:Hips', as three.js's PropertyBinding and GLTFLoader name it.
  EXPECT_TRUE(Has(text, "ROOT mixamorigHips\n")) << text.substr(0, 200);
  EXPECT_TRUE(Has(result.output, "'mixamorig:Hips' -> mixamorigHips")) << result.output;
}

TEST(BvhOutputTest, AnFpsOffTheKeysIsMeasuredAndWarned) {
  TempDir dir;
  // 120 fps keys written at 7 fps: the frames miss the walk's corners by more than 0.1°, and
  // the keys' own rate is the fix.
  const auto result = RunAnimconv("convert " + CmuWalk() + " --fps 7 -o " + dir.File("a.bvh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Has(result.output, "warning: bvh: one Frame Time for the whole clip: frames every "))
      << result.output;
  EXPECT_TRUE(Has(result.output, "; pass --fps 120, the rate whose frames hold every key"))
      << result.output;
  EXPECT_TRUE(Has(testing::ReadText(dir.File("a.bvh")), "Frames: 4\nFrame Time: 0.142857143\n"));
}

}  // namespace
}  // namespace animconv
