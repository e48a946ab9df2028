// glTF 2.0 (`gltf`: .gltf JSON with embedded or external buffers, .glb, and .vrm / .vrma, which are
// GLB). Details: docs/formats/gltf.md; the rules: glTF 2.0 §3.11 Animations.
#pragma once

#include <string>
#include <string_view>

#include "animconv/format.h"

namespace animconv {

bool SniffGltf(std::string_view bytes);  // JSON text
bool SniffGlb(std::string_view bytes);
Asset ReadGltf(std::string_view bytes, const ReadOptions& options);
// `.gltf` with the buffer embedded as a base64 data: URI / `.glb`. Rotations must be unit and
// hemisphere-aligned (RenderAsset in animconv/convert.h does that).
std::string WriteGltf(const Asset& asset, const WriteOptions& options);
std::string WriteGlb(const Asset& asset, const WriteOptions& options);
// The same bytes as pieces (Format::write_pieces): the binary chunk is not copied behind the JSON.
TextPieces WriteGlbPieces(const Asset& asset, const WriteOptions& options);
// VRM Animation (`VRMC_vrm_animation` 1.0): a GLB whose humanoid nodes stand in the
// rest T-pose facing +Z, with rotation channels on humanoid bones and translation on hips only.
bool SniffVrma(std::string_view bytes);
std::string WriteVrma(const Asset& asset, const WriteOptions& options);
TextPieces WriteVrmaPieces(const Asset& asset, const WriteOptions& options);

}  // namespace animconv
