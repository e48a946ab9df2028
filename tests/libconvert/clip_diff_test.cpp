#include "animconv/clip_diff.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

Quat AxisAngle(Vec3 axis, double degrees) {
  const double length = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double half = degrees * kPi / 360;
  const double s = std::sin(half) / length;
  return {axis[0] * s, axis[1] * s, axis[2] * s, std::cos(half)};
}

void Append(std::vector<double>& values, const Quat& q) {
  values.insert(values.end(), q.begin(), q.end());
}

ClipDiff Diff(const Asset& a, const Asset& b, DiffOptions options = {}) {
  return DiffClips(a, a.clips[0], b, b.clips[0], options);
}

// One node "bone" with a rotation channel holding `keys` at 0, 0.1, 0.2, ... s.
Asset RotationClip(const std::vector<Quat>& keys,
                   Interpolation interpolation = Interpolation::kLinear) {
  Asset asset = MakeAsset({"bone"});
  std::vector<double> times;
  std::vector<double> values;
  for (size_t k = 0; k < keys.size(); ++k) {
    times.push_back(0.1 * static_cast<double>(k));
    Append(values, keys[k]);
  }
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, times, values, 4, interpolation));
  return asset;
}

TEST(ClipDiffTest, IdenticalClipsDifferByNothing) {
  Asset asset = MakeAsset({"root", "face"});
  asset.rig.nodes[1].morph_target_count = 2;
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(0, Path::kTranslation, {0, 1}, {0, 1, 2, 3, 4, 5}, 3));
  channels.push_back(MakeChannel(0, Path::kRotation, {0, 1},
                                 {0, 0, 0, 1, 0, 0.7071067811865476, 0, 0.7071067811865476}, 4));
  channels.push_back(MakeChannel(0, Path::kScale, {0, 1}, {1, 1, 1, 2, 2, 2}, 3));
  channels.push_back(MakeChannel(1, Path::kWeights, {0, 1}, {0, 1, 1, 0}, 2));
  const ClipDiff diff = Diff(asset, asset);
  ASSERT_EQ(diff.channels.size(), 4u);
  for (const auto& [unit, summary] : diff.overall) {
    EXPECT_EQ(summary.max, 0) << unit;
    EXPECT_EQ(summary.p99, 0) << unit;
    EXPECT_EQ(summary.channels, 1u) << unit;
    EXPECT_EQ(summary.samples, 3u) << unit;  // two keys and their midpoint
    EXPECT_EQ(summary.worst_node, "") << unit;
  }
  EXPECT_TRUE(diff.only_in_a.empty());
  EXPECT_TRUE(diff.only_in_b.empty());
  EXPECT_EQ(diff.duration_difference_seconds, 0);
  ASSERT_EQ(diff.bones.size(), 2u);
  EXPECT_EQ(diff.bones[0].node, "root");
  EXPECT_EQ(diff.bones[1].node, "face");
}

TEST(ClipDiffTest, OneDegreeOnOneKeyIsTheMaxAndHalfOfItThePercentile) {
  const Quat base = AxisAngle({1, 2, 3}, 30);
  std::vector<Quat> keys(101, base);
  const Asset a = RotationClip(keys);
  keys[40] = Multiply(base, AxisAngle({0, 0, 1}, 1));
  const Asset b = RotationClip(keys);
  const ClipDiff diff = Diff(a, b);
  ASSERT_EQ(diff.channels.size(), 1u);
  const ChannelDiff& channel = diff.channels[0];
  EXPECT_EQ(channel.unit, "deg");
  EXPECT_EQ(channel.samples, 201u);  // 101 keys and 100 midpoints
  EXPECT_NEAR(channel.max, 1, 1e-9);
  EXPECT_DOUBLE_EQ(channel.time_of_max_seconds, 4.0);
  // 198 samples are exact, the midpoints on either side of key 40 are off by 0.5°, key 40 by 1°:
  // the 199th of 201 sorted errors is a midpoint's.
  EXPECT_NEAR(channel.p99, 0.5, 1e-9);
  EXPECT_NEAR(diff.overall.at("deg").max, 1, 1e-9);
  EXPECT_NEAR(diff.overall.at("deg").p99, 0.5, 1e-9);
  EXPECT_EQ(diff.overall.at("deg").worst_node, "bone");
  EXPECT_NEAR(diff.bones.at(0).rotation_deg, 1, 1e-9);
}

