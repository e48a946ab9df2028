// The web API's options: a JSON object keyed by the CLI's long option names (docs/cli.md,
// "bone-map", "reduce-rotation"; the JS side also accepts camelCase), filled into the pipeline's
// option values (animconv/option_values.h) that the CLI fills from its command line. Only the
// JSON typing lives here; every check and default is the pipeline's, shared with the CLI.
#pragma once

#include <nlohmann/json.hpp>

#include "animconv/option_values.h"

namespace animconv::web {

// The values an option object gives, and which options it gave. Unknown names and values of the
// wrong JSON type are usage errors, named as the CLI names them ("--speed").
struct OptionValues {
  InputOptionValues input;
  ConvertOptionValues convert;
  DiffOptionValues diff;
  GivenOptions given;
};

// Which command's options: each takes the input options and its own (convert: those of
// ConvertOptionValues; info: bone-map; diff: those of DiffOptionValues). Anything else is an
// "unrecognised option", as on the CLI.
enum class OptionSet { kInfo, kConvert, kDiff };
OptionValues ReadOptionJson(const nlohmann::json& options, OptionSet set);

}  // namespace animconv::web
