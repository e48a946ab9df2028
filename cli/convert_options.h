// The options that shape one conversion (everything but INPUT, -o and --to): shared by
// `convert` and `batch`, so a batch converts each file exactly as `convert` would.
#pragma once

#include <string>

#include "animconv/option_values.h"
#include "cli/input_options.h"

namespace animconv::cli {

// Three groups: output details (mirror, humanoid, writer options), timing, reduction.
po::options_description ConvertOptionsDescription(ConvertOptionValues* values);
// Checks the values and fills `options` (reads the --bone-map file):
// animconv::ApplyConvertOptions with the options `map` holds.
void ApplyConvertOptions(ConvertOptionValues values, const po::variables_map& map,
                         ConvertOptions* options);

}  // namespace animconv::cli
