// Morph weights channels paired by the mesh they drive (libconvert/clip_diff_morph.cpp).
#include <gtest/gtest.h>

#include "animconv/clip_diff.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

ClipDiff Diff(const Asset& a, const Asset& b) {
  return DiffClips(a, a.clips[0], b, b.clips[0], DiffOptions{});
}

// --- Morph weights pair by mesh (issue 13 item 4) ---

// A glTF node with an unnamed mesh and two morph targets, its weights channel going 0 -> 1.
Asset GltfMorphNode() {
  Asset asset = MakeAsset({"node_0"});
  asset.rig.nodes[0].generated_name = true;
  asset.rig.nodes[0].mesh = MeshInfo{"", 0, 1};
  asset.rig.nodes[0].morph_target_count = 2;
  asset.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0, 1, 1, 0}, 2)};
  return asset;
}

TEST(ClipDiffMorphTest, MorphWeightsPairWithTheThreeJsTrackOfTheirMesh) {
  // The three.js conversion names the track after the mesh object GLTFLoader makes: "mesh_0".
  const Asset gltf = GltfMorphNode();
  Asset three = MakeAsset({"mesh_0"});
  three.rig.nodes[0].morph_target_count = 2;
  three.clips[0].channels = gltf.clips[0].channels;
  const ClipDiff diff = Diff(gltf, three);
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_EQ(diff.channels[0].node, "node_0");
  EXPECT_EQ(diff.channels[0].node_b, "mesh_0");
  EXPECT_EQ(diff.overall.at("weight").max, 0);
  EXPECT_TRUE(diff.only_in_a.empty());
  EXPECT_TRUE(diff.only_in_b.empty());
  // A named mesh goes by its name.
  Asset named = gltf;
  named.rig.nodes[0].mesh->name = "Face";
  three.rig.nodes[0].name = "Face";
  EXPECT_EQ(Diff(named, three).overall.at("weight").max, 0);
  EXPECT_EQ(Diff(three, named).overall.at("weight").max, 0);
}

TEST(ClipDiffMorphTest, EveryPrimitiveTrackOfAThreeJsMeshPairsWithTheNodesWeights) {
  // MorphStressTest: node "Main" shows mesh "Cube.001" of two primitives; three.js names the
  // objects "Cube001" and "Cube001_1" (sanitised, then made unique) and writes a track for each.
  Asset gltf = GltfMorphNode();
  gltf.rig.nodes[0].name = "Main";
  gltf.rig.nodes[0].mesh = MeshInfo{"Cube.001", 0, 2};
  Asset three = MakeAsset({"Cube001", "Cube001_1"});
  for (Node& node : three.rig.nodes) node.morph_target_count = 2;
  three.clips[0].channels = {gltf.clips[0].channels[0], gltf.clips[0].channels[0]};
  three.clips[0].channels[1].node = 1;
  three.clips[0].channels[1].values[1] = 0.75;  // the second primitive's track is off by 0.25
  const ClipDiff diff = Diff(gltf, three);
  ASSERT_EQ(diff.channels.size(), 2u);
  EXPECT_EQ(diff.channels[0].node_b, "Cube001");
  EXPECT_EQ(diff.channels[0].max, 0);
  EXPECT_EQ(diff.channels[1].node_b, "Cube001_1");
  EXPECT_EQ(diff.channels[1].max, 0.25);
  EXPECT_TRUE(diff.only_in_a.empty());
  EXPECT_TRUE(diff.only_in_b.empty());
}

TEST(ClipDiffMorphTest, MorphTargetsPairByNameWhenBothSidesNameThem) {
  Asset a = GltfMorphNode();
  a.rig.nodes[0].morph_target_names = {"smile", "blink"};
  Asset b = MakeAsset({"Face"});
  b.rig.nodes[0].morph_target_count = 2;
  b.rig.nodes[0].morph_target_names = {"blink", "smile"};
  b.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0, 1, 1, 0}, 2)};
  // The columns swapped with the names: the same data.
  b.clips[0].channels[0].values = {1, 0, 0, 1};
  const ClipDiff diff = Diff(a, b);
  ASSERT_EQ(diff.channels.size(), 1u);
  EXPECT_EQ(diff.channels[0].max, 0);
  // Unnamed on one side: by index, so the swapped columns are the error they are.
  b.rig.nodes[0].morph_target_names.clear();
  EXPECT_EQ(Diff(a, b).channels[0].max, 1);
}

