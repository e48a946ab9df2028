#include "formats/bvh/bvh_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "animconv/error.h"
#include "animconv/euler.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

Quat AxisAngle(int axis, double degrees) {
  Quat q{0, 0, 0, std::cos(degrees * kPi / 360)};
  q[static_cast<size_t>(axis)] = std::sin(degrees * kPi / 360);
  return q;
}

std::vector<double> Flatten(const std::vector<Quat>& quats) {
  std::vector<double> values;
  for (const Quat& q : quats) values.insert(values.end(), q.begin(), q.end());
  return values;
}

// A BVH read the way three.js BVHLoader reads it (written here from its source, not from the
// writer): OFFSETs, channel lists, rotations multiplied in channel order, position channels
// added to the OFFSET (the writer's OFFSETs of such joints are 0, so Blender's reading agrees).
struct ParsedJoint {
  std::string name;
  int parent = -1;
  Vec3 offset{0, 0, 0};
  std::vector<std::string> channels;
  std::optional<Vec3> end_site;
};
struct ParsedBvh {
  std::vector<ParsedJoint> joints;
  size_t frames = 0;
  double frame_time = 0;
  std::vector<std::vector<double>> values;  // per frame

  int Find(const std::string& name) const {
    for (size_t j = 0; j < joints.size(); ++j) {
      if (joints[j].name == name) return static_cast<int>(j);
    }
    return -1;
  }
  // World rotation and position (BVH units) of every joint at a frame.
  void Pose(size_t frame, std::vector<Quat>* rotations, std::vector<Vec3>* positions) const {
    rotations->assign(joints.size(), {0, 0, 0, 1});
    positions->assign(joints.size(), {0, 0, 0});
    size_t v = 0;
    for (size_t j = 0; j < joints.size(); ++j) {
      const ParsedJoint& joint = joints[j];
      Vec3 local_position = joint.offset;
      Quat local{0, 0, 0, 1};
      for (const std::string& channel : joint.channels) {
        const double value = values[frame][v++];
        const int axis = channel[0] - 'X';
        if (channel.substr(1) == "position") {
          local_position[static_cast<size_t>(axis)] += value;
        } else {
          local = Multiply(local, AxisAngle(axis, value));
        }
      }
      if (joint.parent < 0) {
        (*rotations)[j] = local;
        (*positions)[j] = local_position;
      } else {
        const size_t p = static_cast<size_t>(joint.parent);
        (*rotations)[j] = Multiply((*rotations)[p], local);
        const Vec3 moved = Rotate((*rotations)[p], local_position);
        for (size_t c = 0; c < 3; ++c) (*positions)[j][c] = (*positions)[p][c] + moved[c];
      }
    }
  }
};

ParsedBvh ParseBvh(const std::string& text) {
  ParsedBvh bvh;
  std::istringstream in(text);
  std::string token;
  std::vector<int> open;  // joint per '{'; -1 for an End Site
  bool end_site = false;
  while (in >> token && token != "MOTION") {
    if (token == "ROOT" || token == "JOINT") {
      ParsedJoint joint;
      in >> joint.name;
      joint.parent = open.empty() ? -1 : open.back();
      bvh.joints.push_back(joint);
    } else if (token == "End") {
      in >> token;  // Site
      end_site = true;
    } else if (token == "{") {
      open.push_back(end_site ? -1 : static_cast<int>(bvh.joints.size()) - 1);
      end_site = false;
    } else if (token == "}") {
      open.pop_back();
    } else if (token == "OFFSET") {
      Vec3 offset;
      in >> offset[0] >> offset[1] >> offset[2];
      if (open.back() < 0) {
        bvh.joints[static_cast<size_t>(open[open.size() - 2])].end_site = offset;
      } else {
        bvh.joints.back().offset = offset;
      }
    } else if (token == "CHANNELS") {
      size_t count = 0;
      in >> count;
      bvh.joints.back().channels.resize(count);
      for (std::string& channel : bvh.joints.back().channels) in >> channel;
    }
  }
  in >> token >> bvh.frames >> token >> token >> bvh.frame_time;
  size_t per_frame = 0;
  for (const ParsedJoint& joint : bvh.joints) per_frame += joint.channels.size();
  bvh.values.assign(bvh.frames, std::vector<double>(per_frame));
  for (std::vector<double>& frame : bvh.values) {
    for (double& value : frame) in >> value;
  }
  return bvh;
}

