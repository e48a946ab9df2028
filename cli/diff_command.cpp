// `animconv diff A B`: how far apart two clips are, in degrees, metres, scale ratio and weight
// units (animconv/clip_diff.h). The numbers are the result, so comparing always exits 0.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "animconv/clip_diff.h"
#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"
#include "libconvert/text.h"

namespace animconv::cli {
namespace {

constexpr const char* kUsage = "animconv diff A B [--clip NAME|INDEX] [--json] [options]";

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

const char* SpaceName(DiffSpace space) {
  return space == DiffSpace::kWorld ? "world" : space == DiffSpace::kLocal ? "local" : "auto";
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
           {{"name", SpaceName(diff.space)},
            {"requested", SpaceName(options.space)},
            {"reason", diff.space_reason},
            {"translation_scale", diff.translation_scale},
            {"turn_b", diff.turn_b}}},
          {"duration_difference_seconds", diff.duration_difference_seconds},
          {"overall", overall},
          {"only_in_a", diff.only_in_a},
          {"only_in_b", diff.only_in_b},
          {"channels", channels},
          {"bones", bones},
          {"hierarchical", hierarchical}};
}

// A channel's name as the text output shows it: "Hips.rotation", "A->B.rotation" when the
// channels were matched by humanoid identity.
std::string ChannelName(const ChannelDiff& channel) {
  const bool renamed = !channel.node_b.empty() && channel.node_b != channel.node;
  return fmt::format("{}{}.{}", channel.node, renamed ? "->" + channel.node_b : "",
                     PathName(channel.path));
}

std::string Worst(const UnitDiff& unit) {
  if (unit.worst_node.empty()) return "";
  return fmt::format("; worst {} at {:.6g} s", EscapeForTerminal(unit.worst_node),
                     unit.time_of_max_seconds);
}

// At most `top` names, so two unrelated files do not print a screenful.
void PrintNames(const char* label, const std::vector<std::string>& names, size_t top) {
  if (names.empty()) return;
  const size_t shown = std::min(names.size(), std::max<size_t>(top, 1));
  std::vector<std::string> escaped;
  for (size_t i = 0; i < shown; ++i) escaped.push_back(EscapeForTerminal(names[i]));
  std::cout << fmt::format("{} ({}): {}{}\n", label, names.size(), fmt::join(escaped, ", "),
                           shown < names.size() ? ", ..." : "");
}

// How one input's rows were timed to span the other clip (RunDiff), for the output.
struct FittedRows {
  char side = 0;  // 'A' or 'B'; 0: nothing was fitted
  double interval_seconds = 0;
  double duration_seconds = 0;  // the other clip's
};

// An input diff read other than as its own file says (ReadAsNormalisedHumanoid), for the output.
struct NormalisedReading {
  char side = 0;  // 'A' or 'B'; 0: neither
  Facing facing = Facing::kUnknown;
};

const char* FacingName(Facing facing) { return facing == Facing::kMinusZ ? "-Z" : "+Z"; }

