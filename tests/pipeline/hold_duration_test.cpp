// HoldToDuration (pipeline/hold_duration.h): a clip lasting past its last key keeps its ending in
// a format whose files end at their last key (review of session 35: a three.js clip holding its
// last pose for a second looped back early in GLTFLoader, 90° off, exit 0).
#include "pipeline/hold_duration.h"

#include <gtest/gtest.h>

#include "animconv/format.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

Asset TwoSecondsOfOneSecondKeys(Interpolation interpolation) {
  Asset asset = MakeAsset({"hips", "spine"});
  Channel rotation = MakeChannel(0, Path::kRotation, {0, 1}, {0, 0, 0, 1, 1, 0, 0, 0}, 4);
  if (interpolation == Interpolation::kCubicSpline) {
    // [in, value, out] per key; the last out-tangent nonzero.
    rotation.values = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 5, 5, 5};
  }
  rotation.interpolation = interpolation;
  asset.clips[0].channels.push_back(rotation);
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 0.5}, {0, 0, 0, 1, 0, 1, 0, 0}, 4));
  asset.clips[0].duration_seconds = 2;
  return asset;
}

TEST(HoldDurationTest, TheChannelEndingLastHoldsItsValueToTheDuration) {
  Asset asset = TwoSecondsOfOneSecondKeys(Interpolation::kLinear);
  Diagnostics diagnostics;
  HoldToDuration(asset, *FindFormat("glb"), &diagnostics);
  const Channel& held = asset.clips[0].channels[0];
  EXPECT_EQ(held.times_seconds, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(held.values, (std::vector<double>{0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(asset.clips[0].channels[1].times_seconds, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(asset.clips[0].duration(), 2);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].text.find("'hips.rotation' holds its last value to 2 s"),
            std::string::npos);
}

TEST(HoldDurationTest, ACubicSplineIsHeldFlat) {
  Asset asset = TwoSecondsOfOneSecondKeys(Interpolation::kCubicSpline);
  HoldToDuration(asset, *FindFormat("gltf"), nullptr);
  const Channel& held = asset.clips[0].channels[0];
  EXPECT_EQ(held.times_seconds, (std::vector<double>{0, 1, 2}));
  // The last key's out-tangent and the new key's tangents are zero: the segment is flat.
  EXPECT_EQ(std::vector<double>(held.values.begin() + 12, held.values.end()),
            (std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(HoldDurationTest, FormatsWithADurationAndClipsEndingAtTheirKeysAreLeftAlone) {
  for (const char* id : {"three", "three-hierarchy", "bvh"}) {
    Asset asset = TwoSecondsOfOneSecondKeys(Interpolation::kLinear);
    HoldToDuration(asset, *FindFormat(id), nullptr);
    EXPECT_EQ(asset.clips[0].channels[0].key_count(), 2u) << id;
  }
  Asset ends = TwoSecondsOfOneSecondKeys(Interpolation::kLinear);
  ends.clips[0].duration_seconds = 1;
  HoldToDuration(ends, *FindFormat("glb"), nullptr);
  EXPECT_EQ(ends.clips[0].channels[0].key_count(), 2u);
}

}  // namespace
}  // namespace animconv
