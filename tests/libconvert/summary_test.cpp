#include "animconv/summary.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

TEST(SummaryTest, CountsChannelsKeysRateTargetsAndMissingBones) {
  Asset asset = MakeAsset({"hips", "spine", "tail"});
  asset.rig.nodes[0].human_bone = HumanBone::kHips;
  asset.rig.nodes[1].human_bone = HumanBone::kSpine;
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 0.2, 0.4}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, 4));
  asset.clips[0].channels.push_back(MakeChannel(
      0, Path::kTranslation, {0, 0.2, 0.4}, std::vector<double>(9, 0), 3, Interpolation::kStep));
  const AssetSummary summary = Summarize(asset);
  ASSERT_EQ(summary.clips.size(), 1u);
  const ClipSummary& clip = summary.clips[0];
  EXPECT_EQ(summary.humanoid_node_count, 2u);
  EXPECT_EQ(clip.channel_count, 2u);
  EXPECT_EQ(clip.channels_per_path[static_cast<int>(Path::kRotation)], 1u);
  EXPECT_EQ(clip.channels_per_interpolation[static_cast<int>(Interpolation::kStep)], 1u);
  EXPECT_EQ(clip.key_count, 6u);
  ASSERT_TRUE(clip.key_rate_hz.has_value());
  EXPECT_NEAR(*clip.key_rate_hz, 5, 1e-9);
  EXPECT_EQ(clip.targets, std::vector<std::string>{"hips"});
  EXPECT_EQ(clip.missing_humanoid, std::vector<std::string>{"spine"});
  EXPECT_DOUBLE_EQ(clip.duration_seconds, 0.4);
}

TEST(SummaryTest, UnevenKeysHaveNoRate) {
  EXPECT_FALSE(UniformInterval({0, 0.1, 0.3}).has_value());
  EXPECT_FALSE(UniformInterval({0}).has_value());
  EXPECT_NEAR(*UniformInterval({1, 1.5, 2}), 0.5, 1e-12);
}

}  // namespace
}  // namespace animconv
