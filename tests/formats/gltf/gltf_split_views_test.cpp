// --compress-meshes splits the bufferViews several accessors share one after the other
// (formats/gltf/gltf_split_views.h), so that the mesh passes can rewrite each accessor: every
// accessor reads the same bytes after, interleaved or overlapping views are left whole, and the
// quantizer then takes the meshes of a COLLADA2GLTF-like file (one view for all normals and
// positions, one for all indices). tests/interop (box-quantized, simple-skinning-quantized) checks
// the outputs of such files with three.js and the Khronos validator.
#include "formats/gltf/gltf_split_views.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
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

constexpr size_t kVertices = 6;

std::vector<float> Positions(float shift) {
  std::vector<float> values;
  for (size_t i = 0; i < kVertices; ++i) {
    const double a = 0.9 * static_cast<double>(i);
    values.insert(values.end(), {static_cast<float>(std::sin(a) + shift),
                                 static_cast<float>(std::cos(a)), 0.1f * static_cast<float>(i)});
  }
  return values;
}

std::vector<float> Normals(float turn) {
  std::vector<float> values;
  for (size_t i = 0; i < kVertices; ++i) {
    const double a = turn + 0.4 * static_cast<double>(i);
    values.insert(values.end(),
                  {static_cast<float>(std::sin(a)), 0.0f, static_cast<float>(std::cos(a))});
  }
  return values;
}

std::string Bytes(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4);
}

