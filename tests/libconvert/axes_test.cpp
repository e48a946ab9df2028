#include "animconv/axes.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

// Rotation matrix of a unit quaternion, row-major.
std::array<double, 9> Matrix(const Quat& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
          2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
          2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

TEST(AxesTest, ReverseZMatchesUniGltf) {
  // UniGLTF axis inverters (ReverseZ / ReverseX): reverse Z gives (-x,-y,z,w) and (x,y,-z).
  const AxisMap map = MirrorAxisMap(Mirror::kZ);
  EXPECT_EQ(TransformRotation(map, {0.1, 0.2, 0.3, 0.9}), (Quat{-0.1, -0.2, 0.3, 0.9}));
  EXPECT_EQ(TransformVector(map, {1, 2, 3}), (Vec3{1, 2, -3}));
  EXPECT_EQ(map.determinant(), -1);
}

TEST(AxesTest, ReverseXMatchesUniVrm10) {
  // UniGLTF axis inverters (ReverseZ / ReverseX): reverse X gives (x,-y,-z,w) and (-x,y,z).
  const AxisMap map = MirrorAxisMap(Mirror::kX);
  EXPECT_EQ(TransformRotation(map, {0.1, 0.2, 0.3, 0.9}), (Quat{0.1, -0.2, -0.3, 0.9}));
  EXPECT_EQ(TransformVector(map, {1, 2, 3}), (Vec3{-1, 2, 3}));
}

// For every signed permutation M, the transformed quaternion's matrix must equal M R M^T.
TEST(AxesTest, EverySignedPermutationConjugatesTheRotationMatrix) {
  const Quat q = Normalized({0.3, -0.5, 0.2, 0.7});
  const std::array<std::array<int, 3>, 6> permutations = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (const auto& source : permutations) {
    for (int signs = 0; signs < 8; ++signs) {
      AxisMap map;
      map.source = source;
      map.sign = {signs & 1 ? -1 : 1, signs & 2 ? -1 : 1, signs & 4 ? -1 : 1};
      double m[9] = {};
      for (int i = 0; i < 3; ++i) m[i * 3 + map.source[i]] = map.sign[i];
      const auto r = Matrix(q);
      double expected[9] = {};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          for (int k = 0; k < 3; ++k) {
            for (int l = 0; l < 3; ++l)
              expected[i * 3 + j] += m[i * 3 + k] * r[k * 3 + l] * m[j * 3 + l];
          }
        }
      }
      const auto actual = Matrix(TransformRotation(map, q));
      for (int i = 0; i < 9; ++i) EXPECT_NEAR(actual[i], expected[i], 1e-12) << signs;
    }
  }
}

TEST(AxesTest, MirrorsDifferByHalfTurnAboutY) {
  // UniGLTF axis inverters (ReverseZ / ReverseX): the two results differ by a 180 degree turn about
  // Y (negate x and z).
  const Quat q = Normalized({0.3, -0.5, 0.2, 0.7});
  const Quat by_x = TransformRotation(MirrorAxisMap(Mirror::kX), q);
  const Quat by_z = TransformRotation(MirrorAxisMap(Mirror::kZ), q);
  EXPECT_DOUBLE_EQ(by_z[0], -by_x[0]);
  EXPECT_DOUBLE_EQ(by_z[1], by_x[1]);
  EXPECT_DOUBLE_EQ(by_z[2], -by_x[2]);
  EXPECT_DOUBLE_EQ(by_z[3], by_x[3]);
}

