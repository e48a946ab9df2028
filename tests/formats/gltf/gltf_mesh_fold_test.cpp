// What folding a --compress-meshes grid into a node or inverse bind matrices costs as written
// (formats/gltf/gltf_mesh_fold.h), against values worked out by hand.
#include "formats/gltf/gltf_mesh_fold.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace animconv {
namespace {

using nlohmann::json;

constexpr double kReach = 1000;  // codes up to 1000 long

// With every digit a fold is exact for a unit rotation and a matrix: nothing beyond the grid.
TEST(GltfMeshFoldTest, EveryDigitFoldsExactly) {
  const Vec3 corner{0.1234567, -2.5, 3};
  const double step = 1.0 / 4096;
  for (const json& node :
       {json{{"translation", {100.1, 2, 3}}, {"rotation", {0, 0.6, 0, 0.8}}, {"scale", {2, 1, 3}}},
        json{{"matrix", {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 100.1, 6, 7, 1}}}}) {
    json written = node;
    FoldIntoNode(written, corner, step, false);
    EXPECT_LT(NodeFoldError(node, written, corner, step, kReach), 1e-12) << node;
  }
}

// As float32 text, a matrix's last column at x = 100.1234567 moves, for a reader in doubles, from
// its value to its float32's shortest text (99.62346): what the fold costs in the mesh's units
// (the matrix does not scale), beside the step's own text (2.4414062e-4 for 2^-12, 5e-15 off).
TEST(GltfMeshFoldTest, Float32TextOfAMatrixColumnIsMeasured) {
  const json node{{"matrix", {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 100.1234567, 6, 7, 1}}};
  const Vec3 corner{0.25, 0.5, 0.125};  // exact in float32
  const double step = 1.0 / 4096;
  json written = node;
  FoldIntoNode(written, corner, step, true);
  const double x = 100.1234567 - 0.5;  // column 12 + row 0 of M·corner
  const double moved = std::abs(99.62346 - x);
  ASSERT_GT(moved, 1e-7);
  EXPECT_EQ(written["matrix"][12].get<double>(), 99.62346);
  EXPECT_NEAR(NodeFoldError(node, written, corner, step, kReach), moved, 1e-8);
}

// A rotation off unit length: three.js composes it as written, other readers normalise it; the
// fold (with the normalised rotation) is off for the former by (R − M)(S·corner), about
// |q·q − 1| |corner| for a corner far from the node.
TEST(GltfMeshFoldTest, ARotationOffUnitLengthIsMeasuredAsThreeJsComposesIt) {
  const json node{{"rotation", {0.382683, 0, 0, 0.92388}}};  // |q|² = 1 + 5.3e-7
  const Vec3 corner{500, 20, -300};
  json written = node;
  FoldIntoNode(written, corner, 1.0 / 4096, false);
  const double error = NodeFoldError(node, written, corner, 1.0 / 4096, kReach);
  EXPECT_GT(error, 1e-4);
  EXPECT_LT(error, 2 * 5.3e-7 * std::hypot(500, 20, 300) + 1e-6);
}

// Inverse bind matrices are float32: at 3 km their folded translation rounds by up to 1.2e-4, near
// the origin by far less.
TEST(GltfMeshFoldTest, InverseBindMatricesAreMeasuredAsFloat32) {
  const float c = static_cast<float>(std::cos(0.5)), s = static_cast<float>(std::sin(0.5));
  const auto at = [&](double x) {
    return std::vector<double>{c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, x, 10, 0, 1};
  };
  const Vec3 corner{0.25, 0.5, 0.125};
  const double near = MatricesFoldError(at(1), corner, 1.0 / 4096, kReach);
  const double far = MatricesFoldError(at(3000), corner, 1.0 / 4096, kReach);
  EXPECT_LT(near, 1e-6);
  EXPECT_GT(far, 1e-5);
  EXPECT_LT(far, 3e-4);
}

}  // namespace
}  // namespace animconv
