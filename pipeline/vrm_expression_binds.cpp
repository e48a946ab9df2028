#include "pipeline/vrm_expression_binds.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "animconv/resample.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

// VRMExpressionManager's blinkExpressionNames, lookAtExpressionNames, mouthExpressionNames.
enum Group { kBlink, kLookAt, kMouth, kGroupCount };

int GroupOf(const std::string& name) {
  for (const char* blink : {"blink", "blinkLeft", "blinkRight"}) {
    if (name == blink) return kBlink;
  }
  for (const char* look : {"lookLeft", "lookRight", "lookUp", "lookDown"}) {
    if (name == look) return kLookAt;
  }
  for (const char* mouth : {"aa", "ee", "ih", "oh", "ou"}) {
    if (name == mouth) return kMouth;
  }
  return -1;
}

double WeightAt(const ExpressionWeightTrack& track, double seconds) {
  const std::vector<double>& times = track.times_seconds;
  if (seconds <= times.front()) return track.weights.front();
  if (seconds >= times.back()) return track.weights.back();
  const size_t next =
      static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) - times.begin());
  const double a = times[next - 1], b = times[next];
  const double u = (seconds - a) / (b - a);
  return track.weights[next - 1] + (track.weights[next] - track.weights[next - 1]) * u;
}

double Float32Time(double seconds) { return static_cast<double>(static_cast<float>(seconds)); }

// The expressions a track moves; the others keep weight 0, so they add nothing and override
// nothing (block: 0 < 0 is false), and can be left out.
struct Played {
  const VrmExpression* expression;
  const ExpressionWeightTrack* track;
  int group;
};

// VRMExpressionManager.update() and VRMExpression.applyWeight() for the played expressions.
class Manager {
 public:
  Manager(const std::vector<VrmExpression>& expressions,
          const std::vector<ExpressionWeightTrack>& tracks) {
    for (const ExpressionWeightTrack& track : tracks) {
      for (const VrmExpression& expression : expressions) {
        if (expression.name != track.name || track.times_seconds.empty()) continue;
        played_.push_back({&expression, &track, GroupOf(expression.name)});
        break;
      }
    }
  }

  const std::vector<Played>& played() const { return played_; }

  // The applied weight of each played expression at `seconds`; `state` gets the discrete choices
  // (isBinary thresholds, block overrides, multiplier clamps) so callers see where they switch.
  void Apply(double seconds, std::vector<double>& applied, std::vector<char>* state) const {
    applied.resize(played_.size());
    std::array<double, kGroupCount> sums{};
    for (size_t e = 0; e < played_.size(); ++e) {
      const VrmExpression& expression = *played_[e].expression;
      const double weight = WeightAt(*played_[e].track, seconds);
      const double output = expression.is_binary ? (weight > 0.5 ? 1.0 : 0.0) : weight;
      applied[e] = output;
      if (state && expression.is_binary) state->push_back(output > 0 ? 1 : 0);
      const VrmExpression::Override overrides[kGroupCount] = {
          expression.override_blink, expression.override_look_at, expression.override_mouth};
      for (int g = 0; g < kGroupCount; ++g) {
        if (overrides[g] == VrmExpression::Override::kBlock) {
          sums[g] += 0 < output ? 1 : 0;
          if (state) state->push_back(0 < output ? 1 : 0);
        }
        if (overrides[g] == VrmExpression::Override::kBlend) sums[g] += output;
      }
    }
    std::array<double, kGroupCount> multipliers{};
    for (int g = 0; g < kGroupCount; ++g) {
      multipliers[g] = std::max(0.0, 1 - sums[g]);
      if (state) {
        state->push_back(1 - sums[g] < 0 ? 1 : 0);
        state->push_back(multipliers[g] < 1 ? 1 : 0);
      }
    }
    for (size_t e = 0; e < played_.size(); ++e) {
      if (played_[e].group >= 0) applied[e] *= multipliers[static_cast<size_t>(played_[e].group)];
      if (played_[e].expression->is_binary && applied[e] < 1) applied[e] = 0;
    }
  }

  // The override sums per group at `seconds` (linear between switches of the state).
  std::array<double, kGroupCount> Sums(double seconds) const {
    std::array<double, kGroupCount> sums{};
    for (const Played& played : played_) {
      const VrmExpression& expression = *played.expression;
      const double weight = WeightAt(*played.track, seconds);
      const double output = expression.is_binary ? (weight > 0.5 ? 1.0 : 0.0) : weight;
      const VrmExpression::Override overrides[kGroupCount] = {
          expression.override_blink, expression.override_look_at, expression.override_mouth};
      for (int g = 0; g < kGroupCount; ++g) {
        if (overrides[g] == VrmExpression::Override::kBlock) sums[g] += 0 < output ? 1 : 0;
        if (overrides[g] == VrmExpression::Override::kBlend) sums[g] += output;
      }
    }
    return sums;
  }

