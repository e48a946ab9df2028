#include "formats/gltf/gltf_mesh_weld.h"

#if ANIMCONV_WITH_MESHOPT
#include <meshoptimizer.h>
#endif

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;

// One accessor of a primitive (an attribute or a morph target's) and where its elements lie.
struct Attribute {
  size_t accessor = 0;
  size_t view = 0;
  size_t offset = 0;  // in the view
  size_t stride = 0;
  size_t element_bytes = 0;
  // Where its block starts in the view: the accessors interleaved with it (their elements in the
  // same rows) share a block; blocks lie one after the other (Fox's TEXCOORD_0 and JOINTS_0 in
  // one view of byteStride 8).
  size_t block = 0;
};

// Sorts the accessors of the group by view and offset and gives each its block; false when a
// view's accessors overlap in a way that is neither interleaving nor one block after the other.
bool FindBlocks(std::vector<Attribute>& group, size_t count) {
  std::sort(group.begin(), group.end(), [](const Attribute& a, const Attribute& b) {
    return std::make_pair(a.view, a.offset) < std::make_pair(b.view, b.offset);
  });
  size_t view = SIZE_MAX;
  size_t block = 0;
  size_t stride = 0;
  size_t end = 0;  // of the block's last row's bytes
  for (Attribute& attribute : group) {
    const bool same_rows = attribute.view == view && attribute.offset < block + stride;
    if (same_rows) {
      if (attribute.stride != stride ||
          attribute.offset + attribute.element_bytes > block + stride) {
        return false;
      }
      end = std::max(end, attribute.offset + attribute.element_bytes);
    } else {
      if (attribute.view == view && attribute.offset < stride * (count - 1) + end) return false;
      view = attribute.view;
      block = attribute.offset;
      stride = attribute.stride;
      end = attribute.offset + attribute.element_bytes;
    }
    attribute.block = block;
  }
  return true;
}

// A primitive's own index accessor, rewritten in place: its view holds it alone, tightly packed.
struct IndexData {
  size_t accessor = 0;
  size_t view = 0;
  size_t offset = 0;
  size_t bytes = 0;  // per index: 1, 2 or 4
  size_t count = 0;
};

// What indexing changes for a primitive: its attributes and targets, `vertices` long, and its
// index accessor when it has one.
struct Candidate {
  std::vector<Attribute> group;
  size_t vertices = 0;
  std::optional<IndexData> index;
};

// The index accessor of `primitive` when it serves that primitive alone and is a whole number of
// triangles of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT; else nullopt.
std::optional<IndexData> OwnIndices(const json& reference, const GltfDocument& source,
                                    const ReferenceCounts& references) {
  const std::optional<size_t> a = ValidIndex(reference, references.accessors.size());
  if (!a || references.accessors[*a] != 1) return std::nullopt;
  const json accessor = source.lists.accessors->At(*a);
  if (!accessor.is_object() || accessor.contains("sparse") ||
      accessor.value("type", json()) != "SCALAR") {
    return std::nullopt;
  }
  const json* view_reference = Find(accessor, "bufferView");
  const std::optional<size_t> v =
      view_reference ? ValidIndex(*view_reference, references.views.size()) : std::nullopt;
  const std::optional<size_t> n = Natural(Find(accessor, "count"), 0);
  const std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
  const json* type = Find(accessor, "componentType");
  if (!v || !n || !offset || !type || !type->is_number_integer()) return std::nullopt;
  const int component = type->get<int>();
  if (component != kGltfUnsignedByte && component != kGltfUnsignedShort &&
      component != kGltfUnsignedInt) {
    return std::nullopt;
  }
  IndexData index{*a, *v, *offset, static_cast<size_t>(ComponentSize(component)), *n};
  const json view = source.lists.buffer_views->At(index.view);
  if (references.views[index.view] != 1 || view.contains("byteStride") || index.count == 0 ||
      index.count % 3 != 0 ||
      !FitsIn(source.buffer_views[index.view].size(), index.offset, index.bytes, index.count,
              index.bytes)) {
    return std::nullopt;
  }
  return index;
}

