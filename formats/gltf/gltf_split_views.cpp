#include "formats/gltf/gltf_split_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "formats/common/json_dump.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;

// One accessor's bytes within its view, and its definition (parsed once).
struct Piece {
  size_t accessor = 0;
  size_t offset = 0;
  size_t length = 0;
  json definition;
};

// The accessors any mesh primitive refers to (attributes, morph targets, indices).
std::vector<bool> MeshAccessors(const GltfDocument& source, size_t accessor_count) {
  std::vector<bool> used(accessor_count, false);
  const GltfObjectList* meshes = source.lists.Objects("meshes");
  for (size_t m = 0; meshes && m < meshes->size(); ++m) {
    json mesh = meshes->At(m);
    ForEachReference(
        "meshes", mesh,
        [&](json& reference) {
          if (const std::optional<size_t> a = ValidIndex(reference, accessor_count))
            used[*a] = true;
          return false;
        },
        [](json&) { return false; });
  }
  return used;
}

// The piece of accessor `a` of a view `view_bytes` long whose byteStride is `stride` (0 when it has
// none); nullopt when it is no packed run of whole elements within the view.
std::optional<Piece> PieceOf(json accessor, size_t a, size_t stride, size_t view_bytes) {
  const json* component_type = Find(accessor, "componentType");
  const size_t components = VectorComponents(accessor.value("type", json()));
  // (an integer beyond int's range is no component type, not one truncated into it)
  if (!component_type || !component_type->is_number_integer() || components == 0 ||
      component_type->get<int64_t>() != component_type->get<int>()) {
    return std::nullopt;
  }
  const size_t component = static_cast<size_t>(ComponentSize(component_type->get<int>()));
  const size_t element = component * components;
  const std::optional<size_t> count = Natural(Find(accessor, "count"), 0);
  const std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
  if (element == 0 || !count || *count == 0 || !offset || *offset % component != 0 ||
      (stride != 0 && stride != element) ||
      !FitsIn(view_bytes, *offset, element, *count, element)) {
    return std::nullopt;
  }
  return Piece{a, *offset, *count * element, std::move(accessor)};
}

}  // namespace

std::string ViewSplit::Summary() const {
  return fmt::format(
      "--compress-meshes: {} bufferView(s) shared by accessors one after the other split, {} mesh "
      "accessor(s) each in a view of its own (so that it can be welded and quantized alone)",
      views, accessors);
}

