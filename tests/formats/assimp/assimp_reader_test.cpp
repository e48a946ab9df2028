// The Assimp reader (formats/assimp/assimp.h): what it corrects in Assimp's scene. FBX files come
// from ../shared/data when present; BVH is tests/formats/bvh.
#include <assimp/config.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "formats/assimp/assimp.h"
#include "formats/assimp/assimp_clips.h"
#include "formats/assimp/assimp_rig.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::FindChannel;
using testing::HasNote;
using testing::NodeNamed;

constexpr double kPi = 3.14159265358979323846;

std::string SharedData(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Asset Read(const std::string& bytes, const std::string& source) {
  ReadOptions options;
  options.source = source;
  return ReadAssimp(bytes, options);
}

void ExpectNear(const Quat& expected, const Quat& actual, const std::string& what) {
  EXPECT_LT(AngleBetween(Normalized(expected), Normalized(actual)), 1e-6) << what;
}

TEST(AssimpReaderTest, SniffsFbxAndColladaButNotBvh) {
  EXPECT_FALSE(SniffAssimp("\xEF\xBB\xBF  HIERARCHY\n"));  // the bvh reader's
  EXPECT_TRUE(SniffAssimp(std::string("Kaydara FBX Binary  \0\x1a\0", 23)));
  EXPECT_TRUE(SniffAssimp("; FBX 7.7.0 project file\n"));
  EXPECT_TRUE(SniffAssimp("<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"...\" version=\"1.4.1\">"));
  EXPECT_FALSE(SniffAssimp("{\"asset\":{\"version\":\"2.0\"}}"));
  EXPECT_FALSE(SniffAssimp("time,Hips.rotation.x\n"));
}

// BVH has its own reader (formats/bvh): through Assimp 5.2 it would lose positions of joints
// without 6 channels, every ROOT but the first, and the exact frame time.
TEST(AssimpReaderTest, BvhIsRefused) {
  for (const char* source : {"walk.bvh", "<stdin>"}) {
    try {
      Read("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n}\n", source);
      FAIL() << "no error";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_NE(error.message().find("BVH is read by the 'bvh' reader"), std::string::npos)
          << error.message();
    }
  }
}

TEST(AssimpReaderTest, ReferencedFilesGoThroughLoadResource) {
  // An OBJ naming a material library outside its folder: the request reaches load_resource
  // (which the pipeline confines to the input's folder), never the file system directly.
  std::vector<std::string> requested;
  ReadOptions options;
  options.source = "model.obj";
  options.load_resource = [&requested](const std::string& uri) -> std::string {
    requested.push_back(uri);
    throw Error(ErrorKind::kBadInput, "model.obj", "", "'" + uri + "' is outside the folder");
  };
  const Asset asset =
      ReadAssimp("mtllib ../../secret.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", options);
  ASSERT_FALSE(requested.empty());
  EXPECT_EQ(requested[0], "../../secret.mtl");
  EXPECT_TRUE(HasNote(asset, "not read: '../../secret.mtl' is outside the folder"));
}

TEST(AssimpReaderTest, ColladaMillisecondsAndUnits) {
  const std::string path = testing::SourcePath("data/dae/turn.dae");
  const Asset asset = Read(ReadBytes(path), path);
  ASSERT_EQ(asset.clips.size(), 1u);
  const int arm = NodeNamed(asset, "arm");
  ASSERT_GE(arm, 0);
  const Channel* rotation = FindChannel(asset.clips[0], arm, Path::kRotation);
  ASSERT_NE(rotation, nullptr);
  ASSERT_EQ(rotation->key_count(), 3u);
  EXPECT_NEAR(rotation->times_seconds[1], 0.5, 1e-9);  // Assimp: 500 ticks at 1000 per second
  ExpectNear(AxisAngle('Z', 45), LoadQuat(rotation->key_value(1)), "arm at 0.5 s");
  // 150 cm above the origin through the root's 0.01 scale.
  EXPECT_NEAR(RestPose(asset.rig).WorldPosition(arm)[1], 1.5, 1e-6);
}

TEST(AssimpReaderTest, Fbx61IsRefusedWithAssimpsReason) {
  const std::string path = SharedData("fbx/bevy_cube_anim_fbx6100_binary.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  try {
    Read(ReadBytes(path), path);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("FBX-DOM unsupported, old format version"), std::string::npos)
        << error.message();
  }
}

