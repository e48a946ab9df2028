#include "formats/gltf/gltf_mesh_dequantize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

#include "formats/common/canonical_json.h"
#include "formats/gltf/gltf_object_list.h"

namespace animconv {
namespace {

using nlohmann::json;

// A member the reader keeps packed (a skin's joints and skeleton, gltf_object_list.cpp), parsed.
bool AllNumbers(const json& value) {
  return value.is_array() &&
         std::all_of(value.begin(), value.end(), [](const json& x) { return x.is_number(); });
}

struct SkinInfo {
  std::optional<size_t> matrices;  // inverseBindMatrices accessor
  std::set<size_t> meshes;         // the meshes drawn with it
};

// The skin's inverse bind matrices when they can be rewritten for this mesh alone: a float MAT4
// accessor only this skin uses, alone in its view, tightly packed.
std::optional<DequantizationPlace::Skin> OwnMatrices(const GltfDocument& source,
                                                     const ReferenceCounts& references, size_t a) {
  if (a >= references.accessors.size() || references.accessors[a] != 1) return std::nullopt;
  const json accessor = source.lists.accessors->At(a);
  if (!accessor.is_object() || accessor.contains("sparse") ||
      accessor.value("componentType", json()) != kGltfFloat ||
      accessor.value("type", json()) != "MAT4") {
    return std::nullopt;
  }
  const std::optional<size_t> view =
      ValidIndex(accessor.value("bufferView", json()), source.buffer_views.size());
  const std::optional<size_t> count = Natural(Find(accessor, "count"), 0);
  const std::optional<size_t> offset = Natural(Find(accessor, "byteOffset"), 0);
  if (!view || !count || !offset || *offset != 0 || references.views[*view] != 1) {
    return std::nullopt;
  }
  const json definition = source.lists.buffer_views->At(*view);
  const std::string& bytes = source.buffer_views[*view];
  if (Natural(Find(definition, "byteStride"), 64) != std::optional<size_t>(64) ||
      !FitsIn(bytes.size(), 0, 64, *count, 64)) {
    return std::nullopt;
  }
  DequantizationPlace::Skin skin;
  skin.accessor = a;
  skin.view = *view;
  skin.matrices.resize(*count * 16);
  for (size_t i = 0; i < skin.matrices.size(); ++i) {
    float value;
    std::memcpy(&value, bytes.data() + i * 4, 4);
    skin.matrices[i] = value;
  }
  return skin;
}

}  // namespace

std::map<size_t, DequantizationPlace> FindDequantizationPlaces(const GltfDocument& source,
                                                               const ReferenceCounts& references,
                                                               const std::vector<bool>& animated) {
  std::map<size_t, DequantizationPlace> places;
  std::set<size_t> joints;
  std::vector<SkinInfo> skins;
  if (const GltfObjectList* list = source.lists.Objects("skins")) {
    skins.resize(list->size());
    for (size_t s = 0; s < list->size(); ++s) {
      const json skin = list->At(s);
      const json joint_list = Unpacked(skin, "joints");
      for (const json& joint : joint_list.is_array() ? joint_list : json::array()) {
        if (joint.is_number_unsigned()) joints.insert(joint.get<size_t>());
      }
      const json skeleton = Unpacked(skin, "skeleton");
      if (skeleton.is_number_unsigned()) joints.insert(skeleton.get<size_t>());
      if (const json* matrices = Find(skin, "inverseBindMatrices")) {
        skins[s].matrices = ValidIndex(*matrices, references.accessors.size());
      }
    }
  }
  const GltfObjectList* nodes = source.lists.Objects("nodes");
  const size_t node_count = nodes ? nodes->size() : 0;
  std::map<size_t, std::vector<size_t>> drawing;  // mesh -> its nodes
  for (size_t n = 0; n < node_count; ++n) {
    const json node = nodes->At(n);
    const json* mesh = Find(node, "mesh");
    if (!mesh || !mesh->is_number_unsigned()) continue;
    drawing[mesh->get<size_t>()].push_back(n);
    if (const json* skin = Find(node, "skin")) {
      if (const std::optional<size_t> s = ValidIndex(*skin, skins.size())) {
        skins[*s].meshes.insert(mesh->get<size_t>());
      }
    }
  }
  std::set<size_t> morphed;           // meshes with morph targets
  std::set<size_t> partly_skinned;    // meshes with a primitive lacking JOINTS_0 or WEIGHTS_0
  std::map<size_t, size_t> vertices;  // mesh -> its primitives' vertices
  const size_t accessor_count = source.lists.accessors ? source.lists.accessors->size() : 0;
  if (const GltfObjectList* meshes = source.lists.Objects("meshes")) {
    for (const auto& [m, list] : drawing) {
      if (m >= meshes->size()) continue;
      const json mesh = meshes->At(m);
      const GltfMeshPrimitives primitives(mesh);
      for (size_t p = 0; p < primitives.size(); ++p) {
        const json primitive = primitives.At(p);
        if (GltfMeshPrimitives::HasTargets(primitive)) morphed.insert(m);
        const json* attributes = Find(primitive, "attributes");
        if (!attributes || !Find(*attributes, "JOINTS_0") || !Find(*attributes, "WEIGHTS_0")) {
          partly_skinned.insert(m);
        }
        const json* position = attributes ? Find(*attributes, "POSITION") : nullptr;
        if (const std::optional<size_t> a =
                position ? ValidIndex(*position, accessor_count) : std::nullopt) {
          const json accessor = source.lists.accessors->At(*a);
          vertices[m] += Natural(Find(accessor, "count"), 0).value_or(0);
        }
      }
    }
  }
  for (const auto& [m, list] : drawing) {
    DequantizationPlace& place = places[m];
    size_t skinned = 0;
    for (const size_t n : list) {
      const json node = nodes->At(n);
      if (node.contains("skin")) {
        ++skinned;
        const std::optional<size_t> s = ValidIndex(node["skin"], skins.size());
        if (!s) {
          place.refused = "skinned, by no valid skin";
        } else if (partly_skinned.count(m)) {
          // three.js draws such a primitive unskinned, with the node's transform, which would
          // not hold the dequantization.
          place.refused = "skinned, but a primitive lacks JOINTS_0 or WEIGHTS_0";
        } else if (skins[*s].meshes.size() != 1 || !skins[*s].matrices) {
          place.refused = "skinned, its skin without inverse bind matrices or shared";
        } else if (std::none_of(place.skins.begin(), place.skins.end(), [&](const auto& known) {
                     return known.accessor == *skins[*s].matrices;
                   })) {
          std::optional<DequantizationPlace::Skin> matrices =
              OwnMatrices(source, references, *skins[*s].matrices);
          if (!matrices) {
            place.refused = "skinned, its inverse bind matrices shared, strided or not float";
          } else {
            place.skins.push_back(std::move(*matrices));
          }
        }
        continue;
      }
      // Why the node cannot take the dequantization itself; then a new child of it can, holding
      // the mesh, where the node has no extension (EXT_mesh_gpu_instancing and the like apply to
      // its mesh) and the mesh no morph targets (their weights, and animations of them, are the
      // node's).
      const json* children = Find(node, "children");
      const char* why = children && !children->empty()       ? "its node has children"
                        : node.contains("camera")            ? "its node has a camera"
                        : joints.count(n) > 0                ? "its node is a joint"
                        : n < animated.size() && animated[n] ? "its node's transform is animated"
                                                             : nullptr;
      // Readers compose the rotation as it is written (three.js does not normalise it), so the
      // fold is exact only for a unit quaternion (the matrix form folds exactly as it is).
      const json* rotation = Find(node, "rotation");
      if (!why && rotation && !node.contains("matrix") && AllNumbers(*rotation) &&
          rotation->size() == 4) {
        double norm = 0;
        for (const json& x : *rotation) norm += x.get<double>() * x.get<double>();
        if (!(std::abs(norm - 1) <= 1e-6)) why = "its node's rotation is not a unit quaternion";
      }
      const char* refused = node.contains("extensions") ? "its node has an extension" : nullptr;
      for (const char* key : {"matrix", "translation", "rotation", "scale"}) {
        const json* value = Find(node, key);
        if (!refused && value && !AllNumbers(*value)) {
          refused = "its node's transform is not numbers";
        }
      }
      if (!refused && why && (morphed.count(m) || node.contains("weights"))) {
        refused = why;  // (a child would take the morph targets from the node's weights)
      }
      if (refused) {
        if (place.refused.empty()) place.refused = refused;
      } else if (why) {
        place.via_child.insert(n);
      } else {
        place.own.push_back(n);
      }
    }
    if (skinned != 0 && skinned != list.size() && place.refused.empty()) {
      place.refused = "drawn both with and without a skin";
    }
    // A new node costs about 90 bytes of JSON; the grid saves about 4 bytes a vertex (after
    // compression: khronos_BoxAnimated's inner box, 96 vertices, 332 bytes). Not for a mesh drawn
    // by so many such nodes that it would cost more than it saves (review of 7d87c21: 20,000
    // nodes with children drawing one mesh made the output 2.4 times the plain one).
    constexpr size_t kNewNodeBytes = 90;
    constexpr size_t kSavedBytesPerVertex = 4;
    if (place.refused.empty() &&
        place.via_child.size() * kNewNodeBytes > vertices[m] * kSavedBytesPerVertex) {
      place.refused = fmt::format(
          "{} of its nodes cannot take the grid (children, a joint, an animated transform), and "
          "a new child node for each would cost more than the grid saves",
          place.via_child.size());
    }
    place.child_allowed = !morphed.count(m);
    if (!place.refused.empty()) {
      place.skins.clear();
      place.via_child.clear();
      place.own.clear();
    }
  }
  return places;
}

std::string FoldIntoMatrices(const std::vector<double>& matrices, const Vec3& corner, double step) {
  std::string bytes(matrices.size() * 4, '\0');
  for (size_t k = 0; k + 16 <= matrices.size(); k += 16) {
    // M * D: the first three columns scaled by the step, the fourth M * (corner, 1).
    float out[16];
    for (size_t row = 0; row < 4; ++row) {
      for (size_t column = 0; column < 3; ++column) {
        out[column * 4 + row] = static_cast<float>(matrices[k + column * 4 + row] * step);
      }
      out[12 + row] =
          static_cast<float>(matrices[k + row] * corner[0] + matrices[k + 4 + row] * corner[1] +
                             matrices[k + 8 + row] * corner[2] + matrices[k + 12 + row]);
    }
    std::memcpy(bytes.data() + k * 4, out, sizeof(out));
  }
  return bytes;
}

}  // namespace animconv
