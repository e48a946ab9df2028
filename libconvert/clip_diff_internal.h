// The parts of DiffClips shared by its local comparison (clip_diff.cpp), its world-space
// comparison of two different rigs (clip_diff_world.cpp) and its morph-channel pairing
// (clip_diff_morph.cpp). Private to libconvert.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "animconv/clip_diff.h"
#include "animconv/model.h"
#include "animconv/transform.h"
#include "libconvert/body_frame.h"

namespace animconv::diff_detail {

inline constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;

// The name of the object GLTFLoader makes of each node of a glTF rig, which a three.js clip of it
// names its tracks after (as animconv's three.js writer does, formats/three/three_names.cpp):
// named nodes first, sanitised and made unique in scene order ("name_1", ...), then one object per
// mesh primitive named after the mesh ("mesh_<index>" when unnamed); a node without a name of its
// own holding a one-primitive mesh *is* that mesh object, so it goes by the mesh object's name.
// A rig read from three.js (Rig::three_object_names) keeps its names: they are the objects'.
std::vector<std::string> ThreeObjectNames(const Rig& rig);
// The same, with the object names of each node's mesh primitives (empty for nodes without a mesh).
struct ThreeNames {
  std::vector<std::string> objects;                  // per node
  std::vector<std::vector<std::string>> primitives;  // per node, per primitive
};
ThreeNames NameThreeObjects(const Rig& rig);

// The node of `rig` that stands for node `index` of `own`: where the name repeats on either side
// (also once sanitised), the same three.js object name (ThreeObjectNames: GLTFLoader's "Head",
// "Head_1"); else the same name, else the same name as three.js sanitises it (SanitizeNodeName,
// libconvert/three_node_name.h, on both sides), else, when a side has nodes without a name of their
// own or repeated names, the same three.js object name (an unnamed glTF node and the three.js track
// named after its mesh), else the same humanoid bone; -1 when there is none.
int MatchNode(const Rig& rig, const Rig& own, int index);

// Whether node `na` of `a` and node `nb` of `b` were matched by name (MatchNode's name rules),
// not by humanoid bone only.
bool MatchedByName(const Rig& a, int na, const Rig& b, int nb);

// The union of the key times, plus `between` evenly spaced times inside every consecutive pair.
std::vector<double> SampleTimes(std::vector<double> times, int between);

// `times` plus the adaptive times of every cubic-spline channel
// (DiffOptions::cubic_chord_fraction); adds the count of new times to `added`.
std::vector<double> AdaptiveTimes(std::vector<double> times,
                                  const std::vector<const Channel*>& channels, double fraction,
                                  size_t* added);

// The times at which a step channel among `channels` (null ones skipped) jumps: each key time but
// its first, sorted. Just before them the step holds its previous key, which the other curve may
// be farthest from (a step against the linear curve through the same keys: the whole last step).
std::vector<double> JumpTimes(const std::vector<const Channel*>& channels);
bool IsJump(const std::vector<double>& jumps, double seconds);

// Two rotations that turn against each other can be farthest apart between samples (two slerps of
// 171° arcs peak 7 % above their midpoint). Refines the largest samples that are local maxima of
// `errors` (at the sorted `times`; at most `max_peaks`, none under half the largest) by a golden
// section search between their neighbours, and appends one sample per refined peak, the largest
// error found, where it exceeds the peak's; adds their count to `added`. Every value is
// `error_at`'s at a real time, so the max can only rise to what a player shows.
void RefinePeaks(const std::function<double(double)>& error_at, size_t max_peaks,
                 std::vector<double>* times, std::vector<double>* errors, size_t* added);

// A copy with unit-length rotation keys: a quaternion's length carries no rotation.
Channel Renormalized(const Channel& channel);

// ValueError, the metric --reduce bounds, in the units diff reports (degrees for rotations).
double DiffError(Path path, const std::vector<double>& a, const std::vector<double>& b);

// The nearest-rank 99th percentile.
double Percentile99(std::vector<double> errors);

// Sets max, time_of_max_seconds, samples and p99 of `diff` from per-sample `errors` at `times`.
void SetFromErrors(const std::vector<double>& times, const std::vector<double>& errors,
                   ChannelDiff* diff);

// A pair of channels to compare: either may be null (a channel only in one clip), and either node
// may be -1 (the other rig has no such node).
struct ChannelPair {
  const Channel* a = nullptr;
  const Channel* b = nullptr;
  int node_a = -1;
  int node_b = -1;
};

// Weights, and the expression and lookAt nodes of a VRM Animation (a weight held in translation.x,
// a gaze direction: Node::vrma_role), are values, not poses: compared as local values in every
// space, never moved by a parent or scaled by the hips-height ratio.
bool ComparedAsValues(const Asset& a, const Asset& b, const ChannelPair& pair);

// Pairs every weights channel of A that found no partner by node with one of B's unused weights
// channels: the same mesh (a three.js clip names its tracks after the mesh object, "mesh_0" for an
// unnamed mesh, while the glTF names the node; both also as three.js sanitises them), else the only
// weights channel left on each side. A mesh of several primitives is one three.js object per
// primitive, each with its own track named after the mesh ("Cube001", "Cube001_1", ...): each
// of those is paired with the node's channel too (an extra pair after the first). Marks the
// partners in `b_used`.
void PairMorphChannels(const Asset& a, const Asset& b, const Clip& cb,
                       std::vector<ChannelPair>* pairs, std::vector<bool>* b_used);

// Copies of the two weights channels with their targets in one order: by target name when both
// nodes name all their targets (a target only one side has weighs 0 on the other); a list naming
// only the targets it animates (Node::morph_targets_partial) against an unnamed one by the index
// its decimal names stand for, three.js's reading; else by index.
void AlignMorphTargets(const Node* node_a, const Node* node_b, Channel* a, Channel* b);

// A clip's pose at any time in object space, on `skeleton`: each node's local TRS from the clip's
// channel for it (matched by name, else humanoid bone, when the clip belongs to another rig) or
// the skeleton's rest value.
class Poser {
 public:
  Poser(const Rig& skeleton, const Rig& clip_rig, const Clip& clip);

