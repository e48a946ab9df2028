// glTF writer. With a glTF source document it passes through everything that is not animation
// (meshes, materials, images, skins, extensions such as VRM) and replaces only the animations;
// otherwise it generates nodes from the rig. What it writes must pass the Khronos validator with
// no errors or warnings: the rules are in glTF 2.0 §3.11 Animations.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include "animconv/error.h"
#include "animconv/share_key_times.h"
#include "formats/common/base64.h"
#include "formats/common/json_dump.h"
#include "formats/common/writer_support.h"
#include "formats/gltf/glb.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_compress.h"
#include "formats/gltf/gltf_compress_streams.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_float32_text.h"
#include "formats/gltf/gltf_output.h"
#include "formats/gltf/gltf_pass_through.h"
#include "formats/gltf/gltf_prune_attributes.h"
#include "formats/gltf/gltf_split_views.h"
#include "libconvert/parallel.h"

namespace animconv {
namespace {

using nlohmann::json;

const char* OutputType(Path path) {
  return path == Path::kTranslation || path == Path::kScale ? "VEC3"
         : path == Path::kRotation                          ? "VEC4"
                                                            : "SCALAR";
}

const char* SamplerInterpolation(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kLinear:
      return "LINEAR";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
  }
  return "LINEAR";
}

std::string Float32Bytes(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

// Adds animation samplers to `builder`, sharing one input accessor between channels whose
// float32 key times are identical. With `compression` (--compress) each output takes the compact
// encoding of gltf_compress.h, byte-identical accessors are written once, and with `meshopt`
// every animation bufferView is EXT_meshopt_compression-compressed.
class AnimationWriter {
 public:
  AnimationWriter(GltfBuilder& builder, const std::optional<GltfCompression>& compression,
                  bool meshopt)
      : builder_(builder),
        compression_(compression),
        meshopt_(meshopt),
        streams_(builder, meshopt) {}

  // The animation's text, as dump() of its object writes it: its members in key order, channels
  // and samplers rendered one by one (a clip of 30,000 channels held them as two trees and a copy).
  std::string Write(const Asset& asset, const Clip& clip) {
    JsonArrayText channels;
    JsonArrayText samplers;
    // Plain outputs: their places taken in order, their bytes written afterwards on every core.
    std::vector<size_t> fill_offsets;
    if (!compression_) {
      size_t bytes = 0;
      for (const Channel& channel : clip.channels) {
        bytes += (channel.times_seconds.size() + channel.values.size()) * sizeof(float) + 8;
      }
      builder_.ReserveBinary(bytes);
      fill_offsets.resize(clip.channels.size());
    }
    for (size_t c = 0; c < clip.channels.size(); ++c) {
      const Channel& channel = clip.channels[c];
      const size_t input = InputAccessor(asset, clip, channel);
      size_t output = 0;
      if (compression_) {
        output = Add(EncodeSamplerOutput(channel, *compression_, meshopt_), channel.path);
      } else {
        output = builder_.AddAccessorToFill(channel.values.size(),
                                            channel.values.size() / OutputWidth(channel),
                                            OutputType(channel.path), &fill_offsets[c]);
      }
      json sampler = {{"input", input}, {"output", output}};
      // LINEAR is the default (glTF 2.0 §5.24): the compact output leaves it out.
      if (!compression_ || channel.interpolation != Interpolation::kLinear) {
        sampler["interpolation"] = SamplerInterpolation(channel.interpolation);
      }
      samplers.Append(sampler);
      channels.Append({{"sampler", samplers.size() - 1},
                       {"target", {{"node", channel.node}, {"path", PathName(channel.path)}}}});
    }
    if (!compression_) {
      size_t values = 0;
      for (const Channel& channel : clip.channels) values += channel.values.size();
      // Threads pay off from about a hundred thousand numbers (three_json_writer.cpp's rule).
      ParallelFor(
          clip.channels.size(),
          [&](size_t c) {
            const Channel& channel = clip.channels[c];
            builder_.FillFloat32(fill_offsets[c], channel.values.data(), channel.values.size());
          },
          values >= 100000 ? 0 : 1);
    }
    std::string text = "{\"channels\":" + channels.Take();
    if (!clip.name.empty()) {
      text += ",\"name\":";
      AppendJsonDump(clip.name, text);
    }
    text += ",\"samplers\":" + samplers.Take() + "}";
    return text;
  }

  // Writes the compact accessors' bufferViews (after the last Write).
  void Finish() { streams_.Finish(); }

  // What --compress did, for the diagnostics: "rotation 16-bit quaternion filter 12 bits: 40
  // channel(s), max error 0.0031 deg; ...". Empty without compression.
  std::string Summary() const {
    std::vector<std::string> parts;
    for (const auto& [name, tally] : tallies_) {
      parts.push_back(fmt::format("{}: {} channel(s), max error {:.3g} {}", name, tally.channels,
                                  tally.max_error, tally.unit));
    }
    std::string text = fmt::format("{}", fmt::join(parts, "; "));
    if (merged_ > 0) text += fmt::format("; {} identical output accessor(s) shared", merged_);
    return text;
  }

 private:
  struct Tally {
    size_t channels = 0;
    double max_error = 0;
    const char* unit = "";
  };

  static size_t OutputWidth(const Channel& channel) {
    return channel.path == Path::kWeights ? 1 : static_cast<size_t>(channel.width);
  }

  static std::string EncodingName(const EncodedAccessor& encoded) {
    if (std::string(encoded.filter) == "QUATERNION") {
      return fmt::format("16-bit quaternion filter {} bits", encoded.bits);
    }
    if (std::string(encoded.filter) == "EXPONENTIAL") {
      return fmt::format("float exponential filter {} bits", encoded.bits);
    }
    if (encoded.normalized) {
      const bool is_unsigned = encoded.component_type == kGltfUnsignedByte ||
                               encoded.component_type == kGltfUnsignedShort;
      return fmt::format("{}-bit {}normalized", encoded.bits, is_unsigned ? "unsigned " : "");
    }
    return "float";
  }

  void Count(const EncodedAccessor& encoded, Path path) {
    Tally& tally = tallies_[fmt::format("{} {}", PathName(path), EncodingName(encoded))];
    ++tally.channels;
    const bool rotation = path == Path::kRotation;
    const double error =
        rotation ? encoded.max_error * 180 / 3.14159265358979323846 : encoded.max_error;
    tally.max_error = std::max(tally.max_error, error);
    tally.unit = rotation                     ? "deg"
                 : path == Path::kTranslation ? "m"
                 : path == Path::kScale       ? "ratio"
                                              : "weight";
  }

  // One accessor per distinct encoding and bytes (accessors are immutable, so sharing is safe).
  size_t Add(const EncodedAccessor& encoded, Path path) {
    Count(encoded, path);
    const std::string key =
        fmt::format("{}/{}/{}/{}/{}/", encoded.component_type, encoded.normalized, encoded.type,
                    encoded.filter, encoded.count) +
        encoded.bytes;
    auto found = outputs_.find(key);
    if (found != outputs_.end()) {
      ++merged_;
      return found->second;
    }
    const size_t index = AddEncoded(encoded, std::nullopt, std::nullopt);
    outputs_.emplace(key, index);
    return index;
  }

  size_t AddEncoded(const EncodedAccessor& encoded, std::optional<json> min,
                    std::optional<json> max) {
    return streams_.Add(encoded, std::move(min), std::move(max));
  }

  size_t InputAccessor(const Asset& asset, const Clip& clip, const Channel& channel) {
    RequireFloat32Increasing(asset, clip, channel, "gltf");
    std::vector<float> times(channel.times_seconds.begin(), channel.times_seconds.end());
    auto found = inputs_.find(times);
    if (found != inputs_.end()) return found->second;
    size_t index = 0;
    if (compression_) {
      // Times stay float32, unfiltered: the extension advises against lossy key times.
      EncodedAccessor encoded;
      encoded.bytes = Float32Bytes(times);
      encoded.component_type = kGltfFloat;
      encoded.count = times.size();
      encoded.type = "SCALAR";
      index = AddEncoded(encoded, json::array({Float32Number(times.front())}),
                         json::array({Float32Number(times.back())}));
    } else {
      index = builder_.AddAccessor(Float32Bytes(times), times.size(), "SCALAR",
                                   json::array({times.front()}), json::array({times.back()}));
    }
    inputs_.emplace(std::move(times), index);
    return index;
  }

  GltfBuilder& builder_;
  const std::optional<GltfCompression>& compression_;
  const bool meshopt_;
  AnimationStreams streams_;
  std::map<std::vector<float>, size_t> inputs_;
  std::map<std::string, size_t> outputs_;
  std::map<std::string, Tally> tallies_;
  size_t merged_ = 0;
};

// Nodes for a rig that did not come from a glTF file, as text (a BVH of 30,000 joints held them
// as 30,000 JSON objects, docs/reliability.md); with `float32_text` (--compress), their numbers as
// the shortest text of their float32.
std::string GenerateNodes(const Rig& rig, GltfOutputJson& document, Float32Text* float32_text) {
  std::vector<json> children(rig.nodes.size(), json::array());
  json roots = json::array();
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (rig.nodes[n].parent < 0) {
      roots.push_back(n);
    } else {
      children[static_cast<size_t>(rig.nodes[n].parent)].push_back(n);
    }
    if (rig.nodes[n].mesh || rig.nodes[n].morph_target_count > 0) {
      ThrowUsage(fmt::format("gltf: node '{}' shows a mesh, which only a glTF input can provide",
                             rig.nodes[n].name));
    }
  }
  JsonArrayText nodes;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const Node& node = rig.nodes[n];
    json out = json::object();
    if (!node.generated_name) out["name"] = node.name;
    if (!children[n].empty()) out["children"] = std::move(children[n]);
    if (node.rest_translation != Vec3{0, 0, 0}) out["translation"] = node.rest_translation;
    if (node.rest_rotation != Quat{0, 0, 0, 1}) out["rotation"] = node.rest_rotation;
    if (node.rest_scale != Vec3{1, 1, 1}) out["scale"] = node.rest_scale;
    if (float32_text) float32_text->ShortenNode(out);
    nodes.Append(out);
  }
  document["scene"] = 0;
  document["scenes"] = json::array({{{"nodes", std::move(roots)}}});
  return nodes.Take();
}

