// The partial-output rule (pipeline/coverage.h, docs/cli.md "Partial outputs").
#include "pipeline/coverage.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeAsset;
using testing::MakeChannel;

// A rotation that turns between its two keys, and a channel that holds the rest value (identity;
// its negation is the same rotation).
Channel Turning(int node) {
  return MakeChannel(node, Path::kRotation, {0, 1}, {0, 0, 0, 1, 0, 0.6, 0, 0.8}, 4);
}
Channel AtRest(int node, Path path = Path::kTranslation) {
  return path == Path::kRotation ? MakeChannel(node, path, {0, 1}, {0, 0, 0, 1, 0, 0, 0, -1}, 4)
                                 : MakeChannel(node, path, {0, 1}, {0, 0, 0, 0, 0, 0}, 3);
}

// hips > spine > chest > neck > head, with humanoid identities.
Asset Humanoid() {
  Asset asset = MakeAsset({"hips", "spine", "chest", "neck", "head"});
  const HumanBone bones[] = {HumanBone::kHips, HumanBone::kSpine, HumanBone::kChest,
                             HumanBone::kNeck, HumanBone::kHead};
  for (int n = 0; n < 5; ++n) {
    asset.rig.nodes[static_cast<size_t>(n)].human_bone = bones[n];
    asset.rig.nodes[static_cast<size_t>(n)].parent = n - 1;
  }
  return asset;
}

const Format& Glb() { return *FindFormat("glb"); }

CoverageLoss Measure(const Asset& input, const Asset& output, const CoverageCheck& check,
                     const Format& format = Glb(), const WriteOptions& write = {}) {
  return MeasureCoverageLoss(DescribeInputCoverage(input), output, format, write, check);
}

TEST(CoverageTest, NoClipOrNoChannelIsPartial) {
  Asset input = MakeAsset({"a"});
  input.clips.clear();
  CoverageLoss loss = Measure(input, input, {false, true, false});
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("no clip"), std::string::npos) << loss.summary;

  input = MakeAsset({"a"});
  loss = Measure(input, input, {false, true, false});
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("no channel"), std::string::npos) << loss.summary;
}

TEST(CoverageTest, EverythingKeptIsNoLoss) {
  Asset input = Humanoid();
  for (int n = 0; n < 5; ++n) input.clips[0].channels.push_back(Turning(n));
  const CoverageLoss loss = Measure(input, input, {true, true, false});
  EXPECT_FALSE(loss.partial);
  EXPECT_TRUE(loss.summary.empty()) << loss.summary;
  EXPECT_TRUE(loss.details.empty());
}

TEST(CoverageTest, LosingMoreThanHalfTheAnimatedChannelsIsPartial) {
  Asset input = MakeAsset({"a", "b", "c"});
  for (int n = 0; n < 3; ++n) input.clips[0].channels.push_back(Turning(n));
  Asset output = input;
  output.clips[0].channels.resize(1);  // only a's
  CoverageLoss loss = Measure(input, output, {false, true, false});
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("2 of the input's 3 animated channel(s)"), std::string::npos)
      << loss.summary;
  EXPECT_NE(loss.summary.find("b.rotation, c.rotation"), std::string::npos) << loss.summary;

  // One of three lost: a warning that names it.
  output.clips[0].channels = {Turning(0), Turning(1)};
  loss = Measure(input, output, {false, true, false});
  EXPECT_FALSE(loss.partial);
  ASSERT_EQ(loss.details.size(), 1u);
  EXPECT_NE(loss.details[0].find("1 of the input's 3 animated channel(s)"), std::string::npos);
  EXPECT_NE(loss.details[0].find("c.rotation"), std::string::npos) << loss.details[0];
}

