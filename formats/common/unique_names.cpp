#include "formats/common/unique_names.h"

#include <fmt/format.h>

namespace animconv {

std::string UniqueNames::Make(const std::string& wanted) {
  if (used_.insert(wanted).second) return wanted;
  int& suffix = next_suffix_.try_emplace(wanted, 2).first->second;
  std::string name;
  do {
    name = fmt::format("{}_{}", wanted, suffix++);
  } while (!used_.insert(name).second);
  return name;
}

}  // namespace animconv