// The source's nodes, each changed only where it must: an animated node may not carry a `matrix`
// (ANIMATION_CHANNEL_TARGET_NODE_MATRIX), so it gets the decomposed TRS the reader computed; and a
// node takes the rig's name, so a rename (--bone-map, --bone-names) shows.
// The nodes whose translation, rotation or scale the output animates (a mesh's dequantization
// cannot go there, gltf_mesh_quantize.h).
std::vector<bool> TransformAnimatedNodes(const Asset& asset) {
  std::vector<bool> animated(asset.rig.nodes.size(), false);
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      const auto node = static_cast<size_t>(channel.node);
      if (channel.path != Path::kWeights && node < animated.size()) animated[node] = true;
    }
  }
  return animated;
}

GltfNodeEdit PassThroughNodeEdit(const Asset& asset) {
  auto animated = std::make_shared<std::vector<bool>>(asset.rig.nodes.size(), false);
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) {
      (*animated)[static_cast<size_t>(channel.node)] = true;
    }
  }
  return [&asset, animated](size_t n, json& node) {
    const Rig& rig = asset.rig;
    const bool replace_matrix = n < animated->size() && (*animated)[n] && node.contains("matrix");
    const auto name = node.find("name");
    const bool rename = n < rig.nodes.size() && !rig.nodes[n].generated_name &&
                        (name == node.end() || *name != rig.nodes[n].name);
    if (replace_matrix) {
      node.erase("matrix");
      const Node& rest = rig.nodes[n];
      node["translation"] = rest.rest_translation;
      node["rotation"] = rest.rest_rotation;
      node["scale"] = rest.rest_scale;
    }
    if (rename) node["name"] = rig.nodes[n].name;
    return replace_matrix || rename;
  };
}

