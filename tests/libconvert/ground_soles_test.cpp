// --ground on a rig whose feet carry meshes: their soles, not the joints, touch the floor
// (docs/root_motion.md, "Grounding"; Node::rest_mesh_support).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "animconv/axes.h"
#include "animconv/ground.h"
#include "libconvert/lowest_foot.h"
#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::MakeAsset;
using testing::MakeChannel;
using testing::WorldPositions;

constexpr int kFoot = 3;
constexpr int kToes = 4;
constexpr int kShoe = 5;
constexpr int kToeCap = 6;

// A box's support points: its eight corners, bottom (y low) first.
std::vector<Vec3> BoxCorners(const Vec3& low, const Vec3& high) {
  std::vector<Vec3> corners;
  for (const double y : {low[1], high[1]}) {
    for (const double z : {low[2], high[2]}) {
      for (const double x : {low[0], high[0]}) corners.push_back({x, y, z});
    }
  }
  return corners;
}

// One leg standing on the floor at rest: hips 1 m up, the ankle 0.08 m and the toes 0.02 m up,
// in a shoe whose sole is at y = 0: its heel a mesh under the foot node (as RobotExpressive's
// Foot.L mesh), 0.05 m behind the ankle to 0.08 m before it, its toe cap one under the toes,
// from there to 0.08 m before the toes' joint.
// The clip holds the hips 0.1 m lower and turns the foot from flat by `foot_degrees` about X
// over a second: positive lowers the toes (a push-off), negative raises them (a heel strike).
Asset Walker(double foot_degrees) {
  Asset asset =
      MakeAsset({"Hips", "LeftUpperLeg", "LeftLowerLeg", "LeftFoot", "LeftToes", "Shoe", "ToeCap"});
  Rig& rig = asset.rig;
  rig.rest_pose_known = true;
  const std::vector<HumanBone> bones = {HumanBone::kHips, HumanBone::kLeftUpperLeg,
                                        HumanBone::kLeftLowerLeg, HumanBone::kLeftFoot,
                                        HumanBone::kLeftToes};
  const std::vector<Vec3> offsets = {{0, 1, 0},     {0.1, -0.05, 0},  {0, -0.45, 0},
                                     {0, -0.42, 0}, {0, -0.06, 0.12}, {0, 0, 0},
                                     {0, 0, 0}};
  for (size_t n = 0; n < offsets.size(); ++n) {
    rig.nodes[n].parent = static_cast<int>(n) - 1;
    rig.nodes[n].rest_translation = offsets[n];
    if (n < bones.size()) rig.nodes[n].human_bone = bones[n];
  }
  rig.nodes[kShoe].parent = kFoot;
  rig.nodes[kShoe].rest_mesh_support = BoxCorners({0.05, 0, -0.05}, {0.15, 0.1, 0.08});
  rig.nodes[kToeCap].parent = kToes;
  rig.nodes[kToeCap].rest_mesh_support = BoxCorners({0.05, 0, 0.08}, {0.15, 0.05, 0.2});
  const Quat flat{0, 0, 0, 1};
  const Quat turned = AxisAngle('X', foot_degrees);
  asset.clips[0].channels = {
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0.9, 0, 0, 0.9, 0}, 3),
      MakeChannel(kFoot, Path::kRotation, {0, 1},
                  {flat[0], flat[1], flat[2], flat[3], turned[0], turned[1], turned[2], turned[3]},
                  4)};
  return asset;
}

// Degrees to radians.
double Radians(double degrees) { return degrees * M_PI / 180; }

