#include "pipeline/expressions_from_morphs.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "animconv/reduce.h"
#include "animconv/resample.h"
#include "animconv/sample.h"
#include "animconv/timing.h"
#include "formats/gltf/vrm_expressions.h"
#include "libconvert/text.h"
#include "pipeline/vrm_expression_binds.h"

namespace animconv {

const std::vector<ArkitExpression>& ArkitExpressionTable() {
  // docs/formats/vrma.md, "ARKit blendshapes": the eyes' closures are the one-sided blinks; the
  // open jaw is "aa", the funnel "oh", the pucker "ou", the stretched mouth "ee"; the smile,
  // frown, lowered brows and raised inner brows are happy, sad, angry and surprised, the mean of
  // their left and right halves. ARKit names the face's own left and right, as VRM does.
  static const std::vector<ArkitExpression> kTable = {
      {"eyeBlinkLeft", "blinkLeft"}, {"eyeBlinkRight", "blinkRight"}, {"jawOpen", "aa"},
      {"mouthFunnel", "oh"},         {"mouthPucker", "ou"},           {"mouthStretchLeft", "ee"},
      {"mouthStretchRight", "ee"},   {"mouthSmileLeft", "happy"},     {"mouthSmileRight", "happy"},
      {"mouthFrownLeft", "sad"},     {"mouthFrownRight", "sad"},      {"browDownLeft", "angry"},
      {"browDownRight", "angry"},    {"browInnerUp", "surprised"},
  };
  return kTable;
}

bool IsArkitName(const std::string& target, const std::string& arkit) {
  if (target == arkit) return true;
  // The `_L`/`_R` spelling of some exporters (three.js's facecap example): eyeBlink_L.
  for (const auto& [side, suffix] : {std::pair{"Left", "_L"}, std::pair{"Right", "_R"}}) {
    const std::string long_side = side;
    if (arkit.size() > long_side.size() &&
        arkit.compare(arkit.size() - long_side.size(), long_side.size(), long_side) == 0 &&
        target == arkit.substr(0, arkit.size() - long_side.size()) + suffix) {
      return true;
    }
  }
  return false;
}

namespace {

bool HasRule(const std::vector<MorphExpressionRule>& rules, const std::string& name) {
  return std::any_of(rules.begin(), rules.end(),
                     [&name](const MorphExpressionRule& rule) { return rule.expression == name; });
}

void AddInverseBinds(const Asset& input, std::vector<MorphExpressionRule>& rules,
                     std::vector<std::string>* notes) {
  std::map<std::pair<int, int>, int> binders;  // (node, target) -> expressions binding it
  for (const VrmExpression& expression : input.vrm_expressions) {
    for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
      ++binders[{bind.node, bind.index}];
    }
  }
  std::vector<std::string> not_inverted;
  for (const VrmExpression& expression : input.vrm_expressions) {
    const auto& binds = expression.morph_target_binds;
    if (binds.empty()) continue;
    if (binds.size() > 1) {
      not_inverted.push_back(fmt::format("{} ({} binds)", expression.name, binds.size()));
      continue;
    }
    if (binders[{binds[0].node, binds[0].index}] > 1) {
      not_inverted.push_back(
          fmt::format("{} (its target is bound by others too)", expression.name));
      continue;
    }
    if (binds[0].weight == 0) {
      not_inverted.push_back(fmt::format("{} (bind weight 0)", expression.name));
      continue;
    }
    rules.push_back({expression.name,
                     expression.preset,
                     {{binds[0].node, binds[0].index, 1 / binds[0].weight}}});
  }
  if (notes && !not_inverted.empty()) {
    notes->push_back(fmt::format("expressions from morph weights: not inverted one-to-one: {}",
                                 ListFirst(not_inverted, 8)));
  }
}

void AddArkit(const Asset& input, std::vector<MorphExpressionRule>& rules) {
  std::map<std::string, MorphExpressionRule> arkit;
  std::vector<std::string> order;
  for (size_t n = 0; n < input.rig.nodes.size(); ++n) {
    const Node& node = input.rig.nodes[n];
    for (size_t t = 0; t < node.morph_target_names.size(); ++t) {
      for (const ArkitExpression& entry : ArkitExpressionTable()) {
        if (!IsArkitName(node.morph_target_names[t], entry.arkit)) continue;
        auto [found, added] = arkit.try_emplace(entry.vrm);
        if (added) {
          found->second.expression = entry.vrm;
          order.push_back(entry.vrm);
        }
        found->second.sources.push_back({static_cast<int>(n), static_cast<int>(t), 1});
      }
    }
  }
  for (const std::string& name : order) {
    if (!HasRule(rules, name)) rules.push_back(std::move(arkit[name]));
  }
}

void AddMapped(const Asset& input, const std::vector<BoneMapEntry>& map,
               std::vector<MorphExpressionRule>& rules, std::vector<std::string>* notes) {
  std::vector<std::string> unmatched;
  for (const BoneMapEntry& entry : map) {
    std::vector<MorphSource> sources;
    for (size_t n = 0; n < input.rig.nodes.size(); ++n) {
      const std::vector<std::string>& names = input.rig.nodes[n].morph_target_names;
      for (size_t t = 0; t < names.size(); ++t) {
        if (names[t] == entry.from)
          sources.push_back({static_cast<int>(n), static_cast<int>(t), 1});
      }
    }
    if (sources.empty()) {
      unmatched.push_back(fmt::format("'{}' (line {})", entry.from, entry.line));
      continue;
    }
    auto rule = std::find_if(rules.begin(), rules.end(), [&entry](const MorphExpressionRule& r) {
      return r.expression == entry.to;
    });
    if (rule == rules.end()) {
      rules.push_back({entry.to, IsVrm1PresetExpression(entry.to), {}});
      rule = rules.end() - 1;
    }
    rule->sources.insert(rule->sources.end(), sources.begin(), sources.end());
  }
  if (notes && !unmatched.empty()) {
    notes->push_back(
        fmt::format("--expression-map: no morph target is named {}", ListFirst(unmatched, 8)));
  }
}

const Channel* WeightsOf(const Clip& clip, int node) {
  for (const Channel& channel : clip.channels) {
    if (channel.node == node && channel.path == Path::kWeights) return &channel;
  }
  return nullptr;
}

// The largest difference between a clip's own influence of a bound morph target and what the
// written expression tracks give it, played through the model's binds as three-vrm plays them.
struct ReplayError {
  double weight = 0;
  int node = -1;
  int target = 0;
  double seconds = 0;
};

// Compares at every key of either side and halfway between, except halfway inside the 1 ms ramp
// a step channel becomes (StepToLinear: the step warning names those).
ReplayError CompareReplay(const Asset& input, const Clip& weights, const Channel& played,
                          const std::set<int>& bound_targets) {
  const Node& node = input.rig.nodes[static_cast<size_t>(played.node)];
  const Channel* source = WeightsOf(weights, played.node);
  std::vector<double> keys = played.times_seconds;
  std::vector<double> jumps;
  if (source) {
    keys.insert(keys.end(), source->times_seconds.begin(), source->times_seconds.end());
    if (source->interpolation == Interpolation::kStep) jumps = source->times_seconds;
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<double> times;
  for (size_t k = 0; k < keys.size(); ++k) {
    times.push_back(keys[k]);
    if (k + 1 == keys.size()) break;
    const double half = (keys[k] + keys[k + 1]) / 2;
    const auto next = std::upper_bound(jumps.begin(), jumps.end(), half);
    if (next == jumps.end() || *next - half >= kStepHoldSeconds) times.push_back(half);
  }
  ReplayError worst;
  std::vector<double> got(static_cast<size_t>(played.width));
  std::vector<double> want(static_cast<size_t>(played.width));
  for (const double seconds : times) {
    EvaluateChannel(played, seconds, got.data());
    if (source) {
      EvaluateChannel(*source, seconds, want.data());
    } else {
      for (size_t t = 0; t < want.size(); ++t) {
        want[t] = t < node.morph_default_weights.size() ? node.morph_default_weights[t] : 0;
      }
    }
    for (const int target : bound_targets) {
      const size_t t = static_cast<size_t>(target);
      if (t >= got.size()) continue;
      const double error = std::abs(got[t] - want[t]);
      if (error > worst.weight) worst = {error, played.node, target, seconds};
    }
  }
  return worst;
}

// The expression tracks made from a VRM model's morph weights, played back through that model's
// binds (three-vrm's isBinary and override rules, pipeline/vrm_expression_binds.h), against the
// clip's own influences of every bound target: the inverse of a bind is one-to-one only where no
// isBinary threshold, block or blend override and no other expression acts on it (a 0.x isBinary
// `a` played 0.25 off; a blink that blocks the mouth zeroed `aa`). Beyond the weight tolerance a
// warning with the error, where and the fix (docs/formats/vrma.md, "Expressions from morph
// weights").
void CheckReplayThroughBinds(const Asset& input, const Asset& weights,
                             const std::vector<int>& made_nodes, Diagnostics* diagnostics) {
  if (input.vrm_expressions.empty() || made_nodes.empty()) return;
  std::map<int, std::set<int>> bound;  // node -> targets some expression binds
  for (const VrmExpression& expression : input.vrm_expressions) {
    for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
      bound[bind.node].insert(bind.index);
    }
  }
  ReplayError worst;
  std::string worst_clip;
  for (size_t c = 0; c < input.clips.size(); ++c) {
    std::vector<ExpressionWeightTrack> tracks;
    for (const Channel& channel : input.clips[c].channels) {
      if (std::find(made_nodes.begin(), made_nodes.end(), channel.node) == made_nodes.end()) {
        continue;
      }
      // What the .vrma holds: step tracks as the writer bakes them (StepToLinear).
      const Channel written =
          channel.interpolation == Interpolation::kStep ? StepToLinear(channel) : channel;
      ExpressionWeightTrack& track = tracks.emplace_back();
      track.name = input.rig.nodes[static_cast<size_t>(channel.node)].vrma_role->name;
      track.times_seconds = written.times_seconds;
      for (size_t k = 0; k < written.key_count(); ++k) {
        track.weights.push_back(written.key_value(k)[0]);
      }
    }
    if (tracks.empty()) continue;
    ExpressionBindReport report;
    for (const Channel& played :
         ExpressionMorphChannels(input.rig, input.vrm_expressions, tracks, &report)) {
      const auto targets = bound.find(played.node);
      if (targets == bound.end()) continue;
      const ReplayError error = CompareReplay(input, weights.clips[c], played, targets->second);
      if (error.weight > worst.weight) {
        worst = error;
        worst_clip = input.clips[c].name;
      }
    }
  }
  if (worst.node < 0 || worst.weight <= ToleranceOf(ReduceOptions{}, Path::kWeights)) return;
  const Node& node = input.rig.nodes[static_cast<size_t>(worst.node)];
  std::vector<std::string> binders;
  for (const VrmExpression& expression : input.vrm_expressions) {
    for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
      if (bind.node == worst.node && bind.index == worst.target) binders.push_back(expression.name);
    }
  }
  const std::string target =
      static_cast<size_t>(worst.target) < node.morph_target_names.size()
          ? fmt::format("'{}'", node.morph_target_names[static_cast<size_t>(worst.target)])
          : fmt::format("{}", worst.target);
  AddDiagnostic(
      diagnostics, Severity::kWarning,
      fmt::format("expressions from morph weights: played back through the model's own binds as "
                  "three-vrm plays them (isBinary, overrideBlink/LookAt/Mouth), the expressions "
                  "give the morph targets up to {:.3g} weight off the clip's: {} target {} (bound "
                  "by {}) at {:.4g} s of clip '{}'; to keep the morph weights as they are, write "
                  "a .glb or .vrm",
                  worst.weight, node.name, target, fmt::join(binders, ", "), worst.seconds,
                  worst_clip));
}

}  // namespace

