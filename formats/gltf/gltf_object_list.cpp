#include "formats/gltf/gltf_object_list.h"

#include <algorithm>
#include <optional>

#include "formats/common/json_stream.h"
#include "formats/gltf/gltf_output.h"

namespace animconv {
namespace {

// Whether the member at `path` (from an element of the list `list` down) is kept packed
// (canonical_json.h) in the element's tree: what no reader reads, that is every `extras` but a
// mesh's own (GLTFLoader's targetNames), whose other members are; a member the glTF 2.0 schema
// does not give the node or mesh; a skin's all but its inverseBindMatrices; an image's all but
// what the pass-through embeds; and an extension the pass-through does not renumber
// (gltf_pass_through.cpp). And a mesh's primitives, read one at a time (GltfMeshPrimitives).
bool PackedInElement(const std::string& list, const JsonPath& path) {
  const std::string& key = path.steps().back().key;
  const size_t depth = path.depth();
  const bool meshes = list == "meshes";
  if (meshes && depth == 1 && key == "extras") return false;
  if (meshes && depth == 2 && path.Is(0, "extras")) return key != "targetNames";
  if (key == "extras") return true;
  if (depth == 1) {
    // A node's `weights` are read like a mesh's (MeshWeights), only for a node with a mesh.
    if (list == "nodes") {
      return !IsOneOf(key, {"camera", "children", "skin", "matrix", "mesh", "rotation", "scale",
                            "translation", "name", "extensions"});
    }
    // A mesh's `weights` are read only for the meshes nodes use, and only as many as it has
    // targets (MeshWeights).
    if (meshes) return !IsOneOf(key, {"name", "extensions"});
    // The pass-through renumbers a skin's inverseBindMatrices; nothing else of it is read.
    if (list == "skins") return key != "inverseBindMatrices";
    if (list == "images") return !IsOneOf(key, {"uri", "mimeType", "bufferView", "name"});
    return false;
  }
  if (depth == 2 && path.Is(0, "extensions")) {
    return !(list == "nodes" && key == "EXT_mesh_gpu_instancing");
  }
  return false;
}

// The same for a primitive (GltfMeshPrimitives::At), from the primitive down: what the schema does
// not give a primitive, its `extras`, the extensions but Draco's (whose bufferView the
// pass-through renumbers), and its targets, read one at a time (GltfMeshPrimitives::Targets).
bool PackedInPrimitive(const JsonPath& path) {
  const std::string& key = path.steps().back().key;
  if (key == "extras") return true;
  if (path.depth() == 1) {
    return !IsOneOf(key, {"attributes", "indices", "material", "mode", "extensions"});
  }
  if (path.depth() == 2 && path.Is(0, "extensions")) return key != "KHR_draco_mesh_compression";
  return false;
}

// How much of a node's array the tree holds: one element past what the reader accepts for a
// matrix or a TRS member (it refuses any other length, "expected an array of 16 numbers"), and
// for `children` as many as there are nodes (more cannot all be other nodes without a parent:
// the reader refuses at the first that is not, which lies among those kept). Either way a longer
// array is refused with the message it always had, and no tree of its rest is built.
std::optional<JsonArrayPolicy> NodeArrayPolicy(const JsonPath& path, size_t node_count) {
  if (path.depth() != 1) return std::nullopt;
  const std::string& key = path.steps()[0].key;
  JsonArrayPolicy policy;
  if (key == "matrix") {
    policy.keep_at_most = 17;
  } else if (key == "translation" || key == "scale") {
    policy.keep_at_most = 4;
  } else if (key == "rotation") {
    policy.keep_at_most = 5;
  } else if (key == "children") {
    policy.keep_at_most = std::max<size_t>(node_count, 1);
  } else {
    return std::nullopt;
  }
  return policy;
}

}  // namespace

GltfMeshPrimitives::GltfMeshPrimitives(const nlohmann::json& mesh) {
  if (!mesh.is_object()) return;
  const auto found = mesh.find("primitives");
  if (found == mesh.end()) return;
  present_ = true;
  elements_ = PackedArrayElements(*found);
}

nlohmann::json GltfMeshPrimitives::At(size_t index) const {
  return elements_->At(index, PackedInPrimitive);
}

std::unique_ptr<PackedArrayView> GltfMeshPrimitives::Targets(const nlohmann::json& primitive) {
  if (!primitive.is_object()) return nullptr;
  const auto found = primitive.find("targets");
  return found == primitive.end() ? nullptr : PackedArrayElements(*found);
}

bool GltfMeshPrimitives::HasTargets(const nlohmann::json& primitive) {
  return primitive.is_object() && primitive.contains("targets");
}

namespace {

// The text of an array of `count` elements (element i's text `text_of(i)`, its tree `parse(i)`)
// with the elements `rewrite` changed (it returns true for those) written anew; nullopt when it
// changed none. The text is built from the first change on, so a pass that changes nothing (the
// pass-through's marking of references) copies none.
template <typename TextOf, typename Parse>
std::optional<std::string> RewriteElements(
    size_t count, TextOf text_of, Parse parse,
    const std::function<bool(nlohmann::json& element)>& rewrite) {
  std::optional<JsonArrayText> text;
  for (size_t i = 0; i < count; ++i) {
    nlohmann::json element = parse(i);
    if (rewrite(element)) {
      if (!text) {
        text.emplace();
        for (size_t before = 0; before < i; ++before) text->AppendText(text_of(before));
      }
      text->Append(element);
    } else if (text) {
      text->AppendText(text_of(i));
    }
  }
  if (!text) return std::nullopt;
  return text->Take();
}

}  // namespace

bool RewriteMeshPrimitives(nlohmann::json& mesh,
                           const std::function<bool(nlohmann::json& primitive)>& rewrite) {
  const GltfMeshPrimitives primitives(mesh);
  if (!primitives.is_array()) return false;
  const std::optional<std::string> text = RewriteElements(
      primitives.size(), [&](size_t p) { return primitives.Text(p); },
      [&](size_t p) { return primitives.At(p); }, rewrite);
  if (text) mesh["primitives"] = PackedJsonValue(*text);
  return text.has_value();
}

bool RewriteTargets(nlohmann::json& primitive,
                    const std::function<bool(nlohmann::json& target)>& rewrite) {
  const std::unique_ptr<PackedArrayView> targets = GltfMeshPrimitives::Targets(primitive);
  if (!targets) return false;
  const std::optional<std::string> text = RewriteElements(
      targets->size(), [&](size_t t) { return targets->Text(t); },
      [&](size_t t) { return targets->At(t); }, rewrite);
  if (text) primitive["targets"] = PackedJsonValue(*text);
  return text.has_value();
}

GltfObjectList::GltfObjectList(std::string key, std::shared_ptr<const PackedJsonArray> elements)
    : key_(std::move(key)), elements_(std::move(elements)) {}

nlohmann::json GltfObjectList::At(size_t index) const {
  const JsonPackFilter pack = [this](const JsonPath& path) { return PackedInElement(key_, path); };
  const size_t count = size();
  const JsonArrayPolicyFactory policy = key_ == "nodes"
                                            ? JsonArrayPolicyFactory([count](const JsonPath& path) {
                                                return NodeArrayPolicy(path, count);
                                              })
                                            : JsonArrayPolicyFactory();
  return elements_->At(index, pack, policy);
}

}  // namespace animconv
