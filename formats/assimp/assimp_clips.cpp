#include "formats/assimp/assimp_clips.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"

namespace animconv {
namespace {

Vec3 ToVec3(const aiVector3D& v) { return {v.x, v.y, v.z}; }
Quat ToQuat(const aiQuaternion& q) { return {q.x, q.y, q.z, q.w}; }  // Assimp stores w first

Vec3 Lerp(const Vec3& a, const Vec3& b, double alpha) {
  return {a[0] + (b[0] - a[0]) * alpha, a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha};
}

// Between keys by `mix` (lerp, slerp), held before the first and after the last, as Assimp's
// own evaluator does. `count` > 0.
template <typename Key, typename Convert, typename Mix>
auto SampleKeys(const Key* keys, unsigned count, double ticks, Convert convert, Mix mix) {
  const size_t after = static_cast<size_t>(
      std::upper_bound(keys, keys + count, ticks,
                       [](double value, const Key& key) { return value < key.mTime; }) -
      keys);
  if (after == 0) return convert(keys[0].mValue);
  if (after == count) return convert(keys[count - 1].mValue);
  const Key& a = keys[after - 1];
  const Key& b = keys[after];
  return mix(convert(a.mValue), convert(b.mValue), (ticks - a.mTime) / (b.mTime - a.mTime));
}

bool NearlyEqual(const double* a, const double* b, int width) {
  for (int i = 0; i < width; ++i) {
    // Assimp keeps floats: equal within float precision is equal.
    if (std::abs(a[i] - b[i]) > 1e-6 * std::max(1.0, std::abs(b[i]))) return false;
  }
  return true;
}

// True when every key holds the node's rest value (a rotation or its negation).
bool ConstantAtRest(const Channel& channel, const Node& node) {
  const std::vector<double> rest = RestValue(node, channel.path);
  for (size_t k = 0; k < channel.key_count(); ++k) {
    const double* value = channel.key_value(k);
    if (channel.path == Path::kRotation) {
      const double dot = std::abs(Dot(Normalized(LoadQuat(value)), LoadQuat(rest.data())));
      if (1 - dot > 1e-12) return false;
    } else if (!NearlyEqual(value, rest.data(), channel.width)) {
      return false;
    }
  }
  return true;
}

class AnimationConverter {
 public:
  AnimationConverter(const AssimpRig& rig, const AssimpClipOptions& options,
                     std::vector<std::string>* notes, Diagnostics* diagnostics)
      : rig_(rig), options_(options), notes_(*notes), diagnostics_(diagnostics) {}

  Clip Convert(const aiAnimation& animation) {
    clip_ = Clip{};
    clip_.name = animation.mName.C_Str();
    ticks_per_second_ = animation.mTicksPerSecond;
    if (!(ticks_per_second_ > 0) || !std::isfinite(ticks_per_second_)) {
      ticks_per_second_ = options_.default_ticks_per_second;
      notes_.push_back(fmt::format(
          "animation '{}' does not say how many ticks make a second: {} assumed (Assimp's "
          "convention)",
          clip_.name, ticks_per_second_));
    }
    take_end_.reset();
    cut_before_ = cut_after_ = 0;
    unkeyed_starts_.clear();
    const double duration = Seconds(animation.mDuration);
    if (options_.cut_to_take && std::isfinite(duration) && duration > 0) take_end_ = duration;
    GroupChannels(animation);
    for (size_t n = 0; n < rig_.chains.size(); ++n) AddNodeChannels(static_cast<int>(n));
    for (unsigned c = 0; c < animation.mNumMorphMeshChannels; ++c) {
      AddMorphChannel(*animation.mMorphMeshChannels[c]);
    }
    if (animation.mNumMeshChannels > 0) {
      notes_.push_back(fmt::format(
          "animation '{}': {} vertex-animation channel(s) not read (only skeletal and morph "
          "weight animation is)",
          clip_.name, animation.mNumMeshChannels));
    }
    if (take_end_) {
      clip_.duration_seconds = *take_end_;
      SayCut();
    } else {
      if (std::isfinite(duration) && duration > clip_.duration() + 1e-9) {
        clip_.duration_seconds = duration;
      }
      StartAtZero();
    }
    return std::move(clip_);
  }

 private:
  void GroupChannels(const aiAnimation& animation) {
    by_node_.clear();
    for (unsigned c = 0; c < animation.mNumChannels; ++c) {
      const aiNodeAnim* channel = animation.mChannels[c];
      const auto found = rig_.node_by_name.find(channel->mNodeName.C_Str());
      if (found == rig_.node_by_name.end()) {
        notes_.push_back(fmt::format("animation '{}': channel for unknown node '{}' skipped",
                                     clip_.name, channel->mNodeName.C_Str()));
        continue;
      }
      by_node_[channel->mNodeName.C_Str()] = channel;
    }
  }

