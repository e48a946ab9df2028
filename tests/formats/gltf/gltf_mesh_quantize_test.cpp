// --compress-meshes quantizes the meshes a glTF passes through (formats/gltf/gltf_mesh_quantize.h):
// each attribute within its bound, the positions' grid moved into the node that draws them.
// Checked here by decoding the output the way glTF 2.0 and KHR_mesh_quantization define it, and
// placing every vertex with the node's own transform; tests/interop/check_compress.mjs checks the
// morph animals and RobotExpressive with three.js GLTFLoader and the Khronos validator.
#include "formats/gltf/gltf_mesh_quantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "animconv/quaternion.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_mesh_quantize_support.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using mesh_test::AngleDegrees;
using mesh_test::Distance;
using mesh_test::Extent;
using mesh_test::kVertices;
using mesh_test::Output;
using mesh_test::Place;
using mesh_test::Render;
using mesh_test::ShapeFixture;
using mesh_test::SkinnedFixture;
using mesh_test::Turn;
using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

constexpr double kPi = 3.14159265358979323846;

TEST(GltfMeshQuantizeTest, EveryAttributeWithinItsBoundAndTheGridInTheNode) {
  const GltfFixture gltf = ShapeFixture();
  const Output plain = Render(gltf, false);
  const Output quantized = Render(gltf, true);
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    const json& names = quantized.document[list];
    EXPECT_NE(std::find(names.begin(), names.end(), "KHR_mesh_quantization"), names.end()) << list;
    EXPECT_FALSE(plain.document.contains(list) &&
                 std::find(plain.document[list].begin(), plain.document[list].end(),
                           "KHR_mesh_quantization") != plain.document[list].end());
  }
  const size_t position = quantized.Attribute("POSITION");
  EXPECT_EQ(quantized.Type(position), kGltfUnsignedShort);
  EXPECT_EQ(quantized.Type(quantized.Target(0, "POSITION")), kGltfShort);
  EXPECT_EQ(quantized.Type(quantized.Attribute("NORMAL")), kGltfByte);
  EXPECT_EQ(quantized.Type(quantized.Attribute("TEXCOORD_0")), kGltfUnsignedShort);
  EXPECT_EQ(quantized.Type(quantized.Attribute("COLOR_0")), kGltfUnsignedByte);
  // Normal deltas 8-bit: within the chord of the normal bound (2 sin(0.25°) = 0.0087).
  EXPECT_EQ(quantized.Type(quantized.Target(0, "NORMAL")), kGltfByte);
  double worst_normal_delta = 0;
  for (size_t i = 0; i < kVertices; ++i) {
    const std::vector<double> a = plain.Element(plain.Target(0, "NORMAL"), i);
    const std::vector<double> b = quantized.Element(quantized.Target(0, "NORMAL"), i);
    worst_normal_delta =
        std::max(worst_normal_delta, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
  }
  EXPECT_LE(worst_normal_delta, 2 * std::sin(0.25 * kPi / 180));
  EXPECT_GT(worst_normal_delta, 0);
  // POSITION's bounds are its stored codes (glTF 2.0 §3.6.2.5), targets' too.
  EXPECT_TRUE(quantized.document["accessors"][position]["min"][0].is_number_integer());
  EXPECT_TRUE(quantized.document["accessors"][quantized.Target(0, "POSITION")]["max"][0]
                  .is_number_integer());
  // The morph deltas follow the positions in their view (one view's JSON, not one per target).
  const json& delta = quantized.document["accessors"][quantized.Target(0, "POSITION")];
  EXPECT_EQ(delta["bufferView"], quantized.document["accessors"][position]["bufferView"]);
  EXPECT_EQ(delta["byteOffset"], kVertices * 8);
  // Six attribute views become two: one of 8-byte elements (positions, position deltas), one of
  // 4-byte elements (8-bit normals and normal deltas, 16-bit texture coordinates, 8-bit colours).
  EXPECT_EQ(quantized.document["bufferViews"].size() + 4, plain.document["bufferViews"].size());
  // Vertex views are 4-byte aligned: three 16-bit components take 8 bytes.
  EXPECT_EQ(
      quantized.document["bufferViews"][quantized.document["accessors"][position]["bufferView"]
                                            .get<size_t>()]["byteStride"],
      8);

  const json& plain_node = plain.document["nodes"][1];
  const json& node = quantized.document["nodes"][1];
  const double bound = 1e-4 * Extent(plain) * 2;  // the node's largest scale is 2
  double worst_position = 0, worst_delta = 0, worst_normal = 0, worst_uv = 0, worst_color = 0;
  for (size_t i = 0; i < kVertices; ++i) {
    worst_position = std::max(
        worst_position, Distance(Place(plain_node, plain.Element(plain.Attribute("POSITION"), i)),
                                 Place(node, quantized.Element(position, i))));
    worst_delta = std::max(
        worst_delta, Distance(Turn(plain_node, plain.Element(plain.Target(0, "POSITION"), i)),
                              Turn(node, quantized.Element(quantized.Target(0, "POSITION"), i))));
    worst_normal =
        std::max(worst_normal, AngleDegrees(plain.Element(plain.Attribute("NORMAL"), i),
                                            quantized.Element(quantized.Attribute("NORMAL"), i)));
    for (const auto& [name, worst] :
         {std::pair<const char*, double*>{"TEXCOORD_0", &worst_uv}, {"COLOR_0", &worst_color}}) {
      const std::vector<double> a = plain.Element(plain.Attribute(name), i);
      const std::vector<double> b = quantized.Element(quantized.Attribute(name), i);
      for (size_t c = 0; c < a.size(); ++c) *worst = std::max(*worst, std::abs(a[c] - b[c]));
    }
  }
  EXPECT_LE(worst_position, bound);
  EXPECT_GT(worst_position, 0);  // lossy, really
  EXPECT_LE(worst_delta, bound);
  EXPECT_LE(worst_normal, 0.5);
  EXPECT_LE(worst_uv, 1e-5);
  EXPECT_LE(worst_color, 0.002);
  // The node keeps its rotation; the rest of the scene is untouched.
  EXPECT_EQ(node["rotation"], plain_node["rotation"]);
  EXPECT_EQ(quantized.document["nodes"][0], plain.document["nodes"][0]);
  const std::string note = quantized.Note();
  EXPECT_NE(note.find("positions of 1 mesh(es) on a grid of"), std::string::npos) << note;
  EXPECT_NE(note.find("bound 0.0001"), std::string::npos) << note;
  EXPECT_EQ(plain.Note(), "");
}

