#include "animconv/morph_mesh.h"

#include <cmath>
#include <string>

#include "animconv/error.h"

namespace animconv {
namespace {

void AddScaled(const std::vector<double>& deltas, double weight, std::vector<double>& out) {
  const double* delta = deltas.data();
  double* value = out.data();
  for (size_t i = 0, n = out.size(); i < n; ++i) value[i] += weight * delta[i];
}

void RequireSizes(const MorphMesh& mesh, const std::vector<double>& weights) {
  const size_t size = mesh.positions.size();
  if (size % 3 != 0) ThrowInternal("EvaluateMorph: positions are not xyz triples");
  if (!mesh.normals.empty() && mesh.normals.size() != size) {
    ThrowInternal("EvaluateMorph: normals and positions differ in count");
  }
  if (weights.size() != mesh.targets.size()) {
    ThrowInternal("EvaluateMorph: " + std::to_string(weights.size()) + " weights for " +
                  std::to_string(mesh.targets.size()) + " targets");
  }
  for (const MorphTarget& target : mesh.targets) {
    // An empty delta list is a target that leaves that attribute alone (glTF allows a target
    // with only NORMAL, or only POSITION).
    if (!target.position_deltas.empty() && target.position_deltas.size() != size) {
      ThrowInternal("EvaluateMorph: position deltas and positions differ in count");
    }
    if (!target.normal_deltas.empty() && target.normal_deltas.size() != mesh.normals.size()) {
      ThrowInternal("EvaluateMorph: normal deltas and normals differ in count");
    }
  }
}

}  // namespace

void EvaluateMorph(const MorphMesh& mesh, const std::vector<double>& weights, MorphPose* pose) {
  RequireSizes(mesh, weights);
  pose->positions.assign(mesh.positions.begin(), mesh.positions.end());
  pose->normals.assign(mesh.normals.begin(), mesh.normals.end());
  for (size_t t = 0; t < mesh.targets.size(); ++t) {
    const double weight = weights[t];
    // Most frames of a blend-shape animation leave most targets at zero; skipping them is exact
    // for finite deltas, which the header requires (0 * inf would be NaN, not 0).
    if (weight == 0) continue;
    const MorphTarget& target = mesh.targets[t];
    if (!target.position_deltas.empty()) AddScaled(target.position_deltas, weight, pose->positions);
    if (!target.normal_deltas.empty()) AddScaled(target.normal_deltas, weight, pose->normals);
  }
  double* normal = pose->normals.data();
  for (size_t i = 0, n = pose->normals.size(); i < n; i += 3) {
    const double length = std::sqrt(normal[i] * normal[i] + normal[i + 1] * normal[i + 1] +
                                    normal[i + 2] * normal[i + 2]);
    if (length > 0) {
      normal[i] /= length;
      normal[i + 1] /= length;
      normal[i + 2] /= length;
    }
  }
}

}  // namespace animconv
