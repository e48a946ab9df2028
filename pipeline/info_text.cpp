// `animconv info`'s text report (the CLI prints it; the web API returns it): what InfoJson holds,
// for a person. Names and notes come from the input file, so they are escaped for the terminal
// here; the JSON report keeps them as they are (JSON escapes them).
#include <fmt/format.h>

#include "animconv/bone_names.h"
#include "animconv/info_report.h"
#include "animconv/summary.h"
#include "libconvert/body_frame.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

std::string MissingList(const std::vector<HumanBone>& bones, BoneNaming naming) {
  return bones.empty() ? "none" : fmt::format("{}", fmt::join(HumanBoneNames(bones, naming), ", "));
}

std::string HumanoidLine(const HumanoidCoverage& coverage) {
  if (coverage.mapped.empty()) {
    return "humanoid: no bones mapped (node names follow no known naming; see `animconv "
           "bones`)\n";
  }
  return fmt::format(
      "humanoid: {} of {} bones mapped; required missing for VRM 1.0/VRMA: {}; for VRM 0.x: {}\n",
      coverage.mapped.size(), kHumanBoneCount,
      MissingList(coverage.missing_required_vrm1, BoneNaming::kVrm1),
      MissingList(coverage.missing_required_vrm0, BoneNaming::kVrm0));
}

std::string Text(const std::string& path, const LoadedAsset& loaded, const AssetSummary& summary) {
  std::string out;
  out += fmt::format("{}: {}, {} bytes\n", path, loaded.format->id, loaded.input_bytes);
  // A rig drawn Z-up or facing ±X: its rest pose says how it stands, not the format's +Y/±Z.
  if (const std::optional<AxisTurn> frame = RestFrameBeyondFacing(loaded.asset.rig)) {
    out += fmt::format(
        "coordinates: {}, rest pose stands {}\n",
        summary.coordinates.handedness == Handedness::kRight ? "right-handed" : "left-handed",
        frame->DescribeUpAndFacing());
  } else {
    out += fmt::format("coordinates: {}\n", DescribeCoordinates(summary.coordinates));
  }
  out += fmt::format("rig: {} nodes, {} humanoid, rest pose {}\n", summary.node_count,
                     summary.humanoid_node_count,
                     summary.rest_pose_known ? "known" : "unknown (identity)");
  out += HumanoidLine(summary.humanoid);
  if (!summary.vrma_expressions.empty() || !summary.vrma_look_at.empty()) {
    out +=
        fmt::format("vrma: expressions ({}): {}; lookAt: {}\n", summary.vrma_expressions.size(),
                    summary.vrma_expressions.empty()
                        ? "none"
                        : fmt::format("{}", fmt::join(summary.vrma_expressions, ", ")),
                    summary.vrma_look_at.empty() ? "none" : "node '" + summary.vrma_look_at + "'");
  }
  if (!summary.rest_pose_known && summary.humanoid_node_count > 0) {
    // docs/retargeting.md: without a rest pose the rotations are taken as normalised.
    out +=
        "retargeting: no rest pose, so the rotations count as normalised (true for a "
        "VRM 0.x avatar's recording); give --source-rig MODEL for any other rig\n";
  }
  for (const std::string& note : summary.notes) out += "note: " + note + "\n";
  if (summary.rotation_keys_not_unit > 0 || summary.rotation_sign_flips > 0) {
    out += fmt::format(
        "rotations: {} keys off unit length (max error {:.2g}), {} sign flips between keys; "
        "outputs other than unity-csv get them renormalised and hemisphere-aligned\n",
        summary.rotation_keys_not_unit, summary.max_rotation_length_error,
        summary.rotation_sign_flips);
  }
  for (size_t c = 0; c < summary.clips.size(); ++c) {
    const ClipSummary& clip = summary.clips[c];
    std::string paths;
    for (const Path p : kInfoPaths) {
      const size_t count = clip.channels_per_path[static_cast<int>(p)];
      if (count > 0) paths += fmt::format("{}{} {}", paths.empty() ? "" : ", ", count, PathName(p));
    }
    std::string interpolations;
    for (const Interpolation i : kInfoInterpolations) {
      const size_t count = clip.channels_per_interpolation[static_cast<int>(i)];
      if (count > 0) {
        interpolations +=
            fmt::format("{}{} {}", interpolations.empty() ? "" : ", ", count, InterpolationName(i));
      }
    }
    if (clip.channel_count == 0) {
      out += fmt::format("clip {} '{}': no channels\n", c, clip.name);
      continue;
    }
    out += fmt::format("clip {} '{}': {:.6g} s, {}, {} channels ({}; {}), {} keys\n", c, clip.name,
                       clip.duration_seconds,
                       clip.key_rate_hz ? fmt::format("{:g} keys/s", *clip.key_rate_hz)
                                        : std::string("uneven key times"),
                       clip.channel_count, paths, interpolations, clip.key_count);
    out += fmt::format("  targets ({}): {}\n", clip.targets.size(), fmt::join(clip.targets, ", "));
    if (!clip.missing_humanoid.empty()) {
      out += fmt::format("  humanoid bones without data ({}): {}\n", clip.missing_humanoid.size(),
                         fmt::join(clip.missing_humanoid, ", "));
    }
  }
  return out;
}

// A crafted name must not reach the terminal as control characters.
AssetSummary ForTerminal(AssetSummary summary) {
  const auto escape = [](std::vector<std::string>& texts) {
    for (std::string& text : texts) text = EscapeForTerminal(text);
  };
  escape(summary.notes);
  for (ClipSummary& clip : summary.clips) {
    clip.name = EscapeForTerminal(clip.name);
    escape(clip.targets);
    escape(clip.missing_humanoid);
  }
  return summary;
}

}  // namespace

std::string InfoText(const std::string& path, const LoadedAsset& loaded,
                     const AssetSummary& summary) {
  return Text(EscapeForTerminal(path), loaded, ForTerminal(summary));
}

}  // namespace animconv
