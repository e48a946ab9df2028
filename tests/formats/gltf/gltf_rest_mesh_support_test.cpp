// Where a glTF's meshes stand at rest, node by node (formats/gltf/gltf_rest_mesh_support.h): what
// --ground stands on the floor when the feet carry meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::ReadFixture;

constexpr int kUnsignedByte = 5121;

// Root at y = 1, Foot 0.9 below it, Shoe (an unskinned mesh) under the foot, and Body, a skinned
// mesh on Root and Foot drawn by a node moved to (5, 5, 5), which glTF ignores for skinned
// primitives (§3.7.3.3). The foot's inverse bind matrix is a bind pose 0.2 m up, so at rest the
// foot's vertices sit 0.1 m lower than their bind positions.
GltfFixture Figure() {
  GltfFixture gltf;
  gltf.AddNodes({"Root", "Foot", "Shoe", "Body"});
  json& nodes = gltf.document()["nodes"];
  nodes[0]["translation"] = {0, 1, 0};
  nodes[0]["children"] = {1};
  nodes[1]["translation"] = {0, -0.9, 0};
  nodes[1]["children"] = {2};
  nodes[3]["translation"] = {5, 5, 5};
  const size_t shoe = gltf.AddAttribute({-0.05f, -0.1f, 0, 0.05f, -0.08f, 0.2f}, "VEC3", 3, true);
  // Vertex 0 on the foot alone, vertex 1 three quarters on the root, vertex 2 with no weight.
  const size_t body = gltf.AddAttribute({0, 0.05f, 0, 0, 1.2f, 0, 9, 9, 9}, "VEC3", 3, true);
  const std::vector<uint8_t> joints = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  const std::vector<float> weights = {1, 0, 0, 0, 0.75f, 0.25f, 0, 0, 0, 0, 0, 0};
  const size_t joint_accessor = gltf.AddAccessor({{"bufferView", gltf.AddView(joints)},
                                                  {"componentType", kUnsignedByte},
                                                  {"count", 3},
                                                  {"type", "VEC4"}});
  const size_t weight_accessor = gltf.AddAttribute(weights, "VEC4", 4, false);
  const std::vector<float> inverse_bind = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1,    0, 1,
                                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.2f, 0, 1};
  const size_t matrices = gltf.AddAccessor({{"bufferView", gltf.AddView(inverse_bind)},
                                            {"componentType", 5126},
                                            {"count", 2},
                                            {"type", "MAT4"}});
  gltf.document()["skins"] = {{{"joints", {0, 1}}, {"inverseBindMatrices", matrices}}};
  gltf.document()["meshes"] = {
      {{"primitives", {{{"attributes", {{"POSITION", shoe}}}}}}},
      {{"primitives",
        {{{"attributes",
           {{"POSITION", body}, {"JOINTS_0", joint_accessor}, {"WEIGHTS_0", weight_accessor}}}}}}}};
  nodes[2]["mesh"] = 0;
  nodes[3]["mesh"] = 1;
  nodes[3]["skin"] = 0;
  return gltf;
}

// The fixture read with the support points asked for (as --ground asks); its warnings, if asked.
Asset Read(const GltfFixture& gltf, Diagnostics* diagnostics = nullptr) {
  ReadOptions options;
  options.source = "test.gltf";
  options.rest_mesh_support = true;
  options.diagnostics = diagnostics;
  return ReadGltf(gltf.Text(), options);
}

// The node's support points are `expected`, in any order.
void ExpectPoints(const Node& node, const std::vector<Vec3>& expected) {
  ASSERT_EQ(node.rest_mesh_support.size(), expected.size()) << node.name;
  for (const Vec3& want : expected) {
    const bool found = std::any_of(
        node.rest_mesh_support.begin(), node.rest_mesh_support.end(), [&](const Vec3& got) {
          return std::abs(got[0] - want[0]) < 1e-6 && std::abs(got[1] - want[1]) < 1e-6 &&
                 std::abs(got[2] - want[2]) < 1e-6;
        });
    EXPECT_TRUE(found) << node.name << ": no point at " << want[0] << ", " << want[1] << ", "
                       << want[2];
  }
}

