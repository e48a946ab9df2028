// Compares two clips channel by channel in physical units: what `animconv diff` prints and how the
// timing operations (resample, trim, --reduce) are proven. Format-free and pure.
//
// Units: rotations "deg" (the angle between the two quaternions, q and -q being the same),
// translations "m" (Euclidean distance), scale "ratio" (max over axes of |b / a - 1|), morph
// weights "weight" (max absolute difference over the targets).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// Where rotations and translations are compared (docs/cli.md, `diff`, "Space").
//   kLocal: each channel's own values, in its parent's frame.
//   kWorld: model space. Rotations as the rest-relative world rotation W(t) * W_rest^-1 of each
//     node (W the product of the local rotations from the root down); the error is the angle
//     between A's and B's. Translations as world positions (every parent's rotation, scale and
//     translation applied), B's multiplied by SpaceChoice's scale when the humanoid rigs' hips
//     heights differ. Scales as world scale relative to rest.
//   kAuto: local when the rigs agree at every compared node (same rest world rotation of the node
//     and of its parent, same parent world scale, same hips height), else world; usage error when
//     they differ and a rig has no rest pose (the option to use is named).
enum class DiffSpace { kAuto, kLocal, kWorld };

struct DiffOptions {
  // Which clips to compare, each a clip name, else a 0-based index (`--clip`, `--clip-b`).
  // Unset clip_a: A's first clip (or, when B has one clip, A's clip of that name). Unset clip_b:
  // B's clip with clip A's name, else B's only clip; with neither, a usage error listing B's
  // clips. Used by SelectClipPair; DiffClips takes the clips themselves.
  std::optional<std::string> clip_a;
  std::optional<std::string> clip_b;
  // Sample times are the union of both channels' key times plus this many evenly spaced times
  // inside every consecutive pair (1: the midpoint), so the error between keys is measured too.
  int samples_between_keys = 1;
  // Cubic-spline channels are also sampled adaptively: every interval between those times is halved
  // until each cubic curve stays within this fraction of the --reduce default tolerance (0.1°,
  // 0.1 mm, 0.1 % scale, 0.001 weight; reduce.h) of its chord between consecutive samples. Between
  // samples a linear side is its own chord, so the reported max is the true max to within that
  // fraction of the tolerance (docs/cli.md, `diff`). 0: keys and evenly spaced samples only.
  double cubic_chord_fraction = 0.01;
  // Also measure the ozz-animation / ACL virtual-vertex error: the object-space distance between
  // the two poses of points at this distance from each joint along its three local axes, with
  // every parent's error accumulated down the hierarchy. Both clips are posed on one skeleton (A's,
  // or B's when only B knows its rest pose), so differing rigs do not count. Unset: not measured.
  std::optional<double> hierarchical_distance_metres;
  DiffSpace space = DiffSpace::kAuto;
};

// Error of one value over the sample times. The 99th percentile is the nearest rank: the smallest
// error that at least 99 % of the samples do not exceed.
struct ChannelDiff {
  std::string node;    // the node's name in A (in B for a channel only in B)
  std::string node_b;  // the matched node's name in B; empty when B has no such node
  Path path = Path::kRotation;
  std::string unit;  // "deg", "m", "ratio", "weight"
  double max = 0;
  double p99 = 0;
  double time_of_max_seconds = 0;
  size_t samples = 0;
  size_t adaptive_samples = 0;  // of `samples`, added for a cubic spline (cubic_chord_fraction)
  // A channel only in one clip is compared against the other rig's rest value of the node
  // (weights: the mesh's default weights, else 0); when the other rig lacks the node too, against
  // this rig's own rest value.
  bool only_in_a = false;
  bool only_in_b = false;
};

// The worst error per unit of one node, over all its channels (0 when it has no such channel).
struct BoneDiff {
  std::string node;
  double rotation_deg = 0;
  double translation_m = 0;
  double scale_ratio = 0;
  double weight = 0;
  std::optional<double> hierarchical_m;  // with DiffOptions::hierarchical_distance_metres
};

struct UnitDiff {
  double max = 0;
  double p99 = 0;  // over every sample of every channel in this unit
  size_t channels = 0;
  size_t samples = 0;
  std::string worst_node;  // the node of the channel with the max; empty when every error is 0
  double time_of_max_seconds = 0;
};

struct ClipDiff {
  std::string clip_a;
  std::string clip_b;
  // Every matched or unmatched channel, in A's channel order, then B's channels only in B.
  std::vector<ChannelDiff> channels;
  std::vector<BoneDiff> bones;  // one per node with a channel in either clip, in channel order
  // Keyed "deg", "m", "ratio", "weight"; all four are always present.
  std::map<std::string, UnitDiff> overall;
  // The virtual-vertex error per node of that skeleton and overall ("m"), with
  // hierarchical_distance_metres.
  std::vector<ChannelDiff> hierarchical;
  std::optional<UnitDiff> hierarchical_overall;
  std::vector<std::string> only_in_a;  // "node.path" of channels only in A, e.g. "Hips.rotation"
  std::vector<std::string> only_in_b;
  // The space used (kLocal or kWorld, never kAuto) and why, e.g. "rest poses differ at 3 nodes
  // (first: 'mixamorig:Hips')"; translation_scale multiplies B's world positions (1 in local).
  DiffSpace space = DiffSpace::kLocal;
  std::string space_reason;
  double translation_scale = 1;
  // World space between rigs standing or facing differently (both measured on their rest poses:
  // where the left limbs are, which way is up): B's world rotations and positions were turned
  // into A's frame by `turn_b_matrix` (row-major, a signed permutation: [-1,0,0, 0,1,0, 0,0,-1]
  // is the half turn about +Y between ±Z facings).
  bool turn_b = false;
  std::array<int, 9> turn_b_matrix{1, 0, 0, 0, 1, 0, 0, 0, 1};
  double duration_difference_seconds = 0;    // B's duration minus A's
  size_t adaptive_samples = 0;               // the sum over `channels`
  size_t hierarchical_adaptive_samples = 0;  // times added to the hierarchical measurement
};

// The clips `options` names (see DiffOptions::clip_a); Error(kUsage) when one does not exist.
std::pair<const Clip*, const Clip*> SelectClipPair(const Asset& a, const Asset& b,
                                                   const DiffOptions& options);

// Channels are matched by node name and path, else by humanoid bone identity and path; weights
// channels left over pair by mesh (PairMorphChannels), their targets by name else index. Channels
// are evaluated with EvaluateChannel (slerp, cubic Hermite; values hold outside the keys) after
// renormalising rotation keys, so a file's off-unit quaternions do not count as error. Both assets
// must have the same handedness (ConvertHandedness first); Error(kUsage) otherwise.
ClipDiff DiffClips(const Asset& a, const Clip& ca, const Asset& b, const Clip& cb,
                   const DiffOptions& options);

}  // namespace animconv
