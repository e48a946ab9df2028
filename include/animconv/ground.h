// --ground: the clip moved up or down so the lowest foot point over it touches the floor
// (docs/root_motion.md, "Grounding").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

struct GroundedClip {
  std::string clip;
  // The lowest foot or toe joint over the clip, before and after, in metres of the model above
  // y = 0, measured on the same samples; where and when the lowest point was before.
  double lowest_before_metres = 0;
  double lowest_after_metres = 0;
  std::string lowest_node;
  double lowest_seconds = 0;
  double shift_metres = 0;  // added to the hips' model-space height
  size_t samples = 0;
};

struct GroundReport {
  std::vector<GroundedClip> clips;
};

// For each clip: the lowest world height a foot or toe joint (FootAndToeNodes) reaches over the
// clip, sampled at every key time of the clip and kGroundSubdivisions times between each pair
// (curves dip between keys), is moved to y = 0 by adding the same vertical offset to the hips
// translation at every key (through the hips' parent frame, so a scaled armature node is
// honoured; cubic tangents are unchanged, a constant offset has no slope). Every joint's world
// pose moves by that offset and nothing else. A clip that does not translate the hips gets a
// constant hips translation channel. The joints are what the rig knows of the feet: the soles
// of a skinned mesh lie below the ankle and toe joints by the foot's thickness.
//
// Throws Error(kUsage) when the rig has no humanoid hips or no feet, or an ancestor of the hips
// moves in a clip.
constexpr int kGroundSubdivisions = 8;
GroundReport ApplyGround(Asset& asset);

struct LowestFootPoint {
  double metres = 0;  // world height above y = 0
  std::string node;
  double seconds = 0;
  size_t samples = 0;
};

// The lowest world height a foot or toe joint reaches over `clip`, sampled as ApplyGround
// samples it; nullopt when the rig has no foot or toe bone or the clip no keys.
std::optional<LowestFootPoint> MeasureLowestFootPoint(const Rig& rig, const Clip& clip);
// Whether that lowest height is at or below `metres`, as MeasureLowestFootPoint would find it,
// but without the whole search where a key already reaches it (a walk's first key, where a
// check for floating feet needed a full pass over the clip: issue 18). False without feet.
bool FeetReachDown(const Rig& rig, const Clip& clip, double metres);

}  // namespace animconv
