// Options every command that reads an input shares (--from, --bones, --interval/--fps, limits).
#pragma once

#include <boost/program_options.hpp>

#include "animconv/convert.h"
#include "animconv/option_values.h"

namespace animconv::cli {

namespace po = boost::program_options;

// The options the command line gave (not their defaults): what the pipeline's Apply*Options
// (animconv/option_values.h) take, so the CLI and the web API map options the same way.
GivenOptions GivenIn(const po::variables_map& map);

// --max-nodes, --max-depth, --max-channels, --max-keys, --max-morph-targets, --max-name-bytes:
// the readers' structure limits (docs/reliability.md, Limits) for a user whose real file is
// bigger. Every command that reads an input adds them (bake too, which has no other input option).
void AddLimitOptions(po::options_description* description, std::vector<std::string>* texts);
// Parses what AddLimitOptions collected into `limits` (animconv::ApplyLimitOptions); a usage error
// for anything but a whole number >= 1 (program_options would read "-1" into a size_t as
// 2^64 - 1: no limit at all, so the texts are collected as strings).
void ApplyLimitOptions(const std::vector<std::string>& texts, const po::variables_map& map,
                       StructureLimits* limits);

// `writes`: the command also writes (convert, batch), so --interval/--fps describe the output
// grid too; info and diff only read, and their --help must not promise what they never do.
po::options_description InputOptions(InputOptionValues* values, bool writes = false);
// Fills the read side of `options` (loads the bone list file when given):
// animconv::ApplyInputOptions with the options `map` holds.
void ApplyInputOptions(const InputOptionValues& values, const po::variables_map& map,
                       ConvertOptions* options);

// Before a command loads `paths` (the files it reads whole): when they are large, sets up this
// process's heap for them (animconv::PrepareHeapForLargeJob; docs/performance.md). A name that
// is not a readable file is left to the command to report.
void PrepareHeapForInputs(const std::vector<std::string>& paths);

// Parses `args` with a positional INPUT; prints help and returns false for --help.
bool ParseCommandLine(const std::vector<std::string>& args, const char* usage,
                      const po::options_description& visible, const std::string& positional_name,
                      po::variables_map* map);

}  // namespace animconv::cli
