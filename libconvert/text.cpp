#include "libconvert/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace animconv {
namespace {

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The length of the well-formed UTF-8 sequence at `at` (Unicode table 3-7), or 0 when there is
// none; the code point in `*code_point`.
size_t Utf8SequenceAt(std::string_view text, size_t at, char32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  }
  size_t length = 0;
  unsigned char low = 0x80;  // the range of the second byte, narrower after some leads
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size() || byte(1) < low || byte(1) > high) return 0;
  char32_t value = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(i) & 0x3F);
  }
  *code_point = value;
  return length;
}

bool IsUnprintable(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) ||                        // C0, DEL, C1
         c == 0x061C || c == 0x200E || c == 0x200F ||                   // bidirectional marks
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);  // embeddings, isolates
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && EqualsIgnoreCase(text.substr(0, prefix.size()), prefix);
}

bool EndsWithIgnoreCase(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         EqualsIgnoreCase(text.substr(text.size() - suffix.size()), suffix);
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

size_t FindInvalidUtf8(std::string_view text) {
  char32_t code_point = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceAt(text, i, &code_point);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string ReplaceInvalidUtf8(std::string_view text) {
  std::string replaced;
  replaced.reserve(text.size());
  char32_t code_point = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceAt(text, i, &code_point);
    if (length == 0) {
      replaced += "\xEF\xBF\xBD";
      ++i;
    } else {
      replaced.append(text, i, length);
      i += length;
    }
  }
  return replaced;
}

std::string EscapeForTerminal(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  char32_t code_point = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceAt(text, i, &code_point);
    if (length != 0 && !IsUnprintable(code_point)) {
      escaped.append(text, i, length);
      i += length;
      continue;
    }
    for (size_t end = i + std::max<size_t>(length, 1); i < end; ++i) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(text[i]));
      escaped += hex;
    }
  }
  return escaped;
}

size_t FormatShortest(float value, char* out) {
  if (value == 0.0f) value = 0.0f;  // "-0" reads back fine but is noise in the output
  return FormatShortestWithoutCharconv(value, out);  // faster than to_chars (text.h)
}

size_t FormatShortest(double value, char* out) {
  if (value == 0.0) value = 0.0;
#if ANIMCONV_FLOAT_CHARCONV
  return static_cast<size_t>(std::to_chars(out, out + 32, value).ptr - out);
#else
  return FormatShortestWithoutCharconv(value, out);
#endif
}

