// The dequantization of a mesh on a --compress-meshes grid (gltf_mesh_quantize.h) folded into the
// node that draws it or into its skin's inverse bind matrices, and what that fold costs as the
// output holds it (review of the bounds, session 31). The grid's displacement is measured against
// the stored corner and step; the fold adds its own: a node's numbers written as the shortest text
// of their float32 (a translation at 100 m moves by up to 3.8e-6, 3.8e-4 of a 1 cm mesh), inverse
// bind matrices stored as float32, and a rotation that is not exactly a unit quaternion, which
// three.js composes as written and other readers normalise (the fold's offset R(S c) then differs
// between them by about |q·q − 1| |S c|). Measured here, in the mesh's own units, so that the mesh
// is held to its bound as drawn.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// Puts the dequantization D = translate(corner) * scale(step) into `node`'s transform: its matrix
// becomes M·D, or its TRS T + R(S∘corner), R, S·step (R the normalised rotation). With
// `float32_text` every number of the node's transform is written as the shortest text of its
// float32 (what --compress does to the other nodes, Float32Text), else as computed.
void FoldIntoNode(nlohmann::json& node, const Vec3& corner, double step, bool float32_text);

// How far the grid's points drawn through `written` (a node after FoldIntoNode) stand from where
// `plain` (the node as the input holds it) draws the points they stand for, beyond the grid's own
// displacement, in the mesh's units: |L⁻¹(t' − t − L·corner)| + ‖L⁻¹L' − step·I‖ · reach for each
// reader (a TRS node: the rotation as written, and normalised), the largest. `reach`: the longest
// code vector of the grid. A node whose linear part is singular (a zero scale) draws the mesh
// flat; measured there only when the numbers are exactly those computed (0), else infinity.
double NodeFoldError(const nlohmann::json& plain, const nlohmann::json& written, const Vec3& corner,
                     double step, double reach);

// The same for inverse bind matrices (column-major 4x4s as read) and FoldIntoMatrices' float32
// values of them: the largest over the matrices.
double MatricesFoldError(const std::vector<double>& matrices, const Vec3& corner, double step,
                         double reach);

}  // namespace animconv
