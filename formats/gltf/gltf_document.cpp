#include "formats/gltf/gltf_document.h"

#include <fmt/format.h>

#include <cmath>

#include "animconv/error.h"
#include "formats/common/canonical_json.h"
#include "formats/common/json_release.h"
#include "formats/common/json_stream.h"

namespace animconv {

using nlohmann::json;

namespace {

// A value for an error message: primitives as they are, containers by kind (a hostile document
// could make a dump enormous).
std::string Describe(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 40) + "..." : text;
}

}  // namespace

// Its tree can hold a file's largest arrays (`extras`, mesh data as JSON numbers).
GltfDocument::~GltfDocument() { ReleaseJson(json); }

GltfViewBytes GltfViewBytes::With(std::map<size_t, std::string> changed,
                                  std::vector<std::string> added) const {
  GltfViewBytes out = *this;
  if (changed_) changed.insert(changed_->begin(), changed_->end());  // the newer edit wins
  if (added_) added.insert(added.begin(), added_->begin(), added_->end());
  for (auto it = changed.begin(); it != changed.end();) {
    if (it->first < views_->size()) {
      ++it;
      continue;
    }
    added.at(it->first - views_->size()) = std::move(it->second);  // an added view, changed
    it = changed.erase(it);
  }
  if (!changed.empty()) {
    out.changed_ = std::make_shared<const std::map<size_t, std::string>>(std::move(changed));
  }
  if (!added.empty()) {
    out.added_ = std::make_shared<const std::vector<std::string>>(std::move(added));
  }
  return out;
}

const json& GltfErrors::Object(const json& parent, const char* key,
                               const std::string& pointer) const {
  const auto found = parent.find(key);
  if (found == parent.end()) Fail(pointer, fmt::format("missing required '{}'", key));
  if (!found->is_object()) Fail(pointer + "/" + key, "expected an object");
  return *found;
}

const json* GltfErrors::OptionalArray(const json& parent, const char* key,
                                      const std::string& pointer) const {
  const auto found = parent.find(key);
  if (found == parent.end()) return nullptr;
  if (!found->is_array()) Fail(pointer + "/" + key, "expected an array");
  return &*found;
}

size_t GltfErrors::Index(const json& parent, const char* key, const std::string& pointer,
                         size_t limit, const char* what) const {
  const auto found = parent.find(key);
  if (found == parent.end()) Fail(pointer, fmt::format("missing required '{}'", key));
  if (!found->is_number_integer() || found->get<int64_t>() < 0 ||
      static_cast<uint64_t>(found->get<int64_t>()) >= limit) {
    Fail(pointer + "/" + key, fmt::format("expected the index of one of the {} {}, found {}", limit,
                                          what, Describe(*found)));
  }
  return static_cast<size_t>(found->get<int64_t>());
}

size_t GltfErrors::OptionalCount(const json& parent, const char* key, const std::string& pointer,
                                 size_t fallback) const {
  const auto found = parent.find(key);
  if (found == parent.end()) return fallback;
  if (!found->is_number_integer() || found->get<int64_t>() < 0) {
    Fail(pointer + "/" + key,
         fmt::format("expected a non-negative integer, found {}", Describe(*found)));
  }
  return static_cast<size_t>(found->get<int64_t>());
}

const std::string& GltfErrors::OptionalString(const json& parent, const char* key,
                                              const std::string& pointer) const {
  static const std::string kAbsent;
  const auto found = parent.find(key);
  if (found == parent.end()) return kAbsent;
  if (!found->is_string()) Fail(pointer + "/" + key, "expected a string");
  return found->get_ref<const std::string&>();
}

std::optional<json> MeshWeights(const json& mesh, size_t keep_at_most) {
  const auto weights = mesh.find("weights");
  if (weights == mesh.end()) return std::nullopt;
  if (!IsPackedJsonValue(*weights)) return *weights;
  const JsonArrayPolicyFactory bounded = [keep_at_most](const JsonPath& path) {
    std::optional<JsonArrayPolicy> policy;
    if (path.depth() == 0) policy.emplace().keep_at_most = keep_at_most;
    return policy;
  };
  return std::move(
      ParseJsonStreaming(PackedJsonText(*weights), nullptr, nullptr, bounded).document);
}

const PackedJsonArray* GltfErrors::OptionalList(const json& document, const PackedJsonArray* list,
                                                const char* key) const {
  if (list) return list;
  // Every array at this place was packed while parsing (gltf_buffers.cpp), so only another kind
  // of value can be here.
  if (OptionalArray(document, key, "")) {
    ThrowInternal(fmt::format("GltfErrors::OptionalList: /{} was not packed", key));
  }
  return nullptr;
}

GltfMeshPrimitives GltfErrors::Primitives(const json& mesh, const std::string& pointer) const {
  GltfMeshPrimitives primitives(mesh);
  if (primitives.present() && !primitives.is_array()) {
    Fail(pointer + "/primitives", "expected an array");
  }
  if (primitives.size() == 0) Fail(pointer, "a mesh needs primitives");
  return primitives;
}

std::unique_ptr<PackedArrayView> GltfErrors::OptionalTargets(const json& primitive,
                                                             const std::string& pointer) const {
  std::unique_ptr<PackedArrayView> targets = GltfMeshPrimitives::Targets(primitive);
  if (!targets && GltfMeshPrimitives::HasTargets(primitive)) {
    Fail(pointer + "/targets", "expected an array");
  }
  return targets;
}

const GltfObjectList* GltfErrors::OptionalObjects(const json& document, const GltfLists& lists,
                                                  const char* key) const {
  if (const GltfObjectList* list = lists.Objects(key)) return list;
  if (OptionalArray(document, key, "")) {
    ThrowInternal(fmt::format("GltfErrors::OptionalObjects: /{} was not packed", key));
  }
  return nullptr;
}

const GltfObjectList* GltfLists::Objects(const std::string& key) const {
  const auto found = objects.find(key);
  return found == objects.end() ? nullptr : &found->second;
}

std::vector<double> GltfErrors::OptionalNumbers(const json& parent, const char* key,
                                                const std::string& pointer, size_t expected) const {
  const auto found = parent.find(key);
  if (found == parent.end()) return {};
  if (!found->is_array() || found->size() != expected) {
    Fail(pointer + "/" + key, fmt::format("expected an array of {} numbers", expected));
  }
  std::vector<double> numbers;
  for (size_t i = 0; i < expected; ++i) {
    const json& value = (*found)[i];
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      Fail(fmt::format("{}/{}/{}", pointer, key, i), "expected a finite number");
    }
    numbers.push_back(value.get<double>());
  }
  return numbers;
}

}  // namespace animconv
