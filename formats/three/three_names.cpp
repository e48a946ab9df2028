#include <fmt/format.h>

#include <map>
#include <optional>

#include "animconv/error.h"
#include "formats/three/three_json.h"
#include "libconvert/three_node_name.h"

namespace animconv {
namespace {

// GLTFLoader.createUniqueName: sanitise, then "name", "name_1", "name_2" in call order.
class UniqueNames {
 public:
  // `suffixed`, when given, is set to whether the name took a suffix (another took it first).
  std::string Make(const std::string& raw, bool* suffixed = nullptr) {
    const std::string name = SanitizeNodeName(raw);
    auto found = used_.find(name);
    if (suffixed) *suffixed = found != used_.end();
    if (found == used_.end()) {
      used_.emplace(name, 0);
      return name;
    }
    return fmt::format("{}_{}", name, ++found->second);
  }

 private:
  std::map<std::string, int> used_;
};

// The nodes the written tracks target (weights tracks of a node with a mesh target its mesh
// objects, which have names of their own).
std::vector<bool> TargetedNodes(const Rig& rig, const std::vector<const Clip*>& written_clips) {
  std::vector<bool> targeted(rig.nodes.size(), false);
  for (const Clip* clip : written_clips) {
    for (const Channel& channel : clip->channels) {
      const size_t n = static_cast<size_t>(channel.node);
      if (channel.path != Path::kWeights || !rig.nodes[n].mesh) targeted[n] = true;
    }
  }
  return targeted;
}

// "node 3 as 'x', node 5 as 'y' and 2 more" for the nodes `listed` and `targeted` both mark.
std::string ListNodes(const ThreeObjectNames& names, const std::vector<bool>& listed,
                      const std::vector<bool>& targeted, const Rig& rig, bool by_name,
                      size_t* count) {
  constexpr size_t kShown = 10;
  *count = 0;
  std::string list;
  for (size_t n = 0; n < listed.size(); ++n) {
    if (!listed[n] || !targeted[n]) continue;
    if ((*count)++ < kShown) {
      list += list.empty() ? "" : ", ";
      list += by_name ? fmt::format("'{}' as '{}'", rig.nodes[n].name, names.nodes[n])
                      : fmt::format("node {} as '{}'", n, names.nodes[n]);
    }
  }
  if (*count > kShown) list += fmt::format(" and {} more", *count - kShown);
  return list;
}

// How a three.js object's own name (Rig::three_object_names) is written so that PropertyBinding
// finds that object again: as the track's node where parseTrackName reads it back whole
// ("Bone.001", "my bone"), else as a skeleton bone, '.bones[NAME]', the way parseAnimation and
// such tracks name them ("mixamorig:Spine"); "" is the mixer's root. nullopt where neither parses
// (a ':' or '/' with a line break: the accessor's brackets hold '.+').
std::optional<std::string> ThreeBinding(const std::string& name) {
  if (name.empty()) return name;
  const std::optional<ThreeTrackName> as_node = ParseThreeTrackName(name + ".quaternion");
  if (as_node && as_node->node == name && as_node->object.empty()) return name;
  const std::string bone = ".bones[" + name + "]";
  const std::optional<ThreeTrackName> as_bone = ParseThreeTrackName(bone + ".quaternion");
  if (as_bone && as_bone->object == "bones" && as_bone->object_index == name) return bone;
  return std::nullopt;
}

// The names of a rig read from three.js (Rig::three_object_names), kept: sanitising them again
// unbound the tracks from the objects they came from ("Bone.001" became "Bone001"). A name no
// track can hold is an error where a written track targets its node (`targeted`), and is left
// as it is elsewhere (a model's node nothing animates).
ThreeObjectNames KeptThreeNames(const Rig& rig, const std::vector<bool>& targeted) {
  ThreeObjectNames names;
  names.nodes.resize(rig.nodes.size());
  names.morph_objects.resize(rig.nodes.size());
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    const std::optional<std::string> binding = ThreeBinding(rig.nodes[n].name);
    if (!binding && targeted[n]) {
      ThrowUsage(
          fmt::format("three: node '{}' has a name no three.js track name can hold (a "
                      "line break beside a ':' or '/'); rename it with --bone-map",
                      rig.nodes[n].name));
    }
    names.nodes[n] = binding.value_or(rig.nodes[n].name);
    names.morph_objects[n].push_back(names.nodes[n]);
  }
  return names;
}

// A track bound to an unnamed node binds only where a three.js object carries the name we gave
// it (GLTFLoader binds such nodes by uuid), so the nodes the written tracks target are one warning.
// Unnamed nodes no written track targets are left out: a model's 21 untouched helper nodes are no
// news for a clip that animates other nodes.
void WarnUnnamedTrackTargets(const Rig& rig, const ThreeObjectNames& names,
                             const std::vector<bool>& unnamed, const std::vector<bool>& targeted,
                             Diagnostics* diagnostics) {
  size_t count = 0;
  const std::string list = ListNodes(names, unnamed, targeted, rig, false, &count);
  if (count == 0) return;
  AddDiagnostic(diagnostics, Severity::kWarning,
                fmt::format("{} animated node(s) have no name in their source and were named: {}; "
                            "three.js binds such nodes by uuid, so their tracks only bind where an "
                            "object carries that name",
                            count, list));
}

// Names that are one name once sanitised ("a.b" and "ab") take GLTFLoader's suffixes in scene
// order, as the objects of a model it loads do; the tracks still bind there, but not to objects
// named as in the source, so the renamed ones are a warning (docs/formats/threejs.md).
void WarnSuffixedTrackTargets(const Rig& rig, const ThreeObjectNames& names,
                              const std::vector<bool>& suffixed, const std::vector<bool>& targeted,
                              Diagnostics* diagnostics) {
  size_t count = 0;
  const std::string list = ListNodes(names, suffixed, targeted, rig, true, &count);
  if (count == 0) return;
  AddDiagnostic(diagnostics, Severity::kWarning,
                fmt::format("{} animated node(s) have a name another node has once sanitised as "
                            "three.js names objects, and were named as GLTFLoader names them: {}; "
                            "their tracks bind those objects of a model GLTFLoader loads",
                            count, list));
}

}  // namespace

