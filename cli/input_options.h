// Options every command that reads an input shares (--from, --bones, --interval/--fps, limits).
#pragma once

#include <boost/program_options.hpp>

#include "animconv/convert.h"

namespace animconv::cli {

namespace po = boost::program_options;

struct InputOptionValues {
  std::string from;
  std::string bones_file;
  double interval_seconds = 0;
  double fps = 0;
  double scale = 1;
  uint64_t max_input_mb = kDefaultMaxInputBytes >> 20;
};

// `writes`: the command also writes (convert, batch), so --interval/--fps describe the output
// grid too; info and diff only read, and their --help must not promise what they never do.
po::options_description InputOptions(InputOptionValues* values, bool writes = false);
// Fills the read side of `options` (loads the bone list file when given).
void ApplyInputOptions(const InputOptionValues& values, const po::variables_map& map,
                       ConvertOptions* options);

// Parses `args` with a positional INPUT; prints help and returns false for --help.
bool ParseCommandLine(const std::vector<std::string>& args, const char* usage,
                      const po::options_description& visible, const std::string& positional_name,
                      po::variables_map* map);

}  // namespace animconv::cli
