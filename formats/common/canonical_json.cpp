#include "formats/common/canonical_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "animconv/error.h"

namespace animconv {

using nlohmann::json;

namespace {

// The bytes of a JSON string as dump() escaped it (nlohmann/json 3.11 serializer::dump_escaped:
// `"` `\` and the control characters, as \b \t \n \f \r or \u00XX; UTF-8 kept), unescaped one at
// a time from its opening quote.
class EscapedString {
 public:
  EscapedString(std::string_view text, size_t quote) : text_(text), at_(quote + 1) {}

  // The next byte (0-255), or -1 at the closing quote (and after it).
  int Next() {
    const char c = text_[at_];
    if (c == '"') return -1;
    ++at_;
    if (c != '\\') return static_cast<unsigned char>(c);
    const char escape = text_[at_++];
    switch (escape) {
      case 'b':
        return '\b';
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'f':
        return '\f';
      case 'r':
        return '\r';
      case 'u': {
        const int value = std::stoi(std::string(text_.substr(at_, 4)), nullptr, 16);
        at_ += 4;
        return value;  // dump() escapes only code points below 0x20 this way
      }
      default:
        return static_cast<unsigned char>(escape);  // `"` or `\`
    }
  }

 private:
  std::string_view text_;
  size_t at_;
};

// std::map's order (std::string's operator<, bytes as unsigned char) of two escaped keys.
int CompareEscapedKeys(std::string_view text, size_t a, size_t b) {
  EscapedString left(text, a);
  EscapedString right(text, b);
  for (;;) {
    const int x = left.Next();
    const int y = right.Next();
    if (x != y) return x < y ? -1 : 1;
    if (x < 0) return 0;
  }
}

}  // namespace

void CanonicalJsonWriter::BeforeValue() {
  if (open_.empty()) return;
  Open& parent = open_.back();
  if (parent.object) return;  // Key() wrote the member's separator
  if (parent.count++ > 0) out_ += ',';
}

void CanonicalJsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

void CanonicalJsonWriter::Boolean(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void CanonicalJsonWriter::Integer(int64_t value) {
  BeforeValue();
  out_ += fmt::format_int(value).c_str();
}

void CanonicalJsonWriter::Unsigned(uint64_t value) {
  BeforeValue();
  out_ += fmt::format_int(value).c_str();
}

void CanonicalJsonWriter::Float(double value) {
  BeforeValue();
  out_ += json(value).dump();  // dump()'s own shortest round-trip form ("1.0", "1e+20")
}

void CanonicalJsonWriter::String(const std::string& value) {
  BeforeValue();
  out_ += json(value).dump();
}

void CanonicalJsonWriter::StartObject() {
  BeforeValue();
  Open object;
  object.object = true;
  object.start = out_.size();
  open_.push_back(std::move(object));
  out_ += '{';
}

void CanonicalJsonWriter::Key(const std::string& key) {
  Open& object = open_.back();
  if (object.count++ > 0) out_ += ',';
  const size_t offset = out_.size() - object.start;
  if (static_cast<uint64_t>(offset) > UINT32_MAX)
    ThrowInternal("CanonicalJsonWriter: an object over 4 GiB");
  object.members.push_back(static_cast<uint32_t>(offset));
  if (object.in_order) {
    object.in_order = object.count == 1 || object.last_key < key;
    if (object.in_order) object.last_key = key;
  }
  out_ += json(key).dump();
  out_ += ':';
}

void CanonicalJsonWriter::EndObject() {
  if (!open_.back().in_order) SortMembers(open_.back());
  open_.pop_back();
  out_ += '}';
}

void CanonicalJsonWriter::StartArray() {
  BeforeValue();
  Open array;
  array.start = out_.size();
  open_.push_back(std::move(array));
  out_ += '[';
}

void CanonicalJsonWriter::EndArray() {
  open_.pop_back();
  out_ += ']';
}

// The members in key order, a repeated key's last member only (json::parse keeps the last value,
// nlohmann/json 3.11 json_sax_dom_parser::key): a stable sort by key, then the last of each run.
void CanonicalJsonWriter::SortMembers(const Open& object) {
  const size_t count = object.members.size();
  const size_t end = out_.size();
  const auto member_begin = [&](size_t i) { return object.start + object.members[i]; };
  // A member's text without the comma after it.
  const auto member_end = [&](size_t i) { return i + 1 < count ? member_begin(i + 1) - 1 : end; };
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return CompareEscapedKeys(out_, member_begin(a), member_begin(b)) < 0;
  });
  std::string sorted;
  sorted.reserve(end - object.start - 1);
  for (size_t k = 0; k < count; ++k) {
    const size_t i = order[k];
    if (k + 1 < count &&
        CompareEscapedKeys(out_, member_begin(i), member_begin(order[k + 1])) == 0) {
      continue;  // a later member of the same key follows
    }
    if (!sorted.empty()) sorted += ',';
    sorted.append(out_, member_begin(i), member_end(i) - member_begin(i));
  }
  out_.resize(object.start + 1);
  out_ += sorted;
}

json PackedJsonValue(std::string_view canonical_text) {
  return json::binary(json::binary_t::container_type(canonical_text.begin(), canonical_text.end()));
}

bool IsPackedJsonValue(const json& value) {
  return value.is_binary() && !value.get_binary().has_subtype();
}

std::string_view PackedJsonText(const json& value) {
  const json::binary_t& bytes = value.get_binary();
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace animconv
