// --compress indexes the triangle lists without indices that a glTF passes through
// (formats/gltf/gltf_mesh_weld.h): each vertex stored once, the same triangles drawn with the same
// bytes in every attribute and morph target. Checked here on our own reader's decoding of the
// output's views; tests/interop/check_compress.mjs checks khronos_Fox.glb with three.js.
#include "formats/gltf/gltf_mesh_weld.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "animconv/convert.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_references.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

std::string Render(const Asset& asset, bool compress, bool index_meshes = true) {
  ConvertOptions options;
  if (compress) {
    options.write.gltf_compression = GltfCompression{};
    options.write.gltf_compression->index_meshes = index_meshes;
  }
  return RenderAsset(asset, *FindFormat("glb"), options);
}

// A written GLB read back: its JSON and its views' bytes (meshopt-decoded by our reader).
struct Written {
  explicit Written(const std::string& glb)
      : document(JsonOfGlb(glb)), asset(ReadGltf(glb, ReadOptions{})) {}
  const std::string& View(size_t view) const {
    return dynamic_cast<const GltfDocument&>(*asset.source_document).buffer_views.at(view);
  }
  // The bytes of element `i` of accessor `a`.
  std::string Element(size_t a, size_t i) const {
    const json& accessor = document["accessors"][a];
    const json& view = document["bufferViews"][accessor["bufferView"].get<size_t>()];
    const size_t components = accessor["type"] == "VEC2" ? 2 : accessor["type"] == "VEC3" ? 3 : 4;
    const size_t bytes = components * 4;  // FLOAT only here
    const size_t stride = view.value("byteStride", bytes);
    return View(accessor["bufferView"].get<size_t>())
        .substr(accessor.value("byteOffset", size_t{0}) + i * stride, bytes);
  }
  // The vertex drawn `k`-th by primitive `p` of mesh 0.
  size_t Drawn(size_t p, size_t k) const {
    const json& primitive = document["meshes"][0]["primitives"][p];
    if (!primitive.contains("indices")) return k;
    const json& accessor = document["accessors"][primitive["indices"].get<size_t>()];
    const char* data =
        View(accessor["bufferView"].get<size_t>()).data() + accessor.value("byteOffset", size_t{0});
    if (accessor["componentType"] == kGltfUnsignedByte) return static_cast<uint8_t>(data[k]);
    EXPECT_EQ(accessor["componentType"], kGltfUnsignedShort);
    uint16_t index;
    std::memcpy(&index, data + 2 * k, 2);
    return index;
  }
  // Every attribute and target accessor of primitive `p` of mesh 0, by a name of its own.
  std::vector<std::pair<std::string, size_t>> Accessors(size_t p) const {
    const json& primitive = document["meshes"][0]["primitives"][p];
    std::vector<std::pair<std::string, size_t>> out;
    for (const auto& [name, a] : primitive["attributes"].items()) out.emplace_back(name, a);
    for (size_t t = 0; primitive.contains("targets") && t < primitive["targets"].size(); ++t) {
      for (const auto& [name, a] : primitive["targets"][t].items()) {
        out.emplace_back(name + "/" + std::to_string(t), a);
      }
    }
    return out;
  }

  json document;
  Asset asset;
};