// hips (rest: 1 m up, turned -90° about X like a Mixamo armature, scale 1)
//   spine (rest: 0.2 m along the parent's Y, turned 30° about Z), rotation animated
//     head (rest: 0.3 m, turned -40° about Y), not animated
//       EndSite_head (0.1 m), a leaf
Asset RestRotatedRig() {
  Asset asset = MakeAsset({"hips", "spine", "head", "EndSite_head"});
  Rig& rig = asset.rig;
  rig.rest_pose_known = true;
  rig.nodes[0].rest_translation = {0, 1, 0};
  rig.nodes[0].rest_rotation = AxisAngle(0, -90);
  rig.nodes[1].parent = 0;
  rig.nodes[1].rest_translation = {0, 0.2, 0};
  rig.nodes[1].rest_rotation = AxisAngle(2, 30);
  rig.nodes[2].parent = 1;
  rig.nodes[2].rest_translation = {0, 0.3, 0};
  rig.nodes[2].rest_rotation = AxisAngle(1, -40);
  rig.nodes[3].parent = 2;
  rig.nodes[3].rest_translation = {0, 0.1, 0};
  const std::vector<double> times{0, 0.5, 1};
  auto& channels = asset.clips[0].channels;
  channels.push_back(
      MakeChannel(0, Path::kRotation, times,
                  Flatten({AxisAngle(0, -90), Multiply(AxisAngle(1, 50), AxisAngle(0, -90)),
                           Multiply(AxisAngle(2, 20), AxisAngle(0, -80))}),
                  4));
  channels.push_back(
      MakeChannel(0, Path::kTranslation, times, {0, 1, 0, 0.1, 1.05, 0.2, 0.3, 0.95, -0.1}, 3));
  channels.push_back(
      MakeChannel(1, Path::kRotation, times,
                  Flatten({AxisAngle(2, 30), Multiply(AxisAngle(0, 45), AxisAngle(2, 30)),
                           Multiply(AxisAngle(1, 170), AxisAngle(2, 10))}),
                  4));
  return asset;
}

// Source world rotation and position (metres) of every node at `seconds`.
void SourcePose(const Asset& asset, double seconds, std::vector<Quat>* rotations,
                std::vector<Vec3>* positions) {
  const Rig& rig = asset.rig;
  rotations->assign(rig.nodes.size(), {0, 0, 0, 1});
  positions->assign(rig.nodes.size(), {0, 0, 0});
  for (size_t n = 0; n < rig.nodes.size(); ++n) {  // parents come first in these rigs
    Quat rotation = rig.nodes[n].rest_rotation;
    Vec3 translation = rig.nodes[n].rest_translation;
    for (const Channel& channel : asset.clips[0].channels) {
      if (static_cast<size_t>(channel.node) != n) continue;
      if (channel.path == Path::kRotation) EvaluateChannel(channel, seconds, rotation.data());
      if (channel.path == Path::kTranslation) EvaluateChannel(channel, seconds, translation.data());
    }
    const int parent = rig.nodes[n].parent;
    if (parent < 0) {
      (*rotations)[n] = rotation;
      (*positions)[n] = translation;
    } else {
      const size_t p = static_cast<size_t>(parent);
      (*rotations)[n] = Multiply((*rotations)[p], rotation);
      const Vec3 moved = Rotate((*rotations)[p], translation);
      for (size_t c = 0; c < 3; ++c) (*positions)[n][c] = (*positions)[p][c] + moved[c];
    }
  }
}

