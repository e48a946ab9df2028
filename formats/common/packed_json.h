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
  // Appends an element given as its text (dump()'s bytes: a writer's edit of one At gave).
  void AddElementText(std::string_view text) {
    pending_.assign(text);
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

// The elements of an array held as its canonical text, read in place one at a time, in order:
// a mesh's primitives, a primitive's targets, the VRM lists, which a pack filter kept as text so
// that no tree of a hostile length is built. Read in place, not copied into a PackedJsonArray: a
// mesh of 500,000 `{}` primitives held its 1.5 MB of text twice (issue 14, docs/reliability.md).
// Elements are found by a cursor that moves forward (an earlier element restarts it), so reading
// them in order costs one pass over the text; not for use by two threads at once.
class PackedArrayView {
 public:
  // `canonical_text` is `[value,...]` as dump() writes it; the view holds `owned` (its text, when
  // given) or refers to text that outlives it.
  PackedArrayView(std::string_view canonical_text, std::string owned);
  PackedArrayView(const PackedArrayView&) = delete;
  PackedArrayView& operator=(const PackedArrayView&) = delete;

  size_t size() const { return size_; }
  // Element `index` (< size()) as dump() writes it.
  std::string_view Text(size_t index) const;
  // Element `index` parsed.
  nlohmann::json At(size_t index) const;
  // Element `index` parsed with the members `pack` picks kept packed (canonical_json.h) and the
  // arrays `array_policy` cuts short (paths from the element down).
  nlohmann::json At(size_t index, const JsonPackFilter& pack,
                    const JsonArrayPolicyFactory& array_policy = nullptr) const;

 private:
  std::string owned_;
  std::string_view text_;
  size_t size_ = 0;
  mutable size_t cursor_index_ = 0;   // the element the cursor is at
  mutable size_t cursor_offset_ = 1;  // where it starts in text_
};

// The elements of the array `value`: a packed value holding an array's text (viewed in place, so
// `value` must outlive the view), or an array (its text held by the view); null for any other
// value.
std::unique_ptr<PackedArrayView> PackedArrayElements(const nlohmann::json& value);
// Not for a temporary: the view would refer to text freed at the end of the statement.
std::unique_ptr<PackedArrayView> PackedArrayElements(nlohmann::json&& value) = delete;

// Calls `visit` with each member of the object `value` in key order (the order of a tree's
// members), its value parsed only then, with the members `pack` picks (paths from the member's
// value down) kept packed: a packed value holding an object's text (one member's tree at a time),
// or an object. False, visiting nothing, when `value` is neither.
bool ForEachMember(
    const nlohmann::json& value,
    const std::function<void(const std::string& key, nlohmann::json&& member)>& visit,
    const JsonPackFilter& pack = nullptr);

}  // namespace animconv
