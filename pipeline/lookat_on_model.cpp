#include "pipeline/lookat_on_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animconv/quaternion.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"

namespace animconv {
namespace {

const Channel* LookAtChannel(const std::vector<Node>& role_nodes,
                             const std::vector<Channel>& channels) {
  for (const Channel& channel : channels) {
    const Node& node = role_nodes[static_cast<size_t>(channel.node)];
    if (node.vrma_role && node.vrma_role->kind == VrmaRole::Kind::kLookAt &&
        channel.path == Path::kRotation) {
      return &channel;
    }
  }
  return nullptr;
}

// The gaze's yaw and pitch (degrees) at `seconds`.
std::array<double, 2> GazeAt(const Channel& look_at, double seconds) {
  double value[4];
  EvaluateChannel(look_at, seconds, value);
  const std::array<double, 3> angles = YawPitchRollDegrees(LoadQuat(value));
  return {angles[0], angles[1]};
}

// VRMLookAtExpressionApplier.applyYawPitch: lookUp, lookDown, lookLeft, lookRight.
constexpr const char* kLookExpressions[4] = {"lookUp", "lookDown", "lookLeft", "lookRight"};
std::array<double, 4> LookWeights(const VrmLookAt& maps, const std::array<double, 2>& gaze) {
  const double yaw = gaze[0];
  const double pitch = gaze[1];
  return {pitch < 0 ? MapRange(maps.vertical_up, -pitch) : 0,
          pitch < 0 ? 0 : MapRange(maps.vertical_down, pitch),
          yaw < 0 ? 0 : MapRange(maps.horizontal_outer, yaw),
          yaw < 0 ? MapRange(maps.horizontal_outer, -yaw) : 0};
}

// Where the weights bend: yaw or pitch at 0 or at a map's input maximum. Positive inside.
std::array<double, 5> Bends(const VrmLookAt& maps, const std::array<double, 2>& gaze) {
  return {gaze[0], gaze[1], std::abs(gaze[0]) - maps.horizontal_outer.input_max_degrees,
          -gaze[1] - maps.vertical_up.input_max_degrees,
          gaze[1] - maps.vertical_down.input_max_degrees};
}

constexpr int kMaxWeightBisections = 16;

// Linear interpolation of the weights leaves the exact ones halfway by more than the bind
// tolerance.
bool WeightsTooFar(const std::array<double, 4>& w0, const std::array<double, 4>& w1,
                   const std::array<double, 4>& middle) {
  for (size_t i = 0; i < 4; ++i) {
    if (std::abs(0.5 * (w0[i] + w1[i]) - middle[i]) > kExpressionBindTolerance) return true;
  }
  return false;
}

// An eye's fixed frame: the rest world rotation of its parent and its own rest rotation, the P
// and R of EyeRotationForGaze, found once per eye rather than per key.
struct EyeFrame {
  Quat parent_world;
  Quat rest;
};

EyeFrame FrameOf(const Rig& rig, const RestPose& rest, int eye) {
  return {rest.ParentWorldRotation(eye), rig.nodes[static_cast<size_t>(eye)].rest_rotation};
}

Quat EyeRotationInFrame(const EyeFrame& frame, bool left, const VrmLookAt& look_at,
                        const Quat& gaze) {
  const std::array<double, 3> angles = YawPitchRollDegrees(gaze);
  Quat turn = EyeTurnForGaze(&look_at, left, angles[0], angles[1]);
  // _getWorldFaceFrontQuat: 180° about Y for faceFront (0, 0, -1).
  if (look_at.faces_minus_z) turn = {-turn[0], turn[1], -turn[2], turn[3]};
  const Quat& parent = frame.parent_world;
  return Normalized(Multiply(Multiply(Multiply(Conjugate(parent), turn), parent), frame.rest));
}

}  // namespace

std::vector<ExpressionWeightTrack> LookExpressionTracks(const Channel& look_at,
                                                        const VrmLookAt& maps, size_t* added_keys) {
  const std::vector<double>& keys = look_at.times_seconds;
  std::vector<double> times;
  const bool step = look_at.interpolation == Interpolation::kStep;
  const auto weights_at = [&](double seconds) {
    return LookWeights(maps, GazeAt(look_at, seconds));
  };
  for (size_t k = 0; k < keys.size(); ++k) {
    if (k > 0 && step) {
      // A step gaze jumps at the key: the previous weights held to one float32 step before it.
      const double before = std::nextafter(static_cast<float>(keys[k]), -INFINITY);
      if (before > keys[k - 1]) times.push_back(before);
    } else if (k > 0) {
      // The bends in (keys[k-1], keys[k]), each found by bisection, then the smooth pieces.
      std::vector<double> pieces = {keys[k - 1]};
      const std::array<double, 5> at0 = Bends(maps, GazeAt(look_at, keys[k - 1]));
      const std::array<double, 5> at1 = Bends(maps, GazeAt(look_at, keys[k]));
      for (size_t b = 0; b < 5; ++b) {
        if ((at0[b] < 0) == (at1[b] < 0)) continue;
        double low = keys[k - 1], high = keys[k];
        for (int i = 0; i < 64 && high - low > 1e-12; ++i) {
          const double middle = 0.5 * (low + high);
          ((Bends(maps, GazeAt(look_at, middle))[b] < 0) == (at0[b] < 0) ? low : high) = middle;
        }
        pieces.push_back(high);
      }
      pieces.push_back(keys[k]);
      std::sort(pieces.begin(), pieces.end());
      pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
      for (size_t p = 0; p + 1 < pieces.size(); ++p) {
        if (p > 0) times.push_back(pieces[p]);
        AddHalfwayKeys(pieces[p], weights_at(pieces[p]), pieces[p + 1], weights_at(pieces[p + 1]),
                       kMaxWeightBisections, weights_at, WeightsTooFar, times,
                       static_cast<std::vector<std::array<double, 4>>*>(nullptr));
      }
    }
    times.push_back(keys[k]);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  *added_keys += times.size() - keys.size();
  std::vector<ExpressionWeightTrack> tracks(4);
  for (size_t i = 0; i < 4; ++i) {
    tracks[i].name = kLookExpressions[i];
    tracks[i].times_seconds = times;
  }
  for (size_t k = 0; k < times.size(); ++k) {
    // A step gaze's key one float32 step before a key holds the key before's gaze.
    const std::array<double, 4> weights = LookWeights(maps, GazeAt(look_at, times[k]));
    for (size_t i = 0; i < 4; ++i) tracks[i].weights.push_back(weights[i]);
  }
  return tracks;
}

Quat EyeRotationForGaze(const Rig& rig, int eye, bool left, const VrmLookAt& look_at,
                        const Quat& gaze) {
  return EyeRotationInFrame(FrameOf(rig, RestPose(rig), eye), left, look_at, gaze);
}

std::vector<std::vector<ExpressionWeightTrack>> PlayVrmaLookAtOnModel(
    const std::vector<Node>& role_nodes, const std::vector<std::vector<Channel>>& channels,
    const Asset& model, const std::string& model_name, Asset& out, Diagnostics* diagnostics) {
  std::vector<std::vector<ExpressionWeightTrack>> look_tracks(channels.size());
  bool any = false;
  for (const std::vector<Channel>& clip : channels) any = any || LookAtChannel(role_nodes, clip);
  if (!any) return look_tracks;
  const std::string keep = "keep it with -o OUT.vrma";
  if (!model.vrm_look_at) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("lookAt: {} has no lookAt, so three-vrm turns nothing for the "
                              "input's lookAt track, and neither does the output; {}",
                              model_name, keep));
    return look_tracks;
  }
  const VrmLookAt& maps = *model.vrm_look_at;
  const std::string map_text = fmt::format(
      "horizontal inner {:g}->{:g}, outer {:g}->{:g}, vertical down {:g}->{:g}, up {:g}->{:g}",
      maps.horizontal_inner.input_max_degrees, maps.horizontal_inner.output_scale,
      maps.horizontal_outer.input_max_degrees, maps.horizontal_outer.output_scale,
      maps.vertical_down.input_max_degrees, maps.vertical_down.output_scale,
      maps.vertical_up.input_max_degrees, maps.vertical_up.output_scale);
  if (maps.type == VrmLookAt::Type::kExpression) {
    size_t keys = 0, added = 0;
    for (size_t c = 0; c < channels.size(); ++c) {
      if (const Channel* look_at = LookAtChannel(role_nodes, channels[c])) {
        look_tracks[c] = LookExpressionTracks(*look_at, maps, &added);
        keys += look_tracks[c][0].times_seconds.size();
      }
    }
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("lookAt: weighs {}'s lookUp, lookDown, lookLeft and lookRight as "
                              "three-vrm does (range maps, degrees -> weight: {}): {} key(s), {} "
                              "where the weights bend or curve",
                              model_name, map_text, keys, added));
    return look_tracks;
  }
  const int eyes[2] = {HumanBoneNode(out.rig, HumanBone::kLeftEye),
                       HumanBoneNode(out.rig, HumanBone::kRightEye)};
  if (eyes[0] < 0 && eyes[1] < 0) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("lookAt: {} has no eye bones, so its bone lookAt turns nothing "
                              "for the input's lookAt track; {}",
                              model_name, keep));
    return look_tracks;
  }
  const RestPose rest(out.rig);
  size_t keys = 0, added = 0;
  for (size_t c = 0; c < channels.size() && c < out.clips.size(); ++c) {
    const Channel* look_at = LookAtChannel(role_nodes, channels[c]);
    if (!look_at) continue;
    std::vector<Channel>& out_channels = out.clips[c].channels;
    out_channels.erase(std::remove_if(out_channels.begin(), out_channels.end(),
                                      [&eyes](const Channel& channel) {
                                        return channel.path == Path::kRotation &&
                                               (channel.node == eyes[0] || channel.node == eyes[1]);
                                      }),
                       out_channels.end());
    for (int side = 0; side < 2; ++side) {
      if (eyes[side] < 0) continue;
      const EyeFrame frame = FrameOf(out.rig, rest, eyes[side]);
      auto exact = [&](double seconds) {
        double value[4];
        EvaluateChannel(*look_at, seconds, value);
        return EyeRotationInFrame(frame, side == 0, maps, LoadQuat(value));
      };
      Channel eye = FollowRotation(look_at->times_seconds,
                                   look_at->interpolation == Interpolation::kStep, exact, &added);
      eye.node = eyes[side];
      keys += eye.key_count();
      out_channels.push_back(std::move(eye));
    }
  }
  AddDiagnostic(diagnostics, Severity::kInfo,
                fmt::format("lookAt: played onto {}'s eyes as three-vrm turns them (range maps, "
                            "degrees: {}): {} key(s){}",
                            model_name, map_text, keys,
                            added ? fmt::format(", {} added between keys to keep within {:g} rad",
                                                added, kGazeToleranceRadians)
                                  : std::string()));
  return look_tracks;
}

}  // namespace animconv