void ExpectSameWorldPose(const Asset& asset, const std::string& text) {
  const ParsedBvh bvh = ParseBvh(text);
  std::vector<Quat> rest_rotations, source_rotations, bvh_rotations;
  std::vector<Vec3> rest_positions, source_positions, bvh_positions;
  Asset rest = asset;
  rest.clips[0].channels.clear();
  SourcePose(rest, 0, &rest_rotations, &rest_positions);
  ASSERT_GT(bvh.frames, 0u);
  for (size_t f = 0; f < bvh.frames; ++f) {
    const double seconds = static_cast<double>(f) * bvh.frame_time;
    SourcePose(asset, seconds, &source_rotations, &source_positions);
    bvh.Pose(f, &bvh_rotations, &bvh_positions);
    for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
      const int j = bvh.Find(asset.rig.nodes[n].name);
      if (j < 0) continue;
      const Quat expected = Multiply(source_rotations[n], Conjugate(rest_rotations[n]));
      EXPECT_LT(AngleBetween(bvh_rotations[static_cast<size_t>(j)], expected) * 180 / kPi, 1e-4)
          << asset.rig.nodes[n].name << " frame " << f;
      for (size_t c = 0; c < 3; ++c) {
        EXPECT_NEAR(bvh_positions[static_cast<size_t>(j)][c] / 100, source_positions[n][c], 1e-6)
            << asset.rig.nodes[n].name << " frame " << f;
      }
    }
  }
}

TEST(BvhWriterTest, WritesHierarchyWithTabsOffsetsInCentimetresAndEndSites) {
  Asset asset = MakeAsset({"Hips", "Spine", "EndSite_Spine"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].rest_translation = {0, 1, 0};
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0, 0.25, 0.5};
  asset.rig.nodes[2].parent = 1;
  asset.rig.nodes[2].rest_translation = {0, 0.125, 0};
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 0.5}, Flatten({{0, 0, 0, 1}, AxisAngle(0, 90)}), 4));
  const std::string text = WriteBvh(asset, {});
  EXPECT_EQ(text.substr(0, text.find("MOTION")),
            "HIERARCHY\n"
            "ROOT Hips\n"
            "{\n"
            "\tOFFSET 0 0 0\n"
            "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
            "\tJOINT Spine\n"
            "\t{\n"
            "\t\tOFFSET 0 25 50\n"
            "\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
            "\t\tEnd Site\n"
            "\t\t{\n"
            "\t\t\tOFFSET 0 12.5 0\n"
            "\t\t}\n"
            "\t}\n"
            "}\n");
  // The ROOT's rest translation is in its position channels, its OFFSET 0: BVHLoader adds the
  // two, Blender's importer takes the channels alone, and both put the hips at 1 m.
  EXPECT_EQ(text.substr(text.find("MOTION")),
            "MOTION\nFrames: 2\nFrame Time: 0.5\n0 100 0 0 0 0 0 0 0\n0 100 0 0 0 0 0 90 0\n");
}

// A VRMA's expression and lookAt nodes are no joints (Format::holds_vrma_roles): the writer
// wrote them as "happy" with position channels carrying the weight, and "lookAt", beside the
// body. They are left out; the body is written as without them.
TEST(BvhWriterTest, AVrmasExpressionAndLookAtNodesAreNoJoints) {
  Asset asset = MakeAsset({"hips", "spine", "happy", "lookAt"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[0].rest_translation = {0, 1, 0};
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0, 0.1, 0};
  asset.rig.nodes[2].vrma_role = VrmaRole{VrmaRole::Kind::kPresetExpression, "happy", {}};
  asset.rig.nodes[3].vrma_role = VrmaRole{VrmaRole::Kind::kLookAt, "lookAt", {}};
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 0.5}, Flatten({{0, 0, 0, 1}, AxisAngle(0, 90)}), 4));
  asset.clips[0].channels.push_back(
      MakeChannel(2, Path::kTranslation, {0, 0.5}, {0, 0, 0, 1, 0, 0}, 3));
  asset.clips[0].channels.push_back(
      MakeChannel(3, Path::kRotation, {0, 0.5}, Flatten({{0, 0, 0, 1}, AxisAngle(1, 30)}), 4));
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, {}));
  ASSERT_EQ(bvh.joints.size(), 2u);
  EXPECT_EQ(bvh.joints[0].name, "hips");
  EXPECT_EQ(bvh.joints[1].name, "spine");
  EXPECT_EQ(bvh.Find("happy"), -1);
  EXPECT_EQ(bvh.Find("lookAt"), -1);
  ASSERT_EQ(bvh.frames, 2u);
  EXPECT_EQ(bvh.values[1].size(), 9u);  // hips 6 + spine 3
}

