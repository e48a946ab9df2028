// --compress-meshes held to its bounds where the review of its bounds (session 31, /tmp/review1)
// found outputs beyond them with exit 0: the mesh is measured as the output holds it (the node and
// inverse bind matrix numbers as written and read), and where that is beyond the bound a safer
// encoding is chosen or the positions stay float, with the reason in the note
// (formats/gltf/gltf_mesh_quantize.h, docs/formats/gltf.md "Compact output").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_mesh_quantize.h"
#include "formats/gltf/gltf_mesh_quantize_support.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using mesh_test::Distance;
using mesh_test::kVertices;
using mesh_test::Output;
using mesh_test::Place;
using mesh_test::Render;
using mesh_test::ShapeFixture;
using nlohmann::json;
using testing::GltfFixture;

// D3: a material that KHR_materials_variants maps the primitive to at run time has
// KHR_materials_volume, whose thickness is in mesh units: the node's scale (the grid's step)
// would scale it, as it would for the primitive's own material (t14.gltf: quantized with a node
// scale of 2.4e-4; its control, the same material used directly, was kept).
TEST(GltfMeshQuantizeBoundsTest, AVolumeMaterialOfAVariantKeepsThePositionsFloat) {
  GltfFixture gltf = ShapeFixture();
  json& document = gltf.document();
  document["materials"] = {
      {{"name", "plain"}},
      {{"name", "glass"}, {"extensions", {{"KHR_materials_volume", {{"thicknessFactor", 0.5}}}}}}};
  document["extensionsUsed"] = {"KHR_materials_variants", "KHR_materials_volume"};
  document["extensions"] = {{"KHR_materials_variants", {{"variants", {{{"name", "glass"}}}}}}};
  json& primitive = document["meshes"][0]["primitives"][0];
  primitive["material"] = 0;
  primitive["extensions"] = {
      {"KHR_materials_variants", {{"mappings", {{{"material", 1}, {"variants", {0}}}}}}}};
  const Output quantized = Render(gltf, true);
  EXPECT_EQ(quantized.Type(quantized.Attribute("POSITION")), kGltfFloat) << quantized.Note();
  EXPECT_NE(quantized.Note().find("positions kept float for mesh 0 (''): a material of it (or of "
                                  "its KHR_materials_variants) has KHR_materials_volume"),
            std::string::npos)
      << quantized.Note();
  EXPECT_EQ(quantized.Type(quantized.Attribute("NORMAL")), kGltfByte);  // the rest as before

  // Mapped to the plain material only: quantized as before.
  primitive["extensions"]["KHR_materials_variants"]["mappings"][0]["material"] = 0;
  const Output plain_variant = Render(gltf, true);
  EXPECT_EQ(plain_variant.Type(plain_variant.Attribute("POSITION")), kGltfUnsignedShort)
      << plain_variant.Note();
}

}  // namespace
}  // namespace animconv
