// `animconv diff A B`: how far apart two clips are, in degrees, metres, scale ratio and weight
// units (animconv/clip_diff.h). The numbers are the result, so comparing always exits 0.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include "animconv/diff_job.h"
#include "animconv/error.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"
#include "libconvert/text.h"

namespace animconv::cli {
namespace {

constexpr const char* kUsage = "animconv diff A B [--clip NAME|INDEX] [--json] [options]";

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
    std::cout << fmt::format("space: {} ({}){}\n", DiffSpaceName(diff.space), diff.space_reason,
                             diff.space == DiffSpace::kWorld
                                 ? "; rotations as W(t)·W_rest⁻¹, positions in model space"
                                 : "");
  }
  if (normalised.side) {
    std::cout << fmt::format(
        "rest pose: {} has none: its rotations read as normalised humanoid ones on the T-pose rig "
        "facing {}, as convert retargets it\n",
        normalised.side, DiffFacingName(normalised.facing));
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

}  // namespace

int RunDiff(const std::vector<std::string>& args) {
  InputOptionValues input;
  DiffOptionValues values;
  bool json = false;
  size_t top = 10;
  po::options_description general("Diff");
  // clang-format off
  general.add_options()
      ("help,h", "show this help")
      ("json", po::bool_switch(&json),
       "print everything (per channel, per bone, per unit, channels only in one clip) as JSON")
      ("clip", po::value(&values.clip_a),
       "A's clip (name or 0-based index); default: the first, or the one named like B's only "
       "clip")
      ("clip-b", po::value(&values.clip_b),
       "B's clip; default: the one named like A's clip, else B's only clip (never a guess by "
       "index)")
      ("top", po::value(&top)->default_value(top), "text output: the worst N channels per unit")
      ("hierarchical", po::value(&values.hierarchical),
       "also measure the ozz/ACL virtual-vertex error: how far points at this many metres from "
       "each joint move, errors accumulated down the hierarchy (e.g. 0.1)")
      ("samples-between",
       po::value(&values.samples_between)->default_value(values.samples_between),
       "evenly spaced samples between consecutive key times, besides the keys of both clips")
      ("cubic-chord-fraction",
       po::value(&values.cubic_chord_fraction)->default_value(values.cubic_chord_fraction),
       "also sample cubic splines until each is within this fraction of the --reduce tolerance "
       "of its chord between samples (0: off)")
      ("space", po::value(&values.space)->default_value(values.space),
       "auto: local values where the rigs agree, else model space (world); local or world: "
       "force one")
      ("mirror", po::value(&values.mirror),
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
  DiffOptions diff_options;
  animconv::ApplyDiffOptions(values, GivenIn(map), &options, &diff_options);

  Diagnostics diagnostics;
  DiffJobResult result;
  PrintingDiagnostics(diagnostics, [&] {
    result = RunDiffJob(inputs[0], inputs[1], options, diff_options,
                        map.count("interval") || map.count("fps"), &diagnostics);
  });
  if (json) {
    std::cout << DiffJson(inputs[0], inputs[1], result, diff_options) << "\n";
  } else {
    PrintText(inputs[0], inputs[1], result.diff, diff_options, top, result.fitted,
              result.normalised);
  }
  return 0;
}

}  // namespace animconv::cli
