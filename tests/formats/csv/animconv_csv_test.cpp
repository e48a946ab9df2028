#include "formats/csv/animconv_csv.h"

#include <gtest/gtest.h>

#include "animconv/axes.h"
#include "animconv/error.h"
#include "formats/csv/unity_csv.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

Asset Read(const std::string& text) {
  ReadOptions options;
  options.source = "clip.csv";
  return ReadAnimconvCsv(text, options);
}

std::string ErrorOf(const std::string& text) {
  try {
    Read(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

void ExpectSameChannels(const Asset& a, const Asset& b) {
  ASSERT_EQ(a.clips[0].channels.size(), b.clips[0].channels.size());
  for (size_t c = 0; c < a.clips[0].channels.size(); ++c) {
    const Channel& x = a.clips[0].channels[c];
    const Channel& y = b.clips[0].channels[c];
    EXPECT_EQ(a.rig.nodes[x.node].name, b.rig.nodes[y.node].name);
    EXPECT_EQ(x.path, y.path);
    EXPECT_EQ(x.interpolation, y.interpolation);
    EXPECT_EQ(x.times_seconds, y.times_seconds);
    EXPECT_EQ(x.values, y.values);
  }
}

TEST(AnimconvCsvTest, HeaderNamesEveryComponent) {
  Asset asset = MakeAsset({"hips", "Face"});
  asset.rig.nodes[1].morph_target_count = 2;
  asset.rig.nodes[1].morph_target_names = {"smile", "blink,left"};
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kWeights, {0}, {0.5, 1}, 2, Interpolation::kStep));
  const std::string text = WriteAnimconvCsv(asset, {});
  EXPECT_EQ(text,
            "time,hips.rotation.x,hips.rotation.y,hips.rotation.z,hips.rotation.w,"
            "Face.weights.smile@step,\"Face.weights.blink,left@step\"\n"
            "0,0,0,0,1,0.5,1\n");
}

// A name with a line break is quoted (RFC 4180) and must read back; rows after the two-line
// header keep their real line numbers in errors.
TEST(AnimconvCsvTest, QuotedNamesWithLineBreaksReadBack) {
  Asset asset = MakeAsset({"two\nlines"});
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 2, 3}, 3));
  const std::string text = WriteAnimconvCsv(asset, {});
  EXPECT_EQ(text.substr(0, 25), "time,\"two\nlines.translati");
  const Asset back = Read(text);
  ExpectSameChannels(asset, back);
  // The header spans lines 1-4 (three quoted names with a break each), the rows 5 and 6.
  EXPECT_EQ(ErrorOf(text + "2,x,0,0\n"), "clip.csv:7:3: expected a number, found 'x'");
}

TEST(AnimconvCsvTest, RoundTripIsExactForSharedGrids) {
  Asset asset = ReadUnityCsv(testing::ReadText(testing::SourcePath("data/unity/anim.csv")), {});
  ConvertHandedness(asset, Handedness::kRight, Mirror::kZ);
  const Asset back = Read(WriteAnimconvCsv(asset, {}));
  ExpectSameChannels(asset, back);
  EXPECT_EQ(back.clips[0].name, "clip");
  EXPECT_EQ(back.rig.nodes[0].human_bone, HumanBone::kHips);
}

TEST(AnimconvCsvTest, Vrm1ThumbNamesShiftTheThumbs) {
  const std::string header =
      "time,leftThumbProximal.rotation.x,leftThumbProximal.rotation.y,"
      "leftThumbProximal.rotation.z,leftThumbProximal.rotation.w";
  const Asset vrm1 = Read(header +
                          ",leftThumbMetacarpal.rotation.x,leftThumbMetacarpal.rotation.y,"
                          "leftThumbMetacarpal.rotation.z,leftThumbMetacarpal.rotation.w\n"
                          "0,0,0,0,1,0,0,0,1\n");
  EXPECT_EQ(vrm1.rig.nodes[0].human_bone, HumanBone::kLeftThumbIntermediate);
  EXPECT_EQ(vrm1.rig.nodes[1].human_bone, HumanBone::kLeftThumbProximal);
  const Asset vrm0 = Read(header + "\n0,0,0,0,1\n");
  EXPECT_EQ(vrm0.rig.nodes[0].human_bone, HumanBone::kLeftThumbProximal);
}

