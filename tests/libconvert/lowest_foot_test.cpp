#include "libconvert/lowest_foot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "animconv/quaternion.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::AxisAngle;
using testing::MakeAsset;
using testing::MakeChannel;

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A root, hips and two legs of three joints each (upper leg, lower leg, foot, toes), the legs'
// joints swinging about X by up to `swing` degrees a key, the hips bobbing; keys 1/30 s apart.
// `mirror`: the right leg moves as the left does, so both feet reach the same lowest height at
// once (a tie the search must break as posing every sample does: the left foot first).
Asset Walker(std::mt19937& random, double swing, bool mirror, int keys) {
  Asset asset = MakeAsset(
      {"root", "hips", "l_up", "l_low", "l_foot", "l_toes", "r_up", "r_low", "r_foot", "r_toes"});
  Rig& rig = asset.rig;
  rig.rest_pose_known = true;
  std::uniform_real_distribution<double> unit(-1, 1);
  rig.nodes[0].rest_scale = {0.01, 0.01, 0.01};  // centimetres, as an FBX armature
  rig.nodes[0].rest_rotation = AxisAngle('Y', 90);
  rig.nodes[1].parent = 0;
  rig.nodes[1].rest_translation = {0, 95, 0};
  const double lengths[4] = {-8, -45, -42, -12};
  for (int side = 0; side < 2; ++side) {
    for (int j = 0; j < 4; ++j) {
      Node& node = rig.nodes[static_cast<size_t>(2 + side * 4 + j)];
      node.parent = j == 0 ? 1 : 2 + side * 4 + j - 1;
      node.rest_translation = {j == 0 ? (side ? -9.0 : 9.0) : 0, lengths[j], j == 3 ? 10.0 : 0};
    }
  }
  Clip& clip = asset.clips[0];
  std::vector<double> times;
  for (int k = 0; k < keys; ++k) times.push_back(k / 30.0);
  std::vector<double> hips;
  for (int k = 0; k < keys; ++k) hips.insert(hips.end(), {unit(random), 95 + 3 * unit(random), 0});
  clip.channels.push_back(MakeChannel(1, Path::kTranslation, times, hips, 3));
  std::vector<std::vector<double>> left(4);
  for (int k = 0; k < keys; ++k) {
    for (int j = 0; j < 4; ++j) {
      const Quat q = Normalized(Quat{swing / 90 * unit(random), 0.1 * unit(random), 0, 1});
      left[static_cast<size_t>(j)].insert(left[static_cast<size_t>(j)].end(), q.begin(), q.end());
    }
  }
  for (int side = 0; side < 2; ++side) {
    for (int j = 0; j < 4; ++j) {
      std::vector<double> values = left[static_cast<size_t>(j)];
      if (side == 1 && !mirror) {
        for (int k = 0; k < keys; ++k) {
          const Quat q = Normalized(Quat{swing / 90 * unit(random), 0.1 * unit(random), 0, 1});
          std::copy(q.begin(), q.end(), values.begin() + k * 4);
        }
      }
      clip.channels.push_back(MakeChannel(2 + side * 4 + j, Path::kRotation, times, values, 4));
    }
  }
  return asset;
}

// The search that skips the feet it can bound above the keys' lowest finds what posing every
// sample finds, to the bit: height, joint and time, over clips whose lowest point lies between
// keys, on a key, or is reached by both feet at once.
TEST(LowestFootTest, SkippingFeetFindsWhatPosingEverySampleFinds) {
  std::mt19937 random(71207);
  const std::vector<int> feet = {4, 5, 8, 9};
  int between_keys = 0;
  int ties = 0;
  for (int round = 0; round < 60; ++round) {
    const bool mirror = round % 3 == 0;
    const Asset asset = Walker(random, round % 2 ? 40 : 4, mirror, 20 + round * 7);
    const FootSamples samples = SampleFeet(asset.clips[0], 8, size_t{1} << 20);
    ASSERT_EQ(samples.between, 8u);
    const Lowest fast = FindLowest(asset.rig, asset.clips[0], feet, samples);
    const Lowest every = FindLowestPosingEverySample(asset.rig, asset.clips[0], feet, samples);
    EXPECT_TRUE(SameBits(fast.metres, every.metres))
        << round << ": " << fast.metres << " against " << every.metres;
    EXPECT_EQ(fast.node, every.node) << round;
    EXPECT_TRUE(SameBits(fast.seconds, every.seconds)) << round;
    const double keys = every.seconds * 30;
    if (std::abs(keys - std::round(keys)) > 1e-6) ++between_keys;
    if (mirror) ++ties;
  }
  EXPECT_GT(between_keys, 10);  // the case the travel bound is for
  EXPECT_EQ(ties, 20);
}

// A step or cubic-spline channel, or a scale channel, on a foot's chain leaves no bound on how
// far the foot travels between keys: every sample is posed, and the answer is the same.
TEST(LowestFootTest, StepCubicAndScaleChannelsArePosedEverywhere) {
  std::mt19937 random(12);
  const std::vector<int> feet = {4, 5, 8, 9};
  for (int kind = 0; kind < 3; ++kind) {
    Asset asset = Walker(random, 30, false, 40);
    Clip& clip = asset.clips[0];
    if (kind == 0) clip.channels[3].interpolation = Interpolation::kStep;
    if (kind == 1) {
      Channel& channel = clip.channels[3];
      std::vector<double> values;
      for (size_t k = 0; k < channel.key_count(); ++k) {
        const double* q = channel.key_value(k);
        values.insert(values.end(), {0, 0, 0, 0, q[0], q[1], q[2], q[3], 0, 0, 0, 0});
      }
      channel.values = values;
      channel.interpolation = Interpolation::kCubicSpline;
    }
    if (kind == 2) {
      clip.channels.push_back(MakeChannel(3, Path::kScale, {0, 1}, {1, 1, 1, 1, 0.5, 1}, 3));
    }
    const FootSamples samples = SampleFeet(clip, 8, size_t{1} << 20);
    const Lowest fast = FindLowest(asset.rig, clip, feet, samples);
    const Lowest every = FindLowestPosingEverySample(asset.rig, clip, feet, samples);
    EXPECT_TRUE(SameBits(fast.metres, every.metres)) << kind;
    EXPECT_EQ(fast.node, every.node) << kind;
    EXPECT_TRUE(SameBits(fast.seconds, every.seconds)) << kind;
  }
}

}  // namespace
}  // namespace animconv
