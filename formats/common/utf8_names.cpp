#include "formats/common/utf8_names.h"

#include <fmt/format.h>

#include "libconvert/text.h"

namespace animconv {

void RepairInvalidUtf8Names(Asset& asset, std::vector<std::string>* notes) {
  int repaired = 0;
  const auto repair = [&repaired](std::string& name) {
    if (FindInvalidUtf8(name) == std::string::npos) return;
    name = ReplaceInvalidUtf8(name);
    ++repaired;
  };
  for (Node& node : asset.rig.nodes) {
    repair(node.name);
    if (node.mesh) repair(node.mesh->name);
    for (std::string& target : node.morph_target_names) repair(target);
  }
  for (Clip& clip : asset.clips) repair(clip.name);
  if (repaired > 0) {
    notes->push_back(fmt::format(
        "{} name(s) are not valid UTF-8: each invalid byte replaced by U+FFFD", repaired));
  }
}

}  // namespace animconv