TEST(GroundSolesTest, EachJointsSolePointsAreTheLowCornersOfItsMeshesInItsFrame) {
  const Asset asset = Walker(30);
  std::string left_out;
  const std::optional<RestSoles> soles = MeasureRestSoles(asset.rig, &left_out);
  ASSERT_TRUE(soles.has_value()) << left_out;
  EXPECT_EQ(soles->floor_metres, 0);
  EXPECT_EQ(soles->lowest_node, "LeftFoot");  // the first foot whose meshes reach the floor
  ASSERT_EQ(soles->depths.size(), 2u);        // FootAndToeNodes: the foot, then the toes
  EXPECT_NEAR(soles->depths[0], 0.08, 1e-12);
  EXPECT_NEAR(soles->depths[1], 0.02, 1e-12);
  // The heel's corners around the ankle (0.1, 0.08, 0), the toe cap's around the toes
  // (0.1, 0.02, 0.12), each in its joint's frame: the bottom four first, at the floor.
  ASSERT_EQ(soles->points.size(), 2u);
  const std::vector<Vec3> heel = {
      {-0.05, -0.08, -0.05}, {0.05, -0.08, -0.05}, {-0.05, -0.08, 0.08}, {0.05, -0.08, 0.08}};
  const std::vector<Vec3> cap = {
      {-0.05, -0.02, -0.04}, {0.05, -0.02, -0.04}, {-0.05, -0.02, 0.08}, {0.05, -0.02, 0.08}};
  for (size_t f = 0; f < 2; ++f) {
    const std::vector<Vec3>& expected = f == 0 ? heel : cap;
    ASSERT_EQ(soles->points[f].size(), 8u);
    for (size_t p = 0; p < expected.size(); ++p) {
      for (size_t axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(soles->points[f][p][axis], expected[p][axis], 1e-12) << f << " " << p;
      }
    }
  }
  // A foot whose meshes are all under the toes gets the floor beneath its joint.
  Asset capped = Walker(30);
  capped.rig.nodes[kShoe].parent = kToes;
  const std::optional<RestSoles> capped_soles = MeasureRestSoles(capped.rig, nullptr);
  ASSERT_TRUE(capped_soles.has_value());
  ASSERT_EQ(capped_soles->points[0].size(), 1u);
  EXPECT_NEAR(capped_soles->points[0][0][1], -0.08, 1e-12);
  // Without meshes on the feet (a mesh elsewhere does not count), the joints are grounded.
  Asset bare = Walker(30);
  bare.rig.nodes[kShoe].parent = 0;
  bare.rig.nodes[kToeCap].parent = 0;
  EXPECT_FALSE(MeasureRestSoles(bare.rig, nullptr).has_value());
}

// A push-off: the foot turned 30° toes-down, the toe cap's front corner is lowest at 1 s; grounded,
// it touches y = 0, and the joints stand above it as that tilted shoe puts them.
TEST(GroundSolesTest, APushOffGroundsTheToeCapsFrontCorner) {
  Asset asset = Walker(30);
  const GroundReport report = ApplyGround(asset);
  ASSERT_TRUE(report.soles.has_value());
  ASSERT_EQ(report.clips.size(), 1u);
  const GroundedClip& clip = report.clips[0];
  const double c = std::cos(Radians(30)), s = std::sin(Radians(30));
  const double ankle = 0.9 - 0.05 - 0.45 - 0.42;
  const double toes = ankle - 0.06 * c - 0.12 * s;
  const double corner = toes - 0.02 * c - 0.08 * s;
  EXPECT_EQ(clip.lowest_node, "LeftToes");
  EXPECT_NEAR(clip.sole_depth_metres, 0.02, 1e-12);
  EXPECT_NEAR(clip.lowest_seconds, 1, 1e-12);
  EXPECT_NEAR(clip.lowest_before_metres, corner, 1e-12);
  EXPECT_NEAR(clip.shift_metres, -corner, 1e-12);
  EXPECT_NEAR(clip.lowest_after_metres, 0, 1e-12);
  EXPECT_NEAR(WorldPositions(asset, 1)[kToes][1], toes - corner, 1e-12);
  // The fast search and posing every sample agree with sole points, as without them.
  const std::vector<int> feet = {kFoot, kToes};
  const FootSamples samples = SampleFeet(asset.clips[0], kGroundSubdivisions, size_t{1} << 20);
  const Lowest fast = FindLowest(asset.rig, asset.clips[0], feet, samples, &report.soles->points);
  const Lowest every =
      FindLowestPosingEverySample(asset.rig, asset.clips[0], feet, samples, &report.soles->points);
  EXPECT_EQ(fast.node, every.node);
  EXPECT_EQ(fast.seconds, every.seconds);
  EXPECT_NEAR(fast.metres, every.metres, 1e-15);
  EXPECT_NEAR(fast.metres, 0, 1e-12);
}