TEST(ClipDiffTest, ARemovedKeyOfACurvedRotationReportsTheErrorAtItsTime) {
  // 0 -> 90° about X -> then 90° about Y: dropping the middle key makes the curve one 120° arc
  // about the axis of the last key, whose midpoint (60° about that axis) misses the old key.
  const Quat q0{0, 0, 0, 1};
  const Quat q1 = AxisAngle({1, 0, 0}, 90);
  const Quat q2 = Multiply(AxisAngle({0, 1, 0}, 90), q1);
  const Asset a = RotationClip({q0, q1, q2});
  Asset b = RotationClip({q0, q2});
  b.clips[0].channels[0].times_seconds = {0, 0.2};
  const double angle = 2 * std::acos(q2[3]) * 180 / kPi;
  EXPECT_NEAR(angle, 120, 1e-9);
  const Quat midpoint = AxisAngle({q2[0], q2[1], q2[2]}, angle / 2);
  const double expected = AngleBetween(q1, midpoint) * 180 / kPi;
  const ClipDiff diff = Diff(a, b);
  EXPECT_NEAR(diff.channels[0].max, expected, 1e-9);
  EXPECT_GT(expected, 10);
  EXPECT_DOUBLE_EQ(diff.channels[0].time_of_max_seconds, 0.1);
}

TEST(ClipDiffTest, AStepAgainstLinearIsMeasuredJustBeforeItsNextKeyWhateverTheSamplesBetween) {
  // Step and linear agree at every key and differ most just before the second key, where the
  // step still holds its first key: the whole 10° step, reported at the key's time (the samples
  // between keys saw 5° at the midpoint, 9° with 9 samples between).
  Asset a = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 10)}, Interpolation::kStep);
  const Asset b = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 10)});
  for (const int between : {0, 1, 9}) {
    DiffOptions options;
    options.samples_between_keys = between;
    const ClipDiff diff = Diff(a, b, options);
    EXPECT_NEAR(diff.channels[0].max, 10, 1e-9) << between;
    EXPECT_DOUBLE_EQ(diff.channels[0].time_of_max_seconds, 0.1) << between;
  }
}

TEST(ClipDiffTest, SignAndLengthOfQuaternionsAreNotErrors) {
  const Quat q = AxisAngle({0, 1, 0}, 40);
  const Asset a = RotationClip({q, AxisAngle({0, 1, 0}, 80)});
  Quat scaled = q;
  for (double& c : scaled) c *= 1.002;  // a Unity CSV's 3 decimals are this far off unit
  const Asset b = RotationClip({scaled, Negated(AxisAngle({0, 1, 0}, 80))});
  EXPECT_LT(Diff(a, b).overall.at("deg").max, 1e-12);
}

TEST(ClipDiffTest, TranslationScaleAndWeightsHaveTheirUnits) {
  Asset a = MakeAsset({"root"});
  a.rig.nodes[0].morph_target_count = 2;
  Asset b = a;
  a.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0}, {1, 2, 3}, 3),
                         MakeChannel(0, Path::kScale, {0}, {1, 2, 4}, 3),
                         MakeChannel(0, Path::kWeights, {0}, {0.2, 0.7}, 2)};
  b.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0}, {1.03, 2.04, 3}, 3),
                         MakeChannel(0, Path::kScale, {0}, {1, 2.2, 3}, 3),
                         MakeChannel(0, Path::kWeights, {0}, {0.25, 0.4}, 2)};
  const ClipDiff diff = Diff(a, b);
  ASSERT_EQ(diff.channels.size(), 3u);
  EXPECT_EQ(diff.channels[0].unit, "m");
  EXPECT_NEAR(diff.channels[0].max, 0.05, 1e-12);  // a 3-4-5 triangle
  EXPECT_EQ(diff.channels[1].unit, "ratio");
  EXPECT_NEAR(diff.channels[1].max, 0.25, 1e-12);  // 3 / 4, not the 0.2 of 2.2 / 2
  EXPECT_EQ(diff.channels[2].unit, "weight");
  EXPECT_NEAR(diff.channels[2].max, 0.3, 1e-12);
  EXPECT_NEAR(diff.overall.at("m").max, 0.05, 1e-12);
  EXPECT_EQ(diff.overall.at("deg").channels, 0u);
  EXPECT_NEAR(diff.bones.at(0).scale_ratio, 0.25, 1e-12);
  EXPECT_NEAR(diff.bones.at(0).weight, 0.3, 1e-12);
}

