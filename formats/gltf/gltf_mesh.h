// The geometry of a glTF mesh as a format-free MorphMesh (animconv/morph_mesh.h), read from the
// document the glTF reader keeps (GltfDocument). Only what a morph bake needs: positions,
// normals, COLOR_0, triangle indices, morph target position/normal deltas and mesh.weights.
#pragma once

#include <string>

#include "animconv/morph_mesh.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

// All primitives of mesh `mesh_index` merged into one: vertices appended in primitive order,
// indices offset accordingly (non-indexed primitives get 0..n-1). Normals are kept only when
// every primitive has NORMAL; colors when any has COLOR_0 (the others are white, the spec's
// default), VEC3 colors get alpha 1. A target missing from some primitive contributes zeros
// there. Refused with Error(kBadInput) at a JSON pointer: primitive modes other than TRIANGLES,
// Draco-compressed primitives, attributes of the wrong type or count, non-finite values,
// indices past the primitive's vertices.
MorphMesh ReadGltfMorphMesh(const GltfDocument& document, size_t mesh_index,
                            const std::string& source);

}  // namespace animconv
