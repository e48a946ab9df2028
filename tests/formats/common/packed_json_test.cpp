// PackedJsonArray: every element comes back as it went in, across chunk boundaries and for an
// element larger than a chunk, and dump() of it is the text dump() gave before packing.
#include "formats/common/packed_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace animconv {
namespace {

using nlohmann::json;

// Parses `text` with its top-level array packed.
std::unique_ptr<PackedJsonArray> Pack(const std::string& text) {
  StreamedJson parsed = ParseJsonStreaming(text, [](const JsonPath& path) {
    std::unique_ptr<JsonElementSink> sink;
    if (path.depth() == 1) sink = std::make_unique<PackedJsonArray>();
    return sink;
  });
  EXPECT_TRUE(parsed.document["list"].is_binary());
  return std::unique_ptr<PackedJsonArray>(static_cast<PackedJsonArray*>(
      parsed.sinks[parsed.document["list"].get_binary().subtype()].release()));
}

TEST(PackedJsonArrayTest, ElementsDecodeToWhatWasParsed) {
  const std::string elements[] = {
      R"({"bufferView":3,"componentType":5126,"count":2,"max":[1.0001],"min":[0],"type":"SCALAR"})",
      R"({"a":[1,-2,3.5,1e-07,0.1,-0.0,18446744073709551615,"x\u00e9\n"],"b":{},"c":null,"d":true})",
      "[]",
      "0",
      "\"text\"",
      "{}"};
  std::string text = R"({"list":[)";
  for (const std::string& element : elements) text += element + ",";
  text.back() = ']';
  text += "}";
  const auto packed = Pack(text);
  ASSERT_EQ(packed->size(), std::size(elements));
  for (size_t i = 0; i < std::size(elements); ++i) {
    EXPECT_EQ(packed->At(i), json::parse(elements[i])) << i;
    EXPECT_EQ(packed->At(i).dump(), json::parse(elements[i]).dump()) << i;
  }
}

TEST(PackedJsonArrayTest, ManyChunksAndAnElementLargerThanAChunk) {
  // 30,000 small objects fill several 64 KiB chunks; one of 200,000 numbers has a chunk of its own.
  std::string text = R"({"list":[)";
  for (int i = 0; i < 30000; ++i) {
    text += "{\"index\":" + std::to_string(i) + "},";
    if (i == 12345) {
      text += "[";
      for (int k = 0; k < 200000; ++k)
        text += std::to_string(k % 1000) + (k + 1 < 200000 ? "," : "");
      text += "],";
    }
  }
  text.back() = ']';
  text += "}";
  const auto packed = Pack(text);
  ASSERT_EQ(packed->size(), 30001u);
  for (size_t i = 0; i < packed->size(); ++i) {
    const json element = packed->At(i);
    if (i == 12346) {
      ASSERT_EQ(element.size(), 200000u);
      EXPECT_EQ(element[199999], 999);
      continue;
    }
    const size_t expected = i < 12346 ? i : i - 1;
    ASSERT_EQ(element, json({{"index", expected}})) << i;
  }
}

// A member a pack filter kept as text, read one element or member at a time (the glTF reader's
// meshes' primitives, the VRM lists and maps): each comes back as the tree held it, in the tree's
// order, whatever its keys' escapes and its values' nesting.
json PackedMember(const std::string& text) {
  StreamedJson parsed = ParseJsonStreaming("{\"m\":" + text + "}", nullptr,
                                           [](const JsonPath& path) { return path.depth() == 1; });
  EXPECT_TRUE(IsPackedJsonValue(parsed.document["m"]));
  return parsed.document["m"];
}

TEST(PackedJsonArrayTest, ArrayElementsOfAPackedArrayOrATree) {
  const std::string text = R"([{},{"a":[1,{"b":"]}"}]},"x\"y",null,[[],[{}]],-2.5e-07])";
  for (const json& value : {PackedMember(text), json::parse(text)}) {
    const std::unique_ptr<PackedArrayView> elements = PackedArrayElements(value);
    ASSERT_NE(elements, nullptr);
    ASSERT_EQ(elements->size(), 6u);
    for (size_t i = 0; i < elements->size(); ++i) {
      EXPECT_EQ(elements->At(i), json::parse(text)[i]) << i;
    }
  }
  // The elements are cut out of the packed text, each as dump() writes it, one larger than a
  // chunk among them; and an empty array has none.
  const std::string large = json(std::string(70000, 'q')).dump();
  // (The view refers to the value's text: it must outlive the view, PackedArrayElements.)
  const json cut_value = PackedMember("[{\"k\":[1]}," + large + ",2]");
  const std::unique_ptr<PackedArrayView> cut = PackedArrayElements(cut_value);
  ASSERT_NE(cut, nullptr);
  ASSERT_EQ(cut->size(), 3u);
  EXPECT_EQ(cut->Text(0), R"({"k":[1]})");
  EXPECT_EQ(cut->Text(1), large);
  EXPECT_EQ(cut->Text(2), "2");
  const json empty = PackedMember("[]");
  const std::unique_ptr<PackedArrayView> none = PackedArrayElements(empty);
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->size(), 0u);
  for (const json& other : {PackedMember("{}"), PackedMember("null"), json::object()}) {
    EXPECT_EQ(PackedArrayElements(other), nullptr);
  }
}

