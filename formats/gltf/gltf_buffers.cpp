#include "formats/gltf/gltf_buffers.h"

#include <fmt/format.h>
#if ANIMCONV_WITH_MESHOPT
#include <meshoptimizer.h>
#endif

#include <cstring>
#include <deque>

#include "animconv/error.h"
#include "formats/common/base64.h"
#include "formats/common/json_errors.h"
#include "formats/common/json_release.h"
#include "formats/common/json_stream.h"
#include "formats/gltf/glb.h"
#include "formats/gltf/gltf_output.h"

namespace animconv {
namespace {

using nlohmann::json;

uint32_t ReadU32(std::string_view bytes, size_t offset) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + offset, 4);
  return value;  // GLB is little-endian, like every machine we build for
}

// The top-level members the document's own checks and the VRM readers read as trees. An array
// there is packed (ParseDocument), so that it is refused at its place ("/asset: expected an
// object") or written as it was, never a tree.
bool IsReadAsTree(const std::string& key) {
  return IsOneOf(key, {"extensionsUsed", "extensionsRequired", "asset", "scene", "extensions"});
}

// Whether the member at `path` of the document is kept packed (canonical_json.h) and written from
// its text: a top-level `extras` or unknown member, the asset's `extras`, a top-level extension
// other than the VRM ones the readers read, and the members of those the VRM readers do not read
// (vrm_humanoid.cpp, vrm_expressions.cpp, vrm_look_at.cpp: a VRM 0.x model's materialProperties and
// secondaryAnimation are most of it); and the VRM 0.x lists the readers read element by element.
bool PackedInDocument(const JsonPath& path) {
  const std::string& key = path.steps().back().key;
  // At the top, all but what the document's own checks and the VRM readers read as trees: the
  // lists go to their sinks when they are arrays (ParseDocument), and anything else there is
  // refused or written as it was, so it is never a tree (a `nodes` object of 24,000 `{}`).
  if (path.depth() == 1) return !IsReadAsTree(key);
  if (path.depth() == 2 && path.Is(0, "asset")) return key == "extras";
  if (path.depth() == 2 && path.Is(0, "extensions")) {
    return !IsOneOf(key, {"VRM", "VRMC_vrm", "VRMC_vrm_animation"});
  }
  if (path.depth() == 3 && path.Is(0, "extensions")) {
    return path.Is(1, "VRM") ? !IsOneOf(key, {"humanoid", "blendShapeMaster", "firstPerson"})
                             : !IsOneOf(key, {"humanoid", "expressions", "lookAt"});
  }
  // The VRM lists and maps the readers read one entry at a time (vrm_humanoid.cpp,
  // vrm_expressions.cpp): 37,000 `{}` VRM 0.x blend shape groups were 8 MB of tree for their
  // 111 KB, 20,000 VRM 1.0 custom expressions 7 MB for 229 KB.
  if (path.depth() == 4 && path.Is(0, "extensions")) {
    // And in the lookAt what vrm_look_at.cpp does not read (offsetFromHeadBone, a 0.x model's
    // meshAnnotations).
    if (path.Is(1, "VRM")) {
      return (path.Is(2, "humanoid") && key == "humanBones") ||
             (path.Is(2, "blendShapeMaster") && key == "blendShapeGroups") ||
             (path.Is(2, "firstPerson") && key != "lookAtTypeName" && key.rfind("lookAt", 0) != 0);
    }
    if (path.Is(1, "VRMC_vrm") || path.Is(1, "VRMC_vrm_animation")) {
      return (path.Is(2, "humanoid") && key == "humanBones") ||
             (path.Is(2, "expressions") && (key == "preset" || key == "custom")) ||
             (path.Is(1, "VRMC_vrm") && path.Is(2, "lookAt") && key != "type" &&
              key.rfind("rangeMap", 0) != 0);
    }
  }
  return false;
}

