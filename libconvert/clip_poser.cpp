#include "animconv/clip_poser.h"

#include "animconv/sample.h"
#include "animconv/transform.h"

namespace animconv {

ClipPoser::ClipPoser(const Rig& rig, const Clip& clip) : rig_(rig), channels_(rig.nodes.size()) {
  for (const Channel& channel : clip.channels) {
    if (channel.path == Path::kWeights) continue;
    channels_[static_cast<size_t>(channel.node)][static_cast<int>(channel.path)] = &channel;
  }
}

void ClipPoser::Pose(double seconds) {
  seconds_ = seconds;
  done_.assign(rig_.nodes.size(), false);
  world_.resize(rig_.nodes.size());
}

const glm::dmat4& ClipPoser::World(int node) {
  const size_t n = static_cast<size_t>(node);
  if (done_[n]) return world_[n];
  const Node& rest = rig_.nodes[n];
  Vec3 translation = rest.rest_translation;
  Quat rotation = rest.rest_rotation;
  Vec3 scale = rest.rest_scale;
  const auto& [t, r, s] = channels_[n];
  if (t) EvaluateChannel(*t, seconds_, translation.data());
  if (r) EvaluateChannel(*r, seconds_, rotation.data());
  if (s) EvaluateChannel(*s, seconds_, scale.data());
  const glm::dmat4 local = TrsMatrix(translation, rotation, scale);
  world_[n] = rest.parent < 0 ? local : World(rest.parent) * local;
  done_[n] = true;
  return world_[n];
}

}  // namespace animconv
