#include "animconv/clip_poser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Height reads the 12 affine entries of each matrix where World multiplies glm 4x4s; it must give
// World's bits (clip_poser.cpp says why), zeros' signs included, or the lowest foot point and the
// --ground shift written out would change. Random chains whose values are often 0, -0, 1 or -1
// (where the two ways of computing could differ in a zero's sign) and sometimes infinite or NaN.
TEST(ClipPoserTest, HeightIsWorldsTranslationBitForBit) {
  std::mt19937 random(20261207);
  std::uniform_real_distribution<double> uniform(-2, 2);
  std::uniform_int_distribution<int> pick(0, 9);
  const double infinity = std::numeric_limits<double>::infinity();
  const auto value = [&]() {
    switch (pick(random)) {
      case 0:
        return 0.0;
      case 1:
        return -0.0;
      case 2:
        return 1.0;
      case 3:
        return -1.0;
      default:
        return uniform(random);
    }
  };
  size_t zero_heights = 0;
  size_t not_finite = 0;
  size_t compared = 0;
  for (int round = 0; round < 400; ++round) {
    Asset asset = MakeAsset({"a", "b", "c", "d", "e"});
    for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
      Node& node = asset.rig.nodes[n];
      node.parent = n == 0 ? -1 : static_cast<int>(n) - 1 - (n == 4 && round % 2 ? 1 : 0);
      node.rest_translation = {value(), value(), value()};
      // Axis-aligned quarter turns (entries exactly 0 and ±1) as often as arbitrary ones.
      Quat q{value(), value(), value(), value()};
      if (round % 3 == 0) q = {0, 0, std::sqrt(0.5), std::sqrt(0.5)};
      node.rest_rotation = q;
      node.rest_scale = {value(), value(), value()};
      if (round % 50 == 7 && n == 2) node.rest_translation[0] = infinity;
      if (round % 50 == 9 && n == 1) node.rest_scale[2] = std::nan("");
    }
    Clip& clip = asset.clips[0];
    clip.channels = {
        MakeChannel(1, Path::kTranslation, {0, 1}, {value(), value(), value(), 0, -0.0, 1}, 3),
        MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, value(), value(), value(), value()},
                    4)};
    ClipPoser fast(asset.rig, clip);
    ClipPoser exact(asset.rig, clip);
    for (const double seconds : {0.0, 0.25, 1.0}) {
      fast.Pose(seconds);
      exact.Pose(seconds);
      for (int node = 4; node >= 0; --node) {
        const double height = fast.Height(node);
        const double world = exact.World(node)[3][1];
        ++compared;
        if (world == 0) ++zero_heights;
        if (!std::isfinite(world)) ++not_finite;
        EXPECT_TRUE(SameBits(height, world) || (std::isnan(height) && std::isnan(world)))
            << "round " << round << " node " << node << " at " << seconds << " s: " << height
            << " against " << world;
      }
    }
  }
  // The cases the comparison is for did occur.
  EXPECT_GT(zero_heights, 50u);
  EXPECT_GT(not_finite, 10u);
  EXPECT_EQ(compared, 400u * 3 * 5);
}

}  // namespace
}  // namespace animconv
