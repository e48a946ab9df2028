#include "animconv/reduce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <random>

#include "animconv/convert.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

// The error of `value` against `reference` in the path's unit (degrees for rotations).
double ErrorIn(Path path, const double* value, const double* reference, int width) {
  double error = 0;
  if (path == Path::kRotation) {
    return AngleBetween(Normalized(LoadQuat(value)), Normalized(LoadQuat(reference))) * 180 / kPi;
  }
  for (int i = 0; i < width; ++i) {
    if (path == Path::kTranslation) {
      error += (value[i] - reference[i]) * (value[i] - reference[i]);
    } else if (path == Path::kScale) {
      error = std::max(error, std::fabs(value[i] / reference[i] - 1));
    } else {
      error = std::max(error, std::fabs(value[i] - reference[i]));
    }
  }
  return path == Path::kTranslation ? std::sqrt(error) : error;
}

double ToleranceFor(Path path, const ReduceOptions& options) {
  switch (path) {
    case Path::kRotation:
      return options.rotation_degrees;
    case Path::kTranslation:
      return options.translation_metres;
    case Path::kScale:
      return options.scale_ratio;
    case Path::kWeights:
      return options.weight;
  }
  return 0;
}

// The worst error of `reduced` (null: removed, so the node's rest value plays) against `original`,
// measured with EvaluateChannel at every original key and `between` evenly spaced points inside
// every original segment: denser than the reducer checks, and through a different code path.
double MaxError(const Channel& original, const Channel* reduced, const Node& node, int between) {
  std::vector<double> times;
  for (size_t k = 0; k < original.key_count(); ++k) {
    times.push_back(original.times_seconds[k]);
    if (k + 1 == original.key_count()) break;
    const double step = (original.times_seconds[k + 1] - original.times_seconds[k]) / (between + 1);
    for (int s = 1; s <= between; ++s) times.push_back(original.times_seconds[k] + s * step);
  }
  std::vector<double> rest;
  if (original.path == Path::kTranslation) {
    rest.assign(node.rest_translation.begin(), node.rest_translation.end());
  } else if (original.path == Path::kRotation) {
    rest.assign(node.rest_rotation.begin(), node.rest_rotation.end());
  } else {
    rest.assign(node.rest_scale.begin(), node.rest_scale.end());
  }
  std::vector<double> expected(static_cast<size_t>(original.width));
  std::vector<double> actual(static_cast<size_t>(original.width));
  double worst = 0;
  for (const double t : times) {
    EvaluateChannel(original, t, expected.data());
    if (reduced) {
      EvaluateChannel(*reduced, t, actual.data());
    } else {
      actual = rest;
    }
    worst = std::max(worst, ErrorIn(original.path, actual.data(), expected.data(), original.width));
  }
  return worst;
}

// Reduces a copy of `asset` and checks every channel of every clip against the original; returns
// the worst error relative to the tolerance (1 = exactly at the tolerance).
double CheckReduction(const Asset& asset, const ReduceOptions& options, ReduceReport* report) {
  Asset reduced = asset;
  *report = Reduce(reduced, options);
  double worst = 0;
  for (size_t c = 0; c < asset.clips.size(); ++c) {
    const Clip& before = asset.clips[c];
    const Clip& after = reduced.clips[c];
    EXPECT_EQ(after.duration(), before.duration());
    for (const Channel& original : before.channels) {
      const Channel* match = nullptr;
      for (const Channel& channel : after.channels) {
        if (channel.node == original.node && channel.path == original.path) match = &channel;
      }
      if (!match) {
        EXPECT_TRUE(asset.rig.rest_pose_known && original.path != Path::kWeights);
      }
      const double tolerance = ToleranceFor(original.path, options);
      const double error =
          MaxError(original, match, asset.rig.nodes[static_cast<size_t>(original.node)], 8);
      worst = std::max(worst, tolerance > 0 ? error / tolerance : error);
    }
  }
  return worst;
}

Quat AxisAngle(double x, double y, double z, double radians) {
  const double length = std::sqrt(x * x + y * y + z * z);
  const double s = std::sin(radians / 2) / length;
  return {x * s, y * s, z * s, std::cos(radians / 2)};
}

