#include "formats/three/three_morph_targets.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace animconv {

std::vector<size_t> ThreeMorphColumns(Node& node, size_t count,
                                      const std::vector<std::string>& names,
                                      const std::string& track, const std::string& pointer,
                                      const JsonPointerReader& json) {
  std::vector<size_t> columns(count);
  for (size_t t = 0; t < count; ++t) columns[t] = t;
  if (node.morph_target_count == 0) {
    node.morph_target_count = static_cast<int>(count);
    node.morph_target_names = names;
    return columns;
  }
  if (static_cast<size_t>(node.morph_target_count) == count && node.morph_target_names.empty() &&
      names.empty()) {
    return columns;
  }
  if (node.morph_target_names.size() == count && !names.empty()) {
    bool all_found = true;
    for (size_t t = 0; t < count && all_found; ++t) {
      const auto found = std::find(names.begin(), names.end(), node.morph_target_names[t]);
      all_found = found != names.end();
      columns[t] = static_cast<size_t>(found - names.begin());
    }
    if (all_found) return columns;
  }
  auto list = [](const std::vector<std::string>& targets) {
    return targets.empty() ? std::string("unnamed") : fmt::format("{}", fmt::join(targets, ", "));
  };
  json.Fail(pointer, fmt::format("track '{}' animates {} morph target(s) of '{}' ({}), but an "
                                 "earlier track animates {} ({}); the clip model needs the same "
                                 "targets in every clip",
                                 track, count, node.name, list(names), node.morph_target_count,
                                 list(node.morph_target_names)));
}

void MergeThreeMorphGroup(const ThreeMorphGroup& group, Node& node, Channel& channel,
                          const JsonPointerReader& json) {
  const std::vector<size_t> columns = ThreeMorphColumns(
      node, group.names.size(), group.names, group.first_track, group.first_pointer, json);
  // The brackets name the targets the clip animates, by name or index, and only those: three.js
  // binds each through the mesh's morphTargetDictionary, so their order here is not the mesh's.
  node.morph_targets_partial = true;
  channel.width = static_cast<int>(columns.size());
  const size_t key_count = channel.times_seconds.size();
  channel.values.assign(key_count * columns.size(), 0);
  for (size_t k = 0; k < key_count; ++k) {
    for (size_t t = 0; t < columns.size(); ++t) {
      channel.values[k * columns.size() + t] = group.columns[columns[t]][k];
    }
  }
}

}  // namespace animconv
