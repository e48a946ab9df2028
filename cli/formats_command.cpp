#include <iostream>

#include "animconv/error.h"
#include "animconv/listings.h"
#include "cli/commands.h"

namespace animconv::cli {

int RunFormats(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() != "--help" && args.front() != "-h") {
    ThrowUsage("formats takes no arguments");
  }
  std::cout << FormatsTable();
  return 0;
}

}  // namespace animconv::cli
