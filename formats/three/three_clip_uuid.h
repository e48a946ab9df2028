// The uuid the three.js writer gives each clip: derived from the clip's text, so the same input
// always gives the same bytes (docs/formats/threejs.md, "uuid").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace animconv {

// A 64-bit digest of one times or values array's text. Arrays are most of a clip's bytes (a
// 50 MB Unity CSV makes 71 MB of them), so they are digested where they are formatted, on every
// core, and a times array shared by many tracks only once; ClipUuidHash then reads 8 bytes for
// each.
uint64_t DigestArrayText(std::string_view text);

// The clip's uuid, in the lower-case form three.js MathUtils.generateUUID writes: two FNV-1a
// 64-bit hashes of the clip's text, given in order, with each times or values array read as its
// digest's 8 bytes, little-endian (AddArray). Clips of one file must differ (ObjectLoader keys
// clips by uuid, three.js r187 AnimationClip.parse), which `clip_index` guarantees. Marked as a
// version-8 (custom) UUID, RFC 9562 §5.8: it is not random.
class ClipUuidHash {
 public:
  explicit ClipUuidHash(size_t clip_index);
  void AddText(std::string_view text);
  void AddArray(uint64_t digest);
  std::string Uuid() const;

 private:
  uint64_t high_;
  uint64_t low_;
};

}  // namespace animconv
