// The legacy three.js hierarchy JSON (`three-hierarchy`, read by AnimationClip.parseAnimation in
// three.js <= r184). Details: docs/formats/threejs.md.
#pragma once

#include <string>
#include <string_view>

#include "animconv/format.h"

namespace animconv {

// Told apart from AnimationClip JSON by the same outline skim (three_sniff.cpp).
bool SniffThreeHierarchy(std::string_view bytes);
Asset ReadThreeHierarchy(std::string_view bytes, const ReadOptions& options);
// Rotations must be unit and hemisphere-aligned (RenderAsset in animconv/convert.h does that).
std::string WriteThreeHierarchy(const Asset& asset, const WriteOptions& options);

}  // namespace animconv
