#include "formats/gltf/gltf_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;

// A glTF with one node showing mesh 0, built primitive by primitive.
class MeshFixture {
 public:
  MeshFixture() {
    gltf_.AddNodes({"shape"});
    gltf_.document()["nodes"][0]["mesh"] = 0;
    gltf_.document()["meshes"] = json::array({{{"primitives", json::array()}}});
  }
  json& mesh() { return gltf_.document()["meshes"][0]; }
  json& primitive(size_t p) { return mesh()["primitives"][p]; }
  GltfFixture& gltf() { return gltf_; }

  size_t Vec3(const std::vector<float>& values) {
    return gltf_.AddFloats(values, "VEC3", values.size() / 3);
  }
  template <typename T>
  size_t Integers(const std::vector<T>& values, int component_type, const char* type,
                  size_t components, bool normalized = false) {
    json accessor = {{"bufferView", gltf_.AddView(values)},
                     {"componentType", component_type},
                     {"count", values.size() / components},
                     {"type", type}};
    if (normalized) accessor["normalized"] = true;
    return gltf_.AddAccessor(accessor);
  }
  // A primitive with POSITION (and the given other attributes); returns its index.
  size_t AddPrimitive(const std::vector<float>& positions, json more = json::object()) {
    json attributes = {{"POSITION", Vec3(positions)}};
    for (auto& [name, value] : more.items()) attributes[name] = value;
    mesh()["primitives"].push_back({{"attributes", attributes}});
    return mesh()["primitives"].size() - 1;
  }

  MorphMesh Read() {
    ReadOptions options;
    options.source = "shape.gltf";
    const Asset asset = ReadGltf(gltf_.Text(), options);
    const auto* document = dynamic_cast<const GltfDocument*>(asset.source_document.get());
    EXPECT_NE(document, nullptr);
    return ReadGltfMorphMesh(*document, 0, "shape.gltf");
  }

  // The location and message of a read that must fail with bad input.
  std::pair<std::string, std::string> ReadError() {
    try {
      Read();
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_EQ(error.source(), "shape.gltf");
      return {error.location(), error.message()};
    }
    ADD_FAILURE() << "no error";
    return {};
  }

 private:
  GltfFixture gltf_;
};

const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
const std::vector<float> kUp = {0, 0, 1, 0, 0, 1, 0, 0, 1};

TEST(GltfMeshTest, MergesPrimitivesAndOffsetsIndices) {
  MeshFixture fixture;
  const size_t first = fixture.AddPrimitive(kTriangle, {{"NORMAL", fixture.Vec3(kUp)}});
  fixture.primitive(first)["indices"] =
      fixture.Integers(std::vector<uint16_t>{2, 1, 0}, 5123, "SCALAR", 1);
  // The second primitive has no indices: its vertices are its triangles, in order.
  fixture.AddPrimitive({5, 0, 0, 6, 0, 0, 5, 1, 0}, {{"NORMAL", fixture.Vec3(kUp)}});
  const MorphMesh mesh = fixture.Read();
  EXPECT_EQ(mesh.vertex_count(), 6u);
  EXPECT_EQ(mesh.positions[9], 5.0);
  EXPECT_EQ(mesh.indices, (std::vector<uint32_t>{2, 1, 0, 3, 4, 5}));
  EXPECT_EQ(mesh.normals.size(), 18u);
  EXPECT_TRUE(mesh.colors.empty());
  EXPECT_TRUE(mesh.targets.empty());
  EXPECT_TRUE(mesh.default_weights.empty());
}

