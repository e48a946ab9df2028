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

// Where the element after the one that starts at `begin` in an array's canonical text starts
// (or its closing bracket).
size_t AfterElement(std::string_view text, size_t begin) {
  const size_t end = ValueEnd(text, begin);
  return text[end] == ',' ? end + 1 : end;
}

// The key whose quoted text starts at `begin` and ends at `end` in canonical text, unescaped.
std::string Key(std::string_view text, size_t begin, size_t end) {
  const std::string_view quoted = text.substr(begin, end - begin);
  if (quoted.find('\\') == std::string_view::npos) {
    return std::string(quoted.substr(1, quoted.size() - 2));
  }
  return json::parse(quoted).get<std::string>();
}

// `text` (canonical) parsed with the members `pack` picks kept packed and the arrays `policy`
// cuts short. An object's own members that `pack` picks are cut out of its text as they stand
// (canonical text is what the packer would write), not parsed: a mesh's 1.5 MB of `primitives`
// were written again by the packer (2 MB as it grew), copied into their packed value, and held
// by nlohmann's lexer, which keeps every character since the last string or number (issue 14).
json ParseCanonical(std::string_view text, const JsonPackFilter& pack,
                    const JsonArrayPolicyFactory& policy) {
  std::vector<std::pair<std::string, std::string_view>> packed;  // key, value text
  std::string kept;  // the object without them, from the first one packed
  if (pack && !text.empty() && text[0] == '{') {
    JsonPath path;
    size_t i = 1;
    while (text[i] != '}') {
      const size_t key_end = StringEnd(text, i);
      const size_t value_end = ValueEnd(text, key_end + 1);
      path.PushKey(Key(text, i, key_end));
      if (pack(path)) {
        if (packed.empty()) {
          kept.assign(text.substr(0, i));  // `{` and the members before, with their comma
          if (kept.back() == ',') kept.pop_back();
        }
        packed.emplace_back(path.steps().back().key,
                            text.substr(key_end + 1, value_end - key_end - 1));
      } else if (!packed.empty()) {
        if (kept.size() > 1) kept += ',';
        kept.append(text.substr(i, value_end - i));
      }
      path.Pop();
      i = text[value_end] == ',' ? value_end + 1 : value_end;
    }
  }
  if (packed.empty()) return std::move(ParseJsonStreaming(text, nullptr, pack, policy).document);
  kept += '}';
  json document = std::move(ParseJsonStreaming(kept, nullptr, pack, policy).document);
  for (const auto& [key, value] : packed) document[key] = PackedJsonValue(value);
  return document;
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
    const std::string key = Key(text, i, key_end);
    const size_t value_end = ValueEnd(text, key_end + 1);
    const std::string_view member = text.substr(key_end + 1, value_end - key_end - 1);
    visit(key, ParseCanonical(member, pack, nullptr));
    i = text[value_end] == ',' ? value_end + 1 : value_end;
  }
  return true;
}

json PackedJsonArray::At(size_t index, const JsonPackFilter& pack,
                         const JsonArrayPolicyFactory& array_policy) const {
  return ParseCanonical(Text(index), pack, array_policy);
}

PackedArrayView::PackedArrayView(std::string_view canonical_text, std::string owned)
    : owned_(std::move(owned)), text_(owned_.empty() ? canonical_text : owned_) {
  for (size_t i = 1; text_[i] != ']'; ++size_) i = AfterElement(text_, i);
}

std::string_view PackedArrayView::Text(size_t index) const {
  if (index < cursor_index_) {
    cursor_index_ = 0;
    cursor_offset_ = 1;
  }
  for (; cursor_index_ < index; ++cursor_index_) {
    cursor_offset_ = AfterElement(text_, cursor_offset_);
  }
  return text_.substr(cursor_offset_, ValueEnd(text_, cursor_offset_) - cursor_offset_);
}

json PackedArrayView::At(size_t index) const {
  const std::string_view text = Text(index);
  return json::parse(text.begin(), text.end());
}

json PackedArrayView::At(size_t index, const JsonPackFilter& pack,
                         const JsonArrayPolicyFactory& array_policy) const {
  return ParseCanonical(Text(index), pack, array_policy);
}

std::unique_ptr<PackedArrayView> PackedArrayElements(const json& value) {
  if (value.is_array()) return std::make_unique<PackedArrayView>(std::string_view(), value.dump());
  if (!IsPackedJsonValue(value)) return nullptr;
  const std::string_view text = PackedJsonText(value);
  if (text.empty() || text[0] != '[') return nullptr;
  return std::make_unique<PackedArrayView>(text, std::string());
}

}  // namespace animconv
