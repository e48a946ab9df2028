#include "formats/gltf/gltf_node_morphs.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

namespace animconv {

using nlohmann::json;

// node.weights, "the weights of the instantiated morph target" (glTF 2.0 schema), over the mesh's:
// GLTFLoader (r187 loadNode) sets influence i to node.weights[i] for each i the list holds.
void ReadNodeWeights(const json& definition, Node& node) {
  if (node.morph_target_count <= 0) return;
  const size_t count = static_cast<size_t>(node.morph_target_count);
  const std::optional<json> found = MeshWeights(definition, count);
  if (!found || !found->is_array()) return;
  std::vector<double> weights = node.morph_default_weights;
  if (weights.size() != count) weights.assign(count, 0.0);
  for (size_t i = 0; i < found->size(); ++i) {
    if (!(*found)[i].is_number()) return;
    weights[i] = (*found)[i].get<double>();
  }
  node.morph_default_weights = std::move(weights);
}

// Morph target count and names of a mesh (every primitive must agree, glTF 2.0 §3.7.2.2).
MeshMorphs ReadMorphTargets(const json& mesh, size_t mesh_index, const StructureLimits& limits,
                            const GltfErrors& errors) {
  const std::string pointer = fmt::format("/meshes/{}", mesh_index);
  if (!mesh.is_object()) errors.Fail(pointer, "expected an object");
  // One primitive's tree at a time, its targets counted, not built (gltf_object_list.h).
  const GltfMeshPrimitives primitives = errors.Primitives(mesh, pointer);
  std::optional<size_t> count;
  for (size_t p = 0; p < primitives.size(); ++p) {
    const std::string primitive_pointer = fmt::format("{}/primitives/{}", pointer, p);
    const json primitive = primitives.At(p);
    if (!primitive.is_object()) errors.Fail(primitive_pointer, "expected an object");
    const std::unique_ptr<PackedArrayView> targets =
        errors.OptionalTargets(primitive, primitive_pointer);
    const size_t own = targets ? targets->size() : 0;
    if (own > limits.morph_targets) {
      errors.Fail(
          primitive_pointer + "/targets",
          fmt::format("{} morph targets, more than the limit of {}", own, limits.morph_targets));
    }
    if (count && *count != own) {
      errors.Fail(primitive_pointer + "/targets",
                  fmt::format("{} morph targets, but primitive 0 has {}; all primitives of a mesh "
                              "must have the same number",
                              own, *count));
    }
    count = own;
  }
  MeshMorphs morphs;
  morphs.target_count = static_cast<int>(*count);
  morphs.mesh = MeshInfo{errors.OptionalString(mesh, "name", pointer), static_cast<int>(mesh_index),
                         static_cast<int>(primitives.size())};
  // glTF 2.0 mesh.weights: as many numbers as targets (GLTFLoader's initial influences).
  if (const std::optional<json> weights = MeshWeights(mesh, *count + 1);
      weights && weights->is_array() && weights->size() == *count) {
    for (const json& weight : *weights) {
      if (!weight.is_number()) break;
      morphs.default_weights.push_back(weight.get<double>());
    }
    if (morphs.default_weights.size() != *count) morphs.default_weights.clear();
  }
  // mesh.extras.targetNames is the de-facto convention (glTF 2.0 §3.7.2.1 morph targets); used only
  // when it names every target, like GLTFLoader.
  if (mesh.contains("extras") && mesh["extras"].is_object() &&
      mesh["extras"].contains("targetNames")) {
    const json& names = mesh["extras"]["targetNames"];
    if (names.is_array() && names.size() == *count &&
        std::all_of(names.begin(), names.end(), [](const json& n) { return n.is_string(); })) {
      for (const json& name : names) morphs.target_names.push_back(name.get<std::string>());
    }
  }
  return morphs;
}

}  // namespace animconv
