#include "formats/gltf/gltf_float32_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace animconv {
namespace {

using nlohmann::json;

// The text a number is written as, as the output's JSON holds it.
std::string Text(const json& value) { return value.dump(); }

TEST(Float32TextTest, AnExportersDigitsBecomeTheShortestTextOfTheSameFloat32) {
  GltfCompression bounds;
  Float32Text text(bounds);
  // RobotExpressive's armature: float32 values printed with 15 digits, and a rest pose computed
  // in doubles (data/gltf/walk.glb's generated rig).
  json node = json::parse(
      R"({"name":"Bone","rotation":[0.707106828689575,1.6858743379089e-07,0,0.707106709480286],
          "translation":[-0.04999999999999993,0.95,-3.19546306855045e-05],"scale":[1,0.999999821186066,1]})");
  const json before = node;
  EXPECT_TRUE(text.ShortenNode(node));
  EXPECT_EQ(Text(node["rotation"]), "[0.7071068,1.6858743e-07,0,0.7071067]");
  EXPECT_EQ(Text(node["translation"]), "[-0.05,0.95,-3.195463e-05]");
  EXPECT_EQ(Text(node["scale"]), "[1,0.9999998,1]");
  EXPECT_EQ(node["name"], "Bone");
  // Every number reads back as the float32 it was.
  for (const char* member : {"rotation", "translation", "scale"}) {
    for (size_t i = 0; i < node[member].size(); ++i) {
      EXPECT_EQ(static_cast<float>(node[member][i].get<double>()),
                static_cast<float>(before[member][i].get<double>()))
          << member << "[" << i << "]";
    }
  }
  // 0.95 and the integers were already as short: 6 numbers changed.
  EXPECT_EQ(text.shortened(), 6u);
  EXPECT_EQ(text.kept(), 0u);
  EXPECT_NE(text.Summary().find("6 number(s)"), std::string::npos) << text.Summary();
}

TEST(Float32TextTest, ATranslationFarFromItsParentKeepsItsDigits) {
  GltfCompression bounds;  // translations within 1e-5 m
  Float32Text text(bounds);
  // float32 steps are 6.1e-5 m at 1,000 m: rounding would move a double reader's node by up to
  // 3e-5 m, beyond the bound.
  json node = json::parse(R"({"translation":[1000.0000123456789,0.25,0]})");
  EXPECT_FALSE(text.ShortenNode(node));
  EXPECT_EQ(Text(node["translation"]), "[1000.0000123456789,0.25,0]");
  EXPECT_EQ(text.kept(), 1u);
  EXPECT_NE(text.Summary().find("1 kept with all their digits"), std::string::npos);
  // A looser bound lets it round.
  bounds.translation_metres = 1e-4;
  Float32Text loose(bounds);
  EXPECT_TRUE(loose.ShortenNode(node));
  EXPECT_EQ(Text(node["translation"]), "[1000,0.25,0]");
}

TEST(Float32TextTest, AMatrixRoundsItsTranslationByTheTranslationBound) {
  GltfCompression bounds;
  Float32Text text(bounds);
  json node;
  node["matrix"] = {0.30000001192092896, 0,   0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                    5000.000012345678,   0.1, 0, 1};
  EXPECT_TRUE(text.ShortenNode(node));
  EXPECT_EQ(Text(node["matrix"][0]), "0.3");
  EXPECT_EQ(Text(node["matrix"][12]), "5000.000012345678");  // kept: float32 steps 4.9e-4 m there
  EXPECT_EQ(Text(node["matrix"][13]), "0.1");
  EXPECT_EQ(text.shortened(), 1u);
  EXPECT_EQ(text.kept(), 1u);
}

TEST(Float32TextTest, WeightsAndFloatAccessorBoundsRoundAndIntegerBoundsStay) {
  GltfCompression bounds;
  Float32Text text(bounds);
  json mesh = json::parse(R"({"weights":[0.10000000149011612,0.5],"primitives":[]})");
  EXPECT_TRUE(text.ShortenMesh(mesh));
  EXPECT_EQ(Text(mesh["weights"]), "[0.1,0.5]");

  json positions = json::parse(
      R"({"componentType":5126,"type":"VEC3","count":3,
          "min":[-0.30000001192092896,0,1e-45],"max":[3.3333332538604736,2,1e+39]})");
  EXPECT_TRUE(text.ShortenAccessorBounds(positions));
  EXPECT_EQ(Text(positions["min"]), "[-0.3,0,1e-45]");
  // 1e39 is beyond float32's range: only its digits say it, so they stay.
  EXPECT_EQ(Text(positions["max"]), "[3.3333333,2,1e+39]");

  json quantized = json::parse(
      R"({"componentType":5123,"type":"VEC3","count":3,"min":[0.5,0,0],"max":[3709,7088,1871]})");
  EXPECT_FALSE(text.ShortenAccessorBounds(quantized));
  EXPECT_EQ(Text(quantized["min"]), "[0.5,0,0]");
}

TEST(Float32TextTest, ARotationComponentRoundsOnlyWithinTheAngleAndScaleBounds) {
  GltfCompression bounds;
  bounds.rotation_degrees = 1e-9;  // tighter than float32 rounding can keep
  Float32Text text(bounds);
  json node = json::parse(R"({"rotation":[0.707106828689575,0,0,0.707106709480286]})");
  EXPECT_FALSE(text.ShortenNode(node));
  EXPECT_EQ(text.kept(), 2u);
  EXPECT_EQ(Text(node["rotation"]), "[0.707106828689575,0,0,0.707106709480286]");
}

TEST(Float32TextTest, Float32NumberReadsAsTheShortestTextOfItsFloat32) {
  EXPECT_EQ(Float32Number(3.3333333f).dump(), "3.3333333");
  EXPECT_EQ(Float32Number(11.8f).dump(), "11.8");
  EXPECT_EQ(Float32Number(0.0f).dump(), "0");
  EXPECT_EQ(Float32Number(1e-7f).dump(), "1e-07");
}

}  // namespace
}  // namespace animconv
