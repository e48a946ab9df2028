// Where --compress puts its accessors (docs/formats/gltf.md, "Compact output"): one bufferView per
// kind of data (filter, stream stride, component type) holding every accessor of that kind at its
// byteOffset, instead of one bufferView each. That saves the JSON of a view per channel (with the
// extension, ~250 bytes: most of a compressed walk's bytes otherwise) and gives the attribute
// codec long streams. Accessors stay tightly packed (glTF 2.0 §3.11: no byteStride).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/gltf/gltf_compress.h"
#include "formats/gltf/gltf_pass_through.h"

namespace animconv {

class AnimationStreams {
 public:
  // With `meshopt`, each stream is EXT_meshopt_compression-compressed where that pays.
  AnimationStreams(GltfBuilder& builder, bool meshopt) : builder_(builder), meshopt_(meshopt) {}

  // Adds the accessor (its bufferView is set by Finish); returns its index.
  size_t Add(const EncodedAccessor& encoded, std::optional<nlohmann::json> min,
             std::optional<nlohmann::json> max);
  // Writes one bufferView per stream and points its accessors at it. Call once, after every Add.
  void Finish();

 private:
  struct Stream {
    std::string bytes;          // as stored (filter input)
    std::string decoded_bytes;  // what the accessors read (differs with a filter)
    size_t stride = 4;
    std::string filter = "NONE";
  };
  // An accessor whose bufferView and byteOffset Finish sets (its index is first_index_ + its
  // place here: no other accessor is added in between).
  struct Pending {
    nlohmann::json definition;
    std::string stream;  // its key in streams_
    size_t byte_offset = 0;
  };

  GltfBuilder& builder_;
  const bool meshopt_;
  std::map<std::string, Stream> streams_;
  std::vector<Pending> pending_;
  size_t first_index_ = 0;
};

}  // namespace animconv
