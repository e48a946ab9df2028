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
  // The lowest foot point over the clip, before and after, in metres of the model above y = 0,
  // measured on the same samples; where and when the lowest point was before. The points are
  // the feet's sole points (GroundReport::soles), or the foot and toe joints where it has none.
  double lowest_before_metres = 0;
  double lowest_after_metres = 0;
  std::string lowest_node;
  double lowest_seconds = 0;
  double shift_metres = 0;  // added to the hips' model-space height
  size_t samples = 0;
  // lowest_node's joint height above the floor at rest (0: the joint itself was grounded).
  double sole_depth_metres = 0;
};

// Where the soles of a rig's feet are, from the meshes its foot and toe nodes move at rest
// (Node::rest_mesh_support; a node below a foot or toe counts as that foot's or toe's): each
// joint's sole points are the support points of its meshes, in the joint's own frame, so they
// turn with the foot (a heel strike lowers the heel's, a push-off the toes'); a joint whose
// meshes are all another's (a foot whose shoe is skinned to the toes) gets the point of the floor
// beneath it at rest. The floor is the lowest of those meshes' vertices.
struct RestSoles {
  double floor_metres = 0;                // the lowest such vertex's height at rest
  std::vector<std::vector<Vec3>> points;  // per FootAndToeNodes entry, in its frame
  std::vector<double> depths;             // per entry: its joint's height above the floor
  std::string lowest_node;                // the node whose meshes hold that vertex
};

struct GroundReport {
  std::vector<GroundedClip> clips;
  std::optional<RestSoles> soles;  // unset: the joints themselves were grounded
  // Set when the rig has meshes on its feet but they were not taken for soles, and why.
  std::string soles_left_out;
};

// The rig's soles (RestSoles), or nullopt when no foot or toe node moves mesh vertices at rest.
// `left_out` (may be null) receives why meshes that are there were not taken: a floor more than
// kDeepestSoleLegs of the rig's leg height (hips above the lowest ankle) below a foot joint is no
// sole (a gizmo or a ground plane hung under a foot).
constexpr double kDeepestSoleLegs = 0.25;
std::optional<RestSoles> MeasureRestSoles(const Rig& rig, std::string* left_out);

// For each clip: the lowest world height a foot or toe joint (FootAndToeNodes) reaches over the
// clip, sampled at every key time of the clip and kGroundSubdivisions times between each pair
// (curves dip between keys), is moved to y = 0 by adding the same vertical offset to the hips
// translation at every key (through the hips' parent frame, so a scaled armature node is
// honoured; cubic tangents are unchanged, a constant offset has no slope). Every joint's world
// pose moves by that offset and nothing else. A clip that does not translate the hips gets a
// constant hips translation channel. Where the rig's feet carry meshes (MeasureRestSoles), their
// soles are what touches y = 0: the lowest of the joints' sole points; otherwise the joints, which
// is all such a rig knows of its feet.
//
// Throws Error(kUsage) when the rig has no humanoid hips or no feet, or an ancestor of the hips
// moves in a clip.
constexpr int kGroundSubdivisions = 8;
// `soles` false: the joints, whatever meshes the rig has (an output that shows the skeleton
// alone, Format::skeleton_without_meshes).
GroundReport ApplyGround(Asset& asset, bool soles = true);

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
