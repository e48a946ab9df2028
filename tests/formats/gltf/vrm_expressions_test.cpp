// Reading a VRM model's expressions (formats/gltf/vrm_expressions.h) as three-vrm 3.5's
// VRMExpressionLoaderPlugin reads them.
#include "formats/gltf/vrm_expressions.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::Has;
using testing::HasNote;
using testing::ReadText;

Asset Read(const GltfFixture& gltf) {
  ReadOptions options;
  options.source = "test.gltf";
  return ReadGltf(gltf.Text(), options);
}

// Nodes Hips, Face (mesh 0, 3 morph targets), Body (mesh 1, 2 targets), Face2 (mesh 0 again).
GltfFixture WithMeshes() {
  GltfFixture gltf;
  gltf.AddNodes({"Hips", "Face", "Body", "Face2"});
  json& document = gltf.document();
  const auto primitive = [](int targets) {
    return json{{"attributes", json::object()}, {"targets", json(targets, json::object())}};
  };
  document["meshes"] = {{{"name", "face"}, {"primitives", {primitive(3)}}},
                        {{"name", "body"}, {"primitives", {primitive(2), primitive(2)}}}};
  document["nodes"][1]["mesh"] = 0;
  document["nodes"][2]["mesh"] = 1;
  document["nodes"][3]["mesh"] = 0;
  return gltf;
}

GltfFixture Vrm1(json expressions) {
  GltfFixture gltf = WithMeshes();
  gltf.document()["extensionsUsed"] = {"VRMC_vrm"};
  gltf.document()["extensions"]["VRMC_vrm"] = {
      {"specVersion", "1.0"},
      {"humanoid", {{"humanBones", {{"hips", {{"node", 0}}}}}}},
      {"expressions", std::move(expressions)}};
  return gltf;
}

GltfFixture Vrm0(json groups) {
  GltfFixture gltf = WithMeshes();
  gltf.document()["extensionsUsed"] = {"VRM"};
  gltf.document()["extensions"]["VRM"] = {
      {"humanoid", {{"humanBones", {{{"bone", "hips"}, {"node", 0}}}}}},
      {"blendShapeMaster", {{"blendShapeGroups", std::move(groups)}}}};
  return gltf;
}

const VrmExpression* Find(const Asset& asset, const std::string& name) {
  for (const VrmExpression& expression : asset.vrm_expressions) {
    if (expression.name == name) return &expression;
  }
  return nullptr;
}

std::string ErrorLocation(const GltfFixture& gltf, std::string* message = nullptr) {
  try {
    Read(gltf);
  } catch (const Error& error) {
    if (message) *message = error.message();
    return error.location();
  }
  return "no error";
}

TEST(VrmExpressionsTest, Vrm1PresetAndCustomWithBindsFlagsAndOverrides) {
  const Asset asset = Read(
      Vrm1({{"preset",
             {{"happy",
               {{"isBinary", true},
                {"overrideBlink", "blend"},
                {"overrideMouth", "block"},
                {"morphTargetBinds",
                 {{{"node", 1}, {"index", 2}, {"weight", 0.75}}, {{"node", 2}, {"index", 1}}}},
                {"textureTransformBinds", {{{"material", 0}}}}}},
              {"blink", {{"morphTargetBinds", {{{"node", 1}, {"index", 0}, {"weight", 1}}}}}}}},
            {"custom", {{"wink", {{"overrideLookAt", "none"}}}}}}));
  ASSERT_EQ(asset.vrm_expressions.size(), 3u);
  const VrmExpression* happy = Find(asset, "happy");
  ASSERT_NE(happy, nullptr);
  EXPECT_TRUE(happy->preset);
  EXPECT_TRUE(happy->is_binary);
  EXPECT_EQ(happy->override_blink, VrmExpression::Override::kBlend);
  EXPECT_EQ(happy->override_look_at, VrmExpression::Override::kNone);
  EXPECT_EQ(happy->override_mouth, VrmExpression::Override::kBlock);
  ASSERT_EQ(happy->morph_target_binds.size(), 2u);
  EXPECT_EQ(happy->morph_target_binds[0].node, 1);
  EXPECT_EQ(happy->morph_target_binds[0].index, 2);
  EXPECT_EQ(happy->morph_target_binds[0].weight, 0.75);
  // A missing weight is 1 (three-vrm's default).
  EXPECT_EQ(happy->morph_target_binds[1].weight, 1);
  EXPECT_EQ(happy->material_binds, 1u);
  const VrmExpression* wink = Find(asset, "wink");
  ASSERT_NE(wink, nullptr);
  EXPECT_FALSE(wink->preset);
  EXPECT_FALSE(wink->is_binary);
  EXPECT_TRUE(HasNote(asset, "expressions (3, /extensions/VRMC_vrm/expressions)"));
  EXPECT_TRUE(HasNote(asset,
                      "happy (2 morph, 1 material, not carried, binary, blends blink, "
                      "blocks mouth)"));
}