// A random clip on `joints` chained nodes: smooth motion with noise, a held stretch, a linear
// drift, an occasional step channel and morph weights, so all the reducer's branches run.
Asset RandomAsset(std::mt19937& random, int joints, bool rest_known) {
  std::vector<std::string> names;
  for (int j = 0; j < joints; ++j) names.push_back("joint" + std::to_string(j));
  Asset asset = MakeAsset(names);
  asset.rig.rest_pose_known = rest_known;
  for (int j = 0; j < joints; ++j) {
    Node& node = asset.rig.nodes[static_cast<size_t>(j)];
    node.parent = j - 1;
    node.rest_translation = {0, 0.3, 0};
    node.morph_target_count = j == 0 ? 3 : 0;
  }
  std::uniform_real_distribution<double> unit(-1, 1);
  const size_t keys = 20 + random() % 200;
  std::vector<double> times;
  double t = 0;
  for (size_t k = 0; k < keys; ++k) {
    times.push_back(t);
    t += (random() % 4 == 0 ? 1.5 : 1.0) / 30;  // uneven spacing, as real exports have
  }
  for (int j = 0; j < joints; ++j) {
    const double frequency = 0.5 + 2 * (unit(random) + 1);
    const double noise = std::pow(10.0, -5 + 2 * unit(random));
    const size_t hold_from = random() % keys;
    std::vector<double> rotation;
    std::vector<double> translation;
    std::vector<double> scale;
    for (size_t k = 0; k < keys; ++k) {
      // The motion holds still for a quarter of the clip: what a baked clip does between poses.
      const bool held = k >= hold_from && k < hold_from + keys / 4;
      const double p = frequency * times[held ? hold_from : k];
      const double jitter = held ? 0 : noise;
      const Quat q = AxisAngle(1, 0.3 * j, 0.2, 0.8 * std::sin(p) + jitter * unit(random));
      rotation.insert(rotation.end(), q.begin(), q.end());
      translation.insert(translation.end(),
                         {0.1 * std::sin(p) + jitter * unit(random), 0.3, 0.05 * p});
      scale.insert(scale.end(), {1 + 0.01 * std::sin(p) + jitter * unit(random), 1, 1});
    }
    Clip& clip = asset.clips[0];
    clip.channels.push_back(MakeChannel(j, Path::kRotation, times, rotation, 4));
    clip.channels.push_back(
        MakeChannel(j, Path::kTranslation, times, translation, 3,
                    random() % 5 == 0 ? Interpolation::kStep : Interpolation::kLinear));
    clip.channels.push_back(MakeChannel(j, Path::kScale, times, scale, 3));
  }
  std::vector<double> weights;
  for (size_t k = 0; k < keys; ++k) {
    const double w = 0.5 + 0.5 * std::sin(2 * times[k]);
    weights.insert(weights.end(), {w, 1 - w, std::round(w * 4) / 4});
  }
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kWeights, times, weights, 3));
  return asset;
}

TEST(ReduceTest, RandomClipsStayWithinToleranceOfTheOriginalEverywhere) {
  std::mt19937 random(6);
  size_t before = 0;
  size_t after = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Asset asset = RandomAsset(random, 1 + trial % 4, trial % 2 == 0);
    ReduceOptions options;
    // Tolerances from 100x tighter to 100x looser than the defaults.
    const double factor = std::pow(10.0, static_cast<double>(trial % 5) - 2);
    options.rotation_degrees *= factor;
    options.translation_metres *= factor;
    options.scale_ratio *= factor;
    options.weight *= factor;
    ReduceReport report;
    EXPECT_LE(CheckReduction(asset, options, &report), 1 + 1e-9) << "trial " << trial;
    before += report.keys_before();
    after += report.keys_after();
  }
  // The reducer must actually reduce: the clips are smooth at these tolerances.
  EXPECT_LT(after, before / 2);
}