// The primitive's accessors when it is a triangle list whose accessors (and their views) serve it
// alone, all as long and laid out as described; else nullopt.
std::optional<Candidate> Eligible(const json& primitive, const GltfDocument& source,
                                  const ReferenceCounts& references) {
  if (!primitive.is_object()) return std::nullopt;
  if (Natural(Find(primitive, "mode"), 4) != std::optional<size_t>(4)) return std::nullopt;
  if (const json* extensions = Find(primitive, "extensions")) {
    if (extensions->contains("KHR_draco_mesh_compression")) return std::nullopt;
  }
  Candidate candidate;
  if (const json* indices = Find(primitive, "indices")) {
    candidate.index = OwnIndices(*indices, source, references);
    if (!candidate.index) return std::nullopt;
  }
  const json* attributes = Find(primitive, "attributes");
  if (!attributes || !attributes->is_object() || attributes->empty()) return std::nullopt;
  std::vector<json> references_of = {*attributes};
  if (GltfMeshPrimitives::HasTargets(primitive)) {
    const std::unique_ptr<PackedArrayView> targets = GltfMeshPrimitives::Targets(primitive);
    if (!targets) return std::nullopt;
    for (size_t t = 0; t < targets->size(); ++t) {
      references_of.push_back(targets->At(t));
      if (!references_of.back().is_object()) return std::nullopt;
    }
  }
  std::vector<Attribute>& group = candidate.group;
  std::map<size_t, size_t> per_view;  // view -> accessors of the group on it
  std::optional<size_t> vertices;
  for (const json& object : references_of) {
    for (const json& reference : object) {
      const std::optional<size_t> a = ValidIndex(reference, references.accessors.size());
      if (!a || references.accessors[*a] != 1) return std::nullopt;
      const json accessor = source.lists.accessors->At(*a);
      if (!accessor.is_object() || accessor.contains("sparse")) return std::nullopt;
      const json* view_reference = Find(accessor, "bufferView");
      const std::optional<size_t> v =
          view_reference ? ValidIndex(*view_reference, references.views.size()) : std::nullopt;
      const std::optional<size_t> n = Natural(Find(accessor, "count"), 0);
      const std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
      if (!v || !n || !offset || (vertices && *n != *vertices)) return std::nullopt;
      vertices = n;
      const json* component_type = Find(accessor, "componentType");
      const size_t bytes = (component_type && component_type->is_number_integer()
                                ? static_cast<size_t>(ComponentSize(component_type->get<int>()))
                                : 0) *
                           VectorComponents(accessor.value("type", json()));
      if (bytes == 0) return std::nullopt;
      const json view = source.lists.buffer_views->At(*v);
      const std::optional<size_t> stride = Natural(Find(view, "byteStride"), 0);
      if (!stride || (*stride != 0 && *stride < bytes)) return std::nullopt;
      Attribute attribute{*a, *v, *offset, *stride == 0 ? bytes : *stride, bytes, 0};
      if (!FitsIn(source.buffer_views[*v].size(), attribute.offset, attribute.stride, *n, bytes)) {
        return std::nullopt;
      }
      ++per_view[*v];
      group.push_back(attribute);
    }
  }
  for (const auto& [view, accessors] : per_view) {
    if (references.views[view] != accessors) return std::nullopt;
  }
  if (!vertices || (!candidate.index && (*vertices < 3 || *vertices % 3 != 0))) return std::nullopt;
  if (!FindBlocks(group, *vertices)) return std::nullopt;
  candidate.vertices = *vertices;
  return candidate;
}

uint32_t ReadIndex(const char* at, size_t bytes) {
  uint8_t byte;
  uint16_t short_value;
  uint32_t value;
  switch (bytes) {
    case 1:
      std::memcpy(&byte, at, 1);
      return byte;
    case 2:
      std::memcpy(&short_value, at, 2);
      return short_value;
    default:
      std::memcpy(&value, at, 4);
      return value;
  }
}

void WriteIndex(char* at, size_t bytes, uint32_t value) {
  const uint8_t byte = static_cast<uint8_t>(value);
  const uint16_t short_value = static_cast<uint16_t>(value);
  std::memcpy(at,
              bytes == 1   ? static_cast<const void*>(&byte)
              : bytes == 2 ? static_cast<const void*>(&short_value)
                           : static_cast<const void*>(&value),
              bytes);
}

// Reorders the triangles of `drawn` (vertex numbers, each < source_vertex.size()) for the vertex
// cache, then numbers the vertices as those triangles first use them (vertices no triangle uses
// keep their relative order after them), permuting `source_vertex` to match. The same triangles,
// each with its corners in order; only the triangles' order and the numbering change. False
// when it changed nothing, or in a build without meshoptimizer.
bool ReorderForCache(std::vector<uint32_t>& drawn, std::vector<size_t>& source_vertex) {
#if ANIMCONV_WITH_MESHOPT
  const size_t vertices = source_vertex.size();
  std::vector<uint32_t> ordered(drawn.size());
  meshopt_optimizeVertexCache(ordered.data(), drawn.data(), drawn.size(), vertices);
  std::vector<uint32_t> number(vertices, UINT32_MAX);
  std::vector<size_t> by_number;
  by_number.reserve(vertices);
  for (uint32_t& vertex : ordered) {
    if (number[vertex] == UINT32_MAX) {
      number[vertex] = static_cast<uint32_t>(by_number.size());
      by_number.push_back(source_vertex[vertex]);
    }
    vertex = number[vertex];
  }
  for (size_t v = 0; v < vertices; ++v) {
    if (number[v] == UINT32_MAX) by_number.push_back(source_vertex[v]);
  }
  if (ordered == drawn && by_number == source_vertex) return false;
  drawn = std::move(ordered);
  source_vertex = std::move(by_number);
  return true;
#else
  static_cast<void>(drawn), static_cast<void>(source_vertex);
  return false;
#endif
}

