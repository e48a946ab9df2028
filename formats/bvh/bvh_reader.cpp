#include "formats/bvh/bvh_reader.h"

#include "animconv/axes.h"
#include "animconv/euler.h"
#include "formats/bvh/bvh_hierarchy.h"
#include "formats/bvh/bvh_motion.h"
#include "formats/bvh/bvh_text.h"
#include "formats/common/source_name.h"
#include "formats/common/utf8_names.h"

namespace animconv {

bool SniffBvh(std::string_view bytes) {
  BvhCursor cursor(bytes.substr(0, 4096), "");
  return cursor.Next().text == "HIERARCHY";
}

Asset ReadBvh(std::string_view bytes, const ReadOptions& options) {
  BvhCursor cursor(bytes, options.source);
  const BvhHierarchy hierarchy = ParseBvhHierarchy(cursor, options.limits);
  BvhMotion motion = ParseBvhMotion(cursor, hierarchy, options.limits, options.diagnostics);

  Asset asset;
  // BVH's rest pose: every joint at its OFFSET, unrotated.
  asset.rig.rest_pose_known = true;
  asset.rig.nodes.reserve(hierarchy.joints.size());
  for (const BvhFileJoint& joint : hierarchy.joints) {
    Node& node = asset.rig.nodes.emplace_back();
    node.name = joint.name;
    node.parent = joint.parent;
    node.rest_translation = joint.offset;
    // The rotation channels' order, which the BVH writer keeps (docs/formats/bvh.md, "Rotation
    // order"): three distinct axes as declared, else none (the writer's default).
    std::string order;
    for (const BvhChannel channel : joint.channels) {
      if (!IsPosition(channel)) order += "XYZ"[AxisOf(channel)];
    }
    if (ParseEulerOrder(order)) node.euler_order = order;
  }
  Clip& clip = asset.clips.emplace_back();
  clip.name = ClipNameFromSource(options.source);
  clip.channels = std::move(motion.channels);
  if (motion.frames == 0) {
    asset.notes.push_back("BVH 'Frames: 0': the clip is the rest pose (one key at 0 s)");
  }
  asset.coordinates = {Handedness::kRight, Facing::kUnknown};
  RepairInvalidUtf8Names(asset, &asset.notes);
  asset.notes.push_back(
      "BVH has no unit: centimetres assumed, lengths x0.01 to metres (--scale to change)");
  ScaleLengths(asset, 0.01);
  return asset;
}

}  // namespace animconv
