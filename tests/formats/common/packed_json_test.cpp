// PackedJsonArray: every element comes back as it went in, across chunk boundaries and for an
// element larger than a chunk, and dump() of it is the text dump() gave before packing.
#include "formats/common/packed_json.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace animconv
