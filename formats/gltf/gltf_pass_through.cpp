#include "formats/gltf/gltf_pass_through.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

#include "formats/gltf/gltf_compress_views.h"
#include "formats/gltf/gltf_mesh_quantize.h"
#include "formats/gltf/gltf_mesh_weld.h"
#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;

// Whether `map` changes no index (nothing was dropped before a kept one).
bool IsIdentity(const std::vector<int64_t>& map) {
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] >= 0 && map[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

std::vector<int64_t> Compact(const std::vector<bool>& keep) {
  std::vector<int64_t> map(keep.size(), -1);
  int64_t next = 0;
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) map[i] = next++;
  }
  return map;
}

// Whether it changed the reference.
bool Renumber(json& reference, const std::vector<int64_t>& map) {
  const std::optional<size_t> index = ValidIndex(reference, map.size());
  if (!index || map[*index] == static_cast<int64_t>(*index)) return false;
  reference = map[*index];
  return true;
}

std::string MimeTypeOf(const std::string& uri, const std::string& bytes) {
  if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) return "image/png";
  if (bytes.compare(0, 3, "\xFF\xD8\xFF") == 0) return "image/jpeg";
  if (bytes.size() >= 12 && bytes.compare(0, 4, "RIFF") == 0 && bytes.compare(8, 4, "WEBP") == 0) {
    return "image/webp";
  }
  if (bytes.compare(0, 12, "\xABKTX 20\xBB\r\n\x1A\n") == 0) return "image/ktx2";
  const size_t dot = uri.rfind('.');
  const std::string extension = dot == std::string::npos ? "" : uri.substr(dot + 1);
  if (extension == "avif") return "image/avif";
  return "";
}

// A bufferView's definition with the byteStride of its quantized elements.
json QuantizedViewDefinition(json definition, size_t view, const MeshQuantization& quantized) {
  const auto found = quantized.views.find(view);
  if (found == quantized.views.end()) return definition;
  if (found->second.stride != 0) definition["byteStride"] = found->second.stride;
  return definition;
}

// Whether `value` is an array of exactly these numbers.
bool NumbersEqual(const json& value, std::initializer_list<double> numbers) {
  if (!value.is_array() || value.size() != numbers.size()) return false;
  auto number = numbers.begin();
  for (const json& x : value) {
    if (!x.is_number() || x.get<double>() != *number++) return false;
  }
  return true;
}

// PassThroughMeshes::drop_default_members for one element of `key` (nodes or meshes); true when
// it changed it.
bool DropDefaultMembers(const std::string& key, json& element) {
  if (!element.is_object()) return false;
  bool changed = false;
  const auto drop = [&](json& object, const char* member, std::initializer_list<double> value) {
    const auto found = object.find(member);
    if (found == object.end() || !NumbersEqual(*found, value)) return;
    object.erase(found);
    changed = true;
  };
  if (key == "nodes") {
    drop(element, "translation", {0, 0, 0});
    drop(element, "rotation", {0, 0, 0, 1});
    drop(element, "scale", {1, 1, 1});
    drop(element, "matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  } else if (key == "meshes") {
    changed = RewriteMeshPrimitives(element, [](json& primitive) {
      const auto mode = primitive.is_object() ? primitive.find("mode") : primitive.end();
      if (mode == primitive.end() || !mode->is_number_integer() || mode->get<int64_t>() != 4) {
        return false;
      }
      primitive.erase(mode);
      return true;
    });
  }
  return changed;
}

void EraseExtension(GltfOutputJson& document, const char* list, const std::string& name) {
  const json* names = document.Find(list);
  if (!names || !names->is_array()) return;
  // Unchanged unless it names `name`, or is empty (an empty list is left out).
  if (!names->empty() && std::find(names->begin(), names->end(), name) == names->end()) return;
  json kept = json::array();
  for (const json& entry : *names) {
    if (entry != name) kept.push_back(entry);
  }
  if (kept.empty()) {
    document.Erase(list);
  } else {
    document[list] = std::move(kept);
  }
}

}  // namespace

