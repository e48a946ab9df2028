#include "formats/gltf/gltf_mesh_quantize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

#include "animconv/quaternion.h"
#include "formats/common/canonical_json.h"
#include "formats/gltf/gltf_mesh_dequantize.h"
#include "formats/gltf/gltf_mesh_fold.h"
#include "formats/gltf/gltf_mesh_quantize_values.h"
#include "formats/gltf/gltf_object_list.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using mesh_values::AccessorChange;
using mesh_values::ChordOf;
using mesh_values::Codes;
using mesh_values::FloatData;
using mesh_values::HandednessExact;
using mesh_values::IntegerData;
using mesh_values::LargestAngle;
using mesh_values::LargestDifference;
using mesh_values::LargestDistance;
using mesh_values::Normalize;
using mesh_values::NormalizeWeights;
using mesh_values::PaddedStride;
using mesh_values::Put;
using mesh_values::ReadComponents;
using mesh_values::StoredWeights;
using mesh_values::StoreWeights;
using mesh_values::WithinRange;
using nlohmann::json;

// What a mesh uses an accessor for; one accessor is quantized only when all its uses agree.
enum class Use {
  kPosition,
  kNormal,
  kTangent,
  kTexcoord,
  kColor,
  kDeltaPosition,
  kDeltaDirection,
  kWeights,  // WEIGHTS_0 where it is the only set (its rows sum to 1 alone)
  kJoints,
  kOther,  // WEIGHTS_1 and on, custom attributes, other deltas: left as they are
};

Use AttributeUse(const std::string& name, bool target, bool one_weight_set) {
  if (name == "POSITION") return target ? Use::kDeltaPosition : Use::kPosition;
  if (name == "NORMAL" || name == "TANGENT") {
    return target ? Use::kDeltaDirection : name == "NORMAL" ? Use::kNormal : Use::kTangent;
  }
  if (target) return Use::kOther;  // texture coordinate and colour deltas stay float
  if (name == "WEIGHTS_0" && one_weight_set) return Use::kWeights;
  if (name.rfind("JOINTS_", 0) == 0) return Use::kJoints;
  if (name.rfind("TEXCOORD_", 0) == 0) return Use::kTexcoord;
  if (name.rfind("COLOR_", 0) == 0) return Use::kColor;
  return Use::kOther;
}

// The mesh's name for the note ('' when it has none, or one that is no string).
std::string MeshName(const json& mesh) {
  const json* name = Find(mesh, "name");
  return name && name->is_string() ? name->get<std::string>() : std::string();
}

// Whether a material the primitive may be drawn with (its own, or one its
// KHR_materials_variants mappings give it at run time) has KHR_materials_volume, whose thickness
// is in the mesh's units: the node's scale would scale it too (three.js multiplies it by the model
// matrix's scale).
bool MaterialHasVolume(PrimitiveMaterials& materials, const json& primitive) {
  const std::vector<const json*> all = materials.AllOf(primitive);
  return std::any_of(all.begin(), all.end(), [](const json* material) {
    const json* extensions = Find(*material, "extensions");
    return extensions && extensions->is_object() && extensions->contains("KHR_materials_volume");
  });
}

// Per accessor: what meshes use it for, and whether any use disagrees.
struct Uses {
  std::set<Use> kinds;
  std::set<size_t> meshes;
  size_t count = 0;
};

// Positions of one mesh on a grid of `bits`: base positions as UNSIGNED_SHORT from `corner`,
// deltas as SHORT; the largest displacement, or nullopt when a delta does not fit 16 bits.
struct GridResult {
  std::map<size_t, MeshQuantization::View> views;
  std::map<size_t, size_t> view_of;  // accessor -> its source view
  std::map<size_t, json> accessors;
  double largest = 0;
};

