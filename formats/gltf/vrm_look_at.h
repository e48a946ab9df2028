// A VRM model's lookAt (Asset::vrm_look_at), read as three-vrm 3.5's VRMLookAtLoaderPlugin reads
// it: VRM 1.0 `VRMC_vrm.lookAt` {type bone|expression, rangeMap{HorizontalInner, HorizontalOuter,
// VerticalDown, VerticalUp} {inputMaxValue, outputScale}}, VRM 0.x `VRM.firstPerson`
// {lookAtTypeName Bone|BlendShape, lookAt{HorizontalInner, …} {xRange, yRange, curve}}.
#pragma once

#include <nlohmann/json.hpp>

#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/vrm_humanoid.h"

namespace animconv {

// Sets asset.vrm_look_at for a VRM 1.0 or 0.x model (`kind`) that has a lookAt, and notes it in
// asset.notes. three-vrm's defaults fill what is absent (inputMaxValue 90, outputScale 10 for
// bones and 1 for expressions); an inputMaxValue under 0.01 reads as 0.01 and a 0.x curve other
// than the linear one is ignored, as three-vrm does, with a note. A value that is no number fails
// at its JSON pointer.
void ReadVrmLookAt(const nlohmann::json& document, VrmKind kind, Asset& asset,
                   const GltfErrors& errors);

}  // namespace animconv