TEST(VrmExpressionsTest, Vrm1NamesThreeVrmIgnoresAreIgnoredWithANote) {
  const Asset asset =
      Read(Vrm1({{"preset", {{"smirk", json::object()}}},
                 {"custom", {{"happy", json::object()}, {"wink", json::object()}}}}));
  ASSERT_EQ(asset.vrm_expressions.size(), 1u);
  EXPECT_EQ(asset.vrm_expressions[0].name, "wink");
  EXPECT_TRUE(HasNote(asset, "smirk (preset expression with an unknown preset name)"));
  EXPECT_TRUE(HasNote(asset, "happy (custom expression with a preset name)"));
}

// A model has a few dozen expressions; a file with thousands gets them all read and the first 64
// named in each note (the notes were the file's size again: 20,000 custom expressions made a
// 1 MB note, 37,000 ignored VRM 0.x groups a 1.9 MB one).
TEST(VrmExpressionsTest, NotesNameTheFirst64) {
  json custom = json::object();
  for (int i = 0; i < 100; ++i) custom["e" + std::to_string(100 + i)] = json::object();
  const Asset vrm1 = Read(Vrm1({{"custom", custom}}));
  EXPECT_EQ(vrm1.vrm_expressions.size(), 100u);
  EXPECT_TRUE(HasNote(vrm1, "expressions (100, /extensions/VRMC_vrm/expressions): e100, e101, "));
  EXPECT_TRUE(HasNote(vrm1, ", e163 and 36 more"));
  EXPECT_FALSE(HasNote(vrm1, "e164"));
  const Asset vrm0 = Read(Vrm0(json(100, json::object())));
  EXPECT_TRUE(HasNote(vrm0, "/blendShapeMaster/blendShapeGroups/63 (no name) and 36 more"));
  EXPECT_FALSE(HasNote(vrm0, "/blendShapeGroups/64 "));
}

TEST(VrmExpressionsTest, Vrm1BadBindsAreLocatedErrors) {
  std::string message;
  EXPECT_EQ(ErrorLocation(
                Vrm1({{"preset", {{"aa", {{"morphTargetBinds", {{{"node", 1}, {"index", 3}}}}}}}}}),
                &message),
            "/extensions/VRMC_vrm/expressions/preset/aa/morphTargetBinds/0/index");
  EXPECT_TRUE(Has(message, "node 1 ('Face') has 3 morph target(s)")) << message;
  EXPECT_EQ(ErrorLocation(
                Vrm1({{"preset", {{"aa", {{"morphTargetBinds", {{{"node", 0}, {"index", 0}}}}}}}}}),
                &message),
            "/extensions/VRMC_vrm/expressions/preset/aa/morphTargetBinds/0/node");
  EXPECT_TRUE(Has(message, "has no mesh")) << message;
  EXPECT_EQ(ErrorLocation(Vrm1(
                {{"custom", {{"a/b", {{"morphTargetBinds", {{{"node", 9}, {"index", 0}}}}}}}}})),
            "/extensions/VRMC_vrm/expressions/custom/a~1b/morphTargetBinds/0/node");
  EXPECT_EQ(ErrorLocation(Vrm1({{"preset", {{"aa", {{"overrideMouth", "mute"}}}}}})),
            "/extensions/VRMC_vrm/expressions/preset/aa/overrideMouth");
}