TEST(GltfMeshQuantizeTest, ANodeMatrixTakesTheGrid) {
  GltfFixture gltf = ShapeFixture();
  json& node = gltf.document()["nodes"][1];
  node.erase("translation"), node.erase("rotation"), node.erase("scale");
  node["matrix"] = {0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 3, 0, 5, 6, 7, 1};  // turned, stretched, moved
  const Output plain = Render(gltf, false);
  const Output quantized = Render(gltf, true);
  const size_t position = quantized.Attribute("POSITION");
  ASSERT_EQ(quantized.Type(position), kGltfUnsignedShort);
  ASSERT_TRUE(quantized.document["nodes"][1].contains("matrix"));
  const double bound = 1e-4 * Extent(plain) * 3;
  for (size_t i = 0; i < kVertices; ++i) {
    EXPECT_LE(
        Distance(Place(plain.document["nodes"][1], plain.Element(plain.Attribute("POSITION"), i)),
                 Place(quantized.document["nodes"][1], quantized.Element(position, i))),
        bound)
        << i;
  }
}

// Where the node cannot take the dequantization, positions (and their deltas) stay float and the
// note says why; the other attributes are still quantized.
TEST(GltfMeshQuantizeTest, PositionsStayFloatWhereTheNodeCannotTakeTheGrid) {
  const struct {
    const char* why;
    void (*change)(GltfFixture&);
  } cases[] = {
      {"its node has children",
       [](GltfFixture& gltf) {
         gltf.AddNodes({"child"});
         gltf.document()["nodes"][1]["children"] = {2};
       }},
      {"its node's transform is animated",
       [](GltfFixture& gltf) {
         gltf.AddChannel(0, 1, "scale", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                         gltf.AddFloats({1, 1, 1, 2, 2, 2}, "VEC3", 2));
       }},
      {"its node is a joint",
       [](GltfFixture& gltf) {
         gltf.document()["skins"] = {{{"joints", {1}}}};
       }},
      {"its node has a camera",
       [](GltfFixture& gltf) {
         gltf.document()["cameras"] = {
             {{"type", "perspective"}, {"perspective", {{"yfov", 1.0}, {"znear", 0.1}}}}};
         gltf.document()["nodes"][1]["camera"] = 0;
       }},
  };
  // (With morph targets: a new child node cannot take the mesh, whose weights are the node's.)
  for (const auto& c : cases) {
    GltfFixture gltf = ShapeFixture();
    c.change(gltf);
    const Output quantized = Render(gltf, true);
    EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat) << c.why;
    EXPECT_EQ(quantized.Type(quantized.Target(0, "POSITION")), kGltfFloat) << c.why;
    EXPECT_EQ(quantized.Type(quantized.Attribute("NORMAL")), kGltfByte) << c.why;
    EXPECT_NE(quantized.Note().find(std::string("positions kept float for mesh 0 (''): ") + c.why),
              std::string::npos)
        << quantized.Note();
  }
}

