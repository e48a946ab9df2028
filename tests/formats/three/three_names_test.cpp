#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

TEST(ThreeNamesTest, SanitizesLikePropertyBinding) {
  // three.js r187 PropertyBinding.parseTrackName examples.
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

std::string Utf8(char32_t code_point) {
  std::string out;
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
  return out;
}

// PropertyBinding.sanitizeNodeName replaces /\s/g, and JavaScript's \s is exactly these code
// points (ECMA-262 WhiteSpace and LineTerminator): a name keeping any one of them gives a track
// three.js cannot bind, so the bone silently does not move. Every one is tested, since a missing
// entry (U+202F, say) passes every test that only samples the list. The interop input "names"
// (tests/interop/data/names_bones.txt) checks the same list against three's own function.
TEST(ThreeNamesTest, EveryJavaScriptWhitespaceBecomesUnderscore) {
  std::vector<char32_t> spaces = {0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x20,   0xA0,
                                  0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF};
  for (char32_t c = 0x2000; c <= 0x200A; ++c) spaces.push_back(c);
  ASSERT_EQ(spaces.size(), 25u);
  for (const char32_t c : spaces) {
    EXPECT_EQ(SanitizeNodeName("Left" + Utf8(c) + "Arm"), "Left_Arm")
        << "U+" << std::hex << static_cast<unsigned>(c);
  }
  // Neighbours that \s does not match stay as they are: NEL, the Mongolian vowel separator
  // (no longer a space since Unicode 6.3), zero-width space, word joiner, U+2030 after U+202F.
  const std::vector<char32_t> others = {0x85,   0x180E, 0x200B, 0x2060,
                                        0x2030, 0x205E, 0x3001, 0xFEFE};
  for (const char32_t c : others) {
    EXPECT_EQ(SanitizeNodeName("Left" + Utf8(c) + "Arm"), "Left" + Utf8(c) + "Arm")
        << "U+" << std::hex << static_cast<unsigned>(c);
  }
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
