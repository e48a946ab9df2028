// DiffClips in world space (libconvert/clip_diff_world.cpp) against what three.js r187 shows of a
// node's world values (getWorldScale, getWorldQuaternion: Matrix4.decompose).
#include <gtest/gtest.h>

#include <cmath>

#include "animconv/clip_diff.h"
#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

// The review's d2: P > C > D, C's scale held at `scale`, D at rest turned by an identity
// rotation channel (so its world rotation is compared); `turned` gives P and C rest rotations of
// +90° and -90° about y (the same world frames, other rest rotations: world space).
Asset Mirror(const Vec3& scale, bool turned) {
  Asset asset = MakeAsset({"P", "C", "D"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[2].parent = 1;
  asset.rig.nodes[2].rest_translation = {1, 0, 0};
  if (turned) {
    const double h = std::sqrt(0.5);
    asset.rig.nodes[0].rest_rotation = {0, h, 0, h};
    asset.rig.nodes[1].rest_rotation = {0, -h, 0, h};
  }
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(1, Path::kScale, {0, 1},
                                 {scale[0], scale[1], scale[2], scale[0], scale[1], scale[2]}, 3));
  channels.push_back(MakeChannel(2, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  return asset;
}

double Max(const ClipDiff& diff, const char* unit) { return diff.overall.at(unit).max; }

TEST(ClipDiffWorldTest, AMirroringScaleIsANegativeWorldScaleAsThreeJsDecomposesIt) {
  // Scale (-1, 1, 1) against (1, 1, 1): three.js's world scale -1 against 1 (ratio 2); the axes'
  // lengths alone are 1 and 1.
  const ClipDiff diff = DiffClips(Mirror({-1, 1, 1}, false), Mirror({-1, 1, 1}, false).clips[0],
                                  Mirror({1, 1, 1}, true), Mirror({1, 1, 1}, true).clips[0], {});
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NEAR(Max(diff, "ratio"), 2, 1e-12);
  EXPECT_NEAR(Max(diff, "deg"), 0, 1e-9);  // a mirror is no turn: three.js's rotation is identity
}

TEST(ClipDiffWorldTest, TwoMirroredAxesAreAHalfTurnOfEveryNodeBelow) {
  // Scale (-1, -1, 1) is a half turn about z written as two mirrors (determinant +1): three.js
  // decomposes C's and D's world matrices to scale 1 and a 180° rotation.
  const Asset a = Mirror({-1, -1, 1}, false);
  const Asset b = Mirror({1, 1, 1}, true);
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    const ClipDiff diff = DiffClips(*x, x->clips[0], *y, y->clips[0], {});
    EXPECT_NEAR(Max(diff, "ratio"), 0, 1e-12);
    EXPECT_NEAR(Max(diff, "deg"), 180, 1e-9);
  }
  // The same half turn played as a rotation is the same world motion.
  Asset rotated = Mirror({1, 1, 1}, false);
  rotated.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 1}, {0, 0, 1, 0, 0, 0, 1, 0}, 4));
  DiffOptions world;
  world.space = DiffSpace::kWorld;
  const ClipDiff same = DiffClips(a, a.clips[0], rotated, rotated.clips[0], world);
  EXPECT_NEAR(Max(same, "deg"), 0, 1e-9);
  EXPECT_NEAR(Max(same, "ratio"), 0, 1e-12);
  EXPECT_NEAR(Max(same, "m"), 0, 1e-12);
}

}  // namespace
}  // namespace animconv
