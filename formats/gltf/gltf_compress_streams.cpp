#include "formats/gltf/gltf_compress_streams.h"

#include <fmt/format.h>

#include <string>

#include "animconv/error.h"

namespace animconv {

using nlohmann::json;

namespace {

// The size of `bytes` compressed at `stride`, padded as a stream pads it.
size_t CompressedSize(std::string bytes, size_t stride) {
  bytes.resize((bytes.size() + stride - 1) / stride * stride, '\0');
  return CompressAttributes(bytes, stride).size();
}

// The stream stride for `encoded`: with meshopt, one key per element where that compresses the
// accessor smaller than the element stride does (it does for morph weights that change smoothly,
// a lane per target; it may not for weights that jump from target to target, whose lanes hold
// one spike each).
size_t ChooseStride(const EncodedAccessor& encoded, bool meshopt) {
  const size_t stride = StreamStride(encoded);
  const size_t by_key = meshopt ? KeyStreamStride(encoded) : 0;
  if (by_key == 0 || by_key == stride) return stride;
  return CompressedSize(encoded.bytes, by_key) < CompressedSize(encoded.bytes, stride) ? by_key
                                                                                       : stride;
}

}  // namespace

size_t AnimationStreams::Add(const EncodedAccessor& encoded, std::optional<json> min,
                             std::optional<json> max) {
  json accessor = {
      {"componentType", encoded.component_type}, {"count", encoded.count}, {"type", encoded.type}};
  if (encoded.normalized) accessor["normalized"] = true;
  if (min) accessor["min"] = *min;
  if (max) accessor["max"] = *max;
  if (pending_.empty()) first_index_ = builder_.accessor_count();
  const size_t index = first_index_ + pending_.size();
  const size_t stride = ChooseStride(encoded, meshopt_);
  const std::string key = fmt::format("{}/{}/{}", encoded.filter, stride, encoded.component_type);
  Stream& stream = streams_[key];
  stream.stride = stride;
  stream.filter = encoded.filter;
  pending_.push_back({std::move(accessor), key, stream.bytes.size()});
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
  std::map<std::string, size_t> views;  // per stream
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
    views[key] = *view;
  }
  streams_.clear();
  // The accessors, in the order their indices were given out, now that their views are known.
  if (!pending_.empty() && builder_.accessor_count() != first_index_) {
    ThrowInternal("AnimationStreams: another accessor was added between Add and Finish");
  }
  for (Pending& accessor : pending_) {
    accessor.definition["bufferView"] = views.at(accessor.stream);
    if (accessor.byte_offset > 0) accessor.definition["byteOffset"] = accessor.byte_offset;
    builder_.AddAccessorDefinition(accessor.definition);
  }
  pending_.clear();
}

}  // namespace animconv
