// The humanoid mapping VRM files carry (shared/reference/formats.md §2.2, §3.1): VRM 0.x
// `extensions.VRM.humanoid.humanBones` (an array of {bone, node}), VRM 1.0
// `extensions.VRMC_vrm.humanoid.humanBones` and VRM Animation
// `extensions.VRMC_vrm_animation.humanoid.humanBones` (objects keyed by bone name).
#pragma once

#include <nlohmann/json.hpp>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

enum class VrmKind { kNone, kVrm0, kVrm1, kVrma };

// Sets Node::human_bone from the document's VRM extension and the facing it implies (VRM 0.x
// models face -Z, VRM 1.0 and VRMA +Z, formats.md §4.3). Notes what it found in asset.notes.
// Extensions not listed in extensionsUsed are ignored, as three-vrm does (formats.md §3.1).
VrmKind ReadVrmHumanoid(const nlohmann::json& document, Asset& asset, const GltfErrors& errors);

}  // namespace animconv