  double Seconds(double ticks) const {
    const double seconds = ticks / ticks_per_second_;
    if (!std::isfinite(seconds)) {
      throw Error(ErrorKind::kBadInput, options_.source, "",
                  fmt::format("animation '{}' has a key at a non-finite time", clip_.name));
    }
    return seconds;
  }

  // Adds `channel` unless it only repeats the rest value; drops keys whose time does not
  // increase (Assimp's float times can collide), saying so.
  void Emit(Channel channel) {
    const Node& node = rig_.rig.nodes[static_cast<size_t>(channel.node)];
    size_t kept = 0;
    for (size_t k = 0; k < channel.key_count(); ++k) {
      if (kept > 0 && !(channel.times_seconds[k] > channel.times_seconds[kept - 1])) continue;
      channel.times_seconds[kept] = channel.times_seconds[k];
      std::copy_n(channel.values.begin() + static_cast<std::ptrdiff_t>(k * channel.width),
                  channel.width,
                  channel.values.begin() + static_cast<std::ptrdiff_t>(kept * channel.width));
      ++kept;
    }
    if (kept < channel.key_count()) {
      notes_.push_back(
          fmt::format("animation '{}': {} {} key(s) of '{}' at a repeated time dropped", clip_.name,
                      channel.key_count() - kept, PathName(channel.path), node.name));
      channel.times_seconds.resize(kept);
      channel.values.resize(kept * static_cast<size_t>(channel.width));
    }
    if (channel.key_count() == 0) return;
    if (take_end_) CutToTake(channel, node);
    if (ConstantAtRest(channel, node)) return;
    clip_.channels.push_back(std::move(channel));
  }

  void AddNodeChannels(int node) {
    const std::vector<const aiNode*>& chain = rig_.chains[static_cast<size_t>(node)];
    std::vector<const aiNodeAnim*> animated(chain.size(), nullptr);
    bool any = false;
    for (size_t i = 0; i < chain.size(); ++i) {
      const auto found = by_node_.find(chain[i]->mName.C_Str());
      if (found != by_node_.end()) animated[i] = found->second, any = true;
    }
    if (!any) return;
    if (chain.size() == 1) {
      CopyKeys(node, *animated[0]);
    } else {
      ComposeChain(node, chain, animated);
    }
  }

  // One Assimp key array as a channel; `value` turns a key into the model's numbers.
  template <typename Key, typename ToValues>
  Channel KeysToChannel(int node, Path path, int width, const Key* keys, unsigned count,
                        ToValues value) const {
    Channel channel{node, path, Interpolation::kLinear, {}, {}, width};
    for (unsigned k = 0; k < count; ++k) {
      channel.times_seconds.push_back(Seconds(keys[k].mTime));
      const auto numbers = value(keys[k].mValue);
      channel.values.insert(channel.values.end(), numbers.begin(), numbers.end());
    }
    return channel;
  }

  // The common case: the channel's keys as they are, each path on its own times.
  void CopyKeys(int node, const aiNodeAnim& anim) {
    Emit(KeysToChannel(node, Path::kTranslation, 3, anim.mPositionKeys, anim.mNumPositionKeys,
                       ToVec3));
    Emit(
        KeysToChannel(node, Path::kRotation, 4, anim.mRotationKeys, anim.mNumRotationKeys, ToQuat));
    Emit(KeysToChannel(node, Path::kScale, 3, anim.mScalingKeys, anim.mNumScalingKeys, ToVec3));
  }

  // A folded helper chain: the bone's local transform is the product of the chain's transforms,
  // each animated or at rest, so it is evaluated at every key time of any of them.
  void ComposeChain(int node, const std::vector<const aiNode*>& chain,
                    const std::vector<const aiNodeAnim*>& animated) {
    std::vector<double> ticks;
    for (const aiNodeAnim* anim : animated) {
      if (!anim) continue;
      for (unsigned k = 0; k < anim->mNumPositionKeys; ++k)
        ticks.push_back(anim->mPositionKeys[k].mTime);
      for (unsigned k = 0; k < anim->mNumRotationKeys; ++k)
        ticks.push_back(anim->mRotationKeys[k].mTime);
      for (unsigned k = 0; k < anim->mNumScalingKeys; ++k)
        ticks.push_back(anim->mScalingKeys[k].mTime);
    }
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());