size_t GltfBuilder::AddBufferView(std::string_view bytes, json definition) {
  binary_.append((4 - binary_.size() % 4) % 4, '\0');
  definition["buffer"] = 0;
  definition["byteOffset"] = binary_.size();
  definition["byteLength"] = bytes.size();
  binary_.append(bytes);
  views_.Append(definition);
  return views_.size() - 1;
}

size_t GltfBuilder::AddAccessor(std::string_view float_bytes, size_t count, const char* type,
                                std::optional<json> min, std::optional<json> max) {
  json accessor = {{"bufferView", AddBufferView(float_bytes)},
                   {"componentType", kGltfFloat},
                   {"count", count},
                   {"type", type}};
  if (min) accessor["min"] = *min;
  if (max) accessor["max"] = *max;
  accessors_.Append(accessor);
  return accessors_.size() - 1;
}

size_t GltfBuilder::AddAccessorToFill(size_t value_count, size_t count, const char* type,
                                      size_t* byte_offset) {
  binary_.append((4 - binary_.size() % 4) % 4, '\0');
  *byte_offset = binary_.size();
  const size_t byte_length = value_count * sizeof(float);
  binary_.resize(binary_.size() + byte_length);
  views_.Append({{"buffer", 0}, {"byteOffset", *byte_offset}, {"byteLength", byte_length}});
  accessors_.Append({{"bufferView", views_.size() - 1},
                     {"componentType", kGltfFloat},
                     {"count", count},
                     {"type", type}});
  return accessors_.size() - 1;
}

void GltfBuilder::FillFloat32(size_t byte_offset, const double* values, size_t value_count) {
  char* out = binary_.data() + byte_offset;
  for (size_t i = 0; i < value_count; ++i) {
    const float value = static_cast<float>(values[i]);
    std::memcpy(out + i * sizeof(float), &value, sizeof(float));
  }
}

size_t GltfBuilder::AddCompressedBufferView(std::string_view compressed, size_t byte_length,
                                            json extension, json definition) {
  binary_.append((4 - binary_.size() % 4) % 4, '\0');
  extension["buffer"] = 0;
  extension["byteOffset"] = binary_.size();
  extension["byteLength"] = compressed.size();
  binary_.append(compressed);
  fallback_length_ += (4 - fallback_length_ % 4) % 4;
  json view = std::move(definition);
  view["buffer"] = 1;
  view["byteOffset"] = fallback_length_;
  view["byteLength"] = byte_length;
  view["extensions"]["EXT_meshopt_compression"] = std::move(extension);
  fallback_length_ += byte_length;
  views_.Append(view);
  return views_.size() - 1;
}

size_t GltfBuilder::AddAccessorDefinition(const json& accessor) {
  accessors_.Append(accessor);
  return accessors_.size() - 1;
}

void GltfBuilder::Finish(GltfOutputJson& document) {
  if (views_.empty()) {
    document.Erase("bufferViews");
  } else {
    document.SetText("bufferViews", views_.Take());
  }
  if (accessors_.empty()) {
    document.Erase("accessors");
  } else {
    document.SetText("accessors", accessors_.Take());
  }
}

void AddRequiredExtension(GltfOutputJson& document, const std::string& name) {
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    json& names = document[list];
    if (!names.is_array()) names = json::array();
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
}

