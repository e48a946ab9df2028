// The parsed glTF a reader keeps for pass-through writing (see SourceDocument in model.h), and the
// shared helpers of the glTF reader and writer. glTF 2.0 facts: §3.11 Animations.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "animconv/model.h"
#include "animconv/text_pieces.h"
#include "formats/common/json_pointer.h"
#include "formats/common/packed_json.h"
#include "formats/gltf/gltf_object_list.h"

namespace animconv {

class GltfOutputJson;

// The arrays a glTF file holds by the ten thousand, packed (packed_json.h) and taken out of the
// document's tree while it is parsed (gltf_buffers.cpp); null where the document has no such
// array. A member of another type stays in the tree, where the reader's check refuses it.
struct GltfLists {
  // Shared, never changed after reading: a document derived from this one (its meshes edited,
  // gltf_prune_attributes.h) refers to the same lists instead of copying them.
  std::shared_ptr<const PackedJsonArray> accessors;
  std::shared_ptr<const PackedJsonArray> buffer_views;
  std::shared_ptr<const PackedJsonArray> animations;
  // Every other top-level array no reader reads (scenes, materials, textures, samplers, cameras),
  // by key: a pass-through writer copies them out as they are (gltf_pass_through.cpp). Packed while
  // parsing, so that a file whose bulk they are holds no tree of them, even when it is refused
  // later (docs/reliability.md "Known gaps").
  std::map<std::string, std::shared_ptr<const PackedJsonArray>> unread;
  // The top-level arrays of objects read one element at a time (nodes, meshes, skins, images;
  // gltf_object_list.h), by key.
  std::map<std::string, GltfObjectList> objects;

  // The list `key` of `objects`, or null when the document has none.
  const GltfObjectList* Objects(const std::string& key) const;
};

// The bytes of every bufferView, shared (never changed after reading) by a document and those
// derived from it, which refer to them instead of copying them (gltf_prune_attributes.h). A derived
// document whose views differ (gltf_split_views.h) holds only the views it changed or added.
class GltfViewBytes {
 public:
  GltfViewBytes() : views_(std::make_shared<const std::vector<std::string>>()) {}
  explicit GltfViewBytes(std::vector<std::string> views)
      : views_(std::make_shared<const std::vector<std::string>>(std::move(views))) {}
  const std::string& operator[](size_t view) const {
    if (added_ && view >= views_->size()) return (*added_)[view - views_->size()];
    if (changed_) {
      const auto found = changed_->find(view);
      if (found != changed_->end()) return found->second;
    }
    return (*views_)[view];
  }
  const std::string& at(size_t view) const {
    if (view >= size()) throw std::out_of_range("GltfViewBytes::at");
    return (*this)[view];
  }
  size_t size() const { return views_->size() + (added_ ? added_->size() : 0); }
  // The same bytes with the views `changed` replaced and `added` appended (those of this one kept).
  GltfViewBytes With(std::map<size_t, std::string> changed, std::vector<std::string> added) const;

 private:
  std::shared_ptr<const std::vector<std::string>> views_;
  std::shared_ptr<const std::map<size_t, std::string>> changed_;  // null: none
  std::shared_ptr<const std::vector<std::string>> added_;         // null: none
};

struct GltfDocument : SourceDocument {
  GltfDocument() = default;
  // A copy shares the packed lists, the bytes and the images; only `json` is copied (a derived
  // document edits one list, gltf_prune_attributes.h).
  GltfDocument(const GltfDocument&) = default;
  GltfDocument(GltfDocument&&) = default;
  ~GltfDocument() override;