// Two triangles of a quad, six vertices, four different, and a fifth that differs from one only
// by the sign of a zero normal component (bytes differ: stored apart). POSITION and its morph
// target one after the other in one view of byteStride 12 (as khronos_Fox.glb lays out its
// TEXCOORD_0 and JOINTS_0), NORMAL and TEXCOORD_0 interleaved in another (byteStride 20).
GltfFixture QuadFixture() {
  GltfFixture gltf;
  gltf.AddNodes({"quad"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  const float corners[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const int order[6] = {0, 1, 2, 0, 2, 3};
  std::vector<float> positions_then_deltas;
  std::vector<float> normals_uvs;
  for (int k = 0; k < 6; ++k) {
    const float* c = corners[order[k]];
    positions_then_deltas.insert(positions_then_deltas.end(), {c[0], c[1], c[2]});
    // The fifth vertex repeats the third but for a normal of -0 in x.
    const float x = k == 4 ? -0.0f : 0.0f;
    normals_uvs.insert(normals_uvs.end(), {x, 0.0f, 1.0f, c[0], c[1]});
  }
  for (int k = 0; k < 6; ++k) {
    positions_then_deltas.insert(positions_then_deltas.end(),
                                 {0.0f, 0.0f, 0.25f * static_cast<float>(order[k])});
  }
  const size_t shared = gltf.AddView(positions_then_deltas, {{"byteStride", 12}});
  const size_t interleaved = gltf.AddView(normals_uvs, {{"byteStride", 20}});
  const auto accessor = [&](size_t view, size_t offset, const char* type) {
    return gltf.AddAccessor({{"bufferView", view},
                             {"byteOffset", offset},
                             {"componentType", 5126},
                             {"count", 6},
                             {"type", type}});
  };
  json positions = {{"bufferView", shared}, {"componentType", 5126}, {"count", 6},
                    {"type", "VEC3"},       {"min", {0, 0, 0}},      {"max", {1, 1, 0}}};
  const size_t position = gltf.AddAccessor(positions);
  const size_t delta = accessor(shared, 72, "VEC3");
  const size_t normal = accessor(interleaved, 0, "VEC3");
  const size_t uv = accessor(interleaved, 12, "VEC2");
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", position}, {"NORMAL", normal}, {"TEXCOORD_0", uv}}},
          {"targets", {{{"POSITION", delta}}}}}}},
       {"weights", {0.0}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  return gltf;
}

TEST(GltfMeshWeldTest, ATriangleListWithoutIndicesIsIndexedEachVertexOnce) {
  const Asset source = ReadGltf(QuadFixture().Glb(), ReadOptions{});
  const Written plain(Render(source, false));
  const Written welded(Render(source, true));
  const json& primitive = welded.document["meshes"][0]["primitives"][0];
  ASSERT_TRUE(primitive.contains("indices"));
  EXPECT_FALSE(plain.document["meshes"][0]["primitives"][0].contains("indices"));
  EXPECT_EQ(welded.document["accessors"][primitive["indices"].get<size_t>()]["count"], 6);
  const auto accessors = welded.Accessors(0);
  ASSERT_EQ(accessors.size(), 4u);
  for (const auto& [name, a] : accessors) {
    EXPECT_EQ(welded.document["accessors"][a]["count"], 5) << name;  // -0 kept apart
  }
  // POSITION keeps its bounds (the same values).
  EXPECT_EQ(welded.document["accessors"][primitive["attributes"]["POSITION"].get<size_t>()]["max"],
            json({1, 1, 0}));
  // Drawn vertex for drawn vertex, every attribute and target has the plain output's bytes.
  const auto plain_accessors = plain.Accessors(0);
  for (size_t i = 0; i < accessors.size(); ++i) {
    ASSERT_EQ(accessors[i].first, plain_accessors[i].first);
    for (size_t k = 0; k < 6; ++k) {
      EXPECT_EQ(welded.Element(accessors[i].second, welded.Drawn(0, k)),
                plain.Element(plain_accessors[i].second, k))
          << accessors[i].first << " vertex " << k;
    }
  }
  // Vertices are numbered as the triangles first use them.
  std::vector<size_t> drawn;
  for (size_t k = 0; k < 6; ++k) drawn.push_back(welded.Drawn(0, k));
  EXPECT_EQ(drawn, (std::vector<size_t>{0, 1, 2, 0, 3, 4}));
  // --compress-keep-vertices leaves the mesh as it was.
  const Written kept(Render(source, true, false));
  EXPECT_FALSE(kept.document["meshes"][0]["primitives"][0].contains("indices"));
}

// The same quad drawn through 8-bit indices that name every vertex twice over: the identical
// vertices are stored once in their order and the index accessor keeps its place and type.
TEST(GltfMeshWeldTest, AnIndexedListStoresIdenticalVerticesOnce) {
  GltfFixture gltf = QuadFixture();
  const std::vector<uint8_t> order = {0, 1, 2, 3, 4, 5, 5, 4, 3};
  const size_t index = gltf.AddAccessor({{"bufferView", gltf.AddView(order)},
                                         {"componentType", kGltfUnsignedByte},
                                         {"count", order.size()},
                                         {"type", "SCALAR"},
                                         {"min", {0}},
                                         {"max", {5}}});
  gltf.document()["meshes"][0]["primitives"][0]["indices"] = index;
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  const Written plain(Render(source, false));
  const Written merged(Render(source, true));
  const json& primitive = merged.document["meshes"][0]["primitives"][0];
  const json& indices = merged.document["accessors"][primitive["indices"].get<size_t>()];
  EXPECT_EQ(indices["componentType"], kGltfUnsignedByte);
  EXPECT_EQ(indices["count"], 9);
  // Its bounds are those of the new values (the validator's ACCESSOR_MAX_MISMATCH otherwise).
  EXPECT_EQ(indices["min"], json::array({0}));
  EXPECT_EQ(indices["max"], json::array({4}));
  std::vector<size_t> drawn;
  for (size_t k = 0; k < order.size(); ++k) drawn.push_back(merged.Drawn(0, k));
  EXPECT_EQ(drawn, (std::vector<size_t>{0, 1, 2, 0, 3, 4, 4, 3, 0}));
  const auto accessors = merged.Accessors(0);
  const auto plain_accessors = plain.Accessors(0);
  ASSERT_EQ(accessors.size(), plain_accessors.size());
  for (size_t i = 0; i < accessors.size(); ++i) {
    EXPECT_EQ(merged.document["accessors"][accessors[i].second]["count"], 5);
    for (size_t k = 0; k < order.size(); ++k) {
      EXPECT_EQ(merged.Element(accessors[i].second, merged.Drawn(0, k)),
                plain.Element(plain_accessors[i].second, plain.Drawn(0, k)))
          << accessors[i].first << " vertex " << k;
    }
  }
}

TEST(GltfMeshWeldTest, WhatIndexingCannotChangeAloneIsLeftAsItIs) {
  // Two primitives drawing the same accessors: the vertices serve both.
  GltfFixture shared = QuadFixture();
  json& primitives = shared.document()["meshes"][0]["primitives"];
  primitives.push_back(primitives[0]);
  // A triangle strip: indexing it would need its own rules.
  GltfFixture strip = QuadFixture();
  strip.document()["meshes"][0]["primitives"][0]["mode"] = 5;
  // A view that also holds what an image reads.
  GltfFixture image = QuadFixture();
  image.document()["images"] = {{{"bufferView", 1}, {"mimeType", "image/png"}}};
  for (GltfFixture* gltf : {&shared, &strip, &image}) {
    const Asset source = ReadGltf(gltf->Glb(), ReadOptions{});
    const Written written(Render(source, true));
    for (const json& primitive : written.document["meshes"][0]["primitives"]) {
      EXPECT_FALSE(primitive.contains("indices"));
    }
  }
}

// A count no view can hold (2^61 + 1 elements of 8 bytes wrapped to 0 in the range check and the
// vertex copy overran its buffer), and a matrix attribute (its columns are padded: MAT2 of bytes
// is 8 bytes, which a count of components times their size took for 4) are left as they are.
TEST(GltfMeshWeldTest, ACountBeyondItsViewOrAMatrixAttributeIsLeftAsItIs) {
  for (const auto& [type, component, count] :
       {std::tuple<const char*, int, uint64_t>{"VEC2", 5126, (uint64_t{1} << 61) + 1},
        std::tuple<const char*, int, uint64_t>{"MAT2", kGltfUnsignedByte, 3}}) {
    GltfFixture gltf;
    gltf.AddNodes({"mesh"});
    gltf.document()["nodes"][0]["mesh"] = 0;
    // Three equal 8-byte elements: a MAT2 of bytes read as 4 bytes would merge them.
    const std::vector<uint8_t> bytes = {1, 2, 0, 0, 3, 4, 0, 0, 1, 2, 0, 0,
                                        5, 6, 0, 0, 1, 2, 0, 0, 7, 8, 0, 0};
    const size_t accessor =
        gltf.AddAccessor({{"bufferView", gltf.AddView(bytes, {{"byteStride", 8}})},
                          {"componentType", component},
                          {"count", count},
                          {"type", type}});
    gltf.document()["meshes"] = {{{"primitives", {{{"attributes", {{"_DATA", accessor}}}}}}}};
    gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                    gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
    const Written written(Render(ReadGltf(gltf.Glb(), ReadOptions{}), true));
    EXPECT_FALSE(written.document["meshes"][0]["primitives"][0].contains("indices")) << type;
    EXPECT_EQ(written.document["accessors"][0]["count"], count) << type;
  }
}

// Six different vertices: an index buffer would only add bytes.
TEST(GltfMeshWeldTest, AListOfDifferentVerticesIsNotIndexed) {
  GltfFixture gltf;
  gltf.AddNodes({"triangles"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  std::vector<float> positions;
  for (int v = 0; v < 6; ++v)
    positions.insert(positions.end(),
                     {1.0f * static_cast<float>(v), 0.5f * static_cast<float>(v), 0.0f});
  const size_t position = gltf.AddFloats(positions, "VEC3", 6);
  gltf.document()["meshes"] = {{{"primitives", {{{"attributes", {{"POSITION", position}}}}}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  const Written written(Render(ReadGltf(gltf.Glb(), ReadOptions{}), true));
  EXPECT_FALSE(written.document["meshes"][0]["primitives"][0].contains("indices"));
}

// WeldMeshes of a read document with the --compress-meshes cache order.
MeshWeld Weld(const SourceDocument& document) {
  const auto& source = dynamic_cast<const GltfDocument&>(document);
  return WeldMeshes(source, CountReferences(source), true);
}

// A grid of 8 x 8 quads drawn through an index list in row order: the two triangles of each quad,
// its vertices shared with its neighbours (81 vertices, 128 triangles). Accessor 0 is POSITION
// (view 0), accessor 1 the indices (view 1).
GltfFixture GridFixture(const char* alpha_mode) {
  GltfFixture gltf;
  gltf.AddNodes({"grid"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  std::vector<float> positions;
  for (int y = 0; y <= 8; ++y) {
    for (int x = 0; x <= 8; ++x) {
      positions.insert(positions.end(), {static_cast<float>(x), static_cast<float>(y),
                                         0.1f * static_cast<float>(x * y % 5)});
    }
  }
  std::vector<uint16_t> order;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      const int a = y * 9 + x;
      for (const int corner : {a, a + 1, a + 10, a, a + 10, a + 9}) {
        order.push_back(static_cast<uint16_t>(corner));
      }
    }
  }
  const size_t position = gltf.AddFloats(positions, "VEC3", 81);
  const size_t indices = gltf.AddAccessor({{"bufferView", gltf.AddView(order)},
                                           {"componentType", kGltfUnsignedShort},
                                           {"count", order.size()},
                                           {"type", "SCALAR"}});
  gltf.document()["materials"] = {{{"alphaMode", alpha_mode}}};
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", position}}}, {"indices", indices}, {"material", 0}}}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  return gltf;
}

// Each triangle of the grid as the bytes of its three corners in drawn order, read from the weld's
// bytes where it changed them, else from the source's.
std::vector<std::string> GridTriangles(const GltfDocument& source, const MeshWeld& weld) {
  const auto view = [&](size_t v) -> const std::string& {
    const auto found = weld.view_bytes.find(v);
    return found == weld.view_bytes.end() ? source.buffer_views[v] : found->second;
  };
  const auto position = weld.accessors.find(0);
  const size_t offset = position == weld.accessors.end() ? 0 : position->second.byte_offset;
  std::vector<std::string> triangles;
  for (size_t k = 0; k < 384; k += 3) {
    std::string corners;
    for (size_t c = 0; c < 3; ++c) {
      uint16_t index;
      std::memcpy(&index, view(1).data() + 2 * (k + c), 2);
      corners += view(0).substr(offset + 12 * index, 12);
    }
    triangles.push_back(corners);
  }
  return triangles;
}

// --compress-meshes puts an opaque surface's triangles in vertex cache order: the same triangles,
// each with the same corners in the same order (the same winding), drawn in another order, the
// vertices numbered as first used. A blending material keeps its triangles' order (what is drawn
// over what), and plain --compress reorders nothing.
TEST(GltfMeshWeldTest, CacheOrderKeepsEveryTriangleAndBlendingKeepsItsOrder) {
  const Asset opaque = ReadGltf(GridFixture("OPAQUE").Glb(), ReadOptions{});
  const auto& source = dynamic_cast<const GltfDocument&>(*opaque.source_document);
  const MeshWeld plain = WeldMeshes(source, CountReferences(source), false);
  EXPECT_TRUE(plain.view_bytes.empty());
  const MeshWeld ordered = WeldMeshes(source, CountReferences(source), true);
  EXPECT_EQ(ordered.cache_ordered, 1u);
  const std::vector<std::string> before = GridTriangles(source, plain);
  const std::vector<std::string> after = GridTriangles(source, ordered);
  EXPECT_NE(before, after);
  std::multiset<std::string> a(before.begin(), before.end()), b(after.begin(), after.end());
  EXPECT_EQ(a, b);
  // Numbered by first use: each new vertex is the next number.
  uint16_t next = 0;
  for (size_t k = 0; k < 384; ++k) {
    uint16_t index;
    std::memcpy(&index, ordered.view_bytes.at(1).data() + 2 * k, 2);
    ASSERT_LE(index, next) << k;
    if (index == next) ++next;
  }
  EXPECT_EQ(next, 81);

  const Asset blending = ReadGltf(GridFixture("BLEND").Glb(), ReadOptions{});
  const MeshWeld kept = Weld(*blending.source_document);
  EXPECT_EQ(kept.cache_ordered, 0u);
  EXPECT_TRUE(kept.view_bytes.empty());
}

// --compress-meshes stores triangle lists' indices in EXT_meshopt_compression's TRIANGLES codec,
// which may rotate a triangle's corners (the same winding): decoded (by our reader, with
// meshoptimizer's decoder), the same triangles up to rotation. Plain --compress keeps INDICES,
// which decodes to the very same list. (Positions kept float here by a tolerance no grid meets.)
TEST(GltfMeshWeldTest, TrianglesCodecKeepsEveryTriangleUpToRotation) {
  const Asset source = ReadGltf(GridFixture("OPAQUE").Glb(), ReadOptions{});
  ConvertOptions options;
  options.write.gltf_compression = GltfCompression{};
  const Written plain(RenderAsset(source, *FindFormat("glb"), options));
  options.write.gltf_compression->quantize_meshes = true;
  options.write.gltf_compression->mesh_position_fraction = 1e-12;
  const Written packed(RenderAsset(source, *FindFormat("glb"), options));
  const auto mode = [](const Written& out) {
    const json& primitive = out.document["meshes"][0]["primitives"][0];
    const json& accessor = out.document["accessors"][primitive["indices"].get<size_t>()];
    return out.document["bufferViews"][accessor["bufferView"].get<size_t>()]["extensions"]
                       ["EXT_meshopt_compression"]["mode"];
  };
  EXPECT_EQ(mode(plain), "INDICES");
  EXPECT_EQ(mode(packed), "TRIANGLES");
  // Each triangle as its corners' bytes, rotated to start at the least: equal as multisets.
  const auto triangles = [](const Written& out) {
    const size_t position =
        out.document["meshes"][0]["primitives"][0]["attributes"]["POSITION"].get<size_t>();
    std::multiset<std::string> set;
    for (size_t k = 0; k < 384; k += 3) {
      std::string corners[3];
      for (size_t c = 0; c < 3; ++c) corners[c] = out.Element(position, out.Drawn(0, k + c));
      const size_t first = static_cast<size_t>(std::min_element(corners, corners + 3) - corners);
      set.insert(corners[first] + corners[(first + 1) % 3] + corners[(first + 2) % 3]);
    }
    return set;
  };
  EXPECT_EQ(triangles(plain), triangles(packed));
}

// Review cases (session 22). The TRIANGLES codec only for views of whole triangles that only
// triangle lists read: a view padded past its last triangle (three.js's GLTFExporter pads every
// view to 4 bytes) was labelled TRIANGLES over INDICES-coded data with a count of 382, and an
// index accessor a LINES primitive shares had its corners rotated under the lines.
TEST(GltfMeshWeldTest, TrianglesCodecOnlyForWholeTrianglesOfTriangleLists) {
  const auto mode_of = [](const GltfFixture& gltf) {
    ConvertOptions options;
    options.write.gltf_compression = GltfCompression{};
    options.write.gltf_compression->quantize_meshes = true;
    const std::string glb =
        RenderAsset(ReadGltf(gltf.Glb(), ReadOptions{}), *FindFormat("glb"), options);
    const Written out(glb);  // our reader decodes it (meshoptimizer asserted before on 382)
    const json& primitive = out.document["meshes"][0]["primitives"][0];
    const json& accessor = out.document["accessors"][primitive["indices"].get<size_t>()];
    const json& extension = out.document["bufferViews"][accessor["bufferView"].get<size_t>()]
                                        ["extensions"]["EXT_meshopt_compression"];
    if (extension["mode"] == "TRIANGLES") {
      EXPECT_EQ(extension["count"].get<size_t>() % 3, 0u);
    }
    return extension["mode"].get<std::string>();
  };
  GltfFixture padded = GridFixture("OPAQUE");
  {
    // 127 triangles in a view of 382 indices' bytes.
    json& indices = padded.document()["accessors"][1];
    indices["count"] = 381;
    padded.document()["bufferViews"][1]["byteLength"] = 764;
  }
  EXPECT_EQ(mode_of(padded), "INDICES");
  GltfFixture lines = GridFixture("OPAQUE");
  json& primitives = lines.document()["meshes"][0]["primitives"];
  primitives.push_back(primitives[0]);
  primitives[1]["mode"] = 1;
  EXPECT_EQ(mode_of(lines), "INDICES");
  EXPECT_EQ(mode_of(GridFixture("OPAQUE")), "TRIANGLES");
}

// A primitive with extensions (KHR_materials_variants may give it a blending material) keeps its
// triangles' order; a material that is no object is no blending material and no crash.
TEST(GltfMeshWeldTest, APrimitiveWithExtensionsKeepsItsOrder) {
  GltfFixture variants = GridFixture("OPAQUE");
  variants.document()["extensionsUsed"] = {"KHR_materials_variants"};
  variants.document()["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_materials_variants", {{"mappings", {{{"material", 0}, {"variants", {0}}}}}}}};
  const Asset asset = ReadGltf(variants.Glb(), ReadOptions{});
  EXPECT_EQ(Weld(*asset.source_document).cache_ordered, 0u);
  GltfFixture odd = GridFixture("OPAQUE");
  odd.document()["materials"] = {true};
  const Asset odd_asset = ReadGltf(odd.Glb(), ReadOptions{});
  EXPECT_EQ(Weld(*odd_asset.source_document).cache_ordered, 1u);
}

// An accessor nothing uses is kept as the file had it, members of the wrong type included:
// --compress lays out its view without reading them as numbers (a count of "x" was an internal
// error, where a plain convert passed).
TEST(GltfMeshWeldTest, AnUnusedAccessorWithMembersOfTheWrongTypeIsKept) {
  GltfFixture gltf = GridFixture("OPAQUE");
  gltf.AddAccessor({{"bufferView", gltf.AddView(std::string(12, '\0'))},
                    {"componentType", "float"},
                    {"count", "x"},
                    {"byteOffset", -4},
                    {"type", 3}});
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  const Written written(Render(source, true));
  const json& accessors = written.document["accessors"];
  EXPECT_EQ(std::count_if(accessors.begin(), accessors.end(),
                          [](const json& accessor) { return accessor["count"] == "x"; }),
            1);
}

}  // namespace
}  // namespace animconv