 private:
  std::vector<Played> played_;
};

// Where the line through (a, va) and (b, vb) reaches `level` within [a, b], if it does.
void AddCrossing(double a, double va, double b, double vb, double level,
                 std::vector<double>& times) {
  if (va == vb) return;
  const double u = (level - va) / (vb - va);
  if (u >= 0 && u <= 1) times.push_back(std::clamp(a + (b - a) * u, a, b));
}

// The influences of every bound target, laid out node by node (`slots`).
class Influences {
 public:
  Influences(const Rig& rig, const std::vector<VrmExpression>& expressions, const Manager& manager)
      : manager_(manager) {
    for (const Played& played : manager.played()) {
      for (const VrmExpression::MorphTargetBind& bind : played.expression->morph_target_binds) {
        slots_.emplace(bind.node, 0);
      }
    }
    size_t offset = 0;
    for (auto& [node, slot] : slots_) {
      slot = offset;
      const Node& mesh_node = rig.nodes[static_cast<size_t>(node)];
      const size_t count = static_cast<size_t>(mesh_node.morph_target_count);
      // A target no expression binds keeps the mesh's own weight (GLTFLoader's initial
      // influence); every bound one is cleared to 0 each update (clearAppliedWeight), played or
      // not.
      for (size_t t = 0; t < count; ++t) {
        const bool has_default = mesh_node.morph_default_weights.size() == count;
        rest_.push_back(has_default ? mesh_node.morph_default_weights[t] : 0.0);
      }
      offset += count;
    }
    size_ = offset;
    for (const VrmExpression& expression : expressions) {
      for (const VrmExpression::MorphTargetBind& bind : expression.morph_target_binds) {
        const auto slot = slots_.find(bind.node);
        if (slot != slots_.end()) rest_[slot->second + static_cast<size_t>(bind.index)] = 0;
      }
    }
  }

  const std::map<int, size_t>& slots() const { return slots_; }
  size_t size() const { return size_; }

  void At(double seconds, std::vector<double>& values, std::vector<char>* state) const {
    manager_.Apply(seconds, applied_, state);
    values = rest_;
    const std::vector<Played>& played = manager_.played();
    for (size_t e = 0; e < played.size(); ++e) {
      for (const VrmExpression::MorphTargetBind& bind : played[e].expression->morph_target_binds) {
        values[slots_.at(bind.node) + static_cast<size_t>(bind.index)] += bind.weight * applied_[e];
      }
    }
  }

 private:
  const Manager& manager_;
  std::map<int, size_t> slots_;  // node -> first value of its targets
  size_t size_ = 0;
  std::vector<double> rest_;  // each target's value before the expressions add to it
  mutable std::vector<double> applied_;
};