TEST(ReduceTest, ExactlyLinearCurvesKeepTheirEndsOnly) {
  Asset asset = MakeAsset({"a"});
  std::vector<double> times;
  std::vector<double> translation;
  std::vector<double> rotation;
  for (int k = 0; k <= 100; ++k) {
    const double t = k / 30.0;
    times.push_back(t);
    translation.insert(translation.end(), {0.5 * t, -2 * t, 1});
    // Constant angular velocity about one axis: exactly what slerp between the ends gives.
    const Quat q = AxisAngle(0, 1, 0, 0.6 * t);  // 2 rad in all: under a half turn
    rotation.insert(rotation.end(), q.begin(), q.end());
  }
  asset.clips[0].channels = {MakeChannel(0, Path::kTranslation, times, translation, 3),
                             MakeChannel(0, Path::kRotation, times, rotation, 4)};
  const ReduceReport report = Reduce(asset, ReduceOptions());
  ASSERT_EQ(asset.clips[0].channels.size(), 2u);
  EXPECT_EQ(asset.clips[0].channels[0].times_seconds, (std::vector<double>{0, 100 / 30.0}));
  EXPECT_EQ(asset.clips[0].channels[1].key_count(), 2u);
  EXPECT_EQ(report.keys_before(), 202u);
  EXPECT_EQ(report.keys_after(), 4u);
}

TEST(ReduceTest, HalfTurnsAreNotCollapsed) {
  // 0 -> 120 -> 240 degrees about Z: slerp from the first to the last key takes the short way
  // (120 degrees backwards), so the middle key must stay.
  Asset asset = MakeAsset({"a"});
  std::vector<double> rotation;
  for (const double degrees : {0.0, 120.0, 240.0}) {
    const Quat q = AxisAngle(0, 0, 1, degrees * kPi / 180);
    rotation.insert(rotation.end(), q.begin(), q.end());
  }
  asset.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1, 2}, rotation, 4)};
  Reduce(asset, ReduceOptions());
  EXPECT_EQ(asset.clips[0].channels[0].key_count(), 3u);
}

// Sparse, large-angle keys: the reducer must check the slerp between original keys, not only at
// them. 60 degrees about Y per key with the middle two keys 1.9 degrees off the arc, tilted about
// different axes on different sides: dropping both is 1.9 degrees off at the keys, within the
// 1.95 degree tolerance, but 1.967 degrees off halfway between them (two slerps through nearby
// points part the most midway when the points lie 30 degrees apart in quaternion space). With
// the same tilt on both keys the curves would be Clifford parallels, 1.9 degrees apart throughout,
// which is why small tilts or dense clips cannot show the hole.
TEST(ReduceTest, SparseLargeAngleKeysAreCheckedBetweenKeys) {
  constexpr double kTilt = 1.9 * kPi / 180;
  const Quat k1 = Multiply(AxisAngle(1, 0, 0, kTilt), AxisAngle(0, 1, 0, kPi / 3));
  const Quat k2 = Multiply(AxisAngle(0, 1, 0, 2 * kPi / 3), AxisAngle(0, 0, 1, kTilt));
  std::vector<double> rotation;
  for (const Quat& q : {AxisAngle(0, 1, 0, 0), k1, k2, AxisAngle(0, 1, 0, kPi)}) {
    rotation.insert(rotation.end(), q.begin(), q.end());
  }
  Asset asset = MakeAsset({"a"});
  asset.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1, 2, 3}, rotation, 4)};
  ReduceOptions options;
  options.rotation_degrees = 1.95;
  ReduceReport report;
  // CheckReduction samples 8 points inside every original segment, denser than the reducer.
  EXPECT_LE(CheckReduction(asset, options, &report), 1 + 1e-9);
  // Something was dropped, so the check above measured a reduced curve.
  EXPECT_EQ(report.keys_after(), 3u);
}