ViewSplit SplitSharedViews(const GltfDocument& source) {
  ViewSplit split;
  const PackedJsonArray* accessors = source.lists.accessors.get();
  const PackedJsonArray* views = source.lists.buffer_views.get();
  if (!accessors || !views || !AllReferencesKnown(source.json)) return split;
  const ReferenceCounts references = CountReferences(source);
  const std::vector<bool> mesh_accessor = MeshAccessors(source, accessors->size());
  // Each view's accessors (by their own bufferView); views a sparse part uses are left alone.
  std::map<size_t, std::vector<size_t>> accessors_of;
  std::set<size_t> refused;
  for (size_t a = 0; a < accessors->size(); ++a) {
    const json accessor = accessors->At(a);
    if (Find(accessor, "sparse")) {
      ForEachAccessorView(accessor, [&](const json& reference) {
        if (const std::optional<size_t> v = ValidIndex(reference, views->size()))
          refused.insert(*v);
      });
      continue;
    }
    const json* reference = Find(accessor, "bufferView");
    if (const std::optional<size_t> v =
            reference ? ValidIndex(*reference, views->size()) : std::nullopt) {
      accessors_of[*v].push_back(a);
    }
  }

  std::map<size_t, json> edited_accessors;
  std::map<size_t, json> edited_views;
  std::vector<json> added_views;
  std::map<size_t, std::string> changed_bytes;
  std::vector<std::string> added_bytes;
  for (const auto& [v, list] : accessors_of) {
    // Every reference to the view is one of these accessors' (an image's or an unknown one's
    // would still expect the whole view).
    if (list.size() < 2 || refused.count(v) || references.views[v] != list.size() ||
        std::none_of(list.begin(), list.end(), [&](size_t a) { return mesh_accessor[a]; })) {
      continue;
    }
    const json view = views->At(v);
    const std::optional<size_t> stride = Natural(Find(view, "byteStride"), 0);
    const std::string& bytes = source.buffer_views[v];
    if (!stride || !view.is_object()) continue;
    std::vector<Piece> pieces;
    for (const size_t a : list) {
      const std::optional<Piece> piece = PieceOf(accessors->At(a), a, *stride, bytes.size());
      if (!piece) break;
      pieces.push_back(*piece);
    }
    if (pieces.size() != list.size()) continue;
    std::vector<std::pair<size_t, size_t>> extents;  // (offset, length), sorted
    for (const Piece& piece : pieces) extents.emplace_back(piece.offset, piece.length);
    std::sort(extents.begin(), extents.end());
    bool overlap = false;
    for (size_t k = 1; k < extents.size(); ++k) {
      overlap = overlap || extents[k].first < extents[k - 1].first + extents[k - 1].second;
    }
    if (overlap) continue;
    // Each accessor a mesh uses takes a view of its own bytes (new views after the source's, in
    // the order of the accessors); the others stay in this view, packed one after the other (4-byte
    // aligned), so that a view shared with many accessors no mesh uses does not become many views
    // (review of 1ff69b8: 2,000 unused accessors beside one POSITION made 2,000 views). Without
    // such others the first mesh accessor keeps this view.
    const std::optional<size_t> view_offset = Natural(Find(view, "byteOffset"), 0);
    std::string kept;  // the others' bytes
    size_t alone = 0;
    const bool others = std::any_of(pieces.begin(), pieces.end(), [&](const Piece& piece) {
      return !mesh_accessor[piece.accessor];
    });
    for (Piece& piece : pieces) {
      json accessor = std::move(piece.definition);
      if (!mesh_accessor[piece.accessor]) {
        kept.append((4 - kept.size() % 4) % 4, '\0');
        if (kept.empty()) {
          accessor.erase("byteOffset");
        } else {
          accessor["byteOffset"] = kept.size();
        }
        kept.append(bytes, piece.offset, piece.length);
        edited_accessors[piece.accessor] = std::move(accessor);
        continue;
      }
      json definition = view;
      definition["byteOffset"] = view_offset.value_or(0) + piece.offset;
      definition["byteLength"] = piece.length;
      std::string piece_bytes = bytes.substr(piece.offset, piece.length);
      accessor.erase("byteOffset");
      if (!others && alone == 0) {
        edited_views[v] = std::move(definition);
        changed_bytes[v] = std::move(piece_bytes);
      } else {
        accessor["bufferView"] = views->size() + added_views.size();
        added_views.push_back(std::move(definition));
        added_bytes.push_back(std::move(piece_bytes));
      }
      edited_accessors[piece.accessor] = std::move(accessor);
      ++alone;
    }
    if (others) {
      json definition = view;
      definition["byteLength"] = kept.size();
      edited_views[v] = std::move(definition);
      changed_bytes[v] = std::move(kept);
    }
    ++split.views;
    split.accessors += alone;
  }
  if (split.views == 0) return split;

  // The lists as read, but for the elements edited (rendered again) and the views added.
  const auto rebuild = [](const PackedJsonArray& list, const std::map<size_t, json>& edited,
                          const std::vector<json>& added) {
    auto out = std::make_shared<PackedJsonArray>();
    std::string text;
    for (size_t i = 0; i < list.size(); ++i) {
      const auto found = edited.find(i);
      if (found == edited.end()) {
        out->AddElementText(list.Text(i));
        continue;
      }
      text.clear();
      AppendJsonDump(found->second, text);
      out->AddElementText(text);
    }
    for (const json& element : added) {
      text.clear();
      AppendJsonDump(element, text);
      out->AddElementText(text);
    }
    return out;
  };
  split.document.emplace(source);
  split.document->lists.accessors = rebuild(*accessors, edited_accessors, {});
  split.document->lists.buffer_views = rebuild(*views, edited_views, added_views);
  split.document->buffer_views =
      source.buffer_views.With(std::move(changed_bytes), std::move(added_bytes));
  return split;
}

}  // namespace animconv