ThreeObjectNames ThreeNodeNames(const Rig& rig, Diagnostics* diagnostics,
                                const std::vector<const Clip*>& written_clips) {
  // GLTFLoader names every named node first (synchronously, in scene order), then, as meshes
  // finish loading, one object per primitive after the mesh ("mesh_<index>" when unnamed). A node
  // with a one-primitive mesh *is* that mesh object, and keeps the mesh's name when unnamed.
  if (rig.three_object_names) return KeptThreeNames(rig, TargetedNodes(rig, written_clips));
  ThreeObjectNames names;
  names.nodes.resize(rig.nodes.size());
  names.morph_objects.resize(rig.nodes.size());
  const std::vector<size_t> order = DepthFirstOrder(rig);
  UniqueNames unique;
  std::vector<bool> suffixed(rig.nodes.size(), false);
  for (const size_t n : order) {
    if (rig.nodes[n].generated_name) continue;
    bool took_suffix = false;
    names.nodes[n] = unique.Make(rig.nodes[n].name, &took_suffix);
    suffixed[n] = took_suffix;
  }
  for (const size_t n : order) {
    const Node& node = rig.nodes[n];
    if (!node.mesh) continue;
    const std::string mesh_name =
        node.mesh->name.empty() ? fmt::format("mesh_{}", node.mesh->index) : node.mesh->name;
    for (int p = 0; p < node.mesh->primitive_count; ++p) {
      names.morph_objects[n].push_back(unique.Make(mesh_name));
    }
    if (node.mesh->primitive_count == 1) {
      if (node.generated_name) names.nodes[n] = names.morph_objects[n][0];
      names.morph_objects[n][0] = names.nodes[n];
    }
  }
  std::vector<bool> unnamed(rig.nodes.size(), false);
  for (const size_t n : order) {
    if (names.nodes[n].empty()) {
      names.nodes[n] = unique.Make(rig.nodes[n].name);
      unnamed[n] = true;
    }
    if (names.morph_objects[n].empty()) names.morph_objects[n].push_back(names.nodes[n]);
  }
  if (diagnostics) {
    const std::vector<bool> targeted = TargetedNodes(rig, written_clips);
    WarnUnnamedTrackTargets(rig, names, unnamed, targeted, diagnostics);
    WarnSuffixedTrackTargets(rig, names, suffixed, targeted, diagnostics);
  }
  return names;
}

}  // namespace animconv