TEST(ReduceTest, ConstantChannelsCollapseToOneKeyAndKeepTheClipDuration) {
  Asset asset = MakeAsset({"a"});
  // Within 0.05 mm of the first key: constant at the 0.1 mm default.
  asset.clips[0].channels = {
      MakeChannel(0, Path::kTranslation, {0, 1, 2}, {1, 2, 3, 1.00005, 2, 3, 1, 2, 2.99996}, 3)};
  const ReduceReport report = Reduce(asset, ReduceOptions());
  const Channel& channel = asset.clips[0].channels.at(0);
  EXPECT_EQ(channel.times_seconds, std::vector<double>{0});
  EXPECT_EQ(channel.values, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(asset.clips[0].duration(), 2);
  EXPECT_EQ(report.channels_collapsed, 1u);
  EXPECT_EQ(report.channels_removed, 0u);  // the rest pose is not known
}

TEST(ReduceTest, RestConstantChannelsAreRemovedOnlyWhenTheRestPoseIsKnown) {
  Asset asset = MakeAsset({"a"});
  asset.rig.nodes[0].rest_rotation = AxisAngle(1, 0, 0, 0.5);
  const Quat near_rest = Multiply(asset.rig.nodes[0].rest_rotation, AxisAngle(0, 1, 0, 0.0015));
  std::vector<double> values;
  for (const Quat& q : {asset.rig.nodes[0].rest_rotation, near_rest}) {
    values.insert(values.end(), q.begin(), q.end());
  }
  asset.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 3}, values, 4)};

  Asset unknown = asset;
  EXPECT_EQ(Reduce(unknown, ReduceOptions()).channels_collapsed, 1u);
  EXPECT_EQ(unknown.clips[0].channels.size(), 1u);

  asset.rig.rest_pose_known = true;
  Asset kept = asset;
  ReduceOptions keep;
  keep.drop_rest_constant = false;
  EXPECT_EQ(Reduce(kept, keep).channels_collapsed, 1u);
  EXPECT_EQ(kept.clips[0].channels.size(), 1u);

  // Beside a moving channel, the one at rest goes.
  Asset beside = asset;
  beside.rig.nodes.push_back(beside.rig.nodes[0]);
  beside.rig.nodes[1].name = "b";
  beside.clips[0].channels.push_back(
      MakeChannel(1, Path::kTranslation, {0, 1, 3}, {0, 0, 0, 0, 1, 0, 0, 0, 0}, 3));
  const ReduceReport beside_report = Reduce(beside, ReduceOptions());
  EXPECT_EQ(beside_report.channels_removed, 1u);
  EXPECT_EQ(beside_report.clips_kept_at_rest, 0u);
  ASSERT_EQ(beside.clips[0].channels.size(), 1u);
  EXPECT_EQ(beside.clips[0].channels[0].node, 1);
}

// A clip whose every channel equals the rest pose keeps one, at its first and last keys: with no
// channel the glTF writers wrote no animation at all (vrmaddon_nop.vrma under --reduce: exit 0,
// and three-vrm-animation found no clip in the file).
TEST(ReduceTest, AClipWhollyAtRestKeepsOneChannelAndItsLength) {
  Asset asset = MakeAsset({"a", "b"});
  asset.rig.rest_pose_known = true;
  const Quat rest = asset.rig.nodes[0].rest_rotation;
  std::vector<double> values;
  for (int k = 0; k < 3; ++k) values.insert(values.end(), rest.begin(), rest.end());
  asset.clips[0].channels = {MakeChannel(0, Path::kRotation, {0, 1.5, 3}, values, 4),
                             MakeChannel(1, Path::kRotation, {0, 1.5, 3}, values, 4)};
  const ReduceReport report = Reduce(asset, ReduceOptions());
  EXPECT_EQ(report.channels_removed, 1u);
  EXPECT_EQ(report.clips_kept_at_rest, 1u);
  ASSERT_EQ(asset.clips[0].channels.size(), 1u);
  const Channel& kept = asset.clips[0].channels[0];
  EXPECT_EQ(kept.node, 0);
  EXPECT_EQ(kept.times_seconds, (std::vector<double>{0, 3}));
  EXPECT_EQ(report.keys_after(), 2u);
  EXPECT_NE(DescribeReduction(report).find("1 clip(s) wholly at the rest pose kept"),
            std::string::npos);
}

TEST(ReduceTest, StepChannelsStayStepAndKeepEveryChange) {
  Asset asset = MakeAsset({"a"});
  asset.rig.nodes[0].morph_target_count = 1;
  asset.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1, 2, 3, 4, 5},
                                         {0, 0, 1, 1, 0.0005, 0.5}, 1, Interpolation::kStep)};
  Reduce(asset, ReduceOptions());
  const Channel& channel = asset.clips[0].channels.at(0);
  EXPECT_EQ(channel.interpolation, Interpolation::kStep);
  EXPECT_EQ(channel.times_seconds, (std::vector<double>{0, 2, 4, 5}));
  EXPECT_EQ(channel.values, (std::vector<double>{0, 1, 0.0005, 0.5}));
}