TEST(CoverageTest, ChannelsThatHoldOneValueAreNoMotionToLose) {
  // Assimp gives every joint a constant translation: dropping those loses no motion, whatever
  // the value. Exactly half lost is not more than half.
  Asset input = MakeAsset({"a", "b"});
  input.clips[0].channels = {Turning(0),
                             AtRest(0),
                             AtRest(1),
                             AtRest(1, Path::kRotation),
                             MakeChannel(1, Path::kScale, {0, 1}, {2, 2, 2, 2, 2, 2}, 3),
                             Turning(1)};
  Asset output = input;
  output.clips[0].channels = {Turning(0)};
  const CoverageLoss loss = Measure(input, output, {false, true, false});
  EXPECT_FALSE(loss.partial) << loss.summary;
  EXPECT_NE(loss.summary.find("1 of the input's 2 animated channel(s)"), std::string::npos)
      << loss.summary;
}

// A channel held still away from its rest value is a pose a player shows (a Unity CSV's curled
// fingers): an output without its node plays it differently, so a warning names it and says how
// far (retargeted onto a model without fingers, walk.csv's 30 finger channels were dropped with
// an info line only: the exit-0 sweep's `skeleton` case). Held at rest, it is no loss.
TEST(CoverageTest, AStillPoseAwayFromRestThatTheOutputLosesIsNamed) {
  Asset input = MakeAsset({"a", "b", "c"});
  const double half = std::sin(M_PI / 12);  // 30 degrees about X
  input.clips[0].channels = {
      Turning(0),
      MakeChannel(1, Path::kRotation, {0, 1},
                  {half, 0, 0, std::cos(M_PI / 12), half, 0, 0, std::cos(M_PI / 12)}, 4),
      AtRest(2, Path::kRotation)};
  Asset output = input;
  output.clips[0].channels = {Turning(0)};
  const CoverageLoss loss = Measure(input, output, {false, true, false});
  EXPECT_FALSE(loss.partial);
  EXPECT_TRUE(loss.summary.empty()) << loss.summary;
  ASSERT_EQ(loss.details.size(), 1u);
  EXPECT_NE(loss.details[0].find("1 of the input's channel(s) hold a still pose"),
            std::string::npos)
      << loss.details[0];
  EXPECT_NE(loss.details[0].find("up to 30 deg off"), std::string::npos) << loss.details[0];
  EXPECT_NE(loss.details[0].find("b.rotation"), std::string::npos) << loss.details[0];
  EXPECT_EQ(loss.details[0].find("c.rotation"), std::string::npos) << loss.details[0];
  // Kept, it is no loss.
  EXPECT_TRUE(Measure(input, input, {false, true, false}).details.empty());
}

// Without a rest pose (a three.js clip of a BVH keys every bone's offset as a still position), a
// still translation is the skeleton's shape, which a player takes from its model: a rotation-only
// output (unity-csv) that drops it loses no pose (three.js's mocapbank clip warned of 48.8 m).
// A still rotation away from identity is still a pose.
TEST(CoverageTest, WithoutARestPoseAStillTranslationIsTheSkeletonsShape) {
  Asset input = MakeAsset({"a", "b"});
  input.rig.rest_pose_known = false;
  const double half = std::sin(M_PI / 12);
  input.clips[0].channels = {
      Turning(0), MakeChannel(1, Path::kTranslation, {0, 1}, {0, 0.4, 0, 0, 0.4, 0}, 3),
      MakeChannel(1, Path::kRotation, {0, 1},
                  {half, 0, 0, std::cos(M_PI / 12), half, 0, 0, std::cos(M_PI / 12)}, 4)};
  Asset output = input;
  output.clips[0].channels = {Turning(0)};
  CoverageLoss loss = Measure(input, output, {false, true, false});
  ASSERT_EQ(loss.details.size(), 1u);
  EXPECT_NE(loss.details[0].find("b.rotation"), std::string::npos) << loss.details[0];
  EXPECT_EQ(loss.details[0].find("b.translation"), std::string::npos) << loss.details[0];
  // With a rest pose (at the origin here), the same translation is a pose away from it.
  input.rig.rest_pose_known = true;
  loss = Measure(input, output, {false, true, false});
  ASSERT_EQ(loss.details.size(), 1u);
  EXPECT_NE(loss.details[0].find("b.translation"), std::string::npos) << loss.details[0];
}