// Indexes one primitive (or renumbers an indexed one's vertices) when that changes anything and,
// without indices, makes it smaller.
// With `reorder` (--compress-meshes, opaque materials): triangles in vertex cache order, vertices
// numbered as those triangles first use them (meshoptimizer's vertex cache and fetch orders).
void Weld(const Candidate& candidate, const GltfDocument& source, size_t mesh, size_t primitive,
          bool reorder, MeshWeld& weld) {
  const std::vector<Attribute>& group = candidate.group;
  const size_t count = candidate.vertices;
  size_t row_bytes = 0;
  for (const Attribute& attribute : group) row_bytes += attribute.element_bytes;
  std::string rows(count * row_bytes, '\0');
  for (size_t i = 0, at = 0; i < count; ++i) {
    for (const Attribute& attribute : group) {
      const std::string& bytes = source.buffer_views[attribute.view];
      std::memcpy(&rows[at], bytes.data() + attribute.offset + i * attribute.stride,
                  attribute.element_bytes);
      at += attribute.element_bytes;
    }
  }
  // Identical bytes in every attribute and target: the same vertex (so +0 and -0, or two NaNs
  // with different payloads, stay apart, and nothing drawn can change).
  std::unordered_map<std::string_view, uint32_t> class_of_row;
  class_of_row.reserve(count);
  std::vector<uint32_t> class_of(count);
  std::vector<size_t> first_of_class;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view row(rows.data() + i * row_bytes, row_bytes);
    const auto [found, added] =
        class_of_row.emplace(row, static_cast<uint32_t>(first_of_class.size()));
    if (added) first_of_class.push_back(i);
    class_of[i] = found->second;
  }
  const size_t unique = first_of_class.size();
  // What is drawn: the index list, or every vertex in turn.
  std::vector<uint32_t> drawn;
  if (candidate.index) {
    const IndexData& index = *candidate.index;
    const char* data = source.buffer_views[index.view].data() + index.offset;
    drawn.resize(index.count);
    for (size_t k = 0; k < index.count; ++k) {
      drawn[k] = ReadIndex(data + k * index.bytes, index.bytes);
      if (drawn[k] >= count) return;  // a file the validator refuses: left as it is
    }
  } else {
    drawn.resize(count);
    for (size_t k = 0; k < count; ++k) drawn[k] = static_cast<uint32_t>(k);
  }
  // Each vertex is numbered by its first occurrence: a list without indices is then numbered in
  // the order its triangles use the vertices, and an indexed one keeps its order (renumbering by
  // first use made khronos_AnimatedMorphSphere larger once compressed: its order is already good).
  for (uint32_t& vertex : drawn) vertex = class_of[vertex];
  std::vector<size_t> source_vertex = first_of_class;
  reorder = reorder && drawn.size() % 3 == 0 && ReorderForCache(drawn, source_vertex);
  if (candidate.index) {
    if (unique == count && !reorder) return;
    const IndexData& index = *candidate.index;
    std::string bytes = source.buffer_views[index.view];
    for (size_t k = 0; k < index.count; ++k) {
      WriteIndex(&bytes[index.offset + k * index.bytes], index.bytes, drawn[k]);
    }
    weld.view_bytes[index.view] = std::move(bytes);
    // The index accessor's min and max, when it has them, are those of its new values.
    const auto [lowest, highest] = std::minmax_element(drawn.begin(), drawn.end());
    weld.index_ranges[index.accessor] = {*lowest, *highest};
    if (reorder) ++weld.cache_ordered;
    if (unique != count) {
      ++weld.reordered;
      weld.reordered_before += count;
      weld.reordered_after += unique;
    }
  } else {
    // An index may not be the largest value of its type (glTF 2.0 §3.7.2.1: primitive restart).
    const size_t index_bytes = unique <= 65535 ? 2 : 4;
    if ((count - unique) * row_bytes <= count * index_bytes) return;
    if (reorder) ++weld.cache_ordered;
    WeldedIndices indices;
    indices.mesh = mesh;
    indices.primitive = primitive;
    indices.component_type = index_bytes == 2 ? kGltfUnsignedShort : kGltfUnsignedInt;
    indices.count = count;
    indices.bytes.resize(count * index_bytes);
    for (size_t k = 0; k < count; ++k)
      WriteIndex(&indices.bytes[k * index_bytes], index_bytes, drawn[k]);
    weld.indices.push_back(std::move(indices));
    weld.vertices_before += count;
    weld.vertices_after += unique;
  }
  // Each view of the group anew, its blocks one after the other as before, each `unique` rows
  // long; a block keeps its start's remainder modulo 4 (glTF 2.0 §3.6.2.4: vertex attributes
  // aligned to 4 bytes; a component to its size).
  size_t view = SIZE_MAX;
  size_t block = SIZE_MAX;
  size_t base = 0;  // the block's new start
  size_t next = 0;  // where the view's next block may start
  for (const Attribute& attribute : group) {
    if (attribute.view != view) {
      view = attribute.view;
      block = SIZE_MAX;
      next = 0;
    }
    if (attribute.block != block) {
      block = attribute.block;
      base = next + (block % 4 + 4 - next % 4) % 4;
      next = base + attribute.stride * unique;
    }
    std::string& after = weld.view_bytes[view];
    if (after.size() < next) after.resize(next, '\0');
    const std::string& before = source.buffer_views[view];
    const size_t offset = base + (attribute.offset - block);
    for (size_t j = 0; j < unique; ++j) {
      std::memcpy(&after[offset + j * attribute.stride],
                  before.data() + attribute.offset + source_vertex[j] * attribute.stride,
                  attribute.element_bytes);
    }
    weld.accessors[attribute.accessor] = {unique, offset};
  }
}

}  // namespace