TEST(AnimconvCsvTest, UnionGridFillsGapsWithTheCurveAndReadsBackTheSameCurve) {
  Asset asset = MakeAsset({"a", "b"});
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 2, 4, 6}, 3));
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kScale, {0, 0.5, 1}, {1, 1, 1, 2, 2, 2, 1, 1, 1}, 3));
  const std::string text = WriteAnimconvCsv(asset, {});
  EXPECT_NE(text.find("\n0.5,1,2,3,2,2,2\n"), std::string::npos) << text;
  const Asset back = Read(text);
  EXPECT_EQ(back.clips[0].channels[0].times_seconds, (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(back.clips[0].channels[1].values, asset.clips[0].channels[1].values);
}

TEST(AnimconvCsvTest, EmptyCellsMeanNoKey) {
  const Asset asset = Read(
      "time,n.translation.x,n.translation.y,n.translation.z,n.scale.x,n.scale.y,n.scale.z\n"
      "0,1,2,3,,,\n"
      "1,4,5,6,2,2,2\n");
  EXPECT_EQ(asset.clips[0].channels[0].key_count(), 2u);
  EXPECT_EQ(asset.clips[0].channels[1].times_seconds, std::vector<double>{1});
}

TEST(AnimconvCsvTest, ComponentsMayComeInAnyOrder) {
  const Asset asset = Read("time,n.rotation.w,n.rotation.z,n.rotation.y,n.rotation.x\n0,1,0,0,0\n");
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{0, 0, 0, 1}));
}

TEST(AnimconvCsvTest, NodeNamesMayContainDots) {
  const Asset asset = Read("time,my.node.weights.0\n0,0.5\n");
  EXPECT_EQ(asset.rig.nodes[0].name, "my.node");
  EXPECT_EQ(asset.rig.nodes[0].morph_target_count, 1);
  EXPECT_TRUE(asset.rig.nodes[0].morph_target_names.empty());  // numbered, not named
  EXPECT_FALSE(asset.rig.nodes[0].morph_targets_partial);
}

// Named weights columns name the targets the file animates, not a mesh's list (a CSV has no
// mesh): a three.js clip of `Face.weights.blink` put its weight on a mesh's first target, smile,
// until the names were marked partial, which three.js clips address by name (review of
// session 35).
TEST(AnimconvCsvTest, NamedWeightsAreThoseTheFileAnimates) {
  const Asset asset = Read("time,Face.weights.blink\n0,0\n0.5,1\n");
  EXPECT_EQ(asset.rig.nodes[0].morph_target_names, (std::vector<std::string>{"blink"}));
  EXPECT_TRUE(asset.rig.nodes[0].morph_targets_partial);
}

