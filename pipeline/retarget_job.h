// The humanoid steps of a conversion (docs/retargeting.md): putting an input on the rest pose of
// the model it was recorded on (--source-rig), and retargeting it onto another model
// (--skeleton) or onto the normalised rig a VRM Animation file holds.
#pragma once

#include <optional>

#include "animconv/axes.h"
#include "animconv/bone_names.h"
#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "animconv/retarget.h"

namespace animconv {

// The mirror that brings a left-handed recording into a model's own convention: UniVRM imports
// VRM 0.x with reverse-Z and VRM 1.0 with reverse-X (UniVRM: which inverter where), which shows in
// the facing the model's reader found (-Z for 0.x, +Z otherwise).
Mirror MirrorForModel(const Asset& model);

// Re-homes the input's channels on `model`'s nodes, matched by humanoid bone, else by name, so the
// raw rotations are read against the model's rest pose. A name matches the node's own or the one
// three.js gives it (sanitised, as our three.js JSON names tracks). The input is first made
// right-handed with `mirror`. The result keeps the model's rig, coordinates and source document (a
// glTF output is then the model with the clip). Channels on nodes the model lacks are dropped,
// with a warning naming them in `diagnostics`.
void AdoptSourceRig(Asset& input, const Asset& model, Mirror mirror, const std::string& model_name,
                    Diagnostics* diagnostics);

// Retargets the input onto `model` (RetargetClips): the result animates the model's nodes, with
// the model's rig, coordinates and source document. `interval_seconds` is the grid cubic splines
// are sampled on first (their key times when unset). A result whose hips cannot be a person's
// (CheckRetargetedHips) is a warning in `diagnostics`.
Asset RetargetOntoModel(Asset input, const Asset& model, const std::string& model_name,
                        Mirror mirror, std::optional<double> interval_seconds,
                        const RetargetOptions& options, RetargetReport* report,
                        Diagnostics* diagnostics = nullptr);

// The generated rig a normalised-humanoid format holds.
struct NormalizedRig {
  Facing facing = Facing::kPlusZ;
  // VRMA maps every VRM 1.0 bone but the eyes, which lookAt drives (VRMC_vrm_animation 1.0 schema),
  // and needs the 15 required bones; a Unity CSV has columns for all 55.
  bool eyes = false;
  bool required_vrm1_bones = true;
  // A VRMA also holds expression and lookAt nodes (Node::vrma_role): the input's are carried over
  // with their channels as they are, as parentless nodes after the humanoid ones.
  bool vrma_roles = true;
  // --expression-map: morph target name -> expression (AddExpressionsFromMorphs).
  std::vector<BoneMapEntry> expression_map;
};

// Retargets the input onto a generated VRM T-pose rig (identity rest rotations) with the input's
// humanoid bones, as `rig` says: the rig of a `.vrma` (+Z, no eyes, the 15 required bones) or of
// normalised Unity localRotations.
Asset RetargetOntoNormalizedRig(Asset input, const NormalizedRig& rig, Mirror mirror,
                                std::optional<double> interval_seconds,
                                const RetargetOptions& options, RetargetReport* report,
                                Diagnostics* diagnostics = nullptr);

// The plausibility check after a retarget whose output moves the hips (issue 13): the scaled hips
// translation is exact arithmetic, but it is only right when the input's hips translation fits
// its rest pose. Poses `retargeted` over each clip and warns, with the numbers and the fix, when
// the hips stay outside a person's height above the floor (kHipsHeightRange; for a target whose
// own rest hips are outside it, 1/3 to 2.5 times those) or the feet (foot or
// toe joints) go more than kFeetBelowFloorMetres below it. The floor is the target's, found as
// the retargeter finds it: the origin, or its lowest foot or toe joint at rest when lower.
// `source_rest_known`: whether the input had a rest pose (else --scale is the fix).
constexpr double kHipsHeightRange[2] = {0.3, 2.5};
constexpr double kFeetBelowFloorMetres = 0.05;
void CheckRetargetedHips(const Asset& retargeted, bool source_rest_known, Diagnostics* diagnostics);

}  // namespace animconv
