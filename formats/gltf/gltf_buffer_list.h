// A glTF document's `buffers` (glTF 2.0 §3.6.1), checked and their data: URIs decoded as each is
// parsed, so that neither a tree of the array nor its URIs' text is held (issue 14,
// docs/reliability.md "Limits": 37,000 `{}` as `buffers` cost 3.1 times the memory bound as a
// tree). What a buffer needs from outside the JSON (the GLB's BIN chunk, an external file) is
// resolved by LoadBufferViews (gltf_buffers.cpp), in buffer order, so the first fault reported is
// the one it always was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/json_stream.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

class GltfBufferList : public JsonElementSink {
 public:
  enum class Source : uint8_t {
    kDataUri,          // decoded, its byteLength checked: `data`
    kExternal,         // a file to load: `uri`
    kNoUri,            // the GLB's BIN chunk when it is buffer 0 of a GLB that has one
    kMeshoptFallback,  // no data: every view on it is EXT_meshopt_compression-compressed
  };
  struct Buffer {
    Source source = Source::kDataUri;
    bool meshopt_fallback = false;  // kNoUri: whether it may stand without data
    size_t declared_bytes = 0;      // byteLength (kExternal, kNoUri)
    std::string_view data;          // kDataUri
    std::string_view uri;           // kExternal
  };

  explicit GltfBufferList(GltfErrors errors) : errors_(std::move(errors)) {}

  // How many buffers were read: those before the first one refused (all when none is).
  size_t count() const { return kinds_.size(); }
  // Calls visit(index, buffer) for each of them in order, then throws the first buffer's
  // refusal if there is one: at its place in buffer order.
  template <typename Visitor>
  void Visit(Visitor&& visit) const {
    size_t decoded = 0, declared = 0, uri = 0;
    for (size_t index = 0; index < kinds_.size(); ++index) {
      Buffer buffer;
      buffer.source = static_cast<Source>(kinds_[index] & kSourceBits);
      buffer.meshopt_fallback = (kinds_[index] & kMeshoptFallbackBit) != 0;
      if (buffer.source == Source::kDataUri && (kinds_[index] & kHasDataBit)) {
        buffer.data = decoded_[decoded++];
      }
      if (buffer.source == Source::kExternal || buffer.source == Source::kNoUri) {
        buffer.declared_bytes = declared_[declared++];
      }
      if (buffer.source == Source::kExternal) {
        const size_t begin = uri == 0 ? 0 : uri_ends_[uri - 1];
        buffer.uri = std::string_view(uris_).substr(begin, uri_ends_[uri] - begin);
        ++uri;
      }
      visit(index, buffer);
    }
    failure_.RethrowIfFailed();
  }

 protected:
  void Element(nlohmann::json&& element) override;

 private:
  static constexpr uint8_t kSourceBits = 3;
  static constexpr uint8_t kHasDataBit = 4;
  static constexpr uint8_t kMeshoptFallbackBit = 8;
  // The checks LoadBufferViews made on each buffer before the buffers were streamed, in its order.
  void Check(nlohmann::json& element, size_t index);

  GltfErrors errors_;
  DeferredFailure failure_;
  // Per buffer one byte (its Source and flags); the rest only for the buffers that have it, in
  // buffer order: a file of many small buffers costs little more than its text (issue 14).
  std::vector<uint8_t> kinds_;
  std::deque<std::string> decoded_;  // a deque: growing it moves no buffer's bytes
  std::vector<size_t> declared_;
  std::string uris_;  // every external buffer's uri, one after the other
  std::vector<size_t> uri_ends_;
};

}  // namespace animconv
