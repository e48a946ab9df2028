#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/text_pieces.h"
#include "formats/common/canonical_json.h"
#include "formats/csv/unity_csv.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

void ExpectSameClips(const Asset& a, const Asset& b) {
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t c = 0; c < a.clips.size(); ++c) {
    ASSERT_EQ(a.clips[c].channels.size(), b.clips[c].channels.size());
    EXPECT_EQ(a.clips[c].name, b.clips[c].name);
    for (size_t i = 0; i < a.clips[c].channels.size(); ++i) {
      const Channel& x = a.clips[c].channels[i];
      const Channel& y = b.clips[c].channels[i];
      EXPECT_EQ(x.node, y.node);
      EXPECT_EQ(x.path, y.path);
      EXPECT_EQ(x.interpolation, y.interpolation);
      ASSERT_EQ(x.times_seconds.size(), y.times_seconds.size());
      for (size_t k = 0; k < x.times_seconds.size(); ++k) {
        EXPECT_EQ(static_cast<float>(x.times_seconds[k]), static_cast<float>(y.times_seconds[k]));
      }
      ASSERT_EQ(x.values.size(), y.values.size());
      for (size_t v = 0; v < x.values.size(); ++v) EXPECT_NEAR(x.values[v], y.values[v], 1e-6);
    }
  }
}

// Writes through the pipeline (normalising rotations) and reads back.
Asset RoundTrip(const Asset& asset, const char* format_id) {
  const std::string bytes = RenderAsset(asset, *FindFormat(format_id), ConvertOptions{});
  return ReadGltf(bytes, ReadOptions{});
}

TEST(GltfWriterTest, UnityCsvBecomesAGlbWithOneNodePerBone) {
  const Asset asset =
      ReadUnityCsv(testing::ReadText(testing::SourcePath("data/unity/walk.csv")), {});
  const std::string glb = RenderAsset(asset, *FindFormat("glb"), ConvertOptions{});
  const json document = JsonOfGlb(glb);
  EXPECT_EQ(document["nodes"].size(), 55u);
  EXPECT_EQ(document["nodes"][0]["name"], "hips");
  EXPECT_EQ(document["animations"].size(), 1u);
  // Every channel shares the one time accessor (all bones have the same rows).
  std::set<int> inputs;
  for (const json& sampler : document["animations"][0]["samplers"])
    inputs.insert(sampler["input"].get<int>());
  EXPECT_EQ(inputs.size(), 1u);
  const json& input = document["accessors"][*inputs.begin()];
  EXPECT_EQ(input["min"][0], 0.0);
  EXPECT_FLOAT_EQ(input["max"][0].get<float>(), 11.8f);
  for (const json& view : document["bufferViews"]) EXPECT_FALSE(view.contains("byteStride"));
  const Asset back = ReadGltf(glb, ReadOptions{});
  EXPECT_EQ(back.clips[0].channels.size(), asset.clips[0].channels.size());
}

// The BIN chunk of a .glb (the one buffer the writer makes).
std::string BinOfGlb(const std::string& glb) {
  uint32_t json_length;
  std::memcpy(&json_length, glb.data() + 12, 4);
  uint32_t bin_length;
  std::memcpy(&bin_length, glb.data() + 20 + json_length, 4);
  return glb.substr(28 + json_length, bin_length);
}

// glTF 2.0 §3.6.2.5 and the validator (ACCESSOR_MIN_MISMATCH, ACCESSOR_MAX_MISMATCH): an
// accessor's min and max are the extremes of the stored float32 values, exactly, and animation
// inputs must have them. Key times that float32 cannot hold (0.1, 1.3) and channels on different
// times, neither starting at 0, so a bound taken from the double times, from the wrong end or
// from another channel is off. Checked here as well as by the validator in tests/interop, which
// needs Node.
// A GLB is handed to the file as pieces: its header and JSON, then its binary chunk as it was
// built (not copied behind the JSON), then the chunk's padding. The bytes are the one string's,
// for a .glb and a .vrma, with and without a binary chunk's padding.
TEST(GltfWriterTest, AGlbAsPiecesIsTheSameBytesWithItsBinaryChunkApart) {
  const Asset asset =
      ReadUnityCsv(testing::ReadText(testing::SourcePath("data/unity/walk.csv")), {});
  for (const char* id : {"glb", "vrma"}) {
    const Asset prepared = PrepareAsset(asset, *FindFormat(id), ConvertOptions{});
    TextPieces pieces = RenderAssetPieces(prepared, *FindFormat(id), ConvertOptions{});
    const std::string whole = RenderAsset(prepared, *FindFormat(id), ConvertOptions{});
    const std::vector<std::string_view> parts = pieces.Pieces();
    ASSERT_GE(parts.size(), 2u) << id;
    std::string joined;
    for (const std::string_view part : parts) joined += part;
    EXPECT_EQ(joined, whole) << id;
    // The binary chunk is one piece of its own, after the BIN chunk's header.
    const size_t json_length = static_cast<unsigned char>(whole[12]) |
                               static_cast<unsigned char>(whole[13]) << 8 |
                               static_cast<unsigned char>(whole[14]) << 16;
    EXPECT_EQ(parts[0].size(), 12 + 8 + json_length + 8) << id;
    EXPECT_EQ(parts[0], std::string_view(whole).substr(0, parts[0].size())) << id;
  }
}

