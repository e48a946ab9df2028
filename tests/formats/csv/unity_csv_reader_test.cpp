#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "animconv/error.h"
#include "animconv/model.h"
#include "formats/csv/unity_csv.h"
#include "test_support.h"

namespace animconv {
namespace {

// A row of 55 bones in the exporter's layout ("F3" values, each followed by a comma), every bone
// at `q` except those listed as missing (0,0,0,0).
std::string Row(const Quat& q, const std::vector<int>& missing = {}) {
  std::string row;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    const bool absent = std::find(missing.begin(), missing.end(), b) != missing.end();
    for (int i = 0; i < 4; ++i) row += fmt::format("{:.3f},", absent ? 0.0 : q[i]);
  }
  return row;
}

Asset Read(const std::string& text, ReadOptions options = {}) {
  options.source = "anim.csv";
  return ReadUnityCsv(text, options);
}

// Error location and message of a read that must fail.
std::pair<std::string, std::string> ReadError(const std::string& text, ReadOptions options = {}) {
  try {
    Read(text, std::move(options));
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.source(), "anim.csv");
    return {error.location(), error.message()};
  }
  ADD_FAILURE() << "no error";
  return {};
}

const Channel* ChannelOf(const Asset& asset, const std::string& bone) {
  for (const Channel& channel : asset.clips[0].channels) {
    if (asset.rig.nodes[channel.node].name == bone) return &channel;
  }
  return nullptr;
}

TEST(UnityCsvReaderTest, ReadsTheArticleRows) {
  const Asset asset = Read(testing::ReadText(testing::SourcePath("data/unity/anim.csv")));
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_EQ(asset.clips[0].name, "anim");
  EXPECT_EQ(asset.rig.nodes.size(), 55u);
  EXPECT_EQ(asset.clips[0].channels.size(), 55u);
  EXPECT_EQ(asset.coordinates.handedness, Handedness::kLeft);
  EXPECT_EQ(asset.coordinates.facing, Facing::kPlusZ);
  EXPECT_DOUBLE_EQ(asset.clips[0].duration(), 0.2);
  const Channel* hips = ChannelOf(asset, "hips");
  ASSERT_NE(hips, nullptr);
  EXPECT_EQ(hips->times_seconds, (std::vector<double>{0, 0.2}));
  // First row, first bone, exactly as printed (the pipeline renormalises for other outputs).
  EXPECT_EQ(hips->values[0], 0.030);
  EXPECT_EQ(hips->values[1], -0.014);
  EXPECT_EQ(hips->values[2], -0.005);
  EXPECT_EQ(hips->values[3], 0.999);
  // The last column group is UpperChest (enum value 54), here 0,0,0,1.
  EXPECT_EQ(asset.rig.nodes[54].name, "upperChest");
  EXPECT_EQ(asset.rig.nodes[54].human_bone, HumanBone::kUpperChest);
  EXPECT_EQ(ChannelOf(asset, "upperChest")->values[3], 1.0);
}

TEST(UnityCsvReaderTest, KeepsSignsAsPrinted) {
  // Hemisphere alignment is the pipeline's job (NormalizeRotations), so unity-csv round trips
  // keep the exporter's signs.
  const std::string text = Row({0, 0.707, 0, 0.707}) + "\n" + Row({0, -0.707, 0, -0.707}) + "\n";
  const Asset asset = Read(text);
  const Channel* hips = ChannelOf(asset, "hips");
  EXPECT_EQ(hips->values[5], -0.707);
  EXPECT_EQ(hips->values[7], -0.707);
}

TEST(UnityCsvReaderTest, RowParentsFollowTheHumanoidMap) {
  const Asset asset = Read(Row({0, 0, 0, 1}));
  EXPECT_EQ(asset.rig.nodes[static_cast<int>(HumanBone::kNeck)].parent,
            static_cast<int>(HumanBone::kUpperChest));
  EXPECT_EQ(asset.rig.nodes[static_cast<int>(HumanBone::kHips)].parent, -1);
}

