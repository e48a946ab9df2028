#include "formats/gltf/gltf_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "formats/common/packed_json.h"
#include "formats/gltf/gltf_accessors.h"
#include "formats/gltf/gltf_object_list.h"

namespace animconv {
namespace {

using nlohmann::json;

constexpr int kTriangles = 4;  // glTF 2.0 §3.7.2.1 primitive.mode; also the default

// What every primitive of the mesh must agree on before any data is merged.
struct MeshLayout {
  bool normals = true;  // every primitive has NORMAL
  bool colors = false;  // some primitive has COLOR_0
  size_t target_count = 0;
  std::vector<bool> target_positions;  // per target: some primitive gives POSITION deltas
  std::vector<bool> target_normals;    // per target: some primitive gives NORMAL deltas
};

class MeshReader {
 public:
  MeshReader(const GltfDocument& document, const GltfErrors& errors)
      : errors_(errors),
        budget_(Budget(document)),
        accessors_(document.json, document.lists, document.buffer_views, errors, budget_) {}

  // `mesh` as GltfObjectList::At gives it: its primitives packed, read one at a time (and a
  // primitive's targets), so no tree of a hostile list is built (issue 14).
  MorphMesh Read(const json& mesh, const std::string& pointer) {
    const GltfMeshPrimitives primitives = errors_.Primitives(mesh, pointer);
    layout_ = Survey(primitives, pointer);
    mesh_.targets.resize(layout_.target_count);
    for (size_t p = 0; p < primitives.size(); ++p) {
      AppendPrimitive(primitives.At(p), fmt::format("{}/primitives/{}", pointer, p));
    }
    json weights = json::object();
    if (std::optional<json> value = MeshWeights(mesh, layout_.target_count + 1)) {
      weights["weights"] = std::move(*value);
    }
    mesh_.default_weights =
        errors_.OptionalNumbers(weights, "weights", pointer, layout_.target_count);
    if (mesh_.default_weights.empty()) mesh_.default_weights.assign(layout_.target_count, 0.0);
    return std::move(mesh_);
  }

 private:
  // Decoded doubles may exceed the stored bytes (a short becomes 8 bytes) but not wildly: the
  // same rule as the reader's animation budget, so a small file cannot claim gigabytes.
  static uint64_t Budget(const GltfDocument& document) {
    uint64_t stored = 0;
    for (size_t v = 0; v < document.buffer_views.size(); ++v)
      stored += document.buffer_views[v].size();
    return uint64_t{16} * stored + (uint64_t{64} << 20);
  }

  MeshLayout Survey(const GltfMeshPrimitives& primitives, const std::string& pointer) const {
    MeshLayout layout;
    for (size_t p = 0; p < primitives.size(); ++p) {
      const std::string primitive_pointer = fmt::format("{}/primitives/{}", pointer, p);
      const json primitive = primitives.At(p);
      if (!primitive.is_object()) errors_.Fail(primitive_pointer, "expected an object");
      const json& attributes = errors_.Object(primitive, "attributes", primitive_pointer);
      layout.normals = layout.normals && attributes.contains("NORMAL");
      layout.colors = layout.colors || attributes.contains("COLOR_0");
      const std::unique_ptr<PackedArrayView> targets =
          errors_.OptionalTargets(primitive, primitive_pointer);
      const size_t count = targets ? targets->size() : 0;
      if (p == 0) {
        layout.target_count = count;
        layout.target_positions.assign(count, false);
        layout.target_normals.assign(count, false);
      } else if (count != layout.target_count) {
        errors_.Fail(primitive_pointer + "/targets",
                     fmt::format("{} morph targets, but primitive 0 has {}; all primitives of a "
                                 "mesh must have the same number",
                                 count, layout.target_count));
      }
      for (size_t t = 0; t < count; ++t) {
        const json target = targets->At(t);
        if (!target.is_object()) {
          errors_.Fail(fmt::format("{}/targets/{}", primitive_pointer, t), "expected an object");
        }
        if (target.contains("POSITION")) layout.target_positions[t] = true;
        if (target.contains("NORMAL")) layout.target_normals[t] = true;
      }
    }
    return layout;
  }