// json::parse(text) with the top-level accessors, bufferViews and animations packed as they are
// parsed (GltfLists): as a tree they were most of the reader's peak on a file of many clips. The
// top-level arrays no reader reads are packed too (GltfLists::unread), and so are those read one
// object at a time (GltfLists::objects); the buffers are checked and decoded as they come
// (GltfBufferList), and the other members no reader reads are packed values in the tree
// (PackedInDocument).
void ParseDocument(std::string_view text, const GltfErrors& errors, GltfContainer& container) {
  static const std::pair<const char*, std::shared_ptr<const PackedJsonArray> GltfLists::*>
      kPacked[] = {{"accessors", &GltfLists::accessors},
                   {"bufferViews", &GltfLists::buffer_views},
                   {"animations", &GltfLists::animations}};
  // The top-level lists glTF defines, streamed into their sinks; another member's array (a
  // top-level `extras`) is packed whole (PackedInDocument).
  const auto listed = [](const std::string& key) {
    return IsOneOf(
        key, {"accessors", "animations", "buffers", "bufferViews", "cameras", "images", "materials",
              "meshes", "nodes", "samplers", "scenes", "skins", "textures"});
  };
  StreamedJson parsed = ParseJsonStreaming(
      text,
      [&](const JsonPath& path) {
        std::unique_ptr<JsonElementSink> sink;
        if (path.depth() != 1 || path.steps()[0].is_index) return sink;
        const std::string& key = path.steps()[0].key;
        if (key == "buffers") {
          sink = std::make_unique<GltfBufferList>(errors);
        } else if (listed(key) || IsOneOf(key, {"asset", "scene", "extensions"})) {
          // An array where an object or a number belongs (`asset`, `scene`, `extensions`) too:
          // it goes back into the tree as a packed value below, refused or written as it was.
          sink = std::make_unique<PackedJsonArray>();
        }
        return sink;
      },
      PackedInDocument,
      [](const JsonPath& path) -> std::optional<JsonArrayPolicy> {
        if (path.depth() != 1 ||
            !IsOneOf(path.steps()[0].key, {"extensionsUsed", "extensionsRequired"})) {
          return std::nullopt;
        }
        JsonArrayPolicy policy;
        policy.keep_at_most = kGltfMaxExtensionNames + 1;  // CheckAssetAndExtensions refuses more
        return policy;
      });
  if (!parsed.document.is_object()) {
    container.json = std::move(parsed.document);
    return;
  }
  for (auto member = parsed.document.begin(); member != parsed.document.end();) {
    if (parsed.SinkOf(*member) == nullptr) {
      ++member;
      continue;
    }
    std::unique_ptr<JsonElementSink>& sink =
        parsed.sinks[static_cast<size_t>(member->get_binary().subtype())];
    if (member.key() == "buffers") {
      container.buffers.reset(static_cast<GltfBufferList*>(sink.release()));
      member = parsed.document.erase(member);
      continue;
    }
    std::unique_ptr<PackedJsonArray> packed(static_cast<PackedJsonArray*>(sink.release()));
    if (IsReadAsTree(member.key())) {
      JsonArrayText array;
      for (size_t i = 0; i < packed->size(); ++i) array.AppendText(packed->Text(i));
      packed.reset();
      *member = PackedJsonValue(array.Take());
      ++member;
      continue;
    }
    std::shared_ptr<const PackedJsonArray>* list = nullptr;
    for (const auto& [key, field] : kPacked) {
      if (member.key() == key) list = &(container.lists.*field);
    }
    if (IsOneOf(member.key(), {"nodes", "meshes", "skins", "images"})) {
      container.lists.objects.emplace(member.key(),
                                      GltfObjectList(member.key(), std::move(packed)));
    } else {
      if (!list) list = &container.lists.unread[member.key()];
      *list = std::move(packed);
    }
    member = parsed.document.erase(member);
  }
  container.json = std::move(parsed.document);
}

