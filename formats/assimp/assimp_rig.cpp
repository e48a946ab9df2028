#include "formats/assimp/assimp_rig.h"

#include <cstring>
#include <unordered_set>

#include "animconv/quaternion.h"

namespace animconv {
namespace {

constexpr const char* kHelperMarker = "_$AssimpFbx$_";

bool IsIdentity(const aiMatrix4x4& m) {
  const aiMatrix4x4 identity;
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column) {
      if (m[row][column] != identity[row][column]) return false;
    }
  }
  return true;
}

std::unordered_set<std::string> AnimatedNames(const aiScene& scene) {
  std::unordered_set<std::string> names;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    const aiAnimation& animation = *scene.mAnimations[a];
    for (unsigned c = 0; c < animation.mNumChannels; ++c) {
      names.insert(animation.mChannels[c]->mNodeName.C_Str());
    }
    for (unsigned c = 0; c < animation.mNumMorphMeshChannels; ++c) {
      names.insert(animation.mMorphMeshChannels[c]->mName.C_Str());
    }
  }
  return names;
}

class RigBuilder {
 public:
  explicit RigBuilder(const aiScene& scene) : scene_(scene) {}

  AssimpRig Build() {
    const aiNode& root = *scene_.mRootNode;
    // Assimp invents a root for formats with several top-level nodes (FBX "RootNode"); leaving
    // it out when it moves nothing keeps the rig what the file's author made.
    const std::unordered_set<std::string> animated = AnimatedNames(scene_);
    out_.dropped_root = root.mNumChildren > 0 && root.mNumMeshes == 0 &&
                        IsIdentity(root.mTransformation) && animated.count(root.mName.C_Str()) == 0;
    if (out_.dropped_root) {
      for (unsigned c = 0; c < root.mNumChildren; ++c) Visit(*root.mChildren[c], -1, {});
    } else {
      Visit(root, -1, {});
    }
    out_.rig.rest_pose_known = true;
    return std::move(out_);
  }

 private:
  void Visit(const aiNode& node, int parent, std::vector<const aiNode*> chain) {
    chain.push_back(&node);
    if (IsAssimpFbxHelper(node)) {
      ++out_.folded_helpers;
      // A helper leaf (FBX geometric transforms) only carries meshes: they show on its bone.
      if (node.mNumChildren == 0 && parent >= 0) AddMeshes(node, parent);
      for (unsigned c = 0; c < node.mNumChildren; ++c) Visit(*node.mChildren[c], parent, chain);
      return;
    }
    const int index = static_cast<int>(out_.rig.nodes.size());
    Node& added = out_.rig.nodes.emplace_back();
    added.name = node.mName.C_Str();
    if (added.name.empty()) {
      added.name = "node_" + std::to_string(index);
      added.generated_name = true;
    }
    added.parent = parent;
    glm::dmat4 local(1.0);
    for (const aiNode* link : chain) local = local * ToGlm(link->mTransformation);
    DecomposeMatrix(local, &added.rest_translation, &added.rest_rotation, &added.rest_scale);
    for (const aiNode* link : chain) out_.node_by_name.emplace(link->mName.C_Str(), index);
    out_.chains.push_back(std::move(chain));
    AddMeshes(node, index);
    for (unsigned c = 0; c < node.mNumChildren; ++c) Visit(*node.mChildren[c], index, {});
  }

  // Only meshes with morph targets are kept: their weights are animation, and three.js names
  // weight tracks after the mesh. Geometry is not part of the clip model (only a glTF input's
  // meshes pass through to a glTF output). Loaders split a mesh per material, and Assimp does
  // too, so a node's meshes are its primitives.
  void AddMeshes(const aiNode& node, int index) {
    Node& target = out_.rig.nodes[static_cast<size_t>(index)];
    for (unsigned m = 0; m < node.mNumMeshes; ++m) {
      if (node.mMeshes[m] >= scene_.mNumMeshes) continue;  // ValidateDS rejects this first
      const aiMesh& mesh = *scene_.mMeshes[node.mMeshes[m]];
      if (mesh.mNumAnimMeshes == 0) continue;
      if (!target.mesh) {
        target.mesh = MeshInfo{mesh.mName.C_Str(), static_cast<int>(node.mMeshes[m]), 0};
      }
      ++target.mesh->primitive_count;
      if (static_cast<int>(mesh.mNumAnimMeshes) > target.morph_target_count) {
        target.morph_target_count = static_cast<int>(mesh.mNumAnimMeshes);
        target.morph_target_names.clear();
        for (unsigned t = 0; t < mesh.mNumAnimMeshes; ++t) {
          target.morph_target_names.push_back(mesh.mAnimMeshes[t]->mName.C_Str());
        }
      }
    }
    // Names are all or nothing in the model.
    const auto& names = target.morph_target_names;
    if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return n.empty(); })) {
      target.morph_target_names.clear();
    }
  }

  const aiScene& scene_;
  AssimpRig out_;
};

}  // namespace

bool IsAssimpFbxHelper(const aiNode& node) {
  return std::strstr(node.mName.C_Str(), kHelperMarker) != nullptr;
}

glm::dmat4 ToGlm(const aiMatrix4x4& m) {
  // Assimp stores rows (a1..a4 is the first row), glm columns.
  glm::dmat4 out;
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column) out[column][row] = m[row][column];
  }
  return out;
}

AssimpRig BuildAssimpRig(const aiScene& scene) { return RigBuilder(scene).Build(); }

}  // namespace animconv