// A three.js clip's per-target tracks ("[1]" then "[0]": Node::morph_targets_partial) against
// weights by index: a decimal bracket is that index, as three.js binds it against a mesh without
// target names, and any other name is a target of its own, weighed against 0. Column by column, an
// output that swapped the two (three.js plays it on the wrong targets) measured 0.
TEST(ClipDiffMorphTest, PerTargetTracksPairByTheIndexTheirBracketsName) {
  Asset partial = MakeAsset({"Face"});
  partial.rig.nodes[0].morph_target_count = 2;
  partial.rig.nodes[0].morph_target_names = {"1", "0"};
  partial.rig.nodes[0].morph_targets_partial = true;
  partial.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0, 0.5, 1, 0.25}, 2)};
  Asset indexed = MakeAsset({"Face"});
  indexed.rig.nodes[0].morph_target_count = 2;
  indexed.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0.5, 0, 0.25, 1}, 2)};
  EXPECT_EQ(Diff(partial, indexed).channels[0].max, 0);
  EXPECT_EQ(Diff(indexed, partial).channels[0].max, 0);
  // The old writer's output: the columns in the clip's order, by position.
  indexed.clips[0].channels[0].values = {0, 0.5, 1, 0.25};
  EXPECT_EQ(Diff(partial, indexed).channels[0].max, 0.75);
  // "[2]" alone drives index 2 of a three-target mesh.
  Asset third = partial;
  third.rig.nodes[0].morph_target_count = 1;
  third.rig.nodes[0].morph_target_names = {"2"};
  third.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0, 1}, 1)};
  Asset three_targets = MakeAsset({"Face"});
  three_targets.rig.nodes[0].morph_target_count = 3;
  three_targets.clips[0].channels = {MakeChannel(0, Path::kWeights, {0, 1}, {0, 0, 0, 0, 0, 1}, 3)};
  EXPECT_EQ(Diff(third, three_targets).channels[0].max, 0);
  three_targets.clips[0].channels[0].values = {0, 0, 0, 1, 0, 0};  // on index 0 instead
  EXPECT_EQ(Diff(third, three_targets).channels[0].max, 1);
  // A name, not an index ("01" is not one in JavaScript either): nothing pairs it.
  third.rig.nodes[0].morph_target_names = {"blink"};
  three_targets.clips[0].channels[0].values = {0, 0, 0, 0, 0, 1};
  EXPECT_EQ(Diff(third, three_targets).channels[0].max, 1);
  third.rig.nodes[0].morph_target_names = {"02"};
  EXPECT_EQ(Diff(third, three_targets).channels[0].max, 1);
  // An index past the other side's targets pairs with nothing (and makes no room up to it).
  third.rig.nodes[0].morph_target_names = {"999999"};
  three_targets.clips[0].channels[0].values = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(Diff(third, three_targets).channels[0].max, 1);
}

TEST(ClipDiffMorphTest, AMeshNodeNamedLikeABoneGoesByGltfLoadersPrimitiveNames) {
  // RobotExpressive: bone "Head" and, below it, mesh node "Head" showing mesh "Head" of three
  // primitives. GLTFLoader names the nodes "Head", "Head_1" and the primitives' objects "Head_2",
  // "Head_3", "Head_4": a three.js clip has those three weights tracks for the one glTF channel.
  Asset gltf = MakeAsset({"Head", "Head"});
  gltf.rig.nodes[1].parent = 0;
  gltf.rig.nodes[1].mesh = MeshInfo{"Head", 0, 3};
  gltf.rig.nodes[1].morph_target_count = 2;
  gltf.clips[0].channels = {MakeChannel(1, Path::kWeights, {0, 1}, {0, 1, 1, 0}, 2)};
  Asset three = MakeAsset({"Head_2", "Head_3", "Head_4"});
  three.rig.rest_pose_known = false;
  for (int n = 0; n < 3; ++n) {
    three.rig.nodes[static_cast<size_t>(n)].morph_target_count = 2;
    three.clips[0].channels.push_back(gltf.clips[0].channels[0]);
    three.clips[0].channels.back().node = n;
  }
  three.clips[0].channels[2].values[1] = 0.5;  // Head_4's track is off by 0.5
  for (const bool gltf_first : {true, false}) {
    const ClipDiff diff = gltf_first ? Diff(gltf, three) : Diff(three, gltf);
    EXPECT_TRUE(diff.only_in_a.empty()) << gltf_first;
    EXPECT_TRUE(diff.only_in_b.empty()) << gltf_first;
    ASSERT_EQ(diff.channels.size(), 3u) << gltf_first;
    EXPECT_EQ(diff.overall.at("weight").max, 0.5) << gltf_first;
    for (const ChannelDiff& channel : diff.channels) {
      const std::string& three_node = gltf_first ? channel.node_b : channel.node;
      EXPECT_EQ(channel.max, three_node == "Head_4" ? 0.5 : 0) << three_node;
    }
  }
}

}  // namespace
}  // namespace animconv
