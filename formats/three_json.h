// three.js AnimationClip JSON (`three`, what AnimationClip.toJSON writes and AnimationClip.parse
// reads in r187) and the legacy hierarchy JSON (`three-hierarchy`, read by
// AnimationClip.parseAnimation in three.js <= r184). Details: docs/formats/threejs.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/format.h"

namespace animconv {

std::string WriteThreeJson(const Asset& asset, const WriteOptions& options);
std::string WriteThreeHierarchy(const Asset& asset, const WriteOptions& options);

// three.js PropertyBinding.sanitizeNodeName: JavaScript whitespace (\s) becomes '_', the reserved
// characters [ ] . : / are deleted ("mixamorig:Left Arm.001" -> "mixamorigLeft_Arm001").
std::string SanitizeNodeName(std::string_view name);

// Sanitised node names made unique in node order the way GLTFLoader does ("a", "a_1", "a_2"), so
// track names bind to the nodes of a scene GLTFLoader built.
std::vector<std::string> ThreeNodeNames(const Rig& rig);

}  // namespace animconv