// The grid is the coarsest that keeps within the bound: a tighter tolerance takes more bits, and
// one no 16-bit grid meets leaves the positions float.
TEST(GltfMeshQuantizeTest, TheToleranceChoosesTheGrid) {
  const GltfFixture gltf = ShapeFixture();
  const auto bits = [&](double tolerance) {
    const std::string note = Render(gltf, true, tolerance).Note();
    const size_t at = note.find("on a grid of ");
    return at == std::string::npos ? 0 : std::stoi(note.substr(at + 13));
  };
  const int loose = bits(1e-2);
  const int tight = bits(1e-4);
  EXPECT_GE(loose, 8);
  EXPECT_LT(loose, tight);
  EXPECT_LE(tight, 16);
  // Not the finest grid of its bits, but the coarsest step within the bound: the displacement
  // sits near the bound, not at half of it or below (the 13-bit grid kept 9.4e-5 of 1.5e-4).
  const std::string note = Render(gltf, true, 1.5e-4).Note();
  const size_t at = note.find("largest displacement ");
  ASSERT_NE(at, std::string::npos) << note;
  const double displacement = std::stod(note.substr(at + 21));
  EXPECT_LE(displacement, 1.5e-4);
  EXPECT_GT(displacement, 0.8 * 1.5e-4) << note;
  const Output impossible = Render(gltf, true, 1e-7);
  EXPECT_EQ(impossible.Type(impossible.Attribute("POSITION")), kGltfFloat);
  EXPECT_NE(impossible.Note().find("no grid of up to 16 bits keeps it within 1e-07"),
            std::string::npos)
      << impossible.Note();
}

