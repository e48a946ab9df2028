// VRM Animation output (formats/gltf/vrma_writer.cpp through the pipeline) and reading it back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "formats/gltf/gltf.h"
#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::TempDir;

json GlbJson(const std::string& glb) {
  uint32_t length = 0;
  std::memcpy(&length, glb.data() + 12, 4);
  return json::parse(glb.substr(20, length));
}

Asset ReadBack(const std::string& path) {
  ReadOptions options;
  options.source = path;
  return ReadGltf(testing::ReadText(path), options);
}

// The CSV rows as numbers, straight from the text (independent of the unity-csv reader).
std::vector<std::vector<double>> CsvRows(const std::string& path) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(testing::ReadText(path));
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<double> row;
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) {
      if (!field.empty() && field != "\r") row.push_back(std::stod(field));
    }
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

TEST(VrmaWriterTest, UnityCsvBecomesAValidVrmaWithNormalisedRotations) {
  TempDir dir;
  const std::string output = dir.File("anim.vrma");
  const std::string csv = testing::SourcePath("data/unity/anim.csv");
  ConvertFile(csv, output, ConvertOptions{});
  const std::string glb = testing::ReadText(output);
  const json document = GlbJson(glb);
  EXPECT_NE(std::find(document["extensionsUsed"].begin(), document["extensionsUsed"].end(),
                      "VRMC_vrm_animation"),
            document["extensionsUsed"].end());
  const json& extension = document["extensions"]["VRMC_vrm_animation"];
  EXPECT_EQ(extension["specVersion"], "1.0");
  const json& bones = extension["humanoid"]["humanBones"];
  EXPECT_EQ(bones.size(), 53u);  // all 55 but the eyes (VRMC_vrm_animation 1.0 schema)
  EXPECT_FALSE(bones.contains("leftEye"));
  EXPECT_TRUE(bones.contains("leftThumbMetacarpal"));
  // Rest = T-pose facing +Z: hips up, no rotations on any node.
  const json& hips = document["nodes"][bones["hips"]["node"].get<size_t>()];
  EXPECT_GT(hips["translation"][1].get<double>(), 0.5);
  for (const json& node : document["nodes"]) EXPECT_FALSE(node.contains("rotation"));
  ASSERT_EQ(document["animations"].size(), 1u);
  for (const json& channel : document["animations"][0]["channels"]) {
    EXPECT_EQ(channel["target"]["path"], "rotation");
  }

  const Asset asset = ReadBack(output);
  const std::vector<std::vector<double>> rows = CsvRows(csv);
  ASSERT_EQ(asset.clips.size(), 1u);
  size_t compared = 0;
  for (const Channel& channel : asset.clips[0].channels) {
    const HumanBone bone = *asset.rig.nodes[static_cast<size_t>(channel.node)].human_bone;
    ASSERT_EQ(channel.key_count(), rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      const double* unity = &rows[k][static_cast<size_t>(bone) * 4];
      // A VRM 0.x-style (normalised) recording; Unity -> VRM 1.0 is reverse-X (UniGLTF axis
      // inverters (ReverseZ / ReverseX)).
      const Quat expected = Normalized({unity[0], -unity[1], -unity[2], unity[3]});
      EXPECT_LT(AngleBetween(expected, LoadQuat(channel.key_value(k))), 1e-6)
          << GetHumanBoneInfo(bone).unity << " row " << k;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 53u * rows.size());
}

TEST(VrmaWriterTest, VrmaFromAnotherToolKeepsEveryBonesWorldMotion) {
  const std::string input = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/three-vrm_test.vrma";
  if (!std::filesystem::exists(input)) GTEST_SKIP() << input << " is absent";
  TempDir dir;
  // Its expression and lookAt tracks are carried over, so this is no partial output.
  ConvertFile(input, dir.File("again.vrma"), ConvertOptions{});
  const Asset source = ReadBack(input);  // rest rotations are not identity in this file
  const Asset output = ReadBack(dir.File("again.vrma"));
  size_t compared = 0;
  for (const double seconds : {0.0, 0.5, 1.0, 3.0}) {
    for (int b = 0; b < kHumanBoneCount; ++b) {
      const HumanBone bone = static_cast<HumanBone>(b);
      if (!testing::HasBone(source.rig, bone) || !testing::HasBone(output.rig, bone)) continue;
      const Quat expected = testing::WorldDelta(source.rig, source.clips[0], seconds, bone);
      const Quat actual = testing::WorldDelta(output.rig, output.clips[0], seconds, bone);
      EXPECT_LT(AngleBetween(expected, actual), 1e-5)
          << GetHumanBoneInfo(bone).unity << " at " << seconds << " s";
      ++compared;
    }
  }
  EXPECT_GT(compared, 100u);
}

TEST(VrmaWriterTest, ExpressionsAndLookAtAreReadAndWrittenBack) {
  const std::string input = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/three-vrm_test.vrma";
  if (!std::filesystem::exists(input)) GTEST_SKIP() << input << " is absent";
  const Asset source = ReadBack(input);
  const int happy = testing::NodeNamed(source, "happy");
  ASSERT_GE(happy, 0);
  ASSERT_TRUE(source.rig.nodes[static_cast<size_t>(happy)].vrma_role);
  EXPECT_EQ(source.rig.nodes[static_cast<size_t>(happy)].vrma_role->kind,
            VrmaRole::Kind::kPresetExpression);
  TempDir dir;
  ConvertFile(input, dir.File("again.vrma"), ConvertOptions{});
  const json document = GlbJson(testing::ReadText(dir.File("again.vrma")));
  const json& extension = document["extensions"]["VRMC_vrm_animation"];
  ASSERT_TRUE(extension.contains("expressions")) << extension.dump();
  const size_t node = extension["expressions"]["preset"]["happy"]["node"].get<size_t>();
  EXPECT_EQ(document["nodes"][node]["name"], "happy");
  const size_t look_at = extension["lookAt"]["node"].get<size_t>();
  EXPECT_EQ(document["nodes"][look_at]["name"], "lookAt");
  // The weight track is the source's, key for key.
  const Asset output = ReadBack(dir.File("again.vrma"));
  const Channel* before = testing::FindChannel(source.clips[0], happy, Path::kTranslation);
  const Channel* after =
      testing::FindChannel(output.clips[0], static_cast<int>(node), Path::kTranslation);
  ASSERT_NE(before, nullptr);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->times_seconds, before->times_seconds);
  ASSERT_EQ(after->values.size(), before->values.size());
  for (size_t i = 0; i < after->values.size(); ++i) {
    EXPECT_NEAR(after->values[i], before->values[i], 1e-7) << i;  // float32 in the file
  }
}

