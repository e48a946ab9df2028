#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "formats/csv/unity_csv.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;

json JsonOfGlb(const std::string& glb) {
  uint32_t length;
  std::memcpy(&length, glb.data() + 12, 4);
  return json::parse(glb.substr(20, length));
}

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
