#include "formats/three/three_clip_uuid.h"

#include <fmt/format.h>

#include <cstring>

namespace animconv {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;

uint64_t RotateLeft(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

uint64_t LoadWord(const char* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);  // little-endian words everywhere: the same bytes on every host
#endif
  return word;
}

uint64_t Round(uint64_t accumulator, uint64_t word) {
  return RotateLeft(accumulator + word * kPrime2, 31) * kPrime1;
}

}  // namespace

// Four independent multiply-rotate lanes over 32-byte stripes (the structure of xxHash64's main
// loop), so the digest runs at several bytes a cycle where FNV-1a's one dependent multiply per
// byte made the uuid an eighth of a large clip's writing time (docs/performance.md). Only
// determinism matters here, not compatibility with any published hash.
uint64_t DigestArrayText(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  uint64_t lanes[4] = {kPrime1 + kPrime2, kPrime2, 0, 0 - kPrime1};
  for (; end - p >= 32; p += 32) {
    for (int lane = 0; lane < 4; ++lane) lanes[lane] = Round(lanes[lane], LoadWord(p + 8 * lane));
  }
  uint64_t digest = RotateLeft(lanes[0], 1) + RotateLeft(lanes[1], 7) + RotateLeft(lanes[2], 12) +
                    RotateLeft(lanes[3], 18) + static_cast<uint64_t>(text.size());
  for (; end - p >= 8; p += 8) digest = RotateLeft(digest ^ Round(0, LoadWord(p)), 27) * kPrime1;
  for (; p < end; ++p) digest = RotateLeft(digest ^ (static_cast<uint8_t>(*p) * kPrime3), 11);
  digest ^= digest >> 33;
  digest *= kPrime2;
  digest ^= digest >> 29;
  digest *= kPrime3;
  return digest ^ (digest >> 32);
}

ClipUuidHash::ClipUuidHash(size_t clip_index)
    : high_(0xcbf29ce484222325ull ^ clip_index), low_(0x84222325cbf29ce4ull + clip_index) {}

// Two FNV-1a 64-bit lanes with different offset bases.
void ClipUuidHash::AddText(std::string_view text) {
  for (const char c : text) {
    high_ = (high_ ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
    low_ = (low_ ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  }
}

void ClipUuidHash::AddArray(uint64_t digest) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(digest >> (8 * i));
  AddText(std::string_view(bytes, sizeof bytes));
}

std::string ClipUuidHash::Uuid() const {
  const uint64_t high = (high_ & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000008000ull;
  const uint64_t low = (low_ & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                     high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFull);
}

}  // namespace animconv
