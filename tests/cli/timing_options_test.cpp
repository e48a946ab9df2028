// `animconv convert` with the timing options (--trim, --speed, --offset, --resample,
// --interpolation, --loop) through the real binary, checked the way three.js reads the output.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Walk() { return testing::SourcePath("data/unity/walk.csv"); }

nlohmann::json Convert(const TempDir& dir, const std::string& options, const std::string& name) {
  const auto result = RunAnimconv("convert " + Walk() + " -o " + dir.File(name) + options);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return nlohmann::json::parse(testing::ReadText(dir.File(name)));
}

// Quaternion number `key` of a track equals `expected` up to sign (hemisphere alignment may
// start its chain from a different key).
void ExpectSameRotation(const nlohmann::json& values, size_t key, const nlohmann::json& expected,
                        size_t expected_key, const std::string& track) {
  double plus = 0;
  double minus = 0;
  for (size_t i = 0; i < 4; ++i) {
    const double a = values[4 * key + i];
    const double b = expected[4 * expected_key + i];
    plus = std::max(plus, std::abs(a - b));
    minus = std::max(minus, std::abs(a + b));
  }
  EXPECT_LT(std::min(plus, minus), 1e-7) << track << " key " << key;
}

TEST(TimingOptionsTest, ResampleTrimSpeedLoopAsThreeJsReadsIt) {
  TempDir dir;
  const nlohmann::json clip =
      Convert(dir, " --resample 30 --trim 2:6 --speed 1.5 --loop", "looped.json");
  // 4 s of input at 1.5x: 2.667 s, on a 30 fps grid from 0: 81 keys per track.
  EXPECT_NEAR(clip["duration"].get<double>(), 4 / 1.5, 1e-6);  // written as float32
  ASSERT_EQ(clip["tracks"].size(), 51u);
  for (const nlohmann::json& track : clip["tracks"]) {
    const std::string name = track["name"];
    ASSERT_EQ(track["times"].size(), 81u) << name;
    for (size_t k = 0; k < 81; ++k)
      EXPECT_NEAR(track["times"][k].get<double>(), static_cast<double>(k) / 30.0, 1e-6);
    ASSERT_EQ(track["values"].size(), 81u * 4) << name;
    ExpectSameRotation(track["values"], 80, track["values"], 0, name);  // loops without a pop
  }
}

TEST(TimingOptionsTest, ResampleAtTheOriginalRateWritesTheSameClip) {
  TempDir dir;
  nlohmann::json plain = Convert(dir, "", "plain.json");
  nlohmann::json resampled = Convert(dir, " --resample 5", "resampled.json");
  plain.erase("uuid");  // random per file
  resampled.erase("uuid");
  EXPECT_TRUE(resampled == plain);  // every time and value, bit for bit
  // The identity above holds for an ignored --resample too: the option must also act. Twice the
  // rate keeps every row as an even key and adds one key between rows.
  const nlohmann::json doubled = Convert(dir, " --resample 10", "doubled.json");
  ASSERT_EQ(doubled["tracks"].size(), plain["tracks"].size());
  for (size_t t = 0; t < plain["tracks"].size(); ++t) {
    const std::string name = plain["tracks"][t]["name"];
    const size_t rows = plain["tracks"][t]["times"].size();
    ASSERT_EQ(rows, 60u) << name;
    ASSERT_EQ(doubled["tracks"][t]["times"].size(), 2 * rows - 1) << name;
    for (size_t k = 0; k < 2 * rows - 1; ++k) {
      EXPECT_NEAR(doubled["tracks"][t]["times"][k].get<double>(), static_cast<double>(k) / 10,
                  1e-6);
    }
    for (size_t k = 0; k < rows; ++k) {
      ExpectSameRotation(doubled["tracks"][t]["values"], 2 * k, plain["tracks"][t]["values"], k,
                         name);
    }
  }
}

TEST(TimingOptionsTest, TrimStartsAtZeroWithTheValuesOfTheCut) {
  TempDir dir;
  const nlohmann::json plain = Convert(dir, "", "plain.json");
  const nlohmann::json trimmed = Convert(dir, " --trim 2:", "trimmed.json");
  EXPECT_NEAR(trimmed["duration"].get<double>(), 11.8 - 2, 1e-6);
  // The cut at 2 s is row 10; 2.1 s lies halfway between rows 10 and 11.
  const nlohmann::json half = Convert(dir, " --trim 2.1:2.9", "half.json");
  for (size_t t = 0; t < plain["tracks"].size(); ++t) {
    const std::string name = plain["tracks"][t]["name"];
    ASSERT_EQ(trimmed["tracks"][t]["times"].size(), 50u);
    ExpectSameRotation(trimmed["tracks"][t]["values"], 0, plain["tracks"][t]["values"], 10, name);
    ExpectSameRotation(trimmed["tracks"][t]["values"], 49, plain["tracks"][t]["values"], 59, name);
    // 2.1 .. 2.9 s: the cut keys, then the rows at 2.2 .. 2.8 s.
    ASSERT_EQ(half["tracks"][t]["times"].size(), 6u);
    ExpectSameRotation(half["tracks"][t]["values"], 1, plain["tracks"][t]["values"], 11, name);
  }
}

TEST(TimingOptionsTest, BadValuesAreUsageErrorsAndWriteNothing) {
  TempDir dir;
  const std::string convert = "convert " + Walk() + " -o " + dir.File("out.json");
  const std::pair<const char*, const char*> cases[] = {
      {" --speed 0", "--speed 0: must be a number above 0"},
      {" --resample -30", "--resample -30: must be frames per second above 0"},
      {" --trim 2:100", "--trim 2:100: clip 'walk' is only 11.8 s long"},
      {" --trim 6:2", "0 <= START < END"},
      {" --trim two:6", "--trim two:6: 'two' is not a number of seconds"},
      {" --trim 2", "--trim must be START:END"},
      {" --offset -1", "before 0 (use --trim to cut the start)"},
      {" --interpolation cubic", "--interpolation must be linear or step"},
      {" --loop-blend 0.5", "--loop-blend needs --loop"},
      {" --loop --loop-blend 0", "--loop-blend 0: must be seconds above 0"},
  };
  for (const auto& [options, message] : cases) {
    const auto result = RunAnimconv(convert + options);
    EXPECT_EQ(result.exit_code, 1) << options;
    EXPECT_NE(result.output.find(message), std::string::npos) << options << ": " << result.output;
  }
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(TimingOptionsTest, StepOutputKeepsHoldsWhenMadeLinearAgain) {
  TempDir dir;
  // Linear -> step keeps the keys; step -> linear adds a hold 1 ms before each change.
  Convert(dir, " --interpolation step", "step.gltf");
  const auto result = RunAnimconv("convert " + dir.File("step.gltf") + " -o " +
                                  dir.File("linear.json") + " --interpolation linear");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json linear = nlohmann::json::parse(testing::ReadText(dir.File("linear.json")));
  const nlohmann::json& times = linear["tracks"][0]["times"];
  ASSERT_GT(times.size(), 60u);
  EXPECT_NEAR(times[1].get<double>(), 0.2 - 0.001, 1e-6);
  EXPECT_NEAR(times[2].get<double>(), 0.2, 1e-6);
}

}  // namespace
}  // namespace animconv