  void AppendPrimitive(const json& primitive, const std::string& pointer) {
    if (primitive.contains("extensions") && primitive["extensions"].is_object() &&
        primitive["extensions"].contains("KHR_draco_mesh_compression")) {
      errors_.Fail(pointer + "/extensions/KHR_draco_mesh_compression",
                   "Draco-compressed geometry cannot be baked (animconv does not decode Draco); "
                   "export the mesh without Draco compression");
    }
    const size_t mode = errors_.OptionalCount(primitive, "mode", pointer, kTriangles);
    if (mode != kTriangles) {
      errors_.Fail(pointer + "/mode", fmt::format("primitive mode {} cannot be baked; only "
                                                  "TRIANGLES (4) is supported",
                                                  mode));
    }
    const std::string attributes_pointer = pointer + "/attributes";
    const json& attributes = primitive.at("attributes");  // Survey checked it
    const size_t first_vertex = mesh_.vertex_count();
    const AccessorData& positions =
        Vectors(attributes, "POSITION", attributes_pointer, std::nullopt);
    const size_t vertex_count = positions.count;
    if (first_vertex + vertex_count > std::numeric_limits<uint32_t>::max()) {
      errors_.Fail(attributes_pointer + "/POSITION", "the mesh has more than 2^32 vertices");
    }
    Append(positions.values, mesh_.positions);
    if (layout_.normals) {
      Append(Vectors(attributes, "NORMAL", attributes_pointer, vertex_count).values, mesh_.normals);
    }
    if (layout_.colors) AppendColors(attributes, attributes_pointer, vertex_count);
    AppendIndices(primitive, pointer, first_vertex, vertex_count);
    AppendTargets(primitive, pointer, vertex_count);
  }

  // A VEC3 attribute with `expected` elements (any count when unset), every value finite. A
  // primitive of 0 vertices expects 0: its targets may not bring deltas of their own (fuzz_gltf).
  const AccessorData& Vectors(const json& attributes, const char* name,
                              const std::string& attributes_pointer,
                              std::optional<size_t> expected) {
    const std::string pointer = attributes_pointer + "/" + name;
    const size_t index =
        errors_.Index(attributes, name, attributes_pointer, accessors_.size(), "accessors");
    const AccessorData& data = accessors_.Get(index);
    if (data.components != 3) {
      errors_.Fail(pointer, fmt::format("{} must be a VEC3 accessor; accessor {} has {} "
                                        "components",
                                        name, index, data.components));
    }
    CheckCountAndFinite(data, index, pointer, expected);
    return data;
  }

  void CheckCountAndFinite(const AccessorData& data, size_t index, const std::string& pointer,
                           std::optional<size_t> expected) const {
    if (expected && data.count != *expected) {
      errors_.Fail(pointer, fmt::format("accessor {} has {} elements; the primitive has {} "
                                        "vertices",
                                        index, data.count, *expected));
    }
    for (size_t i = 0; i < data.values.size(); ++i) {
      if (!std::isfinite(data.values[i])) {
        errors_.Fail(accessors_.Pointer(index),
                     fmt::format("element {} is not a finite number", i / data.components));
      }
    }
  }

  void AppendColors(const json& attributes, const std::string& attributes_pointer,
                    size_t vertex_count) {
    if (!attributes.contains("COLOR_0")) {
      mesh_.colors.insert(mesh_.colors.end(), 4 * vertex_count, 1.0);
      return;
    }
    const std::string pointer = attributes_pointer + "/COLOR_0";
    const size_t index =
        errors_.Index(attributes, "COLOR_0", attributes_pointer, accessors_.size(), "accessors");
    const AccessorData& data = accessors_.Get(index);
    // glTF 2.0 §3.7.2.1: float, or unsigned byte/short normalized, so the values are in [0, 1].
    const bool type_ok = data.component_type == kGltfFloat ||
                         (data.normalized && (data.component_type == kGltfUnsignedByte ||
                                              data.component_type == kGltfUnsignedShort));
    if ((data.components != 3 && data.components != 4) || !type_ok) {
      errors_.Fail(pointer, fmt::format("COLOR_0 must be VEC3 or VEC4 of float or normalized "
                                        "unsigned byte/short; accessor {} is not",
                                        index));
    }
    CheckCountAndFinite(data, index, pointer, vertex_count);
    Reserve(mesh_.colors, 4 * vertex_count);
    for (size_t v = 0; v < vertex_count; ++v) {
      const double* color = data.values.data() + v * static_cast<size_t>(data.components);
      mesh_.colors.insert(mesh_.colors.end(), color, color + 3);
      mesh_.colors.push_back(data.components == 4 ? color[3] : 1.0);
    }
  }

