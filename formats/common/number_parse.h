// Fast, exact decimal parsing for the text readers.
#pragma once

#include <cstdint>
#include <cstring>

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

// The Unity exporter's value and the separator after it, "d.ddd," or "-d.ddd,", read from one
// 8-byte word with no branch on the digits: the shape of nearly every value of a large file.
// Returns the bytes taken (6 or 7: the separator included) and stores the value ParseDecimal
// gives for the same text (the four digits as one integer divided by 10^3), or returns 0 where
// the text has another shape or fewer than 8 bytes are left; the caller then takes the general
// path. The sign stays a branch: measured without one (the sign bit or'ed in), the parse was
// slower, as the signs of a row follow those of the row before (docs/performance.md, session 34).
inline size_t ParseExporterValueAndSeparator(const char* p, const char* end, char decimal_mark,
                                             char separator, double* out) {
  if (end - p < 8) return 0;
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);  // the first byte in the low bits, as on every host we build for
#endif
  const bool negative = (word & 0xff) == '-';
  const uint64_t text = negative ? word >> 8 : word;  // bytes: digit, mark, digit x3, separator
  // Bytes 0, 2, 3 and 4 must be digits: after xor '0' each is at most 9. (x & 0x7f) + 0x76 sets
  // a byte's high bit exactly when its low seven bits exceed 9, and cannot carry into the next.
  constexpr uint64_t kDigitBytes = 0x000000ffffff00ffull;
  const uint64_t digits = (text ^ 0x3030303030303030ull) & kDigitBytes;
  const uint64_t above_nine =
      (((digits & 0x7f7f7f7f7f7f7f7full) + 0x7676767676767676ull) | digits) & 0x8080808080808080ull;
  const bool shaped = (above_nine & kDigitBytes) == 0 &&
                      static_cast<char>((text >> 8) & 0xff) == decimal_mark &&
                      static_cast<char>((text >> 40) & 0xff) == separator;
  if (!shaped) return 0;
  const unsigned integer = static_cast<unsigned>(digits & 0xff) * 1000 +
                           static_cast<unsigned>((digits >> 16) & 0xff) * 100 +
                           static_cast<unsigned>((digits >> 24) & 0xff) * 10 +
                           static_cast<unsigned>((digits >> 32) & 0xff);
  const double value = static_cast<double>(integer) / 1e3;
  *out = negative ? -value : value;
  return negative ? 7 : 6;
}

}  // namespace animconv
