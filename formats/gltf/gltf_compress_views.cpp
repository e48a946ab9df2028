#include "formats/gltf/gltf_compress_views.h"

#if ANIMCONV_WITH_MESHOPT
#include <meshoptimizer.h>
#endif

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "formats/gltf/gltf_compress.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;

size_t Components(const std::string& type) {
  static const std::map<std::string, size_t> kCounts = {
      {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
  const auto found = kCounts.find(type);
  return found == kCounts.end() ? 0 : found->second;
}

std::optional<size_t> Index(const json& value) {
  // Renumbered references are signed integers: any non-negative integer counts.
  if (!value.is_number_integer() || value.get<int64_t>() < 0) return std::nullopt;
  return static_cast<size_t>(value.get<int64_t>());
}

}  // namespace

void CollectIndexAccessors(const json& mesh, std::set<size_t>& index_accessors,
                           std::set<size_t>& triangle_lists, std::set<size_t>& other_lists) {
  const GltfMeshPrimitives primitives(mesh);
  for (size_t p = 0; p < primitives.size(); ++p) {
    const json primitive = primitives.At(p);
    if (primitive.is_object() && primitive.contains("indices")) {
      if (auto index = Index(primitive["indices"])) {
        index_accessors.insert(*index);
        const json* mode = Find(primitive, "mode");
        (!mode || *mode == 4 ? triangle_lists : other_lists).insert(*index);
      }
    }
  }
}

std::vector<std::optional<ViewLayout>> PassThroughViewLayouts(
    const std::set<size_t>& index_accessors, const json& accessors, const json& views,
    const std::set<size_t>* triangle_lists) {
  // Per view: the element sizes its accessors read, and whether they are index data.
  std::vector<std::set<size_t>> element_sizes(views.size());
  std::vector<int> index_use(views.size(), 0);  // 0 none, 1 indices, -1 vertex data, -2 both
  std::vector<bool> unknown(views.size(), false);
  // Per view: whether every accessor is a triangle list that starts on a triangle and holds whole
  // triangles (the TRIANGLES codec works on the view as one list).
  std::vector<bool> whole_triangles(views.size(), triangle_lists != nullptr);
  for (size_t a = 0; a < accessors.size(); ++a) {
    const json& accessor = accessors[a];
    // Sparse parts read other views in their own ways: leave those views as they are.
    // (Members are checked for their types: an accessor nothing uses is kept as the file had it.)
    ForEachAccessorView(accessor, [&](const json& reference) {
      if (&reference == Find(accessor, "bufferView")) return;
      if (auto view = Index(reference); view && *view < views.size()) unknown[*view] = true;
    });
    const json* reference = Find(accessor, "bufferView");
    const std::optional<size_t> view = reference ? Index(*reference) : std::nullopt;
    if (!view || *view >= views.size()) continue;
    const json* component = Find(accessor, "componentType");
    const json* type = Find(accessor, "type");
    const size_t size = component && component->is_number_integer() && type && type->is_string()
                            ? static_cast<size_t>(ComponentSize(component->get<int>())) *
                                  Components(type->get<std::string>())
                            : 0;
    if (size == 0) unknown[*view] = true;
    element_sizes[*view].insert(size);
    const bool is_index = index_accessors.count(a) > 0;
    const std::optional<size_t> count = Natural(Find(accessor, "count"), 0);
    const std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
    if (!triangle_lists || !triangle_lists->count(a) || size == 0 || !count || !offset ||
        *count % 3 != 0 || *offset % (3 * size) != 0) {
      whole_triangles[*view] = false;
    }
    const int use = is_index ? 1 : -1;
    index_use[*view] = index_use[*view] == 0 ? use : index_use[*view] == use ? use : -2;
  }
  std::vector<std::optional<ViewLayout>> layouts(views.size());
  for (size_t v = 0; v < views.size(); ++v) {
    if (unknown[v] || element_sizes[v].empty() || index_use[v] == -2) continue;  // images too
    ViewLayout layout;
    if (index_use[v] == 1) {
      if (element_sizes[v].size() != 1) continue;
      layout.stride = *element_sizes[v].begin();
      layout.indices = true;
      layout.triangles = whole_triangles[v];
      if (layout.stride != 2 && layout.stride != 4) continue;
    } else if (const json* stride = Find(views[v], "byteStride")) {
      const std::optional<size_t> value = Natural(stride, 0);
      if (!value || *value == 0 || *value % 4 != 0 || *value > 256) continue;
      layout.stride = *value;
    } else {
      const size_t size = element_sizes[v].size() == 1 ? *element_sizes[v].begin() : 4;
      layout.stride = size % 4 == 0 && size <= 256 ? size : 4;
    }
    layouts[v] = layout;
  }
  return layouts;
}

std::string CompressView(const std::string& bytes, const ViewLayout& layout,
                         size_t* padded_length) {
  std::string compressed;
#if ANIMCONV_WITH_MESHOPT
  std::string data = bytes;
  data.resize((data.size() + layout.stride - 1) / layout.stride * layout.stride, '\0');
  *padded_length = data.size();
  const size_t count = data.size() / layout.stride;
  if (!layout.indices) return CompressAttributes(data, layout.stride);
  std::vector<unsigned int> indices(count);
  for (size_t i = 0; i < count; ++i) {
    if (layout.stride == 2) {
      uint16_t index;
      std::memcpy(&index, data.data() + i * 2, 2);
      indices[i] = index;
    } else {
      std::memcpy(&indices[i], data.data() + i * 4, 4);
    }
  }
  if (layout.triangles && count % 3 == 0) {
    // meshopt_encodeIndexBufferBound wants the vertex count: one past the largest index.
    const size_t vertices =
        indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + size_t{1};
    compressed.resize(meshopt_encodeIndexBufferBound(count, vertices));
    compressed.resize(meshopt_encodeIndexBuffer(reinterpret_cast<unsigned char*>(compressed.data()),
                                                compressed.size(), indices.data(), count));
    return compressed;
  }
  compressed.resize(meshopt_encodeIndexSequenceBound(count, 1u << 31));
  compressed.resize(meshopt_encodeIndexSequence(reinterpret_cast<unsigned char*>(compressed.data()),
                                                compressed.size(), indices.data(), count));
#else
  static_cast<void>(bytes), static_cast<void>(layout);
  *padded_length = bytes.size();
#endif
  return compressed;
}

}  // namespace animconv