TEST(AssimpReaderTest, FbxGenericTakeNamesBecomeTheFileStem) {
  const std::string single = SharedData("fbx/bevy_cube_anim_fbx7700_ascii.fbx");
  const std::string multi = SharedData("fbx/magnum-ufbx_animation-multi-clip.fbx");
  if (!std::filesystem::exists(single)) GTEST_SKIP() << single << " is absent";
  const Asset one = Read(ReadBytes(single), single);
  ASSERT_EQ(one.clips.size(), 1u);
  EXPECT_EQ(one.clips[0].name, "bevy_cube_anim_fbx7700_ascii");  // was "Take 001"
  const Asset three = Read(ReadBytes(multi), multi);
  ASSERT_EQ(three.clips.size(), 3u);
  EXPECT_EQ(three.clips[0].name, "MoveX");
  EXPECT_EQ(three.clips[2].name, "MoveY");
  // 'MoveY' holds one key at 0 for 6 frames at 24 fps.
  EXPECT_NEAR(three.clips[2].duration(), 6.0 / 24, 1e-9);
}

TEST(AssimpReaderTest, FbxTicksAreFramesAtTheFileRate) {
  const std::string path = SharedData("fbx/magnum-ufbx_animation-interpolation.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const Asset asset = Read(ReadBytes(path), path);  // 30 fps, keys on frames
  ASSERT_EQ(asset.clips.size(), 1u);
  for (const Channel& channel : asset.clips[0].channels) {
    for (const double seconds : channel.times_seconds) {
      EXPECT_NEAR(seconds * 30, std::round(seconds * 30), 1e-4) << seconds;
    }
  }
  EXPECT_NEAR(asset.clips[0].duration(), 2.0, 1e-6);
}

TEST(AssimpReaderTest, FbxUnitsBecomeMetres) {
  const std::string centimetres = SharedData("fbx/magnum-ufbx_animation-interpolation.fbx");
  const std::string metres = SharedData("fbx/magnum-ufbx_animation-space-y-up-m.fbx");
  if (!std::filesystem::exists(metres)) GTEST_SKIP() << metres << " is absent";
  const Asset cm = Read(ReadBytes(centimetres), centimetres);
  EXPECT_TRUE(HasNote(cm, "FBX unit 1 cm: lengths x0.01 to metres"));
  // pCube1 rests at x = -16 cm.
  EXPECT_NEAR(cm.rig.nodes[static_cast<size_t>(NodeNamed(cm, "pCube1"))].rest_translation[0], -0.16,
              1e-7);
  const Asset m = Read(ReadBytes(metres), metres);
  EXPECT_FALSE(HasNote(m, "to metres"));
}

// Take 'anim 2' runs 0.833-1.333 s of the file's time line (Box001 0 -> 15 units along the file's
// Y), 'spin' 1.5-2.0 s (0 -> 180 deg about Z): Assimp 5.2 makes the times relative to the take's
// start but keeps each rotation curve's first key (file time 0, now -0.83 s and -1.5 s). Each
// take is a 0.5 s clip that moves from its first instant (Blender's reading of LocalStart/Stop).
TEST(AssimpReaderTest, FbxTakesAreCutToTheirRange) {
  const std::string path = SharedData("fbx/assimp-nonbsd_multiple_animations_test.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const Asset asset = Read(ReadBytes(path), path);
  ASSERT_EQ(asset.clips.size(), 3u);
  EXPECT_FALSE(HasNote(asset, "shifted to start at 0"));
  const int box = NodeNamed(asset, "Box001");
  ASSERT_GE(box, 0);
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      EXPECT_GE(channel.times_seconds.front(), 0) << clip.name;
      EXPECT_LE(channel.times_seconds.back(), clip.duration() + 1e-9) << clip.name;
    }
  }
  EXPECT_NEAR(asset.clips[0].duration(), 20.0 / 30, 1e-6);  // 'anim 1' starts at 0
  const Clip& lift = asset.clips[1];
  EXPECT_EQ(lift.name, "anim 2");
  EXPECT_NEAR(lift.duration(), 0.5, 1e-6);
  const Channel* translation = FindChannel(lift, box, Path::kTranslation);
  ASSERT_NE(translation, nullptr);
  Vec3 at0, at_quarter, at_half;
  EvaluateChannel(*translation, 0, at0.data());
  EvaluateChannel(*translation, 0.25, at_quarter.data());
  EvaluateChannel(*translation, 0.5, at_half.data());
  const auto distance = [](const Vec3& a, const Vec3& b) {
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  };
  EXPECT_NEAR(distance(at0, at_half), 15, 1e-5);      // 15 units (metres here) in the 0.5 s take
  EXPECT_NEAR(distance(at0, at_quarter), 7.5, 1e-5);  // moving from its start, not after it
  const Clip& spin = asset.clips[2];
  EXPECT_EQ(spin.name, "spin");
  EXPECT_NEAR(spin.duration(), 0.5, 1e-6);
  const Channel* rotation = FindChannel(spin, box, Path::kRotation);
  ASSERT_NE(rotation, nullptr);
  Quat r0, r_quarter, r_half;
  EvaluateChannel(*rotation, 0, r0.data());
  EvaluateChannel(*rotation, 0.25, r_quarter.data());
  EvaluateChannel(*rotation, 0.5, r_half.data());
  EXPECT_NEAR(AngleBetween(r0, r_half) * 180 / kPi, 180, 1e-3);
  EXPECT_NEAR(AngleBetween(r0, r_quarter) * 180 / kPi, 90, 0.1);
}

