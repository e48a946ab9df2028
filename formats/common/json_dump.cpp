#include "formats/common/json_dump.h"

#include <ostream>
#include <streambuf>

#include "formats/common/canonical_json.h"

namespace animconv {
namespace {

// operator<< on a stream of width 0 is dump(): compact, UTF-8 kept, invalid UTF-8 refused
// (nlohmann/json 3.11 operator<<, serializer with the default error handler).
class CountingBuffer : public std::streambuf {
 public:
  size_t count = 0;

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) ++count;
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    count += static_cast<size_t>(n);
    return n;
  }
};

class AppendingBuffer : public std::streambuf {
 public:
  explicit AppendingBuffer(std::string& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) out_ += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* text, std::streamsize n) override {
    out_.append(text, static_cast<size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

// Whether `value` holds a packed value (canonical_json.h) anywhere.
bool HoldsPackedValue(const nlohmann::json& value) {
  if (IsPackedJsonValue(value)) return true;
  if (!value.is_structured()) return false;
  for (const nlohmann::json& child : value) {
    if (HoldsPackedValue(child)) return true;
  }
  return false;
}

// dump() of a tree holding packed values: containers written here, packed values as their text,
// everything else by dump(). Recursive: a parsed tree nests at most kMaxJsonNesting levels.
void DumpWithPackedValues(const nlohmann::json& value, std::ostream& stream) {
  if (IsPackedJsonValue(value)) {
    const std::string_view text = PackedJsonText(value);
    stream.write(text.data(), static_cast<std::streamsize>(text.size()));
    return;
  }
  if (value.is_object()) {
    stream << '{';
    bool first = true;
    for (auto member = value.begin(); member != value.end(); ++member) {
      if (!first) stream << ',';
      first = false;
      stream << nlohmann::json(member.key()) << ':';
      DumpWithPackedValues(member.value(), stream);
    }
    stream << '}';
  } else if (value.is_array()) {
    stream << '[';
    bool first = true;
    for (const nlohmann::json& element : value) {
      if (!first) stream << ',';
      first = false;
      DumpWithPackedValues(element, stream);
    }
    stream << ']';
  } else {
    stream << value;
  }
}

// dump() into `buffer`; rethrows what dump() would throw (invalid UTF-8), which a stream would
// otherwise turn into its failbit.
void DumpInto(const nlohmann::json& value, std::streambuf& buffer) {
  std::ostream stream(&buffer);
  stream.exceptions(std::ios::badbit);
  if (HoldsPackedValue(value)) {
    DumpWithPackedValues(value, stream);
  } else {
    stream << value;
  }
}

}  // namespace

size_t JsonDumpSize(const nlohmann::json& value) {
  CountingBuffer buffer;
  DumpInto(value, buffer);
  return buffer.count;
}

void AppendJsonDump(const nlohmann::json& value, std::string& out) {
  AppendingBuffer buffer(out);
  DumpInto(value, buffer);
}

}  // namespace animconv
