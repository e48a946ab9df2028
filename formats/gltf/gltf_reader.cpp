#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/matrix_decompose.hpp>
#include <map>
#include <set>

#include "animconv/diagnostic.h"
#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "formats/common/json_skim.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_accessors.h"
#include "formats/gltf/gltf_buffers.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_node_morphs.h"
#include "formats/gltf/gltf_rest_mesh_support.h"
#include "formats/gltf/vrm_expressions.h"
#include "formats/gltf/vrm_humanoid.h"
#include "formats/gltf/vrm_look_at.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

using nlohmann::json;

// Extensions whose presence in extensionsRequired does not stop us: either we decode them, or
// they govern data the animation conversion never interprets (materials, textures, lights,
// compressed geometry, which pass-through keeps byte for byte).
bool CanHonourRequiredExtension(const std::string& name) {
  static const std::set<std::string> kHonoured = {
      "EXT_meshopt_compression",
      "KHR_mesh_quantization",
      "KHR_texture_transform",
      "KHR_texture_basisu",
      "EXT_texture_webp",
      "EXT_texture_avif",
      "KHR_materials_unlit",
      "KHR_lights_punctual",
      "KHR_draco_mesh_compression",
      "EXT_mesh_gpu_instancing",
      "KHR_materials_emissive_strength",
  };
  return kHonoured.count(name) > 0 || name.compare(0, 14, "KHR_materials_") == 0;
}

void CheckAssetAndExtensions(const json& document, const GltfErrors& errors) {
  const json& asset = errors.Object(document, "asset", "");
  const std::string version = errors.OptionalString(asset, "version", "/asset");
  if (version.compare(0, 2, "2.") != 0) {
    errors.Fail("/asset/version",
                fmt::format("glTF version '{}' is not supported; expected 2.x", version));
  }
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    const auto names = document.find(list);
    if (names != document.end() && names->is_array() && names->size() > kGltfMaxExtensionNames) {
      errors.Fail(fmt::format("/{}", list),
                  fmt::format("more than {} extension names; a glTF file lists the extensions "
                              "it uses, each once",
                              kGltfMaxExtensionNames));
    }
  }
  std::vector<std::string> refused;
  if (const json* required = errors.OptionalArray(document, "extensionsRequired", "")) {
    for (const json& name : *required) {
      if (!name.is_string()) errors.Fail("/extensionsRequired", "expected strings");
      if (!CanHonourRequiredExtension(name.get<std::string>())) {
        refused.push_back(name.get<std::string>());
      }
    }
  }
  if (!refused.empty()) {
    errors.Fail("/extensionsRequired",
                fmt::format("requires {} which animconv cannot honour", fmt::join(refused, ", ")));
  }
}

Quat RotationFromGlm(const glm::dquat& q) { return {q.x, q.y, q.z, q.w}; }

// A TRS matrix (column-major) as its columns say: the translation is the last, the scale the
// first three's lengths (the first negated where the matrix mirrors), the rotation what is left.
// For the matrices glm::decompose refuses because their determinant is below double's epsilon: a
// node scaled 1e-6, the dequantization --compress-meshes folds into a matrix node, read back as
// "cannot be decomposed" (review 1, session 33). False where a column or m[15] is 0.
bool DecomposeByColumns(const glm::dmat4& m, glm::dvec3& scale, glm::dquat& rotation,
                        glm::dvec3& translation) {
  if (m[3][3] == 0) return false;
  const double w = m[3][3];
  glm::dmat3 axes{glm::dvec3{m[0]} / w, glm::dvec3{m[1]} / w, glm::dvec3{m[2]} / w};
  for (int c = 0; c < 3; ++c) {
    scale[c] = glm::length(axes[c]);
    if (!(scale[c] > 0) || !std::isfinite(scale[c])) return false;
    axes[c] /= scale[c];
  }
  if (glm::determinant(axes) < 0) {
    scale.x = -scale.x;
    axes[0] = -axes[0];
  }
  rotation = glm::quat_cast(axes);
  translation = glm::dvec3{m[3]} / w;
  return true;
}