TEST(AxesTest, ChangeBasisTransformsChannelsRestAndLabels) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.coordinates = {Handedness::kLeft, Facing::kPlusZ};
  asset.rig.nodes[0].rest_translation = {0, 1, 0.5};
  asset.rig.nodes[0].rest_scale = {1, 2, 3};
  auto& channels = asset.clips[0].channels;
  channels.push_back(testing::MakeChannel(0, Path::kTranslation, {0}, {1, 2, 3}, 3));
  channels.push_back(testing::MakeChannel(0, Path::kRotation, {0}, {0.1, 0.2, 0.3, 0.9}, 4));
  channels.push_back(testing::MakeChannel(0, Path::kScale, {0}, {4, 5, 6}, 3));
  ConvertHandedness(asset, Handedness::kRight, Mirror::kZ);
  EXPECT_EQ(asset.coordinates.handedness, Handedness::kRight);
  EXPECT_EQ(asset.coordinates.facing, Facing::kMinusZ);
  EXPECT_EQ(asset.rig.nodes[0].rest_translation, (Vec3{0, 1, -0.5}));
  EXPECT_EQ(asset.rig.nodes[0].rest_scale, (Vec3{1, 2, 3}));
  EXPECT_EQ(channels[0].values, (std::vector<double>{1, 2, -3}));
  EXPECT_EQ(channels[1].values, (std::vector<double>{-0.1, -0.2, 0.3, 0.9}));
  EXPECT_EQ(channels[2].values, (std::vector<double>{4, 5, 6}));
  // Converting again to the same handedness is a no-op; back again restores the numbers.
  ConvertHandedness(asset, Handedness::kRight, Mirror::kX);
  EXPECT_EQ(channels[0].values, (std::vector<double>{1, 2, -3}));
  ConvertHandedness(asset, Handedness::kLeft, Mirror::kZ);
  EXPECT_EQ(channels[1].values, (std::vector<double>{0.1, 0.2, 0.3, 0.9}));
  EXPECT_EQ(asset.coordinates.facing, Facing::kPlusZ);
}

TEST(AxesTest, MirrorXKeepsFacingAndNoneOnlyRelabels) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.coordinates = {Handedness::kLeft, Facing::kPlusZ};
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0}, {0.1, 0.2, 0.3, 0.9}, 4));
  Asset relabelled = asset;
  ConvertHandedness(asset, Handedness::kRight, Mirror::kX);
  EXPECT_EQ(asset.coordinates.facing, Facing::kPlusZ);
  ConvertHandedness(relabelled, Handedness::kRight, Mirror::kNone);
  EXPECT_EQ(relabelled.coordinates.handedness, Handedness::kRight);
  EXPECT_EQ(relabelled.clips[0].channels[0].values, (std::vector<double>{0.1, 0.2, 0.3, 0.9}));
}

TEST(AxesTest, CubicTangentsAreTransformedToo) {
  Asset asset = testing::MakeAsset({"n"});
  asset.coordinates.handedness = Handedness::kLeft;
  asset.clips[0].channels.push_back(testing::MakeChannel(
      0, Path::kTranslation, {0, 1}, {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6}, 3,
      Interpolation::kCubicSpline));
  ConvertHandedness(asset, Handedness::kRight, Mirror::kZ);
  const auto& values = asset.clips[0].channels[0].values;
  for (size_t e = 0; e < 6; ++e) EXPECT_EQ(values[e * 3 + 2], -static_cast<double>(e + 1));
}

TEST(AxesTest, ParseMirrorRejectsUnknown) {
  EXPECT_EQ(ParseMirror("x"), Mirror::kX);
  EXPECT_EQ(ParseMirror("z"), Mirror::kZ);
  EXPECT_EQ(ParseMirror("none"), Mirror::kNone);
  EXPECT_THROW(ParseMirror("y"), Error);
}

TEST(AxesTest, ScaleLengthsScalesTranslationsOnly) {
  Asset asset;
  Node node;
  node.rest_translation = {1, 2, 3};
  node.rest_scale = {2, 2, 2};
  asset.rig.nodes = {node};
  Clip clip;
  Channel translation;
  translation.node = 0;
  translation.path = Path::kTranslation;
  translation.width = 3;
  translation.interpolation = Interpolation::kCubicSpline;
  translation.times_seconds = {0};
  translation.values = {1, 1, 1, 10, 20, 30, -1, -1, -1};  // in-tangent, value, out-tangent
  Channel scale = translation;
  scale.path = Path::kScale;
  clip.channels = {translation, scale};
  asset.clips = {clip};
  ScaleLengths(asset, 0.01);
  EXPECT_EQ(asset.rig.nodes[0].rest_translation, (Vec3{0.01, 0.02, 0.03}));
  EXPECT_EQ(asset.rig.nodes[0].rest_scale, (Vec3{2, 2, 2}));
  EXPECT_DOUBLE_EQ(asset.clips[0].channels[0].values[4], 0.2);
  EXPECT_DOUBLE_EQ(asset.clips[0].channels[0].values[0], 0.01);  // tangents are lengths too
  EXPECT_DOUBLE_EQ(asset.clips[0].channels[1].values[4], 20);
}

}  // namespace
}  // namespace animconv
