#include "formats/common/source_name.h"

#include <filesystem>

namespace animconv {

std::string ClipNameFromSource(const std::string& source) {
  if (source.empty() || source.front() == '<') return "animation";
  std::string stem = std::filesystem::path(source).stem().string();
  return stem.empty() ? "animation" : stem;
}

}  // namespace animconv
