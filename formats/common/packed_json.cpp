#include "formats/common/packed_json.h"

#include <algorithm>

#include "formats/common/json_release.h"

namespace animconv {

using nlohmann::json;

void PackedJsonArray::Element(json&& element) {
  std::string encoded;
  json::to_cbor(element, encoded);
  ReleaseJson(element);
  const size_t index = size() - 1;
  if (chunks_.empty() || chunks_.back().size() + encoded.size() > kChunkBytes) {
    chunk_first_.push_back(index);
    if (encoded.size() >= kChunkBytes) {
      chunks_.push_back(std::move(encoded));
      ends_.push_back(0);  // the whole chunk (the last element of a chunk ends with it)
      return;
    }
    chunks_.emplace_back();
    chunks_.back().reserve(kChunkBytes);
  }
  std::string& chunk = chunks_.back();
  chunk += encoded;
  ends_.push_back(static_cast<uint16_t>(chunk.size()));
}

json PackedJsonArray::At(size_t index) const {
  const size_t chunk = static_cast<size_t>(
      std::upper_bound(chunk_first_.begin(), chunk_first_.end(), index) - chunk_first_.begin() - 1);
  const std::string& bytes = chunks_[chunk];
  const bool first = index == chunk_first_[chunk];
  const bool last = chunk + 1 == chunks_.size() ? index + 1 == ends_.size()
                                                : index + 1 == chunk_first_[chunk + 1];
  const size_t begin = first ? 0 : ends_[index - 1];
  const size_t end = last ? bytes.size() : ends_[index];
  return json::from_cbor(bytes.data() + begin, bytes.data() + end);
}

}  // namespace animconv
