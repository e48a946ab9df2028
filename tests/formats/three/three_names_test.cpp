#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

TEST(ThreeNamesTest, DuplicatesBecomeUniqueLikeGltfLoader) {
  const Asset asset = testing::MakeAsset({"a:b", "ab", "ab", "c"});
  EXPECT_EQ(ThreeNodeNames(asset.rig, nullptr).nodes,
            (std::vector<std::string>{"ab", "ab_1", "ab_2", "c"}));
}

TEST(ThreeNamesTest, MeshObjectsAreNamedLikeGltfLoader) {
  // Named nodes first in scene order, then one object per primitive after its mesh; a node with a
  // one-primitive mesh is that object and keeps the mesh's name when it has none of its own.
  Asset asset = testing::MakeAsset({"Main", "node_1", "node_2", "Cube.001"});
  asset.rig.nodes[0].mesh = MeshInfo{"Cube.001", 0, 2};
  asset.rig.nodes[1].generated_name = true;
  asset.rig.nodes[1].mesh = MeshInfo{"", 1, 1};
  asset.rig.nodes[2].generated_name = true;
  const ThreeObjectNames names = ThreeNodeNames(asset.rig, nullptr);
  EXPECT_EQ(names.nodes, (std::vector<std::string>{"Main", "mesh_1", "node_2", "Cube001"}));
  EXPECT_EQ(names.morph_objects[0], (std::vector<std::string>{"Cube001_1", "Cube001_2"}));
  EXPECT_EQ(names.morph_objects[1], std::vector<std::string>{"mesh_1"});
}

// Unnamed nodes: one warning for those the written clips animate, none for the rest (a model's
// 21 untouched helper nodes made 21 warnings for a clip animating others).
TEST(ThreeNamesTest, WarnsOnceForTheUnnamedNodesTheClipsAnimate) {
  Asset asset = testing::MakeAsset({"Hips", "node_1", "node_2", "node_3"});
  for (size_t n = 1; n < 4; ++n) asset.rig.nodes[n].generated_name = true;
  Clip clip;
  clip.name = "c";
  clip.channels.push_back(
      testing::MakeChannel(2, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 0, 0}, 3));
  clip.channels.push_back(
      testing::MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 0, 0}, 3));
  Diagnostics diagnostics;
  ThreeNodeNames(asset.rig, &diagnostics, {&clip});
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_NE(diagnostics[0].text.find("1 animated node(s) have no name in their source and were "
                                     "named: node 2 as 'node_2'; three.js binds"),
            std::string::npos)
      << diagnostics[0].text;

  Diagnostics none;
  ThreeNodeNames(asset.rig, &none);  // no clip written: nothing to bind
  EXPECT_TRUE(none.empty());
}

TEST(ThreeNamesTest, ListsTheFirstTenUnnamedNodesThenCounts) {
  std::vector<std::string> node_names;
  for (int n = 0; n < 13; ++n) node_names.push_back("node_" + std::to_string(n));
  Asset asset = testing::MakeAsset(node_names);
  Clip clip;
  for (int n = 0; n < 13; ++n) {
    asset.rig.nodes[static_cast<size_t>(n)].generated_name = true;
    clip.channels.push_back(testing::MakeChannel(n, Path::kScale, {0}, {1, 1, 1}, 3));
  }
  Diagnostics diagnostics;
  ThreeNodeNames(asset.rig, &diagnostics, {&clip});
  ASSERT_EQ(diagnostics.size(), 1u);
  const std::string& text = diagnostics[0].text;
  EXPECT_NE(text.find("13 animated node(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("node 9 as 'node_9' and 3 more;"), std::string::npos) << text;
  EXPECT_EQ(text.find("node_10"), std::string::npos) << text;
}

}  // namespace
}  // namespace animconv