// A column-major 4x4 applied to a point.
Vec3 Transform(const std::vector<double>& m, const std::vector<double>& p) {
  Vec3 out;
  for (size_t row = 0; row < 3; ++row) {
    out[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
  }
  return out;
}

TEST(GltfMeshQuantizeTest, ASkinnedMeshTakesTheGridInItsInverseBindMatrices) {
  const GltfFixture gltf = SkinnedFixture();
  const Output plain = Render(gltf, false);
  const Output quantized = Render(gltf, true);
  const size_t position = quantized.Attribute("POSITION");
  ASSERT_EQ(quantized.Type(position), kGltfUnsignedShort) << quantized.Note();
  EXPECT_EQ(quantized.document["nodes"][1], plain.document["nodes"][1]);  // untouched
  const auto matrices = [](const Output& out) {
    return out.Element(out.document["skins"][0]["inverseBindMatrices"].get<size_t>(), 0);
  };
  const std::vector<double> plain_matrix = matrices(plain);
  const std::vector<double> matrix = matrices(quantized);
  EXPECT_NE(plain_matrix, matrix);
  // Skinned, each vertex is drawn at joint * inverse bind * position: the same joint, so the
  // inverse bind matrix times the position must match.
  const double bound = 1e-4 * Extent(plain);
  for (size_t i = 0; i < kVertices; ++i) {
    EXPECT_LE(Distance(Transform(plain_matrix, plain.Element(plain.Attribute("POSITION"), i)),
                       Transform(matrix, quantized.Element(position, i))),
              bound)
        << i;
  }
  EXPECT_NE(quantized.Note().find("1 skinned, the grid in inverse bind matrices"),
            std::string::npos)
      << quantized.Note();
  // The skinned node's own transform is ignored (glTF 2.0 §3.7.3.3; three.js agrees, see
  // gltf_mesh_dequantize.h): moved, or under an animated node, it still takes the grid, in the
  // same inverse bind matrices, and its transform stays as it was.
  GltfFixture moved = SkinnedFixture();
  moved.document()["nodes"][1]["translation"] = {0, 0, 1};
  const Output still = Render(moved, true);
  ASSERT_EQ(still.Type(still.Attribute("POSITION")), kGltfUnsignedShort) << still.Note();
  EXPECT_EQ(matrices(still), matrix);
  EXPECT_EQ(still.document["nodes"][1]["translation"], json::array({0, 0, 1}));
}

// Skin weights: normalized 16-bit where 8-bit would move a weight past the bound, each vertex's
// codes summing to 65535 exactly (the validator's and three.js's normalized weights), a weight
// above 0 never stored as 0 (ACCESSOR_JOINTS_USED_ZERO_WEIGHT); 8-bit where exact; joints below
// 256 as the same numbers in bytes. All core glTF: no KHR_mesh_quantization for them alone.
TEST(GltfMeshQuantizeTest, SkinWeightsKeepTheirSumAndJointsTheirNumbers) {
  GltfFixture gltf = SkinnedFixture();
  json& document = gltf.document();
  document["skins"][0]["joints"] = {0, 1};
  std::vector<float> weights;
  std::vector<uint16_t> joints;
  for (size_t i = 0; i < kVertices; ++i) {
    const float tiny = i == 0 ? 1e-7f : 0.0f;
    const float share = 0.2f + 0.01f * static_cast<float>(i);
    weights.insert(weights.end(), {1 - share - tiny, share, tiny, 0});
    joints.insert(joints.end(), {0, 1, static_cast<uint16_t>(i == 0 ? 1 : 0), 0});
  }
  json& attributes = document["meshes"][0]["primitives"][0]["attributes"];
  attributes["WEIGHTS_0"] = gltf.AddAccessor({{"bufferView", gltf.AddView(weights)},
                                              {"componentType", kGltfFloat},
                                              {"count", kVertices},
                                              {"type", "VEC4"}});
  attributes["JOINTS_0"] = gltf.AddAccessor({{"bufferView", gltf.AddView(joints)},
                                             {"componentType", kGltfUnsignedShort},
                                             {"count", kVertices},
                                             {"type", "VEC4"}});
  document["nodes"].push_back({{"name", "bone"}});
  document["nodes"][0]["children"] = {2};
  const Output quantized = Render(gltf, true);
  const size_t w = quantized.Attribute("WEIGHTS_0");
  ASSERT_EQ(quantized.Type(w), kGltfUnsignedShort) << quantized.Note();
  EXPECT_TRUE(quantized.document["accessors"][w]["normalized"].get<bool>());
  for (size_t i = 0; i < kVertices; ++i) {
    const std::vector<double> stored = quantized.Element(w, i);
    double codes = 0;
    for (size_t c = 0; c < 4; ++c) {
      codes += std::round(stored[c] * 65535);
      EXPECT_LE(std::abs(stored[c] - weights[i * 4 + c]), 1.0 / 65535) << i << " " << c;
      EXPECT_EQ(stored[c] > 0, weights[i * 4 + c] > 0) << i << " " << c;
    }
    EXPECT_EQ(codes, 65535) << i;
  }
  const size_t j = quantized.Attribute("JOINTS_0");
  EXPECT_EQ(quantized.Type(j), kGltfUnsignedByte);
  EXPECT_FALSE(quantized.document["accessors"][j].value("normalized", false));
  for (size_t i = 0; i < kVertices; ++i) {
    const std::vector<double> stored = quantized.Element(j, i);
    for (size_t c = 0; c < 4; ++c) EXPECT_EQ(stored[c], joints[i * 4 + c]) << i << " " << c;
  }
  EXPECT_NE(quantized.Note().find("1 skin weight accessor(s) as normalized 8/16-bit"),
            std::string::npos)
      << quantized.Note();
  // Weights of 0 and 1 only: 8-bit, exactly.
  const Output exact = Render(SkinnedFixture(), true);
  EXPECT_EQ(exact.Type(exact.Attribute("WEIGHTS_0")), kGltfUnsignedByte);
  EXPECT_EQ(exact.Element(exact.Attribute("WEIGHTS_0"), 3), (std::vector<double>{1, 0, 0, 0}));
}

// Review of 1ff69b8, two outputs wrong with exit 0:
// - a skinned node's mesh with a primitive lacking JOINTS_0/WEIGHTS_0, which three.js draws
//   unskinned with the node's transform: the grid in the inverse bind matrices misplaced it;
// - weights each within the bound of a k/255 value took 8 bits while a vertex's errors added up
//   to 3.6 times the bound (a vertex between joints moving apart left the position bound).
TEST(GltfMeshQuantizeTest, ReviewCasesOfSkinnedMeshes) {
  GltfFixture partly = SkinnedFixture();
  json& primitives = partly.document()["meshes"][0]["primitives"];
  json bare = primitives[0];
  bare["attributes"].erase("JOINTS_0");
  bare["attributes"].erase("WEIGHTS_0");
  primitives.push_back(bare);
  const Output kept = Render(partly, true);
  EXPECT_EQ(kept.Type(kept.Attribute("POSITION")), kGltfFloat);
  EXPECT_NE(kept.Note().find("skinned, but a primitive lacks JOINTS_0 or WEIGHTS_0"),
            std::string::npos)
      << kept.Note();

  GltfFixture near = SkinnedFixture();
  near.document()["skins"][0]["joints"] = {0, 1};
  near.document()["nodes"].push_back({{"name", "bone"}});
  near.document()["nodes"][0]["children"] = {2};
  std::vector<float> weights;
  std::vector<uint8_t> joints;
  for (size_t i = 0; i < kVertices; ++i) {
    // 100/255 + 9e-5 and 155/255 - 9e-5: each 9e-5 off an 8-bit code, 1.8e-4 for the vertex
    weights.insert(weights.end(), {100.0f / 255 + 9e-5f, 155.0f / 255 - 9e-5f, 0, 0});
    joints.insert(joints.end(), {0, 1, 0, 0});
  }
  json& attributes = near.document()["meshes"][0]["primitives"][0]["attributes"];
  attributes["WEIGHTS_0"] = near.AddAccessor({{"bufferView", near.AddView(weights)},
                                              {"componentType", kGltfFloat},
                                              {"count", kVertices},
                                              {"type", "VEC4"}});
  attributes["JOINTS_0"] = near.AddAccessor({{"bufferView", near.AddView(joints)},
                                             {"componentType", kGltfUnsignedByte},
                                             {"count", kVertices},
                                             {"type", "VEC4"}});
  const Output sixteen = Render(near, true);
  EXPECT_EQ(sixteen.Type(sixteen.Attribute("WEIGHTS_0")), kGltfUnsignedShort) << sixteen.Note();
  EXPECT_EQ(sixteen.Type(sixteen.Attribute("POSITION")), kGltfUnsignedShort) << sixteen.Note();
}

// --compress leaves out the members equal to glTF's defaults (lossless: a reader takes the default
// where one is absent); the plain output keeps the source's as they are.
TEST(GltfMeshQuantizeTest, CompressLeavesOutDefaultMembers) {
  GltfFixture gltf = ShapeFixture();
  json& document = gltf.document();
  document["nodes"][0]["rotation"] = {0, 0, 0, 1};
  document["nodes"][0]["scale"] = {1, 1, 1};
  document["nodes"][0]["translation"] = {0, 0, 0.5};  // not the default: kept
  document["meshes"][0]["primitives"][0]["mode"] = 4;
  document["accessors"][0]["byteOffset"] = 0;
  document["accessors"][0]["normalized"] = false;
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  Diagnostics notes;
  const json plain = JsonOfGlb(RenderAsset(source, *FindFormat("glb"), ConvertOptions{}, &notes));
  EXPECT_EQ(plain["nodes"][0]["scale"], json::array({1, 1, 1}));
  EXPECT_EQ(plain["meshes"][0]["primitives"][0]["mode"], 4);
  const Output compressed = Render(gltf, false);
  const json& root = compressed.document["nodes"][0];
  EXPECT_FALSE(root.contains("rotation"));
  EXPECT_FALSE(root.contains("scale"));
  EXPECT_EQ(root["translation"], json::array({0, 0, 0.5}));
  EXPECT_FALSE(compressed.document["meshes"][0]["primitives"][0].contains("mode"));
  for (const json& accessor : compressed.document["accessors"]) {
    EXPECT_NE(accessor.value("byteOffset", 1), 0) << accessor;
    EXPECT_NE(accessor.value("normalized", true), false) << accessor;
  }
}

// An accessor shared with a use we do not quantize (here a second mesh's POSITION) is left as it
// is, and so is the view another accessor also reads.
TEST(GltfMeshQuantizeTest, SharedDataIsLeftAsItIs) {
  GltfFixture gltf = ShapeFixture();
  json& meshes = gltf.document()["meshes"];
  meshes.push_back(meshes[0]);
  gltf.document()["nodes"][0]["mesh"] = 1;
  const Output quantized = Render(gltf, true);
  EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat);
  EXPECT_EQ(quantized.Type(quantized.Attribute("NORMAL")), kGltfByte);  // same kind of use
}