    Channel translation{node, Path::kTranslation, Interpolation::kLinear, {}, {}, 3};
    Channel rotation{node, Path::kRotation, Interpolation::kLinear, {}, {}, 4};
    Channel scale{node, Path::kScale, Interpolation::kLinear, {}, {}, 3};
    Quat previous{0, 0, 0, 1};
    for (const double tick : ticks) {
      glm::dmat4 local(1.0);
      for (size_t i = 0; i < chain.size(); ++i)
        local = local * LinkMatrix(*chain[i], animated[i], tick);
      Vec3 t, s;
      Quat r;
      DecomposeMatrix(local, &t, &r, &s);
      if (Dot(r, previous) < 0) r = Negated(r);  // keep neighbours in one hemisphere
      previous = r;
      const double seconds = Seconds(tick);
      for (Channel* channel : {&translation, &rotation, &scale}) {
        channel->times_seconds.push_back(seconds);
      }
      translation.values.insert(translation.values.end(), t.begin(), t.end());
      rotation.values.insert(rotation.values.end(), r.begin(), r.end());
      scale.values.insert(scale.values.end(), s.begin(), s.end());
    }
    Emit(std::move(translation));
    Emit(std::move(rotation));
    Emit(std::move(scale));
  }

  static glm::dmat4 LinkMatrix(const aiNode& link, const aiNodeAnim* anim, double tick) {
    const glm::dmat4 rest = ToGlm(link.mTransformation);
    if (!anim) return rest;
    Vec3 t, s;
    Quat r;
    DecomposeMatrix(rest, &t, &r, &s);
    if (anim->mNumPositionKeys > 0)
      t = SampleKeys(anim->mPositionKeys, anim->mNumPositionKeys, tick, ToVec3, Lerp);
    if (anim->mNumRotationKeys > 0)
      r = SampleKeys(anim->mRotationKeys, anim->mNumRotationKeys, tick, ToQuat, SlerpShortest);
    if (anim->mNumScalingKeys > 0)
      s = SampleKeys(anim->mScalingKeys, anim->mNumScalingKeys, tick, ToVec3, Lerp);
    return TrsMatrix(t, r, s);
  }

  void AddMorphChannel(const aiMeshMorphAnim& anim) {
    const int node = MorphTarget(anim.mName.C_Str());
    if (node < 0) {
      notes_.push_back(fmt::format("animation '{}': morph channel for unknown mesh '{}' skipped",
                                   clip_.name, anim.mName.C_Str()));
      return;
    }
    const int width = rig_.rig.nodes[static_cast<size_t>(node)].morph_target_count;
    Channel weights{node, Path::kWeights, Interpolation::kLinear, {}, {}, width};
    for (unsigned k = 0; k < anim.mNumKeys; ++k) {
      const aiMeshMorphKey& key = anim.mKeys[k];
      weights.times_seconds.push_back(Seconds(key.mTime));
      const size_t start = weights.values.size();
      weights.values.resize(start + static_cast<size_t>(width), 0.0);
      for (unsigned i = 0; i < key.mNumValuesAndWeights; ++i) {
        if (key.mValues[i] >= static_cast<unsigned>(width)) {
          throw Error(ErrorKind::kBadInput, options_.source, "",
                      fmt::format("animation '{}': a morph key of '{}' weights target {} of {}",
                                  clip_.name, anim.mName.C_Str(), key.mValues[i], width));
        }
        weights.values[start + key.mValues[i]] = key.mWeights[i];
      }
    }
    Emit(std::move(weights));
  }

  // Assimp names a morph channel after the node (glTF) or the mesh (others).
  int MorphTarget(const std::string& name) const {
    const auto found = rig_.node_by_name.find(name);
    if (found != rig_.node_by_name.end() &&
        rig_.rig.nodes[static_cast<size_t>(found->second)].morph_target_count > 0) {
      return found->second;
    }
    for (size_t n = 0; n < rig_.rig.nodes.size(); ++n) {
      const Node& node = rig_.rig.nodes[n];
      if (node.morph_target_count > 0 && node.mesh && node.mesh->name == name) {
        return static_cast<int>(n);
      }
    }
    return -1;
  }

