// --drop-unused-attributes (formats/gltf/gltf_prune_attributes.h): the vertex attributes no
// material reads are left out, with their accessors and views when nothing else uses them; every
// other attribute keeps its values. tests/interop/check_compress.mjs --dropped-attributes checks
// with three.js that what it draws is the same.
#include "formats/gltf/gltf_prune_attributes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

constexpr size_t kVertices = 6;  // two triangles, no indices

struct Output {
  json document;
  Asset asset;
  Diagnostics notes;

  const json& Primitive(size_t p = 0) const { return document["meshes"][0]["primitives"][p]; }
  // The bytes of the accessor primitive `p` has as `name`, as a reader finds them.
  std::string Bytes(const char* name, size_t p = 0) const {
    const json& accessor = document["accessors"][Primitive(p)["attributes"][name].get<size_t>()];
    const size_t view = accessor["bufferView"].get<size_t>();
    const std::string& bytes =
        dynamic_cast<const GltfDocument&>(*asset.source_document).buffer_views.at(view);
    return bytes.substr(accessor.value("byteOffset", size_t{0}));
  }
  std::string Note() const {
    for (const Diagnostic& note : notes) {
      if (note.text.rfind("--drop-unused-attributes:", 0) == 0) return note.text;
    }
    return "";
  }
};

size_t AddVec(GltfFixture& gltf, const char* type, size_t components, float seed) {
  std::vector<float> values;
  for (size_t i = 0; i < kVertices * components; ++i) {
    values.push_back(seed + 0.125f * static_cast<float>(i % 5) - 0.0625f * static_cast<float>(i));
  }
  return gltf.AddAttribute(values, type, components, components == 3);
}

