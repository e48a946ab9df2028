#include "formats/number_parse.h"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace animconv {
namespace {

constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The general path: exponents and long mantissas go through from_chars, which rounds correctly.
bool ParseSlow(const char* begin, const char* end, char decimal_mark, double* out) {
  char buffer[128];
  const size_t length = static_cast<size_t>(end - begin);
  if (length >= sizeof buffer) return false;
  std::memcpy(buffer, begin, length);
  for (size_t i = 0; i < length; ++i) {
    if (buffer[i] == decimal_mark) buffer[i] = '.';
  }
  const char* start = buffer;
  if (*start == '+') ++start;  // from_chars does not take a leading '+'
  const auto result = std::from_chars(start, buffer + length, *out);
  return result.ec == std::errc() && result.ptr == buffer + length;
}

}  // namespace

bool ParseDecimal(const char** cursor, const char* end, char decimal_mark, double* out) {
  const char* p = *cursor;
  const char* begin = p;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  uint64_t mantissa = 0;
  int digits = 0;
  int fraction_digits = 0;
  while (p < end && IsDigit(*p)) {
    if (digits < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*p - '0');
    ++digits;
    ++p;
  }
  if (p < end && *p == decimal_mark && p + 1 < end && IsDigit(p[1])) {
    ++p;
    while (p < end && IsDigit(*p)) {
      if (digits < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*p - '0');
      ++digits;
      ++fraction_digits;
      ++p;
    }
  }
  if (digits == 0) return false;
  bool exponent = false;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    if (q < end && (*q == '-' || *q == '+')) ++q;
    if (q < end && IsDigit(*q)) {
      exponent = true;
      while (q < end && IsDigit(*q)) ++q;
      p = q;
    }
  }
  // Fast path: a mantissa below 2^53 and a power of ten that is exact in a double make the
  // division correctly rounded (both operands are exact).
  if (!exponent && digits <= 15 && fraction_digits <= 22) {
    double value = static_cast<double>(mantissa);
    if (fraction_digits > 0) value /= kPowersOfTen[fraction_digits];
    *out = negative ? -value : value;
  } else if (!ParseSlow(begin, p, decimal_mark, out)) {
    return false;
  }
  *cursor = p;
  return true;
}

}  // namespace animconv