// A packed array's elements are read where they stand, not copied (a mesh's primitives held their
// text twice), in any order: the cursor moves forward and restarts for an earlier element.
TEST(PackedJsonArrayTest, ArrayElementsAreReadInPlaceInAnyOrder) {
  const json value = PackedMember(R"([10,"a,b",{"c":[1,2]},[],null])");
  const std::string_view text = PackedJsonText(value);
  const std::unique_ptr<PackedArrayView> elements = PackedArrayElements(value);
  ASSERT_EQ(elements->size(), 5u);
  const std::vector<std::string> expected = {"10", "\"a,b\"", R"({"c":[1,2]})", "[]", "null"};
  for (const size_t i : {2, 4, 0, 3, 3, 1, 4, 2}) {
    const std::string_view element = elements->Text(i);
    EXPECT_EQ(element, expected[i]) << i;
    EXPECT_GE(element.data(), text.data()) << i;
    EXPECT_LE(element.data() + element.size(), text.data() + text.size()) << i;
    EXPECT_EQ(elements->At(i), json::parse(expected[i])) << i;
  }
}

// An element's own members that a pack filter picks are cut out of its text, not parsed: the
// same tree as a parse with the filter gives, whichever of its members are packed, with escaped
// keys, and with the filter and the array policy still applied below the members kept.
TEST(PackedJsonArrayTest, AnElementsPackedMembersAreCutOutOfItsText) {
  const std::string element =
      R"({"a":[1,2,3],"b\"q":{"x":{"y":[4]}},"c":5,"d":[{"e":[6,7,8]}],"extras":{"k":"]"}})";
  const auto packed = Pack("{\"list\":[" + element + "," + element + "]}");
  const JsonArrayPolicyFactory policy = [](const JsonPath& path) {
    std::optional<JsonArrayPolicy> cut;
    if (path.depth() == 3 && path.Is(2, "e")) cut = JsonArrayPolicy{1, nullptr};
    return cut;
  };
  const std::vector<std::function<bool(const JsonPath&)>> filters = {
      [](const JsonPath& path) { return path.depth() == 1 && path.Is(0, "extras"); },
      [](const JsonPath& path) { return path.depth() == 1 && !path.Is(0, "d"); },
      [](const JsonPath& path) { return path.depth() == 1 && path.Is(0, "a"); },
      [](const JsonPath& path) { return path.depth() == 1 && path.Is(0, "b\"q"); },
      [](const JsonPath& path) { return path.depth() == 2 && path.Is(1, "x"); },
      [](const JsonPath& path) { return path.depth() == 1; }};
  for (size_t f = 0; f < filters.size(); ++f) {
    const json expected = ParseJsonStreaming(element, nullptr, filters[f], policy).document;
    const json cut = packed->At(1, filters[f], policy);
    EXPECT_EQ(cut, expected) << f;
    EXPECT_EQ(cut.dump(), expected.dump()) << f;
  }
  const json kept = packed->At(0, filters[0], policy);
  EXPECT_EQ(PackedJsonText(kept["extras"]), R"({"k":"]"})");
  EXPECT_EQ(kept["d"], json::parse(R"([{"e":[6]}])"));
}

TEST(PackedJsonArrayTest, ForEachMemberVisitsWhatTheTreeHolds) {
  const std::string text =
      R"({"z":1,"a\"b":{"c":[1,2,{"}":"{"}]},"":"s,t","\u00e9":[],"n":null,"k":{"x":{"y":{}}}})";
  const json tree = json::parse(text);
  for (const json& value : {PackedMember(text), tree}) {
    std::vector<std::string> keys;
    json rebuilt = json::object();
    EXPECT_TRUE(ForEachMember(value, [&](const std::string& key, json&& member) {
      keys.push_back(key);
      rebuilt[key] = std::move(member);
    }));
    EXPECT_EQ(rebuilt, tree);
    std::vector<std::string> expected;
    for (const auto& [key, member] : tree.items()) expected.push_back(key);
    EXPECT_EQ(keys, expected);  // key order, as a tree iterates
  }
  // Members below the visited ones can stay packed; neither an array nor null is an object.
  EXPECT_TRUE(ForEachMember(
      PackedMember(text),
      [](const std::string& key, json&& member) {
        if (key == "k") {
          EXPECT_TRUE(IsPackedJsonValue(member["x"]));
        }
      },
      [](const JsonPath& path) { return path.depth() == 1; }));
  EXPECT_TRUE(ForEachMember(PackedMember("{}"), [](const std::string&, json&&) { FAIL(); }));
  EXPECT_FALSE(ForEachMember(PackedMember("[1]"), [](const std::string&, json&&) {}));
  EXPECT_FALSE(ForEachMember(PackedMember("null"), [](const std::string&, json&&) {}));
}

}  // namespace
}  // namespace animconv
