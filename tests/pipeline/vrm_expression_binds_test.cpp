// Expression weights played through a VRM model's binds (pipeline/vrm_expression_binds.h): the
// influences three-vrm's VRMExpressionManager.update() computes, as linear morph-weight keys.
#include "pipeline/vrm_expression_binds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "test_support.h"

namespace animconv {
namespace {

// A face node with 3 morph targets and a body node with 2.
Rig FaceRig() {
  Rig rig;
  rig.nodes.resize(3);
  rig.nodes[0].name = "Hips";
  rig.nodes[1].name = "Face";
  rig.nodes[1].mesh = MeshInfo{"face", 0, 1};
  rig.nodes[1].morph_target_count = 3;
  rig.nodes[2].name = "Body";
  rig.nodes[2].mesh = MeshInfo{"body", 1, 1};
  rig.nodes[2].morph_target_count = 2;
  return rig;
}

VrmExpression Expression(const std::string& name,
                         std::vector<VrmExpression::MorphTargetBind> binds) {
  VrmExpression expression;
  expression.name = name;
  expression.preset = true;
  expression.morph_target_binds = std::move(binds);
  return expression;
}

// glTF LINEAR playback of `channel`'s component `target` at `seconds` (held outside the keys).
double Play(const Channel& channel, int target, double seconds) {
  const std::vector<double>& times = channel.times_seconds;
  const auto value = [&](size_t k) { return channel.key_value(k)[target]; };
  if (seconds <= times.front()) return value(0);
  if (seconds >= times.back()) return value(times.size() - 1);
  const size_t next =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) - times.begin());
  const double u = (seconds - times[next - 1]) / (times[next] - times[next - 1]);
  return value(next - 1) + (value(next) - value(next - 1)) * u;
}

// The largest difference between the channel and `want` over a fine grid on [0, end] that stays
// clear of the jumps at `jumps` (within 1e-5 s of one, the side is float32 rounding).
double LargestError(const Channel& channel, int target, double end,
                    const std::function<double(double)>& want, std::vector<double> jumps = {}) {
  double largest = 0;
  for (int i = 0; i <= 4000; ++i) {
    const double t = end * i / 4000 + 1.234e-5;
    if (std::any_of(jumps.begin(), jumps.end(),
                    [t](double j) { return std::fabs(t - j) < 1e-5; })) {
      continue;
    }
    largest = std::max(largest, std::fabs(Play(channel, target, t) - want(t)));
  }
  return largest;
}

const Channel* OnNode(const std::vector<Channel>& channels, int node) {
  for (const Channel& channel : channels) {
    if (channel.node == node) return &channel;
  }
  return nullptr;
}

TEST(VrmExpressionBindsTest, LinearExpressionsSumTheirBindsAtTheTrackKeys) {
  const std::vector<VrmExpression> expressions = {
      Expression("happy", {{1, 0, 1.0}, {2, 1, 0.5}}), Expression("sad", {{1, 0, 0.25}}),
      Expression("angry", {{1, 2, 1.0}})};  // not animated: adds nothing
  const std::vector<ExpressionWeightTrack> tracks = {
      {"happy", {0, 1, 2}, {0, 1, 0.5}}, {"sad", {0.5, 2}, {1, 0}}, {"unknown", {0, 1}, {1, 1}}};
  ExpressionBindReport report;
  const std::vector<Channel> channels =
      ExpressionMorphChannels(FaceRig(), expressions, tracks, &report);
  ASSERT_EQ(channels.size(), 2u);
  const Channel* face = OnNode(channels, 1);
  const Channel* body = OnNode(channels, 2);
  ASSERT_TRUE(face && body);
  EXPECT_EQ(face->path, Path::kWeights);
  EXPECT_EQ(face->width, 3);
  EXPECT_EQ(body->width, 2);
  EXPECT_EQ(face->times_seconds, (std::vector<double>{0, 0.5, 1, 2}));
  const auto happy = [](double t) { return t <= 1 ? t : 1 - 0.5 * std::min(t - 1, 1.0); };
  const auto sad = [](double t) { return t <= 0.5 ? 1 : std::max(0.0, 1 - (t - 0.5) / 1.5); };
  EXPECT_LT(LargestError(*face, 0, 2, [&](double t) { return happy(t) + 0.25 * sad(t); }), 1e-7);
  EXPECT_LT(LargestError(*body, 1, 2, [&](double t) { return 0.5 * happy(t); }), 1e-7);
  EXPECT_LT(LargestError(*face, 2, 2, [](double) { return 0.0; }), 1e-12);
  EXPECT_EQ(report.events, 0u);
  EXPECT_EQ(report.resampled_segments, 0u);
}

TEST(VrmExpressionBindsTest, IsBinaryJumpsAtTheHalfCrossingBetweenKeys) {
  std::vector<VrmExpression> expressions = {Expression("blink", {{1, 1, 0.8}})};
  expressions[0].is_binary = true;
  // 0 -> 1 over 0.2 .. 1.2: above 0.5 from 0.7 s; back below at 1.2 + 0.8 * 0.5 / 1 = 1.6 s.
  const std::vector<ExpressionWeightTrack> tracks = {{"blink", {0.2, 1.2, 2.0}, {0, 1, 0.2}}};
  ExpressionBindReport report;
  const std::vector<Channel> channels =
      ExpressionMorphChannels(FaceRig(), expressions, tracks, &report);
  ASSERT_EQ(channels.size(), 1u);
  const auto want = [](double t) {
    const double w = t < 1.2 ? std::max(0.0, t - 0.2) : 1 - 0.8 * (t - 1.2) / 0.8;
    return w > 0.5 ? 0.8 : 0.0;
  };
  EXPECT_EQ(LargestError(channels[0], 1, 2.0, want, {0.7, 1.575}), 0);
  EXPECT_EQ(report.events, 2u);
  // Each jump lies between two keys a float32 step apart.
  const std::vector<double>& times = channels[0].times_seconds;
  const auto below = std::lower_bound(times.begin(), times.end(), 0.7 - 1e-6);
  ASSERT_NE(below + 1, times.end());
  EXPECT_LT(*(below + 1) - *below, 1e-6);
  // The track's first and last key, as float32 (what every file we write stores).
  EXPECT_EQ(times.front(), static_cast<double>(0.2f));
  EXPECT_EQ(times.back(), 2.0);
}

