#include <spdlog/spdlog.h>

#include <cmath>

#include "animconv/bake.h"
#include "animconv/error.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {

int RunBake(const std::vector<std::string>& args) {
  std::string output;
  std::string clip;
  std::string node;
  double fps = 0;
  uint64_t max_input_mb = kDefaultMaxInputBytes >> 20;

  po::options_description visible("Bake");
  // clang-format off
  visible.add_options()
      ("help,h", "show this help")
      ("output,o", po::value(&output)->required(),
       "output JSON for p5.js (written atomically; layout in docs/cookbook/p5js.md)")
      ("clip", po::value(&clip),
       "bake this clip (name or 0-based index); default: the first clip that animates morph "
       "weights")
      ("node", po::value(&node),
       "bake the morph weights of this node; needed when the clip animates several")
      ("fps", po::value(&fps),
       "frames per second on a uniform grid from 0 to the clip's end; default: one frame per "
       "key of the weights channel")
      ("max-input-mb", po::value(&max_input_mb)->default_value(max_input_mb),
       "refuse inputs larger than this many MiB");
  // clang-format on
  std::vector<std::string> limits;
  AddLimitOptions(&visible, &limits);
  po::variables_map map;
  if (!ParseCommandLine(args, "animconv bake INPUT -o OUTPUT [options]", visible, "input", &map)) {
    return 0;
  }
  P5BakeFileOptions options;
  options.max_input_bytes = max_input_mb << 20;
  ApplyLimitOptions(limits, map, &options.limits);
  if (map.count("clip")) options.clip = clip;
  if (map.count("node")) options.bake.node = node;
  if (map.count("fps")) {
    if (!(fps > 0) || !std::isfinite(fps)) ThrowUsage("--fps must be a positive number");
    options.bake.fps = fps;
  }

  const std::string input = map["input"].as<std::string>();
  P5BakeReport report;
  PrintingDiagnostics(report.diagnostics, [&] { BakeP5File(input, output, options, &report); });
  spdlog::info("{}: clip '{}', node '{}': {} frames of {} vertices -> {}", input, report.clip,
               report.node, report.frames, report.vertices, output);
  return 0;
}

}  // namespace animconv::cli