std::vector<MorphExpressionRule> MorphExpressionRules(
    const Asset& input, const std::vector<BoneMapEntry>& expression_map,
    std::vector<std::string>* notes) {
  std::vector<MorphExpressionRule> rules;
  AddMapped(input, expression_map, rules, notes);
  std::vector<MorphExpressionRule> inverted;
  AddInverseBinds(input, inverted, notes);
  for (MorphExpressionRule& rule : inverted) {
    if (!HasRule(rules, rule.expression)) rules.push_back(std::move(rule));
  }
  AddArkit(input, rules);
  return rules;
}

void AddExpressionsFromMorphs(Asset& input, const std::vector<BoneMapEntry>& expression_map,
                              Diagnostics* diagnostics) {
  // Only the morph weights are read, baked to linear where cubic; the bone channels are left to
  // the retargeter (which bakes them on its own grid).
  Asset weights;
  weights.rig = input.rig;
  bool any_weights = false;
  for (const Clip& clip : input.clips) {
    Clip& copy = weights.clips.emplace_back();
    for (const Channel& channel : clip.channels) {
      if (channel.path != Path::kWeights) continue;
      copy.channels.push_back(channel);
      any_weights = true;
    }
  }
  if (!any_weights) return;
  BakeCubicSplines(weights, std::nullopt);
  std::vector<std::string> notes;
  std::vector<MorphExpressionRule> rules = MorphExpressionRules(input, expression_map, &notes);
  for (const std::string& note : notes) {
    // A map entry that matches nothing is a mistake of the user's: a warning.
    const bool map_miss = note.rfind("--expression-map", 0) == 0;
    AddDiagnostic(diagnostics, map_miss ? Severity::kWarning : Severity::kInfo, note);
  }
  if (rules.empty()) return;
  std::set<std::string> existing;
  for (const Node& node : input.rig.nodes) {
    if (node.vrma_role) existing.insert(node.vrma_role->name);
  }
  std::vector<std::string> made;
  std::vector<int> made_nodes;
  for (const MorphExpressionRule& rule : rules) {
    if (existing.count(rule.expression)) continue;
    int role_node = -1;
    for (size_t c = 0; c < input.clips.size(); ++c) {
      const Clip& clip = weights.clips[c];
      std::vector<const Channel*> sources;
      for (const MorphSource& source : rule.sources) {
        if (const Channel* channel = WeightsOf(clip, source.node)) sources.push_back(channel);
      }
      if (sources.empty()) continue;
      std::vector<double> times;
      bool all_step = true;
      for (const Channel* channel : sources) {
        times.insert(times.end(), channel->times_seconds.begin(), channel->times_seconds.end());
        all_step = all_step && channel->interpolation == Interpolation::kStep;
      }
      std::sort(times.begin(), times.end());
      times.erase(std::unique(times.begin(), times.end()), times.end());
      Channel track;
      track.path = Path::kTranslation;
      track.interpolation = all_step ? Interpolation::kStep : Interpolation::kLinear;
      track.width = 3;
      track.times_seconds = times;
      std::vector<double> value;
      for (const double seconds : times) {
        double sum = 0;
        for (const MorphSource& source : rule.sources) {
          const Channel* channel = WeightsOf(clip, source.node);
          if (!channel) continue;  // a target no clip animates stays at 0
          value.resize(static_cast<size_t>(channel->width));
          EvaluateChannel(*channel, seconds, value.data());
          sum += source.scale * value[static_cast<size_t>(source.target)];
        }
        track.values.insert(track.values.end(),
                            {sum / static_cast<double>(rule.sources.size()), 0, 0});
      }
      if (role_node < 0) {
        Node node;
        node.name = rule.expression;
        node.vrma_role = VrmaRole{
            rule.preset ? VrmaRole::Kind::kPresetExpression : VrmaRole::Kind::kCustomExpression,
            rule.expression, input.rig.nodes[static_cast<size_t>(rule.sources[0].node)].name};
        input.rig.nodes.push_back(std::move(node));
        role_node = static_cast<int>(input.rig.nodes.size()) - 1;
        made_nodes.push_back(role_node);
        made.push_back(rule.sources.size() > 1
                           ? fmt::format("{} (mean of {})", rule.expression, rule.sources.size())
                           : rule.expression);
      }
      track.node = role_node;
      input.clips[c].channels.push_back(std::move(track));
    }
  }
  if (!made.empty()) {
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("expressions from morph weights ({}): {}", made.size(), fmt::join(made, ", ")));
  }
  CheckReplayThroughBinds(input, weights, made_nodes, diagnostics);
}

}  // namespace animconv