// Node TRS from `translation`/`rotation`/`scale` or a decomposed `matrix` (column-major).
void ReadRestPose(const json& definition, const std::string& pointer, const GltfErrors& errors,
                  Node& node) {
  const std::vector<double> matrix = errors.OptionalNumbers(definition, "matrix", pointer, 16);
  if (!matrix.empty()) {
    const glm::dmat4 m = glm::make_mat4(matrix.data());
    glm::dvec3 scale, translation, skew;
    glm::dvec4 perspective;
    glm::dquat rotation;
    if (!glm::decompose(m, scale, rotation, translation, skew, perspective) &&
        !DecomposeByColumns(m, scale, rotation, translation)) {
      errors.Fail(pointer + "/matrix", "the matrix cannot be decomposed into TRS");
    }
    node.rest_translation = {translation.x, translation.y, translation.z};
    node.rest_rotation = Normalized(RotationFromGlm(rotation));
    node.rest_scale = {scale.x, scale.y, scale.z};
    return;
  }
  const std::vector<double> t = errors.OptionalNumbers(definition, "translation", pointer, 3);
  const std::vector<double> r = errors.OptionalNumbers(definition, "rotation", pointer, 4);
  const std::vector<double> s = errors.OptionalNumbers(definition, "scale", pointer, 3);
  if (!t.empty()) node.rest_translation = {t[0], t[1], t[2]};
  if (!r.empty()) {
    const Quat q = {r[0], r[1], r[2], r[3]};
    if (Length(q) == 0) errors.Fail(pointer + "/rotation", "a zero quaternion is not a rotation");
    node.rest_rotation = Normalized(q);
  }
  if (!s.empty()) node.rest_scale = {s[0], s[1], s[2]};
}

// A name longer than the limit: no tool writes one, and every message quoting it would be huge.
void CheckName(const std::string& name, const std::string& pointer, const StructureLimits& limits,
               const GltfErrors& errors) {
  if (name.size() > limits.name_bytes) {
    errors.Fail(pointer + "/name", fmt::format("a name of {} bytes, more than the limit of {}",
                                               name.size(), limits.name_bytes));
  }
}

Rig ReadRig(const json& document, const GltfLists& lists, const StructureLimits& limits,
            const GltfErrors& errors) {
  Rig rig;
  rig.rest_pose_known = true;
  const GltfObjectList* nodes = errors.OptionalObjects(document, lists, "nodes");
  if (!nodes) return rig;
  if (nodes->size() > limits.nodes) {
    errors.Fail("/nodes",
                fmt::format("{} nodes, more than the limit of {}", nodes->size(), limits.nodes));
  }
  const GltfObjectList* meshes = errors.OptionalObjects(document, lists, "meshes");
  // Each mesh is read once, however many nodes show it.
  std::map<size_t, MeshMorphs> read_meshes;
  rig.nodes.resize(nodes->size());
  for (size_t n = 0; n < nodes->size(); ++n) {
    const std::string pointer = fmt::format("/nodes/{}", n);
    const json definition = nodes->At(n);
    if (!definition.is_object()) errors.Fail(pointer, "expected an object");
    Node& node = rig.nodes[n];
    node.name = errors.OptionalString(definition, "name", pointer);
    CheckName(node.name, pointer, limits, errors);
    // GLTFLoader leaves unnamed nodes unnamed (binding them by uuid); we need a stable name.
    if (node.name.empty()) {
      node.name = fmt::format("node_{}", n);
      node.generated_name = true;
    }
    ReadRestPose(definition, pointer, errors, node);
    if (definition.contains("mesh")) {
      const size_t mesh =
          errors.Index(definition, "mesh", pointer, meshes ? meshes->size() : 0, "meshes");
      auto read = read_meshes.find(mesh);
      if (read == read_meshes.end()) {
        read = read_meshes.emplace(mesh, ReadMorphTargets(meshes->At(mesh), mesh, limits, errors))
                   .first;
      }
      const MeshMorphs& morphs = read->second;
      node.mesh = morphs.mesh;
      node.morph_target_count = morphs.target_count;
      node.morph_default_weights = morphs.default_weights;
      node.morph_target_names = morphs.target_names;
      ReadNodeWeights(definition, node);
    }
  }
  // The children once every node has passed, as before (each node is parsed again: one node's
  // tree at a time).
  for (size_t n = 0; n < nodes->size(); ++n) {
    const std::string pointer = fmt::format("/nodes/{}", n);
    const json definition = nodes->At(n);
    const json* children = errors.OptionalArray(definition, "children", pointer);
    if (!children) continue;
    for (size_t c = 0; c < children->size(); ++c) {
      const json& child = (*children)[c];
      const std::string child_pointer = fmt::format("{}/children/{}", pointer, c);
      if (!child.is_number_integer() || child.get<int64_t>() < 0 ||
          child.get<int64_t>() >= static_cast<int64_t>(nodes->size()) ||
          child.get<int64_t>() == static_cast<int64_t>(n)) {
        errors.Fail(child_pointer, "expected the index of another node");
      }
      Node& child_node = rig.nodes[static_cast<size_t>(child.get<int64_t>())];
      if (child_node.parent >= 0) {
        errors.Fail(child_pointer, fmt::format("node {} already has parent {}; glTF nodes have "
                                               "at most one parent",
                                               child.get<int64_t>(), child_node.parent));
      }
      child_node.parent = static_cast<int>(n);
    }
  }
  // glTF requires a forest (glTF 2.0 §3.5.3); a cycle would hang every walk up the hierarchy.
  // One linear pass: walking to the root from every node was quadratic in a long chain.
  if (const auto fault = FindHierarchyFault(ParentsOf(rig), limits.depth)) {
    if (fault->kind == HierarchyFault::kCycle) {
      errors.Fail(fmt::format("/nodes/{}", fault->node), "the node is part of a cycle of children");
    }
    errors.Fail(fmt::format("/nodes/{}", fault->node),
                fmt::format("the node is {} levels deep, more than the limit of {}",
                            limits.depth + 1, limits.depth));
  }
  return rig;
}

