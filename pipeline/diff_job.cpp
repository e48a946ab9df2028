#include "animconv/diff_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "libconvert/three_node_name.h"
#include "pipeline/diff_look_at.h"

namespace animconv {
namespace {

nlohmann::json UnitJson(const UnitDiff& unit) {
  return {{"max", unit.max},
          {"p99", unit.p99},
          {"channels", unit.channels},
          {"samples", unit.samples},
          {"worst_node", unit.worst_node},
          {"time_of_max_seconds", unit.time_of_max_seconds}};
}

nlohmann::json ChannelJson(const ChannelDiff& channel, bool with_path) {
  nlohmann::json json = {
      {"node", channel.node},       {"node_b", channel.node_b},
      {"unit", channel.unit},       {"max", channel.max},
      {"p99", channel.p99},         {"time_of_max_seconds", channel.time_of_max_seconds},
      {"samples", channel.samples}, {"adaptive_samples", channel.adaptive_samples}};
  if (with_path) {
    json["path"] = PathName(channel.path);
    json["only_in_a"] = channel.only_in_a;
    json["only_in_b"] = channel.only_in_b;
  }
  return json;
}

nlohmann::json ToJson(const std::string& path_a, const std::string& path_b, const ClipDiff& diff,
                      const DiffOptions& options) {
  nlohmann::json overall = nlohmann::json::object();
  for (const auto& [unit, summary] : diff.overall) overall[unit] = UnitJson(summary);
  nlohmann::json channels = nlohmann::json::array();
  for (const ChannelDiff& channel : diff.channels) channels.push_back(ChannelJson(channel, true));
  nlohmann::json bones = nlohmann::json::array();
  for (const BoneDiff& bone : diff.bones) {
    bones.push_back({{"node", bone.node},
                     {"rotation_deg", bone.rotation_deg},
                     {"translation_m", bone.translation_m},
                     {"scale_ratio", bone.scale_ratio},
                     {"weight", bone.weight},
                     {"hierarchical_m", bone.hierarchical_m ? nlohmann::json(*bone.hierarchical_m)
                                                            : nlohmann::json(nullptr)}});
  }
  nlohmann::json hierarchical = nullptr;
  if (diff.hierarchical_overall) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const ChannelDiff& node : diff.hierarchical) nodes.push_back(ChannelJson(node, false));
    hierarchical = {{"distance_m", *options.hierarchical_distance_metres},
                    {"overall", UnitJson(*diff.hierarchical_overall)},
                    {"nodes", nodes}};
  }
  return {{"a", {{"input", path_a}, {"clip", diff.clip_a}}},
          {"b", {{"input", path_b}, {"clip", diff.clip_b}}},
          {"samples_between_keys", options.samples_between_keys},
          {"sampling",
           {{"samples_between_keys", options.samples_between_keys},
            {"cubic_chord_fraction", options.cubic_chord_fraction},
            {"adaptive_samples", diff.adaptive_samples},
            {"hierarchical_adaptive_samples", diff.hierarchical_adaptive_samples}}},
          {"space",
           {{"name", DiffSpaceName(diff.space)},
            {"requested", DiffSpaceName(options.space)},
            {"reason", diff.space_reason},
            {"translation_scale", diff.translation_scale},
            {"turn_b", diff.turn_b},
            {"turn_b_matrix", diff.turn_b_matrix}}},
          {"duration_difference_seconds", diff.duration_difference_seconds},
          {"overall", overall},
          {"only_in_a", diff.only_in_a},
          {"only_in_b", diff.only_in_b},
          {"channels", channels},
          {"bones", bones},
          {"hierarchical", hierarchical}};
}

// One input as diff compares it: the asset, and whether its format stores no times (its rows are
// times only through --interval/--fps).
struct DiffInput {
  Asset asset;
  bool untimed_rows = false;
  const Format* format = nullptr;
};

DiffInput Load(const std::string& path, const ConvertOptions& options, Diagnostics* diagnostics) {
  LoadedAsset loaded = LoadAsset(path, options, diagnostics);
  Asset& asset = loaded.asset;
  // A Unity CSV and its three.js conversion hold mirrored numbers; compare them in one convention.
  ConvertHandedness(asset, Handedness::kRight, options.mirror.value_or(Mirror::kZ));
  // A format of normalised humanoid rotations (Unity CSV, format.h) defines them on the T-pose rig
  // whose rest rotations are identity: without a rest pose of its own the file is that rig, so
  // it can be compared in world space with a clip of another rig (docs/cli.md, `diff`).
  if (loaded.format && loaded.format->normalized_humanoid != NormalizedHumanoid::kNo &&
      !asset.rig.rest_pose_known) {
    ApplyHumanoidTPose(asset.rig, asset.coordinates.facing);
  }
  // A Unity CSV is rows without times: ReadOptions::row_interval_seconds gives them theirs.
  const bool untimed = loaded.format && loaded.format->rows_without_times;
  return {std::move(asset), untimed, loaded.format};
}

