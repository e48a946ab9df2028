// A VRM Animation's lookAt played onto a VRM model (`--skeleton avatar.vrm`) as three-vrm turns
// the model's eyes for it (docs/formats/vrma.md, "lookAt on a model"): the gaze's yaw and pitch
// (gaze.h) through the model's range maps (VRMLookAtBoneApplier.applyYawPitch), written as
// rotation channels on the model's own leftEye and rightEye nodes, so a plain glTF player shows
// what three-vrm shows.
#pragma once

#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "pipeline/vrm_expression_binds.h"

namespace animconv {

// The rotation three-vrm gives the model's raw `eye` node (leftEye or rightEye of `rig`, a VRM
// model's rig) for a lookAt rotation `gaze`: per eye, yaw through the inner or outer horizontal
// range map and pitch through the down or up one, E = Ry(yaw) · Rx(pitch), turned into the face's
// front F (identity for +Z, 180° about Y for a VRM 0.x model), then onto the raw bone:
// P⁻¹ · F·E·F⁻¹ · P · R, P the rest world rotation of the eye's parent and R the eye's rest
// rotation.
Quat EyeRotationForGaze(const Rig& rig, int eye, bool left, const VrmLookAt& look_at,
                        const Quat& gaze);

// The weights three-vrm's VRMLookAtExpressionApplier gives lookUp, lookDown, lookLeft and
// lookRight for the lookAt channel `look_at` on a model whose lookAt is `maps` (an expression
// lookAt): a negative pitch weighs lookUp by the up map and clears lookDown, a positive one the
// reverse; a negative yaw weighs lookRight by the horizontal outer map, a positive one lookLeft.
// Keyed at the lookAt's keys, where a yaw or pitch crosses 0 or a range map's input maximum
// (found to 1e-12 s), and where linear interpolation would leave the weight by more than
// kExpressionBindTolerance halfway. `added_keys` grows by the keys added.
std::vector<ExpressionWeightTrack> LookExpressionTracks(const Channel& look_at,
                                                        const VrmLookAt& maps, size_t* added_keys);

// For each clip c with a channel on the lookAt node of `role_nodes` (Node::vrma_role;
// `channels[c]`'s nodes index role_nodes), plays it on `model` as three-vrm does. A bone lookAt:
// replaces out.clips[c]'s eye rotations (out has the model's rig) by the ones three-vrm turns the
// model's eyes to, keyed at the lookAt's keys, with keys added where the slerp would leave them by
// more than kGazeToleranceRadians. An expression lookAt: returns clip c's LookExpressionTracks, for
// PlayVrmaExpressionsOnModel to play through the model's binds. A model without a lookAt, or with
// a bone lookAt and no eyes, gets nothing, with a warning that says why; a note says what was made.
std::vector<std::vector<ExpressionWeightTrack>> PlayVrmaLookAtOnModel(
    const std::vector<Node>& role_nodes, const std::vector<std::vector<Channel>>& channels,
    const Asset& model, const std::string& model_name, Asset& out, Diagnostics* diagnostics);

}  // namespace animconv
