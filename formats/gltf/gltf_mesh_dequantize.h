// Where the dequantization of a mesh whose positions --compress-meshes puts on a grid can go
// (gltf_mesh_quantize.h; KHR_mesh_quantization, "Dequantization"): the transform of every node
// that draws the mesh, or for a skinned mesh the inverse bind matrices of its skins (glTF 2.0
// §3.7.3.3: a skinned mesh's own node transform is ignored).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {

struct DequantizationPlace {
  // Why the mesh's positions cannot be moved onto a grid; empty when they can.
  std::string refused;
  // A skinned mesh: each skin that draws it, whose inverse bind matrices (one accessor, alone in
  // its view, that skin's alone) take the dequantization. Empty: the nodes' transforms take it.
  struct Skin {
    size_t accessor = 0;
    size_t view = 0;
    std::vector<double> matrices;  // column-major 4x4s, as read (float32 values)
  };
  std::vector<Skin> skins;
  // Nodes drawing the mesh that cannot take the dequantization in their own transform (children,
  // a camera, a joint, an animated transform, a rotation that is no unit quaternion): each hands
  // the mesh to a new child node of its own that takes it (gltfpack and glTF Transform do the
  // same). The others take it in their own transform.
  std::set<size_t> via_child;
  // The nodes drawing the mesh that take the dequantization in their own transform.
  std::vector<size_t> own;
  // Whether a new child node could take the mesh from a node of `own` instead: the mesh has no
  // morph targets (their weights are the node's).
  bool child_allowed = false;
};

// For each mesh some node draws: where its dequantization can go, or why nowhere. Node
// transforms can take it when the node has no children, skin, camera or extension, is no joint,
// and its translation, rotation or scale is not animated (`animated[n]`); a new child of the node
// can when only the first of these fail, the node has no extension and the mesh no morph targets.
// Skins can when every node drawing the mesh is skinned and each skin draws this mesh alone. Where
// the skinned node is placed, or how it moves, does not matter: glTF 2.0 §3.7.3.3 has its transform
// ignored, and three.js agrees (r187 binds with the identity and, attached, inverts the mesh's
// world matrix every frame; tests/interop simple-skinning-quantized, whose skinned node is moved).
std::map<size_t, DequantizationPlace> FindDequantizationPlaces(const GltfDocument& source,
                                                               const ReferenceCounts& references,
                                                               const std::vector<bool>& animated);

// `matrices` times D = translate(corner) * scale(step), as the float32 bytes of a MAT4 accessor.
std::string FoldIntoMatrices(const std::vector<double>& matrices, const Vec3& corner, double step);

}  // namespace animconv
