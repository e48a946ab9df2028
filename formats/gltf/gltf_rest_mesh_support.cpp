#include "formats/gltf/gltf_rest_mesh_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <glm/mat4x4.hpp>
#include <limits>
#include <optional>

#include "animconv/diagnostic.h"
#include "animconv/error.h"
#include "animconv/rest_pose.h"
#include "formats/gltf/gltf_accessors.h"
#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"
#include "libconvert/mesh_support.h"

namespace animconv {
namespace {

using nlohmann::json;
// A point of a mesh through a matrix (positions: w = 1).
Vec3 Transform(const glm::dmat4& m, const double* p) {
  const glm::dvec4 moved = m * glm::dvec4(p[0], p[1], p[2], 1.0);
  return {moved.x, moved.y, moved.z};
}

class SupportReader {
 public:
  SupportReader(const json& document, const GltfLists& lists, const GltfViewBytes& views,
                const std::string& source, uint64_t budget_bytes, Rig& rig)
      : errors_(source),
        document_(document),
        views_(views),
        budget_bytes_(budget_bytes),
        lists_(lists),
        rig_(rig),
        rest_(rig),
        support_(rig.nodes.size()) {}

  // Every node that draws a mesh; a mesh that fails is left out with a note.
  void Read(Diagnostics* diagnostics) {
    const GltfObjectList* nodes = lists_.Objects("nodes");
    const GltfObjectList* meshes = lists_.Objects("meshes");
    if (!nodes || !meshes) return;
    for (size_t n = 0; n < nodes->size() && n < rig_.nodes.size(); ++n) {
      const json node = nodes->At(n);
      const json* mesh = Find(node, "mesh");
      const std::optional<size_t> m = mesh ? ValidIndex(*mesh, meshes->size()) : std::nullopt;
      if (!m) continue;
      const size_t mesh_index = *m;
      try {
        // An accessor cache of this mesh's own: a mesh's decoded doubles are freed before the
        // next is read.
        GltfAccessors accessors(document_, lists_, views_, errors_, budget_bytes_);
        ReadMeshOfNode(n, node, meshes->At(mesh_index), mesh_index, accessors, diagnostics);
      } catch (const Error& error) {
        AddDiagnostic(diagnostics, Severity::kWarning,
                      fmt::format("--ground: mesh {} (drawn by node {}) cannot be placed, so its "
                                  "soles are not measured (where they are its joints stand on "
                                  "the floor, the soles under it): {}",
                                  mesh_index, n, error.what()));
      }
    }
    for (size_t n = 0; n < rig_.nodes.size(); ++n) {
      rig_.nodes[n].rest_mesh_support = support_[n].Points();
    }
  }

 private:
  // The skin's joints (node indices) and each one's jointWorld · inverseBind; nullopt when the
  // node has no skin.
  struct Skin {
    std::vector<int> joints;
    std::vector<glm::dmat4> matrices;
  };

  std::optional<Skin> ReadSkin(const json& node, size_t n, GltfAccessors& accessors) {
    const json* skin = Find(node, "skin");
    const GltfObjectList* skins = lists_.Objects("skins");
    if (!skin) return std::nullopt;
    const std::optional<size_t> s = skins ? ValidIndex(*skin, skins->size()) : std::nullopt;
    if (!s) {
      ThrowBadInput(errors_.source(), fmt::format("/nodes/{}/skin", n),
                    "expected the index of a skin");
    }
    const size_t skin_index = *s;
    const json definition = skins->At(skin_index);
    const json joints = Unpacked(definition, "joints");
    const std::string skin_pointer = fmt::format("/skins/{}", skin_index);
    if (!joints.is_array() || joints.empty()) {
      ThrowBadInput(errors_.source(), skin_pointer + "/joints", "expected an array of nodes");
    }
    std::optional<size_t> matrices;
    if (const json* reference = Find(definition, "inverseBindMatrices")) {
      matrices = ValidIndex(*reference, accessors.size());
      if (!matrices) {
        ThrowBadInput(errors_.source(), skin_pointer + "/inverseBindMatrices",
                      "expected the index of an accessor");
      }
    }
    const AccessorData* inverse = matrices ? &accessors.Get(*matrices) : nullptr;
    if (inverse && (inverse->components != 16 || inverse->count < joints.size())) {
      ThrowBadInput(errors_.source(), skin_pointer + "/inverseBindMatrices",
                    fmt::format("expected a MAT4 accessor of at least {} elements", joints.size()));
    }
    Skin out;
    for (size_t j = 0; j < joints.size(); ++j) {
      const std::optional<size_t> joint = ValidIndex(joints[j], rig_.nodes.size());
      if (!joint) {
        ThrowBadInput(errors_.source(), fmt::format("{}/joints/{}", skin_pointer, j),
                      "expected the index of a node");
      }
      const glm::dmat4 inverse_bind =
          inverse ? glm::make_mat4(inverse->values.data() + j * 16) : glm::dmat4(1.0);
      out.joints.push_back(static_cast<int>(*joint));
      out.matrices.push_back(WorldMatrix(static_cast<int>(*joint)) * inverse_bind);
    }
    return out;
  }