TEST(VrmExpressionsTest, Vrm0GroupsTakeVrm1NamesAndWeightsOverHundredOnEveryNodeOfTheMesh) {
  const Asset asset = Read(
      Vrm0({{{"name", "Joy"},
             {"presetName", "joy"},
             {"isBinary", true},
             {"binds", {{{"mesh", 0}, {"index", 1}, {"weight", 50}}, {{"mesh", 1}, {"index", 0}}}},
             {"materialValues", {{{"materialName", "m"}}}}},
            {{"name", "Smile2"}, {"presetName", "unknown"}},
            {{"name", "Again"}, {"presetName", "joy"}}}));
  ASSERT_EQ(asset.vrm_expressions.size(), 2u);
  const VrmExpression* happy = Find(asset, "happy");
  ASSERT_NE(happy, nullptr);
  EXPECT_TRUE(happy->preset);
  EXPECT_TRUE(happy->is_binary);
  // Mesh 0 is on nodes 1 and 3: one bind each; a missing weight is 100.
  ASSERT_EQ(happy->morph_target_binds.size(), 3u);
  EXPECT_EQ(happy->morph_target_binds[0].node, 1);
  EXPECT_EQ(happy->morph_target_binds[1].node, 3);
  EXPECT_EQ(happy->morph_target_binds[0].weight, 0.5);
  EXPECT_EQ(happy->morph_target_binds[2].node, 2);
  EXPECT_EQ(happy->morph_target_binds[2].weight, 1);
  EXPECT_EQ(happy->material_binds, 1u);
  const VrmExpression* custom = Find(asset, "Smile2");
  ASSERT_NE(custom, nullptr);
  EXPECT_FALSE(custom->preset);
  EXPECT_TRUE(HasNote(asset, "/extensions/VRM/blendShapeMaster/blendShapeGroups/2 (happy again)"));
}

TEST(VrmExpressionsTest, Vrm0BadBindsAreLocatedErrors) {
  EXPECT_EQ(ErrorLocation(Vrm0({{{"presetName", "a"}, {"binds", {{{"mesh", 1}, {"index", 2}}}}}})),
            "/extensions/VRM/blendShapeMaster/blendShapeGroups/0/binds/0/index");
  EXPECT_EQ(ErrorLocation(Vrm0({{{"presetName", "a"}, {"binds", {{{"mesh", 5}, {"index", 0}}}}}})),
            "/extensions/VRM/blendShapeMaster/blendShapeGroups/0/binds/0/mesh");
}

// kVrmMaxExpressions: past it a file is refused at the list (a file of thousands cost the model
// ~80 bytes per 11 bytes of text); at it, read.
TEST(VrmExpressionsTest, MoreThan4096ExpressionsAreRefused) {
  json custom = json::object();
  for (size_t i = 0; i < kVrmMaxExpressions; ++i) custom["e" + std::to_string(i)] = json::object();
  EXPECT_EQ(Read(Vrm1({{"custom", custom}})).vrm_expressions.size(), kVrmMaxExpressions);
  std::string message;
  EXPECT_EQ(
      ErrorLocation(Vrm1({{"preset", {{"happy", json::object()}}}, {"custom", custom}}), &message),
      "/extensions/VRMC_vrm/expressions/custom");
  EXPECT_TRUE(Has(message, "more than 4096 expressions")) << message;
  json groups = json(kVrmMaxExpressions, {{"name", "g"}});
  EXPECT_EQ(ErrorLocation(Vrm0(groups)), "no error");
  groups.push_back({{"name", "g"}});
  EXPECT_EQ(ErrorLocation(Vrm0(groups), &message),
            "/extensions/VRM/blendShapeMaster/blendShapeGroups");
  EXPECT_TRUE(Has(message, "4097 blend shape groups, more than the limit of 4096")) << message;
}

