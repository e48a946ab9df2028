// --compress (docs/formats/gltf.md, "Compact output"): the numbers glTF stores as floats in the
// JSON of nodes, meshes and float accessors written as the shortest text of their float32
// (0.7071068, not the 0.707106828689575 an exporter printed, nor -0.04999999999999993 from a
// rest pose computed in doubles).
//
// - Accessor min/max of FLOAT accessors: bounds of float32 data, which the Khronos validator
//   compares as float32: the same float32 reads back, so nothing any reader does changes.
// - Node translation, rotation, scale, matrix and weights, mesh weights: a float32 reader (the GPU,
//   most engines) sees the same value; a reader in doubles (three.js, Blender) sees it move by at
//   most half a float32 step. Each number is rounded only when that move stays within the
//   --compress bound of its kind (GltfCompression: translation metres for translations and a
//   matrix's last column, the rotation angle a quaternion component's change can make, the scale
//   ratio for scales and a matrix's other elements, the weight bound for weights): a translation
//   beyond ~170 m from its parent keeps its digits. The largest move is measured and reported.
// Integers, and numbers already as short, are left as they are.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "animconv/format.h"

namespace animconv {

// The number the shortest text of `value`'s float32 reads as: JSON written from it holds
// 3.3333333, not 3.3333332538604736.
nlohmann::json Float32Number(float value);

class Float32Text {
 public:
  explicit Float32Text(const GltfCompression& bounds) : bounds_(bounds) {}

  // Rounds the float members of a node (translation, rotation, scale, matrix, weights); true when
  // it changed `node`. With `transform_final` its translation, rotation, scale and matrix are left
  // as they are: they hold a mesh's dequantization, written as measured (gltf_mesh_fold.h).
  bool ShortenNode(nlohmann::json& node, bool transform_final = false);
  // Rounds a mesh's default morph weights; true when it changed `mesh`.
  bool ShortenMesh(nlohmann::json& mesh);
  // Rounds the min and max of an accessor whose componentType is FLOAT (5126); true when it
  // changed `accessor`.
  bool ShortenAccessorBounds(nlohmann::json& accessor);

  size_t shortened() const { return shortened_; }
  size_t kept() const { return kept_; }
  // One line for the notes: how many numbers, and the largest moves a double reader sees.
  std::string Summary() const;

 private:
  enum class Kind { kTranslation, kRotation, kRatio, kWeight, kBound };
  // Rounds every number of the array `member` of `object` that its kind's bound allows.
  bool ShortenArray(nlohmann::json& object, const char* member, Kind kind);
  // The same for a 4x4 column-major matrix: elements 12..14 are a translation, the rest ratios.
  bool ShortenMatrix(nlohmann::json& node);
  bool ShortenNumber(nlohmann::json& number, Kind kind);

  const GltfCompression& bounds_;
  size_t shortened_ = 0;
  size_t kept_ = 0;
  double largest_translation_metres_ = 0;
  double largest_rotation_degrees_ = 0;
  double largest_ratio_ = 0;
  double largest_weight_ = 0;
};

}  // namespace animconv
