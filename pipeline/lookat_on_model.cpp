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

// VRMLookAtRangeMap.map: output_scale · saturate(input / input_max).
double Map(const VrmLookAt::RangeMap& map, double input_degrees) {
  return map.output_scale * std::clamp(input_degrees / map.input_max_degrees, 0.0, 1.0);
}

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

}  // namespace

Quat EyeRotationForGaze(const Rig& rig, int eye, bool left, const VrmLookAt& look_at,
                        const Quat& gaze) {
  const std::array<double, 3> angles = YawPitchRollDegrees(gaze);
  const double yaw = angles[0];
  const double pitch = angles[1];
  // VRMLookAtBoneApplier.applyYawPitch: a positive yaw turns the left eye outward.
  const double eye_pitch =
      pitch < 0 ? -Map(look_at.vertical_down, -pitch) : Map(look_at.vertical_up, pitch);
  const VrmLookAt::RangeMap& toward_minus =
      left ? look_at.horizontal_inner : look_at.horizontal_outer;
  const VrmLookAt::RangeMap& toward_plus =
      left ? look_at.horizontal_outer : look_at.horizontal_inner;
  const double eye_yaw = yaw < 0 ? -Map(toward_minus, -yaw) : Map(toward_plus, yaw);
  Quat turn = YawPitchRotation(eye_yaw, eye_pitch);
  // _getWorldFaceFrontQuat: 180° about Y for faceFront (0, 0, -1).
  if (look_at.faces_minus_z) turn = {-turn[0], turn[1], -turn[2], turn[3]};
  const RestPose rest(rig);
  const Quat parent = rest.ParentWorldRotation(eye);
  return Normalized(Multiply(Multiply(Multiply(Conjugate(parent), turn), parent),
                             rig.nodes[static_cast<size_t>(eye)].rest_rotation));
}

void PlayVrmaLookAtOnModel(const std::vector<Node>& role_nodes,
                           const std::vector<std::vector<Channel>>& channels, const Asset& model,
                           const std::string& model_name, Asset& out, Diagnostics* diagnostics) {
  bool any = false;
  for (const std::vector<Channel>& clip : channels) any = any || LookAtChannel(role_nodes, clip);
  if (!any) return;
  const std::string keep = "keep it with -o OUT.vrma";
  if (!model.vrm_look_at) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("lookAt: {} has no lookAt, so three-vrm turns nothing for the "
                              "input's lookAt track, and neither does the output; {}",
                              model_name, keep));
    return;
  }
  if (model.vrm_look_at->type == VrmLookAt::Type::kExpression) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("lookAt: {}'s lookAt weighs the look expressions, which the "
                              "output does not play yet (issue 17); {}",
                              model_name, keep));
    return;
  }
  const int eyes[2] = {HumanBoneNode(out.rig, HumanBone::kLeftEye),
                       HumanBoneNode(out.rig, HumanBone::kRightEye)};
  if (eyes[0] < 0 && eyes[1] < 0) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("lookAt: {} has no eye bones, so its bone lookAt turns nothing "
                              "for the input's lookAt track; {}",
                              model_name, keep));
    return;
  }
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
      auto exact = [&](double seconds) {
        double value[4];
        EvaluateChannel(*look_at, seconds, value);
        return EyeRotationForGaze(out.rig, eyes[side], side == 0, *model.vrm_look_at,
                                  LoadQuat(value));
      };
      Channel eye = FollowRotation(look_at->times_seconds,
                                   look_at->interpolation == Interpolation::kStep, exact, &added);
      eye.node = eyes[side];
      keys += eye.key_count();
      out_channels.push_back(std::move(eye));
    }
  }
  const VrmLookAt& maps = *model.vrm_look_at;
  AddDiagnostic(
      diagnostics, Severity::kInfo,
      fmt::format("lookAt: played onto {}'s eyes as three-vrm turns them (range maps, degrees: "
                  "horizontal inner {:g}->{:g}, outer {:g}->{:g}, vertical down {:g}->{:g}, up "
                  "{:g}->{:g}): {} key(s){}",
                  model_name, maps.horizontal_inner.input_max_degrees,
                  maps.horizontal_inner.output_scale, maps.horizontal_outer.input_max_degrees,
                  maps.horizontal_outer.output_scale, maps.vertical_down.input_max_degrees,
                  maps.vertical_down.output_scale, maps.vertical_up.input_max_degrees,
                  maps.vertical_up.output_scale, keys,
                  added ? fmt::format(", {} added between keys to keep within {:g} rad", added,
                                      kGazeToleranceRadians)
                        : std::string()));
}

}  // namespace animconv
