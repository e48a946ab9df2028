// What the --compress-meshes tests share (gltf_mesh_quantize_test.cpp,
// gltf_mesh_quantize_bounds_test.cpp): a fixture mesh, a conversion with and without
// quantization, and the output decoded and placed the way glTF 2.0 and KHR_mesh_quantization
// define it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/convert.h"
#include "animconv/model.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv::mesh_test {

struct Output {
  nlohmann::json document;
  Asset asset;
  Diagnostics notes;

  // Element `i` of accessor `a` as a reader decodes it (glTF 2.0 §3.11 normalized integers).
  std::vector<double> Element(size_t a, size_t i) const;
  // Accessor indices of mesh 0's primitive 0: an attribute, an attribute of morph target `t`.
  size_t Attribute(const char* name) const;
  size_t Target(size_t t, const char* name) const;
  int Type(size_t a) const;
  // The --compress-meshes note ('' when there is none).
  std::string Note() const;
};

// p placed by the node's matrix, or by its translation, rotation and scale.
Vec3 Place(const nlohmann::json& node, const std::vector<double>& p);
// The same without translation: where a morph delta moves a vertex.
Vec3 Turn(const nlohmann::json& node, const std::vector<double>& d);
double Distance(const Vec3& a, const Vec3& b);
double AngleDegrees(const std::vector<double>& a, const std::vector<double>& b);

constexpr size_t kVertices = 60;

// A mesh of 20 triangles on an irregular surface 3 units wide, with normals, texture
// coordinates, colours and one morph target (positions and normals), drawn by node 1 ("shape",
// translated, rotated and scaled unevenly) under node 0 ("root", whose translation is animated).
testing::GltfFixture ShapeFixture();

// The shape skinned to one joint: node 0 the joint (its rotation animated), node 1 the skinned
// mesh at the origin. The grid goes into the skin's inverse bind matrix, not into node 1 (a
// skinned mesh's node transform is ignored, glTF 2.0 §3.7.3.3).
testing::GltfFixture SkinnedFixture();

// `gltf` converted to .glb with --compress, and with --compress-meshes when `quantize`.
Output Render(const testing::GltfFixture& gltf, bool quantize, double tolerance = 1e-4);

// The size the bound is a fraction of: the largest side of the positions' bounding box.
double Extent(const Output& plain);

}  // namespace animconv::mesh_test