TEST(ClipDiffTest, ValuesHoldOutsideTheKeys) {
  Asset a = MakeAsset({"root"});
  Asset b = a;
  a.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0.5, 1}, {0, 0, 0, 1, 0, 0}, 3)};
  b.clips[0].channels = {
      MakeChannel(0, Path::kTranslation, {0, 1, 2}, {0, 0, 0, 1, 0, 0, 3, 0, 0}, 3)};
  const ClipDiff diff = Diff(a, b);
  // A holds 1 after its last key while B goes on to 3.
  EXPECT_DOUBLE_EQ(diff.channels[0].max, 2);
  EXPECT_DOUBLE_EQ(diff.channels[0].time_of_max_seconds, 2);
  EXPECT_DOUBLE_EQ(diff.duration_difference_seconds, 1);
}

TEST(ClipDiffTest, AChannelOnlyInOneClipIsComparedWithTheOtherRigsRest) {
  Asset a = MakeAsset({"hips", "arm"});
  Asset b = MakeAsset({"hips", "arm"});
  b.rig.nodes[1].rest_rotation = AxisAngle({1, 0, 0}, 30);
  a.clips[0].channels = {MakeChannel(1, Path::kRotation, {0}, {0, 0, 0, 1}, 4)};
  b.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0}, {0, 0.5, 0}, 3)};
  // The rule for local values: the rigs' rest rotations differ at "arm", which by default is a
  // world comparison (WorldSpace tests below).
  DiffOptions local;
  local.space = DiffSpace::kLocal;
  const ClipDiff diff = Diff(a, b, local);
  ASSERT_EQ(diff.channels.size(), 2u);
  EXPECT_TRUE(diff.channels[0].only_in_a);
  EXPECT_NEAR(diff.channels[0].max, 30, 1e-9);
  EXPECT_TRUE(diff.channels[1].only_in_b);
  EXPECT_DOUBLE_EQ(diff.channels[1].max, 0.5);
  EXPECT_EQ(diff.only_in_a, std::vector<std::string>{"arm.rotation"});
  EXPECT_EQ(diff.only_in_b, std::vector<std::string>{"hips.translation"});
}

TEST(ClipDiffTest, AWeightsChannelOnlyInOneClipIsComparedWithTheMeshsDefaultWeights) {
  // The review's d9: GLTFLoader shows mesh.weights where nothing animates them, so a clip without
  // a weights channel leaves the face at 0.7, not 0.
  Asset shown = MakeAsset({"Face"});
  shown.rig.nodes[0].morph_target_count = 2;
  shown.rig.nodes[0].morph_default_weights = {0.7, 0};
  Asset held = shown;
  held.clips[0].channels.push_back(MakeChannel(0, Path::kWeights, {0, 1}, {0, 0, 0, 0}, 2));
  for (const auto& [x, y] : {std::pair{&shown, &held}, std::pair{&held, &shown}}) {
    const ClipDiff diff = Diff(*x, *y);
    ASSERT_EQ(diff.channels.size(), 1u);
    EXPECT_DOUBLE_EQ(diff.channels[0].max, 0.7);
  }
  // Held at the default: no error (was a false 0.7 against zeros).
  held.clips[0].channels[0].values = {0.7, 0, 0.7, 0};
  EXPECT_EQ(Diff(shown, held).channels[0].max, 0);
  EXPECT_EQ(Diff(held, shown).channels[0].max, 0);
}

TEST(ClipDiffTest, NodesSharingANameMatchInTheirOrder) {
  // As in RobotExpressive: a joint and the mesh node under it are both "Head", and only the mesh
  // node has morph weights.
  Asset a = MakeAsset({"Head", "Head"});
  a.rig.nodes[1].parent = 0;
  a.rig.nodes[1].morph_target_count = 1;
  a.clips[0].channels.push_back(MakeChannel(1, Path::kWeights, {0, 1}, {0, 1}, 1));
  Asset b = a;
  b.clips[0].channels[0].values = {0, 0.5};
  const ClipDiff diff = Diff(a, b);
  EXPECT_TRUE(diff.only_in_a.empty());
  EXPECT_TRUE(diff.only_in_b.empty());
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_DOUBLE_EQ(diff.channels[0].max, 0.5);
}

