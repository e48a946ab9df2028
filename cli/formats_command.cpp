#include <fmt/format.h>

#include <iostream>

#include "animconv/error.h"
#include "animconv/format.h"
#include "cli/commands.h"

namespace animconv::cli {

int RunFormats(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() != "--help" && args.front() != "-h") {
    ThrowUsage("formats takes no arguments");
  }
  std::cout << fmt::format("{:<16} {:<5} {:<5} {:<24} {}\n", "id", "read", "write", "extensions",
                           "description");
  for (const Format& format : Formats()) {
    std::string extensions;
    for (const std::string_view extension : format.extensions) {
      extensions += extensions.empty() ? "" : " ";
      extensions += extension;
    }
    std::cout << fmt::format("{:<16} {:<5} {:<5} {:<24} {}\n", format.id, format.read ? "yes" : "-",
                             format.write ? "yes" : "-", extensions, format.description);
  }
  return 0;
}

}  // namespace animconv::cli