TEST(BvhWriterTest, ALeafWithoutEndSiteNodeContinuesItsBone) {
  Asset asset = MakeAsset({"Hips", "Hand"});
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].rest_translation = {0.3, 0, 0};
  asset.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, {}));
  ASSERT_EQ(bvh.joints.size(), 2u);
  ASSERT_TRUE(bvh.joints[1].end_site);
  EXPECT_EQ(*bvh.joints[1].end_site, (Vec3{30, 0, 0}));
}

TEST(BvhWriterTest, ReExpressesRestRotationsSoTheWorldPoseIsTheSources) {
  const Asset asset = RestRotatedRig();
  const std::string text = WriteBvh(asset, {});
  const ParsedBvh bvh = ParseBvh(text);
  ASSERT_EQ(bvh.joints.size(), 3u);  // EndSite_head became head's End Site
  ASSERT_TRUE(bvh.joints[2].end_site);
  // OFFSETs in the parent's rest world frame: spine's 0.2 m along hips' Y, which the -90° X turn
  // points at -Z.
  EXPECT_NEAR(bvh.joints[1].offset[1], 0, 1e-5);
  EXPECT_NEAR(bvh.joints[1].offset[2], -20, 1e-5);
  ExpectSameWorldPose(asset, text);
  // Every BVH rest rotation is identity: an unanimated joint writes zeros.
  for (size_t f = 0; f < bvh.frames; ++f) {
    for (size_t v = bvh.values[f].size() - 3; v < bvh.values[f].size(); ++v) {
      EXPECT_EQ(bvh.values[f][v], 0);
    }
  }
}

TEST(BvhWriterTest, AnimatedTranslationBelowTheRootGetsPositionChannelsAtOffsetZero) {
  // Position channels hold the whole translation (in the parent's rest frame: spine's 0.2 m
  // along hips' Y is -Z), the OFFSET is 0: where BVHLoader (OFFSET + channels) and Blender
  // (channels in place of the OFFSET) agree.
  Asset asset = RestRotatedRig();
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kTranslation, {0, 1}, {0, 0.2, 0, 0.05, 0.25, 0}, 3));
  const std::string text = WriteBvh(asset, {});
  EXPECT_NE(text.find("JOINT spine\n\t{\n\t\tOFFSET 0 0 0\n\t\tCHANNELS 6 Xposition"),
            std::string::npos)
      << text;
  const ParsedBvh bvh = ParseBvh(text);
  ASSERT_EQ(bvh.joints.size(), 3u);
  EXPECT_EQ(bvh.joints[0].offset, (Vec3{0, 0, 0}));  // the ROOT, too
  ASSERT_EQ(bvh.frames, 3u);                         // the rig's keys at 0, 0.5 and 1 s
  // Frame 0: hips' 6 values, then spine's position (0, 0, -20) cm.
  EXPECT_NEAR(bvh.values[0][6], 0, 1e-9);
  EXPECT_NEAR(bvh.values[0][7], 0, 1e-9);
  EXPECT_NEAR(bvh.values[0][8], -20, 1e-9);
  ExpectSameWorldPose(asset, text);
}

TEST(BvhWriterTest, AConstantTranslationBecomesTheOffset) {
  // glTF exporters key every bone's translation, mostly constant: no position channels then,
  // and the OFFSET is the keyed value (what plays), not the node's rest translation.
  Asset asset = RestRotatedRig();
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kTranslation, {0, 1}, {0, 0.25, 0, 0, 0.25, 0}, 3));
  const std::string text = WriteBvh(asset, {});
  EXPECT_NE(text.find("JOINT spine\n\t{\n\t\tOFFSET 0 0 -25\n\t\tCHANNELS 3 "), std::string::npos)
      << text;
  ExpectSameWorldPose(asset, text);
}

