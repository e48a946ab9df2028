#include "formats/gltf/gltf_compress_streams.h"

#include <fmt/format.h>

namespace animconv {

using nlohmann::json;

size_t AnimationStreams::Add(const EncodedAccessor& encoded, std::optional<json> min,
                             std::optional<json> max) {
  json accessor = {
      {"componentType", encoded.component_type}, {"count", encoded.count}, {"type", encoded.type}};
  if (encoded.normalized) accessor["normalized"] = true;
  if (min) accessor["min"] = *min;
  if (max) accessor["max"] = *max;
  const size_t index = builder_.AddAccessorDefinition(std::move(accessor));
  const size_t stride = StreamStride(encoded);
  Stream& stream =
      streams_[fmt::format("{}/{}/{}", encoded.filter, stride, encoded.component_type)];
  stream.stride = stride;
  stream.filter = encoded.filter;
  stream.members.emplace_back(index, stream.bytes.size());
  stream.bytes += encoded.bytes;
  stream.decoded_bytes += encoded.filtered_bytes.empty() ? encoded.bytes : encoded.filtered_bytes;
  // Every accessor starts on an element of the stream (so also on a multiple of its component
  // size, glTF 2.0 §3.6.2.4); the padding is never read.
  const size_t padded = (stream.bytes.size() + stride - 1) / stride * stride;
  stream.bytes.resize(padded, '\0');
  stream.decoded_bytes.resize(padded, '\0');
  return index;
}

void AnimationStreams::Finish() {
  // Compressed only where that pays for the extension's JSON (~150 bytes): a tiny stream is
  // smaller as it is, and a file where none pays needs no extension at all.
  constexpr size_t kExtensionJsonBytes = 150;
  for (auto& [key, stream] : streams_) {
    std::optional<size_t> view;
    if (meshopt_) {
      const std::string compressed = CompressAttributes(stream.bytes, stream.stride);
      if (!compressed.empty() && compressed.size() + kExtensionJsonBytes < stream.bytes.size()) {
        json extension = {{"byteStride", stream.stride},
                          {"count", stream.bytes.size() / stream.stride},
                          {"mode", "ATTRIBUTES"}};
        if (stream.filter != "NONE") extension["filter"] = stream.filter;
        view =
            builder_.AddCompressedBufferView(compressed, stream.bytes.size(), std::move(extension));
      }
    }
    if (!view) view = builder_.AddBufferView(stream.decoded_bytes);
    for (const auto& [index, offset] : stream.members) {
      json& accessor = builder_.Accessor(index);
      accessor["bufferView"] = *view;
      if (offset > 0) accessor["byteOffset"] = offset;
    }
  }
  streams_.clear();
}

}  // namespace animconv
