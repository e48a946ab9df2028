#include <fmt/format.h>

#include "animconv/quaternion.h"
#include "formats/gltf/gltf_float32_text.h"
#include "formats/gltf/gltf_mesh_fold.h"
#include "formats/gltf/gltf_mesh_quantize.h"
#include "formats/gltf/gltf_mesh_quantize_values.h"
#include "formats/gltf/gltf_references.h"

// The result of QuantizeMeshes as the pass-through applies it (gltf_pass_through.cpp): the
// dequantization put into nodes, the new child nodes, the note.
namespace animconv {

using mesh_values::ChordOf;
using nlohmann::json;

Vec3 MeshQuantization::Grid::StoredCorner() const {
  return {static_cast<float>(corner[0]), static_cast<float>(corner[1]),
          static_cast<float>(corner[2])};
}

double MeshQuantization::Grid::StoredStep() const { return static_cast<float>(step); }

bool MeshQuantization::EditNode(size_t index, json& node) const {
  if (const auto child = child_of.find(index); child != child_of.end()) {
    // The mesh goes to the node's new child, which holds the dequantization (NewNodes).
    node.erase("mesh");
    json& children = node["children"];
    if (!children.is_array()) children = json::array();
    children.push_back(child->second);
    return true;
  }
  const json* mesh = Find(node, "mesh");
  if (!mesh || !mesh->is_number_unsigned()) return false;
  const auto found = meshes.find(mesh->get<size_t>());
  if (found == meshes.end() || found->second.in_skins) return false;
  const Grid& grid = found->second;
  // The stored position q is drawn at corner + step * q: the node's transform M becomes M * D,
  // D = translate(corner) * scale(step) (KHR_mesh_quantization, "Dequantization").
  FoldIntoNode(node, grid.StoredCorner(), grid.StoredStep(), float32_nodes.count(index) > 0);
  return true;
}

json MeshQuantization::NewChild(size_t mesh, const Grid& grid, bool float32_text) {
  const auto number = [&](double x) {
    return float32_text ? Float32Number(static_cast<float>(x)) : json(x);
  };
  // D = translate(corner) * scale(step), under the node that drew the mesh
  // (KHR_mesh_quantization, "Dequantization").
  const Vec3 corner = grid.StoredCorner();
  const double step = grid.StoredStep();
  return json::object(
      {{"mesh", mesh},
       {"translation", json::array({number(corner[0]), number(corner[1]), number(corner[2])})},
       {"scale", json::array({number(step), number(step), number(step)})}});
}

std::vector<json> MeshQuantization::NewNodes() const {
  std::vector<json> out;
  for (size_t k = 0; k < child_meshes.size(); ++k) {
    out.push_back(NewChild(child_meshes[k], meshes.at(child_meshes[k]),
                           float32_nodes.count(first_new_node + k) > 0));
  }
  return out;
}

std::string MeshQuantization::Summary(const GltfCompression& options) const {
  std::string text = "--compress-meshes: KHR_mesh_quantization:";
  const auto add = [&](const std::string& part) {
    text += (text.back() == ':' ? " " : "; ") + part;
  };
  if (position_accessors > 0) {
    add(fmt::format(
        "positions of {} mesh(es) on a grid of {} bits ({} accessor(s), {} of them morph "
        "deltas{}), largest displacement {:.3g} of the mesh's size (bound {:g})",
        meshes.size(),
        fewest_position_bits == most_position_bits
            ? fmt::format("{}", most_position_bits)
            : fmt::format("{}-{}", fewest_position_bits, most_position_bits),
        position_accessors, position_delta_accessors,
        skinned_meshes == 0
            ? std::string()
            : fmt::format("; {} skinned, the grid in inverse bind matrices", skinned_meshes),
        position_fraction, options.mesh_position_fraction));
  }
  if (normal_accessors > 0) {
    add(
        fmt::format("{} normal/tangent accessor(s) as normalized integers, largest angle {:.3g} "
                    "deg (bound {:g})",
                    normal_accessors, normal_degrees, options.mesh_normal_degrees));
  }
  if (texcoord_accessors > 0) {
    add(fmt::format(
        "{} texture coordinate accessor(s) as 16-bit, largest error {:.3g} (bound {:g})",
        texcoord_accessors, texcoord_error, options.mesh_texcoord));
  }
  if (color_accessors > 0) {
    add(fmt::format(
        "{} colour accessor(s) as normalized integers, largest error {:.3g} (bound {:g})",
        color_accessors, color_error, options.mesh_color));
  }
  if (weight_accessors > 0) {
    add(fmt::format(
        "{} skin weight accessor(s) as normalized 8/16-bit, largest error {:.3g} (bound "
        "{:g})",
        weight_accessors, weight_error, options.mesh_skin_weight));
  }
  if (joint_accessors > 0) {
    add(fmt::format("{} joint accessor(s) as unsigned bytes (the same indices)", joint_accessors));
  }
  if (delta_accessors > 0) {
    add(
        fmt::format("{} morph normal/tangent delta accessor(s) as 8/16-bit, largest error {:.3g} "
                    "(bound {:.3g})",
                    delta_accessors, delta_error, ChordOf(options.mesh_normal_degrees)));
  }
  if (position_accessors == 0 && normal_accessors == 0 && texcoord_accessors == 0 &&
      color_accessors == 0 && delta_accessors == 0 && weight_accessors == 0 &&
      joint_accessors == 0) {
    add(not_done.empty() ? std::string("nothing quantized") : "nothing quantized: " + not_done);
  }
  if (!child_meshes.empty()) {
    add(
        fmt::format("{} node(s) that cannot take the dequantization themselves (children, a joint, "
                    "an animated transform) hand their mesh to a new child node that does",
                    child_meshes.size()));
  }
  for (const std::string& kept : positions_kept) add("positions kept float for " + kept);
  return text;
}

}  // namespace animconv
