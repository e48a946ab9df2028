// The humanoid conversion steps (pipeline/retarget_job.h) on real VRM models: a Unity recording of
// raw rotations on a model with non-identity rest rotations comes out normalised.
#include "pipeline/retarget_job.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "formats/csv/unity_csv.h"
#include "formats/gltf/gltf.h"
#include "pose_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

const std::string kRobot = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/vrmaddon_debug_robot.vrm";
const std::string kSphere = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/three-vrm_sphere.vrm";

Asset ReadModel(const std::string& path) {
  ReadOptions options;
  options.source = path;
  return ReadGltf(testing::ReadText(path), options);
}

// Reverse-X, its own inverse: glTF (VRM 1.0) <-> Unity (UniGLTF axis inverters (ReverseZ /
// ReverseX)).
Quat ReverseX(const Quat& q) { return {q[0], -q[1], -q[2], q[3]}; }
Quat ReverseZ(const Quat& q) { return {-q[0], -q[1], q[2], q[3]}; }

// What Unity's localRotation of each humanoid bone reads on `model` (imported by UniVRM with
// `to_unity`) when its normalised pose is `normalized`: raw A = P⁻¹·N·P·R in glTF space.
std::string UnityCsvRow(const Asset& model, const std::vector<Quat>& normalized,
                        Quat (*to_unity)(const Quat&)) {
  Clip rest_clip;
  const std::vector<Quat> rest_world = testing::PoseWorldRotations(model.rig, rest_clip, 0);
  std::string row;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    Quat unity = {0, 0, 0, 0};  // the exporter's "bone missing"
    for (size_t n = 0; n < model.rig.nodes.size(); ++n) {
      if (model.rig.nodes[n].human_bone != static_cast<HumanBone>(b)) continue;
      const int parent = model.rig.nodes[n].parent;
      const Quat p = parent < 0 ? Quat{0, 0, 0, 1} : rest_world[static_cast<size_t>(parent)];
      const Quat raw = Multiply(Multiply(Multiply(Conjugate(p), normalized[b]), p),
                                model.rig.nodes[n].rest_rotation);
      unity = to_unity(raw);
    }
    row += fmt::format("{:.9f},{:.9f},{:.9f},{:.9f},", unity[0], unity[1], unity[2], unity[3]);
  }
  return row + "\n";
}

std::vector<Quat> RandomPose(std::mt19937& random) {
  std::normal_distribution<double> normal;
  std::vector<Quat> pose;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    pose.push_back(Normalized({normal(random), normal(random), normal(random), normal(random)}));
  }
  return pose;
}

class RetargetJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kRobot)) GTEST_SKIP() << kRobot << " is absent";
  }
};

void ExpectVrmaHolds(const std::string& vrma, const std::vector<std::vector<Quat>>& poses,
                     const Asset& model) {
  ReadOptions options;
  options.source = vrma;
  const Asset out = ReadGltf(testing::ReadText(vrma), options);
  ASSERT_EQ(out.clips.size(), 1u);
  size_t compared = 0;
  for (const Channel& channel : out.clips[0].channels) {
    const Node& node = out.rig.nodes[static_cast<size_t>(channel.node)];
    // The random eyes became the lookAt (pipeline/lookat_from_eyes.h, tested there).
    if (node.vrma_role && node.vrma_role->kind == VrmaRole::Kind::kLookAt) continue;
    ASSERT_TRUE(node.human_bone) << node.name;
    const HumanBone bone = *node.human_bone;
    ASSERT_TRUE(testing::HasBone(model.rig, bone)) << GetHumanBoneInfo(bone).unity;
    for (size_t k = 0; k < poses.size(); ++k) {
      // The VRMA rig has identity rests: its local rotations are the normalised ones.
      EXPECT_LT(AngleBetween(poses[k][static_cast<size_t>(bone)], LoadQuat(channel.key_value(k))),
                1e-5)
          << GetHumanBoneInfo(bone).unity << " row " << k;
      ++compared;
    }
  }
  EXPECT_GE(compared, 15 * poses.size());  // at least the required bones, every row
}