// Track keys and the times, between them, where a discrete choice of the manager switches.
std::vector<double> Breakpoints(const Manager& manager) {
  std::vector<double> keys;
  for (const Played& played : manager.played()) {
    keys.insert(keys.end(), played.track->times_seconds.begin(), played.track->times_seconds.end());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<double> points = keys;
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    const double a = keys[k], b = keys[k + 1];
    // Every weight is one line on [a, b]: the thresholds of isBinary (0.5) and of block (0).
    std::vector<double> inner = {a, b};
    for (const Played& played : manager.played()) {
      const double wa = WeightAt(*played.track, a), wb = WeightAt(*played.track, b);
      if (played.expression->is_binary) AddCrossing(a, wa, b, wb, 0.5, inner);
      AddCrossing(a, wa, b, wb, 0, inner);
    }
    std::sort(inner.begin(), inner.end());
    // Between those, each group's override sum is one line: where it reaches 1 the multiplier
    // clamps at 0; where it leaves 0 a binary expression of the group stops applying.
    for (size_t i = 0; i + 1 < inner.size(); ++i) {
      const double c = inner[i], d = inner[i + 1];
      if (d - c <= 0) continue;
      const double p = c + (d - c) / 3, q = c + 2 * (d - c) / 3;
      const auto sp = manager.Sums(p), sq = manager.Sums(q);
      for (int g = 0; g < kGroupCount; ++g) {
        // Extended from the two inner points to the whole of [c, d].
        const double slope = (sq[g] - sp[g]) / (q - p);
        const double vc = sp[g] - slope * (p - c), vd = sq[g] + slope * (d - q);
        AddCrossing(c, vc, d, vd, 1, points);
        AddCrossing(c, vc, d, vd, 0, points);
      }
      points.push_back(c);
    }
    points.insert(points.end(), inner.begin(), inner.end());
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

}  // namespace

std::vector<Channel> ExpressionMorphChannels(const Rig& rig,
                                             const std::vector<VrmExpression>& expressions,
                                             const std::vector<ExpressionWeightTrack>& tracks,
                                             ExpressionBindReport* report) {
  ExpressionBindReport local;
  ExpressionBindReport& out = report ? *report : local;
  const Manager manager(expressions, tracks);
  const Influences influences(rig, expressions, manager);
  if (influences.slots().empty()) return {};
  const std::vector<double> points = Breakpoints(manager);

  std::vector<double> times;
  std::vector<double> f1, f2, f3;
  for (size_t p = 0; p < points.size(); ++p) {
    const double a = points[p];
    times.push_back(Float32Time(a));
    // A switch at `a`: keys one float32 step either side, so the jump stays between them.
    std::vector<char> before, at, after;
    std::vector<double> scratch;
    const float a32 = static_cast<float>(a);
    const double lower = std::nextafter(a32, -std::numeric_limits<float>::infinity());
    const double upper = std::nextafter(a32, std::numeric_limits<float>::infinity());
    influences.At(lower, scratch, &before);
    influences.At(a32, scratch, &at);
    influences.At(upper, scratch, &after);
    if (before != at || at != after) {
      ++out.events;
      times.push_back(lower);
      times.push_back(upper);
    }
    if (p + 1 == points.size()) break;
    // A product of two ramps (a blend override) is a parabola between switches; its chord is off
    // by c h^2 / 4 at most, c from the second difference of three inner samples.
    const double b = points[p + 1], h = b - a, s = h / 4;
    influences.At(a + s, f1, nullptr);
    influences.At(a + 2 * s, f2, nullptr);
    influences.At(a + 3 * s, f3, nullptr);
    double curvature = 0;
    for (size_t i = 0; i < f1.size(); ++i) {
      curvature = std::max(curvature, std::fabs(f1[i] - 2 * f2[i] + f3[i]) / (2 * s * s));
    }
    const double pieces = std::ceil(std::sqrt(curvature * h * h / (4 * kExpressionBindTolerance)));
    const int n = static_cast<int>(std::clamp(pieces, 1.0, 4096.0));
    if (n > 1) ++out.resampled_segments;
    for (int i = 1; i < n; ++i) times.push_back(Float32Time(a + h * i / n));
  }
  // Nothing before the first key or after the last: a key a float32 step past the end would
  // lengthen the clip, and a looping mixer would wrap it elsewhere.
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (const Played& played : manager.played()) {
    first = std::min(first, Float32Time(played.track->times_seconds.front()));
    last = std::max(last, Float32Time(played.track->times_seconds.back()));
  }
  times.erase(
      std::remove_if(times.begin(), times.end(), [&](double t) { return t < first || t > last; }),
      times.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());

  std::vector<std::vector<double>> values(times.size());
  std::vector<std::vector<char>> states(times.size());
  for (size_t k = 0; k < times.size(); ++k) influences.At(times[k], values[k], &states[k]);
  // The error left, measured halfway between keys where no switch lies between them.
  std::vector<double> middle;
  for (size_t k = 0; k + 1 < times.size(); ++k) {
    std::vector<char> state;
    influences.At((times[k] + times[k + 1]) / 2, middle, &state);
    if (state != states[k] || state != states[k + 1]) continue;
    for (size_t i = 0; i < middle.size(); ++i) {
      out.max_chord_error = std::max(out.max_chord_error,
                                     std::fabs(middle[i] - (values[k][i] + values[k + 1][i]) / 2));
    }
  }
  out.keys = times.size();

  std::vector<Channel> channels;
  for (const auto& [node, slot] : influences.slots()) {
    Channel channel;
    channel.node = node;
    channel.path = Path::kWeights;
    channel.interpolation = Interpolation::kLinear;
    channel.width = rig.nodes[static_cast<size_t>(node)].morph_target_count;
    channel.times_seconds = times;
    for (size_t k = 0; k < times.size(); ++k) {
      channel.values.insert(
          channel.values.end(), values[k].begin() + static_cast<long>(slot),
          values[k].begin() + static_cast<long>(slot) + static_cast<long>(channel.width));
    }
    channels.push_back(std::move(channel));
  }
  return channels;
}

void PlayVrmaExpressionsOnModel(const std::vector<Node>& role_nodes,
                                std::vector<std::vector<Channel>> channels,
                                std::vector<std::vector<ExpressionWeightTrack>> look_tracks,
                                const Asset& model, const std::string& model_name, Asset& out,
                                Diagnostics* diagnostics) {
  if (role_nodes.empty()) return;
  // A cubic weight curve becomes the linear one that follows it (the --reduce weight tolerance).
  Asset roles;
  roles.rig.nodes = role_nodes;
  for (std::vector<Channel>& clip_channels : channels) {
    roles.clips.emplace_back().channels = std::move(clip_channels);
  }
  BakeCubicSplines(roles, std::nullopt);
  std::set<std::string> missing, material_only, step;
  for (size_t c = 0; c < roles.clips.size() && c < out.clips.size(); ++c) {
    std::vector<ExpressionWeightTrack> tracks;
    for (const Channel& channel : roles.clips[c].channels) {
      const Node& node = role_nodes[static_cast<size_t>(channel.node)];
      if (node.vrma_role->kind == VrmaRole::Kind::kLookAt) continue;  // lookat_on_model.h
      // VRMC_vrm_animation 1.0: an expression's weight is its node's translation.x; other paths
      // mean nothing (three-vrm-animation refuses them).
      if (channel.path != Path::kTranslation) continue;
      const std::string& name = node.vrma_role->name;
      const auto expression =
          std::find_if(model.vrm_expressions.begin(), model.vrm_expressions.end(),
                       [&name](const VrmExpression& e) { return e.name == name; });
      if (expression == model.vrm_expressions.end()) {
        missing.insert(name);
        continue;
      }
      if (expression->morph_target_binds.empty() && expression->material_binds > 0) {
        material_only.insert(name);
      }
      if (channel.interpolation == Interpolation::kStep) step.insert(name);
      ExpressionWeightTrack& track = tracks.emplace_back();
      track.name = name;
      track.times_seconds = channel.times_seconds;
      for (size_t k = 0; k < channel.key_count(); ++k) {
        track.weights.push_back(channel.key_value(k)[0]);
      }
    }
    if (c < look_tracks.size()) {
      for (ExpressionWeightTrack& look : look_tracks[c]) {
        tracks.erase(std::remove_if(tracks.begin(), tracks.end(),
                                    [&look](const ExpressionWeightTrack& track) {
                                      return track.name == look.name;
                                    }),
                     tracks.end());
        tracks.push_back(std::move(look));
      }
    }
    if (tracks.empty()) continue;
    ExpressionBindReport report;
    std::vector<Channel> made =
        ExpressionMorphChannels(out.rig, model.vrm_expressions, tracks, &report);
    if (made.empty()) continue;
    const std::string where =
        out.clips.size() > 1 ? fmt::format(" of clip '{}'", out.clips[c].name) : std::string();
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("expressions{}: {} track(s) played through the binds of {} onto {} mesh "
                    "node(s) as three-vrm's expression manager does: {} keys ({} isBinary or "
                    "override switch(es) kept between keys a float32 step apart; {} segment(s) "
                    "resampled where blend overrides multiply; largest error between keys {:.2g})",
                    where, tracks.size(), model_name, made.size(), report.keys, report.events,
                    report.resampled_segments, report.max_chord_error));
    // Only past the per-segment cap of ExpressionMorphChannels (4096 keys).
    if (report.max_chord_error > 1e-6) {
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("expressions{}: the morph weights are up to {:.2g} off three-vrm's "
                                "between keys (blend overrides changing too fast for the keys "
                                "allowed)",
                                where, report.max_chord_error));
    }
    for (Channel& channel : made) out.clips[c].channels.push_back(std::move(channel));
  }
  if (!missing.empty()) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("expressions: {} has no expression {}; three-vrm skips those tracks "
                              "too",
                              model_name, fmt::join(missing, ", ")));
  }
  if (!step.empty()) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("expressions: STEP tracks ({}) are read as linear, as "
                              "three-vrm-animation plays them (its expression NumberKeyframeTrack "
                              "interpolates linearly)",
                              fmt::join(step, ", ")));
  }
  if (!material_only.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("expressions: {} on {} bind only material colours or texture "
                              "transforms, which the output does not carry: they do not show",
                              fmt::join(material_only, ", "), model_name));
  }
}

}  // namespace animconv
