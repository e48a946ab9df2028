// Reading the humanoid mapping of VRM 0.x, VRM 1.0 and VRMA files (formats/gltf/vrm_humanoid.h).
#include "formats/gltf/vrm_humanoid.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::HasNote;

const Node* NodeOf(const Asset& asset, HumanBone bone) {
  for (const Node& node : asset.rig.nodes) {
    if (node.human_bone == bone) return &node;
  }
  return nullptr;
}

Asset Read(const GltfFixture& gltf) {
  ReadOptions options;
  options.source = "test.gltf";
  return ReadGltf(gltf.Text(), options);
}

GltfFixture Vrm1(json human_bones) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips", "Thumb1", "Thumb2", "Spine"});
  gltf.document()["extensionsUsed"] = {"VRMC_vrm"};
  gltf.document()["extensions"]["VRMC_vrm"] = {{"specVersion", "1.0"},
                                               {"humanoid", {{"humanBones", human_bones}}}};
  return gltf;
}

TEST(VrmHumanoidTest, Vrm1ObjectMapsNodesWithTheThumbShiftAndFacesPlusZ) {
  const Asset asset = Read(Vrm1({{"hips", {{"node", 0}}},
                                 {"leftThumbMetacarpal", {{"node", 1}}},
                                 {"leftThumbProximal", {{"node", 2}}}}));
  EXPECT_EQ(NodeOf(asset, HumanBone::kHips)->name, "Hips");
  // VRM 1.0 thumbMetacarpal is Unity ThumbProximal; 1.0 thumbProximal is ThumbIntermediate.
  EXPECT_EQ(NodeOf(asset, HumanBone::kLeftThumbProximal)->name, "Thumb1");
  EXPECT_EQ(NodeOf(asset, HumanBone::kLeftThumbIntermediate)->name, "Thumb2");
  EXPECT_EQ(asset.coordinates.facing, Facing::kPlusZ);
}

TEST(VrmHumanoidTest, Vrm1BetaThumbNamesKeepTheirOldMeaning) {
  const Asset asset = Read(Vrm1({{"hips", {{"node", 0}}},
                                 {"leftThumbProximal", {{"node", 1}}},
                                 {"leftThumbIntermediate", {{"node", 2}}}}));
  EXPECT_EQ(NodeOf(asset, HumanBone::kLeftThumbProximal)->name, "Thumb1");
  EXPECT_EQ(NodeOf(asset, HumanBone::kLeftThumbIntermediate)->name, "Thumb2");
}

TEST(VrmHumanoidTest, Vrm0ArrayKeepsTheFirstOfDuplicatesAndFacesMinusZ) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips", "Other", "Spine"});
  gltf.document()["extensionsUsed"] = {"VRM"};
  gltf.document()["extensions"]["VRM"]["humanoid"]["humanBones"] = {
      {{"bone", "hips"}, {"node", 0}},
      {{"bone", "hips"}, {"node", 1}},
      {{"bone", "spine"}, {"node", 2}},
      {{"bone", "tail"}, {"node", 1}}};
  const Asset asset = Read(gltf);
  EXPECT_EQ(NodeOf(asset, HumanBone::kHips)->name, "Hips");
  EXPECT_EQ(NodeOf(asset, HumanBone::kSpine)->name, "Spine");
  EXPECT_FALSE(asset.rig.nodes[1].human_bone);
  EXPECT_EQ(asset.coordinates.facing, Facing::kMinusZ);
  bool noted = false;
  for (const std::string& note : asset.notes) {
    noted |= note.find("tail") != std::string::npos && note.find("duplicate") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

// Issue 14: one node mapped to two bones was accepted silently (the second mapping dropped).
// The note names the first 64 ignored entries: a file with thousands made a note its own size.
TEST(VrmHumanoidTest, IgnoredEntriesNoteNamesTheFirst64) {
  json bones = {{"hips", {{"node", 0}}}};
  for (int i = 100; i < 200; ++i) bones["x" + std::to_string(i)] = {{"node", 3}};
  const Asset asset = Read(Vrm1(bones));
  EXPECT_EQ(NodeOf(asset, HumanBone::kHips)->name, "Hips");
  EXPECT_TRUE(HasNote(asset, "humanoid: ignored entries: x100, x101, "));
  EXPECT_TRUE(HasNote(asset, ", x163 and 36 more"));
  EXPECT_FALSE(HasNote(asset, "x164"));
}

TEST(VrmHumanoidTest, Vrm1NodeMappedTwiceIsALocatedError) {
  const GltfFixture gltf = Vrm1({{"hips", {{"node", 0}}}, {"spine", {{"node", 0}}}});
  try {
    Read(gltf);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/extensions/VRMC_vrm/humanoid/humanBones/spine/node");
    EXPECT_NE(error.message().find("node 0 is already humanoid bone 'hips'"), std::string::npos)
        << error.what();
  }
}

// A VRMA over the four nodes, with `extra` merged into its VRMC_vrm_animation object.
GltfFixture Vrma(const json& extra) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips", "happy", "aa", "lookAt"});
  gltf.document()["extensionsUsed"] = {"VRMC_vrm_animation"};
  json extension = {{"specVersion", "1.0"},
                    {"humanoid", {{"humanBones", {{"hips", {{"node", 0}}}}}}}};
  extension.update(extra);
  gltf.document()["extensions"]["VRMC_vrm_animation"] = extension;
  return gltf;
}