TEST(GltfWriterTest, AccessorMinAndMaxAreTheStoredFloat32Extremes) {
  Asset asset = testing::MakeAsset({"a", "b"});
  asset.clips[0].channels = {
      testing::MakeChannel(0, Path::kTranslation, {0.1, 0.7, 1.3}, {1, 2, 3, -4, 5, 6, 7, 8, -9},
                           3),
      testing::MakeChannel(1, Path::kRotation, {1.0 / 3, 0.35, 2.9},
                           {0, 0, 0, 1, 0, 0.6, 0, 0.8, 0.6, 0, 0, 0.8}, 4),
      testing::MakeChannel(1, Path::kScale, {0.1, 0.7, 1.3}, {1, 1, 1, 2, 2, 2, 3, 3, 3}, 3)};
  const std::string glb = RenderAsset(asset, *FindFormat("glb"), ConvertOptions{});
  const json document = JsonOfGlb(glb);
  const std::string bin = BinOfGlb(glb);
  std::set<size_t> inputs;
  for (const json& sampler : document["animations"][0]["samplers"]) {
    inputs.insert(sampler["input"].get<size_t>());
  }
  EXPECT_EQ(inputs.size(), 2u);  // the translation and scale share one
  size_t checked = 0;
  for (size_t a = 0; a < document["accessors"].size(); ++a) {
    const json& accessor = document["accessors"][a];
    if (inputs.count(a)) {
      EXPECT_TRUE(accessor.contains("min") && accessor.contains("max")) << "input " << a;
    }
    if (!accessor.contains("min") && !accessor.contains("max")) continue;
    ASSERT_EQ(accessor["componentType"], 5126) << a;  // FLOAT
    const json& view = document["bufferViews"][accessor["bufferView"].get<size_t>()];
    const size_t width = accessor["type"] == "SCALAR" ? 1 : accessor["type"] == "VEC3" ? 3 : 4;
    const size_t count = accessor["count"];
    const size_t offset = view["byteOffset"].get<size_t>() + accessor.value("byteOffset", 0u);
    ASSERT_LE(offset + count * width * 4, bin.size()) << a;
    ASSERT_EQ(accessor["min"].size(), width) << a;
    ASSERT_EQ(accessor["max"].size(), width) << a;
    for (size_t i = 0; i < width; ++i) {
      float low = 0;
      float high = 0;
      for (size_t e = 0; e < count; ++e) {
        float value;
        std::memcpy(&value, bin.data() + offset + (e * width + i) * 4, 4);
        low = e == 0 ? value : std::min(low, value);
        high = e == 0 ? value : std::max(high, value);
      }
      // Exactly: the JSON number read back as a double is the float32 value.
      EXPECT_EQ(accessor["min"][i].get<double>(), static_cast<double>(low)) << a << "." << i;
      EXPECT_EQ(accessor["max"][i].get<double>(), static_cast<double>(high)) << a << "." << i;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 2u);
}

TEST(GltfWriterTest, RoundTripKeepsEveryInterpolationAndWeights) {
  GltfFixture gltf;
  gltf.AddNodes({"n", "face"});
  gltf.document()["nodes"][1]["mesh"] = 0;
  const size_t positions = gltf.AddFloats({0, 0, 0}, "VEC3", 1);
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", positions}}},
          {"targets", {{{"POSITION", positions}}, {{"POSITION", positions}}}}}}}}};
  const size_t times = gltf.AddFloats({0, 0.5f, 1}, "SCALAR", 3);
  gltf.AddChannel(0, 0, "translation", times,
                  gltf.AddFloats({0, 0, 0, 1, 2, 3, 4, 5, 6}, "VEC3", 3), "STEP");
  gltf.AddChannel(0, 1, "weights", times, gltf.AddFloats({0, 1, -0.5f, 1.5f, 1, 0}, "SCALAR", 6));
  const size_t two = gltf.AddFloats({0, 2}, "SCALAR", 2);
  gltf.AddChannel(1, 0, "scale", two,
                  gltf.AddFloats({0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0, 0}, "VEC3", 6),
                  "CUBICSPLINE");
  const Asset asset = ReadGltf(gltf.Text(), ReadOptions{});
  ExpectSameClips(asset, RoundTrip(asset, "glb"));
  ExpectSameClips(asset, RoundTrip(asset, "gltf"));
}

