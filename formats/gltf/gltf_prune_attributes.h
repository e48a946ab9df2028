// --drop-unused-attributes (docs/formats/gltf.md, "Compact output"): the vertex attributes no
// material of the file reads, left out of the meshes a glTF output passes through. A renderer
// draws the same picture without them (glTF 2.0 §3.9: a texture reads the TEXCOORD_n its
// textureInfo names; tangents serve normal maps and anisotropy alone). Opt-in: an application may
// assign a texture at run time, and only its author knows.
//   - TEXCOORD_n: no textureInfo of the primitive's material names texCoord n
//   (KHR_texture_transform's
//     override counted too); a primitive without a material has the default one, with no texture.
//   - TANGENT: the material has no normal map (normalTexture, clearcoatNormalTexture, ...) and no
//     KHR_materials_anisotropy.
// The same attribute in each morph target goes with it. Nothing is dropped in a VRM (its
// materials' textures live in its own extensions), in a file using an extension whose references
// we do not know, or in a primitive with extensions (Draco, KHR_materials_variants' other
// materials); nor the last attribute of a primitive.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "formats/gltf/gltf_document.h"

namespace animconv {

struct AttributePrune {
  // The source with the attributes left out of its meshes (the other lists shared with it);
  // nullopt when nothing was dropped.
  std::optional<GltfDocument> document;
  // The accessors a dropped attribute referred to: the pass-through leaves out those nothing
  // else refers to (gltf_pass_through.h).
  std::set<size_t> accessors;
  std::map<std::string, size_t> primitives_by_attribute;  // "TEXCOORD_0" -> primitives it left
  size_t morph_attributes = 0;                            // dropped from morph targets

  // One line for the user: what was dropped, and why.
  std::string Summary() const;
};

AttributePrune PruneUnusedAttributes(const GltfDocument& source);

}  // namespace animconv
