#include "formats/gltf/gltf_pass_through.h"

#include <fmt/format.h>

#include <set>

#include "formats/gltf/gltf_compress_views.h"

namespace animconv {
namespace {

using nlohmann::json;

// Extensions that refer to no accessor or bufferView, or whose references RenumberReferences
// knows. With any other extension in use, nothing is dropped: an unknown reference would break.
bool KnownReferences(const std::string& extension) {
  static const std::set<std::string> kKnown = {"EXT_meshopt_compression",
                                               "KHR_mesh_quantization",
                                               "KHR_draco_mesh_compression",
                                               "EXT_mesh_gpu_instancing",
                                               "KHR_lights_punctual",
                                               "KHR_texture_transform",
                                               "KHR_texture_basisu",
                                               "EXT_texture_webp",
                                               "EXT_texture_avif",
                                               "KHR_animation_pointer",
                                               "VRM",
                                               "VRMC_vrm",
                                               "VRMC_springBone",
                                               "VRMC_node_constraint",
                                               "VRMC_materials_mtoon",
                                               "VRMC_vrm_animation",
                                               "VRMC_materials_hdr_emissiveMultiplier"};
  return kKnown.count(extension) > 0 || extension.compare(0, 14, "KHR_materials_") == 0;
}

json* Find(json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

// Calls `visit` on every accessor index outside animations, and `visit_view` on every bufferView
// index, as mutable references.
template <typename VisitAccessor, typename VisitView>
void ForEachReference(json& document, VisitAccessor visit, VisitView visit_view) {
  if (json* meshes = Find(document, "meshes")) {
    for (json& mesh : *meshes) {
      json* primitives = Find(mesh, "primitives");
      if (!primitives) continue;
      for (json& primitive : *primitives) {
        if (json* attributes = Find(primitive, "attributes")) {
          for (json& index : *attributes) visit(index);
        }
        if (json* indices = Find(primitive, "indices")) visit(*indices);
        if (json* targets = Find(primitive, "targets")) {
          for (json& target : *targets) {
            if (target.is_object()) {
              for (json& index : target) visit(index);
            }
          }
        }
        if (json* extensions = Find(primitive, "extensions")) {
          if (json* draco = Find(*extensions, "KHR_draco_mesh_compression")) {
            if (json* view = Find(*draco, "bufferView")) visit_view(*view);
          }
        }
      }
    }
  }
  if (json* skins = Find(document, "skins")) {
    for (json& skin : *skins) {
      if (json* matrices = Find(skin, "inverseBindMatrices")) visit(*matrices);
    }
  }
  if (json* nodes = Find(document, "nodes")) {
    for (json& node : *nodes) {
      json* extensions = Find(node, "extensions");
      json* instancing = extensions ? Find(*extensions, "EXT_mesh_gpu_instancing") : nullptr;
      json* attributes = instancing ? Find(*instancing, "attributes") : nullptr;
      if (attributes) {
        for (json& index : *attributes) visit(index);
      }
    }
  }
  if (json* images = Find(document, "images")) {
    for (json& image : *images) {
      if (json* view = Find(image, "bufferView")) visit_view(*view);
    }
  }
}

template <typename Visit>
void ForEachAccessorView(json& accessor, Visit visit) {
  if (json* view = Find(accessor, "bufferView")) visit(*view);
  if (json* sparse = Find(accessor, "sparse")) {
    for (const char* part : {"indices", "values"}) {
      json* member = Find(*sparse, part);
      if (json* view = member ? Find(*member, "bufferView") : nullptr) visit(*view);
    }
  }
}

// Index in [0, size) or nullopt (an invalid reference the source already had is left alone).
std::optional<size_t> ValidIndex(const json& reference, size_t size) {
  if (!reference.is_number_integer()) return std::nullopt;
  const int64_t value = reference.get<int64_t>();
  if (value < 0 || static_cast<uint64_t>(value) >= size) return std::nullopt;
  return static_cast<size_t>(value);
}

std::vector<int64_t> Compact(const std::vector<bool>& keep) {
  std::vector<int64_t> map(keep.size(), -1);
  int64_t next = 0;
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) map[i] = next++;
  }
  return map;
}

void Renumber(json& reference, const std::vector<int64_t>& map) {
  if (const std::optional<size_t> index = ValidIndex(reference, map.size())) {
    reference = map[*index];
  }
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

void EraseExtension(json& document, const char* list, const std::string& name) {
  json* names = Find(document, list);
  if (!names || !names->is_array()) return;
  json kept = json::array();
  for (const json& entry : *names) {
    if (entry != name) kept.push_back(entry);
  }
  if (kept.empty()) {
    document.erase(list);
  } else {
    *names = kept;
  }
}

}  // namespace

size_t GltfBuilder::AddBufferView(std::string_view bytes, json definition) {
  binary_.append((4 - binary_.size() % 4) % 4, '\0');
  definition["buffer"] = 0;
  definition["byteOffset"] = binary_.size();
  definition["byteLength"] = bytes.size();
  binary_.append(bytes);
  views_.push_back(std::move(definition));
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
  accessors_.push_back(std::move(accessor));
  return accessors_.size() - 1;
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
  views_.push_back(std::move(view));
  return views_.size() - 1;
}

size_t GltfBuilder::AddAccessorDefinition(json accessor) {
  accessors_.push_back(std::move(accessor));
  return accessors_.size() - 1;
}

void GltfBuilder::Finish(json& document) {
  if (views_.empty()) {
    document.erase("bufferViews");
  } else {
    document["bufferViews"] = std::move(views_);
  }
  if (accessors_.empty()) {
    document.erase("accessors");
  } else {
    document["accessors"] = std::move(accessors_);
  }
}

json PassThroughWithoutAnimations(const GltfDocument& source, GltfBuilder& builder,
                                  Diagnostics* diagnostics, bool meshopt) {
  // Member by member, leaving out the buffers this writer replaces (see SerializeGltfText), and
  // each member copied once at most: the animations are only read (a file of 20,000 clips held
  // three copies of them, docs/reliability.md), the accessors and views copied to be renumbered.
  json document = json::object();
  static const json kNone = json::array();
  const json* animations = &kNone;
  json accessors = json::array();
  json views = json::array();
  for (auto it = source.json.begin(); it != source.json.end(); ++it) {
    const std::string& key = it.key();
    if (key == "buffers") continue;
    if (key == "animations") {
      animations = &it.value();
    } else if (key == "accessors") {
      accessors = it.value();
    } else if (key == "bufferViews") {
      views = it.value();
    } else {
      document[key] = it.value();
    }
  }

  bool can_drop = true;
  if (const json* used = Find(document, "extensionsUsed")) {
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

  // Accessors: keep those referenced outside animations, and those nothing references at all.
  std::vector<bool> keep_accessor(accessors.size(), !can_drop);
  std::vector<bool> used_by_animation(accessors.size(), false);
  for (const json& animation : *animations) {
    const auto samplers = animation.is_object() ? animation.find("samplers") : animation.end();
    if (samplers == animation.end() || !samplers->is_array()) continue;
    for (const json& sampler : *samplers) {
      if (!sampler.is_object()) continue;
      for (const char* key : {"input", "output"}) {
        const auto reference = sampler.find(key);
        if (reference == sampler.end()) continue;
        if (const std::optional<size_t> index = ValidIndex(*reference, accessors.size())) {
          used_by_animation[*index] = true;
        }
      }
    }
  }
  std::vector<bool> keep_view(views.size(), !can_drop);
  auto mark_accessor = [&](json& reference) {
    if (const std::optional<size_t> index = ValidIndex(reference, accessors.size())) {
      keep_accessor[*index] = true;
    }
  };
  auto mark_view = [&](json& reference) {
    if (const std::optional<size_t> index = ValidIndex(reference, views.size())) {
      keep_view[*index] = true;
    }
  };
  ForEachReference(document, mark_accessor, mark_view);
  for (size_t a = 0; a < accessors.size(); ++a) {
    if (!used_by_animation[a]) keep_accessor[a] = true;
    if (keep_accessor[a]) ForEachAccessorView(accessors[a], mark_view);
  }
  // A bufferView nothing refers to was unused in the source already; keep it as it was.
  std::vector<bool> referenced_view(views.size(), false);
  auto note_view = [&](json& reference) {
    if (const std::optional<size_t> index = ValidIndex(reference, views.size())) {
      referenced_view[*index] = true;
    }
  };
  ForEachReference(
      document, [](json&) {}, note_view);
  for (json& accessor : accessors) ForEachAccessorView(accessor, note_view);
  for (size_t v = 0; v < views.size(); ++v) {
    if (!referenced_view[v]) keep_view[v] = true;
  }

  const std::vector<int64_t> accessor_map = Compact(keep_accessor);
  const std::vector<int64_t> view_map = Compact(keep_view);
  ForEachReference(
      document, [&](json& reference) { Renumber(reference, accessor_map); },
      [&](json& reference) { Renumber(reference, view_map); });

  json kept_accessors = json::array();
  for (size_t a = 0; a < accessors.size(); ++a) {
    if (!keep_accessor[a]) continue;
    json accessor = accessors[a];
    ForEachAccessorView(accessor, [&](json& reference) { Renumber(reference, view_map); });
    kept_accessors.push_back(std::move(accessor));
  }
  // Repack the kept views into the one output buffer, in their original order; with `meshopt`
  // (--compress) losslessly compressed where that pays (gltf_compress_views.h).
  json kept_views = json::array();
  for (size_t v = 0; v < views.size(); ++v) {
    if (keep_view[v]) kept_views.push_back(views[v]);
  }
  const std::vector<std::optional<ViewLayout>> layouts =
      meshopt ? PassThroughViewLayouts(document, kept_accessors, kept_views)
              : std::vector<std::optional<ViewLayout>>(kept_views.size());
  constexpr size_t kExtensionJsonBytes = 150;
  for (size_t v = 0, n = 0; v < views.size(); ++v) {
    if (!keep_view[v]) continue;
    json definition = views[v];
    definition.erase("buffer");
    definition.erase("byteOffset");
    definition.erase("byteLength");
    if (json* extensions = Find(definition, "extensions")) {
      extensions->erase("EXT_meshopt_compression");  // stored decompressed now
      if (extensions->empty()) definition.erase("extensions");
    }
    const std::optional<ViewLayout>& layout = layouts[n++];
    if (layout) {
      size_t length = 0;
      const std::string compressed = CompressView(source.buffer_views[v], *layout, &length);
      if (!compressed.empty() && compressed.size() + kExtensionJsonBytes < length) {
        json extension = {{"byteStride", layout->stride},
                          {"count", length / layout->stride},
                          {"mode", layout->indices ? "INDICES" : "ATTRIBUTES"}};
        builder.AddCompressedBufferView(compressed, length, std::move(extension),
                                        std::move(definition));
        continue;
      }
    }
    builder.AddBufferView(source.buffer_views[v], definition);
  }
  builder.AdoptAccessors(std::move(kept_accessors));

  // Embed images that were separate files: the output stands on its own.
  if (json* images = Find(document, "images")) {
    for (size_t i = 0; i < images->size() && i < source.external_images.size(); ++i) {
      const std::string& bytes = source.external_images[i];
      if (bytes.empty()) continue;
      json& image = (*images)[i];
      const std::string mime = MimeTypeOf(image.value("uri", ""), bytes);
      image.erase("uri");
      image["bufferView"] = builder.AddBufferView(bytes);
      image["mimeType"] = mime.empty() ? "application/octet-stream" : mime;
    }
  }
  EraseExtension(document, "extensionsUsed", "EXT_meshopt_compression");
  EraseExtension(document, "extensionsRequired", "EXT_meshopt_compression");
  return document;
}

}  // namespace animconv
