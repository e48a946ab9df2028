#include "formats/common/json_release.h"

#include <gtest/gtest.h>

#include <string>

namespace animconv {
namespace {

using nlohmann::json;

TEST(JsonReleaseTest, EmptiesNestedTreesAndLeavesNull) {
  json value = json::parse(
      R"({"a": [1, [2, [3, {"b": [4, {}], "c": "s"}]], [], {}], "d": {"e": {"f": [5]}}, "g": 6})");
  ReleaseJson(value);
  EXPECT_TRUE(value.is_null());
  json deep = json::array();
  json* level = &deep;
  for (int i = 0; i < 100000; ++i) {  // deeper than any recursion would survive
    level->push_back(json::array());
    level = &level->back();
  }
  ReleaseJson(deep);
  EXPECT_TRUE(deep.is_null());
  json wide = json::array();
  for (int i = 0; i < 100000; ++i) wide.push_back(i % 3 ? json(i) : json::array({i}));
  ReleaseJson(wide);
  EXPECT_TRUE(wide.is_null());
  for (json scalar : {json(1), json("s"), json(nullptr), json::array(), json::object()}) {
    ReleaseJson(scalar);
    EXPECT_TRUE(scalar.is_null());
  }
}

TEST(JsonReleaseTest, ParsesAsJsonParseDoesAndThrowsWhatItThrows) {
  for (const std::string text : {R"({"a": [1, {"b": null}], "a": 2, "c": "\u00e9"})", "[]", "0"}) {
    EXPECT_EQ(ParseJsonReleasingPartial(text), json::parse(text)) << text;
  }
  for (const std::string text : {R"({"a": [0, 0, 0,, 0]})", "[1] 2", "", R"({"a": 1e999})"}) {
    std::string expected = "no error";
    std::string got = "no error";
    try {
      const json parsed = json::parse(text);
      ADD_FAILURE() << parsed.dump();
    } catch (const json::exception& error) {
      expected = error.what();
    }
    try {
      const json parsed = ParseJsonReleasingPartial(text);
      ADD_FAILURE() << parsed.dump();
    } catch (const json::exception& error) {
      got = error.what();
    }
    EXPECT_NE(expected, "no error") << text;
    EXPECT_EQ(got, expected) << text;
  }
}

}  // namespace
}  // namespace animconv
