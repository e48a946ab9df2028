// Where a glTF's meshes stand at rest, node by node (Node::rest_mesh_support): what --ground needs
// to stand a model's soles, not its ankle and toe joints, on the floor (docs/root_motion.md,
// "Grounding").
#pragma once

#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "animconv/model.h"
#include "formats/gltf/gltf_document.h"

namespace animconv {

// Sets rest_mesh_support on the nodes of `rig` (the document's nodes, in order, with the rest pose
// read from them) that move vertices at rest: the support points (libconvert/mesh_support.h) of
// the vertices each moves. A skinned vertex is placed by linear blend skinning with the joints at
// rest (glTF 2.0 §3.7.3.3: Σ w · jointWorld · inverseBind · position, the weights renormalised as
// GLTFLoader does) and moves with the joint of its largest weight; an unskinned mesh's vertices
// move with the node that draws it. Morph targets are left at 0 (a sole does not depend on them).
// A Draco primitive is read from its accessors where they hold data (an uncompressed fallback),
// else left out with a warning.
//
// Never throws for the file's sake: the points refine the rig, so a mesh that cannot be decoded
// (a broken accessor, a skin that names no joints) is left out and `diagnostics` gets a warning
// saying which and why (only --ground asks for the points, so its user sees them). `budget_bytes`
// bounds the decoded doubles of one mesh, as for the animations; each mesh's are freed before the
// next is read.
void ReadRestMeshSupport(const nlohmann::json& document, const GltfLists& lists,
                         const GltfViewBytes& views, const std::string& source,
                         uint64_t budget_bytes, Rig& rig, Diagnostics* diagnostics);

}  // namespace animconv
