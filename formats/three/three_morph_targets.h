// Morph weights in three.js clips: per-target tracks of one node
// (`X.morphTargetInfluences[name]`) merge into one weights channel, and every weights track must
// agree with the node's one morph target list (the clip model has one per node, for every clip).
// Private to the three.js clip reader (three_json_reader.cpp).
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"
#include "formats/common/json_pointer.h"

namespace animconv {

// The per-target tracks of one node in the clip being read, merged at the end of the clip.
struct ThreeMorphGroup {
  size_t slot = 0;  // index of the channel in the clip
  std::string first_track;
  std::string first_pointer;
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
};

// Makes `node`'s morph targets `count` unnamed ones or the `names`, or checks them against those
// an earlier track set; a mismatch fails at `pointer`, naming `track`. Returns, per node target,
// the index of its column in the track(s).
std::vector<size_t> ThreeMorphColumns(Node& node, size_t count,
                                      const std::vector<std::string>& names,
                                      const std::string& track, const std::string& pointer,
                                      const JsonPointerReader& json);

// Interleaves the group's per-target columns into `channel` (the one at the group's slot), in the
// node's target order.
void MergeThreeMorphGroup(const ThreeMorphGroup& group, Node& node, Channel& channel,
                          const JsonPointerReader& json);

}  // namespace animconv
