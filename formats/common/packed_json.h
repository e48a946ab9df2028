// A JSON array held as its elements' canonical text (canonical_json.h: dump()'s text of each),
// written straight from the parse events, each parsed again when it is read: the glTF reader's
// top-level arrays, which a file holds by the ten thousand and which as an nlohmann::json tree
// cost up to 27 bytes of heap per byte of text (issue 14, docs/reliability.md "Time and memory
// bounds"). Packed, an element costs its text and 2 bytes, and no element is ever a tree while
// the document is parsed. A writer copies an element's text as it is (Text): it is what dump() of
// the element parsed would write.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/canonical_json.h"
#include "formats/common/json_stream.h"

namespace animconv {

class PackedJsonArray : public JsonElementSink {
 public:
  // Element `index` (< size()), parsed.
  nlohmann::json At(size_t index) const;
  // Element `index` parsed with the members `pack` picks kept packed (canonical_json.h) and the
  // arrays `array_policy` cuts short (paths from the element down).
  nlohmann::json At(size_t index, const JsonPackFilter& pack,
                    const JsonArrayPolicyFactory& array_policy = nullptr) const;
  // Element `index` as dump() writes it.
  std::string_view Text(size_t index) const;

  CanonicalJsonWriter* TextWriter() override { return &writer_; }
  // Appends an element given as its canonical text (cut out of a packed array's).
  void AddElementText(std::string_view canonical_text) {
    pending_.assign(canonical_text);
    AddText();
  }

 protected:
  void Element(nlohmann::json&& element) override;
  void TextElement() override;

 private:
  // Elements lie whole in chunks of under 64 KiB (a larger one has a chunk of its own), so an
  // element's extent is its predecessor's end in the chunk and its own end, or the chunk's end;
  // an end fits 16 bits (a million `{}` cost 4 MB with 32-bit ends, 2 bytes of text each).
  static constexpr size_t kChunkBytes = 64 * 1024 - 1;
  std::vector<std::string> chunks_;
  std::vector<size_t> chunk_first_;  // per chunk: the index of its first element
  std::vector<uint16_t> ends_;       // per element: where it ends in its chunk
  std::string pending_;              // the element being written
  CanonicalJsonWriter writer_{pending_};
};

// The elements of the array `value`, to be read one at a time: a packed value holding an array's
// text (a member a reader's pack filter packed so that no tree of a hostile length is built), or an
// array (each element packed here); null for any other value.
std::unique_ptr<PackedJsonArray> PackedArrayElements(const nlohmann::json& value);

// Calls `visit` with each member of the object `value` in key order (the order of a tree's
// members), its value parsed only then, with the members `pack` picks (paths from the member's
// value down) kept packed: a packed value holding an object's text (one member's tree at a time),
// or an object. False, visiting nothing, when `value` is neither.
bool ForEachMember(
    const nlohmann::json& value,
    const std::function<void(const std::string& key, nlohmann::json&& member)>& visit,
    const JsonPackFilter& pack = nullptr);

}  // namespace animconv
