#include "formats/assimp/assimp_rig.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "animconv/error.h"
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

// FBX makes at most 13 helpers per bone (Translation, RotationOffset, RotationPivot,
// PreRotation, Rotation, PostRotation, RotationPivotInverse, ScalingOffset, ScalingPivot,
// Scaling, ScalingPivotInverse, GeometricTranslation/Rotation/Scaling): a longer run is no
// exporter's, and each node below it would copy the whole run.
constexpr size_t kMaxHelperChain = 64;

class RigBuilder {
 public:
  RigBuilder(const aiScene& scene, const StructureLimits& limits, const std::string& source)
      : scene_(scene), limits_(limits), source_(source) {}

  AssimpRig Build() {
    const aiNode& root = *scene_.mRootNode;
    // Assimp invents a root for formats with several top-level nodes (FBX "RootNode"); leaving
    // it out when it moves nothing keeps the rig what the file's author made.
    const std::unordered_set<std::string> animated = AnimatedNames(scene_);
    out_.dropped_root = root.mNumChildren > 0 && root.mNumMeshes == 0 &&
                        IsIdentity(root.mTransformation) && animated.count(root.mName.C_Str()) == 0;
    // Depth first in file order with an explicit stack: a recursive walk overflowed the stack
    // at ~11,000 nested BVH joints (issue 14).
    if (out_.dropped_root) {
      for (unsigned c = root.mNumChildren; c-- > 0;)
        stack_.push_back({root.mChildren[c], -1, 1, {}});
    } else {
      stack_.push_back({&root, -1, 1, {}});
    }
    while (!stack_.empty()) {
      Frame frame = std::move(stack_.back());
      stack_.pop_back();
      Visit(std::move(frame));
    }
    out_.rig.rest_pose_known = true;
    return std::move(out_);
  }

 private:
  struct Frame {
    const aiNode* node;
    int parent;
    size_t depth;                      // of the Assimp node, the root's is 1
    std::vector<const aiNode*> chain;  // helpers above it not yet folded into a rig node
  };

  void Fail(const aiNode& node, const std::string& what) const {
    throw Error(ErrorKind::kBadInput, source_, "",
                fmt::format("node '{}': {}", node.mName.C_Str(), what));
  }

  void PushChildren(const aiNode& node, int parent, size_t depth,
                    const std::vector<const aiNode*>& chain) {
    for (unsigned c = node.mNumChildren; c-- > 0;) {
      stack_.push_back({node.mChildren[c], parent, depth + 1, chain});
    }
  }

  void Visit(Frame frame) {
    const aiNode& node = *frame.node;
    if (frame.depth > limits_.depth) {
      Fail(node,
           fmt::format("{} levels deep, more than the limit of {}", frame.depth, limits_.depth));
    }
    frame.chain.push_back(&node);
    if (IsAssimpFbxHelper(node)) {
      ++out_.folded_helpers;
      if (frame.chain.size() > kMaxHelperChain) {
        Fail(node,
             fmt::format("more than {} {} helper nodes in a row", kMaxHelperChain, kHelperMarker));
      }
      // A helper leaf (FBX geometric transforms) only carries meshes: they show on its bone.
      if (node.mNumChildren == 0 && frame.parent >= 0) AddMeshes(node, frame.parent);
      PushChildren(node, frame.parent, frame.depth, frame.chain);
      return;
    }
    if (out_.rig.nodes.size() >= limits_.nodes) {
      Fail(node, fmt::format("more than the limit of {} nodes", limits_.nodes));
    }
    const int index = static_cast<int>(out_.rig.nodes.size());
    Node& added = out_.rig.nodes.emplace_back();
    added.name = node.mName.C_Str();
    if (added.name.empty()) {
      added.name = "node_" + std::to_string(index);
      added.generated_name = true;
    }
    added.parent = frame.parent;
    glm::dmat4 local(1.0);
    for (const aiNode* link : frame.chain) local = local * ToGlm(link->mTransformation);
    DecomposeMatrix(local, &added.rest_translation, &added.rest_rotation, &added.rest_scale);
    for (const aiNode* link : frame.chain) out_.node_by_name.emplace(link->mName.C_Str(), index);
    out_.chains.push_back(std::move(frame.chain));
    AddMeshes(node, index);
    PushChildren(node, index, frame.depth, {});
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
  const StructureLimits& limits_;
  const std::string& source_;
  std::vector<Frame> stack_;
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

AssimpRig BuildAssimpRig(const aiScene& scene, const StructureLimits& limits,
                         const std::string& source) {
  return RigBuilder(scene, limits, source).Build();
}

}  // namespace animconv