// A node that cannot take the grid itself (here: children, and an animated scale) hands its mesh,
// without morph targets, to a new child node that takes it: the node keeps its transform and
// children, and every vertex is drawn where the plain output draws it, within the bound.
TEST(GltfMeshQuantizeTest, ANodeThatCannotTakeTheGridHandsItsMeshToANewChild) {
  GltfFixture gltf = ShapeFixture();
  json& primitive = gltf.document()["meshes"][0]["primitives"][0];
  primitive.erase("targets");
  gltf.document()["meshes"][0].erase("weights");
  gltf.AddNodes({"child"});
  gltf.document()["nodes"][1]["children"] = {2};
  gltf.AddChannel(0, 1, "scale", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({1, 1, 1, 2, 2, 2}, "VEC3", 2));
  const Output plain = Render(gltf, false);
  const Output quantized = Render(gltf, true);
  const size_t position = quantized.Attribute("POSITION");
  ASSERT_EQ(quantized.Type(position), kGltfUnsignedShort) << quantized.Note();
  const json& nodes = quantized.document["nodes"];
  ASSERT_EQ(nodes.size(), 4u);
  const json& shape = nodes[1];
  EXPECT_FALSE(shape.contains("mesh"));
  EXPECT_EQ(shape["children"], json::array({2, 3}));
  for (const char* key : {"translation", "rotation", "scale"}) {
    EXPECT_EQ(shape[key], plain.document["nodes"][1][key]) << key;
  }
  const json& holder = nodes[3];
  EXPECT_EQ(holder["mesh"], 0);
  EXPECT_FALSE(holder.contains("name"));
  const double bound = 1e-4 * Extent(plain);
  const json& plain_shape = plain.document["nodes"][1];
  for (size_t i = 0; i < kVertices; ++i) {
    const Vec3 expected = Place(plain_shape, plain.Element(plain.Attribute("POSITION"), i));
    const Vec3 local = Place(holder, quantized.Element(position, i));
    const Vec3 drawn = Place(shape, {local[0], local[1], local[2]});
    // (the shape's uneven scale stretches the grid's error by at most 2)
    EXPECT_LE(Distance(expected, drawn), 2 * bound) << i;
  }
  EXPECT_NE(quantized.Note().find("1 node(s) that cannot take the dequantization themselves"),
            std::string::npos)
      << quantized.Note();
}