TEST(ClipDiffTest, RepeatedNamesMatchTheUniqueNamesGltfLoaderGivesTheirObjects) {
  // The review's d4: two animated nodes "Head" under a root, and the three.js clip of the glTF,
  // whose tracks name GLTFLoader's objects "Head" and "Head_1". Pairing the second by its name
  // found the first (40°, and "only in A Head / only in B Head_1").
  Asset gltf = MakeAsset({"Root", "Head", "Head"});
  gltf.rig.nodes[1].parent = 0;
  gltf.rig.nodes[2].parent = 0;
  std::vector<double> about_x = {0, 0, 0, 1};
  std::vector<double> about_y = {0, 0, 0, 1};
  Append(about_x, AxisAngle({1, 0, 0}, 40));
  Append(about_y, AxisAngle({0, 1, 0}, 40));
  gltf.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0, 1}, about_x, 4));
  gltf.clips[0].channels.push_back(MakeChannel(2, Path::kRotation, {0, 1}, about_y, 4));
  Asset three = MakeAsset({"Head", "Head_1"});
  three.rig.rest_pose_known = false;
  three.rig.three_object_names = true;
  three.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, {0, 1}, about_x, 4));
  three.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0, 1}, about_y, 4));
  for (const auto& [x, y] : {std::pair{&gltf, &three}, std::pair{&three, &gltf}}) {
    const ClipDiff diff = Diff(*x, *y);
    ASSERT_EQ(diff.channels.size(), 2u);
    EXPECT_TRUE(diff.only_in_a.empty());
    EXPECT_TRUE(diff.only_in_b.empty());
    EXPECT_NEAR(diff.overall.at("deg").max, 0, 1e-9);
  }
  const ClipDiff diff = Diff(gltf, three);
  EXPECT_EQ(diff.channels[1].node_b, "Head_1");
}

TEST(ClipDiffTest, NodesWithOtherNamesMatchByHumanoidBone) {
  Asset a = RotationClip({{0, 0, 0, 1}});
  a.rig.nodes[0].name = "Hips";
  a.rig.nodes[0].human_bone = HumanBone::kHips;
  Asset b = RotationClip({AxisAngle({0, 1, 0}, 2)});
  b.rig.nodes[0].name = "mixamorig:Hips";
  b.rig.nodes[0].human_bone = HumanBone::kHips;
  const ClipDiff diff = Diff(a, b);
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_EQ(diff.channels[0].node, "Hips");
  EXPECT_EQ(diff.channels[0].node_b, "mixamorig:Hips");
  EXPECT_NEAR(diff.channels[0].max, 2, 1e-9);
  EXPECT_TRUE(diff.only_in_a.empty());
}

TEST(ClipDiffTest, HierarchicalErrorGrowsDownTheChain) {
  // A 1° error at the root moves a point at distance r from the root axis by 2 r sin(0.5°).
  Asset a = MakeAsset({"root", "child"});
  a.rig.nodes[1].parent = 0;
  a.rig.nodes[1].rest_translation = {0, 1, 0};
  a.rig.rest_pose_known = true;
  Asset b = a;
  a.clips[0].channels = {MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4)};
  b.clips[0].channels = {MakeChannel(0, Path::kRotation, {0}, {}, 4)};
  Append(b.clips[0].channels[0].values, AxisAngle({0, 0, 1}, 1));
  DiffOptions options;
  options.hierarchical_distance_metres = 0.1;
  const ClipDiff diff = Diff(a, b, options);
  const double chord = 2 * std::sin(0.5 * kPi / 180);
  ASSERT_EQ(diff.hierarchical.size(), 2u);
  EXPECT_NEAR(diff.hierarchical[0].max, 0.1 * chord, 1e-12);
  EXPECT_NEAR(diff.hierarchical[1].max, 1.1 * chord, 1e-12);  // the point at (0, 1.1, 0)
  ASSERT_TRUE(diff.hierarchical_overall);
  EXPECT_NEAR(diff.hierarchical_overall->max, 1.1 * chord, 1e-12);
  EXPECT_EQ(diff.hierarchical_overall->worst_node, "child");
  EXPECT_NEAR(*diff.bones.at(0).hierarchical_m, 0.1 * chord, 1e-12);
}

