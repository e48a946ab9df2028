#include "formats/common/number_parse.h"

#include <cstring>

#if !ANIMCONV_FLOAT_CHARCONV
#include <fast_float/fast_float.h>

#include <cmath>
#else
#include <charconv>
#endif

namespace animconv {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The one seam between the builds: [begin, end) is a whole number in this file's grammar (no
// '+'); true with the correctly rounded double unless it is out of range. Native builds use
// std::from_chars; emscripten's libc++ has no floating-point from_chars, so the web build uses
// fast_float (Debian's libfast-float-dev), which rounds the same but does not report range:
// libstdc++ refuses overflow to infinity and underflow to zero from nonzero digits, so this does
// too (both builds then read and refuse the same files).
bool ParseWholeDouble(const char* begin, const char* end, double* out) {
#if !ANIMCONV_FLOAT_CHARCONV
  double value;
  const auto result = fast_float::from_chars(begin, end, value);
  if (result.ec != std::errc() || result.ptr != end || std::isinf(value)) return false;
  if (value == 0) {
    for (const char* p = begin; p < end && *p != 'e' && *p != 'E'; ++p) {
      if (*p >= '1' && *p <= '9') return false;  // underflow: libstdc++'s result_out_of_range
    }
  }
#else
  double value;
  const auto result = std::from_chars(begin, end, value);
  if (result.ec != std::errc() || result.ptr != end) return false;
#endif
  *out = value;
  return true;
}

}  // namespace

bool ParseDecimalSlow(const char** cursor, const char* end, char decimal_mark, double* out) {
  // Find the extent with the same grammar as the fast path, then let ParseWholeDouble round it.
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
  // Out of range (1e999) is an error, like NaN and Inf: none of them is keyframe data.
  if (!ParseWholeDouble(start, buffer + length, out)) return false;
  *cursor = p;
  return true;
}

}  // namespace animconv
