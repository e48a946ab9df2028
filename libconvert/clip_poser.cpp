#include "animconv/clip_poser.h"

#include "animconv/sample.h"
#include "animconv/transform.h"

namespace animconv {

ClipPoser::ClipPoser(const Rig& rig, const Clip& clip)
    : rig_(rig), channels_(rig.nodes.size()), cursors_(rig.nodes.size()) {
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

// Iterative (issue 14): the chain up to the nearest ancestor already posed, then down it, so a
// rig as deep as --max-depth allows cannot exhaust the stack (a 200,000-joint chain with a foot
// at its end crashed the retarget's foot-height note).
const glm::dmat4& ClipPoser::World(int node) {
  if (done_[static_cast<size_t>(node)]) return world_[static_cast<size_t>(node)];
  path_.clear();
  for (int n = node; n >= 0 && !done_[static_cast<size_t>(n)];
       n = rig_.nodes[static_cast<size_t>(n)].parent) {
    path_.push_back(n);
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    const size_t n = static_cast<size_t>(*it);
    const Node& rest = rig_.nodes[n];
    Vec3 translation = rest.rest_translation;
    Quat rotation = rest.rest_rotation;
    Vec3 scale = rest.rest_scale;
    const auto& [t, r, s] = channels_[n];
    auto& [t_cursor, r_cursor, s_cursor] = cursors_[n];
    if (t) t_cursor.Evaluate(*t, seconds_, translation.data());
    if (r) r_cursor.Evaluate(*r, seconds_, rotation.data());
    if (s) s_cursor.Evaluate(*s, seconds_, scale.data());
    const glm::dmat4 local = TrsMatrix(translation, rotation, scale);
    world_[n] = rest.parent < 0 ? local : world_[static_cast<size_t>(rest.parent)] * local;
    done_[n] = true;
  }
  return world_[static_cast<size_t>(node)];
}

}  // namespace animconv
