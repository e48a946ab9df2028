// BVH's one Frame Time (formats/bvh/bvh_frames.cpp): which grid a clip is written on, and what a
// warning advises when the frames miss the keys.
#include "formats/bvh/bvh_frames.h"

#include <gtest/gtest.h>

#include <vector>

#include "formats/bvh/bvh_writer.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

// A rotation channel with keys at `times`, turning 0, 30, 0, 30, ... degrees about X.
Asset Clip(const std::vector<double>& times) {
  Asset asset = MakeAsset({"Hips"});
  std::vector<double> values;
  for (size_t k = 0; k < times.size(); ++k) {
    const double angle = (k % 2 ? 15.0 : 0.0) * 3.14159265358979323846 / 180;
    values.insert(values.end(), {std::sin(angle), 0, 0, std::cos(angle)});
  }
  asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, times, values, 4));
  return asset;
}

BvhFrames Choose(const Asset& asset) {
  const Channel& channel = asset.clips[0].channels[0];
  return ChooseBvhFrames(asset.clips[0], {&channel}, std::nullopt);
}

// A glTF's key times are float32: k/24 at 62 s is up to 3.8e-6 s off, beyond the 1e-6 s the grid
// test allowed, and such clips were sampled at 30 fps (review 3: a 62 s 24 fps clip 10.6° off
// after glTF and back; bevy_animations_node_trs.gltf 1.24 mm off).
TEST(BvhFramesTest, Float32KeyTimesOfALongClipAreItsOwnGrid) {
  std::vector<double> times;
  for (int k = 0; k <= 24 * 62; ++k) times.push_back(static_cast<float>(k / 24.0));
  const BvhFrames frames = Choose(Clip(times));
  EXPECT_TRUE(frames.on_key_grid);
  EXPECT_NEAR(frames.interval_seconds, 1 / 24.0, 1e-9);
  EXPECT_EQ(frames.count, times.size());
  // Computed in float32 arithmetic too (k * (1.0f / 24)), as exporters do.
  times.clear();
  for (int k = 0; k <= 24 * 62; ++k) times.push_back(static_cast<float>(k) * (1.0f / 24));
  EXPECT_NEAR(Choose(Clip(times)).interval_seconds, 1 / 24.0, 1e-9);
}

// 24 fps keys with one gap of 24/120 s: no 24 fps grid holds them, the 120 fps one does (the
// Fox's "Run" clip, which was sampled at 30 fps and played 8.5° / 0.5 m off).
TEST(BvhFramesTest, KeysOnAMultipleOfTheirDensestRateAreWrittenOnIt) {
  const BvhFrames frames = Choose(Clip({0, 5 / 120.0, 10 / 120.0, 34 / 120.0, 39 / 120.0}));
  EXPECT_TRUE(frames.on_key_grid);
  EXPECT_NEAR(frames.interval_seconds, 1 / 120.0, 1e-9);
  EXPECT_EQ(frames.count, 40u);
  // Nothing up to 120 fps holds these: the densest rate, held to 30 fps.
  const BvhFrames off = Choose(Clip({0, 0.05, 0.123}));
  EXPECT_FALSE(off.on_key_grid);
  EXPECT_FALSE(off.key_grid_seconds);
  EXPECT_NEAR(off.interval_seconds, 1 / 30.0, 1e-9);
}

// Frames that miss 24 fps keys are fixed by --fps 24, not by a higher rate (30 fps never lands on
// them): the warning says so, also when the frames were asked for.
TEST(BvhFramesTest, AdviceIsTheKeysOwnRate) {
  std::vector<double> times;
  for (int k = 0; k <= 48; ++k) times.push_back(k / 24.0);
  const Asset asset = Clip(times);
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  options.row_interval_seconds = 1 / 30.0;
  WriteBvh(asset, options);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("Hips.rotation"), std::string::npos) << diagnostics[0].text;
  EXPECT_NE(diagnostics[0].text.find("; pass --fps 24, the rate whose frames hold every key"),
            std::string::npos)
      << diagnostics[0].text;
}

// A frame samples a channel at its own key where one is within the grid tolerance: the written
// Frame Time's last digits (30 x 0.03333333333 s) and float32 key times put a key a hair after
// its frame, where a step channel still held its old value, and the BVH ended 60 degrees from the
// clip's last pose (review 4). Its step is a ramp over one frame in any BVH: the warning says so.
TEST(BvhFramesTest, AFrameTakesTheKeyItsTimeRoundsPast) {
  Asset asset = Clip({0, 0.5, 1});
  asset.clips[0].channels[0].interpolation = Interpolation::kStep;
  const Channel& channel = asset.clips[0].channels[0];
  EXPECT_EQ(FrameSampleSeconds(channel, 30 * 0.03333333333), 1.0);
  EXPECT_EQ(FrameSampleSeconds(channel, 0.5 - 1e-9), 0.5);
  EXPECT_EQ(FrameSampleSeconds(channel, 0.5 + 1e-9), 0.5 + 1e-9);  // past it: the new value
  EXPECT_EQ(FrameSampleSeconds(channel, 0.75), 0.75);              // no key near
  EXPECT_EQ(FrameSampleSeconds(channel, 1.5), 1.5);
  Asset linear = Clip({0, 0.5, 1});  // sampled where the player shows the frame
  EXPECT_EQ(FrameSampleSeconds(linear.clips[0].channels[0], 0.5 - 1e-9), 0.5 - 1e-9);
  Diagnostics diagnostics;
  WriteOptions options;
  options.diagnostics = &diagnostics;
  options.row_interval_seconds = 1 / 30.0;
  const std::string text = WriteBvh(asset, options);
  // The last frame is the last key's pose (position 0 0 0, rotation Z X Y 0 0 0); the frame
  // before it still holds the middle key's 30 degrees about X.
  const std::string last_line = text.substr(text.rfind('\n', text.size() - 2) + 1);
  EXPECT_EQ(last_line, "0 0 0 0 0 0\n");
  const std::string before_last = text.substr(0, text.rfind('\n', text.size() - 2));
  EXPECT_EQ(before_last.substr(before_last.rfind('\n') + 1), "0 0 0 0 30 0");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("it is a step channel, whose jumps a BVH plays as ramps"),
            std::string::npos)
      << diagnostics[0].text;
}

}  // namespace
}  // namespace animconv