TEST(ClipDiffTest, HierarchicalErrorIgnoresARigWithoutRestPose) {
  // A Unity CSV's rig has zero-length bones; posed on the glTF's skeleton, equal rotations agree.
  Asset a = MakeAsset({"root", "child"});
  a.rig.nodes[1].parent = 0;
  Asset b = a;
  b.rig.nodes[1].rest_translation = {0, 1, 0};
  b.rig.rest_pose_known = true;
  a.clips[0].channels = {MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4)};
  b.clips[0].channels = a.clips[0].channels;
  DiffOptions options;
  options.hierarchical_distance_metres = 0.1;
  EXPECT_EQ(Diff(a, b, options).hierarchical_overall->max, 0);
}

TEST(ClipDiffTest, RefusesDifferentHandedness) {
  const Asset a = RotationClip({{0, 0, 0, 1}});
  Asset b = a;
  b.coordinates.handedness = Handedness::kLeft;
  try {
    Diff(a, b);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
  }
}

TEST(ClipDiffTest, ACubicReplacedByItsChordIsMeasuredBetweenTheKeys) {
  // Equal keys, equal tangents T: H(s) - chord = T h s (1 - s) (1 - 2 s), zero at the keys AND at
  // the midpoint, largest T h sqrt(3) / 18 at s = 1/2 -+ sqrt(3) / 6. Keys and midpoints saw 0 m.
  const double tangent = 4;  // m/s
  const double span = 0.5;   // s
  Asset cubic = MakeAsset({"bone"});
  cubic.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, span},
                  {tangent, 0, 0, 0, 0, 0, tangent, 0, 0, tangent, 0, 0, 0, 0, 0, tangent, 0, 0}, 3,
                  Interpolation::kCubicSpline));
  Asset chord = MakeAsset({"bone"});
  chord.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, span}, {0, 0, 0, 0, 0, 0}, 3));
  // An independent dense evaluation of the same curves.
  double dense = 0;
  for (int i = 0; i <= 100000; ++i) {
    const double s = i / 100000.0;
    dense = std::max(dense, std::abs(tangent * span * s * (1 - s) * (1 - 2 * s)));
  }
  EXPECT_NEAR(dense, tangent * span * std::sqrt(3.0) / 18, 1e-9);
  EXPECT_GT(dense, 0.19);
  const ClipDiff diff = Diff(cubic, chord);
  // Exact to within the bound: 1 % of the 0.1 mm tolerance.
  EXPECT_NEAR(diff.channels[0].max, dense, 1e-6);
  EXPECT_GT(diff.channels[0].adaptive_samples, 0u);
  EXPECT_EQ(diff.adaptive_samples, diff.channels[0].adaptive_samples);
  EXPECT_NEAR(Diff(chord, cubic).overall.at("m").max, dense, 1e-6);
  // Without the adaptive samples, the keys and the midpoint see nothing.
  DiffOptions uniform;
  uniform.cubic_chord_fraction = 0;
  EXPECT_LT(Diff(cubic, chord, uniform).channels[0].max, 1e-12);
}

TEST(ClipDiffTest, NodesMatchByTheNameThreeJsSanitisesThemTo) {
  Asset gltf = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 30)});
  gltf.rig.nodes[0].name = "UpperArm.L";
  Asset three = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 31)});
  three.rig.nodes[0].name = "UpperArmL";
  const ClipDiff diff = Diff(gltf, three);
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_EQ(diff.channels[0].node_b, "UpperArmL");
  EXPECT_NEAR(diff.channels[0].max, 1, 1e-9);
}

