// VRMA expression tracks made from morph-weight clips (pipeline/expressions_from_morphs.h).
#include "pipeline/expressions_from_morphs.h"

#include <gtest/gtest.h>

#include "animconv/sample.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::FindChannel;
using testing::MakeAsset;
using testing::MakeChannel;
using testing::NodeNamed;

// A face mesh node whose four targets are animated by one weights channel over 3 keys.
Asset Face(std::vector<std::string> target_names,
           Interpolation interpolation = Interpolation::kLinear) {
  Asset asset = MakeAsset({"Face"});
  Node& face = asset.rig.nodes[0];
  face.mesh = MeshInfo{"face", 0, 1};
  face.morph_target_count = static_cast<int>(target_names.size());
  face.morph_target_names = std::move(target_names);
  asset.clips.resize(1);
  asset.clips[0].channels.push_back(
      MakeChannel(0, Path::kWeights, {0, 0.5, 1},
                  {0, 0.2, 0.4, 0.6, 1, 0.8, 0.6, 0.4, 0.5, 0.5, 0.5, 0.5}, 4, interpolation));
  return asset;
}

double WeightAt(const Asset& asset, const std::string& expression, double seconds) {
  const int node = NodeNamed(asset, expression);
  const Channel* channel = FindChannel(asset.clips[0], node, Path::kTranslation);
  double value[3];
  EvaluateChannel(*channel, seconds, value);
  return value[0];
}

TEST(ExpressionsFromMorphsTest, ArkitNamesMakePresetsAndLeftRightHalvesAreAveraged) {
  Asset asset = Face({"jawOpen", "mouthSmile_L", "mouthSmileRight", "cheekPuff"});
  AddExpressionsFromMorphs(asset, {}, nullptr);
  const int aa = NodeNamed(asset, "aa");
  const int happy = NodeNamed(asset, "happy");
  ASSERT_GE(aa, 0);
  ASSERT_GE(happy, 0);
  EXPECT_EQ(asset.rig.nodes.size(), 3u);  // cheekPuff maps to nothing
  const VrmaRole& role = *asset.rig.nodes[static_cast<size_t>(happy)].vrma_role;
  EXPECT_EQ(role.kind, VrmaRole::Kind::kPresetExpression);
  EXPECT_EQ(role.morph_source, "Face");
  for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    double weights[4];
    EvaluateChannel(asset.clips[0].channels[0], t, weights);
    EXPECT_DOUBLE_EQ(WeightAt(asset, "aa", t), weights[0]) << t;
    EXPECT_DOUBLE_EQ(WeightAt(asset, "happy", t), (weights[1] + weights[2]) / 2) << t;
  }
  EXPECT_EQ(FindChannel(asset.clips[0], aa, Path::kTranslation)->interpolation,
            Interpolation::kLinear);
}

TEST(ExpressionsFromMorphsTest, StepSourcesMakeAStepTrack) {
  Asset asset = Face({"eyeBlinkLeft", "x", "y", "z"}, Interpolation::kStep);
  AddExpressionsFromMorphs(asset, {}, nullptr);
  const Channel* blink =
      FindChannel(asset.clips[0], NodeNamed(asset, "blinkLeft"), Path::kTranslation);
  ASSERT_NE(blink, nullptr);
  EXPECT_EQ(blink->interpolation, Interpolation::kStep);
  EXPECT_EQ(blink->key_value(1)[0], 1);
}

