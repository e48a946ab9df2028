// Morph weights channels of two clips paired by the mesh they drive, not only by node name: a
// glTF names the node ("node_0" when unnamed) while its three.js conversion names the track after
// the mesh object GLTFLoader makes ("mesh_0" for an unnamed mesh), so name matching alone reports
// the same data as two unrelated channels, each "weight max 1" against zeros.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>

#include "libconvert/clip_diff_internal.h"
#include "libconvert/three_node_name.h"

namespace animconv::diff_detail {
namespace {

// The names a weights channel's target can go by: the node's own, its mesh's as three.js names
// the mesh object (the mesh name, "mesh_<index>" when it has none), and its primitives' objects.
std::set<std::string> MorphNames(const Node& node, const std::vector<std::string>& primitives) {
  std::set<std::string> names = {node.name, SanitizeNodeName(node.name)};
  // GLTFLoader's objects of the mesh's primitives ("Head_2", "Head_3" when a bone is also called
  // "Head"), which a three.js clip of the glTF names its tracks after.
  names.insert(primitives.begin(), primitives.end());
  if (node.mesh) {
    const std::string mesh =
        node.mesh->name.empty() ? fmt::format("mesh_{}", node.mesh->index) : node.mesh->name;
    names.insert(mesh);
    names.insert(SanitizeNodeName(mesh));
  }
  return names;
}

// Whether `name` is one of `names` followed by "_<digits>": three.js's unique name for a further
// primitive object of the same mesh.
bool IsFurtherPrimitive(const std::string& name, const std::set<std::string>& names) {
  const size_t underscore = name.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == name.size()) return false;
  for (size_t i = underscore + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return names.count(name.substr(0, underscore)) > 0;
}

bool Share(const std::set<std::string>& x, const std::set<std::string>& y) {
  return std::any_of(x.begin(), x.end(), [&](const std::string& name) { return y.count(name); });
}

bool AllNamed(const Node& node) {
  return node.morph_target_count > 0 &&
         node.morph_target_names.size() == static_cast<size_t>(node.morph_target_count) &&
         std::none_of(node.morph_target_names.begin(), node.morph_target_names.end(),
                      [](const std::string& name) { return name.empty(); });
}

// `channel` with its components rearranged: component i of the result is component
// `source[i]` of the input, or 0 where source[i] is -1.
void Rearrange(const std::vector<int>& source, Channel* channel) {
  const size_t width = static_cast<size_t>(channel->width);
  const size_t elements = width == 0 ? 0 : channel->values.size() / width;
  std::vector<double> values;
  values.reserve(elements * source.size());
  for (size_t e = 0; e < elements; ++e) {
    for (const int s : source) {
      values.push_back(s < 0 ? 0.0 : channel->values[e * width + static_cast<size_t>(s)]);
    }
  }
  channel->values = std::move(values);
  channel->width = static_cast<int>(source.size());
}

}  // namespace

ThreeNames NameThreeObjects(const Rig& rig) {
  // GLTFLoader visits the scene depth first from the roots (DepthFirstOrder, model.h).
  const std::vector<size_t> order = DepthFirstOrder(rig);
  // GLTFLoader.createUniqueName: sanitised, then "name_1", "name_2", ... in call order.
  std::map<std::string, int> used;
  const auto unique = [&](const std::string& raw) {
    const std::string name = SanitizeNodeName(raw);
    const auto [it, fresh] = used.emplace(name, 0);
    return fresh ? name : fmt::format("{}_{}", name, ++it->second);
  };
  ThreeNames names;
  names.objects.resize(rig.nodes.size());
  names.primitives.resize(rig.nodes.size());
  for (const size_t n : order) {
    if (!rig.nodes[n].generated_name) names.objects[n] = unique(rig.nodes[n].name);
  }
  for (const size_t n : order) {
    const Node& node = rig.nodes[n];
    if (!node.mesh) continue;
    const std::string mesh =
        node.mesh->name.empty() ? fmt::format("mesh_{}", node.mesh->index) : node.mesh->name;
    for (int p = 0; p < node.mesh->primitive_count; ++p) {
      names.primitives[n].push_back(unique(mesh));
    }
    if (node.mesh->primitive_count == 1 && node.generated_name) {
      names.objects[n] = names.primitives[n].front();
    }
  }
  for (const size_t n : order) {
    if (names.objects[n].empty()) names.objects[n] = unique(rig.nodes[n].name);
  }
  // A rig read from three.js holds its objects' own names, which are not made again.
  if (rig.three_object_names) {
    for (size_t n = 0; n < rig.nodes.size(); ++n) names.objects[n] = rig.nodes[n].name;
  }
  return names;
}

std::vector<std::string> ThreeObjectNames(const Rig& rig) { return NameThreeObjects(rig).objects; }

void PairMorphChannels(const Asset& a, const Asset& b, const Clip& cb,
                       std::vector<ChannelPair>* pairs, std::vector<bool>* b_used) {
  const ThreeNames three_a = NameThreeObjects(a.rig);
  const ThreeNames three_b = NameThreeObjects(b.rig);
  const auto names_a = [&](int node) {
    return MorphNames(a.rig.nodes[static_cast<size_t>(node)],
                      three_a.primitives[static_cast<size_t>(node)]);
  };
  const auto names_b = [&](int node) {
    return MorphNames(b.rig.nodes[static_cast<size_t>(node)],
                      three_b.primitives[static_cast<size_t>(node)]);
  };
  const auto unused_weights = [&](size_t c) {
    return !(*b_used)[c] && cb.channels[c].path == Path::kWeights;
  };
  // First the same mesh (or node) name.
  for (ChannelPair& pair : *pairs) {
    if (pair.b || pair.a->path != Path::kWeights) continue;
    const std::set<std::string> names = names_a(pair.node_a);
    for (size_t c = 0; c < cb.channels.size(); ++c) {
      if (!unused_weights(c)) continue;
      if (!Share(names, names_b(cb.channels[c].node))) {
        continue;
      }
      (*b_used)[c] = true;
      pair.b = &cb.channels[c];
      pair.node_b = cb.channels[c].node;
      break;
    }
  }
  // Further primitives of a paired mesh: one more pair each, right after the first.
  for (size_t p = 0; p < pairs->size(); ++p) {
    const ChannelPair pair = (*pairs)[p];
    if (!pair.a || !pair.b || pair.a->path != Path::kWeights) continue;
    std::set<std::string> names = names_a(pair.node_a);
    names.insert(b.rig.nodes[static_cast<size_t>(pair.node_b)].name);
    for (size_t c = 0; c < cb.channels.size(); ++c) {
      if (!unused_weights(c) || cb.channels[c].width != pair.b->width ||
          !IsFurtherPrimitive(b.rig.nodes[static_cast<size_t>(cb.channels[c].node)].name, names)) {
        continue;
      }
      (*b_used)[c] = true;
      pairs->insert(pairs->begin() + static_cast<std::ptrdiff_t>(++p),
                    ChannelPair{pair.a, &cb.channels[c], pair.node_a, cb.channels[c].node});
    }
  }
  // The other way round: further primitives' tracks of a three.js clip (A) that one glTF weights
  // channel (B) drives, all of its primitives at once.
  for (ChannelPair& pair : *pairs) {
    if (pair.b || pair.a->path != Path::kWeights) continue;
    const std::set<std::string> names = names_a(pair.node_a);
    for (const Channel& channel : cb.channels) {
      const auto& primitives = three_b.primitives[static_cast<size_t>(channel.node)];
      if (channel.path != Path::kWeights || channel.width != pair.a->width ||
          primitives.size() < 2 ||
          !Share(names, std::set<std::string>(primitives.begin(), primitives.end()))) {
        continue;
      }
      pair.b = &channel;
      pair.node_b = channel.node;
      break;
    }
  }
  // Then, when exactly one weights channel of each clip is left with the same target count, they
  // drive the same mesh: a clip has one morph animation per mesh, and nothing else is left for it.
  ChannelPair* only_a = nullptr;
  size_t left_a = 0;
  for (ChannelPair& pair : *pairs) {
    if (!pair.b && pair.a->path == Path::kWeights) {
      only_a = &pair;
      ++left_a;
    }
  }
  size_t only_b = 0;
  size_t left_b = 0;
  for (size_t c = 0; c < cb.channels.size(); ++c) {
    if (unused_weights(c)) {
      only_b = c;
      ++left_b;
    }
  }
  if (left_a == 1 && left_b == 1 && only_a->a->width == cb.channels[only_b].width) {
    (*b_used)[only_b] = true;
    only_a->b = &cb.channels[only_b];
    only_a->node_b = cb.channels[only_b].node;
  }
}

namespace {

// The mesh index a partial list's name stands for against a mesh without target names: three.js
// looks a per-target track's bracket up in morphTargetDictionary and, not found, uses it as the
// index ("[2]" drives influences[2]). -1 for a name that is not a decimal index.
int IndexNamed(const std::string& name) {
  // Canonical only: "01" is a property of the array in JavaScript, not element 1.
  if (name.empty() || name.size() > 6 || (name.size() > 1 && name[0] == '0')) return -1;
  int index = 0;
  for (const char c : name) {
    if (c < '0' || c > '9') return -1;
    index = index * 10 + (c - '0');
  }
  return index;
}

// `partial` (Node::morph_targets_partial, its columns named) against `whole`, the mesh's list by
// index without names: each decimal name goes to its index, any other name (or an index past
// `whole`'s targets) to a place of its own, weighed against 0: nothing says which target it is.
// Comparing them column by column had put target "1" of a clip that named [1] then [0] on index 0,
// and found no difference from an output that swapped them (three.js plays such an output on the
// wrong targets).
void AlignPartialWithIndexed(const Node& partial_node, Channel* partial, Channel* whole) {
  const std::vector<std::string>& names = partial_node.morph_target_names;
  std::vector<int> from_partial(static_cast<size_t>(whole->width), -1);
  std::vector<int> from_whole(static_cast<size_t>(whole->width));
  for (int i = 0; i < whole->width; ++i) from_whole[static_cast<size_t>(i)] = i;
  for (size_t column = 0; column < names.size(); ++column) {
    const int slot = IndexNamed(names[column]);
    if (slot >= 0 && slot < whole->width) {
      from_partial[static_cast<size_t>(slot)] = static_cast<int>(column);
      continue;
    }
    // A name, or an index past the other side's targets: nothing there to pair it with.
    from_partial.push_back(static_cast<int>(column));
    from_whole.push_back(-1);
  }
  Rearrange(from_partial, partial);
  Rearrange(from_whole, whole);
}

}  // namespace

void AlignMorphTargets(const Node* node_a, const Node* node_b, Channel* a, Channel* b) {
  const bool a_partial =
      node_a->morph_targets_partial && AllNamed(*node_a) && a->width == node_a->morph_target_count;
  const bool b_partial =
      node_b->morph_targets_partial && AllNamed(*node_b) && b->width == node_b->morph_target_count;
  if (a_partial && !b_partial && !AllNamed(*node_b)) {
    AlignPartialWithIndexed(*node_a, a, b);
    return;
  }
  if (b_partial && !a_partial && !AllNamed(*node_a)) {
    AlignPartialWithIndexed(*node_b, b, a);
    return;
  }
  if (!AllNamed(*node_a) || !AllNamed(*node_b) || a->width != node_a->morph_target_count ||
      b->width != node_b->morph_target_count) {
    return;  // by index: ValueError weighs a target only one side has as 0 on the other
  }
  const std::vector<std::string>& names_a = node_a->morph_target_names;
  const std::vector<std::string>& names_b = node_b->morph_target_names;
  if (names_a == names_b) return;
  // A's targets in A's order, then B's targets A lacks.
  std::vector<std::string> all = names_a;
  for (const std::string& name : names_b) {
    if (std::find(all.begin(), all.end(), name) == all.end()) all.push_back(name);
  }
  std::vector<int> from_a;
  std::vector<int> from_b;
  for (const std::string& name : all) {
    const auto in_a = std::find(names_a.begin(), names_a.end(), name);
    const auto in_b = std::find(names_b.begin(), names_b.end(), name);
    from_a.push_back(in_a == names_a.end() ? -1 : static_cast<int>(in_a - names_a.begin()));
    from_b.push_back(in_b == names_b.end() ? -1 : static_cast<int>(in_b - names_b.begin()));
  }
  Rearrange(from_a, a);
  Rearrange(from_b, b);
}

}  // namespace animconv::diff_detail