bool HasHumanoidBones(const Rig& rig) {
  return std::any_of(rig.nodes.begin(), rig.nodes.end(),
                     [](const Node& node) { return node.human_bone.has_value(); });
}

// A humanoid clip without a rest pose (a three.js clip) counts, for retargeting, as normalised
// rotations on the T-pose rig facing the way the file says (docs/retargeting.md; our three.js
// writer stores the facing in userData). Compared by name with a normalised rig (a VRMA: rest
// rotations identity) its values mean the same but for the facing: when the two face opposite
// ways (walk.csv's three.js JSON, -Z, against its VRMA, +Z) it is read as convert retargets it,
// so the two are one motion (world space, B turned) rather than 146° apart in local values.
// Another rig's raw local values (a three.js clip of a VRM Add-on VRMA, whose rest rotations
// are not identity) stay compared by name, as before. Returns whether it did.
bool ReadAsNormalisedHumanoid(DiffInput& restless, const DiffInput& other) {
  Rig& rig = restless.asset.rig;
  const Rig& normalised = other.asset.rig;
  if (rig.rest_pose_known || !HasHumanoidBones(rig) || !other.format ||
      other.format->normalized_humanoid != NormalizedHumanoid::kAlways ||
      !normalised.rest_pose_known) {
    return false;
  }
  const bool identity_rest =
      std::all_of(normalised.nodes.begin(), normalised.nodes.end(), [](const Node& node) {
        return !node.human_bone || AngleBetween(node.rest_rotation, {0, 0, 0, 1}) < 1e-8;
      });
  const Facing declared = restless.asset.coordinates.facing;
  const Facing measured = FacingFromRestPose(normalised, other.asset.coordinates.handedness);
  if (!identity_rest || declared == Facing::kUnknown || measured == Facing::kUnknown ||
      declared == measured) {
    return false;
  }
  // A three.js clip names its bones but holds no hierarchy: the T-pose rig's is the humanoid one.
  const bool flat = std::all_of(rig.nodes.begin(), rig.nodes.end(),
                                [](const Node& node) { return node.parent < 0; });
  if (flat) LinkHumanoidParents(rig);
  ApplyHumanoidTPose(rig, restless.asset.coordinates.facing);
  return true;
}

// A file without times (a Unity CSV) holds only the order of its rows: read at the reader's
// default interval it would be compared with a clip of another rate as a slowed or sped-up motion.
// Without --interval/--fps, when exactly one side is such a file, its rows are spread over the
// other clip's duration (the writer puts the first row at 0 and the last at the duration). Kept as
// read when that changes the interval by less than float32 time precision.
FittedRows FitUntimedRows(const std::string& path_a, const std::string& path_b,
                          ConvertOptions options, const DiffOptions& diff_options, DiffInput* a,
                          DiffInput* b, Diagnostics* diagnostics) {
  FittedRows fitted;
  if (a->untimed_rows == b->untimed_rows) return fitted;
  const auto [ca, cb] = SelectClipPair(a->asset, b->asset, diff_options);
  const bool fit_a = a->untimed_rows;
  const double untimed = fit_a ? ca->duration() : cb->duration();
  const double timed = fit_a ? cb->duration() : ca->duration();
  if (!(untimed > 0) || !(timed > 0) || std::abs(timed / untimed - 1) < 1e-6) return fitted;
  fitted.side = fit_a ? 'A' : 'B';
  fitted.interval_seconds = options.read.row_interval_seconds * (timed / untimed);
  fitted.duration_seconds = timed;
  options.read.row_interval_seconds = fitted.interval_seconds;
  DiffInput& refit = fit_a ? *a : *b;
  refit = Load(fit_a ? path_a : path_b, options, diagnostics);
  return fitted;
}