// A heel strike: the foot turned 30° toes-up, the heel's back corner is lowest,
// 0.08 cos 30° + 0.05 sin 30° below the ankle. Grounding the joints put the ankle at 0: the heel
// 9 cm under the floor.
TEST(GroundSolesTest, AHeelStrikeGroundsTheHeelsBackCorner) {
  Asset asset = Walker(-30);
  // Turned up from the start, so the flat foot's soles do not tie at 0 s.
  const Quat up = AxisAngle('X', -30);
  asset.clips[0].channels[1] = MakeChannel(
      kFoot, Path::kRotation, {0, 1}, {up[0], up[1], up[2], up[3], up[0], up[1], up[2], up[3]}, 4);
  const GroundReport report = ApplyGround(asset);
  ASSERT_EQ(report.clips.size(), 1u);
  const double below = 0.08 * std::cos(Radians(30)) + 0.05 * std::sin(Radians(30));
  EXPECT_EQ(report.clips[0].lowest_node, "LeftFoot");
  EXPECT_NEAR(report.clips[0].lowest_before_metres, -0.02 - below, 1e-12);
  EXPECT_NEAR(WorldPositions(asset, 0.5)[kFoot][1], below, 1e-12);
}

// Between keys: a foot swinging from 50° to 10° toes-up between two keys lowers its heel's back
// corner most at 32° (0.08 cos θ + 0.05 sin θ is largest there), where no key is; the fast search,
// whose travel bound must count the corner's turn about the ankle, finds the sample posing every
// sample finds, at 30° (t = 1).
TEST(GroundSolesTest, ASolePointLowestBetweenKeysIsFound) {
  Asset asset = Walker(30);
  const Quat from = AxisAngle('X', -50);
  const Quat to = AxisAngle('X', -10);
  asset.clips[0].channels[1] =
      MakeChannel(kFoot, Path::kRotation, {0, 2},
                  {from[0], from[1], from[2], from[3], to[0], to[1], to[2], to[3]}, 4);
  asset.clips[0].channels[0] =
      MakeChannel(0, Path::kTranslation, {0, 2}, {0, 0.9, 0, 0, 0.9, 0}, 3);
  const std::optional<RestSoles> soles = MeasureRestSoles(asset.rig, nullptr);
  ASSERT_TRUE(soles.has_value());
  const std::vector<int> feet = {kFoot, kToes};
  const FootSamples samples = SampleFeet(asset.clips[0], kGroundSubdivisions, size_t{1} << 20);
  const Lowest fast = FindLowest(asset.rig, asset.clips[0], feet, samples, &soles->points);
  const Lowest every =
      FindLowestPosingEverySample(asset.rig, asset.clips[0], feet, samples, &soles->points);
  EXPECT_EQ(fast.node, every.node);
  EXPECT_EQ(fast.seconds, every.seconds);
  EXPECT_EQ(fast.metres, every.metres);
  EXPECT_EQ(fast.node, kFoot);
  EXPECT_NEAR(fast.seconds, 1, 1e-12);
  EXPECT_NEAR(fast.metres, -0.02 - 0.08 * std::cos(Radians(30)) - 0.05 * std::sin(Radians(30)),
              1e-12);
}