// Other formats have no take range: a COLLADA animation whose keys start before 0 keeps every
// key, shifted to start at 0 (turn.dae with its times 0.75 s earlier).
TEST(AssimpReaderTest, ColladaKeysBeforeZeroAreShiftedNotCut) {
  std::string dae = ReadBytes(testing::SourcePath("data/dae/turn.dae"));
  const std::string times = ">0 0.5 1</float_array>";
  ASSERT_NE(dae.find(times), std::string::npos);
  dae.replace(dae.find(times), times.size(), ">-0.75 -0.25 0.25</float_array>");
  const Asset asset = Read(dae, "turn_early.dae");
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_TRUE(HasNote(asset, "starts at -0.75 s: shifted to start at 0"));
  const Channel* rotation = FindChannel(asset.clips[0], NodeNamed(asset, "arm"), Path::kRotation);
  ASSERT_NE(rotation, nullptr);
  ASSERT_EQ(rotation->key_count(), 3u);
  EXPECT_NEAR(rotation->times_seconds[0], 0, 1e-9);
  EXPECT_NEAR(rotation->times_seconds[2], 1, 1e-9);
  ExpectNear(AxisAngle('Z', 0), LoadQuat(rotation->key_value(0)), "arm at 0 s");
  ExpectNear(AxisAngle('Z', 90), LoadQuat(rotation->key_value(2)), "arm at 1 s");
}

