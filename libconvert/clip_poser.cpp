#include "animconv/clip_poser.h"

#include <cmath>
#include <glm/gtc/quaternion.hpp>

#include "animconv/sample.h"
#include "animconv/transform.h"
#include "libconvert/body_frame.h"

namespace animconv {

ClipPoser::ClipPoser(const Rig& rig, const Clip& clip)
    : rig_(rig), channels_(rig.nodes.size()), cursors_(rig.nodes.size()) {
  const UpAxis up = RestUpAxis(rig);
  up_axis_ = up.axis;
  up_negative_ = up.negative;
  for (const Channel& channel : clip.channels) {
    if (channel.path == Path::kWeights) continue;
    channels_[static_cast<size_t>(channel.node)][static_cast<int>(channel.path)] = &channel;
  }
}

void ClipPoser::Pose(double seconds) {
  seconds_ = seconds;
  done_.assign(rig_.nodes.size(), false);
  world_.resize(rig_.nodes.size());
  exact_done_.clear();  // World is rarely asked for: its cache is made when it is
}

void ClipPoser::Local(size_t node, Vec3* translation, Quat* rotation, Vec3* scale) {
  const Node& rest = rig_.nodes[node];
  *translation = rest.rest_translation;
  *rotation = rest.rest_rotation;
  *scale = rest.rest_scale;
  const auto& [t, r, s] = channels_[node];
  auto& [t_cursor, r_cursor, s_cursor] = cursors_[node];
  if (t) t_cursor.Evaluate(*t, seconds_, translation->data());
  if (r) r_cursor.Evaluate(*r, seconds_, rotation->data());
  if (s) s_cursor.Evaluate(*s, seconds_, scale->data());
}

// Iterative (issue 14): the chain up to the nearest ancestor already posed, then down it, so a
// rig as deep as --max-depth allows cannot exhaust the stack (a 200,000-joint chain with a foot
// at its end crashed the retarget's foot-height note).
template <typename Compose>
void ClipPoser::PoseDown(int node, std::vector<bool>& done, Compose compose) {
  path_.clear();
  for (int n = node; n >= 0 && !done[static_cast<size_t>(n)];
       n = rig_.nodes[static_cast<size_t>(n)].parent) {
    path_.push_back(n);
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    const size_t n = static_cast<size_t>(*it);
    Vec3 translation;
    Quat rotation;
    Vec3 scale;
    Local(n, &translation, &rotation, &scale);
    compose(n, rig_.nodes[n].parent, translation, rotation, scale);
    done[n] = true;
  }
}

const glm::dmat4& ClipPoser::World(int node) {
  if (exact_done_.empty()) {
    exact_done_.assign(rig_.nodes.size(), false);
    exact_.resize(rig_.nodes.size());
  }
  PoseDown(node, exact_done_,
           [&](size_t n, int parent, const Vec3& t, const Quat& r, const Vec3& s) {
             const glm::dmat4 local = TrsMatrix(t, r, s);
             exact_[n] = parent < 0 ? local : exact_[static_cast<size_t>(parent)] * local;
           });
  return exact_[static_cast<size_t>(node)];
}

// Why the affine entries alone give World's bits. TrsMatrix is glm's translate * mat4_cast * scale
// and World multiplies glm 4x4s, whose every entry is a left-to-right sum of four products. Here
// each entry is the same sum without its terms whose factor is a 0 or 1 of a last row (or of the
// identity and scale matrices): a product by 1 is exact, and a product by 0 is a zero that leaves
// any nonzero sum as it was. So the two differ at most in the sign of a zero (-0 + 0 is +0), and a
// zero's sign can only change a result that is itself zero. Two cases fall back to World: a
// height of zero, and any entry that is not finite (where glm's inf * 0 makes a NaN that the
// affine entries do not).
double ClipPoser::Height(int node) {
  PoseDown(node, done_, [&](size_t n, int parent, const Vec3& t, const Quat& q, const Vec3& s) {
    // glm's mat3_cast, the upper 3x3 of its mat4_cast (glm::dquat is w, x, y, z).
    const glm::dmat3 r = glm::mat3_cast(glm::dquat(q[3], q[0], q[1], q[2]));
    Affine local;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) local.column[i][j] = r[i][j] * s[static_cast<size_t>(i)];
      local.column[3][i] = t[static_cast<size_t>(i)];
    }
    Affine& world = world_[n];
    if (parent < 0) {
      world = local;
      return;
    }
    const Affine& p = world_[static_cast<size_t>(parent)];
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 3; ++j) {
        double sum = p.column[0][j] * local.column[i][0] + p.column[1][j] * local.column[i][1];
        sum = sum + p.column[2][j] * local.column[i][2];
        world.column[i][j] = i == 3 ? sum + p.column[3][j] : sum;
      }
    }
  });
  const Affine& world = world_[static_cast<size_t>(node)];
  bool finite = true;
  for (const auto& column : world.column) {
    for (const double entry : column) finite = finite && std::isfinite(entry);
  }
  const int up = static_cast<int>(up_axis_);
  const double along =
      finite && world.column[3][up] != 0 ? world.column[3][up] : World(node)[3][up];
  return up_negative_ ? -along : along;
}

double ClipPoser::Height(int node, const Vec3& local) {
  const double joint = Height(node);  // poses the chain
  const Affine& world = world_[static_cast<size_t>(node)];
  const size_t up = up_axis_;
  const double along = world.column[0][up] * local[0] + world.column[1][up] * local[1] +
                       world.column[2][up] * local[2];
  return joint + (up_negative_ ? -along : along);
}

}  // namespace animconv
