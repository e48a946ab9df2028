// The HIERARCHY section: ROOT, JOINT and End Site entries in file order, read without recursion
// (an explicit stack of open joints), each structure limit checked where the file states it.
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"
#include "formats/bvh/bvh_text.h"

namespace animconv {

enum class BvhChannel { kXposition, kYposition, kZposition, kXrotation, kYrotation, kZrotation };

// "Xposition" ... "Zrotation", as CHANNELS spells them.
const char* BvhChannelName(BvhChannel channel);
inline bool IsPosition(BvhChannel channel) { return channel <= BvhChannel::kZposition; }
// 0, 1, 2 for X, Y, Z.
inline int AxisOf(BvhChannel channel) { return static_cast<int>(channel) % 3; }

// A joint as the file declares it (the writer's own BvhJoint, bvh_skeleton.h, is another type:
// one name for both broke the one-definition rule, and the ASan build read past a vector).
struct BvhFileJoint {
  std::string name;  // an End Site is named "EndSite_<joint>" (as Assimp named them)
  int parent = -1;   // index into BvhHierarchy::joints
  bool end_site = false;
  Vec3 offset{0, 0, 0};              // in the file's unit
  std::vector<BvhChannel> channels;  // as CHANNELS lists them: the order the values come in
  bool has_position = false, has_rotation = false;
};

struct BvhHierarchy {
  std::vector<BvhFileJoint> joints;  // depth first, in file order (a parent before its children)
  size_t channel_values = 0;         // values per MOTION frame: the sum of every CHANNELS count
};

// Reads from "HIERARCHY" through the "MOTION" keyword (consumed). Several ROOTs are several
// roots. Throws Error(kBadInput) at the offending token's LINE:COLUMN.
BvhHierarchy ParseBvhHierarchy(BvhCursor& cursor, const StructureLimits& limits);

}  // namespace animconv
