// The uuid the three.js writer gives each clip: derived from the clip's text, so the same input
// always gives the same bytes (docs/formats/threejs.md, "uuid").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// A 64-bit digest of one times or values array's text. Arrays are most of a clip's bytes (a
// 50 MB Unity CSV makes 71 MB of them), so they are digested where they are formatted, on every
// core, and a times array shared by many tracks only once; ClipUuid then reads 8 bytes for each.
uint64_t DigestArrayText(std::string_view text);

// Where an array's text sits in the clip's text, and its digest.
struct DigestedArray {
  size_t offset = 0;  // from the start of the clip's text
  size_t length = 0;
  uint64_t digest = 0;
};

// The clip's uuid, in the lower-case form three.js MathUtils.generateUUID writes: two FNV-1a
// 64-bit hashes of `clip_text` with each of `arrays` (in order, not overlapping) read as its
// digest's 8 bytes, little-endian. Clips of one file must differ (ObjectLoader keys clips by
// uuid, three.js r187 AnimationClip.parse), which `clip_index` guarantees. Marked as a version-8
// (custom) UUID, RFC 9562 §5.8: it is not random.
std::string ClipUuid(std::string_view clip_text, const std::vector<DigestedArray>& arrays,
                     size_t clip_index);

}  // namespace animconv