// Review cases (session 22), each an output that was wrong with exit 0 or a crash: positions stay
// float, with the reason in the note, where a node transform cannot take the grid exactly or the
// data is not ours to change.
TEST(GltfMeshQuantizeTest, PositionsStayFloatWhereTheGridWouldShowOrIsNotOursToChange) {
  const struct {
    const char* why;
    void (*change)(GltfFixture&);
  } cases[] = {
      // three.js composes the rotation as written: folding with a normalised one moved vertices
      // by 0.235 of the mesh's size.
      {"its node's rotation is not a unit quaternion",
       [](GltfFixture& gltf) {
         gltf.document()["nodes"][1]["rotation"] = {0, 0, 0.7171, 0.7171};
       }},
      // KHR_materials_volume's thickness is in mesh units: the node's scale would scale it.
      {"KHR_materials_volume, whose thickness is in mesh units",
       [](GltfFixture& gltf) {
         gltf.document()["materials"] = {
             {{"extensions", {{"KHR_materials_volume", {{"thicknessFactor", 0.5}}}}}}};
         gltf.document()["extensionsUsed"] = {"KHR_materials_volume"};
         gltf.document()["meshes"][0]["primitives"][0]["material"] = 0;
       }},
      // Draco's fallback accessors must match what it decodes.
      {"Draco-compressed",
       [](GltfFixture& gltf) {
         gltf.document()["extensionsUsed"] = {"KHR_draco_mesh_compression"};
         gltf.document()["meshes"][0]["primitives"][0]["extensions"] = {
             {"KHR_draco_mesh_compression",
              {{"bufferView", gltf.AddView(std::string(8, '\0'))},
               {"attributes", {{"POSITION", 0}}}}}};
       }},
      // A float step that is no normal float32 (a mesh 1e-41 across) is no grid.
      {"its size is too small for a float32 grid step",
       [](GltfFixture& gltf) {
         std::vector<float> tiny;
         for (size_t i = 0; i < kVertices; ++i) {
           tiny.insert(tiny.end(), {1e-41f * static_cast<float>(i % 7), 0.0f, 0.0f});
         }
         json& attributes = gltf.document()["meshes"][0]["primitives"][0]["attributes"];
         gltf.document()["meshes"][0]["primitives"][0].erase("targets");
         gltf.document()["meshes"][0].erase("weights");
         attributes["POSITION"] = gltf.AddAccessor({{"bufferView", gltf.AddView(tiny)},
                                                    {"componentType", kGltfFloat},
                                                    {"count", kVertices},
                                                    {"type", "VEC3"},
                                                    {"min", {0, 0, 0}},
                                                    {"max", {6e-41, 0, 0}}});
       }},
  };
  // (With morph targets: a new child node cannot take the mesh, whose weights are the node's.)
  for (const auto& c : cases) {
    GltfFixture gltf = ShapeFixture();
    c.change(gltf);
    const Output quantized = Render(gltf, true);
    EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat) << c.why;
    EXPECT_NE(quantized.Note().find(c.why), std::string::npos) << c.why << ": " << quantized.Note();
  }
}