TEST(ReduceTest, CubicSplinesAreLeftAsTheyAre) {
  Asset asset = MakeAsset({"a"});
  asset.rig.nodes[0].morph_target_count = 1;
  const Channel cubic = MakeChannel(0, Path::kWeights, {0, 1, 2}, {0, 0, 0, 0, 0, 0, 0, 0, 0}, 1,
                                    Interpolation::kCubicSpline);
  asset.clips[0].channels = {cubic};
  const ReduceReport report = Reduce(asset, ReduceOptions());
  EXPECT_EQ(report.cubic_channels_kept, 1u);
  EXPECT_EQ(asset.clips[0].channels.at(0).values, cubic.values);
  EXPECT_EQ(asset.clips[0].channels.at(0).times_seconds, cubic.times_seconds);
}

TEST(ReduceTest, DescribesKeysPerPath) {
  Asset asset = MakeAsset({"a"});
  asset.clips[0].channels = {
      MakeChannel(0, Path::kTranslation, {0, 1, 2, 3}, {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, 3),
      MakeChannel(0, Path::kScale, {0, 1}, {1, 1, 1, 1, 1, 1}, 3)};
  EXPECT_EQ(DescribeReduction(Reduce(asset, ReduceOptions())),
            "keys 6 -> 3 (50.0 %): translation 4 -> 2, scale 2 -> 1; 1 channel(s) collapsed to "
            "one key, 0 removed (equal to the rest pose)");
}

// World positions of points `distance` along each joint's three axes, for a chain animated by
// rotation and translation channels (scale is not animated here).
std::vector<Vec3> VirtualPoints(const Asset& asset, const Clip& clip, double t, double distance) {
  std::vector<Vec3> points;
  Quat parent_rotation{0, 0, 0, 1};
  Vec3 parent_position{0, 0, 0};
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    const Node& node = asset.rig.nodes[n];
    Vec3 translation = node.rest_translation;
    Quat rotation = node.rest_rotation;
    for (const Channel& channel : clip.channels) {
      if (channel.node != static_cast<int>(n)) continue;
      if (channel.path == Path::kTranslation) EvaluateChannel(channel, t, translation.data());
      if (channel.path == Path::kRotation) {
        double q[4];
        EvaluateChannel(channel, t, q);
        rotation = Normalized(LoadQuat(q));
      }
    }
    const Vec3 offset = Rotate(parent_rotation, translation);
    const Vec3 position{parent_position[0] + offset[0], parent_position[1] + offset[1],
                        parent_position[2] + offset[2]};
    parent_rotation = Multiply(parent_rotation, rotation);
    parent_position = position;
    for (const Vec3& axis : {Vec3{distance, 0, 0}, Vec3{0, distance, 0}, Vec3{0, 0, distance}}) {
      const Vec3 arm = Rotate(parent_rotation, axis);
      points.push_back({position[0] + arm[0], position[1] + arm[1], position[2] + arm[2]});
    }
  }
  return points;
}

TEST(ReduceTest, HierarchicalModeBoundsPointsDownTheChain) {
  std::mt19937 random(61);
  for (int trial = 0; trial < 10; ++trial) {
    Asset asset = RandomAsset(random, 5, true);
    // Rotation and translation only: VirtualPoints does not apply scale.
    auto& channels = asset.clips[0].channels;
    channels.erase(std::remove_if(channels.begin(), channels.end(),
                                  [](const Channel& c) {
                                    return c.path == Path::kScale || c.path == Path::kWeights;
                                  }),
                   channels.end());
    ReduceOptions options;
    options.hierarchical_distance_metres = 0.1;
    Asset reduced = asset;
    Reduce(reduced, options);
    Asset local = asset;
    ReduceOptions local_options;
    Reduce(local, local_options);
    double worst = 0;
    double worst_local = 0;
    const double duration = asset.clips[0].duration();
    for (int s = 0; s <= 2000; ++s) {
      const double t = duration * s / 2000;
      const std::vector<Vec3> expected = VirtualPoints(asset, asset.clips[0], t, 0.1);
      const std::vector<Vec3> actual = VirtualPoints(reduced, reduced.clips[0], t, 0.1);
      const std::vector<Vec3> loose = VirtualPoints(local, local.clips[0], t, 0.1);
      for (size_t p = 0; p < expected.size(); ++p) {
        worst =
            std::max(worst, std::hypot(actual[p][0] - expected[p][0], actual[p][1] - expected[p][1],
                                       actual[p][2] - expected[p][2]));
        worst_local = std::max(
            worst_local, std::hypot(loose[p][0] - expected[p][0], loose[p][1] - expected[p][1],
                                    loose[p][2] - expected[p][2]));
      }
    }
    EXPECT_LE(worst, options.translation_metres) << "trial " << trial;
    // Without the hierarchical bound, 0.1 degree per joint over 5 joints moves the tips further.
    EXPECT_GT(worst_local, options.translation_metres) << "trial " << trial;
  }
}

