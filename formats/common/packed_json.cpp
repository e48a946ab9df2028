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
  }
  std::string& chunk = chunks_.back();
  // Grown by doubling up to a chunk, not reserved whole: a document of a few short lists (and
  // each list of a repeated key) would otherwise cost 64 KiB a list (issue 14).
  const size_t needed = chunk.size() + pending_.size();
  if (needed > chunk.capacity()) {
    chunk.reserve(std::min(kChunkBytes, std::max(needed, 2 * chunk.capacity())));
  }
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

namespace {

// The end of the string that opens at `begin` in canonical text (after its closing quote).
size_t StringEnd(std::string_view text, size_t begin) {
  size_t i = begin + 1;
  while (text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return i + 1;
}

// The end of the value that starts at `begin` in canonical text (no white space).
size_t ValueEnd(std::string_view text, size_t begin) {
  if (text[begin] == '"') return StringEnd(text, begin);
  if (text[begin] != '{' && text[begin] != '[') {
    size_t i = begin;
    while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']') ++i;
    return i;
  }
  size_t depth = 0;
  size_t i = begin;
  do {
    const char c = text[i];
    if (c == '"') {
      i = StringEnd(text, i);
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    ++i;
  } while (depth > 0);
  return i;
}

}  // namespace

bool ForEachMember(const json& value,
                   const std::function<void(const std::string& key, json&& member)>& visit,
                   const JsonPackFilter& pack) {
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) visit(key, json(member));
    return true;
  }
  if (!IsPackedJsonValue(value)) return false;
  // Canonical text (canonical_json.h): `{"key":value,...}`, members in key order, no white space.
  const std::string_view text = PackedJsonText(value);
  if (text.empty() || text[0] != '{') return false;
  size_t i = 1;
  while (text[i] != '}') {
    const size_t key_end = StringEnd(text, i);
    const std::string key = json::parse(text.substr(i, key_end - i)).get<std::string>();
    const size_t value_end = ValueEnd(text, key_end + 1);
    const std::string_view member = text.substr(key_end + 1, value_end - key_end - 1);
    visit(key, std::move(ParseJsonStreaming(member, nullptr, pack).document));
    i = text[value_end] == ',' ? value_end + 1 : value_end;
  }
  return true;
}

std::unique_ptr<PackedJsonArray> PackedArrayElements(const json& value) {
  if (value.is_array()) {
    auto elements = std::make_unique<PackedJsonArray>();
    for (const json& element : value) elements->Add(json(element));
    return elements;
  }
  if (!IsPackedJsonValue(value)) return nullptr;
  // Canonical text (canonical_json.h): `[value,...]`, no white space, each element already as
  // dump() writes it, so the elements are cut out of it, not parsed again (nlohmann's lexer keeps
  // every character since the last string or number for its messages: 2 MB for 500,000 `{}`).
  const std::string_view text = PackedJsonText(value);
  if (text.empty() || text[0] != '[') return nullptr;
  auto elements = std::make_unique<PackedJsonArray>();
  size_t i = 1;
  while (text[i] != ']') {
    const size_t end = ValueEnd(text, i);
    elements->AddElementText(text.substr(i, end - i));
    i = text[end] == ',' ? end + 1 : end;
  }
  elements->End();
  return elements;
}

}  // namespace animconv