  std::vector<glm::dmat4> WorldAt(double seconds) const { return PoseAt(seconds, nullptr); }
  // Also the world rotations, the product of the local rotations from the root down, when
  // `rotations` is not null: scale left out as RestPose does, but for its signs, whose mirrors
  // are taken as three.js's Matrix4.decompose takes them (docs/cli.md, `diff`, "Space"). `before`:
  // every channel's limit from the left (EvaluateChannelBefore), the pose just before a step
  // channel's key.
  std::vector<glm::dmat4> PoseAt(double seconds, std::vector<Quat>* rotations,
                                 bool before = false) const;

 private:
  const Rig& skeleton_;
  // Per node, the index into prepared_ of its translation, rotation and scale channel, or -1.
  std::vector<std::array<int, 3>> channels_;
  std::vector<Channel> prepared_;
  std::vector<size_t> order_;
};

// Which space DiffClips compares in, and why (ClipDiff::space). Throws Error(kUsage) when the
// rigs differ and cannot be compared in world space (a rig without a rest pose).
struct SpaceChoice {
  DiffSpace space = DiffSpace::kLocal;
  std::string reason;
  double translation_scale = 1;  // applied to B's world positions
  // The turn from B's body frame to A's (BodyFrame, both measured on their rest poses): B's world
  // values are turned into A's frame first, as retargeting turns a clip between rigs standing or
  // facing differently (docs/retargeting.md). The identity for rigs that stand alike.
  AxisTurn turn_b;
};
SpaceChoice ChooseSpace(const Asset& a, const Asset& b, const std::vector<ChannelPair>& pairs,
                        DiffSpace requested);

// Measures every non-weights pair in world space (ClipDiff::space); appends one ChannelDiff per
// pair to `out` in the order of `pairs` (weights pairs are skipped) and every sample's error to
// `unit_errors`.
void MeasureWorld(const Asset& a, const Clip& ca, const Asset& b, const Clip& cb,
                  const std::vector<ChannelPair>& pairs, const DiffOptions& options,
                  const SpaceChoice& space, std::vector<ChannelDiff>* out,
                  std::map<std::string, std::vector<double>>* unit_errors, size_t* adaptive);

}  // namespace animconv::diff_detail
