#include "animconv/morph_mesh.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/error.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::ErrorKindOf;

// One triangle in the XY plane facing +Z, with a target that lifts vertex 2 along +Z and tilts
// its normal towards +X, and a target that moves only normals.
MorphMesh Triangle() {
  MorphMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  mesh.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
  mesh.indices = {0, 1, 2};
  MorphTarget lift;
  lift.position_deltas = {0, 0, 0, 0, 0, 0, 0, 0, 2};
  lift.normal_deltas = {0, 0, 0, 0, 0, 0, 1, 0, 0};
  MorphTarget tilt;
  tilt.normal_deltas = {0, 1, 0, 0, 0, 0, 0, 0, 0};
  mesh.targets = {lift, tilt};
  mesh.default_weights = {0, 0};
  return mesh;
}

TEST(MorphMeshTest, ZeroWeightsGiveTheBase) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  EvaluateMorph(mesh, {0, 0}, &pose);
  EXPECT_EQ(pose.positions, mesh.positions);
  EXPECT_EQ(pose.normals, mesh.normals);
}

TEST(MorphMeshTest, AddsWeightedDeltasAndRenormalisesNormals) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  EvaluateMorph(mesh, {0.5, 1}, &pose);
  EXPECT_DOUBLE_EQ(pose.positions[8], 1.0);  // 0 + 0.5 * 2
  EXPECT_DOUBLE_EQ(pose.positions[0], 0.0);
  // Vertex 0: (0, 0, 1) + 1 * (0, 1, 0) = (0, 1, 1), normalised.
  EXPECT_NEAR(pose.normals[1], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(pose.normals[2], std::sqrt(0.5), 1e-15);
  // Vertex 2: (0, 0, 1) + 0.5 * (1, 0, 0) = (0.5, 0, 1), normalised.
  const double length = std::sqrt(1.25);
  EXPECT_NEAR(pose.normals[6], 0.5 / length, 1e-15);
  EXPECT_NEAR(pose.normals[8], 1 / length, 1e-15);
  for (size_t v = 0; v < 3; ++v) {
    const double* n = pose.normals.data() + 3 * v;
    EXPECT_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-15);
  }
}

TEST(MorphMeshTest, WeightsAreNotClamped) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  EvaluateMorph(mesh, {-0.5, 0}, &pose);
  EXPECT_DOUBLE_EQ(pose.positions[8], -1.0);
  EvaluateMorph(mesh, {2.5, 0}, &pose);
  EXPECT_DOUBLE_EQ(pose.positions[8], 5.0);
}

TEST(MorphMeshTest, AZeroLengthNormalStaysZero) {
  MorphMesh mesh = Triangle();
  mesh.targets[0].normal_deltas = {0, 0, -1, 0, 0, 0, 0, 0, 0};
  MorphPose pose;
  EvaluateMorph(mesh, {1, 0}, &pose);
  EXPECT_EQ(pose.normals[0], 0.0);
  EXPECT_EQ(pose.normals[1], 0.0);
  EXPECT_EQ(pose.normals[2], 0.0);
}

TEST(MorphMeshTest, AMeshWithoutNormalsGivesPositionsOnly) {
  MorphMesh mesh = Triangle();
  mesh.normals.clear();
  for (MorphTarget& target : mesh.targets) target.normal_deltas.clear();
  MorphPose pose;
  EvaluateMorph(mesh, {1, 1}, &pose);
  EXPECT_TRUE(pose.normals.empty());
  EXPECT_DOUBLE_EQ(pose.positions[8], 2.0);
}

TEST(MorphMeshTest, ThePoseIsReusedAcrossCalls) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  EvaluateMorph(mesh, {1, 0}, &pose);
  EvaluateMorph(mesh, {0, 0}, &pose);  // no leftovers from the previous call
  EXPECT_EQ(pose.positions, mesh.positions);
}

TEST(MorphMeshTest, MismatchedSizesAreACallersBug) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  EXPECT_EQ(ErrorKindOf([&] { EvaluateMorph(mesh, {1}, &pose); }), ErrorKind::kInternal);
  MorphMesh short_deltas = Triangle();
  short_deltas.targets[0].position_deltas.pop_back();
  EXPECT_EQ(ErrorKindOf([&] { EvaluateMorph(short_deltas, {1, 0}, &pose); }), ErrorKind::kInternal);
  MorphMesh short_normals = Triangle();
  short_normals.targets[1].normal_deltas.resize(3);
  EXPECT_EQ(ErrorKindOf([&] {
              EvaluateMorph(short_normals, {0, 1}, &pose);
            }),
            ErrorKind::kInternal);
  MorphMesh bad_positions = Triangle();
  bad_positions.positions.pop_back();
  EXPECT_EQ(ErrorKindOf([&] {
              EvaluateMorph(bad_positions, {0, 0}, &pose);
            }),
            ErrorKind::kInternal);
}

TEST(MorphMeshTest, InternalErrorsSaySo) {
  const MorphMesh mesh = Triangle();
  MorphPose pose;
  try {
    EvaluateMorph(mesh, {1}, &pose);
    FAIL() << "no Error thrown";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "internal error: EvaluateMorph: 1 weights for 2 targets");
    EXPECT_EQ(error.message(), "EvaluateMorph: 1 weights for 2 targets");
  }
}

}  // namespace
}  // namespace animconv