TEST(GltfWriterTest, PassThroughKeepsMeshesAndDropsOldAnimationData) {
  GltfFixture gltf;
  gltf.AddNodes({"body"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  const size_t positions = gltf.AddFloats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  gltf.document()["meshes"] = {
      {{"name", "tri"}, {"primitives", {{{"attributes", {{"POSITION", positions}}}}}}}};
  gltf.document()["materials"] = {{{"name", "skin"}}};
  gltf.document()["extras"] = {{"author", "someone"}};
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  gltf.AddChannel(0, 0, "translation", times, gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  Asset asset = ReadGltf(gltf.Text(), ReadOptions{});
  asset.clips[0].name = "renamed";
  const json out = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}));
  EXPECT_EQ(out["meshes"], gltf.document()["meshes"]);
  EXPECT_EQ(out["materials"], gltf.document()["materials"]);
  EXPECT_EQ(out["extras"], gltf.document()["extras"]);
  EXPECT_EQ(out["nodes"], gltf.document()["nodes"]);
  EXPECT_EQ(out["animations"][0]["name"], "renamed");
  // The mesh's accessor plus the rewritten animation's two; the old animation's are gone.
  EXPECT_EQ(out["accessors"].size(), 3u);
}

// The nodes, meshes, skins and images are lists of packed objects (GltfObjectList), read one
// element at a time; inside an element, and in the asset and the extensions, what no reader reads
// is a packed value, not a tree (gltf_object_list.cpp, PackedInDocument in gltf_buffers.cpp), and
// written back as it was; what a reader reads (a node's children, a mesh's targetNames) is a tree.
TEST(GltfWriterTest, PassThroughKeepsUnreadMembersPackedAndWritesThemAsTheyWere) {
  GltfFixture gltf;
  gltf.AddNodes({"hips", "spine"});
  json& document = gltf.document();
  document["nodes"][0]["children"] = {1};
  document["nodes"][0]["extras"] = {{"z", {1, 2}}, {"a", json::object()}};
  document["nodes"][0]["vendorMember"] = {{"b", 1}, {"a", "x\ny"}};
  document["nodes"][1]["extensions"] = {{"VENDOR_node", {{"k", {true, nullptr}}}}};
  document["meshes"] = {{{"primitives", json::array()},
                         {"extras", {{"targetNames", {"smile"}}, {"tool", {{"v", 2}}}}},
                         {"vendorMesh", 1.5}}};
  document["skins"] = {{{"joints", {0, 1}}, {"name", "skin"}, {"extras", {{"k", 1}}}}};
  document["asset"]["extras"] = {{"author", {"a", "b"}}};
  document["extensions"] = {{"VENDOR_top", {{"list", {3, 2, 1}}}}};
  document["extensionsUsed"] = {"VENDOR_node", "VENDOR_top"};
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  gltf.AddChannel(0, 0, "translation", times, gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  const Asset asset = ReadGltf(gltf.Text(), ReadOptions{});
  const auto* source = dynamic_cast<const GltfDocument*>(asset.source_document.get());
  ASSERT_NE(source, nullptr);
  const json& read = source->json;
  for (const char* key : {"nodes", "meshes", "skins"}) {
    EXPECT_FALSE(read.contains(key)) << key;
    ASSERT_NE(source->lists.Objects(key), nullptr) << key;
  }
  const json node0 = source->lists.Objects("nodes")->At(0);
  const json node1 = source->lists.Objects("nodes")->At(1);
  const json mesh = source->lists.Objects("meshes")->At(0);
  EXPECT_TRUE(IsPackedJsonValue(node0["extras"]));
  EXPECT_TRUE(IsPackedJsonValue(node0["vendorMember"]));
  EXPECT_TRUE(node0["children"].is_array());
  EXPECT_TRUE(IsPackedJsonValue(node1["extensions"]["VENDOR_node"]));
  EXPECT_TRUE(mesh["extras"]["targetNames"].is_array());
  EXPECT_TRUE(IsPackedJsonValue(mesh["extras"]["tool"]));
  EXPECT_TRUE(IsPackedJsonValue(mesh["vendorMesh"]));
  EXPECT_TRUE(IsPackedJsonValue(source->lists.Objects("skins")->At(0)["joints"]));
  EXPECT_TRUE(IsPackedJsonValue(read["asset"]["extras"]));
  EXPECT_TRUE(IsPackedJsonValue(read["extensions"]["VENDOR_top"]));
  const json glb = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}));
  const json text = json::parse(RenderAsset(asset, *FindFormat("gltf"), ConvertOptions{}));
  for (const json* written : {&glb, &text}) {
    EXPECT_EQ((*written)["nodes"], document["nodes"]);
    EXPECT_EQ((*written)["meshes"], document["meshes"]);
    EXPECT_EQ((*written)["skins"], document["skins"]);
    EXPECT_EQ((*written)["asset"]["extras"], document["asset"]["extras"]);
    EXPECT_EQ((*written)["extensions"], document["extensions"]);
  }
}

