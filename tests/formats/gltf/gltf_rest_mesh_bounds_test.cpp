// Where a glTF's meshes stand at rest, node by node (formats/gltf/gltf_rest_mesh_bounds.h): what
// --ground stands on the floor when the feet carry meshes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

void ExpectBox(const Node& node, const Vec3& low, const Vec3& high) {
  ASSERT_TRUE(node.rest_mesh_bounds.has_value()) << node.name;
  for (size_t axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR((*node.rest_mesh_bounds)[0][axis], low[axis], 1e-6) << node.name << " " << axis;
    EXPECT_NEAR((*node.rest_mesh_bounds)[1][axis], high[axis], 1e-6) << node.name << " " << axis;
  }
}

TEST(GltfRestMeshBoundsTest, EachVertexMovesWithItsNodeOrItsHeaviestJoint) {
  const Asset asset = ReadFixture(Figure());
  const std::vector<Node>& nodes = asset.rig.nodes;
  // The shoe's vertices through its node's rest matrix: the foot is at y = 0.1.
  ExpectBox(nodes[2], {-0.05, 0, 0}, {0.05, 0.02, 0.2});
  // Vertex 0: the foot's jointWorld (0.1 up) · inverseBind (0.2 down) moves it 0.1 down.
  ExpectBox(nodes[1], {0, -0.05, 0}, {0, -0.05, 0});
  // Vertex 1: 0.75 · root (no move) + 0.25 · foot (0.1 down), on the root, its heaviest joint.
  ExpectBox(nodes[0], {0, 1.175, 0}, {0, 1.175, 0});
  // The skinned mesh's own node moves none of them; the weightless vertex belongs to no node.
  EXPECT_FALSE(nodes[3].rest_mesh_bounds.has_value());
  EXPECT_TRUE(asset.notes.empty()) << asset.notes.front();
}

// The bounds refine the rig; a mesh that cannot be decoded is left out with a note, and the
// animation and the rest of the file read as before.
TEST(GltfRestMeshBoundsTest, AMeshThatCannotBeDecodedIsLeftOutWithANote) {
  GltfFixture gltf = Figure();
  gltf.document()["skins"][0]["joints"] = {0, 7};
  const Asset asset = ReadFixture(gltf);
  EXPECT_FALSE(asset.rig.nodes[0].rest_mesh_bounds.has_value());
  EXPECT_TRUE(asset.rig.nodes[2].rest_mesh_bounds.has_value());
  ASSERT_EQ(asset.notes.size(), 1u);
  EXPECT_NE(asset.notes[0].find("/skins/0/joints/1"), std::string::npos) << asset.notes[0];
  EXPECT_NE(asset.notes[0].find("mesh 1 (drawn by node 3)"), std::string::npos) << asset.notes[0];

  GltfFixture short_weights = Figure();
  short_weights.document()["meshes"][1]["primitives"][0]["attributes"]["WEIGHTS_0"] =
      short_weights.AddAttribute({1, 0, 0, 0}, "VEC4", 4, false);
  const Asset shorter = ReadFixture(short_weights);
  ASSERT_EQ(shorter.notes.size(), 1u);
  EXPECT_NE(shorter.notes[0].find("WEIGHTS_0"), std::string::npos) << shorter.notes[0];
}

// Draco primitives keep their data in the extension, which is not decoded: their accessors'
// zeros would be a floor at the origin.
TEST(GltfRestMeshBoundsTest, DracoPrimitivesAreLeftOut) {
  GltfFixture gltf = Figure();
  gltf.document()["meshes"][0]["primitives"][0]["extensions"] = {
      {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
  gltf.document()["extensionsUsed"] = {"KHR_draco_mesh_compression"};
  const Asset asset = ReadFixture(gltf);
  EXPECT_FALSE(asset.rig.nodes[2].rest_mesh_bounds.has_value());
  EXPECT_TRUE(asset.rig.nodes[1].rest_mesh_bounds.has_value());
}

}  // namespace
}  // namespace animconv