// B on the model it was written for (RunDiffJob's `skeleton_b`): the model's rig, with B's clips
// bound to its nodes by name, B's three.js names (sanitised: "mixamorigHips") matched as
// three.js binds them.
void PlayOnModel(DiffInput& b, const std::string& model_path, const ConvertOptions& options,
                 Diagnostics* diagnostics) {
  if (b.asset.rig.rest_pose_known) {
    ThrowUsage(
        "--skeleton-b gives a rest pose to a clip that holds none (three.js JSON, CSV); "
        "B holds its own, which is what it plays on");
  }
  ConvertOptions model_options = options;
  model_options.from.clear();
  model_options.read.bone_names.clear();
  Asset model = LoadAsset(model_path, model_options, diagnostics).asset;
  std::map<std::string, int> exact;
  std::map<std::string, int> sanitised;
  for (size_t n = 0; n < model.rig.nodes.size(); ++n) {
    exact.emplace(model.rig.nodes[n].name, static_cast<int>(n));
    sanitised.emplace(SanitizeNodeName(model.rig.nodes[n].name), static_cast<int>(n));
  }
  for (Clip& clip : b.asset.clips) {
    for (Channel& channel : clip.channels) {
      const std::string& name = b.asset.rig.nodes[static_cast<size_t>(channel.node)].name;
      auto found = exact.find(name);
      if (found == exact.end()) {
        found = sanitised.find(SanitizeNodeName(name));
        if (found == sanitised.end()) found = exact.end();
      }
      if (found == exact.end()) {
        ThrowUsage(
            fmt::format("--skeleton-b: B's clip '{}' animates '{}', which {} has no node "
                        "of (by name, or by three.js's name for it)",
                        clip.name, name, model_path));
      }
      const Node& node = model.rig.nodes[static_cast<size_t>(found->second)];
      if (channel.path == Path::kWeights && channel.width != node.morph_target_count) {
        ThrowUsage(
            fmt::format("--skeleton-b: B's clip '{}' gives '{}' {} morph weights, and its "
                        "mesh in {} has {} targets",
                        clip.name, name, channel.width, model_path, node.morph_target_count));
      }
      channel.node = found->second;
    }
  }
  b.asset.rig = std::move(model.rig);
  b.asset.coordinates = model.coordinates;
}

}  // namespace

const char* DiffSpaceName(DiffSpace space) {
  return space == DiffSpace::kWorld ? "world" : space == DiffSpace::kLocal ? "local" : "auto";
}

const char* DiffFacingName(Facing facing) { return facing == Facing::kMinusZ ? "-Z" : "+Z"; }

DiffJobResult RunDiffJob(const std::string& path_a, const std::string& path_b,
                         const ConvertOptions& options, const DiffOptions& diff_options,
                         bool rows_timed, Diagnostics* diagnostics, const std::string& skeleton_b) {
  DiffInput a = Load(path_a, options, diagnostics);
  DiffInput b = Load(path_b, options, diagnostics);
  DiffJobResult result;
  if (!rows_timed) {
    result.fitted = FitUntimedRows(path_a, path_b, options, diff_options, &a, &b, diagnostics);
  }
  if (!skeleton_b.empty()) PlayOnModel(b, skeleton_b, options, diagnostics);
  if (ReadAsNormalisedHumanoid(a, b)) {
    result.normalised = {'A', a.asset.coordinates.facing};
  } else if (ReadAsNormalisedHumanoid(b, a)) {
    result.normalised = {'B', b.asset.coordinates.facing};
  }
  for (const char side : {'B', 'A'}) {
    Asset& look_at_side = side == 'B' ? b.asset : a.asset;
    const LookAtEyeMapping mapping =
        PlayLookAtOnEyes(look_at_side, side == 'B' ? a.asset : b.asset);
    if (mapping == LookAtEyeMapping::kNone) continue;
    result.look_at_on_eyes = {side, mapping == LookAtEyeMapping::kRangeMaps};
    break;
  }
  const auto [ca, cb] = SelectClipPair(a.asset, b.asset, diff_options);
  result.diff = DiffClips(a.asset, *ca, b.asset, *cb, diff_options);
  return result;
}

std::string DiffJson(const std::string& path_a, const std::string& path_b,
                     const DiffJobResult& result, const DiffOptions& options) {
  nlohmann::json out = ToJson(path_a, path_b, result.diff, options);
  const FittedRows& fitted = result.fitted;
  if (fitted.side) {
    out[fitted.side == 'A' ? "a" : "b"]["row_interval_seconds"] = fitted.interval_seconds;
    out[fitted.side == 'A' ? "a" : "b"]["rows_fitted"] = true;
  }
  const NormalisedReading& normalised = result.normalised;
  if (normalised.side) {
    out[normalised.side == 'A' ? "a" : "b"]["read_as_normalised_humanoid"] = {
        {"facing", DiffFacingName(normalised.facing)}};
  }
  const LookAtOnEyes& look_at = result.look_at_on_eyes;
  if (look_at.side) {
    out[look_at.side == 'A' ? "a" : "b"]["look_at_played_on_eyes"] = {
        {"mapping", look_at.through_range_maps ? "range maps" : "1:1"}};
  }
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace animconv