std::optional<Path> ParsePath(const std::string& text) {
  if (text == "translation") return Path::kTranslation;
  if (text == "rotation") return Path::kRotation;
  if (text == "scale") return Path::kScale;
  if (text == "weights") return Path::kWeights;
  return std::nullopt;
}

// Checks a sampler output's accessor type against the spec table (glTF 2.0 §3.11 sampler output
// formats).
void CheckOutputFormat(const AccessorData& output, Path path, const std::string& pointer,
                       const GltfErrors& errors) {
  const bool is_float = output.component_type == kGltfFloat;
  const bool normalized_ok = output.normalized && output.component_type != kGltfUnsignedInt;
  bool ok = false;
  switch (path) {
    case Path::kTranslation:
    case Path::kScale:
      ok = output.components == 3 && is_float;
      break;
    case Path::kRotation:
      ok = output.components == 4 && (is_float || normalized_ok);
      break;
    case Path::kWeights:
      ok = output.components == 1 && (is_float || normalized_ok);
      break;
  }
  if (!ok) {
    errors.Fail(pointer, fmt::format("a {} output must be {} (glTF 2.0 animation sampler table)",
                                     PathName(path),
                                     path == Path::kRotation  ? "VEC4 float or normalized integer"
                                     : path == Path::kWeights ? "SCALAR float or normalized integer"
                                                              : "VEC3 float"));
  }
}

