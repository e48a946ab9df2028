// Which rig nodes a BVH file holds, under which names, with which OFFSETs and channels: the
// HIERARCHY half of the writer (docs/formats/bvh.md, "Writing").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/euler.h"
#include "animconv/model.h"

namespace animconv {

// Metres of the model to BVH units: BVH has no unit, and centimetres are what mocap files and
// importers (Blender's default, our reader) take.
constexpr double kBvhUnitsPerMetre = 100;

struct BvhJoint {
  int node = -1;    // rig node; -1 for the synthetic root joining several rig roots
  int parent = -1;  // index into BvhSkeleton::joints, -1 for the ROOT
  std::string name;
  // OFFSET in metres: the rest translation in the parent's rest world rotation (and scale), so
  // that a player whose rest rotations are identity puts the joint where the source's rest is;
  // 0 for a joint with position channels, which hold its whole translation instead.
  Vec3 offset{0, 0, 0};
  // The node's rest translation (metres, parent space): what a joint with position channels but
  // no translation channel holds in every frame, mapped like the OFFSET.
  Vec3 rest_translation{0, 0, 0};
  const Channel* rotation = nullptr;
  const Channel* translation = nullptr;  // set only when it gets position channels
  bool has_position_channels = false;    // the ROOT always; others when their translation moves
  EulerOrder order;
  std::optional<Vec3> end_site;  // metres; leaves only
  int end_site_node = -1;        // the rig's leaf node the End Site stands for, if one does
  std::vector<int> children;     // joint indices, in file order
};

struct BvhSkeleton {
  std::vector<BvhJoint> joints;  // depth-first, as the file lists them; joints[0] is the ROOT
};

// The joints for `clip`: every node the clip animates (rotation or translation), their
// ancestors, and nodes without a mesh hanging below those; a joint whose only child is an
// unanimated leaf (an `EndSite_<joint>` node read from a BVH, a Mixamo `_End` bone) gets that
// leaf's offset as its End Site, other leaves continue their own bone by its length. Several
// rig roots share a synthetic ROOT. Names are made BVH-safe and unique (a warning lists the
// changes). `order_override` (--bvh-order) wins over each node's recorded order, else ZXY.
BvhSkeleton BuildBvhSkeleton(const Asset& asset, const Clip& clip,
                             const std::optional<EulerOrder>& order_override,
                             Diagnostics* diagnostics);

// three.js's PropertyBinding.sanitizeNodeName of `name` (whitespace becomes '_', `[ ] . : /`
// are removed: BVH names are whitespace-separated tokens, and BVHLoader binds tracks named
// `<name>.quaternion` through PropertyBinding, which reads those characters as syntax; GLTFLoader
// names nodes the same way), braces made '_'; "joint" when nothing is left.
std::string BvhSafeName(const std::string& name);

}  // namespace animconv