TEST(VrmaWriterTest, AVrmaConvertsToEveryOtherOutput) {
  const std::string input = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/three-vrm_test.vrma";
  if (!std::filesystem::exists(input)) GTEST_SKIP() << input << " is absent";
  TempDir dir;
  for (const char* name :
       {"x.json", "x.hierarchy.json", "x.csv", "x.unity.csv", "x.gltf", "x.glb", "x.vrma"}) {
    ConvertOptions options;
    if (std::string(name) == "x.unity.csv") options.write.row_interval_seconds = 0.5;
    // Humanoid outputs hold neither the expression nor lookAt: partial (docs/cli.md).
    options.allow_partial = std::string(name) == "x.unity.csv" || std::string(name) == "x.vrma";
    const ConvertReport report = ConvertFile(input, dir.File(name), options);
    EXPECT_GT(report.output_bytes, 0u) << name;
  }
  // The file's one animated humanoid bone is named in the text outputs (unity-csv: below).
  for (const char* name : {"x.json", "x.hierarchy.json", "x.csv", "x.gltf"}) {
    EXPECT_NE(testing::ReadText(dir.File(name)).find("rightUpperArm"), std::string::npos) << name;
  }
  // The unity-csv rows are the normalised pose (a 90° turn of the right upper arm at 0.5 s).
  std::istringstream rows(testing::ReadText(dir.File("x.unity.csv")));
  std::string row;
  std::getline(rows, row);
  std::getline(rows, row);  // 0.5 s
  std::vector<double> values;
  std::istringstream fields(row);
  std::string field;
  while (std::getline(fields, field, ',')) {
    if (!field.empty()) values.push_back(std::stod(field));
  }
  ASSERT_GE(values.size(), 60u);
  const Quat arm = {values[14 * 4], values[14 * 4 + 1], values[14 * 4 + 2], values[14 * 4 + 3]};
  EXPECT_NEAR(2 * std::acos(std::min(1.0, std::fabs(arm[3]))) * 180 / M_PI, 90, 0.01);
}

Asset HumanoidAsset() {
  Asset asset;
  std::vector<HumanBone> bones;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    if (GetHumanBoneInfo(static_cast<HumanBone>(b)).required_vrm1) {
      bones.push_back(static_cast<HumanBone>(b));
    }
  }
  asset.rig = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  asset.coordinates = {Handedness::kRight, Facing::kPlusZ};
  Clip clip;
  clip.name = "c";
  clip.channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  asset.clips.push_back(clip);
  return asset;
}

void ExpectUsageError(const Asset& asset, const std::string& words) {
  try {
    WriteVrma(asset, WriteOptions{});
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(error.message().find(words), std::string::npos) << error.message();
  }
}

TEST(VrmaWriterTest, RefusesWhatAVrmaCannotHold) {
  EXPECT_NO_THROW(WriteVrma(HumanoidAsset(), WriteOptions{}));
  Asset scaled = HumanoidAsset();
  scaled.clips[0].channels.push_back(testing::MakeChannel(1, Path::kScale, {0}, {1, 1, 1}, 3));
  ExpectUsageError(scaled, "scale");
  Asset two = HumanoidAsset();
  two.clips.push_back(two.clips[0]);
  ExpectUsageError(two, "--clip");
  Asset no_hips = HumanoidAsset();
  no_hips.rig.nodes[0].human_bone.reset();
  no_hips.clips[0].channels.clear();
  ExpectUsageError(no_hips, "hips");
}

TEST(VrmaWriterTest, SkeletonDoesNotApplyToVrma) {
  ConvertOptions options;
  options.skeleton = "model.vrm";
  try {
    PrepareAsset(HumanoidAsset(), *FindFormat("vrma"), options);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
  }
}

}  // namespace
}  // namespace animconv