Clip ReadAnimation(const json& animation, size_t index, Asset& asset, GltfAccessors& accessors,
                   const StructureLimits& limits, const GltfErrors& errors,
                   size_t* skipped_channels, Diagnostics* diagnostics) {
  const std::string pointer = fmt::format("/animations/{}", index);
  if (!animation.is_object()) errors.Fail(pointer, "expected an object");
  Clip clip;
  clip.name = errors.OptionalString(animation, "name", pointer);
  CheckName(clip.name, pointer, limits, errors);
  if (clip.name.empty()) clip.name = fmt::format("animation_{}", index);  // GLTFLoader's choice
  const json* samplers = errors.OptionalArray(animation, "samplers", pointer);
  const json* channels = errors.OptionalArray(animation, "channels", pointer);
  if (!channels) return clip;
  if (channels->size() > limits.channels) {
    errors.Fail(pointer + "/channels", fmt::format("{} channels, more than the limit of {}",
                                                   channels->size(), limits.channels));
  }
  std::set<std::pair<size_t, Path>> targeted;
  for (size_t c = 0; c < channels->size(); ++c) {
    const std::string channel_pointer = fmt::format("{}/channels/{}", pointer, c);
    const json& definition = (*channels)[c];
    if (!definition.is_object()) errors.Fail(channel_pointer, "expected an object");
    const json& target = errors.Object(definition, "target", channel_pointer);
    const std::string target_pointer = channel_pointer + "/target";
    const std::optional<Path> path =
        ParsePath(errors.OptionalString(target, "path", target_pointer));
    // Channels without a node (KHR_animation_pointer and friends) are to be ignored (§6.1).
    if (!target.contains("node") || !path) {
      ++*skipped_channels;
      continue;
    }
    const size_t node =
        errors.Index(target, "node", target_pointer, asset.rig.nodes.size(), "nodes");
    if (!targeted.emplace(node, *path).second) {
      errors.Fail(target_pointer, fmt::format("node {} {} is already animated by another channel "
                                              "of this animation",
                                              node, PathName(*path)));
    }
    const size_t sampler_index = errors.Index(definition, "sampler", channel_pointer,
                                              samplers ? samplers->size() : 0, "samplers");
    const std::string sampler_pointer = fmt::format("{}/samplers/{}", pointer, sampler_index);
    const json& sampler = (*samplers)[sampler_index];
    if (!sampler.is_object()) errors.Fail(sampler_pointer, "expected an object");
    Channel channel;
    channel.node = static_cast<int>(node);
    channel.path = *path;
    const std::string interpolation =
        errors.OptionalString(sampler, "interpolation", sampler_pointer);
    if (interpolation == "STEP") {
      channel.interpolation = Interpolation::kStep;
    } else if (interpolation == "CUBICSPLINE") {
      channel.interpolation = Interpolation::kCubicSpline;
    } else if (!interpolation.empty() && interpolation != "LINEAR") {
      // Only a validator warning; loaders fall back to linear, and so do we, saying so.
      asset.notes.push_back(fmt::format("{}: unknown interpolation '{}' read as LINEAR",
                                        sampler_pointer, interpolation));
    }

    const size_t input_index =
        errors.Index(sampler, "input", sampler_pointer, accessors.size(), "accessors");
    const size_t output_index =
        errors.Index(sampler, "output", sampler_pointer, accessors.size(), "accessors");
    const AccessorData& input = accessors.Get(input_index);
    const std::string input_pointer = accessors.Pointer(input_index);
    // accessor.count has "minimum": 1 (glTF 2.0 §5.1, accessor.schema.json), yet real files hold
    // empty samplers (magnum's animation.gltf fixture, "empty TRS animation", which GLTFLoader
    // loads as an empty clip). Refusing would make such a file unreadable for the sake of a
    // channel that holds nothing; keeping it silently would hide a broken file. So: a located
    // warning and the channel skipped; a file left with no animation at all is still refused by
    // the partial-output rule (docs/cli.md).
    if (input.count == 0) {
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("{}:{}/count: 0 keys for {}, where glTF 2.0 requires count >= 1; "
                                "the channel is skipped",
                                errors.source(), input_pointer, channel_pointer));
      continue;
    }
    if (input.count > limits.keys_per_channel) {
      errors.Fail(input_pointer + "/count", fmt::format("{} keys, more than the limit of {}",
                                                        input.count, limits.keys_per_channel));
    }
    if (input.components != 1 || input.component_type != kGltfFloat) {
      errors.Fail(input_pointer, "an animation input must be SCALAR float seconds");
    }
    double previous = -1;
    for (size_t k = 0; k < input.count; ++k) {
      const double seconds = input.values[k];
      if (!std::isfinite(seconds) || seconds < 0 || seconds <= previous) {
        errors.Fail(input_pointer,
                    fmt::format("key {} time {} is not finite, >= 0 and greater than the one "
                                "before (glTF 2.0 §3.11)",
                                k, ShortestText(seconds)));
      }
      previous = seconds;
    }
    const AccessorData& output = accessors.Get(output_index);
    const std::string output_pointer = accessors.Pointer(output_index);
    CheckOutputFormat(output, *path, output_pointer, errors);
    const Node& target_node = asset.rig.nodes[node];
    channel.width = PathWidth(*path, target_node);
    if (*path == Path::kWeights && channel.width == 0) {
      errors.Fail(target_pointer, fmt::format("weights animated on node {}, whose mesh has no "
                                              "morph targets",
                                              node));
    }
    const size_t expected = input.count * channel.elements_per_key() *
                            static_cast<size_t>(channel.width) /
                            static_cast<size_t>(output.components);
    if (output.count != expected) {
      errors.Fail(
          output_pointer,
          fmt::format("{} elements, but {} keys of {} {} need {}", output.count, input.count,
                      interpolation.empty() ? "LINEAR" : interpolation, PathName(*path), expected));
    }
    if (channel.interpolation == Interpolation::kCubicSpline && input.count < 2) {
      errors.Fail(input_pointer, "a CUBICSPLINE sampler needs at least 2 keys");
    }
    // Each accessor was decoded once; the last channel to use it takes it (PlanChannelTakes).
    channel.times_seconds = accessors.TakeValues(input_index);
    channel.values = accessors.TakeValues(output_index);
    if (*path == Path::kRotation) {
      for (size_t k = 0; k < channel.key_count(); ++k) {
        if (Length(LoadQuat(channel.key_value(k))) == 0) {
          errors.Fail(output_pointer, fmt::format("key {} is a zero quaternion", k));
        }
      }
    }
    clip.channels.push_back(std::move(channel));
  }
  return clip;
}

