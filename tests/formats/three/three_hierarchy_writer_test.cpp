#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "animconv/error.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::MakeAsset;
using testing::MakeChannel;

Asset TwoBoneAsset() {
  Asset asset = MakeAsset({"hips", "eye", "spine"});
  asset.rig.nodes[2].parent = 0;
  auto& channels = asset.clips[0].channels;
  channels.push_back(MakeChannel(0, Path::kRotation, {0, 0.2}, {0, 0, 0, 1, 0, 0.6, 0, 0.8}, 4));
  channels.push_back(MakeChannel(0, Path::kTranslation, {0.2}, {0, 1, 0}, 3));
  channels.push_back(MakeChannel(2, Path::kRotation, {0, 0.2}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  return asset;
}

TEST(ThreeHierarchyWriterTest, OneEntryPerBoneInRigOrder) {
  const json out = json::parse(WriteThreeHierarchy(TwoBoneAsset(), {}));
  EXPECT_EQ(out["name"], "clip");
  EXPECT_DOUBLE_EQ(out["length"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(out["fps"].get<double>(), 5);
  ASSERT_EQ(out["hierarchy"].size(), 3u);
  EXPECT_TRUE(out["hierarchy"][1]["keys"].empty());  // the eye has no data but keeps its index
  EXPECT_EQ(out["hierarchy"][2]["parent"], 0);
  const json& hips = out["hierarchy"][0]["keys"];
  ASSERT_EQ(hips.size(), 2u);
  EXPECT_EQ(hips[0], json::parse(R"({"time":0,"rot":[0,0,0,1]})"));
  EXPECT_EQ(hips[1], json::parse(R"({"time":0.2,"rot":[0,0.6,0,0.8],"pos":[0,1,0]})"));
}

TEST(ThreeHierarchyWriterTest, EmbedsLegacyBoneRecords) {
  Asset asset = TwoBoneAsset();
  json out = json::parse(WriteThreeHierarchy(asset, {}));
  ASSERT_EQ(out["bones"].size(), 3u);
  // No rest pose known: names and parents only.
  EXPECT_EQ(out["bones"][2], json::parse(R"({"parent":0,"name":"spine"})"));
  asset.rig.rest_pose_known = true;
  asset.rig.nodes[2].rest_translation = {0, 0.5, 0};
  out = json::parse(WriteThreeHierarchy(asset, {}));
  EXPECT_EQ(
      out["bones"][2],
      json::parse(R"({"parent":0,"name":"spine","pos":[0,0.5,0],"rotq":[0,0,0,1],"scl":[1,1,1]})"));
}

TEST(ThreeHierarchyWriterTest, MillisecondsScaleTimesAndLength) {
  WriteOptions options;
  options.hierarchy_time_unit = TimeUnit::kMilliseconds;
  const json out = json::parse(WriteThreeHierarchy(TwoBoneAsset(), options));
  EXPECT_DOUBLE_EQ(out["length"].get<double>(), 200);
  EXPECT_DOUBLE_EQ(out["hierarchy"][0]["keys"][1]["time"].get<double>(), 200);
}

TEST(ThreeHierarchyWriterTest, RefusesStepInterpolation) {
  Asset asset = TwoBoneAsset();
  asset.clips[0].channels[0].interpolation = Interpolation::kStep;
  EXPECT_THROW(WriteThreeHierarchy(asset, {}), Error);
}

std::string WriteError(const Asset& asset) {
  try {
    WriteThreeHierarchy(asset, {});
  } catch (const Error& error) {
    return error.message();
  }
  return "";
}

// parseAnimation names an animated bone's tracks '.bones[NAME].position'; three.js r125's
// parseTrackName cannot parse an empty NAME or one with a line break, and the mixer throws on the
// clip. Such files used to be written with exit 0 (a three.js clip's root track, '.position',
// reads as a node named "").
// PropertyBinding binds '.bones[NAME]' to the first bone of that name: a second animated bone of
// the same name never moved and its motion landed on the first (review of session 35, 68° off).
// An animated bone whose name a bone before it has takes a suffix, with a warning naming it; an
// unanimated one makes no track and keeps its name.
TEST(ThreeHierarchyWriterTest, BonesOfOneNameAreMadeUnique) {
  Asset asset = TwoBoneAsset();
  asset.rig.nodes[1].name = "hips";  // unanimated
  asset.rig.nodes[2].name = "hips";
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  const json out = json::parse(WriteThreeHierarchy(asset, options));
  EXPECT_EQ(out["bones"][0]["name"], "hips");
  EXPECT_EQ(out["bones"][1]["name"], "hips");  // makes no track: the first 'hips' binds bone 0
  EXPECT_EQ(out["bones"][2]["name"], "hips_2");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("1 bone(s) renamed"), std::string::npos)
      << diagnostics[0].text;
}

// parseAnimation keeps times in Float32Arrays: two keys equal there were written with exit 0
// (review of session 35); refused as the three and glTF writers refuse them.
TEST(ThreeHierarchyWriterTest, RefusesKeysFloat32CannotTellApart) {
  Asset asset = TwoBoneAsset();
  asset.clips[0].channels[0].times_seconds = {0.5, 0.5 + 1e-9};
  const std::string message = WriteError(asset);
  EXPECT_NE(message.find("three-hierarchy: keys 0 and 1 of rotation of 'hips'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("closer than float32 time can tell apart"), std::string::npos);
}

TEST(ThreeHierarchyWriterTest, RefusesAnimatedNamesThreeJsCannotParse) {
  for (const std::string name : {"", "a\nb", "a\rb", "a\u2028b", "a\u2029b"}) {
    Asset asset = TwoBoneAsset();
    asset.rig.nodes[2].name = name;
    const std::string message = WriteError(asset);
    EXPECT_NE(message.find("animated node 2"), std::string::npos) << message;
    EXPECT_NE(message.find(name.empty() ? "mixer's root" : "--bone-map"), std::string::npos)
        << message;
  }
  // Names parseTrackName takes whole (its '.+' is greedy): written.
  for (const std::string name : {"a]b", "[", "a.b", "a b", "a\tb", "mixamorig:Hips"}) {
    Asset asset = TwoBoneAsset();
    asset.rig.nodes[2].name = name;
    EXPECT_EQ(WriteError(asset), "") << name;
  }
  // An unanimated bone makes no track: its name is not parsed.
  Asset asset = TwoBoneAsset();
  asset.rig.nodes[1].name = "";
  EXPECT_EQ(WriteError(asset), "");
}

}  // namespace
}  // namespace animconv
