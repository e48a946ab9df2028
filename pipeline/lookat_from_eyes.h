// A VRM Animation's lookAt from the eye bones' rotations (docs/formats/vrma.md, "lookAt from eye
// rotations"): a VRMA holds no eye bones (VRMC_vrm_animation 1.0's humanBones leave them out), its
// gaze is the lookAt node's rotation, which three-vrm reads as yaw and pitch (three.js Euler
// order YXZ, VRMLookAtQuaternionProxy) and turns the model's eyes by through its own range maps.
#pragma once

#include "animconv/diagnostic.h"
#include "animconv/model.h"

namespace animconv {

// Whether `input` animates the rotation of a leftEye or rightEye bone (values that change).
bool AnimatesEyes(const Asset& input);

// On `normalized`, a rig with identity rest rotations facing +Z (RetargetOntoNormalizedRig's):
// replaces the leftEye and rightEye nodes and their channels by one parentless lookAt node
// (Node::vrma_role kLookAt) whose rotation channel is the gaze. At every key of either eye the
// gaze's yaw and pitch are the mean of the eyes' own, each eye's rotation relative to the head as
// Euler YXZ angles taken back through `source_look_at`'s range maps when the input is a VRM model
// whose lookAt turns its eye bones (GazeForEyeAngles: played on that model, the VRMA turns its
// eyes as the input did), else 1:1 (a model whose range maps are the identity turns its eyes as
// the source did); the eyes' roll is dropped. Keys are added between two keys where the slerped
// gaze would leave the eyes' by more than kGazeToleranceRadians (gaze.h). A note in `diagnostics`
// gives the key count, the mapping, the largest disagreement between the eyes and the largest roll
// dropped; eyes far apart, a large roll and eyes turned past their own model's lookAt range are
// warnings.
void MoveEyesToLookAt(Asset& normalized, const VrmLookAt* source_look_at, Diagnostics* diagnostics);

}  // namespace animconv
