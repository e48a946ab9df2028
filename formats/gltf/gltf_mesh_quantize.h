// --compress-meshes for the meshes a glTF input passes through (docs/formats/gltf.md, "Compact
// output"): float vertex attributes stored as the smaller integer types KHR_mesh_quantization
// allows, each within a bound that is measured, not assumed, and reported. Lossy: the output
// draws within GltfCompression's mesh bounds of the input, which is why it is opt-in.
//
// - POSITION: unsigned 16-bit integers (not normalized) on a grid of `step` from the mesh's least
//   corner, one uniform step per mesh (a uniform scale leaves normals' directions alone); the
//   fewest bits (8..16) whose largest displacement stays within the bound. The dequantization
//   (translation = corner, uniform scale = step) goes into every node that holds the mesh
//   (KHR_mesh_quantization, "Dequantization"), or a skinned mesh's inverse bind matrices, where
//   they are free to take it exactly, or else a new child node of the node, which then holds the
//   mesh (gltf_mesh_dequantize.h).
//   Morph target POSITION deltas go on the same grid as signed 16-bit integers.
// - NORMAL, TANGENT: normalized 8-bit integers when their angle error is within the bound, else
//   16-bit; morph target NORMAL/TANGENT deltas within [-1, 1]: normalized 16-bit.
// - TEXCOORD_n within [0, 1]: normalized unsigned 16-bit. COLOR_n within [0, 1]: normalized
//   unsigned 8-bit when within the bound, else 16-bit.
// - WEIGHTS_0 (the only set): normalized unsigned 8-bit when within the bound, else 16-bit, each
//   row's codes summing to the maximum. JOINTS_n below 256: unsigned bytes (lossless).
// Only accessors that a mesh's primitives alone use, each alone in its bufferView (the quantized
// elements get a view of their own bytes, 4-byte aligned as glTF 2.0 §3.6.2.4 asks of vertex
// attributes), float and not sparse; nothing in a document using an extension whose references
// we do not know (gltf_references.h).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_mesh_weld.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {

struct MeshQuantization {
  // Source bufferView -> its bytes after, and its byteStride (vertex attribute views that two
  // accessors share must have one, glTF 2.0 §3.6.2.4; written for every quantized view).
  struct View {
    std::string bytes;
    size_t stride = 0;
  };
  std::map<size_t, View> views;
  // Source views whose elements moved into another view: the quantized views of one stride share
  // one, which saves the JSON of a view, and of its compression, per attribute and morph target.
  std::set<size_t> merged_views;
  // Source accessor -> its componentType, normalized, min and max after, and its byteOffset (0
  // unless given) and bufferView (a source index, when it moved into another view); a null value
  // removes the member.
  std::map<size_t, nlohmann::json> accessors;
  // Source mesh -> the dequantization its nodes take: position = corner + step * stored.
  struct Grid {
    double corner[3] = {0, 0, 0};
    double step = 1;
    int bits = 16;
    bool in_skins = false;  // skinned: in its skins' inverse bind matrices, not in its nodes

    // The corner and step as the output holds them and a reader applies them: float32 (node
    // TRS and matrices, inverse bind matrices), which every measurement uses too.
    Vec3 StoredCorner() const;
    double StoredStep() const;
  };
  std::map<size_t, Grid> meshes;

  // What was measured, for the note (largest error of each kind, over every value stored).
  size_t position_accessors = 0;
  size_t position_delta_accessors = 0;  // of them, morph target deltas
  size_t skinned_meshes = 0;
  double position_fraction = 0;  // displacement over the mesh's largest bounding-box side
  int fewest_position_bits = 16;
  int most_position_bits = 0;
  size_t normal_accessors = 0;
  double normal_degrees = 0;
  size_t texcoord_accessors = 0;
  double texcoord_error = 0;
  size_t color_accessors = 0;
  double color_error = 0;
  size_t delta_accessors = 0;  // morph target NORMAL/TANGENT deltas
  double delta_error = 0;
  size_t weight_accessors = 0;  // WEIGHTS_0
  double weight_error = 0;
  size_t joint_accessors = 0;  // JOINTS_n
  double joint_error = 0;
  // Why nothing was quantized in the whole file, if so (for the note).
  std::string not_done;
  // Whether an accessor has a type only KHR_mesh_quantization allows (positions, normals,
  // tangents, morph deltas; 16-bit texture coordinates and 8/16-bit colours are core glTF 2.0).
  bool needs_extension = false;
  // Meshes whose positions stayed float, and why (for the note).
  std::vector<std::string> positions_kept;

  // Source node -> the index of the new child node that takes its mesh and the dequantization
  // (DequantizationPlace::via_child); the new nodes come after the source's, one per entry of
  // `child_meshes` (their meshes), in order.
  std::map<size_t, size_t> child_of;
  std::vector<size_t> child_meshes;
  size_t first_new_node = 0;  // the index of the first new child node (the source's node count)
  // Nodes holding a dequantization in their own transform (source indices, and new child nodes'),
  // and those of them whose transform numbers are written as the shortest text of their float32,
  // where the mesh measured through them so stays within its bound (gltf_mesh_fold.h); the others
  // keep every digit. Their numbers are final: Float32Text leaves them as they are.
  std::set<size_t> fold_nodes;
  std::set<size_t> float32_nodes;

  bool empty() const { return accessors.empty(); }
  // Puts the dequantization of the mesh of node `index` (as it is written) into its matrix or
  // TRS, or hands the mesh to the node's new child; true when it changed `node`.
  bool EditNode(size_t index, nlohmann::json& node) const;
  bool HoldsFold(size_t index) const { return fold_nodes.count(index) > 0; }
  // The new child nodes, to append to the nodes (each holding its mesh, translated to the grid's
  // corner and scaled by its step).
  std::vector<nlohmann::json> NewNodes() const;
  // The new child node holding `mesh` on `grid` (translation = corner, scale = step), its numbers
  // as the shortest text of their float32 or with every digit.
  static nlohmann::json NewChild(size_t mesh, const Grid& grid, bool float32_text);
  // One line for the notes: what was stored how, and the largest errors measured.
  std::string Summary(const GltfCompression& options) const;
};

// The accessors of `source` (as `weld` leaves them; `references` are CountReferences(source)) to
// quantize, and how, within the mesh bounds
// of `options`. `transform_animated[n]` says whether the output animates node n's translation,
// rotation or scale (those nodes cannot take a dequantization).
MeshQuantization QuantizeMeshes(const GltfDocument& source, const ReferenceCounts& references,
                                const MeshWeld& weld, const GltfCompression& options,
                                const std::vector<bool>& transform_animated);

}  // namespace animconv
