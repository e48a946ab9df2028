#include <gtest/gtest.h>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "formats/csv/unity_csv.h"
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

// Rows are sampled from the clip's duration, which a file sets freely: the row count is bounded
// before anything is allocated.
TEST(UnityCsvWriterTest, SampledRowsAreBoundedBeforeAllocating) {
  Asset asset = testing::MakeAsset({"hips"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0, 1e300}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  WriteOptions options;
  options.bone_names = {"hips"};
  options.row_interval_seconds = 0.2;
  const auto error_of = [&] {
    try {
      WriteUnityCsv(asset, options);
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kUsage);
      return std::string(error.message());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(),
            "unity-csv: sampling 1e+300 s every 0.2 s gives 5e+300 rows of 1 bones, more than the "
            "134217728 values (about 1 GiB of text) a unity-csv output may hold; pass a larger "
            "--interval or a lower --fps, or fewer --bones");
  // One row past the limit: 2^25 + 1 rows of one bone's 4 values.
  asset.clips[0].channels[0].times_seconds = {0, 33554432};
  options.row_interval_seconds = 1;
  EXPECT_NE(error_of().find("gives 33554433 rows of 1 bones"), std::string::npos);
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

// Rows play linearly: a step channel that jumps ramps over the row before each jump. The warning
// names the channels that jump (found by the exit-0 sweep: a VRM's STEP rotations, 75 degrees off
// between rows with exit 0 and no warning); a step channel that holds still is not named.
TEST(UnityCsvWriterTest, StepChannelsThatJumpAreWarnedAboutAsRampsBetweenRows) {
  Asset asset = testing::MakeAsset({"hips", "spine"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[1].human_bone = HumanBone::kSpine;
  asset.clips[0].channels.push_back(
      testing::MakeChannel(0, Path::kRotation, {0, 0.5},
                           {0, 0, 0, 1, 0, 0.5, 0, 0.8660254037844386}, 4, Interpolation::kStep));
  asset.clips[0].channels.push_back(testing::MakeChannel(
      1, Path::kRotation, {0, 0.5}, {0, 0, 0, 1, 0, 0, 0, 1}, 4, Interpolation::kStep));
  Diagnostics diagnostics;
  WriteOptions options;
  options.bone_names = {"Hips", "Spine"};
  options.diagnostics = &diagnostics;
  options.row_interval_seconds = 0.25;
  WriteUnityCsv(asset, options);
  std::vector<std::string> ramps;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.text.find("step channel") != std::string::npos) ramps.push_back(diagnostic.text);
  }
  ASSERT_EQ(ramps.size(), 1u);
  EXPECT_EQ(diagnostics.size(), 2u);  // and the rows' rate (0.25 s, not the reader's 0.2 s)
  EXPECT_NE(ramps[0].find("1 step channel(s) ramp over the 0.25 s before each jump"),
            std::string::npos)
      << ramps[0];
  EXPECT_NE(ramps[0].find("(local jumps of up to 60 deg): hips;"), std::string::npos) << ramps[0];

  asset.clips[0].channels[0].interpolation = Interpolation::kLinear;  // rows play it as it is
  diagnostics.clear();
  WriteUnityCsv(asset, options);
  for (const Diagnostic& diagnostic : diagnostics) {
    EXPECT_EQ(diagnostic.text.find("step channel"), std::string::npos) << diagnostic.text;
  }
}

}  // namespace
}  // namespace animconv