void ParseJsonText(std::string_view text, const GltfErrors& errors, size_t offset_in_file,
                   GltfContainer& container) {
  if (const std::optional<size_t> excess = FindExcessJsonNesting(text)) {
    const std::string where = offset_in_file == 0
                                  ? JsonLineColumn(text, *excess)
                                  : fmt::format("JSON chunk {}", JsonLineColumn(text, *excess));
    ThrowBadInput(errors.source(), where, ExcessJsonNestingMessage());
  }
  try {
    ParseDocument(text, errors, container);
    return;
  } catch (const json::parse_error& error) {
    // nlohmann reports "byte" as the 1-based position where parsing failed.
    const size_t byte = error.byte > 0 ? error.byte - 1 : 0;
    const std::string where = offset_in_file == 0
                                  ? JsonLineColumn(text, byte)
                                  : fmt::format("JSON chunk {}", JsonLineColumn(text, byte));
    std::string reason = error.what();
    const size_t cut = reason.find("; last read");
    const size_t start = reason.find("syntax error");
    if (start != std::string::npos)
      reason = reason.substr(start, cut == std::string::npos ? std::string::npos : cut - start);
    ThrowBadInput(errors.source(), where, "invalid JSON: " + reason);
  } catch (const json::exception&) {
    // Not a syntax error but a value nlohmann cannot hold, a number beyond double range: the
    // three.js readers' scan finds which and where.
    try {
      ThrowJsonSyntaxError(errors.source(), text);
    } catch (const Error& error) {
      ThrowBadInput(errors.source(),
                    offset_in_file == 0 ? error.location() : "JSON chunk " + error.location(),
                    error.message());
    }
  }
}

// Decodes the glTF bufferView's bytes from its EXT_meshopt_compression source.
std::string DecodeMeshopt(const json& extension, const std::vector<std::string_view>& buffers,
                          const std::string& pointer, size_t view_length,
                          const GltfErrors& errors) {
#if !ANIMCONV_WITH_MESHOPT
  // Debian ships meshoptimizer as a native library only (docs/web.md): the web build refuses.
  static_cast<void>(extension), static_cast<void>(buffers), static_cast<void>(view_length);
  errors.Fail(pointer,
              "EXT_meshopt_compression: this build cannot decode meshopt-compressed "
              "data (the web build has no meshoptimizer); convert the file with the "
              "native animconv");
#else
  const size_t buffer = errors.Index(extension, "buffer", pointer, buffers.size(), "buffers");
  const size_t offset = errors.OptionalCount(extension, "byteOffset", pointer, 0);
  const size_t length = errors.OptionalCount(extension, "byteLength", pointer, 0);
  const size_t stride = errors.OptionalCount(extension, "byteStride", pointer, 0);
  const size_t count = errors.OptionalCount(extension, "count", pointer, 0);
  const std::string mode = errors.OptionalString(extension, "mode", pointer);
  const std::string filter = errors.OptionalString(extension, "filter", pointer);
  if (offset > buffers[buffer].size() || length > buffers[buffer].size() - offset) {
    errors.Fail(pointer, "the compressed range lies outside its buffer");
  }
  if (stride == 0 || count == 0 || stride > 256 || count > view_length / stride ||
      count * stride != view_length) {
    errors.Fail(pointer, fmt::format("count {} x byteStride {} must equal the bufferView's "
                                     "byteLength {}",
                                     count, stride, view_length));
  }
  std::string out(view_length, '\0');
  const auto* source = reinterpret_cast<const unsigned char*>(buffers[buffer].data() + offset);
  int result = -1;
  if (mode == "ATTRIBUTES") {
    if (stride % 4 != 0) errors.Fail(pointer, "ATTRIBUTES needs a byteStride multiple of 4");
    // The filters' own strides (EXT_meshopt_compression, "Filters"); meshoptimizer asserts them.
    if ((filter == "OCTAHEDRAL" && stride != 4 && stride != 8) ||
        (filter == "QUATERNION" && stride != 8)) {
      errors.Fail(pointer, fmt::format("filter {} needs a byteStride of {}", filter,
                                       filter == "QUATERNION" ? "8" : "4 or 8"));
    }
    result = meshopt_decodeVertexBuffer(out.data(), count, stride, source, length);
    if (result == 0 && filter == "OCTAHEDRAL") {
      meshopt_decodeFilterOct(out.data(), count, stride);
    } else if (result == 0 && filter == "QUATERNION") {
      meshopt_decodeFilterQuat(out.data(), count, stride);
    } else if (result == 0 && filter == "EXPONENTIAL") {
      meshopt_decodeFilterExp(out.data(), count, stride);
    } else if (!filter.empty() && filter != "NONE") {
      errors.Fail(pointer + "/filter", fmt::format("unknown filter '{}'", filter));
    }
  } else if (mode == "TRIANGLES" || mode == "INDICES") {
    if (stride != 2 && stride != 4) errors.Fail(pointer, "index data needs a byteStride of 2 or 4");
    if (mode == "TRIANGLES" && count % 3 != 0) {
      errors.Fail(pointer,
                  fmt::format("TRIANGLES needs a count that is a multiple of 3, not {}", count));
    }
    result = mode == "TRIANGLES"
                 ? meshopt_decodeIndexBuffer(out.data(), count, stride, source, length)
                 : meshopt_decodeIndexSequence(out.data(), count, stride, source, length);
  } else {
    errors.Fail(pointer + "/mode", fmt::format("unknown mode '{}'", mode));
  }
  if (result != 0) errors.Fail(pointer, "the meshopt-compressed data is corrupt");
  return out;
#endif
}

}  // namespace

