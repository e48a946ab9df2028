// --compress-meshes (docs/formats/gltf.md, "Compact output"): a bufferView that several accessors
// share one after the other (COLLADA2GLTF puts every mesh's normals and positions in one view,
// khronos_BoxAnimated: 4 accessors; three.js's exporter of old, positions and normals of a mesh)
// split so that each of them a mesh uses lies alone in a view of its own bytes (the others stay
// in the view, packed). The mesh passes
// (gltf_mesh_weld.h, gltf_mesh_quantize.h) rewrite only an accessor that is alone in its view:
// this lets them. Lossless: every accessor reads the same values; only the views change.
//
// A view is split when an accessor of it serves a mesh, all its references are accessors' own
// `bufferView` (no image, no sparse part), each accessor is a vector or scalar (matrices' columns
// are padded) whose elements lie packed (no byteStride, or one equal to the element's size: not
// interleaved), and no two accessors' bytes overlap. Nothing is split in a document using an
// extension whose references we do not know (gltf_references.h).
#pragma once

#include <optional>
#include <string>

#include "formats/gltf/gltf_document.h"

namespace animconv {

struct ViewSplit {
  // The source with the views split (its other lists and bytes shared); nullopt when none was.
  std::optional<GltfDocument> document;
  size_t views = 0;      // source views split
  size_t accessors = 0;  // mesh accessors now alone in their view, of those views

  // One line for the user: what was split, and why.
  std::string Summary() const;
};

ViewSplit SplitSharedViews(const GltfDocument& source);

}  // namespace animconv
