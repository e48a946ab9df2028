// A JSON value held as the text json::dump() gives for it ("canonical": compact, an object's
// members in key order, a repeated member's last value only), written straight from its parse
// events, so that a value no reader reads never becomes a tree (issue 14, docs/reliability.md
// "Time and memory bounds": an nlohmann::json tree costs up to 27 bytes of heap per byte of text).
// A writer copies such text as it is: it is what dump() of the parsed value would write.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// Appends dump()'s text of the value whose events it is given, in document order. An object's
// members are written as they come and put in key order (std::map's, on the unescaped keys) when
// it ends, only when they were not in order already; each member's text is then moved once.
class CanonicalJsonWriter {
 public:
  explicit CanonicalJsonWriter(std::string& out) : out_(out) {}

  void Null();
  void Boolean(bool value);
  void Integer(int64_t value);
  void Unsigned(uint64_t value);
  void Float(double value);
  void String(const std::string& value);
  void StartObject();
  void Key(const std::string& key);
  void EndObject();
  void StartArray();
  void EndArray();

  // Containers open: 0 once a whole value is written.
  size_t depth() const { return open_.size(); }

 private:
  struct Open {
    bool object = false;
    size_t start = 0;  // the offset of its '{' or '['
    size_t count = 0;  // members or elements so far
    // An object's members: where each starts (its key's opening quote), relative to `start`.
    std::vector<uint32_t> members;
    std::string last_key;  // unescaped, while the members are in order
    bool in_order = true;
  };

  void BeforeValue();  // an array element's separator
  void SortMembers(const Open& object);

  std::string& out_;
  std::vector<Open> open_;
};

// A value kept as its canonical text where a tree would hold it: nlohmann's binary type without
// a subtype (the streaming parser's placeholders for a sink have one, json_stream.h). JSON text
// holds no binary value, so nothing else in a parsed document is one.
nlohmann::json PackedJsonValue(std::string_view canonical_text);
bool IsPackedJsonValue(const nlohmann::json& value);
// The canonical text of a packed value.
std::string_view PackedJsonText(const nlohmann::json& value);

}  // namespace animconv