// An index ReadAnimation's errors.Index would accept: an integer in [0, limit).
const json* ValidIndexIn(const json& parent, const char* key, size_t limit) {
  const auto found = parent.find(key);
  if (found == parent.end() || !found->is_number_integer() || found->get<int64_t>() < 0 ||
      static_cast<uint64_t>(found->get<int64_t>()) >= limit) {
    return nullptr;
  }
  return &*found;
}

// Plans the accessor takes of every channel ReadAnimation may read, without judging the file (its
// errors are ReadAnimation's, in its order): a channel with a target node and a TRS/weights path,
// whose sampler exists, takes that sampler's input and output. So one accessor shared by many
// channels (one time accessor for a clip) is decoded once, copied into all but the last channel
// and moved into that one.
void PlanChannelTakes(const PackedJsonArray* animations, GltfAccessors& accessors) {
  if (!animations) return;
  for (size_t a = 0; a < animations->size(); ++a) {
    const json animation = animations->At(a);
    if (!animation.is_object()) continue;
    const auto channels = animation.find("channels");
    const auto samplers = animation.find("samplers");
    if (channels == animation.end() || !channels->is_array() || samplers == animation.end() ||
        !samplers->is_array()) {
      continue;
    }
    for (const json& channel : *channels) {
      if (!channel.is_object()) continue;
      const auto target = channel.find("target");
      if (target == channel.end() || !target->is_object() || !target->contains("node")) continue;
      const auto path = target->find("path");
      if (path == target->end() || !path->is_string() || !ParsePath(path->get<std::string>())) {
        continue;
      }
      const json* sampler_index = ValidIndexIn(channel, "sampler", samplers->size());
      if (!sampler_index) continue;
      const json& sampler = (*samplers)[sampler_index->get<size_t>()];
      if (!sampler.is_object()) continue;
      for (const char* key : {"input", "output"}) {
        if (const json* index = ValidIndexIn(sampler, key, accessors.size())) {
          accessors.PlanTake(index->get<size_t>());
        }
      }
    }
  }
}

