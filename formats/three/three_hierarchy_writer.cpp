#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "animconv/error.h"
#include "animconv/summary.h"
#include "formats/common/unique_names.h"
#include "formats/common/writer_support.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"
#include "libconvert/text.h"

namespace animconv {
namespace {

struct NodeChannels {
  const Channel* rotation = nullptr;
  const Channel* translation = nullptr;
  const Channel* scale = nullptr;
};

void AppendArray(std::string& out, const double* values, size_t count) {
  out += '[';
  AppendFloatList(out, values, count);
  out += ']';
}

// One key per distinct time of the node's channels. parseAnimation builds each property's track
// only from the keys that carry it, so a property is written exactly at its own key times and
// tracks of one bone may differ in length (three.js <= r184 AnimationClip.parseAnimation).
void AppendKeys(std::string& out, const NodeChannels& node, double time_scale) {
  const Channel* channels[3] = {node.rotation, node.translation, node.scale};
  const char* fields[3] = {"rot", "pos", "scl"};
  size_t next[3] = {0, 0, 0};
  out += "\"keys\":[";
  bool first_key = true;
  for (;;) {
    double seconds = 0;
    bool any = false;
    for (int i = 0; i < 3; ++i) {
      if (channels[i] && next[i] < channels[i]->key_count()) {
        const double t = channels[i]->times_seconds[next[i]];
        seconds = any ? std::min(seconds, t) : t;
        any = true;
      }
    }
    if (!any) break;
    out += first_key ? "\n{" : ",\n{";
    first_key = false;
    out += "\"time\":";
    AppendFloat(out, seconds * time_scale);
    for (int i = 0; i < 3; ++i) {
      const Channel* channel = channels[i];
      if (!channel || next[i] >= channel->key_count() ||
          channel->times_seconds[next[i]] != seconds) {
        continue;
      }
      out += fmt::format(",\"{}\":", fields[i]);
      AppendArray(out, channel->key_value(next[i]), static_cast<size_t>(channel->width));
      ++next[i];
    }
    out += '}';
  }
  out += ']';
}

}  // namespace

std::string WriteThreeHierarchy(const Asset& asset, const WriteOptions& options) {
  const Clip& clip = SingleClip(asset, "three-hierarchy");
  // parseAnimation builds linear tracks only.
  RequireInterpolation(asset, clip, "three-hierarchy", false);
  const double time_scale = options.hierarchy_time_unit == TimeUnit::kMilliseconds ? 1000.0 : 1.0;

  std::vector<NodeChannels> per_node(asset.rig.nodes.size());
  size_t dropped = 0;
  for (const Channel& channel : clip.channels) {
    // parseAnimation's tracks keep times in Float32Arrays: two keys of one equal there were
    // written with exit 0 (review of session 35), as the three and glTF writers refuse them.
    if (channel.path != Path::kWeights) {
      RequireFloat32Increasing(asset, clip, channel, "three-hierarchy", time_scale);
    }
    NodeChannels& node = per_node[static_cast<size_t>(channel.node)];
    switch (channel.path) {
      case Path::kRotation:
        node.rotation = &channel;
        break;
      case Path::kTranslation:
        node.translation = &channel;
        break;
      case Path::kScale:
        node.scale = &channel;
        break;
      case Path::kWeights:
        ++dropped;
        break;
    }
  }
  // parseAnimation names an animated bone's tracks '.bones[NAME].position' and the like, which
  // PropertyBinding.parseTrackName cannot parse when NAME is empty or holds a line break (its
  // pattern's '.+'): the mixer then throws on the whole clip (three.js r125). An empty name is
  // what a three.js clip's tracks on the mixer's root ('.position') read as.
  for (size_t n = 0; n < per_node.size(); ++n) {
    const NodeChannels& node = per_node[n];
    if (!node.rotation && !node.translation && !node.scale) continue;
    const std::string& name = asset.rig.nodes[n].name;
    const bool line_break = HasLineTerminator(name);
    if (name.empty() || line_break) {
      ThrowUsage(fmt::format(
          "three-hierarchy: animated node {} {} a name parseAnimation cannot bind ('.bones[{}]' "
          "is not a track name three.js parses, and its mixer throws on the clip){}",
          n, name.empty() ? "has" : fmt::format("'{}' has", name), name,
          name.empty() ? "; an empty name animates the mixer's root, which a hierarchy cannot "
                         "address: write a three.js clip (three) instead"
                       : "; rename it with --bone-map"));
    }
  }
  if (dropped > 0) {
    AddDiagnostic(options.diagnostics, Severity::kWarning,
                  fmt::format("three-hierarchy: {} morph weight channel(s) not written "
                              "(parseAnimation's morph branch throws in every three.js version "
                              "that has it)",
                              dropped));
  }

  // parseAnimation names each entry's tracks after its bone, and PropertyBinding binds the first
  // bone of a name: a second bone of the same name never moved, its motion landed on the first
  // (review of session 35, 68° off). An animated bone whose name a bone before it has takes a
  // suffix, with a warning; an unanimated one makes no track and keeps its name.
  const auto animated = [&per_node](size_t n) {
    return per_node[n].rotation || per_node[n].translation || per_node[n].scale;
  };
  UniqueNames unique;
  std::vector<std::string> bone_names;
  std::vector<std::string> renamed;
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    const std::string& name = asset.rig.nodes[n].name;
    if (!animated(n)) unique.Reserve(name);
    bone_names.push_back(animated(n) ? unique.Make(name) : name);
    if (bone_names.back() != name) {
      renamed.push_back(fmt::format("'{}' -> '{}'", name, bone_names.back()));
    }
  }
  if (!renamed.empty()) {
    AddDiagnostic(options.diagnostics, Severity::kWarning,
                  fmt::format("three-hierarchy: {} bone(s) renamed, as three.js binds a track to "
                              "the first bone of its name: {}",
                              renamed.size(), ListFirst(renamed, 10)));
  }

