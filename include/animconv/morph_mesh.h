// A triangle mesh with morph targets, free of any file format, and its evaluation for a weight
// vector: what a renderer does per frame (glTF 2.0 §3.7.2.2), done once, offline, so a consumer
// without morph support (p5.js) can play precomputed frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace animconv {

struct MorphTarget {
  std::vector<double> position_deltas;  // xyz per vertex
  // xyz per vertex, or empty when the target does not move normals.
  std::vector<double> normal_deltas;
};

struct MorphMesh {
  std::vector<double> positions;  // xyz per vertex
  std::vector<double> normals;    // xyz per vertex, or empty
  std::vector<double> colors;     // rgba per vertex in [0, 1], or empty
  std::vector<uint32_t> indices;  // three per triangle
  std::vector<MorphTarget> targets;
  // The mesh's own weights (glTF `mesh.weights`), one per target; zeros when the file has none.
  std::vector<double> default_weights;

  size_t vertex_count() const { return positions.size() / 3; }
};

// Every number above is finite (readers check), so evaluation never produces NaN from 0 * inf.

// One evaluated pose: positions and (when the mesh has normals) unit normals.
struct MorphPose {
  std::vector<double> positions;
  std::vector<double> normals;
};

// Evaluates base + sum(w_i * delta_i) for positions and normals, then renormalises each normal
// (a zero-length normal stays zero). Weights are used as given, not clamped: negative weights
// and weights above 1 are valid in glTF and extrapolate. Sizes must agree (one weight per
// target, deltas as long as the positions/normals they move), else Error(kInternal): a
// caller's bug, not bad input. `pose` is reused so a bake does not reallocate per frame.
void EvaluateMorph(const MorphMesh& mesh, const std::vector<double>& weights, MorphPose* pose);

}  // namespace animconv
