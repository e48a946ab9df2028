#include "formats/common/json_dump.h"

#include <gtest/gtest.h>

#include <string>

namespace animconv {
namespace {

using nlohmann::json;

TEST(JsonDumpTest, MeasuresAndAppendsExactlyWhatDumpWrites) {
  // Every kind of value, UTF-8 kept as it is, escapes, numbers as dump() prints them.
  const json value = json::parse(
      R"({"b": [1, -0.0, 2.5e-8, 1e300, 18446744073709551615, true, null],
          "a": {"s": "x\u00e9\"\\\n\u0001y", "e": {}, "f": []}, "": ""})");
  std::string out = "prefix";
  AppendJsonDump(value, out);
  EXPECT_EQ(out, "prefix" + value.dump());
  EXPECT_EQ(JsonDumpSize(value), value.dump().size());
  for (const json& scalar : {json(1), json("s"), json(nullptr), json::array(), json::object()}) {
    std::string text;
    AppendJsonDump(scalar, text);
    EXPECT_EQ(text, scalar.dump());
    EXPECT_EQ(JsonDumpSize(scalar), scalar.dump().size());
  }
}

TEST(JsonDumpTest, RefusesInvalidUtf8AsDumpDoes) {
  const json value = std::string("a\xff");
  std::string out;
  EXPECT_THROW(value.dump(), json::type_error);
  EXPECT_THROW(AppendJsonDump(value, out), json::type_error);
  EXPECT_THROW(JsonDumpSize(value), json::type_error);
}

}  // namespace
}  // namespace animconv