// A VRMA's feet keep their toes though the input has none: --ground measures the lowest foot or
// toe joint on this rig, and without toes it put the ankles on the floor, so a model's toes played
// 5-9 cm under it in three-vrm (review of session 34). A Unity CSV's rig keeps the input's bones.
TEST_F(RetargetJobTest, AVrmaRigHasToesWhereTheInputHasFeetWithout) {
  const std::vector<HumanBone> bones = {
      HumanBone::kHips,          HumanBone::kSpine,         HumanBone::kHead,
      HumanBone::kLeftUpperArm,  HumanBone::kLeftLowerArm,  HumanBone::kLeftHand,
      HumanBone::kRightUpperArm, HumanBone::kRightLowerArm, HumanBone::kRightHand,
      HumanBone::kLeftUpperLeg,  HumanBone::kLeftLowerLeg,  HumanBone::kLeftFoot,
      HumanBone::kRightUpperLeg, HumanBone::kRightLowerLeg, HumanBone::kRightFoot};
  Asset input;
  input.rig = MakeHumanoidTPoseRig(bones, Facing::kPlusZ);
  input.coordinates = {Handedness::kRight, Facing::kPlusZ};
  Clip clip;
  clip.name = "walk";
  clip.channels.push_back(testing::MakeChannel(HumanBoneNode(input.rig, HumanBone::kHips),
                                               Path::kRotation, {0, 1},
                                               {0, 0, 0, 1, 0, 0.1, 0, 0.995}, 4));
  input.clips.push_back(clip);
  RetargetReport report;
  const Asset vrma =
      RetargetOntoNormalizedRig(input, NormalizedRig{}, Mirror::kNone, std::nullopt, {}, &report);
  EXPECT_GE(HumanBoneNode(vrma.rig, HumanBone::kLeftToes), 0);
  EXPECT_GE(HumanBoneNode(vrma.rig, HumanBone::kRightToes), 0);
  NormalizedRig unity;
  unity.vrma_roles = false;
  unity.required_vrm1_bones = false;
  const Asset rows =
      RetargetOntoNormalizedRig(input, unity, Mirror::kNone, std::nullopt, {}, &report);
  EXPECT_LT(HumanBoneNode(rows.rig, HumanBone::kLeftToes), 0);
}

TEST_F(RetargetJobTest, SourceRigVrm1RawRecordingBecomesNormalisedVrma) {
  const Asset robot = ReadModel(kRobot);  // VRM 1.0 with non-identity rest rotations
  std::mt19937 random(1);
  const std::vector<std::vector<Quat>> poses = {RandomPose(random), RandomPose(random)};
  testing::TempDir dir;
  testing::WriteText(dir.File("raw.csv"), UnityCsvRow(robot, poses[0], ReverseX) +
                                              UnityCsvRow(robot, poses[1], ReverseX));
  ConvertOptions options;
  options.source_rig = kRobot;  // mirror x chosen from the model's +Z facing
  ConvertFile(dir.File("raw.csv"), dir.File("out.vrma"), options);
  ExpectVrmaHolds(dir.File("out.vrma"), poses, robot);
}

TEST_F(RetargetJobTest, SourceRigVrm0UsesReverseZAndTurnsToPlusZ) {
  const Asset sphere = ReadModel(kSphere);  // VRM 0.x, faces -Z
  std::mt19937 random(2);
  // Normalised in the model's own (-Z) frame; the VRMA faces +Z: turned 180° about Y.
  const std::vector<Quat> pose_minus_z = RandomPose(random);
  std::vector<std::vector<Quat>> expected(1);
  for (const Quat& q : pose_minus_z) expected[0].push_back({-q[0], q[1], -q[2], q[3]});
  testing::TempDir dir;
  testing::WriteText(dir.File("raw.csv"), UnityCsvRow(sphere, pose_minus_z, ReverseZ));
  ConvertOptions options;
  options.source_rig = kSphere;
  ConvertFile(dir.File("raw.csv"), dir.File("out.vrma"), options);
  ExpectVrmaHolds(dir.File("out.vrma"), expected, sphere);
}

