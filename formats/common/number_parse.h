// Fast, exact decimal parsing for the text readers.
#pragma once

#include <cstdint>

namespace animconv {

// The general path of ParseDecimal (exponents, long mantissas); same contract.
bool ParseDecimalSlow(const char** cursor, const char* end, char decimal_mark, double* out);

// Parses one decimal number at [*cursor, end): optional sign, digits, optional `decimal_mark`
// and digits, optional exponent. On success stores the correctly rounded double, advances
// *cursor past it and returns true. Rejects NaN, Inf and anything that is not a plain number
// (leaves *cursor unchanged and returns false). Inline: it runs once per value of every file.
inline bool ParseDecimal(const char** cursor, const char* end, char decimal_mark, double* out) {
  static constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                            1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* p = *cursor;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  // The Unity exporter's shape, one digit, the mark and three decimals ("0.030", "-0,014"), is
  // nearly every value of a large file; matching it without the digit loops makes the whole
  // import markedly faster. The result is what the general code below computes: the digits as
  // one integer divided by 10^3. p[5] must end the number (no fourth decimal, no exponent).
  if (end - p >= 6 && static_cast<unsigned>(p[0] - '0') < 10 && p[1] == decimal_mark &&
      static_cast<unsigned>(p[2] - '0') < 10 && static_cast<unsigned>(p[3] - '0') < 10 &&
      static_cast<unsigned>(p[4] - '0') < 10 && static_cast<unsigned>(p[5] - '0') >= 10 &&
      (p[5] | 0x20) != 'e') {
    const unsigned digits =
        static_cast<unsigned>(p[0] - '0') * 1000 + static_cast<unsigned>(p[2] - '0') * 100 +
        static_cast<unsigned>(p[3] - '0') * 10 + static_cast<unsigned>(p[4] - '0');
    const double value = static_cast<double>(digits) / 1e3;
    *out = negative ? -value : value;
    *cursor = p + 5;
    return true;
  }
  uint64_t mantissa = 0;
  const char* integer_begin = p;
  while (p < end && static_cast<unsigned>(*p - '0') < 10) {
    mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
    ++p;
  }
  const long integer_digits = p - integer_begin;
  long fraction_digits = 0;
  if (p + 1 < end && *p == decimal_mark && static_cast<unsigned>(p[1] - '0') < 10) {
    const char* fraction_begin = ++p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10) {
      mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
      ++p;
    }
    fraction_digits = p - fraction_begin;
  }
  if (integer_digits + fraction_digits == 0) return false;
  // Fast path: a mantissa below 2^53 and an exact power of ten make the division correctly
  // rounded (both operands are exact). Anything else takes the general path.
  if (integer_digits + fraction_digits > 15 || (p < end && (*p == 'e' || *p == 'E'))) {
    return ParseDecimalSlow(cursor, end, decimal_mark, out);
  }
  double value = static_cast<double>(mantissa);
  if (fraction_digits > 0) value /= kPowersOfTen[fraction_digits];
  *out = negative ? -value : value;
  *cursor = p;
  return true;
}

}  // namespace animconv