void AppendU32(std::string& out, uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), 4);
}

// Text written into `out`, or only measured when `out` is null: the writers run twice, once to
// size their output exactly and once to write it, so no text is held twice or grown by doubling
// (a 131 KB .gltf of `extras` peaked at 4.19 MB, docs/reliability.md "Time and memory bounds").
class SizedOutput {
 public:
  explicit SizedOutput(std::string* out) : out_(out) {}
  size_t size() const { return size_; }

  void Add(std::string_view text) {
    size_ += text.size();
    if (out_) out_->append(text);
  }
  void AddJson(const json& value) {
    if (out_) {
      AppendJsonDump(value, *out_);
    } else {
      size_ += JsonDumpSize(value);
    }
  }
  void AddBase64(const std::string& binary) {
    if (out_) {
      AppendBase64(binary, out_);
    } else {
      size_ += Base64EncodedSize(binary.size());
    }
  }

 private:
  std::string* out_;
  size_t size_ = 0;
};

// `document` as json::dump() writes it, member by member (gltf_output.h). With `binary` (.gltf),
// the buffer's data: URI is encoded straight into the output: serialising the URI inside the
// document held the buffer four times over (bytes, base64, the URI string, the dump) and broke the
// memory bound of docs/reliability.md.
void WriteDocumentText(const GltfOutputJson& document, const std::string* binary,
                       const json& fallback, SizedOutput& out) {
  static constexpr std::string_view kUriPrefix = "data:application/octet-stream;base64,";
  out.Add("{");
  bool first = true;
  const auto member = [&](const std::string& key) {
    if (!first) out.Add(",");
    first = false;
    out.AddJson(key);
    out.Add(":");
  };
  bool buffers_written = !binary || binary->empty();
  const auto write_buffers = [&] {
    member("buffers");
    out.Add(fmt::format("[{{\"byteLength\":{},\"uri\":\"", binary->size()));
    out.Add(kUriPrefix);
    out.AddBase64(*binary);
    out.Add("\"}");
    if (!fallback.is_null()) {
      out.Add(",");
      out.AddJson(fallback);
    }
    out.Add("]");
    buffers_written = true;
  };
  document.ForEach([&](const std::string& key, const json* value, std::string_view text) {
    if (!buffers_written && key > std::string("buffers")) write_buffers();
    if (binary && key == "buffers") return;
    member(key);
    if (value) {
      out.AddJson(*value);
    } else {
      out.Add(text);
    }
  });
  if (!buffers_written) write_buffers();
  out.Add("}");
}

