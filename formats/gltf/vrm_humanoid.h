// The humanoid mapping VRM files carry (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x;
// VRMC_vrm_animation 1.0 schema): VRM 0.x `extensions.VRM.humanoid.humanBones` (an array of {bone,
// node}), VRM 1.0 `extensions.VRMC_vrm.humanoid.humanBones` and VRM Animation
// `extensions.VRMC_vrm_animation.humanoid.humanBones` (objects keyed by bone name).
#pragma once

#include <nlohmann/json.hpp>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

enum class VrmKind { kNone, kVrm0, kVrm1, kVrma };

// Sets Node::human_bone from the document's VRM extension and the facing it implies (VRM 0.x
// models face -Z, VRM 1.0 and VRMA +Z, VRM 0.x faces -Z, VRM 1.0 +Z). Notes what it found in
// asset.notes. Extensions not listed in extensionsUsed are ignored, as three-vrm does
// (VRMC_vrm_animation 1.0 schema).
VrmKind ReadVrmHumanoid(const nlohmann::json& document, Asset& asset, const GltfErrors& errors);

}  // namespace animconv