  const AccessorData& Attribute(GltfAccessors& accessors, const json& attributes, const char* name,
                                const std::string& pointer, size_t components, size_t count) {
    const json* reference = Find(attributes, name);
    const std::optional<size_t> a =
        reference ? ValidIndex(*reference, accessors.size()) : std::nullopt;
    if (!a) ThrowBadInput(errors_.source(), pointer + "/" + name, "expected an accessor index");
    const AccessorData& data = accessors.Get(*a);
    if (data.components != static_cast<int>(components) || (count != 0 && data.count != count)) {
      ThrowBadInput(errors_.source(), pointer + "/" + name,
                    fmt::format("expected {} elements of {} components", count, components));
    }
    return data;
  }

  // Whether every attribute the support needs holds data: a Draco primitive's accessors have no
  // bufferView unless the file keeps an uncompressed fallback (KHR_draco_mesh_compression).
  bool AttributesHoldData(const json& attributes) const {
    const PackedJsonArray* accessors = lists_.accessors.get();
    for (const char* name : {"POSITION", "JOINTS_0", "WEIGHTS_0"}) {
      const json* reference = Find(attributes, name);
      if (!reference) continue;
      const std::optional<size_t> a =
          accessors ? ValidIndex(*reference, accessors->size()) : std::nullopt;
      if (!a) continue;
      const json accessor = accessors->At(*a);
      if (!Find(accessor, "bufferView")) return false;
    }
    return true;
  }

  void ReadMeshOfNode(size_t n, const json& node, const json& mesh, size_t m,
                      GltfAccessors& accessors, Diagnostics* diagnostics) {
    const std::optional<Skin> skin = ReadSkin(node, n, accessors);
    const GltfMeshPrimitives primitives(mesh);
    for (size_t p = 0; p < primitives.size(); ++p) {
      const json primitive = primitives.At(p);
      const std::string pointer = fmt::format("/meshes/{}/primitives/{}/attributes", m, p);
      const json* attributes = Find(primitive, "attributes");
      if (!attributes || !Find(*attributes, "POSITION")) continue;
      const json* extensions = Find(primitive, "extensions");
      if (extensions && Find(*extensions, "KHR_draco_mesh_compression") &&
          !AttributesHoldData(*attributes)) {
        AddDiagnostic(diagnostics, Severity::kWarning,
                      fmt::format("--ground: mesh {} primitive {} (drawn by node {}) is "
                                  "Draco-compressed, which animconv does not decode, so its soles "
                                  "are not measured (where they are its joints stand on the "
                                  "floor, the soles under it); export it without Draco",
                                  m, p, n));
        continue;
      }
      const AccessorData& positions = Attribute(accessors, *attributes, "POSITION", pointer, 3, 0);
      if (!skin || !Find(*attributes, "JOINTS_0") || !Find(*attributes, "WEIGHTS_0")) {
        const glm::dmat4 node_world = WorldMatrix(static_cast<int>(n));
        // Drawn by the node: glTF 2.0 §3.7.3.3 ignores a skinned mesh node's own transform only
        // for skinned primitives.
        for (size_t v = 0; v < positions.count; ++v) {
          support_[n].Add(Transform(node_world, &positions.values[v * 3]));
        }
        continue;
      }
      const AccessorData& joints =
          Attribute(accessors, *attributes, "JOINTS_0", pointer, 4, positions.count);
      const AccessorData& weights =
          Attribute(accessors, *attributes, "WEIGHTS_0", pointer, 4, positions.count);
      for (size_t v = 0; v < positions.count; ++v) {
        Vec3 point{0, 0, 0};
        double total = 0;
        double largest = 0;
        int mover = -1;
        for (size_t k = 0; k < 4; ++k) {
          const double weight = weights.values[v * 4 + k];
          const double joint = joints.values[v * 4 + k];
          if (!(weight > 0)) continue;
          if (!(joint >= 0) || joint >= static_cast<double>(skin->joints.size())) {
            ThrowBadInput(errors_.source(), pointer + "/JOINTS_0",
                          fmt::format("vertex {} names joint {} of a skin of {}", v, joint,
                                      skin->joints.size()));
          }
          const size_t j = static_cast<size_t>(joint);
          const Vec3 moved = Transform(skin->matrices[j], &positions.values[v * 3]);
          for (size_t axis = 0; axis < 3; ++axis) point[axis] += weight * moved[axis];
          total += weight;
          if (weight > largest) {
            largest = weight;
            mover = skin->joints[j];
          }
        }
        if (mover < 0) continue;
        // Weights should sum to 1 (§3.7.3.3); three.js's GLTFLoader renormalises them
        // (SkinnedMesh.normalizeSkinWeights), and so does this.
        for (double& value : point) value /= total;
        support_[static_cast<size_t>(mover)].Add(point);
      }
    }
  }

  glm::dmat4 WorldMatrix(int node) const { return glm::make_mat4(rest_.WorldMatrix(node).data()); }

  GltfErrors errors_;
  const json& document_;
  const GltfViewBytes& views_;
  uint64_t budget_bytes_;
  const GltfLists& lists_;
  Rig& rig_;
  RestPose rest_;
  std::vector<SupportPoints> support_;  // per node
};

}  // namespace

void ReadRestMeshSupport(const json& document, const GltfLists& lists, const GltfViewBytes& views,
                         const std::string& source, uint64_t budget_bytes, Rig& rig,
                         Diagnostics* diagnostics) {
  SupportReader(document, lists, views, source, budget_bytes, rig).Read(diagnostics);
}

}  // namespace animconv
