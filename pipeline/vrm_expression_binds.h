// A VRM Animation's expression weights played on a VRM model, as morph-weight channels of the
// model's meshes: what three-vrm 3.5's VRMExpressionManager.update() leaves in the bound meshes'
// morphTargetInfluences while an AnimationMixer plays the expression tracks
// (docs/formats/vrma.md, "Expressions onto a VRM model").
#pragma once

#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/model.h"

namespace animconv {

// One expression's weight over time, linear between keys and held outside them (how
// three-vrm-animation's NumberKeyframeTrack plays it).
struct ExpressionWeightTrack {
  std::string name;
  std::vector<double> times_seconds;  // strictly increasing
  std::vector<double> weights;        // one per time
};

struct ExpressionBindReport {
  size_t keys = 0;                // key times of the channels made
  size_t events = 0;              // where isBinary or an override switches between keys
  size_t resampled_segments = 0;  // segments where blend overrides make the curve non-linear
  double max_chord_error = 0;     // the largest linear-interpolation error left (estimated)
};

// How far the linear channels may stray from three-vrm's curve between their keys; three.js's
// float32 interpolants add about 6e-8 on top.
constexpr double kExpressionBindTolerance = 2e-7;

// The weights channels (kLinear, one per bound mesh node of `rig`, all of its morph targets;
// a target no expression binds keeps the mesh's default weight, one that an expression binds
// but no track moves is 0, as three-vrm clears it) for `tracks` on `expressions`. Each influence is
// sum over binds of bind weight x the expression's applied weight: isBinary reads a weight as 1
// above 0.5, else 0; overrideBlink/LookAt/Mouth multiply the blink, lookAt and mouth expressions
// by max(0, 1 - sum of the amounts: block 1 when the output is above 0, blend the output); a
// binary expression so multiplied below 1 is 0 (three-vrm VRMExpression.applyWeight).
// The keys: every track key, every time one of those switches (found exactly, each kept with a
// key one float32 step before and after, so the jump lies between keys), and where blend
// overrides make an influence a product of two ramps, enough keys that the chord stays within
// kExpressionBindTolerance. Tracks naming no expression of `expressions` are ignored (the caller
// says so). Times are float32 values, as every file we write stores them.
std::vector<Channel> ExpressionMorphChannels(const Rig& rig,
                                             const std::vector<VrmExpression>& expressions,
                                             const std::vector<ExpressionWeightTrack>& tracks,
                                             ExpressionBindReport* report);

// Plays a VRM Animation's expression channels on `model` (`--skeleton avatar.vrm`): `role_nodes`
// are the input's expression and lookAt nodes (Node::vrma_role), `channels[c]` clip c's channels
// on them (`node` indexing role_nodes; an expression's weight is translation.x). Appends the
// ExpressionMorphChannels to out.clips[c] (out has the model's rig). Cubic tracks are baked to
// linear first; STEP tracks are read as linear, as three-vrm-animation plays them. Says in
// `diagnostics` what it made, and warns for what the output cannot show: expressions whose
// material binds are not carried (the lookAt is PlayVrmaLookAtOnModel's). An expression the model
// lacks is a note: three-vrm skips it too.
// `look_tracks[c]` (PlayVrmaLookAtOnModel's, for a model with an expression lookAt) are played with
// clip c's and replace its tracks of the same names: three-vrm's lookAt sets those expressions
// after the mixer.
void PlayVrmaExpressionsOnModel(const std::vector<Node>& role_nodes,
                                std::vector<std::vector<Channel>> channels,
                                std::vector<std::vector<ExpressionWeightTrack>> look_tracks,
                                const Asset& model, const std::string& model_name, Asset& out,
                                Diagnostics* diagnostics);

}  // namespace animconv
