// VRM Animation expression tracks made from morph-weight clips (docs/formats/vrma.md,
// "Expressions from morph weights"), for `convert face.glb -o face.vrma`.
#pragma once

#include <string>
#include <vector>

#include "animconv/bone_names.h"
#include "animconv/diagnostic.h"
#include "animconv/model.h"

namespace animconv {

// One morph target feeding an expression: its weight times `scale`.
struct MorphSource {
  int node = -1;
  int target = 0;
  double scale = 1;
};

// An expression's weight is the mean of its sources (ARKit's left and right halves of one VRM
// expression; one source otherwise).
struct MorphExpressionRule {
  std::string expression;
  bool preset = true;
  std::vector<MorphSource> sources;
};

// The ARKit blendshape names (Apple ARFaceAnchor.BlendShapeLocation) that stand for a VRM 1.0
// preset expression: {ARKit name, VRM preset}. Several names for one preset are averaged.
struct ArkitExpression {
  const char* arkit;
  const char* vrm;
};
const std::vector<ArkitExpression>& ArkitExpressionTable();
// Whether a morph target `target` is the ARKit blendshape `arkit`: the name itself, or with a
// trailing Left/Right spelt _L/_R (eyeBlink_L).
bool IsArkitName(const std::string& target, const std::string& arkit);

// The rules for `input`, in this order, the first rule for an expression winning:
// 0. `expression_map` (--expression-map, the --bone-map syntax): `morph target name,expression`
//    lines; every target of any mesh node with that name feeds the expression (several: their
//    mean); a VRM 1.0 preset name makes a preset, any other a custom expression. An entry that
//    names no morph target of the input is named in `notes`;
// 1. its own VRM expressions (a VRM model's clip) that bind exactly one morph target which no
//    other expression binds: weight = morph weight / bind weight (the binds inverted); the
//    others are named in `notes` (several binds, a shared target or a zero weight cannot be
//    inverted one-to-one);
// 2. morph targets named after ARKit blendshapes (ArkitExpressionTable), on any mesh node.
std::vector<MorphExpressionRule> MorphExpressionRules(
    const Asset& input, const std::vector<BoneMapEntry>& expression_map,
    std::vector<std::string>* notes);

// Adds to `input` one expression node (Node::vrma_role, morph_source set) per rule whose sources
// some clip animates, with per clip a translation channel whose x is the weight (y, z 0): the
// sources' key times merged, the mean evaluated there (exact for linear and for all-step
// sources; cubic sources are sampled at their keys after BakeCubicSplines). An expression the
// input already has as a VRMA node is left alone. Says what it made in `diagnostics`.
void AddExpressionsFromMorphs(Asset& input, const std::vector<BoneMapEntry>& expression_map,
                              Diagnostics* diagnostics);

}  // namespace animconv