void PrintText(const std::string& path_a, const std::string& path_b, const ClipDiff& diff,
               const DiffOptions& options, size_t top, const FittedRows& fitted,
               const NormalisedReading& normalised) {
  // Clip, node and channel names come from the input files: escaped for the terminal.
  std::cout << fmt::format("A: {} clip '{}'\nB: {} clip '{}'\n", EscapeForTerminal(path_a),
                           EscapeForTerminal(diff.clip_a), EscapeForTerminal(path_b),
                           EscapeForTerminal(diff.clip_b));
  std::cout << fmt::format(
      "sampling: both clips' keys + {} between each pair{}\n", options.samples_between_keys,
      options.cubic_chord_fraction > 0
          ? fmt::format("; cubic splines halved until within {:g} % of the tolerance of their "
                        "chord (+{} samples)",
                        options.cubic_chord_fraction * 100,
                        diff.adaptive_samples + diff.hierarchical_adaptive_samples)
          : std::string());
  // Same-rig comparisons print as they always did; a world comparison says so and why.
  if (diff.space == DiffSpace::kWorld || options.space != DiffSpace::kAuto) {
    std::cout << fmt::format("space: {} ({}){}\n", SpaceName(diff.space), diff.space_reason,
                             diff.space == DiffSpace::kWorld
                                 ? "; rotations as W(t)·W_rest⁻¹, positions in model space"
                                 : "");
  }
  if (normalised.side) {
    std::cout << fmt::format(
        "rest pose: {} has none: its rotations read as normalised humanoid ones on the T-pose rig "
        "facing {}, as convert retargets it\n",
        normalised.side, FacingName(normalised.facing));
  }
  if (fitted.side) {
    std::cout << fmt::format(
        "timing: {}'s rows have no times: read {:.10g} s apart ({:.6g} fps) to span {}'s {:.6g} "
        "s; --interval/--fps sets them\n",
        fitted.side, fitted.interval_seconds, 1 / fitted.interval_seconds,
        fitted.side == 'A' ? 'B' : 'A', fitted.duration_seconds);
  }
  if (diff.duration_difference_seconds != 0) {
    std::cout << fmt::format("duration: B - A = {:+.6g} s\n", diff.duration_difference_seconds);
  }
  for (const char* unit : {"deg", "m", "ratio", "weight"}) {
    const UnitDiff& summary = diff.overall.at(unit);
    if (summary.channels == 0) continue;
    std::cout << fmt::format("{:<6} max {:.6g} (p99 {:.6g}) over {} channels{}\n", unit,
                             summary.max, summary.p99, summary.channels, Worst(summary));
  }
  if (diff.hierarchical_overall) {
    const UnitDiff& summary = *diff.hierarchical_overall;
    std::cout << fmt::format("points at {:g} m: max {:.6g} m (p99 {:.6g}) over {} nodes{}\n",
                             *options.hierarchical_distance_metres, summary.max, summary.p99,
                             summary.channels, Worst(summary));
  }
  PrintNames("only in A", diff.only_in_a, top);
  PrintNames("only in B", diff.only_in_b, top);
  // Degrees and metres do not compare, so the worst channels are ranked within each unit.
  std::vector<const ChannelDiff*> worst;
  for (const ChannelDiff& channel : diff.channels) {
    if (channel.max > 0) worst.push_back(&channel);
  }
  std::stable_sort(worst.begin(), worst.end(), [](const ChannelDiff* x, const ChannelDiff* y) {
    return x->unit != y->unit ? x->unit < y->unit : x->max > y->max;
  });
  if (worst.empty() || top == 0) return;
  std::cout << "worst channels:\n";
  std::map<std::string, size_t> shown;
  for (const ChannelDiff* channel : worst) {
    if (shown[channel->unit]++ >= top) continue;
    std::cout << fmt::format("  {:<40} max {:.6g} {} at {:.6g} s, p99 {:.6g}{}\n",
                             EscapeForTerminal(ChannelName(*channel)), channel->max, channel->unit,
                             channel->time_of_max_seconds, channel->p99,
                             channel->only_in_a   ? " (only in A)"
                             : channel->only_in_b ? " (only in B)"
                                                  : "");
  }
}

// One input as diff compares it: the asset, and whether its format stores no times (its rows are
// times only through --interval/--fps).
struct DiffInput {
  Asset asset;
  bool untimed_rows = false;
  const Format* format = nullptr;
};

