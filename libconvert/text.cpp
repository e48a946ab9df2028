#include "libconvert/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

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

size_t FormatShortest(float value, char* out) {
  if (value == 0.0f) value = 0.0f;  // "-0" reads back fine but is noise in the output
  return static_cast<size_t>(std::to_chars(out, out + 32, value).ptr - out);
}

size_t FormatShortest(double value, char* out) {
  if (value == 0.0) value = 0.0;
  return static_cast<size_t>(std::to_chars(out, out + 32, value).ptr - out);
}

size_t FormatFixed(double value, int decimals, char* out) {
  // snprintf, not to_chars: C#'s F-format and printf both round half away from zero on the
  // decimal expansion of the binary value, which is what a round trip needs.
  // Beyond 1e15 fixed notation would not fit the 40-char buffer; such values are not keyframe data
  // anyone prints with fixed decimals, so fall back to the shortest form.
  if (!(std::fabs(value) < 1e15) || decimals > 17) return FormatShortest(value, out);
  const int length = std::snprintf(out, 40, "%.*f", decimals, value);
  return static_cast<size_t>(length);
}

std::string ShortestText(double value) {
  char buffer[32];
  return std::string(buffer, FormatShortest(value, buffer));
}

}  // namespace animconv
