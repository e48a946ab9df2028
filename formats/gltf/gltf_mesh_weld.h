// --compress for the meshes a glTF input passes through (docs/formats/gltf.md, "Compact output"):
// a triangle primitive without indices, which stores a vertex once for every triangle that uses
// it (flat-shaded exports, three.js's toNonIndexed), gets an index buffer, and its identical
// vertices are stored once (khronos_Fox.glb: 1,728 vertices, 434 different), numbered in the
// order the triangles first use them (the order a vertex fetch and meshopt's codec like best for
// that triangle order). An indexed one has its identical vertices stored once, in their order.
// Lossless: the same triangles in the same order, each vertex with the same bytes in every
// attribute and morph target; only the storage changes.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {

struct WeldedIndices {
  size_t mesh = 0;  // source mesh and primitive
  size_t primitive = 0;
  int component_type = kGltfUnsignedShort;  // or kGltfUnsignedInt past 65,535 vertices
  size_t count = 0;
  std::string bytes;
};

struct MeshWeld {
  std::map<size_t, std::string> view_bytes;  // source bufferView -> its bytes after
  struct Accessor {
    size_t count = 0;
    size_t byte_offset = 0;
  };
  std::map<size_t, Accessor> accessors;  // source accessor -> its count and byteOffset after
  // Source index accessor rewritten in place -> the least and greatest of its new values.
  std::map<size_t, std::pair<uint32_t, uint32_t>> index_ranges;
  std::vector<WeldedIndices> indices;  // by mesh, then primitive
  size_t vertices_before = 0;          // of the primitives indexed
  size_t vertices_after = 0;
  // Indexed primitives whose identical vertices were merged; their index accessor keeps its
  // place, its values rewritten.
  size_t reordered = 0;
  size_t reordered_before = 0;
  size_t reordered_after = 0;
  // Primitives whose triangles were put in vertex cache order (--compress-meshes).
  size_t cache_ordered = 0;

  bool HasMesh(size_t mesh) const;
  // The indices made for (mesh, primitive), or null.
  const WeldedIndices* Find(size_t mesh, size_t primitive) const;
  // Sets `indices` on the primitives of source mesh `mesh` (as the pass-through holds it) that
  // were indexed: indices[k] is accessor `first_accessor + k`. True when it changed one.
  bool SetIndices(size_t mesh, nlohmann::json& element, size_t first_accessor) const;
};

// The primitives of `source` that can be indexed and what changes for them. A primitive is left
// as it is when indexing would not make it smaller, or when its accessors or their bufferViews
// serve anything else (another primitive, a skin, an animation, an image), are sparse or matrices,
// or overlap in a view other than by interleaving; and nothing is changed in a document using an
// extension whose references we do not know (gltf_references.h).
// With `reorder_for_cache` (--compress-meshes) the triangles of each primitive whose material does
// not blend are also put in vertex cache order and its vertices numbered as they are first used
// (meshoptimizer): the same triangles with the same corners, drawn in another order, which a
// depth-tested opaque surface does not show and which compresses better (threejs_SittingBox.glb:
// its vertex streams 14 % smaller). `references` are CountReferences(source).
MeshWeld WeldMeshes(const GltfDocument& source, const ReferenceCounts& references,
                    bool reorder_for_cache = false);

}  // namespace animconv