// Two meshes, each drawn by a node of its own, as COLLADA2GLTF writes them: the normals and
// positions of both in one view with a byteStride (normals then positions, mesh by mesh), the
// index lists of both in another. With `stride` other than 12 the view is interleaved instead.
GltfFixture SharedFixture(size_t stride = 12) {
  GltfFixture gltf;
  gltf.AddNodes({"inner", "outer"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  gltf.document()["nodes"][1]["mesh"] = 1;
  const std::string attributes =
      Bytes(Normals(0)) + Bytes(Positions(0)) + Bytes(Normals(1)) + Bytes(Positions(3));
  const size_t vertex_view = gltf.AddView(attributes, {{"byteStride", stride}, {"target", 34962}});
  const std::vector<uint16_t> indices = {0, 1, 2, 3, 4, 5, 0, 2, 4, 1, 3, 5};
  const size_t index_view = gltf.AddView(indices, {{"target", 34963}});
  const size_t block = kVertices * 12;
  std::vector<size_t> accessor;
  for (size_t k = 0; k < 4; ++k) {
    json definition = {{"bufferView", vertex_view},
                       {"byteOffset", k * block},
                       {"componentType", kGltfFloat},
                       {"count", kVertices},
                       {"type", "VEC3"}};
    if (k % 2 == 1) {  // POSITION: min and max required
      const std::vector<float> p = Positions(k == 1 ? 0 : 3);
      json low = json::array(), high = json::array();
      for (size_t c = 0; c < 3; ++c) {
        float l = p[c], h = p[c];
        for (size_t i = c; i < p.size(); i += 3) l = std::min(l, p[i]), h = std::max(h, p[i]);
        low.push_back(l);
        high.push_back(h);
      }
      definition["min"] = low;
      definition["max"] = high;
    }
    accessor.push_back(gltf.AddAccessor(definition));
  }
  for (size_t k = 0; k < 2; ++k) {
    accessor.push_back(gltf.AddAccessor({{"bufferView", index_view},
                                         {"byteOffset", k * 12},
                                         {"componentType", kGltfUnsignedShort},
                                         {"count", 6},
                                         {"type", "SCALAR"}}));
  }
  json meshes = json::array();
  for (size_t m = 0; m < 2; ++m) {
    json attributes_of =
        json::object({{"NORMAL", accessor[2 * m]}, {"POSITION", accessor[2 * m + 1]}});
    json primitive = json::object({{"attributes", attributes_of}, {"indices", accessor[4 + m]}});
    meshes.push_back(json::object({{"primitives", json::array({primitive})}}));
  }
  gltf.document()["meshes"] = meshes;
  gltf.AddChannel(0, 0, "rotation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 1, 0, 0.6f, 0, 0.8f}, "VEC4", 2));
  return gltf;
}

const GltfDocument& DocumentOf(const Asset& asset) {
  return dynamic_cast<const GltfDocument&>(*asset.source_document);
}

// The bytes accessor `a` of `document` reads (packed elements).
std::string AccessorBytes(const GltfDocument& document, size_t a) {
  const json accessor = document.lists.accessors->At(a);
  const size_t view = accessor["bufferView"].get<size_t>();
  const size_t size = accessor["componentType"] == kGltfFloat ? 12 : 2;
  return document.buffer_views.at(view).substr(accessor.value("byteOffset", size_t{0}),
                                               accessor["count"].get<size_t>() * size);
}

TEST(GltfSplitViewsTest, EachAccessorOfASharedViewGetsItsOwnBytes) {
  const Asset source = ReadGltf(SharedFixture().Glb(), ReadOptions{});
  const GltfDocument& document = DocumentOf(source);
  const ViewSplit split = SplitSharedViews(document);
  ASSERT_TRUE(split.document);
  EXPECT_EQ(split.views, 2u);
  EXPECT_EQ(split.accessors, 6u);
  const GltfDocument& after = *split.document;
  // 4 views before (vertices, indices, animation times and rotations), 4 more after.
  EXPECT_EQ(after.lists.buffer_views->size(), document.lists.buffer_views->size() + 4);
  EXPECT_EQ(after.buffer_views.size(), after.lists.buffer_views->size());
  std::set<size_t> views;
  for (size_t a = 0; a < 6; ++a) {
    EXPECT_EQ(AccessorBytes(after, a), AccessorBytes(document, a)) << "accessor " << a;
    const json accessor = after.lists.accessors->At(a);
    EXPECT_FALSE(accessor.contains("byteOffset"));
    const size_t view = accessor["bufferView"].get<size_t>();
    EXPECT_TRUE(views.insert(view).second) << "accessor " << a << " shares view " << view;
    const json definition = after.lists.buffer_views->At(view);
    EXPECT_EQ(definition["byteLength"].get<size_t>(), after.buffer_views.at(view).size());
    EXPECT_EQ(definition["target"], a < 4 ? 34962 : 34963);  // the view's other members kept
  }
  // The animation's accessors and views, and the source itself, are untouched.
  for (size_t a = 6; a < document.lists.accessors->size(); ++a) {
    EXPECT_EQ(after.lists.accessors->Text(a), document.lists.accessors->Text(a));
  }
  EXPECT_EQ(document.buffer_views.size(), 4u);
}

TEST(GltfSplitViewsTest, InterleavedOverlappingOrSparseViewsStayWhole) {
  // Interleaved: a byteStride larger than the element (only the index view is split).
  const ViewSplit interleaved =
      SplitSharedViews(DocumentOf(ReadGltf(SharedFixture(24).Glb(), ReadOptions{})));
  EXPECT_EQ(interleaved.views, 1u);
  EXPECT_EQ(interleaved.accessors, 2u);
  // Two accessors over the same bytes.
  GltfFixture overlapping = SharedFixture();
  overlapping.document()["accessors"][2]["byteOffset"] = 2 * kVertices * 12 - 12;
  const ViewSplit split = SplitSharedViews(DocumentOf(ReadGltf(overlapping.Glb(), ReadOptions{})));
  ASSERT_TRUE(split.document);
  EXPECT_EQ(split.views, 1u);  // the index view alone
  // A view a sparse accessor also reads.
  GltfFixture sparse = SharedFixture();
  sparse.AddAccessor({{"componentType", kGltfFloat},
                      {"count", kVertices},
                      {"type", "VEC3"},
                      {"sparse",
                       {{"count", 1},
                        {"indices", {{"bufferView", 1}, {"componentType", kGltfUnsignedShort}}},
                        {"values", {{"bufferView", 0}}}}}});
  EXPECT_FALSE(SplitSharedViews(DocumentOf(ReadGltf(sparse.Glb(), ReadOptions{}))).document);
}

// Accessors no mesh uses stay in the view, packed one after the other: one POSITION beside 2,000
// unused accessors takes one new view, not 2,000 (review of 1ff69b8: the output grew to 134 % of
// the plain one).
TEST(GltfSplitViewsTest, AccessorsNoMeshUsesStayTogether) {
  GltfFixture gltf = SharedFixture();
  json& accessors = gltf.document()["accessors"];
  // A view: one mesh accessor's 6 elements (added last), then 2,000 one-element accessors.
  const std::vector<float> values = Positions(5);
  std::string bytes = Bytes(values);
  for (size_t k = 0; k < 2000; ++k) bytes += Bytes({static_cast<float>(k), 0, 1});
  const size_t view = gltf.AddView(bytes, {{"byteStride", 12}, {"target", 34962}});
  for (size_t k = 0; k < 2000; ++k) {
    gltf.AddAccessor({{"bufferView", view},
                      {"byteOffset", values.size() * 4 + k * 12},
                      {"componentType", kGltfFloat},
                      {"count", 1},
                      {"type", "VEC3"}});
  }
  gltf.document()["meshes"][1]["primitives"][0]["attributes"]["TEXCOORD_9"] =
      gltf.AddAccessor({{"bufferView", view},
                        {"componentType", kGltfFloat},
                        {"count", kVertices},
                        {"type", "VEC3"}});
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  const GltfDocument& document = DocumentOf(source);
  const ViewSplit split = SplitSharedViews(document);
  ASSERT_TRUE(split.document);
  EXPECT_EQ(split.views, 3u);
  EXPECT_EQ(split.accessors, 7u);
  const GltfDocument& after = *split.document;
  // The vertex view: 4 accessors, 3 new views; the index view: 1; this one: 1.
  EXPECT_EQ(after.lists.buffer_views->size(), document.lists.buffer_views->size() + 5);
  const size_t first_unused = accessors.size() - 2001;
  for (size_t a = first_unused; a < first_unused + 2000; a += 499) {
    EXPECT_EQ(AccessorBytes(after, a), AccessorBytes(document, a)) << a;
    EXPECT_EQ(after.lists.accessors->At(a)["bufferView"], view);
  }
  EXPECT_EQ(after.buffer_views.at(view).size(), 2000u * 12);
  const size_t mesh_accessor = accessors.size() - 1;
  EXPECT_EQ(AccessorBytes(after, mesh_accessor), AccessorBytes(document, mesh_accessor));
  EXPECT_NE(after.lists.accessors->At(mesh_accessor)["bufferView"], view);
}

// Through the writer: the split lets --compress-meshes quantize every normal and the positions
// whose node can take the grid, each within its bound; without --compress-meshes the views stay as
// they were.
TEST(GltfSplitViewsTest, TheQuantizerTakesTheAccessorsOfASharedView) {
  const Asset source = ReadGltf(SharedFixture().Glb(), ReadOptions{});
  ConvertOptions options;
  options.write.gltf_compression = GltfCompression{};
  Diagnostics notes;
  const json plain = JsonOfGlb(RenderAsset(source, *FindFormat("glb"), options, &notes));
  EXPECT_EQ(plain["bufferViews"].size(), 4u);  // vertices, indices, times, rotations

  options.write.gltf_compression->quantize_meshes = true;
  notes.clear();
  const std::string glb = RenderAsset(source, *FindFormat("glb"), options, &notes);
  bool noted = false;
  for (const Diagnostic& note : notes) {
    noted = noted || note.text.find(
                         "2 bufferView(s) shared by accessors one after the other "
                         "split, 6 mesh accessor(s)") != std::string::npos;
  }
  EXPECT_TRUE(noted);
  const json document = JsonOfGlb(glb);
  const Asset written = ReadGltf(glb, ReadOptions{});
  const GltfDocument& bytes = DocumentOf(written);
  for (size_t m = 0; m < 2; ++m) {
    const json& attributes = document["meshes"][m]["primitives"][0]["attributes"];
    EXPECT_EQ(document["accessors"][attributes["NORMAL"].get<size_t>()]["componentType"],
              kGltfByte);
    const json& position = document["accessors"][attributes["POSITION"].get<size_t>()];
    if (m == 0) {
      // Its node's rotation is animated, and a new child node holding it would cost more than
      // the grid saves on 6 vertices (gltf_mesh_dequantize.cpp).
      EXPECT_EQ(position["componentType"], kGltfFloat);
      bool why = false;
      for (const Diagnostic& note : notes) {
        why = why || note.text.find(
                         "a new child node for each would cost more than the grid "
                         "saves") != std::string::npos;
      }
      EXPECT_TRUE(why);
      continue;
    }
    ASSERT_EQ(position["componentType"], kGltfUnsignedShort);
    // Each source vertex has one as the node places it (translation + uniform scale * code)
    // within the bound (the vertices may be renumbered in the order the triangles use them).
    const json& node = document["nodes"][1];
    const std::vector<float> expected = Positions(3);
    const double step = node["scale"][0].get<double>();
    const size_t view = position["bufferView"].get<size_t>();
    const std::string& data = bytes.buffer_views.at(view);
    const size_t offset = position.value("byteOffset", size_t{0});
    const size_t stride = document["bufferViews"][view]["byteStride"].get<size_t>();
    for (size_t i = 0; i < kVertices; ++i) {
      double nearest = 1e9;
      for (size_t j = 0; j < kVertices; ++j) {
        double squared = 0;
        for (size_t c = 0; c < 3; ++c) {
          uint16_t code;
          std::memcpy(&code, data.data() + offset + j * stride + c * 2, 2);
          const double placed = node["translation"][c].get<double>() + step * code;
          squared += (placed - expected[i * 3 + c]) * (placed - expected[i * 3 + c]);
        }
        nearest = std::min(nearest, std::sqrt(squared));
      }
      EXPECT_LE(nearest, 1e-4 * 3) << "vertex " << i;
    }
  }
}

}  // namespace
}  // namespace animconv