// (A braced list of one json is clang's copy of that json where gcc makes an array of it, and a
// braced list of one pair a two-element array where gcc makes an object: json::array and
// json::object say which.)
// One mesh: POSITION, NORMAL, TANGENT, TEXCOORD_0 and TEXCOORD_1, a morph target with POSITION
// and TANGENT deltas, and `material` (null: none), drawn by node 0 whose translation is animated.
GltfFixture MeshFixture(const json& material) {
  GltfFixture gltf;
  gltf.AddNodes({"shape"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  json primitive = {{"attributes",
                     {{"POSITION", AddVec(gltf, "VEC3", 3, 0.5f)},
                      {"NORMAL", AddVec(gltf, "VEC3", 3, 0.25f)},
                      {"TANGENT", AddVec(gltf, "VEC4", 4, 0.75f)},
                      {"TEXCOORD_0", AddVec(gltf, "VEC2", 2, 0.1f)},
                      {"TEXCOORD_1", AddVec(gltf, "VEC2", 2, 0.2f)}}},
                    {"targets",
                     {{{"POSITION", AddVec(gltf, "VEC3", 3, 0.01f)},
                       {"TANGENT", AddVec(gltf, "VEC3", 3, 0.02f)}}}}};
  if (!material.is_null()) {
    primitive["material"] = 0;
    gltf.document()["materials"] = json::array({material});
    gltf.document()["textures"] = json::array({json::object()});
  }
  gltf.document()["meshes"] = {{{"primitives", {primitive}}, {"weights", {0.0}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  return gltf;
}

Output Render(const GltfFixture& gltf, bool drop, bool compress = false) {
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  Output out;
  ConvertOptions options;
  options.write.gltf_drop_unused_attributes = drop;
  if (compress) options.write.gltf_compression = GltfCompression{};
  const std::string glb = RenderAsset(source, *FindFormat("glb"), options, &out.notes);
  out.document = JsonOfGlb(glb);
  out.asset = ReadGltf(glb, ReadOptions{});
  return out;
}

std::vector<std::string> Names(const json& attributes) {
  std::vector<std::string> names;
  for (auto it = attributes.begin(); it != attributes.end(); ++it) names.push_back(it.key());
  return names;
}

using Strings = std::vector<std::string>;

TEST(GltfPruneAttributesTest, SetsAboveTheOnesATextureReadsGoAndTangentsWithoutANormalMap) {
  const GltfFixture gltf =
      MeshFixture(json::object({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}));
  const Output plain = Render(gltf, false);
  const Output pruned = Render(gltf, true);
  EXPECT_EQ(Names(plain.Primitive()["attributes"]),
            (Strings{"NORMAL", "POSITION", "TANGENT", "TEXCOORD_0", "TEXCOORD_1"}));
  EXPECT_EQ(Names(pruned.Primitive()["attributes"]), (Strings{"NORMAL", "POSITION", "TEXCOORD_0"}));
  EXPECT_EQ(Names(pruned.Primitive()["targets"][0]), Strings{"POSITION"});
  // The three accessors and their views are gone; what stays has the same values.
  EXPECT_EQ(pruned.document["accessors"].size() + 3, plain.document["accessors"].size());
  EXPECT_EQ(pruned.document["bufferViews"].size() + 3, plain.document["bufferViews"].size());
  for (const char* name : {"POSITION", "NORMAL", "TEXCOORD_0"}) {
    EXPECT_EQ(pruned.Bytes(name).substr(0, 8 * kVertices),
              plain.Bytes(name).substr(0, 8 * kVertices))
        << name;
  }
  EXPECT_NE(pruned.Note().find("TANGENT of 1 primitive(s), TEXCOORD_1 of 1 primitive(s)"),
            std::string::npos)
      << pruned.Note();
  EXPECT_NE(pruned.Note().find("1 morph target attribute(s); the 3 accessor(s)"), std::string::npos)
      << pruned.Note();
  // Off by default: the plain output keeps everything and says nothing.
  EXPECT_EQ(plain.Note(), "");
}

TEST(GltfPruneAttributesTest, NormalMapsTextureTransformsAndExtensionTexturesCount) {
  // A normal map keeps the tangents and texCoord 0; KHR_texture_transform's texCoord overrides
  // (KHR_texture_transform spec) and an extension's texture (KHR_materials_clearcoat) count too.
  const json material = {
      {"normalTexture", {{"index", 0}}},
      {"extensions",
       {{"KHR_materials_clearcoat",
         {{"clearcoatTexture",
           {{"index", 0}, {"extensions", {{"KHR_texture_transform", {{"texCoord", 1}}}}}}}}}}}};
  GltfFixture gltf = MeshFixture(material);
  gltf.document()["extensionsUsed"] = {"KHR_materials_clearcoat", "KHR_texture_transform"};
  const Output pruned = Render(gltf, true);
  EXPECT_EQ(Names(pruned.Primitive()["attributes"]),
            (Strings{"NORMAL", "POSITION", "TANGENT", "TEXCOORD_0", "TEXCOORD_1"}));
  EXPECT_NE(pruned.Note().find("every vertex attribute is read"), std::string::npos);
  // Anisotropy needs tangents without a normal map.
  GltfFixture anisotropic = MeshFixture(json::object(
      {{"extensions", {{"KHR_materials_anisotropy", {{"anisotropyStrength", 0.5}}}}}}));
  anisotropic.document()["extensionsUsed"] = {"KHR_materials_anisotropy"};
  EXPECT_EQ(Names(Render(anisotropic, true).Primitive()["attributes"]),
            (Strings{"NORMAL", "POSITION", "TANGENT"}));
}

// Review of 0ff2f3b: sets must run from 0 without a gap (glTF 2.0 §3.7.2.1), so a texture reading
// set 1 keeps set 0 (the output had TEXCOORD_1 alone: MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY);
// texCoord 1.0 is set 1 (it was read as set 0); a texCoord that names no set keeps every set.
TEST(GltfPruneAttributesTest, ASetReadKeepsTheSetsBelowItAndAnyNumberNamesASet) {
  for (const json& texcoord : {json(1), json(1.0), json("1"), json(-1), json(1.5)}) {
    const Output pruned = Render(
        MeshFixture(json::object({{"occlusionTexture", {{"index", 0}, {"texCoord", texcoord}}}})),
        true);
    EXPECT_EQ(Names(pruned.Primitive()["attributes"]),
              (Strings{"NORMAL", "POSITION", "TEXCOORD_0", "TEXCOORD_1"}))
        << texcoord.dump();
  }
}

// Review of 0ff2f3b: a morph target holding only dropped attributes was written as `{}`
// (EMPTY_ENTITY); such an attribute is kept, in its base and every target.
TEST(GltfPruneAttributesTest, AnAttributeATargetHoldsAloneStays) {
  GltfFixture gltf = MeshFixture(json());
  json& targets = gltf.document()["meshes"][0]["primitives"][0]["targets"];
  targets.push_back({{"TANGENT", targets[0]["TANGENT"]}});
  gltf.document()["meshes"][0]["weights"] = {0.0, 0.0};
  const Output pruned = Render(gltf, true);
  EXPECT_EQ(Names(pruned.Primitive()["attributes"]), (Strings{"NORMAL", "POSITION", "TANGENT"}));
  EXPECT_EQ(Names(pruned.Primitive()["targets"][0]), (Strings{"POSITION", "TANGENT"}));
  EXPECT_EQ(Names(pruned.Primitive()["targets"][1]), Strings{"TANGENT"});
}

TEST(GltfPruneAttributesTest, WithoutAMaterialNoTextureReadsAnything) {
  const Output pruned = Render(MeshFixture(json()), true);
  EXPECT_EQ(Names(pruned.Primitive()["attributes"]), (Strings{"NORMAL", "POSITION"}));
}

TEST(GltfPruneAttributesTest, AnAccessorAnotherPrimitiveReadsStays) {
  GltfFixture gltf =
      MeshFixture(json::object({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}));
  json& primitives = gltf.document()["meshes"][0]["primitives"];
  json untextured = primitives[0];
  untextured.erase("material");
  untextured.erase("targets");
  primitives.push_back(untextured);
  gltf.document()["meshes"][0].erase("weights");
  primitives[0].erase("targets");
  const Output plain = Render(gltf, false);
  const Output pruned = Render(gltf, true);
  EXPECT_TRUE(pruned.Primitive(0)["attributes"].contains("TEXCOORD_0"));
  EXPECT_FALSE(pruned.Primitive(1)["attributes"].contains("TEXCOORD_0"));
  EXPECT_EQ(pruned.Bytes("TEXCOORD_0", 0).substr(0, 8 * kVertices),
            plain.Bytes("TEXCOORD_0", 0).substr(0, 8 * kVertices));
  // TANGENT and TEXCOORD_1 are read by neither, so they go; TEXCOORD_0 stays for primitive 0.
  EXPECT_EQ(pruned.document["accessors"].size() + 2, plain.document["accessors"].size());
}

TEST(GltfPruneAttributesTest, VerticesThatDifferedOnlyInADroppedAttributeAreStoredOnce) {
  // Six corners, pairwise equal in every attribute but the texture coordinates no texture reads:
  // --compress indexes them, and without the coordinates three vertices are enough.
  GltfFixture gltf;
  gltf.AddNodes({"shape"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
  std::vector<float> uvs;
  for (size_t i = 0; i < 12; ++i) uvs.push_back(0.05f * static_cast<float>(i));
  const size_t position = gltf.AddAccessor({{"bufferView", gltf.AddView(positions)},
                                            {"componentType", kGltfFloat},
                                            {"count", 6},
                                            {"type", "VEC3"},
                                            {"min", {0, 0, 0}},
                                            {"max", {1, 1, 0}}});
  const size_t uv = gltf.AddAccessor({{"bufferView", gltf.AddView(uvs)},
                                      {"componentType", kGltfFloat},
                                      {"count", 6},
                                      {"type", "VEC2"}});
  gltf.document()["meshes"] = {
      {{"primitives", {{{"attributes", {{"POSITION", position}, {"TEXCOORD_0", uv}}}}}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  const Output kept = Render(gltf, false, true);
  const Output pruned = Render(gltf, true, true);
  const auto vertices = [](const Output& out) {
    return out
        .document["accessors"][out.Primitive()["attributes"]["POSITION"].get<size_t>()]["count"]
        .get<size_t>();
  };
  EXPECT_EQ(vertices(kept), 6u);
  EXPECT_EQ(vertices(pruned), 3u);
  EXPECT_EQ(pruned.document["accessors"][pruned.Primitive()["indices"].get<size_t>()]["count"], 6);
}

// Review of 0ff2f3b: every primitive parsed its material again (--drop-unused-attributes, and
// --compress-meshes' blend and volume checks): 2,000 primitives sharing one material with 100,000
// numbers of `extras` took 37 s. Each material is parsed once now, its extras left as text.
// Measured against the same file without the extras, the fastest of three runs each.
TEST(GltfPruneAttributesTest, ManyPrimitivesOfOneLargeMaterialStayFast) {
  const auto seconds = [](size_t extras) {
    GltfFixture gltf =
        MeshFixture(json::object({{"extras", {{"pad", std::vector<int>(extras, 7)}}}}));
    json& primitives = gltf.document()["meshes"][0]["primitives"];
    primitives[0].erase("targets");
    gltf.document()["meshes"][0].erase("weights");
    for (int p = 1; p < 2000; ++p) primitives.push_back(primitives[0]);
    const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
    ConvertOptions options;
    options.write.gltf_drop_unused_attributes = true;
    options.write.gltf_compression = GltfCompression{};
    options.write.gltf_compression->quantize_meshes = true;
    double fastest = 1e9;
    for (int run = 0; run < 3; ++run) {
      Diagnostics notes;
      const auto start = std::chrono::steady_clock::now();
      RenderAsset(source, *FindFormat("glb"), options, &notes);
      fastest = std::min(
          fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return fastest;
  };
  const double plain = seconds(0);
  const double large = seconds(100000);
  EXPECT_LT(large, 2 * plain + 0.5) << "without extras " << plain << " s, with " << large << " s";
}

TEST(GltfPruneAttributesTest, NothingIsDroppedWhereAReferenceCouldBeUnknown) {
  // A primitive with extensions (KHR_materials_variants may give it a textured material).
  GltfFixture variants = MeshFixture(json());
  variants.document()["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_materials_variants", {{"mappings", json::array()}}}};
  variants.document()["extensionsUsed"] = {"KHR_materials_variants"};
  EXPECT_EQ(Render(variants, true).Primitive()["attributes"].size(), 5u);
  // An extension whose references we do not know.
  GltfFixture unknown = MeshFixture(json());
  unknown.document()["extensionsUsed"] = {"EXT_unknown_to_us"};
  EXPECT_EQ(Render(unknown, true).Primitive()["attributes"].size(), 5u);
}

}  // namespace
}  // namespace animconv
