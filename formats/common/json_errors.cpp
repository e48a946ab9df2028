// JSON syntax errors, located by a second, validating pass (the error path only).
#include "formats/common/json_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "animconv/error.h"
#include "formats/common/json_release.h"

namespace animconv {

using nlohmann::json;

namespace {

// Records the first error nlohmann reports, with its byte position, and stops.
class FirstErrorSax : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const json::exception& error) override {
    position_ = position;
    last_token_ = last_token;
    message_ = error.what();
    number_overflow_ = error.id == 406;
    return false;
  }

  size_t position_ = 0;  // 1-based index of the last byte read
  std::string last_token_;
  std::string message_;
  bool number_overflow_ = false;
};

// nlohmann's text without its "[json.exception…] parse error at line L, column C: " prefix.
std::string_view WhatWasExpected(std::string_view message) {
  const size_t tag_end = message.find("] ");
  if (tag_end != std::string_view::npos) message.remove_prefix(tag_end + 2);
  if (message.substr(0, 11) == "parse error") {
    const size_t colon = message.find(": ");
    if (colon != std::string_view::npos) message.remove_prefix(colon + 2);
  }
  return message;
}

}  // namespace

std::string JsonLineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
  return fmt::format("{}:{}", std::count(before.begin(), before.end(), '\n') + 1, column);
}

void ThrowJsonSyntaxError(const std::string& source, std::string_view bytes) {
  FirstErrorSax sax;
  json::sax_parse(bytes, &sax);
  if (sax.number_overflow_) {
    // The position is the number's last byte; point at its first.
    const size_t start = sax.position_ - std::min(sax.position_, sax.last_token_.size());
    ThrowBadInput(source, JsonLineColumn(bytes, start),
                  fmt::format("the number {} is out of double range", sax.last_token_));
  }
  ThrowBadInput(source, JsonLineColumn(bytes, sax.position_ == 0 ? 0 : sax.position_ - 1),
                fmt::format("invalid JSON: {}", WhatWasExpected(sax.message_)));
}

std::optional<size_t> FindExcessJsonNesting(std::string_view text) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, a quote included
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string ExcessJsonNestingMessage() {
  return fmt::format("JSON nested deeper than {} levels (no animation format nests so deep)",
                     kMaxJsonNesting);
}

json ParseJsonOrThrow(std::string_view bytes, const std::string& source) {
  if (const std::optional<size_t> excess = FindExcessJsonNesting(bytes)) {
    ThrowBadInput(source, JsonLineColumn(bytes, *excess), ExcessJsonNestingMessage());
  }
  try {
    return ParseJsonReleasingPartial(bytes);
  } catch (const json::exception&) {
    ThrowJsonSyntaxError(source, bytes);
  }
}

}  // namespace animconv
