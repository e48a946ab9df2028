// Building the binary part of a glTF we write, and carrying a source document's non-animation
// content into it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_float32_text.h"
#include "formats/gltf/gltf_output.h"

namespace animconv {

// Owns the output's single buffer, its bufferViews and accessors (held as their text,
// gltf_output.h).
class GltfBuilder {
 public:
  // Appends `bytes` 4-byte aligned (glTF 2.0 §3.6 buffers and accessors) as a new bufferView;
  // returns its index. `definition` carries members to keep (byteStride, target, name, extras).
  size_t AddBufferView(std::string_view bytes,
                       nlohmann::json definition = nlohmann::json::object());
  // A tightly packed FLOAT accessor in a bufferView of its own (animation data must not be
  // strided, ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE).
  size_t AddAccessor(std::string_view float_bytes, size_t count, const char* type,
                     std::optional<nlohmann::json> min, std::optional<nlohmann::json> max);
  // The same accessor (no min/max) for `values`, whose float32 bytes are written later by
  // FillFloat32: its place in the binary is taken now, so views keep their order and offsets, and
  // the bytes of many accessors can then be written on every core straight into the binary (a
  // 50 MB clip's outputs were converted, copied and appended one by one, issue 18). Returns the
  // accessor's index; `*byte_offset` is where FillFloat32 writes.
  size_t AddAccessorToFill(size_t value_count, size_t count, const char* type, size_t* byte_offset);
  // Writes `values` as float32 at `byte_offset` (from AddAccessorToFill); safe on any thread for
  // accessors that do not overlap, as long as nothing is added meanwhile.
  void FillFloat32(size_t byte_offset, const double* values, size_t value_count);
  // Room for `bytes` more of the binary, so that it is not grown (copied) step by step.
  void ReserveBinary(size_t bytes) { binary_.reserve(binary_.size() + bytes); }
  // EXT_meshopt_compression: `compressed` goes into the binary (buffer 0), the bufferView itself
  // onto the fallback buffer (buffer 1, no data) at the next free `byte_length` bytes.
  // `extension` carries byteStride, count, mode and filter; byteOffset/byteLength are set here.
  // `definition` carries the view's other members (byteStride, target, name).
  size_t AddCompressedBufferView(std::string_view compressed, size_t byte_length,
                                 nlohmann::json extension,
                                 nlohmann::json definition = nlohmann::json::object());
  size_t AddAccessorDefinition(const nlohmann::json& accessor);  // returns its index
  size_t accessor_count() const { return accessors_.size(); }
  // The fallback buffer's byteLength; 0 when no view is compressed.
  size_t fallback_byte_length() const { return fallback_length_; }
  // Puts bufferViews and accessors into `document` (omitting empty arrays).
  void Finish(GltfOutputJson& document);
  std::string TakeBinary() { return std::move(binary_); }

 private:
  std::string binary_;
  size_t fallback_length_ = 0;
  JsonArrayText views_;
  JsonArrayText accessors_;
};

// Lists extension `name` in the document's extensionsUsed and extensionsRequired (once each).
void AddRequiredExtension(GltfOutputJson& document, const std::string& name);

// A change to node `index` of the source (the writer's: a rename, a matrix made TRS); true when it
// changed `node`.
using GltfNodeEdit = std::function<bool(size_t index, nlohmann::json& node)>;

// The source document without its animations, its unchanged members referred to (not copied):
// accessors and bufferViews that only animations used are dropped (when every extension in use is
// one whose references we know how to renumber), the remaining bufferViews are repacked into
// `builder` (decompressed where they were meshopt- compressed), and external images are embedded.
// Why data is kept goes to `diagnostics`. With `meshopt` (--compress) the kept views are losslessly
// EXT_meshopt_compression-compressed where that pays (gltf_compress_views.h).
// Each node goes through `edit_node` when given. `meshes` says what --compress does to the meshes.
struct PassThroughMeshes {
  // Triangle lists indexed, each vertex stored once (gltf_mesh_weld.h).
  bool index = false;
  // With GltfCompression::quantize_meshes: vertex attributes quantized within its mesh bounds
  // (gltf_mesh_quantize.h); `transform_animated[n]`: the output animates node n's TRS.
  const GltfCompression* quantize = nullptr;
  std::vector<bool> transform_animated;
  // Accessors --drop-unused-attributes took out of the meshes (gltf_prune_attributes.h): left out
  // with their views when nothing else refers to them.
  std::set<size_t> dropped_accessors;
  // --compress: members equal to glTF's defaults left out of nodes (translation, rotation, scale,
  // matrix), primitives (mode 4) and accessors (byteOffset 0, normalized false). Lossless: a
  // reader takes the default where the member is absent (glTF 2.0 §5).
  bool drop_default_members = false;
  // --compress: the float numbers of nodes, meshes and FLOAT accessors' bounds written as the
  // shortest text of their float32, within its bounds (gltf_float32_text.h); null: as they are.
  Float32Text* float32_text = nullptr;
};
GltfOutputJson PassThroughWithoutAnimations(const GltfDocument& source, GltfBuilder& builder,
                                            Diagnostics* diagnostics, bool meshopt = false,
                                            const GltfNodeEdit& edit_node = nullptr,
                                            const PassThroughMeshes& meshes = {});

}  // namespace animconv