  nlohmann::json json;  // the document as read, without the members in `lists`
  GltfLists lists;
  // The bytes of every bufferView, decompressed where EXT_meshopt_compression was used, so a
  // writer can repack them without knowing how they were stored.
  GltfViewBytes buffer_views;
  // Images stored as separate files, read through ReadOptions::load_resource, so the writer can
  // embed them: the output must not depend on files next to the input. By image index; the
  // images embedded already are not in it.
  std::shared_ptr<const std::map<size_t, std::string>> external_images =
      std::make_shared<const std::map<size_t, std::string>>();
};

// Component types (glTF 2.0 §3.6.2.2).
enum GltfComponentType : int {
  kGltfByte = 5120,
  kGltfUnsignedByte = 5121,
  kGltfShort = 5122,
  kGltfUnsignedShort = 5123,
  kGltfUnsignedInt = 5125,
  kGltfFloat = 5126,
};
// Bytes per component of `type`; 0 for a type not listed above (gltf_accessors.cpp).
int ComponentSize(int type);

// The glTF writer (gltf_writer.cpp) with a last step on the finished JSON document, for formats
// that are glTF plus an extension (VRM Animation). What it leaves out goes to `diagnostics`.
std::string WriteGltfDocument(const Asset& asset, bool glb, Diagnostics* diagnostics,
                              const std::function<void(GltfOutputJson&)>& finish);
// The same with every glTF write option (WriteOptions::gltf_compression: --compress).
std::string WriteGltfDocument(const Asset& asset, bool glb, const WriteOptions& options,
                              const std::function<void(GltfOutputJson&)>& finish);
// The same as pieces: a GLB's binary chunk is one, handed over without a copy.
TextPieces WriteGltfDocumentPieces(const Asset& asset, bool glb, const WriteOptions& options,
                                   const std::function<void(GltfOutputJson&)>& finish);

// A mesh's or node's `weights`, which the reader's tree holds packed (PackedInElement,
// gltf_object_list.cpp), parsed: at most `keep_at_most` of its numbers (its readers take only as
// many as the mesh has morph targets); nullopt when there are none.
std::optional<nlohmann::json> MeshWeights(const nlohmann::json& mesh, size_t keep_at_most);

// Reports a problem at a JSON pointer of the document being read; the document itself is "/".
class GltfErrors : public JsonPointerReader {
 public:
  explicit GltfErrors(std::string source) : JsonPointerReader(std::move(source), "/") {}

  // Typed access in glTF's wording (the spec's "required" properties): each names the pointer and
  // what was expected when the value is wrong.
  const nlohmann::json& Object(const nlohmann::json& parent, const char* key,
                               const std::string& pointer) const;  // required object member
  const nlohmann::json* OptionalArray(const nlohmann::json& parent, const char* key,
                                      const std::string& pointer) const;
  size_t Index(const nlohmann::json& parent, const char* key, const std::string& pointer,
               size_t limit, const char* what) const;  // required, in [0, limit)
  size_t OptionalCount(const nlohmann::json& parent, const char* key, const std::string& pointer,
                       size_t fallback) const;  // non-negative integer
  // The member itself (a data: URI can be megabytes), or an empty string when absent.
  const std::string& OptionalString(const nlohmann::json& parent, const char* key,
                                    const std::string& pointer) const;
  std::vector<double> OptionalNumbers(const nlohmann::json& parent, const char* key,
                                      const std::string& pointer, size_t expected) const;
  // The top-level array `key` of `document`, packed in `list`: `list` itself, or null when the
  // document has no such member; a member that is not an array is refused as OptionalArray does.
  const PackedJsonArray* OptionalList(const nlohmann::json& document, const PackedJsonArray* list,
                                      const char* key) const;
  // The same for the lists of objects (GltfLists::objects).
  const GltfObjectList* OptionalObjects(const nlohmann::json& document, const GltfLists& lists,
                                        const char* key) const;
  // The primitives of `mesh` (an element GltfObjectList::At gave), refused unless an array of at
  // least one (glTF 2.0 §5.23: primitives, minItems 1).
  GltfMeshPrimitives Primitives(const nlohmann::json& mesh, const std::string& pointer) const;
  // The targets of `primitive` (one GltfMeshPrimitives::At gave, at `pointer`), null when it has
  // none; refused when they are not an array.
  std::unique_ptr<PackedArrayView> OptionalTargets(const nlohmann::json& primitive,
                                                   const std::string& pointer) const;
};

}  // namespace animconv
