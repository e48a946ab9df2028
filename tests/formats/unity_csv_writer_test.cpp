#include <gtest/gtest.h>

#include "formats/pipeline.h"
#include "formats/unity_csv.h"
#include "libconvert/error.h"
#include "test_support.h"

namespace animconv {
namespace {

TEST(UnityCsvWriterTest, ArticleRowsRoundTripExactlyAtThreeDecimals) {
  const std::string original = testing::ReadText(testing::SourcePath("data/unity/anim.csv"));
  ReadOptions read;
  const Asset asset = ReadUnityCsv(original, read);
  WriteOptions write;
  write.precision = 3;
  EXPECT_EQ(WriteUnityCsv(asset, write), original);
}

TEST(UnityCsvWriterTest, RoundTripThroughRightHandedModelIsExact) {
  // unity-csv -> model -> mirrored to glTF handedness -> back -> unity-csv.
  const std::string original = testing::ReadText(testing::SourcePath("data/unity/anim.csv"));
  Asset asset = ReadUnityCsv(original, {});
  ConvertHandedness(asset, Handedness::kRight, Mirror::kX);
  ConvertOptions options;
  options.write.precision = 3;
  options.mirror = Mirror::kX;
  EXPECT_EQ(RenderAsset(asset, *FindFormat("unity-csv"), options), original);
}

TEST(UnityCsvWriterTest, MissingBonesAreWrittenAsZeros) {
  Asset asset = testing::MakeAsset({"hips", "spine"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0, 0.5}, {0, 0, 0, 1, 0, 0.6, 0, 0.8}, 4));
  WriteOptions options;
  options.bone_names = {"Hips", "Spine"};
  EXPECT_EQ(WriteUnityCsv(asset, options), "0,0,0,1,0,0,0,0,\n0,0.6,0,0.8,0,0,0,0,\n");
  options.precision = 3;
  EXPECT_EQ(WriteUnityCsv(asset, options),
            "0.000,0.000,0.000,1.000,0.000,0.000,0.000,0.000,\n"
            "0.000,0.600,0.000,0.800,0.000,0.000,0.000,0.000,\n");
}

TEST(UnityCsvWriterTest, FullPrecisionIsTheShortestFloatText) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(testing::MakeChannel(
      0, Path::kRotation, {0}, {0.030013, -0.0140061, -0.0050022, 0.99943876}, 4));
  WriteOptions options;
  options.bone_names = {"hips"};
  EXPECT_EQ(WriteUnityCsv(asset, options), "0.030013,-0.0140061,-0.0050022,0.99943876,\n");
}

TEST(UnityCsvWriterTest, UnevenKeysNeedAnIntervalAndAreSampledOnIt) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0, 0.3}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  WriteOptions options;
  options.bone_names = {"hips"};
  options.precision = 1;
  asset.clips[0].channels[0].times_seconds = {0.1, 0.3};
  EXPECT_THROW(WriteUnityCsv(asset, options), Error);  // does not start at 0
  options.row_interval_seconds = 0.1;
  EXPECT_EQ(WriteUnityCsv(asset, options),
            "0.0,0.0,0.0,1.0,\n0.0,0.0,0.0,1.0,\n0.0,0.0,0.0,1.0,\n0.0,0.0,0.0,1.0,\n");
}

TEST(UnityCsvWriterTest, ColumnsMatchBonesByHumanoidIdentityOrName) {
  Asset asset = testing::MakeAsset({"J_Bip_C_Hips", "custom"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(testing::MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  asset.clips[0].channels.push_back(testing::MakeChannel(1, Path::kRotation, {0}, {1, 0, 0, 0}, 4));
  WriteOptions options;
  options.bone_names = {"custom", "hips"};
  EXPECT_EQ(WriteUnityCsv(asset, options), "1,0,0,0,0,0,0,1,\n");
}

}  // namespace
}  // namespace animconv
