#include <gtest/gtest.h>

#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

TEST(ThreeNamesTest, SanitizesLikePropertyBinding) {
  // formats.md §1.5 examples.
  EXPECT_EQ(SanitizeNodeName("mixamorig:Hips"), "mixamorigHips");
  EXPECT_EQ(SanitizeNodeName("mixamorig:Left Arm.001"), "mixamorigLeft_Arm001");
  EXPECT_EQ(SanitizeNodeName("Armature/Hips"), "ArmatureHips");
  EXPECT_EQ(SanitizeNodeName("a[0]\tb"), "a0_b");
  EXPECT_EQ(SanitizeNodeName("J_Bip_C_Hips"), "J_Bip_C_Hips");
}

TEST(ThreeNamesTest, UnicodeWhitespaceBecomesUnderscore) {
  EXPECT_EQ(SanitizeNodeName("a\xC2\xA0"
                             "b"),
            "a_b");  // U+00A0
  EXPECT_EQ(SanitizeNodeName("a\xE3\x80\x80"
                             "b"),
            "a_b");  // U+3000 ideographic space
  EXPECT_EQ(SanitizeNodeName("a\xE2\x80\xA8"
                             "b"),
            "a_b");  // U+2028
  EXPECT_EQ(SanitizeNodeName("\xEF\xBB\xBF"
                             "x"),
            "_x");                              // U+FEFF
  EXPECT_EQ(SanitizeNodeName("右腕"), "右腕");  // other UTF-8 stays
}

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

}  // namespace
}  // namespace animconv