// The top-level arrays no reader reads are held packed (GltfLists::unread, not in the tree), the
// other members no reader reads as packed values in the tree (canonical_json.h), and both are
// written back as they were, in .gltf and .glb alike (docs/reliability.md "Known gaps").
TEST(GltfWriterTest, PassThroughWritesUnreadTopLevelArraysAsTheyWere) {
  GltfFixture gltf;
  gltf.AddNodes({"hips"});
  gltf.document()["materials"] = {{{"name", "skin"}, {"doubleSided", true}}, {{"name", "hair"}}};
  gltf.document()["textures"] = {{{"source", 0}, {"sampler", 0}}};
  gltf.document()["samplers"] = {{{"magFilter", 9729}}};
  gltf.document()["cameras"] = {
      {{"type", "perspective"}, {"perspective", {{"yfov", 0.8}, {"znear", 0.01}}}}};
  gltf.document()["extras"] = json::array({1, "two", {{"three", json::array({3.5, nullptr})}}});
  gltf.document()["vendorList"] = json::array({json::object(), json::array({false})});
  gltf.document()["scenes"] = {{{"nodes", {0}}, {"name", "only"}}};
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  gltf.AddChannel(0, 0, "translation", times, gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  const Asset asset = ReadGltf(gltf.Text(), ReadOptions{});
  const auto* source = dynamic_cast<const GltfDocument*>(asset.source_document.get());
  ASSERT_NE(source, nullptr);
  const char* const unread[] = {"cameras",  "extras",     "materials", "samplers",
                                "textures", "vendorList", "scenes"};
  for (const char* key : {"cameras", "materials", "samplers", "textures", "scenes"}) {
    EXPECT_EQ(source->lists.unread.count(key), 1u) << key;
    EXPECT_FALSE(source->json.contains(key)) << key;
  }
  for (const char* key : {"extras", "vendorList"}) {
    ASSERT_TRUE(source->json.contains(key)) << key;
    EXPECT_TRUE(IsPackedJsonValue(source->json[key])) << key;
  }
  EXPECT_EQ(source->lists.Objects("nodes")->size(), 1u);  // read one node at a time
  EXPECT_FALSE(source->json.contains("nodes"));
  const json glb = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}));
  const json text = json::parse(RenderAsset(asset, *FindFormat("gltf"), ConvertOptions{}));
  for (const char* key : unread) {
    EXPECT_EQ(glb[key], gltf.document()[key]) << key;
    EXPECT_EQ(text[key], gltf.document()[key]) << key;
  }
}

TEST(GltfWriterTest, AnimatedMatrixNodesGetTrs) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  gltf.document()["nodes"][0]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
  const size_t times = gltf.AddFloats({0, 1}, "SCALAR", 2);
  gltf.AddChannel(0, 0, "translation", times, gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  const Asset asset = ReadGltf(gltf.Text(), ReadOptions{});
  const json node = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}))["nodes"][0];
  EXPECT_FALSE(node.contains("matrix"));
  EXPECT_EQ(node["translation"], json::array({1.0, 2.0, 3.0}));
}

TEST(GltfWriterTest, RefusesKeysFloat32CannotSeparate) {
  Asset asset = testing::MakeAsset({"n"});
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kTranslation, {1, 1 + 1e-9}, {0, 0, 0, 1, 1, 1}, 3));
  EXPECT_THROW(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}), Error);
}

TEST(GltfWriterTest, EmptyClipsAreNotWritten) {
  Asset asset = testing::MakeAsset({"n"});
  const json out = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), ConvertOptions{}));
  EXPECT_FALSE(out.contains("animations"));
}

}  // namespace
}  // namespace animconv