// A VRM's extensions give nodes and materials roles (humanoid bones, spring joints, MToon blend
// modes) that moving a node or reordering triangles would break: nothing is quantized.
TEST(GltfMeshQuantizeTest, AVrmIsLeftAsItIs) {
  GltfFixture gltf = ShapeFixture();
  gltf.document()["extensionsUsed"] = {"VRMC_springBone"};
  gltf.document()["extensions"] = {{"VRMC_springBone", {{"specVersion", "1.0"}}}};
  const Output quantized = Render(gltf, true);
  EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat);
  EXPECT_EQ(quantized.Type(quantized.Attribute("NORMAL")), kGltfFloat);
  EXPECT_NE(quantized.Note().find("nothing quantized: a VRM file"), std::string::npos)
      << quantized.Note();
}

// Members of the wrong type are left as they are, not an internal error: a material that is no
// object, and a POSITION whose `normalized` is no boolean.
TEST(GltfMeshQuantizeTest, MembersOfTheWrongTypeAreLeftAsTheyAre) {
  GltfFixture gltf = ShapeFixture();
  gltf.document()["materials"] = {true};
  gltf.document()["meshes"][0]["primitives"][0]["material"] = 0;
  const size_t position = gltf.document()["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
  gltf.document()["accessors"][position]["normalized"] = 0;
  const Output quantized = Render(gltf, true);
  EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat);
}

// Texture coordinates and colours as normalized integers are core glTF 2.0: alone, they do not
// make KHR_mesh_quantization required (a reader without it would refuse the file for nothing).
TEST(GltfMeshQuantizeTest, CoreTypesAloneDoNotRequireTheExtension) {
  GltfFixture gltf = ShapeFixture();
  json& primitive = gltf.document()["meshes"][0]["primitives"][0];
  primitive["attributes"].erase("NORMAL");
  primitive.erase("targets");
  gltf.document()["meshes"][0].erase("weights");
  // (no grid is that fine: positions stay float)
  const Output quantized = Render(gltf, true, 1e-12);
  ASSERT_EQ(quantized.Type(quantized.Attribute("TEXCOORD_0")), kGltfUnsignedShort);
  ASSERT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat);
  const json& required = quantized.document.value("extensionsRequired", json::array());
  EXPECT_EQ(std::find(required.begin(), required.end(), "KHR_mesh_quantization"), required.end());
}

}  // namespace
}  // namespace animconv