  std::string out = "{\"name\":";
  AppendJsonString(out, clip.name);
  // fps is informational: parseAnimation does not scale key times by it (three.js <= r184
  // AnimationClip.parseAnimation).
  if (const std::optional<double> rate = ClipKeyRate(clip)) {
    out += ",\"fps\":";
    AppendDouble(out, *rate);
  }
  out += ",\"length\":";
  AppendDouble(out, clip.duration() * time_scale);
  // Entry h pairs with bones[h] by index: one entry per rig node in rig order, `keys: []` for
  // nodes without animation.
  out += ",\"hierarchy\":[";
  for (size_t n = 0; n < per_node.size(); ++n) {
    out += n == 0 ? "\n{" : ",\n{";
    out += fmt::format("\"parent\":{},", asset.rig.nodes[n].parent);
    AppendKeys(out, per_node[n], time_scale);
    out += '}';
  }
  // The legacy bone records ({parent,name[,pos,rotq,scl]}); pass this array as parseAnimation's
  // `bones` argument or use it to build a Skeleton.
  out += "],\n\"bones\":[";
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    const Node& node = asset.rig.nodes[n];
    out += n == 0 ? "\n{" : ",\n{";
    out += fmt::format("\"parent\":{},\"name\":", node.parent);
    AppendJsonString(out, bone_names[n]);
    // Without a known rest pose, identity values would claim one the source never had.
    if (asset.rig.rest_pose_known) {
      out += ",\"pos\":";
      AppendArray(out, node.rest_translation.data(), 3);
      out += ",\"rotq\":";
      AppendArray(out, node.rest_rotation.data(), 4);
      out += ",\"scl\":";
      AppendArray(out, node.rest_scale.data(), 3);
    }
    out += '}';
  }
  out += "]}\n";
  return out;
}

}  // namespace animconv
