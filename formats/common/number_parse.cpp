#include "formats/common/number_parse.h"

#include <charconv>
#include <cstring>

namespace animconv {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool ParseDecimalSlow(const char** cursor, const char* end, char decimal_mark, double* out) {
  // Find the extent with the same grammar as the fast path, then let from_chars round it.
  const char* p = *cursor;
  if (p < end && (*p == '-' || *p == '+')) ++p;
  const char* digits_begin = p;
  while (p < end && IsDigit(*p)) ++p;
  if (p + 1 < end && *p == decimal_mark && IsDigit(p[1])) {
    ++p;
    while (p < end && IsDigit(*p)) ++p;
  }
  if (p == digits_begin) return false;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    if (q < end && (*q == '-' || *q == '+')) ++q;
    if (q < end && IsDigit(*q)) {
      while (q < end && IsDigit(*q)) ++q;
      p = q;
    }
  }
  char buffer[128];
  const size_t length = static_cast<size_t>(p - *cursor);
  if (length >= sizeof buffer) return false;
  std::memcpy(buffer, *cursor, length);
  for (size_t i = 0; i < length; ++i) {
    if (buffer[i] == decimal_mark) buffer[i] = '.';
  }
  const char* start = buffer[0] == '+' ? buffer + 1 : buffer;  // from_chars takes no '+'
  double value;
  const auto result = std::from_chars(start, buffer + length, value);
  // Out of range (1e999) is an error, like NaN and Inf: none of them is keyframe data.
  if (result.ec != std::errc() || result.ptr != buffer + length) return false;
  *out = value;
  *cursor = p;
  return true;
}

}  // namespace animconv
