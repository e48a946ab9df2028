// A JSON array held as its elements' CBOR encodings (RFC 8949, nlohmann::json::to_cbor), each
// decoded when it is read: the glTF reader's `accessors`, `bufferViews` and `animations`, which a
// file holds by the ten thousand and which as an nlohmann::json tree cost up to 27 bytes of heap
// per byte of text (issue 14, docs/reliability.md "Time and memory bounds"). Packed, an element
// costs its encoding (about as large as its text, often smaller) and 2 bytes. Decoding gives back
// the same values, so a writer's dump() of them is the same text.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/common/json_stream.h"

namespace animconv {

class PackedJsonArray : public JsonElementSink {
 public:
  // Element `index` (< size()), decoded.
  nlohmann::json At(size_t index) const;

 protected:
  void Element(nlohmann::json&& element) override;

 private:
  // Elements lie whole in chunks of under 64 KiB (a larger one has a chunk of its own), so an
  // element's extent is its predecessor's end in the chunk and its own end, or the chunk's end;
  // an end fits 16 bits (a million `{}` cost 3 MB with 32-bit ends, 1 byte of CBOR each).
  static constexpr size_t kChunkBytes = 64 * 1024 - 1;
  std::vector<std::string> chunks_;
  std::vector<size_t> chunk_first_;  // per chunk: the index of its first element
  std::vector<uint16_t> ends_;       // per element: where it ends in its chunk
};

}  // namespace animconv