TEST(ClipDiffTest, NodesMatchAcrossUnicodeWhitespaceAsThreeJsSanitisesIt) {
  // The review's d10: a glTF node "Arm\u00a0L" is "Arm_L" in three.js (\s matches U+00A0), as
  // animconv's three.js writer names it; diff replaced ASCII whitespace only.
  Asset gltf = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 30)});
  gltf.rig.nodes[0].name = "Arm\xC2\xA0L";
  Asset three = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 30)});
  three.rig.nodes[0].name = "Arm_L";
  three.rig.rest_pose_known = false;
  for (const auto& [x, y] : {std::pair{&gltf, &three}, std::pair{&three, &gltf}}) {
    const ClipDiff diff = Diff(*x, *y);
    ASSERT_EQ(diff.channels.size(), 1u);
    EXPECT_FALSE(diff.channels[0].only_in_a);
    EXPECT_NEAR(diff.channels[0].max, 0, 1e-9);
  }
}

TEST(ClipDiffTest, AnUnnamedNodeMatchesTheThreeJsTrackNamedAfterItsMesh) {
  // GLTFLoader makes an unnamed node of a one-primitive mesh that mesh's object, named after the
  // mesh ("mesh_0" unnamed) after every named node, so a named "inner_box" makes it "inner_box_1".
  Asset gltf = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 30)});
  gltf.rig.nodes[0].name = "node_0";
  gltf.rig.nodes[0].generated_name = true;
  gltf.rig.nodes[0].mesh = MeshInfo{"", 0, 1};
  Asset three = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 31)});
  three.rig.nodes[0].name = "mesh_0";
  three.rig.rest_pose_known = false;
  for (const auto& [x, y] : {std::pair{&gltf, &three}, std::pair{&three, &gltf}}) {
    const ClipDiff diff = Diff(*x, *y);
    ASSERT_EQ(diff.channels.size(), 1u);
    EXPECT_EQ(diff.space, DiffSpace::kLocal);
    EXPECT_NEAR(diff.channels[0].max, 1, 1e-9);
  }
  gltf.rig.nodes[0].mesh->name = "inner box";
  gltf.rig.nodes.insert(gltf.rig.nodes.begin(), gltf.rig.nodes[0]);
  gltf.rig.nodes[0] = Node{};
  gltf.rig.nodes[0].name = "inner_box";
  gltf.clips[0].channels[0].node = 1;
  three.rig.nodes[0].name = "inner_box_1";
  const ClipDiff diff = Diff(gltf, three);
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_EQ(diff.channels[0].node_b, "inner_box_1");
  EXPECT_NEAR(diff.channels[0].max, 1, 1e-9);
}

// --- World space where the rigs differ (issue 13 item 4) ---

TEST(ClipDiffTest, AParentsScaleIsHonouredInWorldSpace) {
  // An FBX-style armature scaled 0.01 holding the hips in centimetres, against a rig in metres:
  // the same motion (hips rising from 1 m to 1.1 m). Compared locally it is 99 m apart.
  Asset a = MakeAsset({"Armature", "Hips"});
  a.rig.rest_pose_known = true;
  a.rig.nodes[0].rest_scale = {0.01, 0.01, 0.01};
  a.rig.nodes[1].parent = 0;
  a.rig.nodes[1].rest_translation = {0, 100, 0};
  a.clips[0].channels = {MakeChannel(1, Path::kTranslation, {0, 1}, {0, 100, 0, 0, 110, 0}, 3)};
  Asset b = MakeAsset({"Hips"});
  b.rig.rest_pose_known = true;
  b.rig.nodes[0].rest_translation = {0, 1, 0};
  b.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1}, {0, 1, 0, 0, 1.1, 0}, 3)};
  const ClipDiff diff = Diff(a, b);
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NE(diff.space_reason.find("rest poses differ at 1 of 1 compared nodes"), std::string::npos)
      << diff.space_reason;
  EXPECT_NEAR(diff.overall.at("m").max, 0, 1e-12);
  // An error of 1 cm at the end is 1 cm in world space, not 1 "m" of armature units.
  b.clips[0].channels[0].values[4] = 1.09;
  EXPECT_NEAR(Diff(a, b).overall.at("m").max, 0.01, 1e-12);
  DiffOptions local;
  local.space = DiffSpace::kLocal;
  EXPECT_NEAR(Diff(a, b, local).overall.at("m").max, 108.91, 1e-9);
}

