// Small text helpers shared by readers, writers and the CLI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// ASCII case-insensitive comparisons (bone names, file extensions).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix);
bool EndsWithIgnoreCase(std::string_view text, std::string_view suffix);
std::string_view TrimAscii(std::string_view text);
// `text` without a leading UTF-8 byte order mark (Windows tools write one).
std::string_view StripUtf8Bom(std::string_view text);

// Offset of the first byte that does not begin a well-formed UTF-8 sequence (no overlong forms,
// surrogates or code points beyond U+10FFFF), or npos when `text` is all valid UTF-8.
size_t FindInvalidUtf8(std::string_view text);
// `text` with every byte that does not begin a well-formed UTF-8 sequence replaced by U+FFFD,
// as text decoders do: for names from formats that declare no encoding (BVH, FBX), which every
// JSON-based writer must emit as valid UTF-8.
std::string ReplaceInvalidUtf8(std::string_view text);
// `text` safe to print on a terminal: control characters (C0, DEL, C1), bidirectional formatting
// characters and bytes that are not UTF-8 become \xHH, one per byte, so input quoted in a message
// cannot move the cursor, recolour or clear the screen, or reorder what is shown. Printable text,
// backslashes included, is kept, so escaping escaped text changes nothing.
std::string EscapeForTerminal(std::string_view text);

// Shortest decimal text that reads back as the same float32 / double ("0.2", "1e-07").
// Writes into `out` (at least 40 chars) and returns the length.
size_t FormatShortest(float value, char* out);
size_t FormatShortest(double value, char* out);
// The same text without floating-point std::to_chars, which emscripten's libc++ lacks: fmt's
// shortest round-trip digits laid out as to_chars lays them out (fixed unless scientific is
// shorter). FormatShortest for floats in every build (natively it formats a float32 about 15 %
// faster than libstdc++'s to_chars: docs/performance.md, "Float text written in place"), and for
// doubles in the web build (ANIMCONV_FLOAT_CHARCONV off, docs/web.md; natively to_chars is a little
// faster there). Compiled in every build so the native tests hold it to std::to_chars.
size_t FormatShortestWithoutCharconv(float value, char* out);
size_t FormatShortestWithoutCharconv(double value, char* out);
// Fixed notation with `decimals` digits after the point, like C#'s "F3" ("-0.014", "0.000").
size_t FormatFixed(double value, int decimals, char* out);

std::string ShortestText(double value);

// The first `shown` of `items` joined by `separator`, then " and N more" for the rest: for
// messages that name what was left out without flooding the terminal (or the memory: a hostile
// file can name a hundred thousand things).
std::string ListFirst(const std::vector<std::string>& items, size_t shown,
                      std::string_view separator = ", ");

// The same list built item by item, keeping only the first `shown` items and counting the rest:
// Join gives what ListFirst gives of all of them.
class FirstNames {
 public:
  explicit FirstNames(size_t shown) : shown_(shown) {}
  void Add(std::string item) {
    if (names_.size() < shown_) names_.push_back(std::move(item));
    ++count_;
  }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::string Join(std::string_view separator = ", ") const;

 private:
  size_t shown_;
  size_t count_ = 0;
  std::vector<std::string> names_;
};

}  // namespace animconv
