// `diff` of a VRMA's lookAt against a rig's eye bones (docs/cli.md, `diff`: "lookAt and eyes"): a
// VRMA holds its gaze as a lookAt node, where the clip it was made from (or the model it was
// played on) turns eye bones, so the two sides hold no common channel and each would be compared
// with the other's rest pose. Played on eyes as a player turns them, the lookAt is compared as
// what it shows.
#pragma once

#include "animconv/model.h"

namespace animconv {

enum class LookAtEyeMapping {
  kNone,       // nothing was played: no lookAt on one side, or no eyes on the other
  kRangeMaps,  // through the eyed side's range maps: a VRM model whose bone lookAt turns them
  kOneToOne,   // yaw and pitch as the eyes' own: a rig without a lookAt of its own (a BVH)
};

// When `look_at_side` animates a lookAt node (Node::vrma_role kLookAt) and has a head but no eye
// bones, and `eyes_side` has eye bones that a lookAt turns (no lookAt, or one of type bone): gives
// `look_at_side` leftEye and rightEye nodes under its head (identity rest rotations, at the
// T-pose's eye offsets) whose rotation channels are the eye turns of every lookAt channel, as
// three-vrm's VRMLookAtBoneApplier makes them in `look_at_side`'s frame (EyeAnglesForGaze with
// `eyes_side`'s range maps, or 1:1, the mapping lookat_from_eyes.h writes a lookAt with), and
// removes the lookAt channels. Returns the mapping used.
LookAtEyeMapping PlayLookAtOnEyes(Asset& look_at_side, const Asset& eyes_side);

}  // namespace animconv
