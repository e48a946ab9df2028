// The BVH text as whitespace-separated tokens with their byte offsets, and the LINE:COLUMN every
// BVH error names. BVH is token based (Assimp's and Blender's readers split on any whitespace):
// CRLF, tabs and odd spacing are all just separators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace animconv {

// 1-based "LINE:COLUMN" of a byte offset (columns in bytes). O(offset): for error messages only.
std::string BvhLocation(std::string_view text, size_t offset);

struct BvhToken {
  std::string_view text;  // empty at the end of the file
  size_t offset = 0;      // where it starts (the file size at the end)
};

class BvhCursor {
 public:
  // `text` without its UTF-8 byte order mark; offsets count from the mark when there is one.
  BvhCursor(std::string_view text, std::string source);

  BvhToken Next();
  // The next token, which must be `keyword`; otherwise a located error "expected {what}".
  BvhToken Expect(std::string_view keyword, std::string_view what);
  // One number token (C-locale decimal, no NaN or Inf): a located error naming `what` otherwise.
  double Number(std::string_view what);
  // A number in the MOTION data: the same rules, without building a token first (it runs once
  // per value of the file). `what` is built only on error.
  template <typename What>
  double Value(What what);
  // The same without failing: false (nothing consumed) when no number starts here.
  bool TryValue(double* out) {
    SkipSpace();
    value_offset_ = position_;
    return ParseNumberHere(out);
  }
  size_t value_offset() const { return value_offset_; }  // where the last TryValue looked
  // Whether a token follows on the current line. Line ends are CR or LF: three.js's BVHLoader
  // splits the text at /[\r\n]+/, Blender's importer reads it in universal-newline mode.
  bool MoreOnLine();
  // Skips the rest of the current line and its line end; returns the tokens skipped.
  size_t SkipRestOfLine();
  // From `offset`, whether each of the next `lines` lines holding tokens holds at least
  // `tokens` of them (a frame fits on every line). Reads ahead only; O(bytes read).
  bool LinesHoldAtLeast(size_t offset, uint64_t lines, size_t tokens) const;

  [[noreturn]] void Fail(size_t offset, const std::string& message) const;
  [[noreturn]] void FailAt(const BvhToken& token, const std::string& expected) const;

  size_t offset() const { return position_; }
  void Seek(size_t offset) { position_ = offset; }  // back to an offset() seen before
  size_t size() const { return text_.size(); }
  size_t remaining_bytes() const { return text_.size() - position_; }
  bool AtEnd();  // only whitespace left
  const std::string& source() const { return source_; }
  std::string Location(size_t offset) const { return BvhLocation(text_, offset); }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
  static bool IsLineEnd(char c) { return c == '\r' || c == '\n'; }
  void SkipSpace() {
    while (position_ < text_.size() && IsSpace(text_[position_])) ++position_;
  }
  bool ParseNumberHere(double* out);

  std::string_view text_;
  std::string source_;
  size_t position_ = 0;
  size_t value_offset_ = 0;
};

template <typename What>
double BvhCursor::Value(What what) {
  SkipSpace();
  double value = 0;
  if (!ParseNumberHere(&value)) FailAt(Next(), "a number for " + what());
  return value;
}

}  // namespace animconv