TEST(UnityCsvReaderTest, HandlesCrlfBomBlankLinesAndTrailingSpace) {
  const std::string row = Row({0.1, 0.2, 0.3, 0.927});
  const std::string text = "\xEF\xBB\xBF" + row + "\r\n\r\n  \n" + row + " \r\n\n";
  const Asset asset = Read(text);
  EXPECT_EQ(ChannelOf(asset, "hips")->key_count(), 2u);
  EXPECT_DOUBLE_EQ(ChannelOf(asset, "hips")->times_seconds[1], 0.2);
}

TEST(UnityCsvReaderTest, RowsWithoutTrailingCommaAreAccepted) {
  std::string row = Row({0.1, 0.2, 0.3, 0.927});
  row.pop_back();
  EXPECT_EQ(Read(row + "\n" + row).clips[0].channels.size(), 55u);
}

TEST(UnityCsvReaderTest, DetectsDecimalCommaRowsAndSaysSo) {
  std::string row = Row({0.03, -0.014, -0.005, 0.999});
  std::replace(row.begin(), row.end(), '.', ',');  // "0,030,-0,014,-0,005,0,999,..."
  const Asset asset = Read(row + "\n" + row + "\n");
  const Channel* hips = ChannelOf(asset, "hips");
  EXPECT_EQ(hips->values,
            (std::vector<double>{0.03, -0.014, -0.005, 0.999, 0.03, -0.014, -0.005, 0.999}));
  EXPECT_NE(asset.notes[0].find("decimal comma"), std::string::npos) << asset.notes[0];
}

TEST(UnityCsvReaderTest, ReadsSemicolonFilesWithEitherDecimalMark) {
  std::string row = Row({0.03, -0.014, -0.005, 0.999});
  std::replace(row.begin(), row.end(), ',', ';');
  const Asset point = Read(row + "\n");
  EXPECT_NE(point.notes[0].find("semicolon-separated, decimal point"), std::string::npos);
  std::replace(row.begin(), row.end(), '.', ',');
  const Asset comma = Read(row + "\n");
  EXPECT_NE(comma.notes[0].find("semicolon-separated, decimal comma"), std::string::npos);
  EXPECT_EQ(ChannelOf(point, "hips")->values, ChannelOf(comma, "hips")->values);
}