TEST(AssimpReaderTest, LostFbxBlendShapeAnimationIsSaid) {
  const std::string path = SharedData("fbx/threejs_morph_test.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const Asset asset = Read(ReadBytes(path), path);
  EXPECT_TRUE(HasNote(asset, "Assimp 5.2 reads no blend-shape animation from FBX"));
  EXPECT_TRUE(asset.clips.empty());
}

// magnum-ufbx_skinning.fbx has pre-rotations. Each bone's rest and animated local transform
// must be what Assimp computes when it collapses pivots itself (the reader asks it to: with
// pivots preserved, Assimp 5.2 applies a pre-rotation twice).
TEST(AssimpReaderTest, PreRotatedBonesMatchAssimpsCollapse) {
  const std::string path = SharedData("fbx/magnum-ufbx_skinning.fbx");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const Asset asset = Read(ReadBytes(path), path);
  for (const Node& node : asset.rig.nodes) {
    EXPECT_EQ(node.name.find("$AssimpFbx$"), std::string::npos) << node.name;
  }
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  const aiScene* collapsed = importer.ReadFile(path, 0);
  ASSERT_NE(collapsed, nullptr);
  const double cm = 0.01;  // the file's unit; Assimp leaves it
  for (const char* name : {"joint1", "joint2", "joint3"}) {
    const aiNode* reference = collapsed->mRootNode->FindNode(name);
    ASSERT_NE(reference, nullptr) << name;
    Vec3 t, s;
    Quat r;
    DecomposeMatrix(ToGlm(reference->mTransformation), &t, &r, &s);
    const Node& node = asset.rig.nodes[static_cast<size_t>(NodeNamed(asset, name))];
    ExpectNear(r, node.rest_rotation, std::string(name) + " rest rotation");
    for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(t[i] * cm, node.rest_translation[i], 1e-6) << name;
  }
  ASSERT_EQ(collapsed->mNumAnimations, 1u);
  const aiAnimation& animation = *collapsed->mAnimations[0];
  for (unsigned c = 0; c < animation.mNumChannels; ++c) {
    const aiNodeAnim& channel = *animation.mChannels[c];
    const int node = NodeNamed(asset, channel.mNodeName.C_Str());
    ASSERT_GE(node, 0) << channel.mNodeName.C_Str();
    for (unsigned k = 0; k < channel.mNumRotationKeys; ++k) {
      const aiQuatKey& key = channel.mRotationKeys[k];
      const double seconds = key.mTime / animation.mTicksPerSecond;
      Quat ours = asset.rig.nodes[static_cast<size_t>(node)].rest_rotation;
      if (const Channel* rotation = FindChannel(asset.clips[0], node, Path::kRotation)) {
        EvaluateChannel(*rotation, seconds, ours.data());
      }
      ExpectNear({key.mValue.x, key.mValue.y, key.mValue.z, key.mValue.w}, ours,
                 std::string(channel.mNodeName.C_Str()) + " at " + std::to_string(seconds));
    }
  }
}

// The helper chains Assimp still makes fold into their bone: a Translation and a PreRotation
// helper above the bone, and an animated Rotation helper, give one node whose rest is the
// chain's product and whose rotation keys are the chain's product at each key.
TEST(AssimpReaderTest, HelperChainsFoldIntoTheirBone) {
  auto node = [](const char* name, aiNode* parent, const aiMatrix4x4& transform) {
    aiNode* made = new aiNode(name);
    made->mTransformation = transform;
    if (parent) parent->addChildren(1, &made);
    return made;
  };
  aiScene scene;
  aiMatrix4x4 translation, pre_rotation;
  aiMatrix4x4::Translation(aiVector3D(1, 0, 0), translation);
  aiMatrix4x4::RotationZ(static_cast<float>(kPi / 2), pre_rotation);
  scene.mRootNode = node("RootNode", nullptr, aiMatrix4x4());
  aiNode* t = node("bone_$AssimpFbx$_Translation", scene.mRootNode, translation);
  aiNode* p = node("bone_$AssimpFbx$_PreRotation", t, pre_rotation);
  aiNode* r = node("bone_$AssimpFbx$_Rotation", p, aiMatrix4x4());
  node("bone", r, aiMatrix4x4());
  auto* channel = new aiNodeAnim;
  channel->mNodeName = "bone_$AssimpFbx$_Rotation";
  channel->mNumRotationKeys = 2;
  channel->mRotationKeys = new aiQuatKey[2];
  channel->mRotationKeys[0] = aiQuatKey(0, aiQuaternion());
  channel->mRotationKeys[1] =
      aiQuatKey(10, aiQuaternion(aiVector3D(1, 0, 0), static_cast<float>(kPi / 2)));
  auto* animation = new aiAnimation;
  animation->mTicksPerSecond = 10;
  animation->mDuration = 10;
  animation->mNumChannels = 1;
  animation->mChannels = new aiNodeAnim* [1] { channel };
  scene.mNumAnimations = 1;
  scene.mAnimations = new aiAnimation* [1] { animation };

  const AssimpRig rig = BuildAssimpRig(scene, StructureLimits{}, "test");
  EXPECT_TRUE(rig.dropped_root);
  EXPECT_EQ(rig.folded_helpers, 3);
  ASSERT_EQ(rig.rig.nodes.size(), 1u);
  EXPECT_EQ(rig.rig.nodes[0].name, "bone");
  EXPECT_NEAR(rig.rig.nodes[0].rest_translation[0], 1, 1e-6);
  ExpectNear(AxisAngle('Z', 90), rig.rig.nodes[0].rest_rotation, "rest");
  std::vector<std::string> notes;
  const std::vector<Clip> clips = ConvertAssimpAnimations(scene, rig, {}, &notes);
  ASSERT_EQ(clips.size(), 1u);
  ASSERT_EQ(clips[0].channels.size(), 1u);  // the translation stays at rest: no channel
  const Channel& rotation = clips[0].channels[0];
  EXPECT_EQ(rotation.path, Path::kRotation);
  ASSERT_EQ(rotation.key_count(), 2u);
  EXPECT_NEAR(rotation.times_seconds[1], 1.0, 1e-12);
  ExpectNear(Multiply(AxisAngle('Z', 90), AxisAngle('X', 90)), LoadQuat(rotation.key_value(1)),
             "composed");
}

}  // namespace
}  // namespace animconv