TEST(GltfRestMeshSupportTest, EachVertexMovesWithItsNodeOrItsHeaviestJoint) {
  Diagnostics warnings;
  const Asset asset = Read(Figure(), &warnings);
  const std::vector<Node>& nodes = asset.rig.nodes;
  // The shoe's vertices through its node's rest matrix (the foot is at y = 0.1): each is the
  // lowest along some direction about down.
  ExpectPoints(nodes[2], {{-0.05, 0, 0}, {0.05, 0.02, 0.2}});
  // Vertex 0: the foot's jointWorld (0.1 up) · inverseBind (0.2 down) moves it 0.1 down.
  ExpectPoints(nodes[1], {{0, -0.05, 0}});
  // Vertex 1: 0.75 · root (no move) + 0.25 · foot (0.1 down), on the root, its heaviest joint.
  ExpectPoints(nodes[0], {{0, 1.175, 0}});
  // The skinned mesh's own node moves none of them; the weightless vertex belongs to no node.
  EXPECT_TRUE(nodes[3].rest_mesh_support.empty());
  EXPECT_TRUE(warnings.empty()) << warnings.front().text;
  // Not asked for (every command but --ground), nothing is decoded.
  for (const Node& node : ReadFixture(Figure()).rig.nodes) {
    EXPECT_TRUE(node.rest_mesh_support.empty()) << node.name;
  }
}

// The points refine the rig; a mesh that cannot be decoded is left out with a warning (only
// --ground asks for them, and its user must know the soles it could not measure), and the
// animation and the rest of the file read as before.
TEST(GltfRestMeshSupportTest, AMeshThatCannotBeDecodedIsLeftOutWithAWarning) {
  GltfFixture gltf = Figure();
  gltf.document()["skins"][0]["joints"] = {0, 7};
  Diagnostics warnings;
  const Asset asset = Read(gltf, &warnings);
  EXPECT_TRUE(asset.rig.nodes[0].rest_mesh_support.empty());
  EXPECT_FALSE(asset.rig.nodes[2].rest_mesh_support.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].severity, Severity::kWarning);
  EXPECT_NE(warnings[0].text.find("/skins/0/joints/1"), std::string::npos) << warnings[0].text;
  EXPECT_NE(warnings[0].text.find("mesh 1 (drawn by node 3)"), std::string::npos)
      << warnings[0].text;

  GltfFixture short_weights = Figure();
  short_weights.document()["meshes"][1]["primitives"][0]["attributes"]["WEIGHTS_0"] =
      short_weights.AddAttribute({1, 0, 0, 0}, "VEC4", 4, false);
  Diagnostics shorter;
  Read(short_weights, &shorter);
  ASSERT_EQ(shorter.size(), 1u);
  EXPECT_NE(shorter[0].text.find("WEIGHTS_0"), std::string::npos) << shorter[0].text;
}

// Draco primitives keep their data in the extension, which is not decoded: their accessors'
// zeros would be a floor at the origin, so they are left out with a warning (a review found them
// left out without one: the shoes sank). An uncompressed fallback (the accessors keep their
// bufferViews) is read.
TEST(GltfRestMeshSupportTest, DracoPrimitivesAreReadFromTheirFallbackOrLeftOutWithAWarning) {
  GltfFixture gltf = Figure();
  gltf.document()["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
  gltf.document()["extensionsUsed"] = {"KHR_draco_mesh_compression"};
  Diagnostics none;
  const Asset fallback = Read(gltf, &none);
  EXPECT_FALSE(fallback.rig.nodes[2].rest_mesh_support.empty());
  EXPECT_TRUE(none.empty()) << none.front().text;

  const size_t shoe = gltf.document()["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
  gltf.document()["accessors"][shoe].erase("bufferView");
  Diagnostics warnings;
  const Asset compressed = Read(gltf, &warnings);
  EXPECT_TRUE(compressed.rig.nodes[2].rest_mesh_support.empty());
  EXPECT_FALSE(compressed.rig.nodes[1].rest_mesh_support.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].text.find("Draco"), std::string::npos) << warnings[0].text;
}

}  // namespace
}  // namespace animconv
