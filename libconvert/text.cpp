#include "libconvert/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace animconv {
namespace {

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

std::string_view TrimAscii(std::string_view text) {
  const char* kSpace = " \t\r\n\v\f";
  const size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(kSpace);
  return text.substr(begin, end - begin + 1);
}

std::string_view StripUtf8Bom(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

size_t FormatShortest(float value, char* out) {
  if (value == 0.0f) value = 0.0f;  // "-0" reads back fine but is noise in the output
  return static_cast<size_t>(std::to_chars(out, out + 32, value).ptr - out);
}

size_t FormatShortest(double value, char* out) {
  if (value == 0.0) value = 0.0;
  return static_cast<size_t>(std::to_chars(out, out + 32, value).ptr - out);
}

size_t FormatFixed(double value, int decimals, char* out) {
  // Beyond 1e15 fixed notation would not fit the 40-char buffer; such values are not keyframe data
  // anyone prints with fixed decimals, so fall back to the shortest form.
  if (!(std::fabs(value) < 1e15) || decimals > 17) return FormatShortest(value, out);
  // printf rounds the exact binary value; an exact tie (0.0625 to 3 decimals) goes to even, where
  // C#'s F3 rounds away from zero. Values read from fixed-decimal text never sit on such ties.
  int length = std::snprintf(out, 40, "%.*f", decimals, value);
  // A value that rounds to zero is printed without its sign, as Unity's exporter does.
  if (out[0] == '-' && std::strspn(out + 1, "0.") == static_cast<size_t>(length - 1)) {
    std::memmove(out, out + 1, static_cast<size_t>(length));
    --length;
  }
  return static_cast<size_t>(length);
}

std::string ShortestText(double value) {
  char buffer[32];
  return std::string(buffer, FormatShortest(value, buffer));
}

}  // namespace animconv