TEST(BvhWriterTest, WritesTheRequestedOrRecordedRotationOrder) {
  Asset asset = RestRotatedRig();
  asset.rig.nodes[1].euler_order = "YXZ";  // as a BVH reader records it
  std::string text = WriteBvh(asset, {});
  EXPECT_NE(text.find("CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"),
            std::string::npos);
  EXPECT_NE(text.find("CHANNELS 3 Yrotation Xrotation Zrotation"), std::string::npos);
  ExpectSameWorldPose(asset, text);
  for (const char* name : {"ZXY", "ZYX", "XYZ", "XZY", "YXZ", "YZX"}) {
    WriteOptions options;
    options.bvh_order = ParseEulerOrder(name);
    text = WriteBvh(asset, options);
    const std::string rotations =
        fmt::format("{}rotation {}rotation {}rotation\n", name[0], name[1], name[2]);
    EXPECT_NE(text.find("Zposition " + rotations), std::string::npos) << name;
    EXPECT_NE(text.find("CHANNELS 3 " + rotations), std::string::npos) << name;
    ExpectSameWorldPose(asset, text);
  }
}

TEST(BvhWriterTest, UnwrapsAnglesAcross180Degrees) {
  // A turn about Y from 0° to 350° in 10° steps: written as 0, 10, ..., 350, never jumping.
  Asset asset = MakeAsset({"Hips"});
  std::vector<Quat> keys;
  std::vector<double> times;
  for (int k = 0; k <= 35; ++k) {
    keys.push_back(AxisAngle(1, 10.0 * k));
    times.push_back(k / 30.0);
  }
  std::vector<double> values = Flatten(keys);
  // Hemisphere-aligned, as RenderAsset hands them over.
  for (size_t k = 1; k < keys.size(); ++k) {
    double dot = 0;
    for (size_t c = 0; c < 4; ++c) dot += values[4 * k + c] * values[4 * (k - 1) + c];
    if (dot < 0) {
      for (size_t c = 0; c < 4; ++c) values[4 * k + c] = -values[4 * k + c];
    }
  }
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, times, values, 4));
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, {}));
  ASSERT_EQ(bvh.frames, 36u);
  for (size_t f = 0; f < bvh.frames; ++f) {
    EXPECT_NEAR(bvh.values[f][5], 10.0 * static_cast<double>(f), 1e-4) << f;  // Yrotation
  }
}

TEST(BvhWriterTest, GimbalLockFramesStayExact) {
  // ZXY with X at ±90°: Z and Y are one degree of freedom there.
  Asset asset = MakeAsset({"Hips"});
  const EulerOrder zxy = *ParseEulerOrder("ZXY");
  std::vector<Quat> keys;
  for (const double x : {80.0, 90.0, -90.0, 90.0}) {
    keys.push_back(QuatFromEuler(zxy, {0.3, x * kPi / 180, -0.5}));
  }
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1, 2, 3}, Flatten(keys), 4));
  ExpectSameWorldPose(asset, WriteBvh(asset, {}));
}

TEST(BvhWriterTest, UsesTheKeysOwnGridExactly) {
  Asset asset = MakeAsset({"Hips"});
  asset.clips[0].channels.push_back(MakeChannel(
      0, Path::kRotation, {0, 1 / 24.0, 2 / 24.0, 3 / 24.0},
      Flatten({{0, 0, 0, 1}, AxisAngle(0, 10), AxisAngle(0, 30), AxisAngle(0, 35)}), 4));
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, options));
  EXPECT_EQ(bvh.frames, 4u);
  EXPECT_NEAR(bvh.frame_time, 1 / 24.0, 1e-9);
  EXPECT_TRUE(diagnostics.empty()) << diagnostics[0].text;
}

