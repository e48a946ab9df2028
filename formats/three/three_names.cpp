#include <fmt/format.h>

#include <map>

#include "formats/three/three_json.h"

namespace animconv {
namespace {

// Length of the UTF-8 sequence at `text[i]` if it encodes a code point JavaScript's \s matches
// beyond ASCII (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF),
// else 0.
size_t UnicodeSpaceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  const unsigned b0 = byte(0), b1 = byte(1), b2 = byte(2);
  if (b0 == 0xC2 && b1 == 0xA0) return 2;
  if (b0 == 0xE1 && b1 == 0x9A && b2 == 0x80) return 3;
  if (b0 == 0xE2 && b1 == 0x80 &&
      ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF)) {
    return 3;
  }
  if (b0 == 0xE2 && b1 == 0x81 && b2 == 0x9F) return 3;
  if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x80) return 3;
  if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) return 3;
  return 0;
}

}  // namespace

std::string SanitizeNodeName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size();) {
    const char c = name[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
      out += '_';
      ++i;
    } else if (const size_t length = UnicodeSpaceLength(name, i)) {
      out += '_';
      i += length;
    } else {
      if (c != '[' && c != ']' && c != '.' && c != ':' && c != '/') out += c;
      ++i;
    }
  }
  return out;
}

namespace {

// GLTFLoader.createUniqueName: sanitise, then "name", "name_1", "name_2" in call order.
class UniqueNames {
 public:
  std::string Make(const std::string& raw) {
    const std::string name = SanitizeNodeName(raw);
    auto found = used_.find(name);
    if (found == used_.end()) {
      used_.emplace(name, 0);
      return name;
    }
    return fmt::format("{}_{}", name, ++found->second);
  }

 private:
  std::map<std::string, int> used_;
};

// A track bound to an unnamed node binds only where a three.js object carries the name we gave
// it (GLTFLoader binds such nodes by uuid), so the nodes the written tracks target are one warning.
// Unnamed nodes no written track targets are left out: a model's 21 untouched helper nodes are no
// news for a clip that animates other nodes.
void WarnUnnamedTrackTargets(const Rig& rig, const ThreeObjectNames& names,
                             const std::vector<bool>& unnamed,
                             const std::vector<const Clip*>& written_clips,
                             Diagnostics* diagnostics) {
  if (!diagnostics) return;
  std::vector<bool> targeted(rig.nodes.size(), false);
  for (const Clip* clip : written_clips) {
    for (const Channel& channel : clip->channels) {
      const size_t n = static_cast<size_t>(channel.node);
      // Weights tracks are named after the node's mesh objects, which have names of their own
      // when it has a mesh; only a mesh-less node's weights track uses the node's name.
      if (channel.path != Path::kWeights || !rig.nodes[n].mesh) targeted[n] = true;
    }
  }
  constexpr size_t kShown = 10;
  size_t count = 0;
  std::string list;
  for (size_t n = 0; n < rig.nodes.size(); ++n) {
    if (!unnamed[n] || !targeted[n]) continue;
    if (count++ < kShown) {
      list += fmt::format("{}node {} as '{}'", list.empty() ? "" : ", ", n, names.nodes[n]);
    }
  }
  if (count == 0) return;
  if (count > kShown) list += fmt::format(" and {} more", count - kShown);
  AddDiagnostic(diagnostics, Severity::kWarning,
                fmt::format("{} animated node(s) have no name in their source and were named: {}; "
                            "three.js binds such nodes by uuid, so their tracks only bind where an "
                            "object carries that name",
                            count, list));
}

}  // namespace

ThreeObjectNames ThreeNodeNames(const Rig& rig, Diagnostics* diagnostics,
                                const std::vector<const Clip*>& written_clips) {
  // GLTFLoader names every named node first (synchronously, in scene order), then, as meshes
  // finish loading, one object per primitive after the mesh ("mesh_<index>" when unnamed). A node
  // with a one-primitive mesh *is* that mesh object, and keeps the mesh's name when unnamed.
  ThreeObjectNames names;
  names.nodes.resize(rig.nodes.size());
  names.morph_objects.resize(rig.nodes.size());
  const std::vector<size_t> order = DepthFirstOrder(rig);
  UniqueNames unique;
  for (const size_t n : order) {
    if (!rig.nodes[n].generated_name) names.nodes[n] = unique.Make(rig.nodes[n].name);
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
  WarnUnnamedTrackTargets(rig, names, unnamed, written_clips, diagnostics);
  return names;
}

}  // namespace animconv
