// What a glTF node shows of its mesh's morph targets: their count, names and the default weights
// a loader starts from (the mesh's `weights`, the node's own over them), read for the model's
// nodes (gltf_reader.cpp).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

// What a node takes from its mesh: the morph target count, names and default weights.
struct MeshMorphs {
  MeshInfo mesh;
  int target_count = 0;
  std::vector<double> default_weights;
  std::vector<std::string> target_names;
};

// Morph target count and names of a mesh (every primitive must agree, glTF 2.0 §3.7.2.2), and
// its default weights.
MeshMorphs ReadMorphTargets(const nlohmann::json& mesh, size_t mesh_index,
                            const StructureLimits& limits, const GltfErrors& errors);

// node.weights over the mesh's default weights `node` holds (its morph_target_count set).
void ReadNodeWeights(const nlohmann::json& definition, Node& node);

}  // namespace animconv
