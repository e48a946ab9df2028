// Assimp's node tree as our rig. With FBX pivots preserved (Assimp's default), a bone with
// pivots, offsets or pre/post rotation comes as a chain of helper nodes
// "<bone>_$AssimpFbx$_<Translation|PreRotation|Rotation|...>" above it, and animation channels
// target the helpers (AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, Assimp 5.2 FBXConverter.cpp; assimp
// issues #2313, #4005; docs/formats/assimp.md). Each chain folds back into one node here,
// so the rig has the bones users see; assimp_clips.h composes the chain's animation.
#pragma once

#include <assimp/scene.h>

#include <glm/mat4x4.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "animconv/model.h"
#include "animconv/transform.h"

namespace animconv {

struct AssimpRig {
  Rig rig;
  // Per rig node: the Assimp nodes whose transforms make its local transform, parent-most first,
  // the node itself last. Longer than one only for a folded helper chain.
  std::vector<std::vector<const aiNode*>> chains;
  // The rig node an Assimp node name belongs to (helpers map to their bone); first wins.
  std::unordered_map<std::string, int> node_by_name;
  int folded_helpers = 0;
  bool dropped_root = false;  // Assimp's identity root ("RootNode") was left out
};

bool IsAssimpFbxHelper(const aiNode& node);

glm::dmat4 ToGlm(const aiMatrix4x4& matrix);

// Iterative, O(nodes): refuses (kBadInput, `source`) a tree beyond `limits` (nodes, depth).
AssimpRig BuildAssimpRig(const aiScene& scene, const StructureLimits& limits,
                         const std::string& source);

}  // namespace animconv