TEST(VrmExpressionBindsTest, BlendOverrideIsAProductResampledWithinTheTolerance) {
  std::vector<VrmExpression> expressions = {Expression("happy", {{2, 0, 1.0}}),
                                            Expression("blink", {{1, 0, 1.0}})};
  expressions[0].override_blink = VrmExpression::Override::kBlend;
  const std::vector<ExpressionWeightTrack> tracks = {{"happy", {0, 1}, {0, 1}},
                                                     {"blink", {0, 1}, {1, 0.5}}};
  ExpressionBindReport report;
  const std::vector<Channel> channels =
      ExpressionMorphChannels(FaceRig(), expressions, tracks, &report);
  const Channel* face = OnNode(channels, 1);
  ASSERT_NE(face, nullptr);
  // blink x max(0, 1 - happy) = (1 - t/2)(1 - t) up to 1 s: a parabola, which no pair of keys
  // can follow; then happy holds 1 and blink shows 0.
  const auto want = [](double t) { return t < 1 ? (1 - 0.5 * t) * (1 - t) : 0.0; };
  EXPECT_LT(LargestError(*face, 0, 1, want), kExpressionBindTolerance * 1.5);
  EXPECT_GT(report.resampled_segments, 0u);
  EXPECT_LE(report.max_chord_error, kExpressionBindTolerance * 1.5);
  EXPECT_LT(face->key_count(), 1000u);
}

TEST(VrmExpressionBindsTest, BlockOverrideSilencesTheGroupOnceTheBlockerIsAboveZero) {
  std::vector<VrmExpression> expressions = {Expression("surprised", {{2, 0, 1.0}}),
                                            Expression("aa", {{1, 2, 0.6}})};
  expressions[0].override_mouth = VrmExpression::Override::kBlock;
  const std::vector<ExpressionWeightTrack> tracks = {{"surprised", {0, 1, 2}, {0, 0, 0.5}},
                                                     {"aa", {0, 2}, {1, 1}}};
  ExpressionBindReport report;
  const std::vector<Channel> channels =
      ExpressionMorphChannels(FaceRig(), expressions, tracks, &report);
  const Channel* face = OnNode(channels, 1);
  ASSERT_NE(face, nullptr);
  EXPECT_EQ(LargestError(*face, 2, 2, [](double t) { return t <= 1 ? 0.6 : 0.0; }, {1.0}), 0);
  EXPECT_EQ(Play(*face, 2, 1.0), 0.6);  // 0 < 0 is false: not yet blocked
  EXPECT_EQ(report.events, 1u);
}

TEST(VrmExpressionBindsTest, BinaryExpressionMultipliedBelowOneIsOff) {
  std::vector<VrmExpression> expressions = {Expression("happy", {}),
                                            Expression("blink", {{1, 0, 1.0}})};
  expressions[0].override_blink = VrmExpression::Override::kBlend;
  expressions[1].is_binary = true;
  // happy rises from 0 at 1 s: from then on blink's multiplier is below 1, so blink shows 0.
  const std::vector<ExpressionWeightTrack> tracks = {{"happy", {0, 1, 2}, {0, 0, 0.2}},
                                                     {"blink", {0, 2}, {1, 1}}};
  const std::vector<Channel> channels =
      ExpressionMorphChannels(FaceRig(), expressions, tracks, nullptr);
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_EQ(LargestError(channels[0], 0, 2, [](double t) { return t <= 1 ? 1.0 : 0.0; }, {1.0}), 0);
}

// three-vrm clears every bound target each update and leaves the others at the mesh's weights
// (GLTFLoader's initial influences); the channel must show the same, not 0 everywhere.
TEST(VrmExpressionBindsTest, UnboundTargetsKeepTheMeshDefaultWeights) {
  Rig rig = FaceRig();
  rig.nodes[1].morph_default_weights = {0.3, 0.6, 0.9};
  const std::vector<VrmExpression> expressions = {Expression("happy", {{1, 0, 1.0}}),
                                                  Expression("angry", {{1, 1, 1.0}})};
  const std::vector<Channel> channels =
      ExpressionMorphChannels(rig, expressions, {{"happy", {0, 1}, {0, 1}}}, nullptr);
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_DOUBLE_EQ(Play(channels[0], 0, 0.5), 0.5);  // bound and played
  EXPECT_EQ(Play(channels[0], 1, 0.5), 0);           // bound (angry), not played: cleared
  EXPECT_EQ(Play(channels[0], 2, 0.5), 0.9);         // bound by nothing: the mesh's weight
}

TEST(VrmExpressionBindsTest, NoBoundExpressionAnimatedMakesNoChannel) {
  const std::vector<VrmExpression> expressions = {Expression("happy", {{1, 0, 1.0}})};
  EXPECT_TRUE(
      ExpressionMorphChannels(FaceRig(), expressions, {{"sad", {0, 1}, {0, 1}}}, nullptr).empty());
}

}  // namespace
}  // namespace animconv