std::map<size_t, std::string> LoadExternalImages(const json& document, const GltfLists& lists,
                                                 const ReadOptions& options,
                                                 const GltfErrors& errors) {
  std::map<size_t, std::string> images;
  const GltfObjectList* list = errors.OptionalObjects(document, lists, "images");
  if (!list) return images;
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string pointer = fmt::format("/images/{}", i);
    const json image = list->At(i);
    if (!image.is_object()) errors.Fail(pointer, "expected an object");
    const std::string& uri = errors.OptionalString(image, "uri", pointer);
    if (uri.empty() || uri.compare(0, 5, "data:") == 0) continue;
    if (options.load_resource) {
      images.emplace(i, LoadExternalFile(options, uri, pointer + "/uri"));
    } else {
      errors.Fail(pointer + "/uri", fmt::format("external image '{}' cannot be read when the "
                                                "input comes from memory",
                                                uri));
    }
  }
  return images;
}

// The count a VRM 0.x bind's mesh index is checked against: the meshes list's, or for a `meshes`
// that is not an array (refused only when a node shows a mesh) json::size() of it, as always.
size_t MeshCount(const json& document, const GltfLists& lists) {
  if (const GltfObjectList* meshes = lists.Objects("meshes")) return meshes->size();
  const auto meshes = document.find("meshes");
  return meshes == document.end() ? 0 : meshes->size();
}

}  // namespace

bool SniffGlb(std::string_view bytes) { return IsGlb(bytes); }

bool SniffGltf(std::string_view bytes) {
  // JSON whose top-level object has "asset" (required in glTF, absent from three.js JSON).
  bool found = false;
  SkimJsonKeys(bytes, [&found](std::string_view key, const JsonKeyPlace& place) {
    found = place.depth == 1 && place.kinds[0] == '{' && key == "asset";
    return found;
  });
  return found;
}

Asset ReadGltf(std::string_view bytes, const ReadOptions& options) {
  const GltfErrors errors(options.source);
  GltfContainer container = ParseGltfContainer(bytes, errors);
  const json& document = container.json;
  CheckAssetAndExtensions(document, errors);
  auto source = std::make_shared<GltfDocument>();
  // Decoded data (meshopt views, then keyframes as doubles) may exceed the file, but not wildly.
  const uint64_t budget = uint64_t{16} * bytes.size() + (uint64_t{64} << 20);
  source->buffer_views = GltfViewBytes(LoadBufferViews(container, options, budget, errors));

  Asset asset;
  asset.coordinates = {Handedness::kRight, Facing::kPlusZ};  // glTF: the front faces +Z
  asset.rig = ReadRig(document, container.lists, options.limits, errors);
  const VrmKind vrm_kind = ReadVrmHumanoid(document, asset, errors);
  ReadVrmExpressions(document, MeshCount(document, container.lists), vrm_kind, asset, errors);
  ReadVrmLookAt(document, vrm_kind, asset, errors);
  if (options.rest_mesh_support) {
    ReadRestMeshSupport(document, container.lists, source->buffer_views, options.source, budget,
                        asset.rig, options.diagnostics);
  }
  GltfAccessors accessors(document, container.lists, source->buffer_views, errors, budget);
  const PackedJsonArray* animations =
      errors.OptionalList(document, container.lists.animations.get(), "animations");
  PlanChannelTakes(animations, accessors);
  size_t skipped_channels = 0;
  for (size_t a = 0; animations && a < animations->size(); ++a) {
    asset.clips.push_back(ReadAnimation(animations->At(a), a, asset, accessors, options.limits,
                                        errors, &skipped_channels, options.diagnostics));
  }
  if (vrm_kind == VrmKind::kVrma) ReadVrmaStepAsPlayed(asset);
  if (skipped_channels > 0) {
    asset.notes.push_back(fmt::format(
        "{} channel(s) without a target node or with a non-TRS/weights path were ignored "
        "(e.g. KHR_animation_pointer)",
        skipped_channels));
  }
  for (const Clip& clip : asset.clips) {
    if (clip.channels.empty()) {
      asset.notes.push_back(fmt::format("animation '{}' has no channels", clip.name));
    }
  }
  source->external_images = std::make_shared<const std::map<size_t, std::string>>(
      LoadExternalImages(document, container.lists, options, errors));
  source->json = std::move(container.json);
  source->lists = std::move(container.lists);
  asset.source_document = std::move(source);
  return asset;
}

}  // namespace animconv
