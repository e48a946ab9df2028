// How much of the input's animation a conversion kept (docs/cli.md, "Partial outputs"): the
// project rule is that exit 0 means the motion is right, so an output that lost most of what the
// input held, or holds no animation, is an error unless the user asks for it (--allow-partial).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "animconv/format.h"
#include "animconv/model.h"

namespace animconv {

struct CoverageCheck {
  // The output is humanoid: its rig is the humanoid bones (vrma, unity-csv, --skeleton), so the
  // humanoid bone rules apply.
  bool humanoid_output = false;
  // The output's nodes are the input's, index for index (no --source-rig, no retargeting):
  // channels are matched by node index, so --bone-map renames do not count as losses.
  bool same_nodes = false;
  // Retargeted (RetargetClips): a rotation on a node the target lacks is passed on to the
  // humanoid bones below it, so such a node counts as folded, not lost.
  bool retargeted = false;
};

struct CoverageLoss {
  // Most of the input is lost, or nothing is left: an Error(kBadInput) without --allow-partial.
  bool partial = false;
  std::string summary;  // what was lost, one sentence (empty when nothing was)
  std::string fix;      // for a partial output: what the user can do instead
  // Smaller losses and folded bones, naming them: warnings.
  std::vector<std::string> details;
};

// What the input animated, taken before the pipeline moves the asset on.
// What coverage needs of an input node; the rig itself is not copied (a BVH of 30,000 joints held
// a second 21 MB rig for it, docs/reliability.md).
struct CoverageNode {
  std::string name;
  int parent = -1;
  std::optional<HumanBone> human_bone;
  std::optional<VrmaRole> vrma_role;
};

struct InputCoverage {
  std::vector<CoverageNode> nodes;  // the input rig's, index for index
  size_t clips = 0;
  size_t channels = 0;
  std::vector<std::pair<int, Path>> animated;  // (node, path) of the animated channels
  // The channels that hold one value away from the node's rest value (a finger curl a Unity CSV
  // keeps still): no motion, but a pose an output without the node loses. `away`: how far, in the
  // path's unit (degrees, metres, scale ratio, weight).
  struct Posed {
    int node = -1;
    Path path = Path::kRotation;
    double away = 0;
  };
  std::vector<Posed> posed;
};
InputCoverage DescribeInputCoverage(const Asset& input);

// Compares what `output` (PrepareAsset's result) still animates with what `input` (LoadAsset's,
// after --clip) animated, counting only channels `format`'s writer holds (unity-csv: bone
// rotations of its columns, `write.bone_names`). An input channel is animated when its values
// change between keys. The output is partial when
// - it has no clip or no channel, or
// - more than half of the input's animated channels have no place in it, or
// - for humanoid outputs, more than half of the input's animated humanoid bones, or any VRM 1.0
//   required bone the input animates, have no place in it.
// A still pose away from the rest pose (InputCoverage::posed) with no place in the output is
// named in a detail (a warning), never made partial.
CoverageLoss MeasureCoverageLoss(const InputCoverage& input, const Asset& output,
                                 const Format& format, const WriteOptions& write,
                                 const CoverageCheck& check);

}  // namespace animconv