std::optional<GridResult> PutOnGrid(const std::map<size_t, FloatData>& base,
                                    const std::map<size_t, FloatData>& deltas,
                                    const MeshQuantization::Grid& grid) {
  GridResult result;
  // What a reader computes: the node's float32 translation and scale applied to the codes.
  const double step = grid.StoredStep();
  const Vec3 corner = grid.StoredCorner();
  const double top = std::ldexp(1.0, grid.bits) - 1;
  for (const bool is_delta : {false, true}) {
    for (const auto& [a, data] : is_delta ? deltas : base) {
      MeshQuantization::View view;
      view.stride = 8;  // three 16-bit components, padded to 4 bytes
      view.bytes.assign(data.count * 8, '\0');
      std::vector<double> codes(data.values.size());
      for (size_t e = 0; e < data.count; ++e) {
        double squared = 0;
        for (size_t c = 0; c < 3; ++c) {
          const double value = data.values[e * 3 + c];
          double code;
          double decoded;
          if (is_delta) {
            code = std::round(value / step);
            if (std::abs(code) > 32767) return std::nullopt;
            Put(view.bytes, e * 8 + c * 2, static_cast<int16_t>(code));
            decoded = code * step;
          } else {
            code = std::clamp(std::round((value - corner[c]) / step), 0.0, top);
            Put(view.bytes, e * 8 + c * 2, static_cast<uint16_t>(code));
            decoded = corner[c] + code * step;
          }
          codes[e * 3 + c] = code;
          squared += (decoded - value) * (decoded - value);
        }
        result.largest = std::max(result.largest, std::sqrt(squared));
      }
      result.accessors[a] =
          AccessorChange(is_delta ? kGltfShort : kGltfUnsignedShort, false, codes, 3, true);
      result.views[data.view] = std::move(view);
      result.view_of[a] = data.view;
    }
  }
  return result;
}

// The quantized views of one element stride become one view, the first of them, their elements
// one after the other in view order: a view's JSON (about 190 bytes with its compression) once per
// stride instead of once per attribute and morph target (RobotExpressive: 68 views).
void MergeViewsByStride(const std::map<size_t, size_t>& view_of, MeshQuantization& out) {
  std::map<size_t, std::vector<size_t>> by_stride;
  for (const auto& [v, view] : out.views) {
    if (view.stride != 0) by_stride[view.stride].push_back(v);  // not inverse bind matrices
  }
  std::map<size_t, std::pair<size_t, size_t>> moved;  // view -> host view, byte offset
  for (const auto& [stride, list] : by_stride) {
    const size_t host = list.front();
    for (const size_t v : list) {
      moved[v] = {host, v == host ? 0 : out.views[host].bytes.size()};
      if (v == host) continue;
      out.views[host].bytes += out.views[v].bytes;
      out.views.erase(v);
      out.merged_views.insert(v);
    }
  }
  for (const auto& [a, v] : view_of) {
    const auto [host, offset] = moved.at(v);
    json& change = out.accessors.at(a);
    change["bufferView"] = host;
    if (offset != 0) change["byteOffset"] = offset;
  }
}

}  // namespace