TEST_F(RetargetJobTest, SkeletonOutputPassesTheModelThrough) {
  testing::TempDir dir;
  ConvertOptions options;
  options.skeleton = kRobot;
  ConvertFile(testing::SourcePath("data/unity/anim.csv"), dir.File("robot.glb"), options);
  const Asset robot = ReadModel(kRobot);
  const Asset out = ReadModel(dir.File("robot.glb"));
  ASSERT_EQ(out.rig.nodes.size(), robot.rig.nodes.size());
  for (size_t n = 0; n < robot.rig.nodes.size(); ++n) {
    EXPECT_EQ(out.rig.nodes[n].name, robot.rig.nodes[n].name);
    EXPECT_EQ(out.rig.nodes[n].human_bone, robot.rig.nodes[n].human_bone);
  }
  ASSERT_EQ(out.clips.size(), 1u);
  EXPECT_GT(out.clips[0].channels.size(), 15u);
}

// Unity CSV values are the normalised local rotations of a VRM 0.x-style avatar: a clip that went
// through another rig comes back to them.
// Bones the intermediate rig lacks do not come back; `expected_bones` of them must.
void ExpectCsvRoundTrip(const std::string& via, const ConvertOptions& to_via,
                        size_t expected_bones) {
  testing::TempDir dir;
  const std::string csv = testing::SourcePath("data/unity/anim.csv");
  ConvertFile(csv, dir.File(via), to_via);
  ConvertFile(dir.File(via), dir.File("back.unity.csv"), ConvertOptions{});
  ReadOptions options;
  const Asset original = ReadUnityCsv(testing::ReadText(csv), options);
  const Asset back = ReadUnityCsv(testing::ReadText(dir.File("back.unity.csv")), options);
  size_t bones = 0;
  for (const Channel& channel : original.clips[0].channels) {
    const Channel* other = nullptr;
    for (const Channel& candidate : back.clips[0].channels) {
      if (candidate.node == channel.node) other = &candidate;
    }
    if (!other) continue;
    ++bones;
    const std::string bone = original.rig.nodes[static_cast<size_t>(channel.node)].name;
    ASSERT_EQ(other->key_count(), channel.key_count());
    for (size_t k = 0; k < channel.key_count(); ++k) {
      EXPECT_LT(AngleBetween(Normalized(LoadQuat(channel.key_value(k))),
                             Normalized(LoadQuat(other->key_value(k)))),
                1e-5)
          << bone << " row " << k << " via " << via;
    }
  }
  EXPECT_EQ(bones, expected_bones) << via;
}

TEST_F(RetargetJobTest, UnityCsvComesBackNormalisedFromVrmaAndFromModelsWithRestRotations) {
  ExpectCsvRoundTrip("anim.vrma", ConvertOptions{}, 53);  // all but the eyes
  ConvertOptions onto;
  onto.skeleton = kRobot;  // VRM 1.0 with non-identity rest rotations, 53 humanoid bones
  ExpectCsvRoundTrip("robot.vrm", onto, 53);
  onto.skeleton = kSphere;  // VRM 0.x, faces -Z, 22 bones
  ExpectCsvRoundTrip("sphere.vrm", onto, 22);
}

TEST_F(RetargetJobTest, NonHumanoidInputIsAUsageError) {
  Asset input;
  input.rig.nodes.resize(1);
  input.rig.nodes[0].name = "Cube";
  try {
    RetargetOntoModel(input, ReadModel(kRobot), kRobot, Mirror::kZ, std::nullopt, {}, nullptr);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(error.message().find("--bone-map"), std::string::npos) << error.message();
  }
}

}  // namespace
}  // namespace animconv