namespace {

// "00" to "99": digits are written two at a time.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// 10^0 to 10^19, all of uint64_t's.
struct PowersOfTen {
  uint64_t value[20];
};
constexpr PowersOfTen MakePowersOfTen() {
  PowersOfTen powers{};
  uint64_t power = 1;
  for (int i = 0; i < 20; ++i, power *= 10) powers.value[i] = power;
  return powers;
}
constexpr PowersOfTen kPowersOfTen = MakePowersOfTen();

// The digits of `value` > 0 without dividing: its bit length times log10(2) (1233 / 4096) is the
// count or one less, and one comparison tells which. A loop of divisions by 100 was a quarter of
// the layout's time, as long a chain as the digits' own (docs/performance.md, session 31).
int DecimalDigitCount(uint64_t value) {
  const int bits = 64 - __builtin_clzll(value | 1);
  const int guess = (bits * 1233) >> 12;
  return guess + (value >= kPowersOfTen.value[guess] ? 1 : 0);
}

// Writes the decimal digits of `value` (no leading zeros) so that the last one ends before `end`.
// A float's digits are 32-bit (Dragonbox's carrier), and divide faster so.
template <typename Unsigned>
void WriteDigitsBefore(Unsigned value, char* end) {
  for (; value >= 100; value /= 100) {
    end -= 2;
    std::memcpy(end, kDigitPairs + 2 * (value % 100), 2);
  }
  if (value >= 10) {
    std::memcpy(end - 2, kDigitPairs + 2 * value, 2);
  } else {
    end[-1] = static_cast<char>('0' + value);
  }
}

// to_chars's shortest text of `value`, from the shortest decimal digits that read back as it:
// value = 0.DIGITS x 10^point. The digits come from fmt's Dragonbox (the digits fmt's own "{}" and
// to_chars both give: shortest, correctly rounded), called directly, and are written in place:
// formatting "{}" and picking the text apart again, with a heap string per number, made the web
// build's three.js writer several times slower than to_chars (docs/performance.md, "WebAssembly
// vs native"), and a digit buffer copied twice made it no faster than to_chars natively ("Float
// text written in place", session 29). fmt::detail::dragonbox::to_decimal is fmt's internal API
// (Debian's fmt 9.1); TextTest.ShortestWithoutCharconvIsToCharsText holds this to to_chars's text.
template <typename Float>
size_t LayOutLikeToChars(Float value, char* out) {
  char* p = out;
  if (std::isnan(value)) {
    std::memcpy(p, std::signbit(value) ? "-nan" : "nan", std::signbit(value) ? 4 : 3);
    return std::signbit(value) ? 4 : 3;
  }
  if (std::signbit(value)) *p++ = '-';
  if (std::isinf(value)) {
    std::memcpy(p, "inf", 3);
    return static_cast<size_t>(p + 3 - out);
  }
  if (value == 0) {
    *p++ = '0';
    return static_cast<size_t>(p - out);
  }
  const auto decimal = fmt::detail::dragonbox::to_decimal(std::fabs(value));
  auto significand = decimal.significand;  // uint32_t for a float, uint64_t for a double
  int exponent = decimal.exponent;
  while (significand % 10 == 0) {
    significand /= 10;
    ++exponent;
  }
  const int count = DecimalDigitCount(significand);
  const int point = count + exponent;
  const int scientific_exponent = point - 1;
  const int exponent_digits = std::abs(scientific_exponent) >= 100 ? 3 : 2;
  const int scientific_length = count + (count > 1 ? 1 : 0) + 2 + exponent_digits;
  const int fixed_length = point <= 0 ? 2 - point + count : point < count ? count + 1 : point;
  if (fixed_length <= scientific_length) {  // to_chars: fixed unless scientific is shorter
    if (point <= 0) {
      // "0." and -point zeros, at most 3: fixed is chosen only when it is no longer than
      // scientific, so -point <= (count > 1) + 2 (a 3-digit exponent needs point <= -99). Written
      // as one fixed-size copy, not a memset call per number (a sixth of the layout's time).
      std::memcpy(p, "0.000", 5);
      p += 2 - point;
      WriteDigitsBefore(significand, p + count);
      p += count;
    } else if (point > count) {
      // An integer wider than its shortest digits: to_chars writes its exact value
      // (32274591744 for the float nearest 3.2274592e10), as printf's %.0f does.
      p += std::snprintf(p, 32, "%.0f", std::fabs(static_cast<double>(value)));
    } else if (point == count) {
      WriteDigitsBefore(significand, p + count);
      p += count;
    } else {
      // The digits, then the fraction's count - point <= 16 of them one place to the right,
      // through 16 bytes (a fixed-size copy, not a memmove call; it stays within the 40 chars of
      // `out`: point + 1 + 16 <= 33, after a sign), and the point in their place.
      WriteDigitsBefore(significand, p + count);
      char fraction[16];
      std::memcpy(fraction, p + point, sizeof fraction);
      std::memcpy(p + point + 1, fraction, sizeof fraction);
      p[point] = '.';
      p += count + 1;
    }
  } else {
    WriteDigitsBefore(significand, p + count + 1);  // D.DDD: the first digit moves left
    p[0] = p[1];
    if (count > 1) {
      p[1] = '.';
      p += count + 1;
    } else {
      p += 1;
    }
    *p++ = 'e';
    *p++ = scientific_exponent < 0 ? '-' : '+';
    const int magnitude = std::abs(scientific_exponent);
    if (exponent_digits == 3) *p++ = static_cast<char>('0' + magnitude / 100);
    *p++ = static_cast<char>('0' + magnitude / 10 % 10);
    *p++ = static_cast<char>('0' + magnitude % 10);
  }
  return static_cast<size_t>(p - out);
}

}  // namespace

size_t FormatShortestWithoutCharconv(float value, char* out) {
  return LayOutLikeToChars(value, out);
}

size_t FormatShortestWithoutCharconv(double value, char* out) {
  return LayOutLikeToChars(value, out);
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
  char buffer[40];
  return std::string(buffer, FormatShortest(value, buffer));
}

std::string ListFirst(const std::vector<std::string>& items, size_t shown,
                      std::string_view separator) {
  std::string text;
  for (size_t i = 0; i < items.size() && i < shown; ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  if (shown < items.size()) text += " and " + std::to_string(items.size() - shown) + " more";
  return text;
}

std::string FirstNames::Join(std::string_view separator) const {
  std::string text = ListFirst(names_, shown_, separator);
  if (count_ > names_.size()) text += " and " + std::to_string(count_ - names_.size()) + " more";
  return text;
}

}  // namespace animconv
