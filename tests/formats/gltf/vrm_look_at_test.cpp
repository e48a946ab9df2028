// Reading a VRM model's lookAt (formats/gltf/vrm_look_at.h) as three-vrm 3.5's
// VRMLookAtLoaderPlugin reads it.
#include "formats/gltf/vrm_look_at.h"

#include <gtest/gtest.h>

#include <string>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::HasNote;
const auto Read = testing::ReadFixture;

GltfFixture Vrm1(json look_at) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips"});
  gltf.document()["extensionsUsed"] = {"VRMC_vrm"};
  gltf.document()["extensions"]["VRMC_vrm"] = {
      {"specVersion", "1.0"}, {"humanoid", {{"humanBones", {{"hips", {{"node", 0}}}}}}}};
  if (!look_at.is_null()) gltf.document()["extensions"]["VRMC_vrm"]["lookAt"] = look_at;
  return gltf;
}

GltfFixture Vrm0(json first_person) {
  GltfFixture gltf;
  gltf.AddNodes({"Hips"});
  gltf.document()["extensionsUsed"] = {"VRM"};
  gltf.document()["extensions"]["VRM"] = {
      {"humanoid", {{"humanBones", {{{"bone", "hips"}, {"node", 0}}}}}},
      {"firstPerson", std::move(first_person)}};
  return gltf;
}

TEST(VrmLookAtTest, Vrm1RangeMapsAndThreeVrmsDefaults) {
  const Asset asset = Read(Vrm1({{"type", "bone"},
                                 {"rangeMapHorizontalInner", {{"inputMaxValue", 60}}},
                                 {"rangeMapHorizontalOuter", {{"outputScale", 12}}},
                                 {"rangeMapVerticalUp", {{"inputMaxValue", 0.001}}}}));
  ASSERT_TRUE(asset.vrm_look_at);
  const VrmLookAt& look_at = *asset.vrm_look_at;
  EXPECT_EQ(look_at.type, VrmLookAt::Type::kBone);
  EXPECT_FALSE(look_at.faces_minus_z);
  EXPECT_EQ(look_at.horizontal_inner.input_max_degrees, 60);
  EXPECT_EQ(look_at.horizontal_inner.output_scale, 10);  // a bone lookAt's default
  EXPECT_EQ(look_at.horizontal_outer.input_max_degrees, 90);
  EXPECT_EQ(look_at.horizontal_outer.output_scale, 12);
  EXPECT_EQ(look_at.vertical_down.input_max_degrees, 90);
  EXPECT_EQ(look_at.vertical_up.input_max_degrees, 0.01);  // three-vrm's minimum
  EXPECT_TRUE(HasNote(asset, "lookAt (bone, /extensions/VRMC_vrm/lookAt)"));
  EXPECT_TRUE(HasNote(asset, "rangeMapVerticalUp/inputMaxValue 0.001 read as 0.01"));
}

TEST(VrmLookAtTest, Vrm1ExpressionLookAtDefaultsToWeightOne) {
  const Asset asset = Read(Vrm1({{"type", "expression"}}));
  ASSERT_TRUE(asset.vrm_look_at);
  EXPECT_EQ(asset.vrm_look_at->type, VrmLookAt::Type::kExpression);
  EXPECT_EQ(asset.vrm_look_at->vertical_down.output_scale, 1);
}

TEST(VrmLookAtTest, NoLookAtMeansNone) {
  EXPECT_FALSE(Read(Vrm1(json())).vrm_look_at);
  GltfFixture plain;
  plain.AddNodes({"Hips"});
  EXPECT_FALSE(Read(plain).vrm_look_at);
}

TEST(VrmLookAtTest, Vrm0DegreeMapsFaceMinusZ) {
  const Asset asset =
      Read(Vrm0({{"lookAtTypeName", "Bone"},
                 {"lookAtHorizontalInner",
                  {{"curve", {0, 0, 0, 1, 1, 1, 1, 0}}, {"xRange", 90}, {"yRange", 8}}},
                 {"lookAtHorizontalOuter",
                  {{"curve", {0, 0, 0, 0.5, 1, 1, 1, 0}}, {"xRange", 80}, {"yRange", 12}}}}));
  ASSERT_TRUE(asset.vrm_look_at);
  const VrmLookAt& look_at = *asset.vrm_look_at;
  EXPECT_TRUE(look_at.faces_minus_z);
  EXPECT_EQ(look_at.horizontal_inner.output_scale, 8);
  EXPECT_EQ(look_at.horizontal_outer.input_max_degrees, 80);
  EXPECT_EQ(look_at.horizontal_outer.output_scale, 12);
  EXPECT_EQ(look_at.vertical_up.output_scale, 10);
  EXPECT_TRUE(HasNote(asset, "lookAtHorizontalOuter/curve ignored"));
  const Asset blend_shape = Read(Vrm0({{"lookAtTypeName", "BlendShape"}}));
  EXPECT_EQ(blend_shape.vrm_look_at->type, VrmLookAt::Type::kExpression);
}

TEST(VrmLookAtTest, ANonNumberFailsAtItsPointer) {
  try {
    Read(Vrm1({{"rangeMapVerticalDown", {{"outputScale", "ten"}}}}));
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("/extensions/VRMC_vrm/lookAt/rangeMapVerticalDown/outputScale"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace animconv