DiffInput Load(const std::string& path, const ConvertOptions& options) {
  Diagnostics diagnostics;
  LoadedAsset loaded;
  PrintingDiagnostics(diagnostics, [&] { loaded = LoadAsset(path, options, &diagnostics); });
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
FittedRows FitUntimedRows(const std::vector<std::string>& inputs, ConvertOptions options,
                          const DiffOptions& diff_options, DiffInput* a, DiffInput* b) {
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
  refit = Load(inputs[fit_a ? 0 : 1], options);
  return fitted;
}

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  InputOptionValues input;
  bool json = false;
  std::string clip_a;
  std::string clip_b;
  std::string mirror;
  std::string space = "auto";
  double hierarchical = 0;
  size_t top = 10;
  DiffOptions diff_options;
  po::options_description general("Diff");
  // clang-format off
  general.add_options()
      ("help,h", "show this help")
      ("json", po::bool_switch(&json),
       "print everything (per channel, per bone, per unit, channels only in one clip) as JSON")
      ("clip", po::value(&clip_a),
       "A's clip (name or 0-based index); default: the first, or the one named like B's only "
       "clip")
      ("clip-b", po::value(&clip_b),
       "B's clip; default: the one named like A's clip, else B's only clip (never a guess by "
       "index)")
      ("top", po::value(&top)->default_value(top), "text output: the worst N channels per unit")
      ("hierarchical", po::value(&hierarchical),
       "also measure the ozz/ACL virtual-vertex error: how far points at this many metres from "
       "each joint move, errors accumulated down the hierarchy (e.g. 0.1)")
      ("samples-between",
       po::value(&diff_options.samples_between_keys)
           ->default_value(diff_options.samples_between_keys),
       "evenly spaced samples between consecutive key times, besides the keys of both clips")
      ("cubic-chord-fraction",
       po::value(&diff_options.cubic_chord_fraction)
           ->default_value(diff_options.cubic_chord_fraction),
       "also sample cubic splines until each is within this fraction of the --reduce tolerance "
       "of its chord between samples (0: off)")
      ("space", po::value(&space)->default_value(space),
       "auto: local values where the rigs agree, else model space (world); local or world: "
       "force one")
      ("mirror", po::value(&mirror),
       "how to bring a left-handed input (Unity CSV) to right-handed for the comparison: z, x or "
       "none, as in convert. Default z");
  // clang-format on
  po::options_description visible;
  visible.add(general).add(InputOptions(&input));
  po::options_description all;
  all.add(visible);
  all.add_options()("inputs", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("inputs", 2);
  po::variables_map map;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), map);
    if (map.count("help")) {
      std::cout << kUsage << "\n" << visible << "\n";
      return 0;
    }
    po::notify(map);
  } catch (const po::error& error) {
    ThrowUsage(error.what());
  }
  if (!map.count("inputs") || map["inputs"].as<std::vector<std::string>>().size() != 2) {
    ThrowUsage(fmt::format("diff needs two inputs; usage: {}", kUsage));
  }
  const auto inputs = map["inputs"].as<std::vector<std::string>>();
  ConvertOptions options;
  ApplyInputOptions(input, map, &options);
  if (map.count("mirror")) options.mirror = ParseMirror(mirror);
  if (map.count("clip")) diff_options.clip_a = clip_a;
  if (map.count("clip-b")) diff_options.clip_b = clip_b;
  if (map.count("hierarchical")) {
    if (!(hierarchical > 0)) ThrowUsage("--hierarchical must be a positive distance in metres");
    diff_options.hierarchical_distance_metres = hierarchical;
  }
  if (space == "local") {
    diff_options.space = DiffSpace::kLocal;
  } else if (space == "world") {
    diff_options.space = DiffSpace::kWorld;
  } else if (space != "auto") {
    ThrowUsage(fmt::format("--space must be auto, local or world, not '{}'", space));
  }
  if (diff_options.samples_between_keys < 0) ThrowUsage("--samples-between must be 0 or more");
  if (!(diff_options.cubic_chord_fraction >= 0)) {
    ThrowUsage("--cubic-chord-fraction must be 0 or more");
  }

  DiffInput a = Load(inputs[0], options);
  DiffInput b = Load(inputs[1], options);
  FittedRows fitted;
  if (!map.count("interval") && !map.count("fps")) {
    fitted = FitUntimedRows(inputs, options, diff_options, &a, &b);
  }
  NormalisedReading normalised;
  if (ReadAsNormalisedHumanoid(a, b)) {
    normalised = {'A', a.asset.coordinates.facing};
  } else if (ReadAsNormalisedHumanoid(b, a)) {
    normalised = {'B', b.asset.coordinates.facing};
  }
  const auto [ca, cb] = SelectClipPair(a.asset, b.asset, diff_options);
  const ClipDiff diff = DiffClips(a.asset, *ca, b.asset, *cb, diff_options);
  if (json) {
    nlohmann::json out = ToJson(inputs[0], inputs[1], diff, diff_options);
    if (fitted.side) {
      out[fitted.side == 'A' ? "a" : "b"]["row_interval_seconds"] = fitted.interval_seconds;
      out[fitted.side == 'A' ? "a" : "b"]["rows_fitted"] = true;
    }
    if (normalised.side) {
      out[normalised.side == 'A' ? "a" : "b"]["read_as_normalised_humanoid"] = {
          {"facing", FacingName(normalised.facing)}};
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    PrintText(inputs[0], inputs[1], diff, diff_options, top, fitted, normalised);
  }
  return 0;
}

}  // namespace animconv::cli