TEST(ExpressionsFromMorphsTest, OneToOneBindsAreInvertedAndTheOthersNoted) {
  Asset asset = Face({"a", "b", "c", "d"});
  VrmExpression aa;
  aa.name = "aa";
  aa.preset = true;
  aa.morph_target_binds = {{0, 0, 0.5}};
  VrmExpression wink;
  wink.name = "wink";
  wink.morph_target_binds = {{0, 1, 1.0}};
  VrmExpression sad;  // shares target 1 with wink: neither can be read back alone
  sad.name = "sad";
  sad.preset = true;
  sad.morph_target_binds = {{0, 1, 1.0}};
  VrmExpression both;
  both.name = "relaxed";
  both.morph_target_binds = {{0, 2, 1.0}, {0, 3, 1.0}};
  asset.vrm_expressions = {aa, wink, sad, both};
  std::vector<std::string> notes;
  const std::vector<MorphExpressionRule> rules = MorphExpressionRules(asset, {}, &notes);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].expression, "aa");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(testing::Has(notes[0], "wink (its target is bound by others too)")) << notes[0];
  EXPECT_TRUE(testing::Has(notes[0], "relaxed (2 binds)")) << notes[0];
  AddExpressionsFromMorphs(asset, {}, nullptr);
  // influence = 0.5 x weight, so the weight is twice the influence.
  EXPECT_DOUBLE_EQ(WeightAt(asset, "aa", 0.5), 2 * 1.0);
  EXPECT_DOUBLE_EQ(WeightAt(asset, "aa", 0.75), 2 * 0.75);
}

// The warnings among `diagnostics` that contain `part`.
size_t WarningsWith(const Diagnostics& diagnostics, const std::string& part) {
  size_t count = 0;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::kWarning && testing::Has(diagnostic.text, part)) ++count;
  }
  return count;
}

// The inverse of a bind is played back through the model's binds as three-vrm plays it: an
// isBinary expression shows its bind weight or nothing, so the clip's 1.0 on target 0 (weight 2
// after the inverse) plays 0.5; a blink that blocks the mouth zeroes `aa` while it is above 0.
// Both are warned with the measured error; a plain bind is exact and is not.
TEST(ExpressionsFromMorphsTest, InvertedBindsPlayedBackThroughTheModelsBinds) {
  Asset plain = Face({"a", "b", "c", "d"});
  VrmExpression aa;
  aa.name = "aa";
  aa.preset = true;
  aa.morph_target_binds = {{0, 0, 0.5}};
  plain.vrm_expressions = {aa};
  Diagnostics diagnostics;
  AddExpressionsFromMorphs(plain, {}, &diagnostics);
  EXPECT_EQ(WarningsWith(diagnostics, "expressions from morph weights"), 0u);

  Asset binary = Face({"a", "b", "c", "d"});
  aa.is_binary = true;
  binary.vrm_expressions = {aa};
  diagnostics.clear();
  AddExpressionsFromMorphs(binary, {}, &diagnostics);
  EXPECT_EQ(WarningsWith(diagnostics,
                         "up to 0.5 weight off the clip's: Face target 'a' (bound "
                         "by aa) at 0.5 s"),
            1u);

  Asset blocked = Face({"a", "b", "c", "d"});
  aa.is_binary = false;
  VrmExpression blink;
  blink.name = "blink";
  blink.preset = true;
  blink.override_mouth = VrmExpression::Override::kBlock;
  blink.morph_target_binds = {{0, 1, 1.0}};
  blocked.vrm_expressions = {aa, blink};
  diagnostics.clear();
  AddExpressionsFromMorphs(blocked, {}, &diagnostics);
  // Target 0 is 1.0 at 0.5 s, where target 1 (blink) is above 0: aa blocked.
  EXPECT_EQ(WarningsWith(diagnostics,
                         "up to 1 weight off the clip's: Face target 'a' (bound by "
                         "aa) at 0.5 s"),
            1u);
}

TEST(ExpressionsFromMorphsTest, AnExpressionTheInputHoldsAlreadyIsLeftAlone) {
  Asset asset = Face({"jawOpen", "x", "y", "z"});
  Node existing;
  existing.name = "aa";
  existing.vrma_role = VrmaRole{VrmaRole::Kind::kPresetExpression, "aa", {}};
  asset.rig.nodes.push_back(existing);
  AddExpressionsFromMorphs(asset, {}, nullptr);
  EXPECT_EQ(asset.rig.nodes.size(), 2u);
  EXPECT_EQ(asset.clips[0].channels.size(), 1u);
}