TEST(GltfMeshTest, TargetsMissingFromAPrimitiveAddZerosThere) {
  MeshFixture fixture;
  const size_t first = fixture.AddPrimitive(kTriangle, {{"NORMAL", fixture.Vec3(kUp)}});
  const size_t second = fixture.AddPrimitive(kTriangle, {{"NORMAL", fixture.Vec3(kUp)}});
  fixture.primitive(first)["targets"] = {{{"POSITION", fixture.Vec3({0, 0, 1, 0, 0, 2, 0, 0, 3})}},
                                         {{"NORMAL", fixture.Vec3({1, 0, 0, 1, 0, 0, 1, 0, 0})}}};
  fixture.primitive(second)["targets"] = {json::object(),
                                          {{"NORMAL", fixture.Vec3({0, 1, 0, 0, 1, 0, 0, 1, 0})}}};
  fixture.mesh()["weights"] = {0.25, -1.5};
  const MorphMesh mesh = fixture.Read();
  ASSERT_EQ(mesh.targets.size(), 2u);
  EXPECT_EQ(mesh.targets[0].position_deltas,
            (std::vector<double>{0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(mesh.targets[0].normal_deltas.empty());  // no primitive moves its normals
  EXPECT_TRUE(mesh.targets[1].position_deltas.empty());
  EXPECT_EQ(mesh.targets[1].normal_deltas,
            (std::vector<double>{1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(mesh.default_weights, (std::vector<double>{0.25, -1.5}));
}

TEST(GltfMeshTest, MissingMeshWeightsAreZeros) {
  MeshFixture fixture;
  const size_t p = fixture.AddPrimitive(kTriangle);
  fixture.primitive(p)["targets"] = {{{"POSITION", fixture.Vec3(kUp)}}};
  EXPECT_EQ(fixture.Read().default_weights, (std::vector<double>{0}));
}

TEST(GltfMeshTest, NormalsOnlyWhenEveryPrimitiveHasThem) {
  MeshFixture fixture;
  const size_t first = fixture.AddPrimitive(kTriangle, {{"NORMAL", fixture.Vec3(kUp)}});
  // json::array() spelled out: a one-element brace list is an array with GCC but the element
  // itself with clang.
  fixture.primitive(first)["targets"] = json::array({{{"NORMAL", fixture.Vec3(kUp)}}});
  const size_t second = fixture.AddPrimitive(kTriangle);
  fixture.primitive(second)["targets"] = json::array({json::object()});
  const MorphMesh mesh = fixture.Read();
  EXPECT_TRUE(mesh.normals.empty());
  EXPECT_TRUE(mesh.targets[0].normal_deltas.empty());
}

TEST(GltfMeshTest, ColorsDecodeByComponentTypeAndDefaultToWhite) {
  MeshFixture fixture;
  // Unsigned short is c / 65535 (the seed article's c / 65536 never reaches 1).
  fixture.AddPrimitive(
      kTriangle, {{"COLOR_0", fixture.Integers(
                                  std::vector<uint16_t>{65535, 32768, 0, 65535, 0, 65535, 0, 0,  //
                                                        1, 2, 3, 4},
                                  5123, "VEC4", 4, true)}});
  // VEC3 unsigned bytes get alpha 1.
  fixture.AddPrimitive(
      kTriangle,
      {{"COLOR_0", fixture.Integers(std::vector<uint8_t>{255, 0, 51, 0, 255, 0, 0, 0, 255}, 5121,
                                    "VEC3", 3, true)}});
  fixture.AddPrimitive(kTriangle);  // no COLOR_0: white
  const MorphMesh mesh = fixture.Read();
  ASSERT_EQ(mesh.colors.size(), 36u);
  EXPECT_EQ(mesh.colors[0], 1.0);
  EXPECT_EQ(mesh.colors[1], 32768 / 65535.0);
  EXPECT_EQ(mesh.colors[3], 1.0);
  EXPECT_EQ(mesh.colors[7], 0.0);
  EXPECT_EQ(mesh.colors[12], 1.0);
  EXPECT_EQ(mesh.colors[14], 0.2);
  EXPECT_EQ(mesh.colors[15], 1.0);
  for (size_t i = 24; i < 36; ++i) EXPECT_EQ(mesh.colors[i], 1.0);
}

TEST(GltfMeshTest, OnlyTrianglesCanBeBaked) {
  MeshFixture fixture;
  const size_t p = fixture.AddPrimitive(kTriangle);
  fixture.primitive(p)["mode"] = 5;  // TRIANGLE_STRIP
  const auto [where, what] = fixture.ReadError();
  EXPECT_EQ(where, "/meshes/0/primitives/0/mode");
  EXPECT_NE(what.find("only TRIANGLES (4)"), std::string::npos) << what;
}

TEST(GltfMeshTest, DracoPrimitivesAreRefused) {
  MeshFixture fixture;
  const size_t p = fixture.AddPrimitive(kTriangle);
  fixture.primitive(p)["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
  const auto [where, what] = fixture.ReadError();
  EXPECT_EQ(where, "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression");
  EXPECT_NE(what.find("Draco"), std::string::npos) << what;
}

TEST(GltfMeshTest, IndicesPastThePrimitiveAreRefused) {
  MeshFixture fixture;
  fixture.AddPrimitive(kTriangle);
  const size_t p = fixture.AddPrimitive(kTriangle);
  // Index 3 exists in the merged mesh but not in this primitive.
  const size_t indices = fixture.Integers(std::vector<uint8_t>{0, 1, 3}, 5121, "SCALAR", 1);
  fixture.primitive(p)["indices"] = indices;
  const auto [where, what] = fixture.ReadError();
  EXPECT_EQ(where, "/accessors/" + std::to_string(indices));
  EXPECT_NE(what.find("index 2 is 3, past the primitive's 3 vertices"), std::string::npos) << what;
}

TEST(GltfMeshTest, IndicesMustMakeWholeTriangles) {
  MeshFixture fixture;
  const size_t p = fixture.AddPrimitive(kTriangle);
  fixture.primitive(p)["indices"] =
      fixture.Integers(std::vector<uint16_t>{0, 1, 2, 0}, 5123, "SCALAR", 1);
  EXPECT_EQ(fixture.ReadError().first, "/meshes/0/primitives/0/indices");
  MeshFixture unindexed;
  unindexed.AddPrimitive({0, 0, 0, 1, 0, 0});
  EXPECT_EQ(unindexed.ReadError().first, "/meshes/0/primitives/0");
}

TEST(GltfMeshTest, AttributeTypesAndCountsAreChecked) {
  MeshFixture flat;
  const size_t position = flat.gltf().AddFloats({0, 0, 1, 0, 0, 1}, "VEC2", 3);
  flat.mesh()["primitives"].push_back({{"attributes", {{"POSITION", position}}}});
  EXPECT_EQ(flat.ReadError().first, "/meshes/0/primitives/0/attributes/POSITION");

  MeshFixture short_normals;
  short_normals.AddPrimitive(kTriangle, {{"NORMAL", short_normals.Vec3({0, 0, 1})}});
  const auto [where, what] = short_normals.ReadError();
  EXPECT_EQ(where, "/meshes/0/primitives/0/attributes/NORMAL");
  EXPECT_NE(what.find("has 1 elements; the primitive has 3 vertices"), std::string::npos) << what;

  MeshFixture raw_color;  // COLOR_0 integers must be normalized
  raw_color.AddPrimitive(
      kTriangle,
      {{"COLOR_0", raw_color.Integers(std::vector<uint16_t>(12, 1), 5123, "VEC4", 4, false)}});
  EXPECT_EQ(raw_color.ReadError().first, "/meshes/0/primitives/0/attributes/COLOR_0");

  MeshFixture short_target;
  const size_t p = short_target.AddPrimitive(kTriangle);
  short_target.primitive(p)["targets"] = {{{"POSITION", short_target.Vec3({0, 0, 1})}}};
  EXPECT_EQ(short_target.ReadError().first, "/meshes/0/primitives/0/targets/0/POSITION");
}

TEST(GltfMeshTest, NonFiniteValuesAreRefused) {
  MeshFixture fixture;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const size_t p = fixture.AddPrimitive(kTriangle);
  const size_t deltas = fixture.Vec3({0, 0, 0, 0, nan, 0, 0, 0, 0});
  fixture.primitive(p)["targets"] = {{{"POSITION", deltas}}};
  const auto [where, what] = fixture.ReadError();
  EXPECT_EQ(where, "/accessors/" + std::to_string(deltas));
  EXPECT_NE(what.find("element 1 is not a finite number"), std::string::npos) << what;
}

TEST(GltfMeshTest, ZeroFilledTargetsCannotClaimUnboundedMemory) {
  // 110 targets that only a 3-vertex primitive moves: zero-filling them for a 30,000-vertex
  // primitive would take 110 * 30,000 * 24 bytes (79 MB) for a file of under 400 KB.
  MeshFixture fixture;
  const size_t small = fixture.AddPrimitive(kTriangle);
  const size_t lift = fixture.Vec3(kUp);
  const size_t large = fixture.AddPrimitive(std::vector<float>(3 * 30000, 0.5f));
  for (size_t t = 0; t < 110; ++t) {
    fixture.primitive(small)["targets"].push_back({{"POSITION", lift}});
    fixture.primitive(large)["targets"].push_back(json::object());
  }
  const auto [where, what] = fixture.ReadError();
  EXPECT_EQ(where.rfind("/meshes/0/primitives/1/targets/", 0), 0u) << where;
  EXPECT_NE(what.find("need more memory than this file's data can justify"), std::string::npos)
      << what;
}

}  // namespace
}  // namespace animconv
