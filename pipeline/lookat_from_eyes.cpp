#include "pipeline/lookat_from_eyes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "animconv/error.h"
#include "animconv/euler.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"

namespace animconv {
namespace {

// three.js Euler order 'YXZ' (VRMLookAt.EULER_ORDER): R = Ry(yaw) · Rx(pitch) · Rz(roll).
const EulerOrder kYawPitchRoll{{1, 0, 2}};
constexpr double kDegrees = 180.0 / 3.14159265358979323846;
// Eyes that disagree by more than this look at no single point a lookAt can give: a warning.
constexpr double kEyesApartWarningDegrees = 5;
constexpr int kMaxBisections = 12;

bool IsEye(const Node& node) {
  return node.human_bone &&
         (*node.human_bone == HumanBone::kLeftEye || *node.human_bone == HumanBone::kRightEye);
}

// The eyes' rotation channels of one clip and what turning them into a gaze dropped.
struct EyeGaze {
  std::vector<const Channel*> eyes;  // one or two
  double largest_apart_degrees = 0;
  double largest_roll_degrees = 0;

  // The gaze at `seconds`: the mean of the eyes' yaw and pitch, without roll.
  Quat At(double seconds) {
    std::array<double, 3> sum{0, 0, 0};
    std::vector<std::array<double, 3>> angles;
    for (const Channel* eye : eyes) {
      double value[4];
      EvaluateChannel(*eye, seconds, value);
      angles.push_back(EulerFromQuat(kYawPitchRoll, Normalized(LoadQuat(value)), std::nullopt));
      for (int i = 0; i < 3; ++i) sum[static_cast<size_t>(i)] += angles.back()[i];
      largest_roll_degrees = std::max(largest_roll_degrees, std::abs(angles.back()[2]) * kDegrees);
    }
    if (angles.size() == 2) {
      const double apart =
          std::max(std::abs(angles[0][0] - angles[1][0]), std::abs(angles[0][1] - angles[1][1]));
      largest_apart_degrees = std::max(largest_apart_degrees, apart * kDegrees);
    }
    const double count = static_cast<double>(angles.size());
    return QuatFromEuler(kYawPitchRoll, {sum[0] / count, sum[1] / count, 0});
  }
};

// Adds to `times` the points in (t0, t1) where the gaze slerped from t0 to t1 would leave the
// eyes' by more than the tolerance at the segment's middle, halving until it does not.
void Bisect(EyeGaze& gaze, double t0, const Quat& q0, double t1, const Quat& q1, int depth,
            std::vector<double>& times, std::vector<Quat>& values) {
  const double middle = 0.5 * (t0 + t1);
  if (depth >= kMaxBisections || !(middle > t0 && middle < t1)) return;
  const Quat exact = gaze.At(middle);
  if (AngleBetween(SlerpShortest(q0, q1, 0.5), exact) <= kGazeToleranceRadians) return;
  Bisect(gaze, t0, q0, middle, exact, depth + 1, times, values);
  times.push_back(middle);
  values.push_back(exact);
  Bisect(gaze, middle, exact, t1, q1, depth + 1, times, values);
}

// The lookAt channel of one clip's eyes, on `node`.
Channel GazeChannel(EyeGaze& gaze, int node, size_t* added_keys) {
  std::vector<double> key_times;
  bool all_step = true;
  for (const Channel* eye : gaze.eyes) {
    key_times.insert(key_times.end(), eye->times_seconds.begin(), eye->times_seconds.end());
    all_step = all_step && eye->interpolation == Interpolation::kStep;
  }
  std::sort(key_times.begin(), key_times.end());
  key_times.erase(std::unique(key_times.begin(), key_times.end()), key_times.end());
  Channel channel;
  channel.node = node;
  channel.path = Path::kRotation;
  channel.width = 4;
  channel.interpolation = all_step ? Interpolation::kStep : Interpolation::kLinear;
  std::vector<Quat> values;
  for (size_t k = 0; k < key_times.size(); ++k) {
    const Quat value = gaze.At(key_times[k]);
    if (k > 0 && !all_step) {
      Bisect(gaze, key_times[k - 1], values.back(), key_times[k], value, 0, channel.times_seconds,
             values);
    }
    channel.times_seconds.push_back(key_times[k]);
    values.push_back(value);
  }
  *added_keys += channel.times_seconds.size() - key_times.size();
  channel.values.resize(values.size() * 4);
  for (size_t k = 0; k < values.size(); ++k) StoreQuat(values[k], channel.values.data() + 4 * k);
  AlignHemispheres(channel);
  return channel;
}

// Removes the eye nodes (leaves of the humanoid rig) and their channels, renumbering the rest.
void RemoveEyes(Asset& asset) {
  std::vector<int> index_of(asset.rig.nodes.size(), -1);
  std::vector<Node> kept;
  for (size_t n = 0; n < asset.rig.nodes.size(); ++n) {
    if (IsEye(asset.rig.nodes[n])) continue;
    index_of[n] = static_cast<int>(kept.size());
    kept.push_back(std::move(asset.rig.nodes[n]));
  }
  for (Node& node : kept) {
    if (node.parent < 0) continue;
    node.parent = index_of[static_cast<size_t>(node.parent)];
    if (node.parent < 0) ThrowInternal("lookAt: an eye bone has a child");
  }
  asset.rig.nodes = std::move(kept);
  for (Clip& clip : asset.clips) {
    std::vector<Channel> channels;
    for (Channel& channel : clip.channels) {
      const int node = index_of[static_cast<size_t>(channel.node)];
      if (node < 0) continue;
      channel.node = node;
      channels.push_back(std::move(channel));
    }
    clip.channels = std::move(channels);
  }
}

}  // namespace

bool AnimatesEyes(const Asset& input) {
  for (const Clip& clip : input.clips) {
    for (const Channel& channel : clip.channels) {
      if (channel.path == Path::kRotation &&
          IsEye(input.rig.nodes[static_cast<size_t>(channel.node)]) &&
          !ChannelIsConstant(channel, 1e-9)) {
        return true;
      }
    }
  }
  return false;
}

void MoveEyesToLookAt(Asset& normalized, Diagnostics* diagnostics) {
  std::vector<EyeGaze> gazes(normalized.clips.size());
  for (size_t c = 0; c < normalized.clips.size(); ++c) {
    for (const Channel& channel : normalized.clips[c].channels) {
      if (channel.path == Path::kRotation &&
          IsEye(normalized.rig.nodes[static_cast<size_t>(channel.node)])) {
        gazes[c].eyes.push_back(&channel);
      }
    }
  }
  std::vector<std::optional<Channel>> channels(normalized.clips.size());
  size_t keys = 0, added_keys = 0;
  double apart = 0, roll = 0;
  size_t eye_count = 0;
  for (size_t c = 0; c < gazes.size(); ++c) {
    if (gazes[c].eyes.empty()) continue;
    channels[c] = GazeChannel(gazes[c], -1, &added_keys);
    keys += channels[c]->key_count();
    apart = std::max(apart, gazes[c].largest_apart_degrees);
    roll = std::max(roll, gazes[c].largest_roll_degrees);
    eye_count = std::max(eye_count, gazes[c].eyes.size());
  }
  RemoveEyes(normalized);
  if (keys == 0) return;
  Node look_at;
  look_at.name = "lookAt";
  look_at.vrma_role = VrmaRole{VrmaRole::Kind::kLookAt, "lookAt", ""};
  const int node = static_cast<int>(normalized.rig.nodes.size());
  normalized.rig.nodes.push_back(std::move(look_at));
  for (size_t c = 0; c < channels.size(); ++c) {
    if (!channels[c]) continue;
    channels[c]->node = node;
    normalized.clips[c].channels.push_back(std::move(*channels[c]));
  }
  std::string note = fmt::format(
      "lookAt from eye rotations: {} key(s); its yaw and pitch are {}, 1:1 (a model turns its "
      "eyes by them through its own lookAt range maps)",
      keys, eye_count == 2 ? "the mean of both eyes'" : "the eye's");
  if (added_keys > 0) {
    note += fmt::format("; {} key(s) added between keys to keep within {:g} rad", added_keys,
                        kGazeToleranceRadians);
  }
  if (eye_count == 2) note += fmt::format("; the eyes differ by up to {:.3g} deg", apart);
  if (roll > 0.01) note += fmt::format("; their roll (up to {:.3g} deg) is dropped", roll);
  const bool apart_warning = apart > kEyesApartWarningDegrees;
  if (apart_warning) {
    note += fmt::format(
        ": a lookAt gives both eyes one gaze, so eyes more than {:g} deg apart play as their "
        "mean (check the eye bones' mapping with `animconv bones`)",
        kEyesApartWarningDegrees);
  }
  AddDiagnostic(diagnostics, apart_warning ? Severity::kWarning : Severity::kInfo, note);
}

}  // namespace animconv