TEST(ExpressionsFromMorphsTest, AnExpressionMapComesFirstAndNamesPresetsOrCustoms) {
  Asset asset = Face({"jawOpen", "Fcl_MTH_A", "Fcl_EYE_Joy", "Fcl_EYE_Joy"});
  const std::vector<BoneMapEntry> map = {
      {"Fcl_MTH_A", "aa", 1}, {"Fcl_EYE_Joy", "eyeJoy", 2}, {"Missing", "sad", 3}};
  std::vector<std::string> notes;
  const std::vector<MorphExpressionRule> rules = MorphExpressionRules(asset, map, &notes);
  ASSERT_EQ(rules.size(), 2u);  // jawOpen's ARKit "aa" loses to the map's
  EXPECT_EQ(rules[0].expression, "aa");
  EXPECT_TRUE(rules[0].preset);
  ASSERT_EQ(rules[0].sources.size(), 1u);
  EXPECT_EQ(rules[0].sources[0].target, 1);
  EXPECT_EQ(rules[1].expression, "eyeJoy");
  EXPECT_FALSE(rules[1].preset);
  EXPECT_EQ(rules[1].sources.size(), 2u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(testing::Has(notes[0], "no morph target is named 'Missing' (line 3)")) << notes[0];
  AddExpressionsFromMorphs(asset, map, nullptr);
  EXPECT_DOUBLE_EQ(WeightAt(asset, "aa", 0.5), 0.8);
  EXPECT_DOUBLE_EQ(WeightAt(asset, "eyeJoy", 0.5), 0.5);
  EXPECT_EQ(asset.rig.nodes[static_cast<size_t>(NodeNamed(asset, "eyeJoy"))].vrma_role->kind,
            VrmaRole::Kind::kCustomExpression);
}

// The bone channels are the retargeter's to bake, on its own grid: a cubic rotation beside the
// morph weights stays cubic (an earlier version baked the whole input).
TEST(ExpressionsFromMorphsTest, OnlyTheMorphWeightsAreRead) {
  Asset asset = Face({"jawOpen", "x", "y", "z"});
  asset.rig.nodes.push_back(Node{});
  asset.rig.nodes.back().name = "Hips";
  asset.clips[0].channels.push_back(MakeChannel(1, Path::kRotation, {0, 1},
                                                {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  //
                                                 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
                                                4, Interpolation::kCubicSpline));
  AddExpressionsFromMorphs(asset, {}, nullptr);
  EXPECT_GE(NodeNamed(asset, "aa"), 0);
  EXPECT_EQ(FindChannel(asset.clips[0], 1, Path::kRotation)->interpolation,
            Interpolation::kCubicSpline);
}

// A VRM model converted with a bone clip only: nothing to invert, nothing said.
TEST(ExpressionsFromMorphsTest, NoMorphWeightsNoExpressionsNoNotes) {
  Asset asset = Face({"a", "b", "c", "d"});
  asset.clips[0].channels.clear();
  VrmExpression both;
  both.name = "relaxed";
  both.morph_target_binds = {{0, 2, 1.0}, {0, 3, 1.0}};
  asset.vrm_expressions = {both};
  Diagnostics diagnostics;
  AddExpressionsFromMorphs(asset, {}, &diagnostics);
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_EQ(asset.rig.nodes.size(), 1u);
}

TEST(ExpressionsFromMorphsTest, ArkitSpellings) {
  EXPECT_TRUE(IsArkitName("eyeBlinkLeft", "eyeBlinkLeft"));
  EXPECT_TRUE(IsArkitName("eyeBlink_L", "eyeBlinkLeft"));
  EXPECT_TRUE(IsArkitName("mouthSmile_R", "mouthSmileRight"));
  EXPECT_FALSE(IsArkitName("eyeBlink_R", "eyeBlinkLeft"));
  EXPECT_FALSE(IsArkitName("jawOpen_L", "jawOpen"));
}

}  // namespace
}  // namespace animconv