TEST(ClipDiffTest, RestRotationsThatDifferAreComparedRestRelativeInWorldSpace) {
  // A: a root whose rest rotation R is folded into every key (local = Q(t) * R), and a child.
  // B: the same motion on a rig with identity rest (local = Q(t)). The same motion in the world.
  const Quat rest = AxisAngle({0, 0, 1}, 90);
  const Quat q0 = AxisAngle({1, 0, 0}, 10);
  const Quat q1 = AxisAngle({0, 1, 0}, 40);
  Asset a = MakeAsset({"hips", "spine"});
  a.rig.rest_pose_known = true;
  a.rig.nodes[0].rest_rotation = rest;
  a.rig.nodes[1].parent = 0;
  std::vector<double> values_a;
  Append(values_a, Multiply(q0, rest));
  Append(values_a, Multiply(q1, rest));
  a.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1}, values_a, 4),
                         MakeChannel(1, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4)};
  Asset b = MakeAsset({"hips", "spine"});
  b.rig.rest_pose_known = true;
  b.rig.nodes[1].parent = 0;
  std::vector<double> values_b;
  Append(values_b, q0);
  Append(values_b, q1);
  b.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1}, values_b, 4),
                         MakeChannel(1, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4)};
  const ClipDiff diff = Diff(a, b);
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NE(diff.space_reason.find("rest poses differ at 2 of 2"), std::string::npos)
      << diff.space_reason;
  EXPECT_LT(diff.overall.at("deg").max, 1e-9);
  // Locally the 90 degree rest rotation is all there is to see.
  DiffOptions local;
  local.space = DiffSpace::kLocal;
  EXPECT_NEAR(Diff(a, b, local).overall.at("deg").max, 90, 1e-6);
  // A real error of 3 degrees on B's spine is 3 degrees in world space.
  Append(b.clips[0].channels[1].values, AxisAngle({0, 0, 1}, 3));
  b.clips[0].channels[1].times_seconds.push_back(2);
  EXPECT_NEAR(Diff(a, b).overall.at("deg").max, 3, 1e-9);
}

TEST(ClipDiffTest, ANodeOnlyInOneRigCountsItsOwnMotionInWorldSpace) {
  // A pirouette: the hips turn 90 degrees on both rigs, and A's "tail" (B has no such node) bends
  // 10 degrees on its own. In world space the tail is measured against itself at rest under the
  // turning hips: 10 degrees, not the 90 of the turn above it.
  Asset a = MakeAsset({"hips", "tail"});
  a.rig.rest_pose_known = true;
  a.rig.nodes[0].rest_rotation = AxisAngle({1, 0, 0}, 30);
  a.rig.nodes[1].parent = 0;
  a.rig.nodes[1].rest_translation = {0, -1, 0};
  std::vector<double> turn_a;
  Append(turn_a, a.rig.nodes[0].rest_rotation);
  Append(turn_a, Multiply(AxisAngle({0, 1, 0}, 90), a.rig.nodes[0].rest_rotation));
  std::vector<double> bend;
  Append(bend, {0, 0, 0, 1});
  Append(bend, AxisAngle({0, 0, 1}, 10));
  a.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1}, turn_a, 4),
                         MakeChannel(1, Path::kRotation, {0, 1}, bend, 4)};
  Asset b = MakeAsset({"hips"});
  b.rig.rest_pose_known = true;
  std::vector<double> turn_b;
  Append(turn_b, {0, 0, 0, 1});
  Append(turn_b, AxisAngle({0, 1, 0}, 90));
  b.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1}, turn_b, 4)};
  const ClipDiff diff = Diff(a, b);
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  ASSERT_EQ(diff.channels.size(), 2u);
  EXPECT_LT(diff.channels[0].max, 1e-9);
  EXPECT_TRUE(diff.channels[1].only_in_a);
  EXPECT_NEAR(diff.channels[1].max, 10, 1e-9);
}

