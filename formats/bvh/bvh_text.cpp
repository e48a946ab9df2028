#include "formats/bvh/bvh_text.h"

#include <fmt/format.h>

#include <cmath>

#include "animconv/error.h"
#include "formats/common/number_parse.h"
#include "libconvert/text.h"

namespace animconv {

std::string BvhLocation(std::string_view text, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

BvhCursor::BvhCursor(std::string_view text, std::string source)
    : text_(text), source_(std::move(source)) {
  position_ = text.size() - StripUtf8Bom(text).size();
}

BvhToken BvhCursor::Next() {
  SkipSpace();
  const size_t start = position_;
  while (position_ < text_.size() && !IsSpace(text_[position_])) ++position_;
  return {text_.substr(start, position_ - start), start};
}

BvhToken BvhCursor::Expect(std::string_view keyword, std::string_view what) {
  const BvhToken token = Next();
  if (token.text != keyword) FailAt(token, std::string(what));
  return token;
}

bool BvhCursor::AtEnd() {
  SkipSpace();
  return position_ == text_.size();
}

bool BvhCursor::MoreOnLine() {
  while (position_ < text_.size() && IsSpace(text_[position_]) && !IsLineEnd(text_[position_])) {
    ++position_;
  }
  return position_ < text_.size() && !IsLineEnd(text_[position_]);
}

size_t BvhCursor::SkipRestOfLine() {
  size_t tokens = 0;
  while (MoreOnLine()) {
    ++tokens;
    while (position_ < text_.size() && !IsSpace(text_[position_])) ++position_;
  }
  while (position_ < text_.size() && IsLineEnd(text_[position_])) ++position_;
  return tokens;
}

bool BvhCursor::LinesHoldAtLeast(size_t offset, uint64_t lines, size_t tokens) const {
  size_t i = offset;
  for (uint64_t line = 0; line < lines; ++line) {
    size_t count = 0;
    // Blank lines are skipped, as both readers skip them.
    while (count == 0) {
      if (i >= text_.size()) return false;
      while (i < text_.size() && !IsLineEnd(text_[i])) {
        while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
        if (i >= text_.size() || IsLineEnd(text_[i])) break;
        ++count;
        while (i < text_.size() && !IsSpace(text_[i])) ++i;
      }
      while (i < text_.size() && IsLineEnd(text_[i])) ++i;
    }
    if (count < tokens) return false;
  }
  return true;
}

bool BvhCursor::ParseNumberHere(double* out) {
  const char* begin = text_.data() + position_;
  const char* end = text_.data() + text_.size();
  const char* cursor = begin;
  // '.' whatever the process locale: BVH is written in the C locale.
  if (!ParseDecimal(&cursor, end, '.', out) || !std::isfinite(*out)) return false;
  // "6." is a C-locale number too (strtod, JavaScript's parseFloat read it); ParseDecimal wants a
  // digit after the mark.
  if (cursor != end && *cursor == '.' && cursor > begin && cursor[-1] >= '0' && cursor[-1] <= '9' &&
      (cursor + 1 == end || IsSpace(cursor[1]))) {
    ++cursor;
  }
  if (cursor != end && !IsSpace(*cursor)) return false;  // "1.5x", "1,5"
  position_ += static_cast<size_t>(cursor - begin);
  return true;
}

double BvhCursor::Number(std::string_view what) {
  return Value([what] { return std::string(what); });
}

void BvhCursor::Fail(size_t offset, const std::string& message) const {
  throw Error(ErrorKind::kBadInput, source_, BvhLocation(text_, offset), message);
}

void BvhCursor::FailAt(const BvhToken& token, const std::string& expected) const {
  // Quoted input is cut: a "token" may be megabytes of binary.
  constexpr size_t kShown = 40;
  const std::string found =
      token.text.empty() ? "the end of the file"
                         : fmt::format("'{}{}'", ReplaceInvalidUtf8(token.text.substr(0, kShown)),
                                       token.text.size() > kShown ? "..." : "");
  Fail(token.offset, fmt::format("expected {}, found {}", expected, found));
}

}  // namespace animconv