// A VRM 0.x bind binds every node that shows its mesh: 300 nodes sharing the face mesh and 300
// binds of it would make 90,000 binds (a few KB of text making megabytes, 16 bytes each); the
// binds made are held to kVrmMaxMorphTargetBinds, the error at the bind that passes it.
TEST(VrmExpressionsTest, Vrm0BindsOnSharedMeshesAreHeldToTheLimit) {
  const auto model = [](size_t face_nodes, size_t binds) {
    GltfFixture gltf = Vrm0(
        {{{"name", "a"}, {"binds", json(binds, {{"mesh", 0}, {"index", 0}, {"weight", 100}})}}});
    for (size_t n = 0; n < face_nodes; ++n) {
      gltf.document()["nodes"].push_back({{"name", "f" + std::to_string(n)}, {"mesh", 0}});
    }
    return gltf;
  };
  // Nodes 1 and 3 and the added ones show mesh 0.
  EXPECT_EQ(Read(model(254, 256)).vrm_expressions[0].morph_target_binds.size(), 65536u);
  std::string message;
  EXPECT_EQ(ErrorLocation(model(298, 300), &message),
            "/extensions/VRM/blendShapeMaster/blendShapeGroups/0/binds/218");
  EXPECT_TRUE(Has(message, "more than 65536 morph target binds in all")) << message;
}

// mesh.weights: the influences GLTFLoader starts from, which three-vrm leaves on unbound targets.
TEST(VrmExpressionsTest, MeshDefaultWeightsAreRead) {
  GltfFixture gltf = WithMeshes();
  gltf.document()["meshes"][0]["weights"] = {0.25, 0.5, 1};
  gltf.document()["meshes"][1]["weights"] = {0.5};  // not one per target: ignored, as 0
  const Asset asset = Read(gltf);
  EXPECT_EQ(asset.rig.nodes[1].morph_default_weights, (std::vector<double>{0.25, 0.5, 1}));
  EXPECT_EQ(asset.rig.nodes[3].morph_default_weights, (std::vector<double>{0.25, 0.5, 1}));
  EXPECT_TRUE(asset.rig.nodes[2].morph_default_weights.empty());
}

TEST(VrmExpressionsTest, PresetNameMapIsThreeVrms) {
  EXPECT_EQ(VrmPresetNameFromVrm0("a"), "aa");
  EXPECT_EQ(VrmPresetNameFromVrm0("sorrow"), "sad");
  EXPECT_EQ(VrmPresetNameFromVrm0("fun"), "relaxed");
  EXPECT_EQ(VrmPresetNameFromVrm0("blink_r"), "blinkRight");
  EXPECT_EQ(VrmPresetNameFromVrm0("unknown"), "");
  EXPECT_TRUE(IsVrm1PresetExpression("surprised"));
  EXPECT_FALSE(IsVrm1PresetExpression("joy"));
}

// The sample models: VRM 0.x 'a' binds the one morph target at 100; the vrmspec model's
// expressions bind texture transforms only.
TEST(VrmExpressionsTest, SampleModelsReadAsThreeVrmSeesThem) {
  const std::string data = std::string(ANIMCONV_SHARED_DATA_DIR) + "/vrm/";
  const std::string vrm0 = data + "vrmaddon_simple_morph.vrm";
  const std::string vrm1 = data + "vrmspec_VRMC_vrm_expressions_isBinary_Overridden.vrm";
  if (!std::filesystem::exists(vrm0) || !std::filesystem::exists(vrm1)) {
    GTEST_SKIP() << "no shared data at " << data;
  }
  ReadOptions options;
  const Asset simple = ReadGltf(ReadText(vrm0), options);
  EXPECT_EQ(simple.vrm_expressions.size(), 17u);
  const VrmExpression* aa = Find(simple, "aa");
  ASSERT_NE(aa, nullptr);
  ASSERT_EQ(aa->morph_target_binds.size(), 1u);
  EXPECT_EQ(simple.rig.nodes[static_cast<size_t>(aa->morph_target_binds[0].node)].name, "Triangle");
  EXPECT_EQ(aa->morph_target_binds[0].weight, 1);
  const Asset spec = ReadGltf(ReadText(vrm1), options);
  ASSERT_EQ(spec.vrm_expressions.size(), 2u);
  const VrmExpression* blink = Find(spec, "blink");
  ASSERT_NE(blink, nullptr);
  EXPECT_TRUE(blink->is_binary);
  EXPECT_TRUE(blink->morph_target_binds.empty());
  EXPECT_EQ(blink->material_binds, 2u);
  EXPECT_EQ(Find(spec, "happy")->override_blink, VrmExpression::Override::kBlend);
}

}  // namespace
}  // namespace animconv
