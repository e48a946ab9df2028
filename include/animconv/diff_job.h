// `animconv diff A B`: both inputs read as diff compares them (one handedness; a rest-less
// humanoid read as convert retargets it; untimed rows spread over the other clip), the comparison
// (animconv/clip_diff.h) and its `--json` report. The CLI (cli/diff_command.cpp) and the web API
// (web/src) both call these, so both builds compare and report the same way.
#pragma once

#include <string>

#include "animconv/clip_diff.h"
#include "animconv/convert.h"
#include "animconv/diagnostic.h"

namespace animconv {

// How one input's rows were timed to span the other clip (a Unity CSV has no times).
struct FittedRows {
  char side = 0;  // 'A' or 'B'; 0: nothing was fitted
  double interval_seconds = 0;
  double duration_seconds = 0;  // the other clip's
};

// An input read other than as its own file says (a rest-less humanoid clip put on the T-pose rig).
struct NormalisedReading {
  char side = 0;  // 'A' or 'B'; 0: neither
  Facing facing = Facing::kUnknown;
};

// A VRMA's lookAt, which holds no eye bones, played on eyes to compare with the other input's eye
// bones (docs/cli.md, `diff`: "lookAt and eyes").
struct LookAtOnEyes {
  char side = 0;                    // 'A' or 'B', the side whose lookAt was played; 0: neither
  bool through_range_maps = false;  // the other side's own (a VRM model's bone lookAt), else 1:1
};

struct DiffJobResult {
  ClipDiff diff;
  FittedRows fitted;
  NormalisedReading normalised;
  LookAtOnEyes look_at_on_eyes;
};

// Reads `path_a` and `path_b` with `options` (their diagnostics go to `diagnostics`, in the order
// they happen) and compares them. `rows_timed`: --interval or --fps was given, so untimed rows
// keep that interval instead of being fitted to the other clip. `skeleton_b` (`--skeleton-b`):
// the model B was written for (convert --skeleton), whose rest pose B's clip plays on when B
// holds none (three.js JSON, CSV): each of B's tracks binds the model's node of its name, or of
// its three.js name. Refused (Error(kUsage)) when B has a rest pose, or a track names no node.
DiffJobResult RunDiffJob(const std::string& path_a, const std::string& path_b,
                         const ConvertOptions& options, const DiffOptions& diff_options,
                         bool rows_timed, Diagnostics* diagnostics,
                         const std::string& skeleton_b = std::string());

// The `--json` report (indented by 2, bytes that are not UTF-8 replaced by U+FFFD), no newline.
std::string DiffJson(const std::string& path_a, const std::string& path_b,
                     const DiffJobResult& result, const DiffOptions& options);

// The text report `animconv diff` prints (no --json): at most `top` names per list and channels per
// unit; names from the inputs escaped for the terminal.
std::string DiffText(const std::string& path_a, const std::string& path_b,
                     const DiffJobResult& result, const DiffOptions& options, size_t top);

const char* DiffSpaceName(DiffSpace space);  // "auto", "local", "world"
const char* DiffFacingName(Facing facing);   // "+Z", "-Z"

}  // namespace animconv