TEST(BvhWriterTest, KeysOffOneGridAreSampledAndTheErrorIsWarned) {
  Asset asset = MakeAsset({"Hips"});
  // Keys at 0, 0.05 and 0.123 s with a sharp corner at 0.05 (no grid up to 120 fps holds
  // them): the densest rate, 20 fps, is held to 30 fps, whose frames miss the corner.
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 0.05, 0.123},
                  Flatten({{0, 0, 0, 1}, AxisAngle(0, 40), {0, 0, 0, 1}}), 4));
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, options));
  EXPECT_NEAR(bvh.frame_time, 1 / 30.0, 1e-7);
  EXPECT_EQ(bvh.frames, 5u);  // 0 .. 0.1333 s covers 0.123 s
  bool warned = false;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::kWarning &&
        diagnostic.text.find("Hips.rotation") != std::string::npos &&
        diagnostic.text.find("--fps") != std::string::npos) {
      warned = true;
    }
  }
  EXPECT_TRUE(warned);
  // With --fps 1000 every key is a frame and nothing is off.
  diagnostics.clear();
  options.row_interval_seconds = 0.001;
  EXPECT_EQ(ParseBvh(WriteBvh(asset, options)).frames, 124u);
  for (const Diagnostic& diagnostic : diagnostics) {
    EXPECT_NE(diagnostic.severity, Severity::kWarning) << diagnostic.text;
  }
}

TEST(BvhWriterTest, StepChannelsPlayedAsRampsAreWarned) {
  Asset asset = MakeAsset({"Hips"});
  asset.clips[0].channels.push_back(MakeChannel(
      0, Path::kRotation, {0, 0.5, 1}, Flatten({{0, 0, 0, 1}, AxisAngle(0, 40), AxisAngle(0, 40)}),
      4, Interpolation::kStep));
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  WriteBvh(asset, options);
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics.back().text.find("Hips.rotation"), std::string::npos);
}

TEST(BvhWriterTest, DropsMorphWeightsAndMovingScaleWithWarningsNamingThem) {
  Asset asset = MakeAsset({"Hips", "Face"});
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[1].morph_target_count = 2;
  asset.rig.nodes[1].mesh = MeshInfo{"face", 0, 1};
  auto& channels = asset.clips[0].channels;
  channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, Flatten({{0, 0, 0, 1}, {0, 0, 0, 1}}), 4));
  channels.push_back(MakeChannel(1, Path::kWeights, {0, 1}, {0, 0, 1, 0.5}, 2));
  channels.push_back(MakeChannel(0, Path::kScale, {0, 1}, {1, 1, 1, 2, 2, 2}, 3));
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const std::string text = WriteBvh(asset, options);
  ASSERT_EQ(diagnostics.size(), 2u);
  EXPECT_NE(diagnostics[0].text.find("morph weight"), std::string::npos);
  EXPECT_NE(diagnostics[0].text.find("Face (2 target(s))"), std::string::npos);
  EXPECT_NE(diagnostics[1].text.find("scale"), std::string::npos);
  EXPECT_NE(diagnostics[1].text.find("Hips"), std::string::npos);
  EXPECT_EQ(text.find("Face"), std::string::npos);  // a mesh node nothing moves is no joint
}

TEST(BvhWriterTest, MakesNamesSafeAndUniqueAndSaysSo) {
  Asset asset = MakeAsset({"mixamorig:Hips", "Left Arm", "Left_Arm"});
  asset.rig.nodes[1].parent = 0;
  asset.rig.nodes[2].parent = 0;
  for (int n = 0; n < 3; ++n) {
    asset.clips[0].channels.push_back(MakeChannel(n, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  }
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, options));
  ASSERT_EQ(bvh.joints.size(), 3u);
  EXPECT_EQ(bvh.joints[0].name, "mixamorigHips");  // as GLTFLoader names it
  EXPECT_EQ(bvh.joints[1].name, "Left_Arm");
  EXPECT_EQ(bvh.joints[2].name, "Left_Arm_2");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("'Left Arm' -> Left_Arm"), std::string::npos);
}

