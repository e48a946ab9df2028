// A VRM model's facial expressions (Asset::vrm_expressions), read as three-vrm 3.5's
// VRMExpressionLoaderPlugin reads them: VRM 1.0 `VRMC_vrm.expressions.{preset,custom}`
// (VRMC_vrm 1.0 expressions spec: morphTargetBinds {node, index, weight}, isBinary,
// overrideBlink/LookAt/Mouth none|block|blend) and VRM 0.x
// `VRM.blendShapeMaster.blendShapeGroups` (binds {mesh, index, weight 0-100}, isBinary; no
// overrides), the 0.x preset names mapped to 1.0's.
#pragma once

#include <nlohmann/json.hpp>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/vrm_humanoid.h"

namespace animconv {

// The most expressions a model may have, and morph target binds its expressions may make in all
// (docs/reliability.md "Limits"): a VRM model has a few dozen expressions binding a few thousand
// morph targets; a file of thousands costs the model ~80 bytes per 11 bytes of text
// (`"b1":{},`), and a VRM 0.x bind binds every node that shows its mesh.
constexpr size_t kVrmMaxExpressions = 4096;
constexpr size_t kVrmMaxMorphTargetBinds = 65536;

// Fills asset.vrm_expressions for a VRM 1.0 or 0.x model (`kind`, as ReadVrmHumanoid found it)
// and notes what it read in asset.notes. A bind naming a node, mesh or morph target the file
// lacks fails at its JSON pointer. Expressions three-vrm ignores (an unknown preset name, a
// custom one with a preset name, a 0.x duplicate) are ignored with a note. `mesh_count` is the
// document's number of meshes (a 0.x bind names one).
void ReadVrmExpressions(const nlohmann::json& document, size_t mesh_count, VrmKind kind,
                        Asset& asset, const GltfErrors& errors);

// The VRM 0.x presetName's VRM 1.0 name (three-vrm's v0v1PresetNameMap), or "" for none.
std::string VrmPresetNameFromVrm0(const std::string& preset_name);

// Whether `name` is one of the 18 VRM 1.0 preset expression names.
bool IsVrm1PresetExpression(const std::string& name);

}  // namespace animconv
