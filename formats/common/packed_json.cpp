#include "formats/common/packed_json.h"

#include <algorithm>

#include "formats/common/json_release.h"

namespace animconv {

using nlohmann::json;

void PackedJsonArray::Element(json&& element) {
  // A tree handed over (JsonElementSink::Add): its dump() is its canonical text.
  pending_ = element.dump();
  ReleaseJson(element);
  TextElement();
}

void PackedJsonArray::TextElement() {
  const size_t index = size() - 1;
  if (chunks_.empty() || chunks_.back().size() + pending_.size() > kChunkBytes) {
    chunk_first_.push_back(index);
    if (pending_.size() >= kChunkBytes) {
      chunks_.push_back(std::move(pending_));
      pending_ = std::string();
      ends_.push_back(0);  // the whole chunk (the last element of a chunk ends with it)
      return;
    }
    chunks_.emplace_back();
    chunks_.back().reserve(kChunkBytes);
  }
  std::string& chunk = chunks_.back();
  chunk += pending_;
  ends_.push_back(static_cast<uint16_t>(chunk.size()));
  pending_.clear();  // its capacity stays under twice a chunk
}

std::string_view PackedJsonArray::Text(size_t index) const {
  const size_t chunk = static_cast<size_t>(
      std::upper_bound(chunk_first_.begin(), chunk_first_.end(), index) - chunk_first_.begin() - 1);
  const std::string& bytes = chunks_[chunk];
  const bool first = index == chunk_first_[chunk];
  const bool last = chunk + 1 == chunks_.size() ? index + 1 == ends_.size()
                                                : index + 1 == chunk_first_[chunk + 1];
  const size_t begin = first ? 0 : ends_[index - 1];
  const size_t end = last ? bytes.size() : ends_[index];
  return std::string_view(bytes).substr(begin, end - begin);
}

json PackedJsonArray::At(size_t index) const {
  const std::string_view text = Text(index);
  return json::parse(text.begin(), text.end());
}

json PackedJsonArray::At(size_t index, const JsonPackFilter& pack,
                         const JsonArrayPolicyFactory& array_policy) const {
  StreamedJson parsed = ParseJsonStreaming(Text(index), nullptr, pack, array_policy);
  return std::move(parsed.document);
}

}  // namespace animconv