// The JSON text, measured first so that it is written once into an output reserved to its size,
// after `prefix_bytes` (a GLB's headers).
size_t DocumentTextSize(const GltfOutputJson& document, const std::string* binary,
                        const json& fallback) {
  SizedOutput measure(nullptr);
  WriteDocumentText(document, binary, fallback, measure);
  return measure.size();
}

// The EXT_meshopt_compression fallback buffer: no data, as large as the views on it say (the
// extension's "Fallback buffers"); null when nothing is compressed.
json FallbackBuffer(size_t byte_length) {
  if (byte_length == 0) return nullptr;
  return {{"byteLength", byte_length},
          {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}};
}

// The document as its file's bytes. A GLB's binary chunk is handed over as a piece of its own,
// not copied behind the JSON (30 MB for a 50 MB Unity CSV: docs/performance.md, session 30).
TextPieces Serialize(GltfOutputJson& document, std::string binary, bool glb, const json& fallback) {
  if (!glb) {
    document.Erase("buffers");
    std::string out;
    out.reserve(DocumentTextSize(document, &binary, fallback) + 1);
    SizedOutput write(&out);
    WriteDocumentText(document, &binary, fallback, write);
    out += '\n';
    return TextPieces(std::move(out));
  }
  if (binary.empty()) {
    document.Erase("buffers");
  } else {
    json& buffers = document["buffers"];
    buffers = json::array({{{"byteLength", binary.size()}}});
    if (!fallback.is_null()) buffers.push_back(fallback);
  }
  // GLB 2.0: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros, every
  // chunk 4-byte aligned (glTF 2.0 §3.6 buffers and accessors).
  const size_t text_size = DocumentTextSize(document, nullptr, fallback);
  const size_t text_padding = (4 - text_size % 4) % 4;
  const size_t binary_padding = (4 - binary.size() % 4) % 4;
  const size_t binary_chunk = binary.size() + binary_padding;
  const size_t total = 12 + 8 + text_size + text_padding + (binary.empty() ? 0 : 8 + binary_chunk);
  if (total > UINT32_MAX) ThrowUsage("glb: the output would exceed the 4 GiB a GLB can hold");
  std::string head;  // the header, the JSON chunk and the BIN chunk's own header
  head.reserve(total - binary_chunk);
  AppendU32(head, kGlbMagic);
  AppendU32(head, 2);
  AppendU32(head, static_cast<uint32_t>(total));
  AppendU32(head, static_cast<uint32_t>(text_size + text_padding));
  AppendU32(head, kGlbJsonChunk);
  SizedOutput write(&head);
  WriteDocumentText(document, nullptr, fallback, write);
  head.append(text_padding, ' ');
  TextPieces out;
  if (binary.empty()) {
    out.AppendOwned(std::move(head));
    return out;
  }
  AppendU32(head, static_cast<uint32_t>(binary_chunk));
  AppendU32(head, kGlbBinChunk);
  out.AppendOwned(std::move(head));
  out.AppendOwned(std::move(binary));
  out.Append(std::string(binary_padding, '\0'));
  return out;
}

}  // namespace