// `indices` is sorted by mesh, then primitive (WeldMeshes makes it in that order).
const WeldedIndices* MeshWeld::Find(size_t mesh, size_t primitive) const {
  const auto found =
      std::lower_bound(indices.begin(), indices.end(), std::make_pair(mesh, primitive),
                       [](const WeldedIndices& welded, const std::pair<size_t, size_t>& key) {
                         return std::make_pair(welded.mesh, welded.primitive) < key;
                       });
  return found != indices.end() && found->mesh == mesh && found->primitive == primitive ? &*found
                                                                                        : nullptr;
}

bool MeshWeld::HasMesh(size_t mesh) const {
  const auto after =
      std::lower_bound(indices.begin(), indices.end(), mesh,
                       [](const WeldedIndices& welded, size_t key) { return welded.mesh < key; });
  return after != indices.end() && after->mesh == mesh;
}

bool MeshWeld::SetIndices(size_t mesh, json& element, size_t first_accessor) const {
  if (!HasMesh(mesh)) return false;
  size_t primitive = 0;
  return RewriteMeshPrimitives(element, [&](json& object) {
    const WeldedIndices* welded = Find(mesh, primitive++);
    if (!welded) return false;
    object["indices"] = first_accessor + static_cast<size_t>(welded - indices.data());
    return true;
  });
}

// Whether the primitive's material blends (alphaMode BLEND): its triangles' order is what is drawn.
bool Blends(PrimitiveMaterials& materials, const json& primitive) {
  const json& material = materials.Of(primitive);
  const json* mode = Find(material, "alphaMode");
  return mode && *mode == "BLEND";
}

MeshWeld WeldMeshes(const GltfDocument& source, const ReferenceCounts& references,
                    bool reorder_for_cache) {
  MeshWeld weld;
  const GltfObjectList* meshes = source.lists.Objects("meshes");
  if (!meshes || !source.lists.accessors || !source.lists.buffer_views ||
      !AllReferencesKnown(source.json)) {
    return weld;
  }
  PrimitiveMaterials materials(source);
  for (size_t m = 0; m < meshes->size(); ++m) {
    const json mesh = meshes->At(m);
    const GltfMeshPrimitives primitives(mesh);
    for (size_t p = 0; p < primitives.size(); ++p) {
      const json primitive = primitives.At(p);
      const std::optional<Candidate> candidate = Eligible(primitive, source, references);
      // A primitive with extensions keeps its order: KHR_materials_variants may give it a
      // blending material, and what else one says is not ours to guess.
      const bool reorder =
          reorder_for_cache && !Blends(materials, primitive) && !primitive.contains("extensions");
      if (candidate) Weld(*candidate, source, m, p, reorder, weld);
    }
  }
  return weld;
}

}  // namespace animconv