GltfOutputJson PassThroughWithoutAnimations(const GltfDocument& source, GltfBuilder& builder,
                                            Diagnostics* diagnostics, bool meshopt,
                                            const GltfNodeEdit& edit_node,
                                            const PassThroughMeshes& mesh_options) {
  // The source's members are referred to, not copied (gltf_output.h), leaving out the buffers
  // this writer replaces (see SerializeGltfText); a member is copied only where this changes it.
  // The packed accessors, bufferViews and animations (GltfLists) are decoded one at a time.
  GltfOutputJson document;
  for (auto it = source.json.begin(); it != source.json.end(); ++it) {
    if (it.key() != "buffers") document.Refer(it.key(), it.value());
  }
  for (const auto& [key, list] : source.lists.unread) {
    JsonArrayText text;
    for (size_t i = 0; i < list->size(); ++i) text.AppendText(list->Text(i));
    document.SetText(key, text.Take());
  }
  const PackedJsonArray* const accessors = source.lists.accessors.get();
  const PackedJsonArray* const views = source.lists.buffer_views.get();
  const PackedJsonArray* const animations = source.lists.animations.get();
  const size_t accessor_count = accessors ? accessors->size() : 0;
  const size_t view_count = views ? views->size() : 0;

  bool can_drop = true;
  if (const json* used = Find(source.json, "extensionsUsed")) {
    for (const json& name : *used) {
      if (!name.is_string() || !KnownReferences(name.get<std::string>())) {
        can_drop = false;
        AddDiagnostic(diagnostics, Severity::kInfo,
                      fmt::format("gltf: extension {} is in use; animation data of the input is "
                                  "kept unused rather than risk breaking its references",
                                  name.dump()));
      }
    }
  }

  // --compress: triangle lists without indices indexed (gltf_mesh_weld.h). Their index accessors
  // come after the kept accessors, and their bufferViews after the kept views.
  // (Not in a VRM: VRM 0.x keeps its materials' blend modes in its own extension, MToon.)
  // Both count every reference once, here (they change only what one use alone refers to).
  const ReferenceCounts references =
      mesh_options.index || mesh_options.quantize ? CountReferences(source) : ReferenceCounts();
  const MeshWeld weld = mesh_options.index
                            ? WeldMeshes(source, references,
                                         mesh_options.quantize != nullptr && !UsesVrm(source.json))
                            : MeshWeld();
  // --compress-meshes: the quantized accessors are rewritten in place, in views of their own
  // (a mesh's positions and deltas in one, the others' views left out).
  const MeshQuantization quantized =
      mesh_options.quantize ? QuantizeMeshes(source, references, weld, *mesh_options.quantize,
                                             mesh_options.transform_animated)
                            : MeshQuantization();
  // Accessors: keep those referenced outside animations, and those nothing references at all.
  std::vector<bool> keep_accessor(accessor_count, !can_drop);
  std::vector<bool> used_by_animation(accessor_count, false);
  for (size_t a = 0; animations && a < animations->size(); ++a) {
    const json animation = animations->At(a);
    const auto samplers = animation.is_object() ? animation.find("samplers") : animation.end();
    if (samplers == animation.end() || !samplers->is_array()) continue;
    for (const json& sampler : *samplers) {
      if (!sampler.is_object()) continue;
      for (const char* key : {"input", "output"}) {
        const auto reference = sampler.find(key);
        if (reference == sampler.end()) continue;
        if (const std::optional<size_t> index = ValidIndex(*reference, accessor_count)) {
          used_by_animation[*index] = true;
        }
      }
    }
  }
  std::vector<bool> keep_view(view_count, !can_drop);
  // A bufferView nothing refers to was unused in the source already; keep it as it was.
  std::vector<bool> referenced_view(view_count, false);
  const auto mark_accessor = [&](const json& reference) {
    if (const std::optional<size_t> index = ValidIndex(reference, accessor_count)) {
      keep_accessor[*index] = true;
    }
    return false;
  };
  const auto mark_view = [&](const json& reference) {
    if (const std::optional<size_t> index = ValidIndex(reference, view_count)) {
      keep_view[*index] = true;
      referenced_view[*index] = true;
    }
    return false;
  };
  ForEachSourceReference(source.lists, mark_accessor, mark_view);
  for (size_t a = 0; a < accessor_count; ++a) {
    if (!used_by_animation[a] && !mesh_options.dropped_accessors.count(a)) keep_accessor[a] = true;
    const json accessor = accessors->At(a);
    ForEachAccessorView(accessor, [&](const json& reference) {
      if (const std::optional<size_t> index = ValidIndex(reference, view_count)) {
        referenced_view[*index] = true;
        // A view whose elements --compress-meshes moved into another is left out.
        if (keep_accessor[a] && !quantized.merged_views.count(*index)) keep_view[*index] = true;
      }
    });
  }
  for (size_t v = 0; v < view_count; ++v) {
    if (!referenced_view[v]) keep_view[v] = true;
  }

  const std::vector<int64_t> accessor_map = Compact(keep_accessor);
  const std::vector<int64_t> view_map = Compact(keep_view);
  const bool renumber = !IsIdentity(accessor_map) || !IsIdentity(view_map);
  const size_t kept_accessor_count =
      static_cast<size_t>(std::count(keep_accessor.begin(), keep_accessor.end(), true));
  const size_t kept_view_count =
      static_cast<size_t>(std::count(keep_view.begin(), keep_view.end(), true));
  if (!weld.indices.empty()) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("--compress: {} triangle primitive(s) without indices indexed, each "
                              "vertex stored once: {} -> {} vertices (lossless: the same "
                              "triangles, every vertex with the same values)",
                              weld.indices.size(), weld.vertices_before, weld.vertices_after));
  }
  if (mesh_options.quantize) {
    AddDiagnostic(diagnostics, Severity::kInfo, quantized.Summary(*mesh_options.quantize));
    if (weld.cache_ordered > 0) {
      AddDiagnostic(diagnostics, Severity::kInfo,
                    fmt::format("--compress-meshes: {} triangle primitive(s) of opaque materials "
                                "drawn in vertex cache order (the same triangles, each with its "
                                "corners in order; the TRIANGLES index codec may rotate them)",
                                weld.cache_ordered));
    }
  }
  if (weld.reordered > 0) {
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("--compress: {} indexed triangle primitive(s) with identical vertices "
                    "stored once: {} -> {} vertices (lossless)",
                    weld.reordered, weld.reordered_before, weld.reordered_after));
  }
  // The lists of objects, element by element: an element nothing changes is copied as its text;
  // one renumbered, edited (a node) or given its embedded image is parsed, changed and written.
  std::set<size_t> index_accessors;  // after renumbering: the accessors primitives use as indices
  std::set<size_t> triangle_lists;   // those of them that index triangle lists
  std::set<size_t> other_lists;      // and those that index anything else
  // Embedded images' bufferViews come after the kept ones and the index views.
  size_t next_view = kept_view_count + weld.indices.size();
  std::vector<std::pair<size_t, const std::string*>> embedded;  // image index, bytes
  for (const char* key : kReferringMembers) {
    const GltfObjectList* list = source.lists.Objects(key);
    if (!list) continue;
    const bool nodes = list->key() == "nodes";
    const bool meshes = list->key() == "meshes";
    JsonArrayText text;
    for (size_t i = 0; i < list->size(); ++i) {
      const auto image =
          list->key() == "images" ? source.external_images->find(i) : source.external_images->end();
      const bool embed = image != source.external_images->end() && !image->second.empty();
      const bool welded = meshes && weld.HasMesh(i);
      const bool defaults = mesh_options.drop_default_members && (nodes || meshes);
      const bool float32 = mesh_options.float32_text && (nodes || meshes);
      if (!renumber && !embed && !(nodes && (edit_node || !quantized.meshes.empty())) &&
          !(meshes && meshopt) && !welded && !defaults && !float32) {
        text.AppendText(list->Text(i));
        continue;
      }
      json element = list->At(i);
      bool changed = false;
      if (renumber) {
        changed = ForEachReference(
            key, element, [&](json& reference) { return Renumber(reference, accessor_map); },
            [&](json& reference) { return Renumber(reference, view_map); });
      }
      if (welded) changed = weld.SetIndices(i, element, kept_accessor_count) || changed;
      if (meshes && meshopt)
        CollectIndexAccessors(element, index_accessors, triangle_lists, other_lists);
      if (nodes && edit_node) changed = edit_node(i, element) || changed;
      if (nodes) changed = quantized.EditNode(i, element) || changed;
      if (defaults) changed = DropDefaultMembers(key, element) || changed;
      if (float32) {
        if (nodes) {
          changed =
              mesh_options.float32_text->ShortenNode(element, quantized.HoldsFold(i)) || changed;
        }
        if (meshes) changed = mesh_options.float32_text->ShortenMesh(element) || changed;
      }
      if (embed) {
        embedded.emplace_back(i, &image->second);
        const std::string mime = MimeTypeOf(element.value("uri", ""), image->second);
        element.erase("uri");
        element["bufferView"] = next_view++;
        element["mimeType"] = mime.empty() ? "application/octet-stream" : mime;
        changed = true;
      }
      if (changed) {
        text.Append(element);
      } else {
        text.AppendText(list->Text(i));
      }
    }
    // --compress-meshes: the new child nodes that hold a mesh and its dequantization.
    if (nodes) {
      // (Their numbers are final, written as measured: QuantizeMeshes.)
      for (json& node : quantized.NewNodes()) text.Append(node);
    }
    document.SetText(key, text.Take());
  }

  // The kept accessors, renumbered, go to the builder as text; with `meshopt` (--compress) they
  // are also needed as a tree for the views' layouts.
  json kept_accessors = json::array();
  for (size_t a = 0; a < accessor_count; ++a) {
    if (!keep_accessor[a]) continue;
    json accessor = accessors->At(a);
    if (const auto welded = weld.accessors.find(a); welded != weld.accessors.end()) {
      accessor["count"] = welded->second.count;
      if (welded->second.byte_offset != 0 || accessor.contains("byteOffset")) {
        accessor["byteOffset"] = welded->second.byte_offset;
      }
    }
    if (const auto range = weld.index_ranges.find(a); range != weld.index_ranges.end()) {
      if (accessor.contains("min")) accessor["min"] = {range->second.first};
      if (accessor.contains("max")) accessor["max"] = {range->second.second};
    }
    if (const auto change = quantized.accessors.find(a); change != quantized.accessors.end()) {
      accessor.erase("byteOffset");  // at the start of its view, unless the change says
      for (auto it = change->second.begin(); it != change->second.end(); ++it) {
        if (it.value().is_null() || it.value() == false) {
          accessor.erase(it.key());  // (normalized: false is the default)
        } else {
          accessor[it.key()] = it.value();  // a bufferView here is a source index
        }
      }
    }
    if (mesh_options.drop_default_members) {
      const auto offset = accessor.find("byteOffset");
      if (offset != accessor.end() && offset->is_number() && offset->get<double>() == 0) {
        accessor.erase(offset);
      }
      const auto normalized = accessor.find("normalized");
      if (normalized != accessor.end() && *normalized == false) accessor.erase(normalized);
    }
    if (mesh_options.float32_text) mesh_options.float32_text->ShortenAccessorBounds(accessor);
    ForEachAccessorView(accessor, [&](json& reference) { Renumber(reference, view_map); });
    builder.AddAccessorDefinition(accessor);
    if (meshopt) kept_accessors.push_back(std::move(accessor));
  }
  for (size_t k = 0; k < weld.indices.size(); ++k) {
    const WeldedIndices& indices = weld.indices[k];
    const size_t index = builder.AddAccessorDefinition({{"bufferView", kept_view_count + k},
                                                        {"componentType", indices.component_type},
                                                        {"count", indices.count},
                                                        {"type", "SCALAR"}});
    if (index != kept_accessor_count + k) {
      ThrowInternal(fmt::format("pass-through: index accessor {} took {}", k, index));
    }
  }
  // Repack the kept views into the one output buffer, in their original order; with `meshopt`
  // losslessly compressed where that pays (gltf_compress_views.h).
  std::vector<std::optional<ViewLayout>> layouts;
  if (meshopt) {
    json kept_views = json::array();
    for (size_t v = 0; v < view_count; ++v) {
      if (keep_view[v]) kept_views.push_back(QuantizedViewDefinition(views->At(v), v, quantized));
    }
    // --compress-meshes: triangle lists in the TRIANGLES codec (lossless but for the rotation of a
    // triangle's corners, which nothing draws differently).
    for (const size_t shared : other_lists) triangle_lists.erase(shared);
    layouts = PassThroughViewLayouts(index_accessors, kept_accessors, kept_views,
                                     mesh_options.quantize ? &triangle_lists : nullptr);
  }
  constexpr size_t kExtensionJsonBytes = 150;
  const auto add_view = [&](const std::string& bytes, const std::optional<ViewLayout>& layout,
                            json definition) {
    if (layout) {
      // TRIANGLES codes whole triangles only: a view padded past its last one (three.js's
      // GLTFExporter pads every view to 4 bytes) takes INDICES.
      ViewLayout fitted = *layout;
      fitted.triangles = layout->triangles && (bytes.size() / layout->stride) % 3 == 0 &&
                         bytes.size() % layout->stride == 0;
      size_t length = 0;
      const std::string compressed = CompressView(bytes, fitted, &length);
      if (!compressed.empty() && compressed.size() + kExtensionJsonBytes < length) {
        json extension = {{"byteStride", layout->stride},
                          {"count", length / layout->stride},
                          {"mode", fitted.triangles  ? "TRIANGLES"
                                   : layout->indices ? "INDICES"
                                                     : "ATTRIBUTES"}};
        return builder.AddCompressedBufferView(compressed, length, std::move(extension),
                                               std::move(definition));
      }
    }
    return builder.AddBufferView(bytes, std::move(definition));
  };
  for (size_t v = 0, n = 0; v < view_count; ++v) {
    if (!keep_view[v]) continue;
    json definition = QuantizedViewDefinition(views->At(v), v, quantized);
    definition.erase("buffer");
    definition.erase("byteOffset");
    definition.erase("byteLength");
    if (json* extensions = Find(definition, "extensions")) {
      extensions->erase("EXT_meshopt_compression");  // stored decompressed now
      if (extensions->empty()) definition.erase("extensions");
    }
    const std::optional<ViewLayout> layout = meshopt ? layouts[n++] : std::nullopt;
    const auto welded = weld.view_bytes.find(v);
    const auto quantized_view = quantized.views.find(v);
    add_view(quantized_view != quantized.views.end() ? quantized_view->second.bytes
             : welded == weld.view_bytes.end()       ? source.buffer_views[v]
                                                     : welded->second,
             layout, std::move(definition));
  }
  for (size_t k = 0; k < weld.indices.size(); ++k) {
    const WeldedIndices& indices = weld.indices[k];
    ViewLayout layout;
    layout.stride = indices.component_type == kGltfUnsignedShort ? 2 : 4;
    layout.indices = true;
    layout.triangles = mesh_options.quantize != nullptr;  // welded lists are triangle lists
    constexpr int kElementArrayBuffer = 34963;            // glTF 2.0 §5.11.5 bufferView.target
    add_view(indices.bytes, meshopt ? std::optional<ViewLayout>(layout) : std::nullopt,
             {{"target", kElementArrayBuffer}});
  }

  // Embed images that were separate files: the output stands on its own (their bufferViews come
  // after the kept ones, numbered so above).
  for (size_t e = 0; e < embedded.size(); ++e) {
    const size_t view = builder.AddBufferView(*embedded[e].second);
    if (view != next_view - embedded.size() + e) {
      ThrowInternal(
          fmt::format("pass-through: image {} took bufferView {}", embedded[e].first, view));
    }
  }
  EraseExtension(document, "extensionsUsed", "EXT_meshopt_compression");
  EraseExtension(document, "extensionsRequired", "EXT_meshopt_compression");
  // Required: a reader without it would refuse the integer positions, or misplace them.
  if (quantized.needs_extension) AddRequiredExtension(document, "KHR_mesh_quantization");
  return document;
}

}  // namespace animconv