MeshQuantization QuantizeMeshes(const GltfDocument& source, const ReferenceCounts& references,
                                const MeshWeld& weld, const GltfCompression& options,
                                const std::vector<bool>& transform_animated) {
  MeshQuantization out;
  const GltfObjectList* meshes = source.lists.Objects("meshes");
  if (!meshes || !source.lists.accessors || !source.lists.buffer_views) return out;
  if (!AllReferencesKnown(source.json)) {
    out.not_done = "the file uses an extension whose references we do not know";
    return out;
  }
  if (UsesVrm(source.json)) {
    // VRM's extensions give nodes roles (humanoid bones, spring joints, constraint sources, look
    // at) and materials blend modes of their own (MToon) that moving a node or reordering would
    // break.
    out.not_done = "a VRM file: its extensions give nodes and materials roles a change would break";
    return out;
  }
  const GltfObjectList* nodes = source.lists.Objects("nodes");
  const size_t node_count = nodes ? nodes->size() : 0;
  out.first_new_node = node_count;
  // Every use the meshes make of each accessor.
  std::map<size_t, Uses> uses;
  std::map<size_t, std::vector<size_t>> positions_of;  // mesh -> base POSITION accessors
  std::map<size_t, std::vector<size_t>> deltas_of;     // mesh -> target POSITION accessors
  std::map<size_t, std::string> mesh_refused;          // meshes whose positions stay float: why
  PrimitiveMaterials materials(source);
  for (size_t m = 0; m < meshes->size(); ++m) {
    const json mesh = meshes->At(m);
    const GltfMeshPrimitives primitives(mesh);
    for (size_t p = 0; p < primitives.size(); ++p) {
      const json primitive = primitives.At(p);
      const json* attributes = Find(primitive, "attributes");
      const json* extensions = Find(primitive, "extensions");
      // Draco's accessors must match what it decodes (KHR_draco_mesh_compression): all left.
      const bool draco = extensions && extensions->is_object() &&
                         extensions->contains("KHR_draco_mesh_compression");
      if (!attributes || !attributes->is_object() || !attributes->contains("POSITION")) {
        mesh_refused.emplace(m, "a primitive without POSITION");
      } else if (draco) {
        mesh_refused.emplace(m, "Draco-compressed");
      } else if (MaterialHasVolume(materials, primitive)) {
        mesh_refused.emplace(m,
                             "a material of it (or of its KHR_materials_variants) has "
                             "KHR_materials_volume, whose thickness is in mesh units");
      }
      const bool one_weight_set = attributes && !Find(*attributes, "WEIGHTS_1");
      const auto add = [&](const json& object, bool target) {
        if (!object.is_object()) return;
        for (auto it = object.begin(); it != object.end(); ++it) {
          const std::optional<size_t> a = ValidIndex(it.value(), references.accessors.size());
          if (!a) continue;
          Uses& use = uses[*a];
          ++use.count;
          use.meshes.insert(m);
          const Use kind = draco ? Use::kOther : AttributeUse(it.key(), target, one_weight_set);
          use.kinds.insert(kind);
          if (kind == Use::kPosition) positions_of[m].push_back(*a);
          if (kind == Use::kDeltaPosition) deltas_of[m].push_back(*a);
        }
      };
      if (attributes) add(*attributes, false);
      if (const std::unique_ptr<PackedArrayView> targets = GltfMeshPrimitives::Targets(primitive)) {
        for (size_t t = 0; t < targets->size(); ++t) add(targets->At(t), true);
      }
    }
  }
  // An accessor qualifies when meshes alone use it, for one kind of data, alone in its view.
  const auto data_of = [&](size_t a, int component_type = kGltfFloat) -> std::optional<FloatData> {
    const Uses& use = uses[a];
    if (use.kinds.size() != 1 || use.count != references.accessors[a]) return std::nullopt;
    std::optional<FloatData> data = ReadComponents(source, weld, a, component_type);
    if (!data || references.views[data->view] != 1 || data->count == 0) return std::nullopt;
    return data;
  };

  std::map<size_t, size_t> view_of;  // quantized accessor -> its source view
  // Skin weights first: their error takes a share of the skinned positions' bound. A weight off
  // by dw moves a vertex by dw times the distance between where two of its joints carry it, taken
  // as at most the mesh's size (joints that bend a figure do not carry one vertex farther apart):
  // a mesh's grid is held to the bound less its largest row sum (16-bit weights: ~2e-5), which
  // may take at most half of it.
  // (Each accessor's layout is kept, its values dropped: the loop below needs no second read.)
  std::map<size_t, std::pair<FloatData, StoredWeights>> weights;
  std::map<size_t, double> weight_share;  // mesh -> the largest row sum of its weights
  for (const auto& [a, use] : uses) {
    if (use.kinds.size() != 1 || *use.kinds.begin() != Use::kWeights) continue;
    std::optional<FloatData> data = data_of(a);
    std::optional<StoredWeights> stored =
        data ? StoreWeights(
                   *data, std::min(options.mesh_skin_weight, 0.5 * options.mesh_position_fraction))
             : std::nullopt;
    if (!stored) continue;
    for (const size_t m : use.meshes) {
      weight_share[m] = std::max(weight_share[m], stored->row_sum);
    }
    data->values = {};
    weights.emplace(a, std::make_pair(std::move(*data), std::move(*stored)));
  }
  // Positions, mesh by mesh.
  std::map<size_t, DequantizationPlace> places =
      FindDequantizationPlaces(source, references, transform_animated);
  for (const auto& [m, accessors] : positions_of) {
    const auto place = places.find(m);
    if (place == places.end()) continue;  // drawn by no node: nothing to dequantize it
    const size_t mesh_index = m;          // (C++17 lambdas cannot capture a structured binding)
    const auto keep = [&](const std::string& why) {
      out.positions_kept.push_back(
          fmt::format("mesh {} ('{}'): {}", mesh_index, MeshName(meshes->At(mesh_index)), why));
    };
    if (!place->second.refused.empty()) {
      keep(place->second.refused);
      continue;
    }
    std::map<size_t, FloatData> base;
    std::map<size_t, FloatData> deltas;
    if (const auto why = mesh_refused.find(m); why != mesh_refused.end()) {
      keep(why->second);
      continue;
    }
    std::string why;
    for (const bool is_delta : {false, true}) {
      for (const size_t a : is_delta ? deltas_of[m] : accessors) {
        if (!why.empty()) break;
        std::optional<FloatData> data = data_of(a);
        if (!data || data->components != 3) {
          why = fmt::format(
              "{}POSITION accessor {} is shared, sparse, interleaved, empty or not "
              "a float VEC3",
              is_delta ? "morph target " : "", a);
        } else if (uses[a].meshes.size() != 1) {
          why = fmt::format("accessor {} is also another mesh's", a);
        } else {
          (is_delta ? deltas : base).emplace(a, std::move(*data));
        }
      }
    }
    if (!why.empty()) {
      keep(why);
      continue;
    }
    MeshQuantization::Grid grid;
    double low[3] = {std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::infinity()};
    double high[3] = {-low[0], -low[1], -low[2]};
    for (const auto& [a, data] : base) {
      for (size_t i = 0; i < data.values.size(); ++i) {
        low[i % 3] = std::min(low[i % 3], data.values[i]);
        high[i % 3] = std::max(high[i % 3], data.values[i]);
      }
    }
    const double extent = std::max({high[0] - low[0], high[1] - low[1], high[2] - low[2]});
    if (!(extent > 0)) {
      keep("its positions are all one point");
      continue;
    }
    const auto share = weight_share.find(m);
    const double bound =
        (options.mesh_position_fraction - (share == weight_share.end() ? 0 : share->second)) *
        extent;
    // What folding a trial grid into the nodes and inverse bind matrices that take it adds, as
    // the output holds them (gltf_mesh_fold.h): a rotation off unit length at a corner far from
    // the node, float32 matrices. A node whose fold alone would take more than half the bound
    // hands the mesh to a new child instead where it may (the child's numbers fold exactly).
    DequantizationPlace& where = place->second;
    const auto reach = [&](const MeshQuantization::Grid& trial) {
      return std::sqrt(3.0) * (extent / trial.StoredStep() + 1);
    };
    const auto node_error = [&](size_t n, const MeshQuantization::Grid& trial, bool float32_text) {
      const json plain = nodes->At(n);
      json written = plain;
      FoldIntoNode(written, trial.StoredCorner(), trial.StoredStep(), float32_text);
      return NodeFoldError(plain, written, trial.StoredCorner(), trial.StoredStep(), reach(trial));
    };
    const auto fold_error = [&](const MeshQuantization::Grid& trial) {
      double largest = 0;
      for (const size_t n : where.own) largest = std::max(largest, node_error(n, trial, false));
      for (const DequantizationPlace::Skin& skin : where.skins) {
        largest = std::max(largest, MatricesFoldError(skin.matrices, trial.StoredCorner(),
                                                      trial.StoredStep(), reach(trial)));
      }
      return largest;
    };
    if (where.child_allowed) {
      MeshQuantization::Grid finest;
      for (int c = 0; c < 3; ++c) finest.corner[c] = low[c];
      finest.step = extent / 65535;
      std::vector<size_t> own;
      for (const size_t n : where.own) {
        if (node_error(n, finest, false) > 0.5 * bound && !nodes->At(n).contains("weights")) {
          where.via_child.insert(n);
        } else {
          own.push_back(n);
        }
      }
      where.own = std::move(own);
    }
    std::optional<GridResult> chosen;
    bool delta_overflow = false;
    bool too_small = false;
    double fold_beyond = 0;  // the fold's error where it alone kept a grid from the bound
    for (int bits = 8; bits <= 16 && !chosen; ++bits) {
      MeshQuantization::Grid trial;
      for (int c = 0; c < 3; ++c) trial.corner[c] = low[c];
      trial.bits = bits;
      trial.step = extent / (std::ldexp(1.0, bits) - 1);
      // The node and the reader hold the step as float32: a subnormal or zero one is no grid.
      if (!std::isnormal(static_cast<float>(trial.step))) {
        too_small = true;
        break;
      }
      std::optional<GridResult> result = PutOnGrid(base, deltas, trial);
      if (!result) {  // a delta outgrows 16 bits; finer grids only make that worse
        delta_overflow = true;
        break;
      }
      if (result->largest <= bound) {
        const double fold = fold_error(trial);
        if (result->largest + fold <= bound) {
          chosen = std::move(result);
          grid = trial;
        } else {
          fold_beyond = fold;
        }
      }
    }
    // Between the grid of one bit fewer, which failed, and the one chosen: the coarsest step that
    // still holds the bound (a power of two is no reason to store finer codes; smaller code
    // differences compress better: threejs_SittingBox's 14-bit grid kept 5e-5 of a 1e-4 bound).
    // Bisection of a measured, not assumed, displacement: every step tried is measured whole.
    if (chosen && grid.bits > 8) {
      double fine = grid.step;                                        // holds the bound
      double coarse = extent / (std::ldexp(1.0, grid.bits - 1) - 1);  // does not
      for (int round = 0; round < 12; ++round) {
        MeshQuantization::Grid trial = grid;
        trial.step = 0.5 * (fine + coarse);
        std::optional<GridResult> result = PutOnGrid(base, deltas, trial);
        if (result && result->largest + fold_error(trial) <= bound) {
          fine = trial.step;
          chosen = std::move(result);
          grid = trial;
        } else {
          coarse = trial.step;
        }
      }
    }
    if (!chosen) {
      keep(too_small ? std::string("its size is too small for a float32 grid step")
           : fold_beyond > 0
               ? fmt::format("its node's transform or its inverse bind matrices, as written, "
                             "would move it by {:.3g} of its size beside the grid (bound {:g})",
                             fold_beyond / extent, options.mesh_position_fraction)
           : delta_overflow
               ? fmt::format("its morph deltas outgrow 16-bit integers on a grid within {:g} of "
                             "its size",
                             options.mesh_position_fraction)
               : fmt::format("no grid of up to 16 bits keeps it within {:g} of its size",
                             options.mesh_position_fraction));
      continue;
    }
    for (auto& [v, view] : chosen->views) out.views[v] = std::move(view);
    for (auto& [a, change] : chosen->accessors) out.accessors[a] = std::move(change);
    view_of.insert(chosen->view_of.begin(), chosen->view_of.end());
    // A skinned mesh's dequantization goes into its skins' inverse bind matrices, rewritten in
    // their own views (and their min/max, if any, dropped: they would no longer hold).
    for (const DequantizationPlace::Skin& skin : place->second.skins) {
      out.views[skin.view] = {
          FoldIntoMatrices(skin.matrices, grid.StoredCorner(), grid.StoredStep()), 0};
      out.accessors[skin.accessor] = {{"min", nullptr}, {"max", nullptr}};
      grid.in_skins = true;
    }
    if (grid.in_skins) ++out.skinned_meshes;
    // The numbers that hold the fold as the shortest text of their float32 where the mesh stays
    // within the bound so, else with every digit (a 1 cm mesh at 100 m: 3.8e-6 would be 3.8e-4
    // of its size); the displacement reported is the one drawn.
    double drawn = chosen->largest + fold_error(grid);
    const double child_error =
        NodeFoldError(json::object(), MeshQuantization::NewChild(m, grid, true),
                      grid.StoredCorner(), grid.StoredStep(), reach(grid));
    for (const size_t n : where.own) {
      out.fold_nodes.insert(n);
      const double error = node_error(n, grid, true);
      if (chosen->largest + error <= bound) {
        out.float32_nodes.insert(n);
        drawn = std::max(drawn, chosen->largest + error);
      }
    }
    for (const size_t n : where.via_child) {
      out.child_of[n] = node_count + out.child_meshes.size();
      out.fold_nodes.insert(out.child_of[n]);
      if (chosen->largest + child_error <= bound) {
        out.float32_nodes.insert(out.child_of[n]);
        drawn = std::max(drawn, chosen->largest + child_error);
      }
      out.child_meshes.push_back(m);
    }
    out.meshes[m] = grid;
    out.needs_extension = true;
    out.position_accessors += base.size() + deltas.size();
    out.position_delta_accessors += deltas.size();
    out.position_fraction = std::max(out.position_fraction, drawn / extent);
    out.fewest_position_bits = std::min(out.fewest_position_bits, grid.bits);
    out.most_position_bits = std::max(out.most_position_bits, grid.bits);
  }

  // Meshes refused before their positions were looked at (Draco: none of its accessors counts).
  for (const auto& [m, why] : mesh_refused) {
    if (!positions_of.count(m) && places.count(m)) {
      out.positions_kept.push_back(
          fmt::format("mesh {} ('{}'): {}", m, MeshName(meshes->At(m)), why));
    }
  }
  // The other attributes, accessor by accessor.
  for (const auto& [a, use] : uses) {
    if (out.accessors.count(a) || use.kinds.size() != 1) continue;
    const Use kind = *use.kinds.begin();
    if (kind == Use::kPosition || kind == Use::kDeltaPosition || kind == Use::kOther) continue;
    const auto weight = weights.find(a);
    if (kind == Use::kWeights && weight == weights.end()) continue;
    std::optional<FloatData> data =
        kind == Use::kWeights ? std::move(weight->second.first)
                              : data_of(a, kind == Use::kJoints ? kGltfUnsignedShort : kGltfFloat);
    if (!data) continue;
    const json accessor = source.lists.accessors->At(a);
    const bool bounds = accessor.contains("min") || accessor.contains("max");
    std::optional<IntegerData> stored;
    double error = 0;
    size_t* counter = nullptr;
    double* worst = nullptr;
    double max_code = 0;
    if ((kind == Use::kNormal && data->components == 3) ||
        (kind == Use::kTangent && data->components == 4)) {
      if ((kind == Use::kTangent && !HandednessExact(data->values)) || !WithinRange(*data, -1, 1)) {
        continue;
      }
      IntegerData byte = Normalize<int8_t>(*data, kGltfByte);
      error = LargestAngle(data->values, byte.decoded, data->components);
      max_code = 127;
      if (error <= options.mesh_normal_degrees) {
        stored = std::move(byte);
      } else {
        IntegerData word = Normalize<int16_t>(*data, kGltfShort);
        error = LargestAngle(data->values, word.decoded, data->components);
        max_code = 32767;
        if (error <= options.mesh_normal_degrees) stored = std::move(word);
      }
      counter = &out.normal_accessors;
      worst = &out.normal_degrees;
    } else if (kind == Use::kTexcoord && data->components == 2 && WithinRange(*data, 0, 1)) {
      IntegerData word = Normalize<uint16_t>(*data, kGltfUnsignedShort);
      error = LargestDifference(data->values, word.decoded);
      max_code = 65535;
      if (error <= options.mesh_texcoord) stored = std::move(word);
      counter = &out.texcoord_accessors;
      worst = &out.texcoord_error;
    } else if (kind == Use::kColor && data->components >= 3 && WithinRange(*data, 0, 1)) {
      IntegerData byte = Normalize<uint8_t>(*data, kGltfUnsignedByte);
      error = LargestDifference(data->values, byte.decoded);
      max_code = 255;
      if (error <= options.mesh_color) {
        stored = std::move(byte);
      } else {
        IntegerData word = Normalize<uint16_t>(*data, kGltfUnsignedShort);
        error = LargestDifference(data->values, word.decoded);
        max_code = 65535;
        if (error <= options.mesh_color) stored = std::move(word);
      }
      counter = &out.color_accessors;
      worst = &out.color_error;
    } else if (kind == Use::kDeltaDirection && data->components == 3 && WithinRange(*data, -1, 1)) {
      // 8-bit where each delta's error stays within the chord of the normal bound (at weight 1 it
      // turns the drawn normal no more than the bound, as a position delta moves a vertex no more
      // than the position bound; threejs MorphStressTest's normal deltas: 0.0068 of 0.0087), else
      // 16-bit (1/65534 a component).
      IntegerData byte = Normalize<int8_t>(*data, kGltfByte);
      error = LargestDistance(data->values, byte.decoded, data->components);
      max_code = 127;
      if (error <= ChordOf(options.mesh_normal_degrees)) {
        stored = std::move(byte);
      } else {
        IntegerData word = Normalize<int16_t>(*data, kGltfShort);
        error = LargestDistance(data->values, word.decoded, data->components);
        max_code = 32767;
        stored = std::move(word);
      }
      counter = &out.delta_accessors;
      worst = &out.delta_error;
    } else if (kind == Use::kWeights) {
      StoredWeights& stored_weights = weight->second.second;
      error = stored_weights.error;
      max_code = stored_weights.stored.component_type == kGltfUnsignedByte ? 255 : 65535;
      stored = std::move(stored_weights.stored);
      counter = &out.weight_accessors;
      worst = &out.weight_error;
    } else if (kind == Use::kJoints && WithinRange(*data, 0, 255)) {
      // Joint indices below 256 as unsigned bytes: the same numbers (lossless).
      IntegerData byte;
      byte.component_type = kGltfUnsignedByte;
      byte.stride = PaddedStride(data->components);
      byte.bytes.assign(data->count * byte.stride, '\0');
      byte.decoded = data->values;
      for (size_t e = 0; e < data->count; ++e) {
        for (size_t c = 0; c < data->components; ++c) {
          Put(byte.bytes, e * byte.stride + c,
              static_cast<uint8_t>(data->values[e * data->components + c]));
        }
      }
      max_code = 1;
      stored = std::move(byte);
      counter = &out.joint_accessors;
      worst = &out.joint_error;  // stays 0
    }
    if (!stored) continue;
    out.accessors[a] = AccessorChange(stored->component_type, kind != Use::kJoints,
                                      Codes(*stored, max_code), data->components, bounds);
    out.views[data->view] = {std::move(stored->bytes), stored->stride};
    view_of[a] = data->view;
    ++*counter;
    // Texture coordinates, colours, skin weights and joints as (normalized) integers are core
    // glTF 2.0 (§3.7.2.1).
    if (kind != Use::kTexcoord && kind != Use::kColor && kind != Use::kWeights &&
        kind != Use::kJoints) {
      out.needs_extension = true;
    }
    *worst = std::max(*worst, error);
  }
  MergeViewsByStride(view_of, out);
  return out;
}

}  // namespace animconv