TextPieces WriteGltfDocumentPieces(const Asset& asset, bool glb, const WriteOptions& options,
                                   const std::function<void(GltfOutputJson&)>& finish) {
  Diagnostics* diagnostics = options.diagnostics;
  const auto* source = dynamic_cast<const GltfDocument*>(asset.source_document.get());
  if (source) {
    const GltfObjectList* nodes = source->lists.Objects("nodes");
    if (nodes ? nodes->size() != asset.rig.nodes.size() : source->json.contains("nodes")) {
      source = nullptr;  // the rig was changed: the source's nodes no longer match
    }
  }
  const std::optional<GltfCompression>& compression = options.gltf_compression;
  const bool meshopt = compression && compression->meshopt && MeshoptEncodingAvailable();
  if (compression && compression->meshopt && !meshopt) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  "--compress: this build has no meshoptimizer (the web build, docs/web.md): "
                  "written without EXT_meshopt_compression, quantized only");
  }
  // --drop-unused-attributes: the passes below read a document derived from the source whose
  // meshes lack them (its other lists and bytes shared). Declared before `document`, which refers
  // into it until the output is written.
  const AttributePrune prune = source && options.gltf_drop_unused_attributes
                                   ? PruneUnusedAttributes(*source)
                                   : AttributePrune();
  // --compress-meshes: shared views split first, so that each mesh accessor can be rewritten
  // alone (gltf_split_views.h); the same lifetime.
  const bool quantize_meshes = compression && compression->quantize_meshes;
  const ViewSplit split = source && quantize_meshes
                              ? SplitSharedViews(prune.document ? *prune.document : *source)
                              : ViewSplit();
  GltfBuilder builder;
  GltfOutputJson document;
  if (source && options.gltf_drop_unused_attributes) {
    if (prune.document) {
      source = &*prune.document;
      AddDiagnostic(diagnostics, Severity::kInfo, prune.Summary());
    } else {
      AddDiagnostic(diagnostics, Severity::kInfo,
                    "--drop-unused-attributes: every vertex attribute is read by its material (or "
                    "the file is a VRM, or uses an extension whose references are unknown)");
    }
  }
  if (split.document) {
    source = &*split.document;
    AddDiagnostic(diagnostics, Severity::kInfo, split.Summary());
  }
  std::optional<Float32Text> float32_text;
  if (compression) float32_text.emplace(*compression);
  if (source) {
    PassThroughMeshes meshes;
    meshes.float32_text = float32_text ? &*float32_text : nullptr;
    meshes.dropped_accessors = prune.accessors;
    meshes.index = compression && compression->index_meshes;
    meshes.drop_default_members = compression.has_value();
    if (compression && compression->quantize_meshes) {
      meshes.quantize = &*compression;
      meshes.transform_animated = TransformAnimatedNodes(asset);
    }
    document = PassThroughWithoutAnimations(*source, builder, diagnostics, meshopt,
                                            PassThroughNodeEdit(asset), meshes);
  } else {
    document["asset"] = {{"version", "2.0"}, {"generator", "animconv"}};
    document.SetText("nodes",
                     GenerateNodes(asset.rig, document, float32_text ? &*float32_text : nullptr));
  }
  AnimationWriter animations(builder, compression, meshopt);
  JsonArrayText written;
  ShareKeyTimesReport shared_times;
  for (const Clip& clip : asset.clips) {
    if (clip.channels.empty()) {
      // A glTF animation needs at least one channel (EMPTY_ENTITY).
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("gltf: clip '{}' has no channels and is not written", clip.name));
      continue;
    }
    std::optional<Clip> shared;
    if (compression && compression->share_key_times) {
      shared = ShareKeyTimes(clip, ShareKeyTimesOptions{}, &shared_times);
    }
    written.AppendText(animations.Write(asset, shared ? *shared : clip));
  }
  if (shared_times.channels_moved > 0) {
    AddDiagnostic(diagnostics, Severity::kInfo, "--compress: " + shared_times.Describe());
  }
  const bool wrote_animations = !written.empty();
  if (wrote_animations) document.SetText("animations", written.Take());
  animations.Finish();
  if (compression && wrote_animations) {
    AddDiagnostic(diagnostics, Severity::kInfo, "--compress: " + animations.Summary());
  }
  if (float32_text && float32_text->shortened() + float32_text->kept() > 0) {
    AddDiagnostic(diagnostics, Severity::kInfo, float32_text->Summary());
  }
  const json fallback = FallbackBuffer(builder.fallback_byte_length());
  if (!fallback.is_null()) {
    // Required: the fallback buffer holds no data, so a reader without the extension could only
    // fail later or play garbage (EXT_meshopt_compression, "Fallback buffers"); three.js
    // GLTFLoader needs setMeshoptDecoder (docs/formats/gltf.md).
    AddRequiredExtension(document, "EXT_meshopt_compression");
  }
  builder.Finish(document);
  if (finish) finish(document);
  return Serialize(document, builder.TakeBinary(), glb, fallback);
}

std::string WriteGltfDocument(const Asset& asset, bool glb, const WriteOptions& options,
                              const std::function<void(GltfOutputJson&)>& finish) {
  return WriteGltfDocumentPieces(asset, glb, options, finish).Joined();
}

std::string WriteGltfDocument(const Asset& asset, bool glb, Diagnostics* diagnostics,
                              const std::function<void(GltfOutputJson&)>& finish) {
  WriteOptions options;
  options.diagnostics = diagnostics;
  return WriteGltfDocument(asset, glb, options, finish);
}

std::string WriteGltf(const Asset& asset, const WriteOptions& options) {
  return WriteGltfDocument(asset, false, options, nullptr);
}

std::string WriteGlb(const Asset& asset, const WriteOptions& options) {
  return WriteGlbPieces(asset, options).Joined();
}

TextPieces WriteGlbPieces(const Asset& asset, const WriteOptions& options) {
  return WriteGltfDocumentPieces(asset, true, options, nullptr);
}

}  // namespace animconv
