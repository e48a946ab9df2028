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

// A VRMA's clips as @pixiv/three-vrm-animation 3.5 plays them: it rebuilds each humanoid rotation
// track (`new QuaternionKeyframeTrack(name, times, values)`) and each expression track
// (`NumberKeyframeTrack`) without the sampler's interpolation, so a STEP one plays linearly; the
// hips translation (`clone()`) and the lookAt track keep theirs. Such STEP channels become linear
// with the same keys, and a note says how many (docs/formats/vrma.md, "Reading").
void ReadVrmaStepAsPlayed(Asset& asset);

}  // namespace animconv
