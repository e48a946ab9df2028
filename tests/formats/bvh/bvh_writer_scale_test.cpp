// BVH has no scale (formats/bvh/bvh_writer.cpp, MeasureRestScale): a non-uniform rest scale
// above a rotating joint cannot be held by OFFSETs, and the error is measured and warned.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "formats/bvh/bvh_writer.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

// Review 3's nonuni2.gltf: P scaled `scale`, its child C 1 up turning 0 -> 90° about `axis`
// over 1 s, C's child G 1 up turning too (a joint, not an End Site).
Asset ScaledChain(const Vec3& scale, int axis) {
  Asset asset = MakeAsset({"P", "C", "G"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].rest_scale = scale;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0, 1, 0};
  asset.rig.nodes[2].parent = 1;
  asset.rig.nodes[2].rest_translation = {0, 1, 0};
  std::vector<double> turned = {0, 0, 0, std::sqrt(0.5)};
  turned[static_cast<size_t>(axis)] = std::sqrt(0.5);
  const std::vector<double> values = {0, 0, 0, 1, turned[0], turned[1], turned[2], turned[3]};
  asset.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0, 1}, values, 4));
  asset.clips[0].channels.push_back(
      MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  return asset;
}

Diagnostics Write(const Asset& asset) {
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  WriteBvh(asset, options);
  return diagnostics;
}

// Turned 90° about Z inside a (1, 2, 1) scale, G's offset (0, 2, 0) in the source becomes
// (-1, 0, 0), in the BVH (-2, 0, 0): 1 m off at 1 s. Written with exit 0 and no word before.
TEST(BvhWriterScaleTest, NonUniformRestScaleAboveARotatingJointIsMeasuredAndWarned) {
  const Diagnostics diagnostics = Write(ScaledChain({1, 2, 1}, 2));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[0].text,
            "bvh: BVH has no scale, and the non-uniform rest scale of P (1, 2, 1) cannot go into "
            "OFFSETs that the joints below turn unscaled: joints play up to 1 m off the input (G "
            "at 1 s; tolerance 0.0001); a .glb keeps it");
  // A mirror is a non-uniform scale too.
  const Diagnostics mirrored = Write(ScaledChain({-1, 1, 1}, 2));
  ASSERT_EQ(mirrored.size(), 1u);
  EXPECT_NE(mirrored[0].text.find("P (-1, 1, 1)"), std::string::npos) << mirrored[0].text;
}

// The measure sees what plays, not the scale alone: a turn about Y mixes only X and Z, which
// the (1, 2, 1) scale leaves equal, and a uniform scale commutes with every turn.
TEST(BvhWriterScaleTest, ScalesThatCommuteWithTheTurnsAreSilent) {
  EXPECT_TRUE(Write(ScaledChain({1, 2, 1}, 1)).empty());
  EXPECT_TRUE(Write(ScaledChain({2, 2, 2}, 2)).empty());
  EXPECT_TRUE(Write(ScaledChain({-1, -1, -1}, 2)).empty());
}

}  // namespace
}  // namespace animconv
