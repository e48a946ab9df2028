#include <fmt/format.h>

#include <iostream>

#include "animconv/info_report.h"
#include "animconv/summary.h"
#include "cli/commands.h"
#include "cli/diagnostics.h"
#include "cli/input_options.h"

namespace animconv::cli {

int RunInfo(const std::vector<std::string>& args) {
  InputOptionValues input;
  bool json = false;
  std::string bone_map;
  po::options_description general("Info");
  // clang-format off
  general.add_options()
      ("help,h", "show this help")
      ("json", po::bool_switch(&json), "machine-readable output")
      ("bone-map", po::value(&bone_map),
       "file of 'from,to' lines renaming the input's nodes, as convert applies it: info then "
       "shows the rig and humanoid coverage convert would work with");
  // clang-format on
  po::options_description visible;
  visible.add(general).add(InputOptions(&input));
  po::variables_map map;
  if (!ParseCommandLine(args, "animconv info INPUT [--json] [options]", visible, "input", &map)) {
    return 0;
  }
  ConvertOptions options;
  ApplyInputOptions(input, map, &options);
  const std::string path = map["input"].as<std::string>();
  PrepareHeapForInputs({path});
  Diagnostics diagnostics;
  LoadedAsset loaded;
  PrintingDiagnostics(diagnostics,
                      [&] { loaded = LoadForInfo(path, options, bone_map, &diagnostics); });
  const AssetSummary summary = Summarize(loaded.asset);
  if (json) {
    std::cout << InfoJson(path, loaded, summary) << "\n";
  } else {
    std::cout << InfoText(path, loaded, summary);
  }
  return 0;
}

}  // namespace animconv::cli
