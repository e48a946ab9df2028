#include "animconv/model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "animconv/error.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

Asset ValidAsset() {
  Asset asset = MakeAsset({"hips", "spine"});
  asset.rig.nodes[1].parent = 0;
  asset.clips[0].channels.push_back(
      MakeChannel(1, Path::kRotation, {0, 0.5}, {0, 0, 0, 1, 0, 0, 0, 1}, 4));
  return asset;
}

void ExpectInvalid(const Asset& asset, const std::string& fragment) {
  try {
    ValidateAsset(asset, "test.src");
    FAIL() << "expected an error mentioning " << fragment;
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    EXPECT_EQ(error.source(), "test.src");
  }
}

TEST(ModelTest, ValidAssetPasses) { EXPECT_NO_THROW(ValidateAsset(ValidAsset(), "x")); }

// A clip large enough to be checked on every core (ForEachChannel) still reports the first fault
// in channel order, whichever thread meets it first: here channel 3's, not channel 60's.
TEST(ModelTest, ALargeClipReportsItsFirstFaultInChannelOrder) {
  Asset asset = MakeAsset({"hips"});
  std::vector<double> times, values;
  for (int k = 0; k < 1000; ++k) {
    times.push_back(k * 0.01);
    values.insert(values.end(), {0, 0, 0, 1});
  }
  for (int c = 0; c < 64; ++c) {
    asset.clips[0].channels.push_back(MakeChannel(0, Path::kRotation, times, values, 4));
  }
  asset.clips[0].channels[60].values[5] = NAN;
  asset.clips[0].channels[3].values[17] = INFINITY;
  for (int run = 0; run < 20; ++run) ExpectInvalid(asset, "clip 0 channel 3: value 17");
}

TEST(ModelTest, RejectsNonIncreasingTimes) {
  Asset asset = ValidAsset();
  asset.clips[0].channels[0].times_seconds = {0.5, 0.5};
  ExpectInvalid(asset, "increasing");
}

TEST(ModelTest, RejectsNegativeAndNonFiniteTimes) {
  Asset asset = ValidAsset();
  asset.clips[0].channels[0].times_seconds = {-1, 0};
  ExpectInvalid(asset, "increasing");
  asset.clips[0].channels[0].times_seconds = {0, NAN};
  ExpectInvalid(asset, "finite");
}

TEST(ModelTest, RejectsWrongValueCountAndWidth) {
  Asset asset = ValidAsset();
  asset.clips[0].channels[0].values.pop_back();
  ExpectInvalid(asset, "values for 2 keys");
  asset = ValidAsset();
  asset.clips[0].channels[0].width = 3;
  ExpectInvalid(asset, "components per key");
}

TEST(ModelTest, RejectsNonFiniteValuesEmptyChannelsAndBadNodes) {
  Asset asset = ValidAsset();
  asset.clips[0].channels[0].values[2] = INFINITY;
  ExpectInvalid(asset, "not finite");
  asset = ValidAsset();
  asset.clips[0].channels[0].times_seconds.clear();
  asset.clips[0].channels[0].values.clear();
  ExpectInvalid(asset, "no keys");
  asset = ValidAsset();
  asset.clips[0].channels[0].node = 7;
  ExpectInvalid(asset, "missing node 7");
}

TEST(ModelTest, RejectsParentCycles) {
  Asset asset = ValidAsset();
  asset.rig.nodes[0].parent = 1;
  ExpectInvalid(asset, "cycle");
}

TEST(ModelTest, CubicSplineNeedsTwoKeysAndThreeElementsPerKey) {
  Asset asset = ValidAsset();
  Channel& channel = asset.clips[0].channels[0];
  channel.interpolation = Interpolation::kCubicSpline;
  ExpectInvalid(asset, "values for 2 keys, expected 24");
  channel.values.assign(12, 0);
  channel.times_seconds = {0};
  ExpectInvalid(asset, "at least 2 keys");
}

TEST(ModelTest, DurationIsLastKeyUnlessSet) {
  Asset asset = ValidAsset();
  EXPECT_EQ(asset.clips[0].duration(), 0.5);
  asset.clips[0].duration_seconds = 2.0;
  EXPECT_EQ(asset.clips[0].duration(), 2.0);
}

TEST(ModelTest, KeyValuePointsAtTheMiddleElementOfCubicKeys) {
  Channel channel =
      MakeChannel(0, Path::kWeights, {0, 1}, {1, 2, 3, 4, 5, 6}, 1, Interpolation::kCubicSpline);
  EXPECT_EQ(*channel.key_value(0), 2);
  EXPECT_EQ(*channel.key_value(1), 5);
}

// Issue 14: the cycle check walked to the root from every node, O(n·depth): minutes for one
// chain of 2·10⁵ nodes. One pass now; parents may follow their children in the list.
TEST(HierarchyFaultTest, LongChainIsOnePass) {
  const size_t n = 200000;
  std::vector<int> parents(n);
  for (size_t i = 0; i < n; ++i) parents[i] = i + 1 < n ? static_cast<int>(i + 1) : -1;
  EXPECT_FALSE(FindHierarchyFault(parents, n));
  const auto fault = FindHierarchyFault(parents, n - 1);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind, HierarchyFault::kTooDeep);
  EXPECT_EQ(fault->node, 0u);  // the deepest node, n levels below the root n-1
  Asset asset;
  asset.rig.nodes.resize(n);
  for (size_t i = 0; i < n; ++i) asset.rig.nodes[i].parent = parents[i];
  EXPECT_NO_THROW(ValidateAsset(asset, "chain"));
}

TEST(HierarchyFaultTest, CycleIsFoundFromTheFirstNodeLeadingIntoIt) {
  const std::vector<int> parents = {-1, 3, 1, 2, 0};
  const auto fault = FindHierarchyFault(parents, 100);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->kind, HierarchyFault::kCycle);
  EXPECT_EQ(fault->node, 1u);
  EXPECT_FALSE(FindHierarchyFault({-1, 0, 1, 0}, 3));
  EXPECT_EQ(FindHierarchyFault({-1, 0, 1, 0}, 2)->node, 2u);
}

}  // namespace
}  // namespace animconv