TEST(CoverageTest, AnyRequiredHumanoidBoneLostIsPartialForHumanoidOutputs) {
  Asset input = Humanoid();
  for (int n = 0; n < 5; ++n) input.clips[0].channels.push_back(Turning(n));
  Asset output = input;
  output.clips[0].channels.erase(output.clips[0].channels.begin() + 4);  // head
  CoverageLoss loss = Measure(input, output, {true, true, false});
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("required humanoid bone(s) head"), std::string::npos) << loss.summary;
  // Not humanoid: one channel of five is a warning.
  loss = Measure(input, output, {false, true, false});
  EXPECT_FALSE(loss.partial);
  EXPECT_EQ(loss.details.size(), 1u);
}

TEST(CoverageTest, MoreThanHalfTheHumanoidBonesLostIsPartial) {
  // Five animated humanoid bones (hips and four fingers) and six other nodes, all kept but the
  // fingers: 4 of 5 bones lost is partial though 7 of 11 channels survive.
  Asset input = MakeAsset({"hips", "f1", "f2", "f3", "f4", "x1", "x2", "x3", "x4", "x5", "x6"});
  const HumanBone fingers[] = {HumanBone::kLeftIndexProximal, HumanBone::kLeftIndexIntermediate,
                               HumanBone::kLeftIndexDistal, HumanBone::kLeftMiddleProximal};
  input.rig.nodes[0].human_bone = HumanBone::kHips;
  for (int n = 0; n < 4; ++n) input.rig.nodes[static_cast<size_t>(n + 1)].human_bone = fingers[n];
  for (int n = 0; n < 11; ++n) input.clips[0].channels.push_back(Turning(n));
  Asset output = input;
  output.clips[0].channels.erase(output.clips[0].channels.begin() + 1,
                                 output.clips[0].channels.begin() + 5);
  const CoverageLoss loss = Measure(input, output, {true, true, false});
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("4 of the input's 5 animated humanoid bone(s)"), std::string::npos)
      << loss.summary;
}

TEST(CoverageTest, RetargetedBonesMatchByIdentityAndFoldedOnesAreNamed) {
  // The target lacks the chest: RetargetClips passes its rotation to the neck.
  Asset input = Humanoid();
  for (int n = 0; n < 5; ++n) input.clips[0].channels.push_back(Turning(n));
  Asset output = MakeAsset({"Head", "Neck", "Spine", "Hips"});
  const HumanBone bones[] = {HumanBone::kHead, HumanBone::kNeck, HumanBone::kSpine,
                             HumanBone::kHips};
  for (int n = 0; n < 4; ++n) {
    output.rig.nodes[static_cast<size_t>(n)].human_bone = bones[n];
    output.clips[0].channels.push_back(Turning(n));
  }
  const CoverageLoss loss = Measure(input, output, {true, false, true});
  EXPECT_FALSE(loss.partial) << loss.summary;
  ASSERT_EQ(loss.details.size(), 1u);
  EXPECT_NE(loss.details[0].find("1 source bone(s) missing on the target passed their rotation "
                                 "to the bones below: chest"),
            std::string::npos)
      << loss.details[0];
}

TEST(CoverageTest, UnityCsvHoldsOnlyTheRotationsOfItsColumns) {
  Asset input = MakeAsset({"hips", "prop"});
  input.rig.nodes[0].human_bone = HumanBone::kHips;
  input.clips[0].channels = {Turning(0), Turning(1),
                             MakeChannel(0, Path::kTranslation, {0, 1}, {0, 0, 0, 1, 0, 0}, 3)};
  const CoverageLoss loss = Measure(input, input, {true, true, false}, *FindFormat("unity-csv"));
  EXPECT_TRUE(loss.partial);
  EXPECT_NE(loss.summary.find("2 of the input's 3 animated channel(s) have no place in the "
                              "unity-csv output: hips.translation, prop.rotation"),
            std::string::npos)
      << loss.summary;
  WriteOptions write;
  write.bone_names = {"Hips", "prop"};
  EXPECT_FALSE(Measure(input, input, {true, true, false}, *FindFormat("unity-csv"), write).partial);
}

}  // namespace
}  // namespace animconv
