#include "libconvert/three_node_name.h"

namespace animconv {
namespace {

// Length of the UTF-8 sequence at `text[i]` if it encodes a code point JavaScript's \s matches
// beyond ASCII (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF),
// else 0.
size_t UnicodeSpaceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  const unsigned b0 = byte(0), b1 = byte(1), b2 = byte(2);
  if (b0 == 0xC2 && b1 == 0xA0) return 2;
  if (b0 == 0xE1 && b1 == 0x9A && b2 == 0x80) return 3;
  if (b0 == 0xE2 && b1 == 0x80 &&
      ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF)) {
    return 3;
  }
  if (b0 == 0xE2 && b1 == 0x81 && b2 == 0x9F) return 3;
  if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x80) return 3;
  if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) return 3;
  return 0;
}

}  // namespace

std::string SanitizeNodeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size();) {
    const char c = name[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
      out += '_';
      ++i;
    } else if (const size_t length = UnicodeSpaceLength(name, i)) {
      out += '_';
      i += length;
    } else {
      if (c != '[' && c != ']' && c != '.' && c != ':' && c != '/') out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace animconv
