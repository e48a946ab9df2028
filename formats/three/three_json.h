// three.js AnimationClip JSON (`three`, what AnimationClip.toJSON writes and AnimationClip.parse
// reads in r187), and the three.js naming rules both three.js formats share (track names, node
// names). The legacy hierarchy format is three_hierarchy.h. Details: docs/formats/threejs.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animconv/format.h"

namespace animconv {

bool SniffThreeJson(std::string_view bytes);  // three_sniff.cpp, beside SniffThreeHierarchy
Asset ReadThreeJson(std::string_view bytes, const ReadOptions& options);
// Rotations must be unit and hemisphere-aligned (RenderAsset in animconv/convert.h does that).
std::string WriteThreeJson(const Asset& asset, const WriteOptions& options);
// The same bytes as pieces: the times and values arrays as they were formatted, not copied into
// one string (animconv/text_pieces.h; the file job writes them so).
TextPieces WriteThreeJsonPieces(const Asset& asset, const WriteOptions& options);

// A track name split like three.js PropertyBinding.parseTrackName (three.js r187
// PropertyBinding.parseTrackName); an empty string stands for a part the name leaves out (an empty
// `node` is the mixer's root).
struct ThreeTrackName {
  std::string node;
  std::string object;
  std::string object_index;
  std::string property;
  std::string property_index;
};
// nullopt where three.js throws "Cannot parse trackName".
std::optional<ThreeTrackName> ParseThreeTrackName(std::string_view track_name);
// What a clip track animates, from its name: a node (or, for `.bones[NAME].prop`, bone NAME of
// the node's skeleton: parseAnimation's names), its path, and a per-target weights track's
// bracket name; or why it is left out (`skipped`: a material, an unknown property) or refused
// (`refused`: an unparsable name, one component of a vector). Both are messages.
struct ThreeTrackTarget {
  std::string node;
  Path path = Path::kRotation;
  std::string morph_target;
  // `.bones[3]`: three.js binds the skeleton's bone 3 by index unless a bone is named "3"; read as
  // a bone named "3".
  bool bone_index = false;
};
struct ThreeTrackResolution {
  std::optional<ThreeTrackTarget> target;
  std::string skipped;
  std::string refused;
};
ThreeTrackResolution ResolveThreeTrackTarget(const std::string& name);

// Whether `text` holds a line terminator (\n, \r, U+2028, U+2029): JavaScript's `.`, which
// parseTrackName's bracket and bone parts are made of, matches none of them.
bool HasLineTerminator(std::string_view text);

// The names three.js objects get when GLTFLoader builds a scene from this rig, so that track
// names bind: `nodes[n]` for node n's transform, and `morph_objects[n]` for the mesh objects
// holding node n's morphTargetInfluences (one per primitive of its mesh).
struct ThreeObjectNames {
  std::vector<std::string> nodes;
  std::vector<std::vector<std::string>> morph_objects;
};
// The unnamed nodes (no name of their own) that `written_clips` animate are one warning in
// `diagnostics`, listing the names they got: their tracks may not bind.
ThreeObjectNames ThreeNodeNames(const Rig& rig, Diagnostics* diagnostics,
                                const std::vector<const Clip*>& written_clips = {});

}  // namespace animconv