bool IsGlb(std::string_view bytes) { return bytes.size() >= 4 && ReadU32(bytes, 0) == kGlbMagic; }

std::string LoadExternalFile(const ReadOptions& options, const std::string& uri,
                             const std::string& uri_pointer) {
  try {
    return options.load_resource(uri);
  } catch (const Error& error) {
    if (!error.location().empty()) throw;
    throw Error(error.kind(), error.source(), uri_pointer, error.message());
  }
}

bool DecodeDataUri(const std::string& uri, std::string* bytes) {
  if (uri.compare(0, 5, "data:") != 0) return false;
  const size_t comma = uri.find(',');
  if (comma == std::string::npos || comma < 12 || uri.compare(comma - 7, 7, ";base64") != 0) {
    return false;
  }
  return Base64Decode(std::string_view(uri).substr(comma + 1), bytes);
}

GltfContainer::~GltfContainer() { ReleaseJson(json); }

GltfContainer ParseGltfContainer(std::string_view bytes, const GltfErrors& errors) {
  GltfContainer container;
  if (!IsGlb(bytes)) {
    ParseJsonText(bytes, errors, 0, container);
  } else {
    container.binary = true;
    auto fail = [&](const std::string& where, const std::string& message) {
      ThrowBadInput(errors.source(), where, message);
    };
    if (bytes.size() < 20)
      fail("GLB header", "truncated: a GLB needs a 12-byte header and a chunk");
    if (ReadU32(bytes, 4) != 2) {
      fail("GLB header", fmt::format("version {}, expected 2", ReadU32(bytes, 4)));
    }
    const uint32_t total = ReadU32(bytes, 8);
    if (total > bytes.size()) {
      fail("GLB header",
           fmt::format("declares {} bytes but the file has {}: truncated", total, bytes.size()));
    }
    const uint32_t json_length = ReadU32(bytes, 12);
    if (ReadU32(bytes, 16) != kGlbJsonChunk) fail("GLB chunk 0", "the first chunk must be JSON");
    if (json_length > total - 20) {
      fail("GLB chunk 0", fmt::format("JSON chunk of {} bytes does not fit the file", json_length));
    }
    ParseJsonText(bytes.substr(20, json_length), errors, 20, container);
    const size_t bin_header = 20 + ((static_cast<size_t>(json_length) + 3) & ~size_t{3});
    if (bin_header + 8 <= total) {
      const uint32_t bin_length = ReadU32(bytes, bin_header);
      if (ReadU32(bytes, bin_header + 4) == kGlbBinChunk) {
        if (bin_length > total - bin_header - 8) {
          fail("GLB chunk 1",
               fmt::format("BIN chunk of {} bytes does not fit the file", bin_length));
        }
        container.glb_bin = bytes.substr(bin_header + 8, bin_length);
        container.has_glb_bin = true;
      }
    }
  }
  if (!container.json.is_object()) {
    errors.Fail("", "expected a glTF JSON object");
  }
  return container;
}