// A foot turned past upright (kneeling on the instep, 150° toes-up): the lowest point is a top
// corner of the shoe, which the sole points cover (SupportDirections spans the whole sphere; the
// first version's directions within 75° of down let such a shoe sink 17-73 mm).
TEST(GroundSolesTest, AFootTurnedPastUprightGroundsTheShoesTop) {
  Asset asset = Walker(150);
  const Quat turned = AxisAngle('X', 150);
  asset.clips[0].channels[1] = MakeChannel(
      kFoot, Path::kRotation, {0, 1},
      {turned[0], turned[1], turned[2], turned[3], turned[0], turned[1], turned[2], turned[3]}, 4);
  const double c = std::cos(Radians(150)), s = std::sin(Radians(150));
  const auto turned_y = [&](double y, double z) { return y * c - z * s; };
  const double ankle = 0.9 - 0.05 - 0.45 - 0.42;
  const double toes = ankle + turned_y(-0.06, 0.12);
  double lowest = 1e9;
  for (const double y : {-0.08, 0.02}) {
    for (const double z : {-0.05, 0.08}) lowest = std::min(lowest, ankle + turned_y(y, z));
  }
  for (const double y : {-0.02, 0.03}) {
    for (const double z : {-0.04, 0.08}) lowest = std::min(lowest, toes + turned_y(y, z));
  }
  const GroundReport report = ApplyGround(asset);
  ASSERT_EQ(report.clips.size(), 1u);
  EXPECT_NEAR(report.clips[0].lowest_before_metres, lowest, 1e-12);
  EXPECT_NEAR(report.clips[0].lowest_after_metres, 0, 1e-12);
}

// A mesh reaching far below the feet at rest (a gizmo or a ground plane hung under a foot, as
// vrmaddon_debug_robot's axis gizmos are) is no sole: the joints are grounded, and the report
// says why.
TEST(GroundSolesTest, MeshesFarBelowTheFeetAreNotSoles) {
  Asset asset = Walker(30);
  // An axis gizmo hung under the foot, 0.3 m down: deeper below the ankle than a quarter of the
  // leg height (0.87 m: 0.22 m).
  asset.rig.nodes[kShoe].rest_mesh_support.push_back({0.1, -0.3, 0});
  std::string left_out;
  EXPECT_FALSE(MeasureRestSoles(asset.rig, &left_out).has_value());
  EXPECT_NE(left_out.find("not soles"), std::string::npos) << left_out;
  const GroundReport report = ApplyGround(asset);
  EXPECT_FALSE(report.soles.has_value());
  EXPECT_EQ(report.soles_left_out, left_out);
  EXPECT_NEAR(report.clips[0].lowest_after_metres, 0, 1e-12);
  EXPECT_EQ(report.clips[0].sole_depth_metres, 0);
}

// The support points are rest-pose data: a change of basis and a length scale move them with the
// joints, so the depths stay what they were (scaled).
TEST(GroundSolesTest, ChangeBasisAndScaleLengthsKeepTheSupportPointsWithTheRestPose) {
  Asset asset = Walker(30);
  ScaleLengths(asset, 100);
  std::optional<RestSoles> soles = MeasureRestSoles(asset.rig, nullptr);
  ASSERT_TRUE(soles.has_value());
  EXPECT_NEAR(soles->points[0][0][2], -5, 1e-9);
  EXPECT_NEAR(soles->depths[0], 8, 1e-9);
  EXPECT_NEAR(soles->depths[1], 2, 1e-9);
  // Mirrored in x: the points' x negated, their heights untouched.
  ChangeBasis(asset, MirrorAxisMap(Mirror::kX));
  const std::vector<Vec3>& points = asset.rig.nodes[kShoe].rest_mesh_support;
  EXPECT_NEAR(points[0][0], -5, 1e-9);
  EXPECT_NEAR(points[0][1], 0, 1e-9);
  EXPECT_NEAR(points[1][0], -15, 1e-9);
  soles = MeasureRestSoles(asset.rig, nullptr);
  ASSERT_TRUE(soles.has_value());
  EXPECT_NEAR(soles->depths[1], 2, 1e-9);
}

}  // namespace
}  // namespace animconv