// The suffix search resumes where the last one of a name ended (15,000 unnamed bones took 12 s),
// and still gives each joint the smallest suffix no other joint has taken: "Arm_3" is a name of
// its own here, so the third "Arm" becomes "Arm_4".
TEST(BvhWriterTest, UniqueNamesTakeTheSmallestFreeSuffix) {
  std::vector<std::string> names = {"Hips", "Arm", "Arm", "Arm_3", "Arm", "Arm"};
  for (int n = 0; n < 2000; ++n) names.push_back("");
  Asset asset = MakeAsset(names);
  for (size_t n = 1; n < names.size(); ++n) asset.rig.nodes[n].parent = 0;
  for (size_t n = 0; n < names.size(); ++n) {
    asset.clips[0].channels.push_back(
        MakeChannel(static_cast<int>(n), Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  }
  const ParsedBvh bvh = ParseBvh(WriteBvh(asset, {}));
  ASSERT_EQ(bvh.joints.size(), names.size());
  EXPECT_EQ(bvh.joints[1].name, "Arm");
  EXPECT_EQ(bvh.joints[2].name, "Arm_2");
  EXPECT_EQ(bvh.joints[3].name, "Arm_3");
  EXPECT_EQ(bvh.joints[4].name, "Arm_4");
  EXPECT_EQ(bvh.joints[5].name, "Arm_5");
  EXPECT_EQ(bvh.joints[6].name, "joint");  // an empty name (BvhSafeName)
  EXPECT_EQ(bvh.joints[7].name, "joint_2");
  EXPECT_EQ(bvh.joints.back().name, "joint_2000");
}

// Indentation stops growing at 64 levels: a chain of N joints is O(N) text, not O(N²) (200,000
// nested joints needed 20 GB of tabs), and it still reads back as the same chain.
TEST(BvhWriterTest, IndentationOfADeepChainIsCapped) {
  std::vector<std::string> names;
  for (int n = 0; n < 200; ++n) names.push_back("j" + std::to_string(n));
  Asset asset = MakeAsset(names);
  for (size_t n = 1; n < names.size(); ++n) {
    asset.rig.nodes[n].parent = static_cast<int>(n) - 1;
    asset.rig.nodes[n].rest_translation = {0, 0.1, 0};
  }
  asset.clips[0].channels.push_back(MakeChannel(199, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  const std::string text = WriteBvh(asset, {});
  size_t longest_indent = 0;
  for (size_t line = 0; line < text.size();) {
    const size_t end = text.find('\n', line);
    longest_indent = std::max(longest_indent, text.find_first_not_of('\t', line) - line);
    line = end == std::string::npos ? text.size() : end + 1;
  }
  EXPECT_EQ(longest_indent, 66u);  // 64 levels, then a joint's OFFSET and its End Site's
  const ParsedBvh bvh = ParseBvh(text);
  ASSERT_EQ(bvh.joints.size(), names.size());
  EXPECT_EQ(bvh.joints.back().parent, 198);
}

TEST(BvhWriterTest, SeveralRigRootsShareASyntheticRoot) {
  Asset asset = MakeAsset({"A", "B"});
  asset.rig.nodes[1].rest_translation = {1, 0, 0};
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1}, Flatten({{0, 0, 0, 1}, AxisAngle(1, 30)}), 4));
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 1}, Flatten({{0, 0, 0, 1}, AxisAngle(0, 30)}), 4));
  const std::string text = WriteBvh(asset, {});
  const ParsedBvh bvh = ParseBvh(text);
  ASSERT_EQ(bvh.joints.size(), 3u);
  EXPECT_EQ(bvh.joints[0].name, "Root");
  EXPECT_EQ(bvh.joints[1].parent, 0);
  EXPECT_EQ(bvh.joints[2].parent, 0);
  ExpectSameWorldPose(asset, text);
}

TEST(BvhWriterTest, OneClipOnly) {
  Asset asset = RestRotatedRig();
  asset.clips.push_back(asset.clips[0]);
  EXPECT_EQ(testing::ErrorKindOf([&] { WriteBvh(asset, {}); }), ErrorKind::kUsage);
}

}  // namespace
}  // namespace animconv
