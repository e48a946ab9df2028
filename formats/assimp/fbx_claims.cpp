#include "formats/assimp/fbx_claims.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

#include "animconv/error.h"

namespace animconv {
namespace {

constexpr std::string_view kMagic("Kaydara FBX Binary  \0", 21);
constexpr uint64_t kZlibMostRatio = 1032;

uint64_t ReadUnsigned(std::string_view bytes, size_t at, size_t width) {
  uint64_t value = 0;
  std::memcpy(&value, bytes.data() + at, width);  // little-endian, as FBX and x86 are
  return value;
}

size_t ElementBytes(char type) {
  switch (type) {
    case 'd':
    case 'l':
      return 8;
    case 'f':
    case 'i':
      return 4;
    case 'b':
      return 1;
    default:
      return 0;
  }
}

size_t ScalarBytes(char type) {
  switch (type) {
    case 'Y':
      return 2;
    case 'C':
      return 1;
    case 'I':
    case 'F':
      return 4;
    case 'D':
    case 'L':
      return 8;
    default:
      return 0;
  }
}

}  // namespace

void CheckFbxArrayClaims(std::string_view bytes, const std::string& source) {
  if (bytes.size() < 27 || bytes.substr(0, kMagic.size()) != kMagic) return;
  const uint64_t version = ReadUnsigned(bytes, 23, 4);
  const size_t width = version >= 7500 ? 8 : 4;
  const size_t header = 3 * width + 1;
  // Records in file order: a record's properties, then its children, then the next record; a
  // null record ends a list of children. Each step moves forward, so the walk ends.
  size_t at = 27;
  while (at + header <= bytes.size()) {
    const uint64_t end = ReadUnsigned(bytes, at, width);
    const uint64_t count = ReadUnsigned(bytes, at + width, width);
    const uint64_t length = ReadUnsigned(bytes, at + 2 * width, width);
    const size_t name_length = static_cast<unsigned char>(bytes[at + 3 * width]);
    if (end == 0 && count == 0 && length == 0) {
      at += header;  // a null record
      continue;
    }
    const size_t properties = at + header + name_length;
    if (properties > bytes.size() || length > bytes.size() - properties) return;
    const size_t properties_end = properties + static_cast<size_t>(length);
    const std::string_view name = bytes.substr(at + header, name_length);
    size_t p = properties;
    for (uint64_t k = 0; k < count && p < properties_end; ++k) {
      const char type = bytes[p++];
      if (const size_t scalar = ScalarBytes(type)) {
        p += scalar;
      } else if (type == 'S' || type == 'R') {
        if (p + 4 > properties_end) return;
        p += 4 + static_cast<size_t>(ReadUnsigned(bytes, p, 4));
      } else if (const size_t element = ElementBytes(type)) {
        if (p + 12 > properties_end) return;
        const uint64_t elements = ReadUnsigned(bytes, p, 4);
        const uint64_t encoding = ReadUnsigned(bytes, p + 4, 4);
        const uint64_t stored = ReadUnsigned(bytes, p + 8, 4);
        const uint64_t claimed = elements * element;
        const bool impossible =
            encoding == 0 ? claimed != stored : claimed > kZlibMostRatio * stored + 64;
        if (impossible) {
          throw Error(ErrorKind::kBadInput, source, fmt::format("byte {}", p - 1),
                      fmt::format("FBX array '{}' claims {} elements ({} bytes) from {} stored "
                                  "bytes{}, more than they can hold",
                                  std::string(name), elements, claimed, stored,
                                  encoding == 0 ? "" : " of zlib (at most 1032:1)"));
        }
        p += 12 + static_cast<size_t>(stored);
      } else {
        return;  // a type this walk does not know: Assimp decides
      }
    }
    at = properties_end;
  }
}

}  // namespace animconv
