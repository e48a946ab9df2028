// ParseBoneMap: the `--bone-map` file format (animconv/bone_map.h, formats/maps/).
#include <gtest/gtest.h>

#include "animconv/bone_map.h"
#include "animconv/error.h"

namespace animconv {
namespace {

Error ParseFailure(const std::string& text) {
  try {
    ParseBoneMap(text, "map.txt");
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "no error for: " << text;
  return Error(ErrorKind::kIo, "", "", "none");
}

TEST(ParseBoneMapTest, ReadsColumnsCommentsBlankLinesBomAndCrlf) {
  const std::vector<BoneMapEntry> entries = ParseBoneMap(
      "\xEF\xBB\xBF# from,to\r\nHips,J_Bip_C_Hips\r\n\r\n  spine ,\tJ_Bip_C_Spine  # ok\r\n"
      "a#b,c\n   # indented comment\nLeftUpLeg,Left Leg",
      "map.txt");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].from, "Hips");
  EXPECT_EQ(entries[0].to, "J_Bip_C_Hips");
  EXPECT_EQ(entries[0].line, 2);
  EXPECT_EQ(entries[1].from, "spine");
  EXPECT_EQ(entries[1].to, "J_Bip_C_Spine");
  EXPECT_EQ(entries[1].line, 4);
  EXPECT_EQ(entries[2].from, "a#b");  // '#' inside a name is not a comment
  EXPECT_EQ(entries[2].to, "c");
  EXPECT_EQ(entries[3].to, "Left Leg");
  EXPECT_EQ(entries[3].line, 7);
  EXPECT_TRUE(ParseBoneMap("# nothing\n\n", "map.txt").empty());
}

TEST(ParseBoneMapTest, ErrorsSayWhereAndWhatWasExpected) {
  const Error no_comma = ParseFailure("Hips,A\n  Spine B\n");
  EXPECT_EQ(no_comma.kind(), ErrorKind::kBadInput);
  EXPECT_EQ(std::string(no_comma.what()),
            "map.txt:2:3: expected 'from,to', found no ',' in 'Spine B'");
  EXPECT_EQ(std::string(ParseFailure(" , B").what()),
            "map.txt:1:2: expected a node or bone name before ','");
  EXPECT_EQ(std::string(ParseFailure("Hips,  \n").what()),
            "map.txt:1:6: expected the new name after ','");
  EXPECT_EQ(std::string(ParseFailure("\xEF\xBB\xBFHips,A,B").what()),
            "map.txt:1:7: expected two columns 'from,to', found a third after another ','");
  EXPECT_EQ(std::string(ParseFailure("Hips,A\r\n# x\r\n  Hips , B\r\n").what()),
            "map.txt:3:3: 'Hips' is mapped twice (first on line 1)");
  EXPECT_EQ(std::string(ParseFailure("Hips,A\nSpine,\xC3(chest\n").what()),
            "map.txt:2:7: a name is not valid UTF-8");
  // JSON, on one line or many, is refused where it starts (one line once split at its comma).
  for (const char* json : {"{\"hips\":\"J_Bip_C_Hips\",\"spine\":\"J_Bip_C_Spine\"}",
                           "# VRoid\n  [\n [\"hips\", \"J_Bip_C_Hips\"]\n]\n"}) {
    const std::string message = ParseFailure(json).what();
    EXPECT_NE(message.find("expected 'from,to' lines, found JSON"), std::string::npos) << message;
    EXPECT_EQ(message.find(json[0] == '{' ? "map.txt:1:1:" : "map.txt:2:3:"), 0u) << message;
  }
}

}  // namespace
}  // namespace animconv
