// `animconv diff`'s text report (the CLI prints it; the web API returns it): the summary per unit
// and the worst channels. Clip, node and channel names come from the input files, so they are
// escaped for the terminal here; DiffJson keeps them as they are.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "animconv/diff_job.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

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
std::string NamesLine(const char* label, const std::vector<std::string>& names, size_t top) {
  if (names.empty()) return "";
  const size_t shown = std::min(names.size(), std::max<size_t>(top, 1));
  std::vector<std::string> escaped;
  for (size_t i = 0; i < shown; ++i) escaped.push_back(EscapeForTerminal(names[i]));
  return fmt::format("{} ({}): {}{}\n", label, names.size(), fmt::join(escaped, ", "),
                     shown < names.size() ? ", ..." : "");
}

}  // namespace

std::string DiffText(const std::string& path_a, const std::string& path_b,
                     const DiffJobResult& result, const DiffOptions& options, size_t top) {
  const ClipDiff& diff = result.diff;
  const FittedRows& fitted = result.fitted;
  const NormalisedReading& normalised = result.normalised;
  std::string out;
  // Clip, node and channel names come from the input files: escaped for the terminal.
  out += fmt::format("A: {} clip '{}'\nB: {} clip '{}'\n", EscapeForTerminal(path_a),
                     EscapeForTerminal(diff.clip_a), EscapeForTerminal(path_b),
                     EscapeForTerminal(diff.clip_b));
  // The added samples are the cubic splines' halvings and the refined rotation peaks.
  out += fmt::format(
      "sampling: both clips' keys + {} between each pair{}; rotation peaks refined (+{} "
      "samples)\n",
      options.samples_between_keys,
      options.cubic_chord_fraction > 0
          ? fmt::format("; cubic splines halved until within {:g} % of the tolerance of their "
                        "chord",
                        options.cubic_chord_fraction * 100)
          : std::string(),
      diff.adaptive_samples + diff.hierarchical_adaptive_samples);
  // Same-rig comparisons print as they always did; a world comparison says so and why.
  if (diff.space == DiffSpace::kWorld || options.space != DiffSpace::kAuto) {
    out += fmt::format(
        "space: {} ({}){}\n", DiffSpaceName(diff.space), diff.space_reason,
        diff.space == DiffSpace::kWorld
            ? "; rotations from the T-pose as W(t)·W_rest⁻¹·S⁻¹, positions in model space"
            : "");
  }
  if (normalised.side) {
    out += fmt::format(
        "rest pose: {} has none: its rotations read as normalised humanoid ones on the T-pose rig "
        "facing {}, as convert retargets it\n",
        normalised.side, DiffFacingName(normalised.facing));
  }
  if (const LookAtOnEyes& look_at = result.look_at_on_eyes; look_at.side) {
    const char other = look_at.side == 'A' ? 'B' : 'A';
    out += fmt::format(
        "lookAt: {}'s lookAt played on eyes under its head ({}) to compare with {}'s eye bones\n",
        look_at.side,
        look_at.through_range_maps
            ? fmt::format("through {}'s range maps, as three-vrm turns them", other)
            : std::string("its yaw and pitch as the eyes' own, 1:1"),
        other);
  }
  if (fitted.side) {
    out += fmt::format(
        "timing: {}'s rows have no times: read {:.10g} s apart ({:.6g} fps) to span {}'s {:.6g} "
        "s; --interval/--fps sets them\n",
        fitted.side, fitted.interval_seconds, 1 / fitted.interval_seconds,
        fitted.side == 'A' ? 'B' : 'A', fitted.duration_seconds);
  }
  if (diff.duration_difference_seconds != 0) {
    out += fmt::format("duration: B - A = {:+.6g} s\n", diff.duration_difference_seconds);
  }
  for (const char* unit : {"deg", "m", "ratio", "weight"}) {
    const UnitDiff& summary = diff.overall.at(unit);
    if (summary.channels == 0) continue;
    out += fmt::format("{:<6} max {:.6g} (p99 {:.6g}) over {} channels{}\n", unit, summary.max,
                       summary.p99, summary.channels, Worst(summary));
  }
  if (diff.hierarchical_overall) {
    const UnitDiff& summary = *diff.hierarchical_overall;
    out += fmt::format("points at {:g} m: max {:.6g} m (p99 {:.6g}) over {} nodes{}\n",
                       *options.hierarchical_distance_metres, summary.max, summary.p99,
                       summary.channels, Worst(summary));
  }
  out += NamesLine("only in A", diff.only_in_a, top);
  out += NamesLine("only in B", diff.only_in_b, top);
  // Degrees and metres do not compare, so the worst channels are ranked within each unit.
  std::vector<const ChannelDiff*> worst;
  for (const ChannelDiff& channel : diff.channels) {
    if (channel.max > 0) worst.push_back(&channel);
  }
  std::stable_sort(worst.begin(), worst.end(), [](const ChannelDiff* x, const ChannelDiff* y) {
    return x->unit != y->unit ? x->unit < y->unit : x->max > y->max;
  });
  if (worst.empty() || top == 0) return out;
  out += "worst channels:\n";
  std::map<std::string, size_t> shown;
  for (const ChannelDiff* channel : worst) {
    if (shown[channel->unit]++ >= top) continue;
    out += fmt::format("  {:<40} max {:.6g} {} at {:.6g} s, p99 {:.6g}{}\n",
                       EscapeForTerminal(ChannelName(*channel)), channel->max, channel->unit,
                       channel->time_of_max_seconds, channel->p99,
                       channel->only_in_a   ? " (only in A)"
                       : channel->only_in_b ? " (only in B)"
                                            : "");
  }
  return out;
}

}  // namespace animconv