std::vector<std::string> RealClips() {
  std::vector<std::string> paths = {testing::SourcePath("data/unity/walk.csv"),
                                    testing::SourcePath("data/gltf/walk.glb"),
                                    testing::SourcePath("data/gltf/morph_cube.gltf")};
  const std::string shared = ANIMCONV_SHARED_DATA_DIR;
  for (const char* file :
       {"skeletal/khronos_Fox.glb", "skeletal/khronos_BoxAnimated_embedded.gltf",
        "skeletal/bevy_animations_node_trs.gltf", "skeletal/threejs_SimpleSkinning.gltf",
        "skeletal/magnum-assimp_exported-animation.gltf", "morph/threejs_RobotExpressive.glb",
        "morph/khronos_MorphStressTest_embedded.gltf", "morph/threejs_Horse.glb"}) {
    if (std::filesystem::exists(shared + "/" + file)) paths.push_back(shared + "/" + file);
  }
  return paths;
}

TEST(ReduceTest, RealClipsStayWithinToleranceOfTheOriginal) {
  for (const std::string& path : RealClips()) {
    SCOPED_TRACE(path);
    const Asset asset = LoadAsset(path, ConvertOptions()).asset;
    for (const bool hierarchical : {false, true}) {
      ReduceOptions options;
      if (hierarchical) options.hierarchical_distance_metres = 0.1;
      ReduceReport report;
      const double worst = CheckReduction(asset, options, &report);
      EXPECT_LE(worst, 1 + 1e-9);
      EXPECT_LE(report.keys_after(), report.keys_before());
      std::cout << "[ reduce   ] " << std::filesystem::path(path).filename().string()
                << (hierarchical ? " hierarchical 0.1 m: " : ": ") << DescribeReduction(report)
                << "; worst error " << worst << " of the tolerance\n";
    }
  }
}

}  // namespace
}  // namespace animconv

namespace animconv {
namespace {

// ReduceOptions::model_space_rotations: three chained joints, each with a 0.08° bump at its
// middle key about the same axis. Each is within 0.1° on its own, so without the option every bump
// goes and the last joint's model-space rotation (the product of the three) is 0.24° off, what
// `diff` measured between rigs whose rest frames differ (the pirouette BVH to .vrma, 0.26°); with
// it each joint gets a third of the tolerance, and the product stays within 0.1°.
TEST(ReduceTest, ModelSpaceRotationsShareTheToleranceAlongAChain) {
  Asset asset = MakeAsset({"a", "b", "c"});
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[2].parent = 1;
  const Quat bump = AxisAngle(0, 0, 1, 0.08 * kPi / 180);
  std::vector<double> values = {0, 0, 0, 1};
  values.insert(values.end(), bump.begin(), bump.end());
  values.insert(values.end(), {0, 0, 0, 1});
  asset.clips[0].channels.clear();
  for (int node = 0; node < 3; ++node) {
    asset.clips[0].channels.push_back(MakeChannel(node, Path::kRotation, {0, 1, 2}, values, 4));
  }
  const auto model_space_at_middle = [](const Asset& reduced) {
    Quat product{0, 0, 0, 1};
    for (const Channel& channel : reduced.clips[0].channels) {
      double q[4];
      EvaluateChannel(channel, 1, q);
      product = Multiply(product, LoadQuat(q));
    }
    return product;
  };
  const Quat original = model_space_at_middle(asset);
  for (const bool model_space : {false, true}) {
    Asset reduced = asset;
    ReduceOptions options;
    options.drop_rest_constant = false;
    options.model_space_rotations = model_space;
    Reduce(reduced, options);
    const double degrees = AngleBetween(model_space_at_middle(reduced), original) * 180 / kPi;
    if (model_space) {
      EXPECT_LE(degrees, 0.1);
    } else {
      EXPECT_GT(degrees, 0.2);  // the case needs the bumps to go without the option
    }
  }
}

}  // namespace
}  // namespace animconv
