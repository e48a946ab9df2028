// The facing animconv records in a three.js clip's userData (formats/three/three_user_data.h),
// and the JSON reader taking it back.
#include "formats/three/three_user_data.h"

#include <gtest/gtest.h>

#include "animconv/error.h"
#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;

TEST(ThreeUserDataTest, TextRecordsFacingAndHandedness) {
  EXPECT_EQ(ThreeUserDataText({Handedness::kRight, Facing::kMinusZ}),
            R"({"animconv":{"facing":"-z","handedness":"right"}})");
  EXPECT_EQ(ThreeUserDataText({Handedness::kRight, Facing::kPlusZ}),
            R"({"animconv":{"facing":"+z","handedness":"right"}})");
  EXPECT_EQ(ThreeUserDataText({Handedness::kRight, Facing::kUnknown}),
            R"({"animconv":{"handedness":"right"}})");
}

TEST(ThreeUserDataTest, ReadsOurFacingAndIgnoresOthers) {
  Diagnostics diagnostics;
  EXPECT_EQ(ReadThreeUserDataFacing(json(R"({"animconv":{"facing":"+z"}})"), "", &diagnostics),
            Facing::kPlusZ);
  EXPECT_EQ(ReadThreeUserDataFacing(json("{}"), "", &diagnostics), std::nullopt);
  EXPECT_EQ(ReadThreeUserDataFacing(json(R"({"other":1})"), "", &diagnostics), std::nullopt);
  EXPECT_EQ(ReadThreeUserDataFacing(json(""), "", &diagnostics), std::nullopt);
  EXPECT_TRUE(diagnostics.empty());
  // What three.js r180+ throws on, and facings that are not ours: warnings, no facing.
  EXPECT_EQ(ReadThreeUserDataFacing(json::object(), "/0", &diagnostics), std::nullopt);
  EXPECT_EQ(ReadThreeUserDataFacing(json("{no"), "/0", &diagnostics), std::nullopt);
  EXPECT_EQ(ReadThreeUserDataFacing(json(R"({"animconv":{"facing":"+x"}})"), "/0", &diagnostics),
            std::nullopt);
  ASSERT_EQ(diagnostics.size(), 3u);
  EXPECT_EQ(diagnostics[0].text,
            "three: /0/userData is object, not a JSON string: three.js r180+ throws on it; "
            "ignored");
  EXPECT_EQ(diagnostics[1].text,
            "three: /0/userData is not JSON text: three.js r180+ throws on it; ignored");
  EXPECT_EQ(diagnostics[2].text,
            "three: /0/userData says facing \"+x\", expected \"+z\" or \"-z\"; ignored");
}

std::string Clip(const std::string& name, const std::string& user_data) {
  return R"({"name":")" + name +
         R"(","tracks":[{"name":"Hips.quaternion","times":[0],"values":[0,0,0,1],)"
         R"("type":"quaternion"}],"userData":)" +
         json(user_data).dump() + "}";
}

TEST(ThreeUserDataTest, ReaderTakesTheFacingOfItsClips) {
  ReadOptions options;
  options.source = "a.json";
  const Asset asset = ReadThreeJson(
      "[" + Clip("a", R"({"animconv":{"facing":"-z"}})") + "," + Clip("b", "{}") + "]", options);
  EXPECT_EQ(asset.coordinates.facing, Facing::kMinusZ);
  EXPECT_EQ(ReadThreeJson(Clip("a", "{}"), options).coordinates.facing, Facing::kUnknown);
  try {
    ReadThreeJson("[" + Clip("a", R"({"animconv":{"facing":"-z"}})") + "," +
                      Clip("b", R"({"animconv":{"facing":"+z"}})") + "]",
                  options);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(std::string(error.what()),
              "a.json:/1/userData: clip 'b' faces the other way than clip 'a'; expected one "
              "facing per file");
  }
}

}  // namespace
}  // namespace animconv
