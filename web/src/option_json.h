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
  BakeOptionValues bake;
  GivenOptions given;
};

// Which command's options: each takes the input options and its own (convert: those of
// ConvertOptionValues; info: bone-map; diff: those of DiffOptionValues), but bake, which takes
// --clip, --node, --fps, --max-input-mb and the limits. Anything else is an "unrecognised
// option", as on the CLI.
enum class OptionSet { kInfo, kConvert, kDiff, kBake };

// A number or whole number given as command-line text (the npm CLI passes every value as typed),
// read as the native CLI's Boost.Program_options reads it (boost::lexical_cast): the whole text,
// no spaces, decimal; "inf" and "nan" for real numbers; a usage error otherwise.
double ParseRealText(const std::string& name, const std::string& text);
int64_t ParseIntegerText(const std::string& name, const std::string& text, int64_t min,
                         int64_t max);
uint64_t ParseUnsignedText(const std::string& name, const std::string& text);
OptionValues ReadOptionJson(const nlohmann::json& options, OptionSet set);

}  // namespace animconv::web
