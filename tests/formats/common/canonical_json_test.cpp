// CanonicalJsonWriter, through the streaming parser's packed members: the text it writes from a
// value's parse events is dump() of the value json::parse makes of it, for members out of order,
// repeated keys, escaped keys, every kind of number, and random documents; a tree holding packed
// values dumps as if they were trees.
#include "formats/common/canonical_json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "formats/common/json_dump.h"
#include "formats/common/json_stream.h"

namespace animconv {
namespace {

using nlohmann::json;

// The packed text of `value_text` as the member "v" of a document.
std::string Packed(const std::string& value_text) {
  StreamedJson parsed = ParseJsonStreaming("{\"v\":" + value_text + "}", nullptr,
                                           [](const JsonPath& path) { return path.depth() == 1; });
  EXPECT_TRUE(IsPackedJsonValue(parsed.document["v"]));
  return std::string(PackedJsonText(parsed.document["v"]));
}

TEST(CanonicalJsonTest, TextIsDumpOfTheParsedValue) {
  const std::string cases[] = {
      "0",
      "-0",
      "-0.0",
      "1.0",
      "1e20",
      "-1.5e-300",
      "0.1",
      "123456789012345678901234567890",
      "18446744073709551615",
      "-9223372036854775808",
      "3.4028234663852886e+38",
      "true",
      "null",
      R"("a\u0001\"\\\/\b\f\n\r\t é 🙂")",
      "[]",
      "{}",
      "[1,[2,[3,{}]],{\"a\":[]}]",
      R"({"b":1,"a":2})",
      R"({"a":1,"b":2,"a":3})",
      R"({"z":{"y":1,"x":[{"d":0,"c":1}]},"a":null})",
      R"({"a\u0001":1,"a":2,"a\"":3,"a\\":4,"\u001f":5,"é":6,"~":7,"":8})",
      R"({"k":1,"k":{"inner":true},"k":[1,2]})",
      R"({"ab":1,"a":2,"abc":3,"b":4})",
  };
  for (const std::string& text : cases) {
    EXPECT_EQ(Packed(text), json::parse(text).dump()) << text;
  }
}

// Random documents: objects with shuffled and repeated keys (some escaped), nested to a few
// levels, with every kind of scalar.
class RandomJson {
 public:
  explicit RandomJson(uint32_t seed) : random_(seed) {}

  std::string Value(int depth) {
    const int kind = Pick(depth > 4 ? 5 : 7);
    switch (kind) {
      case 0:
        return "null";
      case 1:
        return Pick(2) ? "true" : "false";
      case 2:
        return std::to_string(static_cast<int64_t>(random_()) - (1ll << 31));
      case 3: {
        const double value =
            std::ldexp(static_cast<double>(random_()) / 4294967296.0 - 0.5, Pick(200) - 100);
        return json(value).dump();
      }
      case 4:
        return "\"" + Key() + "\"";
      case 5: {
        std::string text = "[";
        const int count = Pick(5);
        for (int i = 0; i < count; ++i) text += (i ? "," : "") + Value(depth + 1);
        return text + "]";
      }
      default: {
        std::string text = "{";
        const int count = Pick(6);
        for (int i = 0; i < count; ++i) {
          text += (i ? ",\"" : "\"") + Key() + "\":" + Value(depth + 1);
        }
        return text + "}";
      }
    }
  }

 private:
  int Pick(int n) { return static_cast<int>(random_() % static_cast<uint32_t>(n)); }
  std::string Key() {
    static const char* const kPieces[] = {"a", "b", "ab", "\\u0002", "\\\"", "\\\\", "é", "Z", ""};
    std::string key;
    const int pieces = Pick(3);
    for (int i = 0; i < pieces; ++i) key += kPieces[Pick(9)];
    return key;
  }

  std::mt19937 random_;
};

TEST(CanonicalJsonTest, RandomDocumentsMatchDump) {
  RandomJson generator(20261205);
  for (int i = 0; i < 3000; ++i) {
    const std::string text = generator.Value(0);
    ASSERT_EQ(Packed(text), json::parse(text).dump()) << text;
  }
}

TEST(CanonicalJsonTest, ATreeWithPackedValuesDumpsAsTheWholeTree) {
  const std::string text =
      R"({"name":"n","extras":{"z":1,"a":[{},{"q":0.5}]},"children":[1,2],"x":{"b":2,"a":1}})";
  StreamedJson parsed = ParseJsonStreaming(text, nullptr, [](const JsonPath& path) {
    return path.depth() == 1 && (path.Is(0, "extras") || path.Is(0, "x"));
  });
  EXPECT_TRUE(IsPackedJsonValue(parsed.document["extras"]));
  EXPECT_TRUE(parsed.document["children"].is_array());
  const std::string expected = json::parse(text).dump();
  std::string out;
  AppendJsonDump(parsed.document, out);
  EXPECT_EQ(out, expected);
  EXPECT_EQ(JsonDumpSize(parsed.document), expected.size());
  // A copy, changed elsewhere, keeps its packed values.
  json changed = parsed.document;
  changed["name"] = "m";
  json expected_changed = json::parse(text);
  expected_changed["name"] = "m";
  out.clear();
  AppendJsonDump(changed, out);
  EXPECT_EQ(out, expected_changed.dump());
}

TEST(CanonicalJsonTest, AnObjectOfManyMembersInReverseOrder) {
  std::string text = "{";
  for (int i = 20000; i > 0; --i)
    text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k5\":\"last\"}";
  EXPECT_EQ(Packed(text), json::parse(text).dump());
}

}  // namespace
}  // namespace animconv