TEST(ClipDiffTest, RigsThatDifferWithoutARestPoseAreRefusedNamingTheOption) {
  // A Unity-CSV-like clip without a rest pose against another rig (matched by humanoid bone only)
  // whose hips rest rotation is 90 degrees.
  Asset a = RotationClip({{0, 0, 0, 1}});
  a.rig.rest_pose_known = false;
  a.rig.nodes[0].name = "Hips";
  a.rig.nodes[0].human_bone = HumanBone::kHips;
  Asset b = RotationClip({AxisAngle({0, 0, 1}, 90)});
  b.rig.rest_pose_known = true;
  b.rig.nodes[0].name = "mixamorig:Hips";
  b.rig.nodes[0].human_bone = HumanBone::kHips;
  b.rig.nodes[0].rest_rotation = AxisAngle({0, 0, 1}, 90);
  try {
    Diff(a, b);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what()).find("--space local"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("A has no rest pose, and 1 of its nodes"),
              std::string::npos)
        << error.what();
  }
  DiffOptions local;
  local.space = DiffSpace::kLocal;
  EXPECT_NEAR(Diff(a, b, local).overall.at("deg").max, 90, 1e-9);
  // The same-named node: the clip holds that node's local values (a three.js clip of this rig).
  a.rig.nodes[0].name = "mixamorig:Hips";
  EXPECT_EQ(Diff(a, b).space, DiffSpace::kLocal);
}

TEST(ClipDiffTest, SameRigsStayLocal) {
  const Asset a = RotationClip({{0, 0, 0, 1}, AxisAngle({0, 0, 1}, 5)});
  const ClipDiff diff = Diff(a, a);
  EXPECT_EQ(diff.space, DiffSpace::kLocal);
  EXPECT_EQ(diff.translation_scale, 1);
  DiffOptions world;
  world.space = DiffSpace::kWorld;
  EXPECT_EQ(Diff(a, a, world).space, DiffSpace::kWorld);
  EXPECT_EQ(Diff(a, a, world).overall.at("deg").max, 0);
}

// A humanoid rig of hips and one foot below it, the hips translated by `hips_keys` (two keys).
Asset HipsAndFoot(double hips_rest_y, double foot_below_hips,
                  const std::vector<double>& hips_keys) {
  Asset asset = MakeAsset({"hips", "foot"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[0].rest_translation = {0, hips_rest_y, 0};
  asset.rig.nodes[1].human_bone = HumanBone::kLeftFoot;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0, -foot_below_hips, 0};
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, {0, 1}, hips_keys, 3)};
  return asset;
}

TEST(ClipDiffTest, HumanoidRigsOfOtherSizesCompareHipsPositionsScaledByTheirHeights) {
  // A .vrma holds the hips translation retargeted onto its own rig: 1.2 times as tall here, so
  // its positions are 1.2 times A's for the same motion (retarget.cpp MoveHipsTranslation).
  const auto rig = [](double height) {
    return HipsAndFoot(height, height, {0, height, 0, 0.3 * height, height, 0});
  };
  const ClipDiff diff = Diff(rig(0.8), rig(0.96));
  EXPECT_EQ(diff.space, DiffSpace::kWorld);
  EXPECT_NEAR(diff.translation_scale, 0.8 / 0.96, 1e-12);
  EXPECT_NE(diff.space_reason.find("rest hips heights differ"), std::string::npos);
  EXPECT_NEAR(diff.overall.at("m").max, 0, 1e-12);
}

TEST(ClipDiffTest, OneSkeletonDrawnAroundItsHipsIsTheSameSizeAsStandingOnTheFloor) {
  // A's rest pose stands on the origin (hips 0.9 m, foot 0.05 m above it); B is the same
  // skeleton as animconv's BVH writes it: the hips a ROOT at OFFSET 0 (the feet 0.85 m below it)
  // with the whole translation in its position channels, so the hips play at the same heights.
  // Their hips heights above a floor differ (0.9 against 0.85 m: B has none but its feet), and
  // scaling B's positions by that ratio would report 5.6 cm where nothing differs.
  const std::vector<double> keys{0, 0.9, 0, 0.3, 0.95, 0};
  DiffOptions world;
  world.space = DiffSpace::kWorld;
  const ClipDiff diff = Diff(HipsAndFoot(0.9, 0.85, keys), HipsAndFoot(0, 0.85, keys), world);
  EXPECT_EQ(diff.translation_scale, 1);
  EXPECT_EQ(diff.space_reason.find("rest hips heights differ"), std::string::npos)
      << diff.space_reason;
  EXPECT_NEAR(diff.overall.at("m").max, 0, 1e-12);
}

}  // namespace
}  // namespace animconv
