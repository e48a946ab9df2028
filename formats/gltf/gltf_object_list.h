// The glTF top-level arrays of objects the readers and the pass-through writer read (nodes, meshes,
// skins, images), kept packed (packed_json.h) for the document's life and read one element at a
// time: as a tree, 37,000 `{}` meshes, skins or images cost 25 to 50 bytes of heap per byte of text
// (issue 14, docs/reliability.md "Time and memory bounds"); packed, an element costs its text, and
// the largest tree held is one element's.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "formats/common/packed_json.h"

namespace animconv {

class GltfObjectList {
 public:
  GltfObjectList(std::string key, std::shared_ptr<const PackedJsonArray> elements);

  const std::string& key() const { return key_; }
  size_t size() const { return elements_->size(); }
  // Element `index` as a tree, the members no reader reads kept packed (canonical_json.h), and a
  // node's arrays cut one element past what the reader accepts (the reader refuses the rest).
  nlohmann::json At(size_t index) const;
  // Element `index` as dump() of it writes it (a writer copies an unchanged element as it is).
  std::string_view Text(size_t index) const { return elements_->Text(index); }

 private:
  std::string key_;
  std::shared_ptr<const PackedJsonArray> elements_;
};

// A mesh's primitives (packed in the mesh GltfObjectList::At gives), read one at a time: a mesh of
// 37,000 `{}` primitives was a 2.6 MB tree for its 111 KB of text. A primitive's `targets` stay
// packed in it, read one at a time too (Targets).
class GltfMeshPrimitives {
 public:
  explicit GltfMeshPrimitives(const nlohmann::json& mesh);
  // Not for a temporary: the primitives are read where they stand in `mesh` (PackedArrayView).
  explicit GltfMeshPrimitives(nlohmann::json&& mesh) = delete;

  // Whether the mesh has `primitives`, and whether it is an array.
  bool present() const { return present_; }
  bool is_array() const { return elements_ != nullptr; }
  size_t size() const { return elements_ ? elements_->size() : 0; }
  // Primitive `index` as a tree, its `targets`, `extras`, unknown members and extensions but
  // Draco's packed.
  nlohmann::json At(size_t index) const;
  std::string_view Text(size_t index) const { return elements_->Text(index); }

  // The targets of `primitive` (one At gave), or null when it has none or they are no array.
  static std::unique_ptr<PackedArrayView> Targets(const nlohmann::json& primitive);
  static std::unique_ptr<PackedArrayView> Targets(nlohmann::json&& primitive) = delete;
  static bool HasTargets(const nlohmann::json& primitive);

 private:
  bool present_ = false;
  std::unique_ptr<PackedArrayView> elements_;
};

// Calls `rewrite` on every primitive of `mesh` (an element GltfObjectList::At gave), and writes
// back the primitives it changed (it returns true for those); true when any changed.
bool RewriteMeshPrimitives(nlohmann::json& mesh,
                           const std::function<bool(nlohmann::json& primitive)>& rewrite);
// The same for the targets of a primitive (one GltfMeshPrimitives::At gave).
bool RewriteTargets(nlohmann::json& primitive,
                    const std::function<bool(nlohmann::json& target)>& rewrite);

}  // namespace animconv