TEST(AnimconvCsvTest, ErrorsNameLineAndColumn) {
  EXPECT_NE(ErrorOf("hips.rotation.x\n").find("clip.csv:1:1: expected a header"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,hips.spin.x\n0,1\n").find("clip.csv:1:6: column 'hips.spin.x'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,n.rotation.x,n.rotation.y,n.rotation.z\n").find("no 'w' column"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,n.scale.x,n.scale.y,n.scale.z\n0,1,x,1\n")
                .find("clip.csv:2:5: expected a number"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,n.scale.x,n.scale.y,n.scale.z\n0,1,1\n").find("3 fields, expected 4"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,n.scale.x,n.scale.y,n.scale.z\n1,1,1,1\n1,1,1,1\n").find("clip.csv:3:1"),
            std::string::npos);
  EXPECT_NE(ErrorOf("time,n.scale.x,n.scale.y,n.scale.z\n0,1,,1\n").find("some components empty"),
            std::string::npos);
  // Located at the row and the channel's x column, wherever the header puts it.
  EXPECT_EQ(ErrorOf("time,s.scale.x,s.scale.y,s.scale.z,n.rotation.w,n.rotation.z,n.rotation.y,"
                    "n.rotation.x\n0,1,1,1,1,0,0,0\n0.5,1,1,1,0,0,0,0\n"),
            "clip.csv:3:17: 'n.rotation' has a zero quaternion at t=0.5");
  EXPECT_EQ(ErrorOf("time,n\xC3(.rotation.x\n"),
            "clip.csv:1:6: column 'n\\xc3(.rotation.x': the name is not valid UTF-8");
  EXPECT_EQ(ErrorOf("time,Face.weights.smile,Face.weights.\xE2\x80\xAE\xFF\n"),
            "clip.csv:1:25: column 'Face.weights.\\xe2\\x80\\xae\\xff': the name is not valid "
            "UTF-8");
  EXPECT_NE(ErrorOf("time,\"n.scale.x\n").find("unterminated"), std::string::npos);
  EXPECT_NE(ErrorOf("time,n.scale.x,n.scale.x\n").find("appears twice"), std::string::npos);
}

TEST(AnimconvCsvTest, NamelessNodesAreRefusedRatherThanWrittenUnreadable) {
  // A three.js root track (".morphTargetInfluences") gives a node without a name.
  Asset asset = MakeAsset({""});
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, {0}, {0, 0, 0, 1}, 4));
  EXPECT_THROW(WriteAnimconvCsv(asset, {}), Error);
}

TEST(AnimconvCsvTest, SplitHandlesQuotes) {
  std::vector<std::string> fields;
  std::vector<size_t> columns;
  size_t error_column = 0;
  ASSERT_TRUE(SplitCsvLine("a,\"b,\"\"c\"\"\",,d", &fields, &columns, &error_column));
  EXPECT_EQ(fields, (std::vector<std::string>{"a", "b,\"c\"", "", "d"}));
  EXPECT_EQ(columns, (std::vector<size_t>{1, 3, 13, 14}));
}

TEST(AnimconvCsvTest, SniffWantsATimeHeader) {
  EXPECT_TRUE(SniffAnimconvCsv("time,a.rotation.x"));
  EXPECT_TRUE(SniffAnimconvCsv("\xEF\xBB\xBFTime,a"));
  EXPECT_FALSE(SniffAnimconvCsv("0.1,0.2"));
}

TEST(AnimconvCsvTest, HeaderColumnsAreBoundedBeforeTheyAreSearched) {
  // A million weights columns on one node made the duplicate search quadratic: the morph target
  // limit bounds them, and a transform has at most its x,y,z(,w) (a duplicate says so first).
  ReadOptions options;
  options.source = "clip.csv";
  options.limits.morph_targets = 3;
  const auto error_of = [&](const std::string& text) -> std::string {
    try {
      ReadAnimconvCsv(text, options);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of("time,m.weights.a,m.weights.b,m.weights.c\n0,0,0,1\n"), "no error");
  EXPECT_EQ(error_of("time,m.weights.a,m.weights.b,m.weights.c,m.weights.d\n0,0,0,1,0\n"),
            "clip.csv:1:42: column 'm.weights.d': more than 3 morph targets (the limit) of "
            "'m.weights'");
  EXPECT_EQ(error_of("time,n.translation.x,n.translation.y,n.translation.z,n.translation.w\n"
                     "0,0,0,0,0\n"),
            "clip.csv:1:54: 'n.translation' has component 'w', expected each of x,y,z once");
  options.limits.name_bytes = 12;
  EXPECT_EQ(error_of("time,m.weights.a\n0,1\n"), "no error");
  EXPECT_EQ(error_of("time,mmm.weights.a\n0,1\n"),
            "clip.csv:1:6: a column name of 13 bytes, more than the limit of 12");
}

}  // namespace
}  // namespace animconv