std::vector<std::string> LoadBufferViews(GltfContainer& container, const ReadOptions& options,
                                         uint64_t decode_budget, const GltfErrors& errors) {
  json& document = container.json;
  // Each buffer's bytes: the GLB BIN chunk in place in the input, the others decoded or read into
  // `owned` (sized once, so the views into it stay valid). Only the bufferViews are copied out,
  // once: the document outlives the input.
  std::vector<std::string_view> buffers;
  std::deque<std::string> external;  // the external buffers' bytes (a deque: the views stay)
  if (const GltfBufferList* list = container.buffers.get()) {
    buffers.reserve(list->count());
    list->Visit([&](size_t b, const GltfBufferList::Buffer& buffer) {
      const std::string pointer = fmt::format("/buffers/{}", b);
      std::string_view data = buffer.data;  // a data: URI's, its length checked as decoded
      if (buffer.source == GltfBufferList::Source::kNoUri) {
        if (container.has_glb_bin) {
          data = container.glb_bin;
        } else if (!buffer.meshopt_fallback) {
          errors.Fail(pointer, "has no uri and is not the GLB's BIN chunk");
        }
      } else if (buffer.source == GltfBufferList::Source::kExternal) {
        const std::string uri(buffer.uri);
        if (!options.load_resource) {
          errors.Fail(pointer + "/uri", fmt::format("external buffer '{}' cannot be read when "
                                                    "the input comes from memory",
                                                    uri));
        }
        external.push_back(LoadExternalFile(options, uri, pointer + "/uri"));
        data = external.back();
      }
      // A meshopt fallback buffer has no data: every view on it must be compressed.
      const bool fallback = buffer.source == GltfBufferList::Source::kMeshoptFallback ||
                            (buffer.meshopt_fallback && data.empty());
      if (!fallback && data.size() < buffer.declared_bytes) {
        errors.Fail(pointer, fmt::format("byteLength is {} but the data has only {} bytes",
                                         buffer.declared_bytes, data.size()));
      }
      buffers.push_back(data);
    });
  } else {
    // Only a `buffers` that is not an array is left in the tree: refused.
    static_cast<void>(errors.OptionalArray(document, "buffers", ""));
  }

  std::vector<std::string> views;
  uint64_t decoded_total = 0;
  if (const PackedJsonArray* list =
          errors.OptionalList(document, container.lists.buffer_views.get(), "bufferViews")) {
    views.reserve(list->size());
    for (size_t v = 0; v < list->size(); ++v) {
      const json view = list->At(v);
      const std::string pointer = fmt::format("/bufferViews/{}", v);
      if (!view.is_object()) errors.Fail(pointer, "expected an object");
      const size_t buffer = errors.Index(view, "buffer", pointer, buffers.size(), "buffers");
      const size_t offset = errors.OptionalCount(view, "byteOffset", pointer, 0);
      const size_t length = errors.OptionalCount(view, "byteLength", pointer, 0);
      const json* meshopt = nullptr;
      if (view.contains("extensions") && view["extensions"].is_object() &&
          view["extensions"].contains("EXT_meshopt_compression")) {
        meshopt = &view["extensions"]["EXT_meshopt_compression"];
      }
      if (meshopt) {
        // Decompression multiplies data: bound the total before allocating anything.
        decoded_total += length;
        if (decoded_total > decode_budget) {
          errors.Fail(pointer, fmt::format("{} bytes of decompressed data is more than this file "
                                           "can plausibly hold",
                                           length));
        }
        views.push_back(DecodeMeshopt(
            *meshopt, buffers, pointer + "/extensions/EXT_meshopt_compression", length, errors));
        continue;
      }
      const std::string_view data = buffers[buffer];
      if (offset > data.size() || length > data.size() - offset) {
        errors.Fail(pointer, fmt::format("bytes {}..{} lie outside buffer {} ({} bytes)", offset,
                                         offset + length, buffer, data.size()));
      }
      views.emplace_back(data.substr(offset, length));
    }
  }
  container.buffers.reset();  // the views hold copies; the decoded buffers are freed
  return views;
}

}  // namespace animconv