TEST(VrmHumanoidTest, VrmaExpressionAndLookAtNodesAreMarked) {
  const Asset asset = Read(
      Vrma({{"expressions",
             {{"preset", {{"happy", {{"node", 1}}}}}, {"custom", {{"mouth_a", {{"node", 2}}}}}}},
            {"lookAt", {{"node", 3}}}}));
  ASSERT_TRUE(asset.rig.nodes[1].vrma_role);
  EXPECT_EQ(asset.rig.nodes[1].vrma_role->kind, VrmaRole::Kind::kPresetExpression);
  ASSERT_TRUE(asset.rig.nodes[2].vrma_role);
  EXPECT_EQ(asset.rig.nodes[2].vrma_role->kind, VrmaRole::Kind::kCustomExpression);
  EXPECT_EQ(asset.rig.nodes[2].vrma_role->name, "mouth_a");
  ASSERT_TRUE(asset.rig.nodes[3].vrma_role);
  EXPECT_EQ(asset.rig.nodes[3].vrma_role->kind, VrmaRole::Kind::kLookAt);
  EXPECT_FALSE(asset.rig.nodes[0].vrma_role);
}

// three-vrm-animation maps no thumb name of a VRMA (three-vrm maps a model's, the test above):
// a beta `leftThumbProximal` plays on the 1.0 bone of that name, `*ThumbIntermediate` on none.
TEST(VrmHumanoidTest, VrmaBetaThumbNamesAreReadAsThreeVrmAnimationReadsThem) {
  GltfFixture gltf = Vrma(json::object());
  gltf.AddNodes({"Thumb1", "Thumb2"});
  gltf.document()["extensions"]["VRMC_vrm_animation"]["humanoid"]["humanBones"] = {
      {"hips", {{"node", 0}}},
      {"leftThumbProximal", {{"node", 4}}},
      {"leftThumbIntermediate", {{"node", 5}}}};
  const Asset asset = Read(gltf);
  // VRM 1.0 thumbProximal is Unity ThumbIntermediate.
  EXPECT_EQ(NodeOf(asset, HumanBone::kLeftThumbIntermediate)->name, "Thumb1");
  EXPECT_FALSE(asset.rig.nodes[5].human_bone);
  EXPECT_TRUE(HasNote(asset, "read with the 1.0 meanings and *ThumbIntermediate ignored"));
}

TEST(VrmHumanoidTest, VrmAndVrmaRigsAreMarkedForThreeVrmsHipsHeight) {
  EXPECT_TRUE(Read(Vrma(json::object())).rig.vrm_humanoid);
  EXPECT_TRUE(Read(Vrm1({{"hips", {{"node", 0}}}})).rig.vrm_humanoid);
  GltfFixture plain;
  plain.AddNodes({"Hips"});
  EXPECT_FALSE(Read(plain).rig.vrm_humanoid);
}

// three-vrm-animation 3.5 rebuilds a VRMA's humanoid rotation and expression tracks without their
// interpolation (STEP plays linearly) and clones the hips translation and lookAt tracks (STEP
// kept): a .vrma is read as it plays, so `diff` and conversions see that motion.
TEST(VrmHumanoidTest, VrmaStepTracksAreReadAsThreeVrmAnimationPlaysThem) {
  GltfFixture gltf =
      Vrma({{"expressions", {{"preset", {{"happy", {{"node", 1}}}}}}}, {"lookAt", {{"node", 3}}}});
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  const size_t rotations = gltf.AddFloats({0, 0, 0, 1, 0, 0.7071f, 0, 0.7071f}, "VEC4", 2);
  const size_t positions = gltf.AddFloats({0, 1, 0, 0, 0.5f, 0}, "VEC3", 2);
  gltf.AddChannel(0, 0, "rotation", times, rotations, "STEP");
  gltf.AddChannel(0, 0, "translation", times, positions, "STEP");
  gltf.AddChannel(0, 1, "translation", times, positions, "STEP");
  gltf.AddChannel(0, 3, "rotation", times, rotations, "STEP");
  const Asset asset = Read(gltf);
  ASSERT_EQ(asset.clips.size(), 1u);
  const std::vector<Channel>& channels = asset.clips[0].channels;
  ASSERT_EQ(channels.size(), 4u);
  EXPECT_EQ(channels[0].interpolation, Interpolation::kLinear);  // hips rotation
  EXPECT_EQ(channels[1].interpolation, Interpolation::kStep);    // hips translation: clone()
  EXPECT_EQ(channels[2].interpolation, Interpolation::kLinear);  // expression 'happy'
  EXPECT_EQ(channels[3].interpolation, Interpolation::kStep);    // lookAt: the track as loaded
  EXPECT_TRUE(HasNote(asset,
                      "1 STEP humanoid rotation and 1 STEP expression track(s) read as "
                      "linear"));
}

