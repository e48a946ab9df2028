#include "formats/gltf/gltf_buffer_list.h"

#include <fmt/format.h>

#include <string>

#include "formats/gltf/gltf_buffers.h"

namespace animconv {

using nlohmann::json;

namespace {
// A buffer's byte in kinds_: its Source and flags.
uint8_t Kind(GltfBufferList::Source source, int flags) {
  return static_cast<uint8_t>(static_cast<int>(source) | flags);
}
}  // namespace

void GltfBufferList::Element(json&& element) {
  failure_.Run([&] { Check(element, size() - 1); });
  // The reader refuses the document at the first buffer refused: the rest is never read.
  if (failure_.failed()) StopWanting();
}

void GltfBufferList::Check(json& element, size_t index) {
  const std::string pointer = fmt::format("/buffers/{}", index);
  if (!element.is_object()) errors_.Fail(pointer, "expected an object");
  const size_t declared = errors_.OptionalCount(element, "byteLength", pointer, 0);
  const std::string& uri = errors_.OptionalString(element, "uri", pointer);
  if (uri.empty()) {
    const bool meshopt_fallback =
        element.contains("extensions") && element["extensions"].contains("EXT_meshopt_compression");
    // Buffer 0 of a GLB may be its BIN chunk, which is known once the JSON chunk is parsed.
    if (index == 0) {
      declared_.push_back(declared);
      kinds_.push_back(Kind(Source::kNoUri, meshopt_fallback ? kMeshoptFallbackBit : 0));
      return;
    }
    if (!meshopt_fallback) errors_.Fail(pointer, "has no uri and is not the GLB's BIN chunk");
    kinds_.push_back(Kind(Source::kMeshoptFallback, 0));
    return;
  }
  if (uri.compare(0, 5, "data:") != 0) {
    uris_ += uri;
    uri_ends_.push_back(uris_.size());
    declared_.push_back(declared);
    kinds_.push_back(Kind(Source::kExternal, 0));
    return;
  }
  std::string bytes;
  if (!DecodeDataUri(uri, &bytes)) errors_.Fail(pointer + "/uri", "expected a base64 data: URI");
  if (bytes.size() < declared) {
    errors_.Fail(pointer, fmt::format("byteLength is {} but the data has only {} bytes", declared,
                                      bytes.size()));
  }
  kinds_.push_back(Kind(Source::kDataUri, bytes.empty() ? 0 : kHasDataBit));
  if (!bytes.empty()) decoded_.push_back(std::move(bytes));
}

}  // namespace animconv