TEST(UnityCsvReaderTest, ZeroQuaternionMeansMissingBone) {
  const std::vector<int> missing = {21, 22, 23};  // eyes and jaw
  const Asset asset = Read(Row({0, 0, 0, 1}, missing) + "\n" + Row({0, 0, 0, 1}, missing));
  EXPECT_EQ(asset.clips[0].channels.size(), 52u);
  EXPECT_EQ(ChannelOf(asset, "leftEye"), nullptr);
  EXPECT_EQ(asset.rig.nodes.size(), 55u);  // the rig still lists them, for writers keeping order
  bool noted = false;
  for (const std::string& note : asset.notes) {
    noted = noted || note.find("3 bones written as 0,0,0,0") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

TEST(UnityCsvReaderTest, ZeroQuaternionInSomeRowsSkipsThoseKeys) {
  const Asset asset =
      Read(Row({0, 0, 0, 1}) + "\n" + Row({0, 0, 0, 1}, {0}) + "\n" + Row({0, 0, 0, 1}) + "\n");
  EXPECT_EQ(ChannelOf(asset, "hips")->times_seconds, (std::vector<double>{0, 0.4}));
}

// Only 0,0,0,0 marks a missing bone. The exporter prints 3 decimals, so every half turn (and any
// key with |w| < 0.0005) is written with w = 0.000: such keys are rotations, in every row and in
// some.
TEST(UnityCsvReaderTest, HalfTurnKeysWithZeroWAreRotations) {
  const Asset asset =
      Read(Row({0, 1, 0, 0}) + "\n" + Row({0, 0, 0, 1}) + "\n" + Row({0.6, 0, 0.8, 0}) + "\n");
  EXPECT_EQ(asset.clips[0].channels.size(), 55u);
  const Channel* hips = ChannelOf(asset, "hips");
  ASSERT_NE(hips, nullptr);
  EXPECT_EQ(hips->times_seconds, (std::vector<double>{0, 0.2, 0.4}));
  ASSERT_EQ(hips->values.size(), 12u);
  EXPECT_EQ(std::vector<double>(hips->values.begin(), hips->values.begin() + 4),
            (std::vector<double>{0, 1, 0, 0}));
  EXPECT_EQ(std::vector<double>(hips->values.begin() + 8, hips->values.end()),
            (std::vector<double>{0.6, 0, 0.8, 0}));
  for (const std::string& note : asset.notes) EXPECT_EQ(note.find("0,0,0,0"), std::string::npos);
}

TEST(UnityCsvReaderTest, AllBonesMissingIsAnError) {
  std::vector<int> all(55);
  for (int i = 0; i < 55; ++i) all[i] = i;
  EXPECT_NE(ReadError(Row({0, 0, 0, 1}, all)).second.find("no bone has any data"),
            std::string::npos);
}

TEST(UnityCsvReaderTest, BlankLinesDoNotInflateTheReservation) {
  // Found by the bad corpus: storage was reserved per line, so 1 MiB of blank lines asked for
  // 2.2 GB. Rows are now bounded by the bytes a row needs.
  const Asset asset = Read(std::string(1 << 20, '\n') + Row({0, 0, 0, 1}));
  EXPECT_LT(asset.clips[0].channels[0].values.capacity(), 20000u);
}

TEST(UnityCsvReaderTest, EmptyInputIsAnError) {
  EXPECT_NE(ReadError("").second.find("no data rows"), std::string::npos);
  EXPECT_NE(ReadError("\n\r\n  \n").second.find("no data rows"), std::string::npos);
}

TEST(UnityCsvReaderTest, ShortRowNamesLineColumnAndExpectation) {
  const std::string good = Row({0, 0, 0, 1});
  const std::string short_row = good.substr(0, good.size() - 24);  // drops 4 values
  const auto [location, message] = ReadError(good + "\n" + short_row + "\n");
  EXPECT_EQ(location, fmt::format("2:{}", short_row.size() + 1));
  EXPECT_NE(message.find("found 216 values, expected 220 (55 bones x 4"), std::string::npos)
      << message;
}

TEST(UnityCsvReaderTest, LongRowIsAnError) {
  const auto [location, message] = ReadError(Row({0, 0, 0, 1}) + "0.5,\n");
  EXPECT_EQ(location, "1:1321");
  EXPECT_NE(message.find("more than 220 values"), std::string::npos) << message;
}

TEST(UnityCsvReaderTest, NonNumbersNanAndInfAreRejectedWithTheirPlace) {
  const std::string good = Row({0, 0, 0, 1});
  for (const std::string bad : {"abc", "NaN", "nan", "inf", "-Infinity", "1e999", "--1", ""}) {
    std::string row = good;
    row.replace(6, 5, bad);  // the second value, "0.000" -> bad
    const auto [location, message] = ReadError(row);
    EXPECT_EQ(location, "1:7") << bad;
    EXPECT_NE(message.find("expected a number for hips.y"), std::string::npos) << message;
  }
}

TEST(UnityCsvReaderTest, GarbageAfterANumberIsRejected) {
  std::string row = Row({0, 0, 0, 1});
  row.replace(0, 5, "0.5x0");
  const auto [location, message] = ReadError(row);
  EXPECT_EQ(location, "1:4");
  EXPECT_NE(message.find("expected ',' after hips.x"), std::string::npos) << message;
}

TEST(UnityCsvReaderTest, BoneListSetsOrderCountAndNames) {
  ReadOptions options;
  options.bone_names = {"J_Bip_C_Hips", "spine"};
  const Asset asset = Read("0,0,0,1,0.1,0,0,0.995,\n", options);
  ASSERT_EQ(asset.rig.nodes.size(), 2u);
  EXPECT_EQ(asset.rig.nodes[0].name, "J_Bip_C_Hips");
  EXPECT_FALSE(asset.rig.nodes[0].human_bone.has_value());
  EXPECT_EQ(asset.rig.nodes[1].human_bone, HumanBone::kSpine);
  const auto [location, message] = ReadError(Row({0, 0, 0, 1}), options);
  EXPECT_NE(message.find("expected 8 (2 bones x 4"), std::string::npos) << message;
}

TEST(UnityCsvReaderTest, IntervalSetsRowTimes) {
  ReadOptions options;
  options.row_interval_seconds = 1.0 / 30;
  const Asset asset = Read(Row({0, 0, 0, 1}) + "\n" + Row({0, 0, 0, 1}) + "\n", options);
  EXPECT_DOUBLE_EQ(ChannelOf(asset, "hips")->times_seconds[1], 1.0 / 30);
}

// Files of 4 MiB and more are parsed in blocks on every core (formats/csv/unity_csv_reader.cpp);
// these check that the result is the serial one: absolute row times, keys in file order, skipped
// zero rows counted across blocks, and the first error in file order reported at its own line.
// Row r holds hips.x = r / 1000 (so key order shows), and blank lines every 100 rows shift line
// numbers away from row numbers.
// Rows whose hips are 0,0,0,0: those from `missing_hips_from` on and those in
// [missing_hips.first, missing_hips.second).
std::string LargeCsv(size_t rows, size_t missing_hips_from, std::vector<std::string>* lines_out,
                     std::pair<size_t, size_t> missing_hips = {0, 0}) {
  const std::string rest = Row({0, 0, 0, 1}).substr(24);  // every bone after hips
  std::string text;
  for (size_t r = 0; r < rows; ++r) {
    if (r % 100 == 0) text += "\r\n";
    const bool missing =
        r >= missing_hips_from || (missing_hips.first <= r && r < missing_hips.second);
    const std::string line =
        (missing ? std::string("0.000,0.000,0.000,0.000,")
                 : fmt::format("{:.3f},0.000,0.000,1.000,", static_cast<double>(r) / 1000)) +
        rest;
    text += line + "\n";
    if (lines_out) lines_out->push_back(line);
  }
  return text;
}

// A LargeCsv text read at 120 rows a second; it must be large enough to be cut into blocks.
Asset ReadLargeCsv(const std::string& text) {
  EXPECT_GT(text.size(), size_t{4} << 20);
  ReadOptions options;
  options.row_interval_seconds = 1.0 / 120;
  return Read(text, options);
}

TEST(UnityCsvReaderTest, LargeFileParsedInBlocksEqualsTheSerialResult) {
  const size_t rows = 4000;  // 1,321 bytes a row: 5.3 MB
  const Asset asset = ReadLargeCsv(LargeCsv(rows, 3000, nullptr));
  const Channel* hips = ChannelOf(asset, "hips");
  ASSERT_NE(hips, nullptr);
  ASSERT_EQ(hips->key_count(), 3000u);  // rows 3000.. are 0,0,0,0 for hips
  for (size_t k = 0; k < hips->key_count(); ++k) {
    ASSERT_EQ(hips->times_seconds[k], static_cast<double>(k) * (1.0 / 120)) << k;
    ASSERT_EQ(hips->key_value(k)[0], static_cast<double>(k) / 1000) << k;
  }
  const Channel* spine = ChannelOf(asset, "spine");
  ASSERT_EQ(spine->key_count(), rows);
  EXPECT_EQ(spine->times_seconds.back(), static_cast<double>(rows - 1) * (1.0 / 120));
  EXPECT_EQ(asset.clips[0].duration_seconds, static_cast<double>(rows - 1) * (1.0 / 120));
  bool noted = false;
  for (const std::string& note : asset.notes) {
    noted |= note == "bone 'hips' is 0,0,0,0 in 1000 of 4000 rows; those keys were skipped";
  }
  EXPECT_TRUE(noted);
}

// Every block writes its keys where the rows before it could at most have ended; a first block
// that skipped rows (blank lines, and here hips' 0,0,0,0 rows 500..1499) leaves a gap that the
// keys after it close, in order.
TEST(UnityCsvReaderTest, LargeFileWithKeysSkippedInTheFirstBlockClosesTheGap) {
  const size_t rows = 4000;
  const Asset asset = ReadLargeCsv(LargeCsv(rows, rows, nullptr, {500, 1500}));
  const Channel* hips = ChannelOf(asset, "hips");
  ASSERT_NE(hips, nullptr);
  ASSERT_EQ(hips->key_count(), rows - 1000);
  ASSERT_EQ(hips->values.size(), (rows - 1000) * 4);
  for (size_t k = 0; k < hips->key_count(); ++k) {
    const size_t row = k < 500 ? k : k + 1000;
    ASSERT_EQ(hips->times_seconds[k], static_cast<double>(row) * (1.0 / 120)) << k;
    ASSERT_EQ(hips->key_value(k)[0], static_cast<double>(row) / 1000) << k;
    ASSERT_EQ(hips->key_value(k)[3], 1.0) << k;
  }
  const Channel* spine = ChannelOf(asset, "spine");
  ASSERT_EQ(spine->key_count(), rows);
  for (size_t k = 0; k < rows; ++k) {
    ASSERT_EQ(spine->times_seconds[k], static_cast<double>(k) * (1.0 / 120)) << k;
  }
}

TEST(UnityCsvReaderTest, LargeFileReportsTheFirstErrorInFileOrderAtItsLine) {
  std::vector<std::string> lines;
  const std::string good = LargeCsv(4000, 4000, &lines);
  // Line numbers: a blank line before rows 0, 100, 200...: row r is on line r + r / 100 + 2.
  const auto line_of = [](size_t row) { return row + row / 100 + 2; };
  const auto spoil = [&](std::string text, size_t row) {
    const size_t at = text.find(lines[row]);
    text.replace(at + 6, 5, "abcde");  // hips.y
    return text;
  };
  const std::string late = spoil(good, 3900);
  EXPECT_EQ(ReadError(late).first, fmt::format("{}:7", line_of(3900)));
  EXPECT_EQ(ReadError(spoil(late, 150)).first, fmt::format("{}:7", line_of(150)));
}

TEST(UnityCsvReaderTest, ParseBoneListSkipsCommentsAndRejectsDuplicates) {
  EXPECT_EQ(ParseBoneList("\xEF\xBB\xBFhips\r\n# comment\n\nspine \n", "b.txt"),
            (std::vector<std::string>{"hips", "spine"}));
  EXPECT_THROW(ParseBoneList("hips\nhips\n", "b.txt"), Error);
  EXPECT_THROW(ParseBoneList("\n# only a comment\n", "b.txt"), Error);
}

TEST(UnityCsvReaderTest, DefaultBoneNamesMatchTheArticleBoneList) {
  EXPECT_EQ(DefaultUnityBoneNames(),
            ParseBoneList(testing::ReadText(testing::SourcePath("data/unity/bone.txt")), "b"));
}

TEST(UnityCsvReaderTest, SniffLooksForANumberFirst) {
  EXPECT_TRUE(SniffUnityCsv("\xEF\xBB\xBF\n0.030,"));
  EXPECT_TRUE(SniffUnityCsv("-0,5;"));
  EXPECT_FALSE(SniffUnityCsv("time,hips.rotation.x"));
  EXPECT_FALSE(SniffUnityCsv(""));
}

}  // namespace
}  // namespace animconv