  // FBX: keys before the take's start (negative times) and after its end are not the take's.
  // Assimp 5.2 keeps the first key of every rotation curve wherever it lies and samples the
  // node's other curves at it (FBXConverter.cpp, GetRotationKeyframeList), then subtracts the
  // take's LocalStart from every time: a key at -0.83 s is one 0.83 s before the take. The
  // channel keeps its keys inside [0, end], with a key at 0 and at the end holding the value
  // its keys interpolate to there (within Assimp's 10000-FBX-tick slack a key is on the edge).
  void CutToTake(Channel& channel, const Node& node) {
    constexpr double kSlack = 1e-6;  // seconds; Assimp's slack is 10000 / 46186158000 s
    const double end = *take_end_;
    const std::vector<double>& times = channel.times_seconds;
    size_t first = 0;
    while (first < times.size() && times[first] < -kSlack) ++first;
    size_t last = times.size();
    while (last > first && times[last - 1] > end + kSlack) --last;
    const bool keyed_start = first < last && times[first] <= kSlack;
    const bool keyed_end = first < last && times[last - 1] >= end - kSlack;
    if (first == 0 && last == times.size() && times.front() >= 0 && times.back() <= end) return;
    const size_t width = static_cast<size_t>(channel.width);
    Channel cut{channel.node, channel.path, channel.interpolation, {}, {}, channel.width};
    const auto add = [&](double seconds, const double* value) {
      if (!cut.times_seconds.empty() && !(seconds > cut.times_seconds.back())) return;
      cut.times_seconds.push_back(seconds);
      cut.values.insert(cut.values.end(), value, value + width);
    };
    std::vector<double> value(width);
    if (!keyed_start && first > 0) {
      EvaluateChannel(channel, 0, value.data());
      add(0, value.data());
      if (first < times.size()) unkeyed_starts_.push_back(node.name);
    }
    for (size_t k = first; k < last; ++k) add(std::clamp(times[k], 0.0, end), channel.key_value(k));
    if (!keyed_end && last < times.size()) {
      EvaluateChannel(channel, end, value.data());
      add(end, value.data());
    }
    cut_before_ += first;
    cut_after_ += times.size() - last;
    channel = std::move(cut);
  }

  void SayCut() {
    if (cut_before_ + cut_after_ > 0) {
      notes_.push_back(fmt::format(
          "animation '{}': {} key(s) before the take's start and {} after its end ({} s) left out "
          "(Assimp 5.2 keeps them; the take is [0, {}] s)",
          clip_.name, cut_before_, cut_after_, *take_end_, *take_end_));
    }
    if (unkeyed_starts_.empty()) return;
    std::sort(unkeyed_starts_.begin(), unkeyed_starts_.end());
    unkeyed_starts_.erase(std::unique(unkeyed_starts_.begin(), unkeyed_starts_.end()),
                          unkeyed_starts_.end());
    std::string names;
    for (const std::string& name : unkeyed_starts_)
      names += (names.empty() ? "'" : ", '") + name + "'";
    AddDiagnostic(
        diagnostics_, Severity::kWarning,
        fmt::format("animation '{}' starts between two keys of {}: Assimp 5.2 drops the key "
                    "before the take's start, so up to the first key inside the take these "
                    "nodes may play differently from the file; key the take's first frame (or "
                    "bake the animation) in the program that wrote it",
                    clip_.name, names));
  }

  // Takes of other formats may start before 0; the model's times start at 0 or later.
  void StartAtZero() {
    double first = 0;
    for (const Channel& channel : clip_.channels) {
      if (!channel.times_seconds.empty()) first = std::min(first, channel.times_seconds.front());
    }
    if (first >= 0) return;
    for (Channel& channel : clip_.channels) {
      for (double& seconds : channel.times_seconds) seconds -= first;
    }
    if (clip_.duration_seconds) *clip_.duration_seconds -= first;
    notes_.push_back(
        fmt::format("animation '{}' starts at {} s: shifted to start at 0", clip_.name, first));
  }

  const AssimpRig& rig_;
  const AssimpClipOptions& options_;
  std::vector<std::string>& notes_;
  Diagnostics* diagnostics_;
  Clip clip_;
  std::optional<double> take_end_;  // cut_to_take: the take's length in seconds
  size_t cut_before_ = 0, cut_after_ = 0;
  std::vector<std::string> unkeyed_starts_;  // nodes whose keys straddle the take's start
  double ticks_per_second_ = 0;
  std::map<std::string, const aiNodeAnim*> by_node_;
};

}  // namespace

std::vector<Clip> ConvertAssimpAnimations(const aiScene& scene, const AssimpRig& rig,
                                          const AssimpClipOptions& options,
                                          std::vector<std::string>* notes,
                                          Diagnostics* diagnostics) {
  AnimationConverter converter(rig, options, notes, diagnostics);
  std::vector<Clip> clips;
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    clips.push_back(converter.Convert(*scene.mAnimations[a]));
  }
  return clips;
}

}  // namespace animconv