  void AppendIndices(const json& primitive, const std::string& pointer, size_t first_vertex,
                     size_t vertex_count) {
    if (!primitive.contains("indices")) {
      if (vertex_count % 3 != 0) {
        errors_.Fail(pointer, fmt::format("{} vertices without indices do not make whole "
                                          "triangles",
                                          vertex_count));
      }
      for (size_t v = 0; v < vertex_count; ++v) {
        mesh_.indices.push_back(static_cast<uint32_t>(first_vertex + v));
      }
      return;
    }
    const size_t index =
        errors_.Index(primitive, "indices", pointer, accessors_.size(), "accessors");
    const std::string indices_pointer = pointer + "/indices";
    const AccessorData& data = accessors_.Get(index);
    const bool type_ok = data.component_type == kGltfUnsignedByte ||
                         data.component_type == kGltfUnsignedShort ||
                         data.component_type == kGltfUnsignedInt;
    if (data.components != 1 || !type_ok || data.normalized) {
      errors_.Fail(indices_pointer, fmt::format("indices must be a SCALAR accessor of unsigned "
                                                "byte, short or int; accessor {} is not",
                                                index));
    }
    if (data.count % 3 != 0) {
      errors_.Fail(indices_pointer,
                   fmt::format("{} indices do not make whole triangles", data.count));
    }
    Reserve(mesh_.indices, data.count);
    for (size_t i = 0; i < data.count; ++i) {
      const double value = data.values[i];
      if (value >= static_cast<double>(vertex_count)) {
        errors_.Fail(accessors_.Pointer(index),
                     fmt::format("index {} is {}, past the primitive's {} vertices", i,
                                 static_cast<uint64_t>(value), vertex_count));
      }
      mesh_.indices.push_back(static_cast<uint32_t>(first_vertex + static_cast<size_t>(value)));
    }
  }

  void AppendTargets(const json& primitive, const std::string& pointer, size_t vertex_count) {
    if (layout_.target_count == 0) return;
    // Survey checked the count and that each target is an object.
    const std::unique_ptr<PackedArrayView> targets = errors_.OptionalTargets(primitive, pointer);
    for (size_t t = 0; t < layout_.target_count; ++t) {
      const std::string target_pointer = fmt::format("{}/targets/{}", pointer, t);
      const json target = targets->At(t);
      MorphTarget& out = mesh_.targets[t];
      if (layout_.target_positions[t]) {
        AppendDeltas(target, "POSITION", target_pointer, vertex_count, out.position_deltas);
      }
      // Normal deltas are meaningless without base normals (then none are kept at all).
      if (layout_.normals && layout_.target_normals[t]) {
        AppendDeltas(target, "NORMAL", target_pointer, vertex_count, out.normal_deltas);
      }
    }
  }

  void AppendDeltas(const json& target, const char* name, const std::string& target_pointer,
                    size_t vertex_count, std::vector<double>& out) {
    const size_t size = 3 * vertex_count;
    // The merged copy, zeros for primitives without this target included, can cost memory the
    // file never paid for (many targets, one large primitive lacking them): bound it too.
    Charge(size, target_pointer);
    if (!target.contains(name)) {
      out.insert(out.end(), size, 0.0);
      return;
    }
    Append(Vectors(target, name, target_pointer, vertex_count).values, out);
  }

  void Charge(size_t doubles, const std::string& pointer) {
    const uint64_t bytes = static_cast<uint64_t>(doubles) * sizeof(double);
    if (bytes > budget_ - std::min(budget_, charged_)) {
      errors_.Fail(pointer,
                   "the merged morph targets need more memory than this file's data "
                   "can justify");
    }
    charged_ += bytes;
  }

  static void Append(const std::vector<double>& values, std::vector<double>& out) {
    out.insert(out.end(), values.begin(), values.end());
  }

  template <typename T>
  static void Reserve(std::vector<T>& values, size_t more) {
    values.reserve(values.size() + more);
  }

  const GltfErrors& errors_;
  const uint64_t budget_;  // before accessors_, which is constructed with it
  GltfAccessors accessors_;
  uint64_t charged_ = 0;
  MeshLayout layout_;
  MorphMesh mesh_;
};

}  // namespace

MorphMesh ReadGltfMorphMesh(const GltfDocument& document, size_t mesh_index,
                            const std::string& source) {
  const GltfErrors errors(source);
  const GltfObjectList* meshes = errors.OptionalObjects(document.json, document.lists, "meshes");
  if (!meshes || mesh_index >= meshes->size()) {
    errors.Fail("/meshes", fmt::format("there is no mesh {}", mesh_index));
  }
  const std::string pointer = fmt::format("/meshes/{}", mesh_index);
  const json mesh = meshes->At(mesh_index);
  if (!mesh.is_object()) errors.Fail(pointer, "expected an object");
  return MeshReader(document, errors).Read(mesh, pointer);
}

}  // namespace animconv
