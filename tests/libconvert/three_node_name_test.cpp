// three.js's node-name sanitising (libconvert/three_node_name.h), which the three.js and BVH
// writers and `animconv diff` share.
#include "libconvert/three_node_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace animconv {
namespace {

TEST(ThreeNodeNameTest, SanitizesLikePropertyBinding) {
  // three.js r187 PropertyBinding.parseTrackName examples.
  EXPECT_EQ(SanitizeNodeName("mixamorig:Hips"), "mixamorigHips");
  EXPECT_EQ(SanitizeNodeName("mixamorig:Left Arm.001"), "mixamorigLeft_Arm001");
  EXPECT_EQ(SanitizeNodeName("Armature/Hips"), "ArmatureHips");
  EXPECT_EQ(SanitizeNodeName("a[0]\tb"), "a0_b");
  EXPECT_EQ(SanitizeNodeName("J_Bip_C_Hips"), "J_Bip_C_Hips");
}

TEST(ThreeNodeNameTest, UnicodeWhitespaceBecomesUnderscore) {
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
TEST(ThreeNodeNameTest, EveryJavaScriptWhitespaceBecomesUnderscore) {
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

}  // namespace
}  // namespace animconv