TEST(VrmHumanoidTest, VrmaNodeWithTwoRolesIsALocatedError) {
  for (const auto& [extra, pointer, message] :
       {std::tuple{
            json{{"expressions", {{"preset", {{"happy", {{"node", 1}}}, {"sad", {{"node", 1}}}}}}}},
            "/extensions/VRMC_vrm_animation/expressions/preset/sad/node",
            "node 1 is already the VRMA role 'happy'"},
        std::tuple{json{{"lookAt", {{"node", 0}}}}, "/extensions/VRMC_vrm_animation/lookAt/node",
                   "node 0 is already humanoid bone 'hips'"},
        std::tuple{json{{"expressions", {{"preset", {{"happy", {{"node", 9}}}}}}}},
                   "/extensions/VRMC_vrm_animation/expressions/preset/happy/node", "nodes"}}) {
    try {
      Read(Vrma(extra));
      ADD_FAILURE() << "expected an error for " << extra.dump();
    } catch (const Error& error) {
      EXPECT_EQ(error.location(), pointer) << error.what();
      EXPECT_NE(error.message().find(message), std::string::npos) << error.what();
    }
  }
}

TEST(VrmHumanoidTest, Vrm0NodeMappedTwiceIsALocatedError) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips", "Spine"});
  gltf.document()["extensionsUsed"] = {"VRM"};
  gltf.document()["extensions"]["VRM"]["humanoid"]["humanBones"] = {
      {{"bone", "hips"}, {"node", 0}}, {{"bone", "spine"}, {"node", 0}}};
  try {
    Read(gltf);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/extensions/VRM/humanoid/humanBones/1/node");
  }
}

TEST(VrmHumanoidTest, ExtensionMissingFromExtensionsUsedIsIgnoredLikeThreeVrm) {
  GltfFixture gltf = Vrm1({{"hips", {{"node", 0}}}});
  gltf.document().erase("extensionsUsed");
  EXPECT_EQ(NodeOf(Read(gltf), HumanBone::kHips), nullptr);
}

TEST(VrmHumanoidTest, BadNodeIndexNamesTheJsonPointer) {
  try {
    Read(Vrm1({{"hips", {{"node", 9}}}}));
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/extensions/VRMC_vrm/humanoid/humanBones/hips/node");
    EXPECT_NE(error.message().find("nodes"), std::string::npos);
  }
}

// The real files of ../shared/data/vrm (MANIFEST.md lists their bone counts).
class SharedVrmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(Path(""))) GTEST_SKIP() << Path("") << " is absent";
  }
  static std::string Path(const std::string& name) {
    return std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/" + name;
  }
  static Asset ReadShared(const std::string& name) {
    const std::string path = Path(name);
    ReadOptions options;
    options.source = path;
    return ReadGltf(testing::ReadText(path), options);
  }
  static size_t Humanoid(const Asset& asset) {
    size_t count = 0;
    for (const Node& node : asset.rig.nodes) count += node.human_bone ? 1 : 0;
    return count;
  }
};

TEST_F(SharedVrmTest, HumanBoneCountsMatchTheManifest) {
  const Asset sphere = ReadShared("three-vrm_sphere.vrm");
  EXPECT_EQ(Humanoid(sphere), 22u);
  EXPECT_EQ(sphere.coordinates.facing, Facing::kMinusZ);
  EXPECT_EQ(Humanoid(ReadShared("vrmaddon_minimal_vrm0.vrm")), 17u);
  const Asset robot = ReadShared("vrmaddon_debug_robot.vrm");
  EXPECT_EQ(Humanoid(robot), 53u);
  EXPECT_EQ(robot.coordinates.facing, Facing::kPlusZ);
  EXPECT_EQ(Humanoid(ReadShared("three-vrm_test.vrma")), 51u);
  EXPECT_EQ(Humanoid(ReadShared("vrmaddon_nop.vrma")), 53u);
}

}  // namespace
}  // namespace animconv
