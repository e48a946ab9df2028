#include "pipeline/retarget_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/mat4x4.hpp>
#include <limits>

#include "animconv/clip_poser.h"
#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/resample.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "animconv/transform.h"
#include "formats/three/three_json.h"
#include "libconvert/body_frame.h"
#include "libconvert/text.h"
#include "pipeline/expressions_from_morphs.h"
#include "pipeline/lookat_from_eyes.h"
#include "pipeline/lookat_on_model.h"
#include "pipeline/vrm_expression_binds.h"

namespace animconv {
namespace {

size_t HumanoidNodeCount(const Rig& rig) {
  size_t count = 0;
  for (const Node& node : rig.nodes) count += node.human_bone ? 1 : 0;
  return count;
}

void RequireHumanoid(const Rig& rig, const std::string& what) {
  if (HumanoidNodeCount(rig) == 0) {
    ThrowUsage(
        fmt::format("{} has no humanoid bones: name its nodes after a known naming "
                    "(animconv bones) or map them with --bone-map",
                    what));
  }
}

// Crossing handedness is said as the writers' step says it (pipeline/convert.cpp), so every
// conversion that mirrors tells which mirror it applied (docs/cli.md).
void MakeRightHanded(Asset& input, Mirror mirror, Diagnostics* diagnostics) {
  if (input.coordinates.handedness != Handedness::kRight) {
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("the input is left-handed; converting with --mirror {}", MirrorName(mirror)));
  }
  ConvertHandedness(input, Handedness::kRight, mirror);
}

// Right-handed, no cubic splines: what RetargetClips takes.
void PrepareSource(Asset& input, Mirror mirror, std::optional<double> interval_seconds,
                   Diagnostics* diagnostics) {
  RequireHumanoid(input.rig, "the input");
  MakeRightHanded(input, mirror, diagnostics);
  BakeCubicSplines(input, interval_seconds);
}

// `input`'s clips give up the rotation channels the retarget can take whole (its callers read
// only its rig, notes and lookAt afterwards).
Asset Retargeted(Asset& input, const Rig& rig, const CoordinateSystem& coordinates,
                 const RetargetOptions& options, RetargetReport* report) {
  Asset out;
  out.clips = RetargetClipsConsuming(input, rig, coordinates.facing, options, report);
  out.rig = rig;
  out.coordinates = coordinates;
  out.notes = input.notes;
  return out;
}

}  // namespace

Mirror MirrorForModel(const Asset& model) {
  return model.coordinates.facing == Facing::kMinusZ ? Mirror::kZ : Mirror::kX;
}

namespace {

// The model's node a channel of `node` belongs on: by humanoid bone, else by name. A name is
// compared with the node's own name and with the name three.js gives it (GLTFLoader sanitises
// node names with PropertyBinding.sanitizeNodeName and makes them unique, and PropertyBinding
// binds a track to the object so named, docs/formats/threejs.md), so our own three.js JSON,
// whose tracks say `upper_armL` for the node `upper_arm.L`, finds its nodes again.
class ModelNodeFinder {
 public:
  explicit ModelNodeFinder(const Rig& model)
      : model_(model), three_(ThreeNodeNames(model, nullptr)) {
    bone_node_.fill(-1);
    for (size_t n = 0; n < model.nodes.size(); ++n) {
      if (model.nodes[n].human_bone) {
        bone_node_[static_cast<size_t>(*model.nodes[n].human_bone)] = int(n);
      }
    }
  }

  int Find(const Node& node) const {
    if (node.human_bone) {
      const int by_bone = bone_node_[static_cast<size_t>(*node.human_bone)];
      if (by_bone >= 0) return by_bone;
    }
    for (size_t n = 0; n < model_.nodes.size(); ++n) {
      if (model_.nodes[n].name == node.name) return int(n);
    }
    for (size_t n = 0; n < model_.nodes.size(); ++n) {
      if (three_.nodes[n] == node.name) return int(n);
    }
    return -1;
  }

 private:
  const Rig& model_;
  const ThreeObjectNames three_;
  std::array<int, kHumanBoneCount> bone_node_;
};

}  // namespace

void AdoptSourceRig(Asset& input, const Asset& model, Mirror mirror, const std::string& model_name,
                    Diagnostics* diagnostics) {
  RequireHumanoid(model.rig, model_name);
  MakeRightHanded(input, mirror, diagnostics);
  const ModelNodeFinder finder(model.rig);
  std::vector<std::string> dropped;
  for (Clip& clip : input.clips) {
    std::vector<Channel> kept;
    for (Channel& channel : clip.channels) {
      const Node& input_node = input.rig.nodes[static_cast<size_t>(channel.node)];
      const int node = finder.Find(input_node);
      const bool fits =
          node >= 0 &&
          (channel.path != Path::kWeights ||
           model.rig.nodes[static_cast<size_t>(node)].morph_target_count == channel.width);
      if (!fits) {
        dropped.push_back(fmt::format("{} {}", input_node.name, PathName(channel.path)));
        continue;
      }
      channel.node = node;
      kept.push_back(std::move(channel));
    }
    clip.channels = std::move(kept);
  }
  // A dropped channel is motion the output does not play: a warning, never only a note.
  if (!dropped.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--source-rig {}: {} channel(s) match no node of the model (by "
                              "humanoid bone, name or three.js name) and were dropped: {}",
                              model_name, dropped.size(), ListFirst(dropped, 5)));
  }
  input.rig = model.rig;
  input.coordinates = model.coordinates;
  input.source_document = model.source_document;
}

namespace {

// The input's expression and lookAt nodes and, per clip, their channels, taken out before the
// source is prepared (a weight in translation.x is no length to mirror, scale or turn) and
// retargeted (they are no bone channels the target lacks).
struct VrmaRoleTracks {
  std::vector<Node> nodes;
  std::vector<std::vector<Channel>> channels;  // per clip, `node` indexing `nodes`
};

VrmaRoleTracks TakeVrmaRoleTracks(Asset& input) {
  VrmaRoleTracks roles;
  std::vector<int> index_of(input.rig.nodes.size(), -1);
  for (size_t n = 0; n < input.rig.nodes.size(); ++n) {
    if (!input.rig.nodes[n].vrma_role) continue;
    index_of[n] = static_cast<int>(roles.nodes.size());
    roles.nodes.push_back(input.rig.nodes[n]);
    roles.nodes.back().parent = -1;
  }
  if (roles.nodes.empty()) return roles;
  for (Clip& clip : input.clips) {
    std::vector<Channel>& taken = roles.channels.emplace_back();
    std::vector<Channel> rest;
    for (Channel& channel : clip.channels) {
      const int role_node = index_of[static_cast<size_t>(channel.node)];
      if (role_node < 0) {
        rest.push_back(std::move(channel));
        continue;
      }
      taken.push_back(std::move(channel));
      taken.back().node = role_node;
    }
    clip.channels = std::move(rest);
  }
  return roles;
}

void AddVrmaRoleTracks(VrmaRoleTracks roles, Asset& out) {
  const int first = static_cast<int>(out.rig.nodes.size());
  for (Node& node : roles.nodes) out.rig.nodes.push_back(std::move(node));
  for (size_t c = 0; c < out.clips.size() && c < roles.channels.size(); ++c) {
    for (Channel& channel : roles.channels[c]) {
      channel.node += first;
      out.clips[c].channels.push_back(std::move(channel));
    }
  }
}

}  // namespace

Asset RetargetOntoModel(Asset input, const Asset& model, const std::string& model_name,
                        Mirror mirror, std::optional<double> interval_seconds,
                        const RetargetOptions& options, RetargetReport* report,
                        Diagnostics* diagnostics) {
  RequireHumanoid(model.rig, "the --skeleton model " + model_name);
  VrmaRoleTracks roles = TakeVrmaRoleTracks(input);
  PrepareSource(input, mirror, interval_seconds, diagnostics);
  Asset out = Retargeted(input, model.rig, model.coordinates, options, report);
  out.source_document = model.source_document;
  out.vrm_expressions = model.vrm_expressions;
  out.vrm_look_at = model.vrm_look_at;
  CheckRetargetedHips(out, input.rig.rest_pose_known, diagnostics);
  // A .vrma's lookAt on a VRM model: its eyes as three-vrm turns them.
  // (or, for an expression lookAt, the look expressions' weights, played with the others).
  std::vector<std::vector<ExpressionWeightTrack>> look_tracks =
      PlayVrmaLookAtOnModel(roles.nodes, roles.channels, model, model_name, out, diagnostics);
  // A .vrma's expressions on a VRM model: morph weights through the model's binds.
  PlayVrmaExpressionsOnModel(roles.nodes, std::move(roles.channels), std::move(look_tracks), model,
                             model_name, out, diagnostics);
  return out;
}

Asset RetargetOntoNormalizedRig(Asset input, const NormalizedRig& rig, Mirror mirror,
                                std::optional<double> interval_seconds,
                                const RetargetOptions& options, RetargetReport* report,
                                Diagnostics* diagnostics) {
  VrmaRoleTracks roles;
  if (rig.vrma_roles) {
    AddExpressionsFromMorphs(input, rig.expression_map, diagnostics);
    roles = TakeVrmaRoleTracks(input);
    // A face capture (morph weights and no body): the expressions on the T-pose rig of the
    // required bones, which a VRMA must hold.
    if (!roles.nodes.empty() && HumanoidNodeCount(input.rig) == 0) {
      std::vector<HumanBone> required;
      for (int b = 0; b < kHumanBoneCount; ++b) {
        if (GetHumanBoneInfo(static_cast<HumanBone>(b)).required_vrm1) {
          required.push_back(static_cast<HumanBone>(b));
        }
      }
      Asset out;
      out.rig = MakeHumanoidTPoseRig(required, rig.facing);
      out.coordinates = {Handedness::kRight, rig.facing};
      out.notes = input.notes;
      for (const Clip& clip : input.clips) {
        out.clips.emplace_back().name = clip.name;
        out.clips.back().duration_seconds = clip.duration();
      }
      AddDiagnostic(diagnostics, Severity::kInfo,
                    "the input has no humanoid bones: the VRMA holds its expressions on the "
                    "T-pose of the required bones");
      AddVrmaRoleTracks(std::move(roles), out);
      return out;
    }
  }
  // A VRMA has no eye bones: moving eyes become its lookAt, unless the input has one (a .vrma).
  const bool look_at_from_eyes =
      rig.vrma_roles && !rig.eyes && AnimatesEyes(input) &&
      std::none_of(roles.nodes.begin(), roles.nodes.end(), [](const Node& node) {
        return node.vrma_role->kind == VrmaRole::Kind::kLookAt;
      });
  PrepareSource(input, mirror, interval_seconds, diagnostics);
  std::array<bool, kHumanBoneCount> wanted{};
  for (const Node& node : input.rig.nodes) {
    if (node.human_bone) wanted[static_cast<size_t>(*node.human_bone)] = true;
  }
  // A VRMA's feet keep their toes, animated or not: a model has them, and --ground measures the
  // lowest foot or toe joint on this rig. Without them it put the ankles (8 cm up in the T-pose)
  // at the floor, and the model's toes played 5-9 cm under it (review of session 34).
  if (rig.vrma_roles) {
    wanted[static_cast<size_t>(HumanBone::kLeftToes)] |=
        wanted[static_cast<size_t>(HumanBone::kLeftFoot)];
    wanted[static_cast<size_t>(HumanBone::kRightToes)] |=
        wanted[static_cast<size_t>(HumanBone::kRightFoot)];
  }
  std::vector<HumanBone> bones;
  for (int b = 0; b < kHumanBoneCount; ++b) {
    const HumanBone bone = static_cast<HumanBone>(b);
    const bool eye = bone == HumanBone::kLeftEye || bone == HumanBone::kRightEye;
    if (eye && !rig.eyes && !look_at_from_eyes) continue;
    if (wanted[static_cast<size_t>(b)] ||
        (rig.required_vrm1_bones && GetHumanBoneInfo(bone).required_vrm1)) {
      bones.push_back(bone);
    }
  }
  const CoordinateSystem coordinates{Handedness::kRight, rig.facing};
  Asset out =
      Retargeted(input, MakeHumanoidTPoseRig(bones, rig.facing), coordinates, options, report);
  CheckRetargetedHips(out, input.rig.rest_pose_known, diagnostics);
  if (look_at_from_eyes) {
    MoveEyesToLookAt(out, input.vrm_look_at ? &*input.vrm_look_at : nullptr, diagnostics);
  }
  AddVrmaRoleTracks(std::move(roles), out);
  return out;
}

namespace {

std::string ScaleFix(bool source_rest_known) {
  // Without a rest pose the hips translation is read as metres at the T-pose's hips height, so
  // the input's unit is what is wrong. With one, the rest pose and the translation are in the
  // same unit and --scale cancels out: the translation does not fit the rest pose.
  return source_rest_known
             ? "the input's hips translation does not fit its rest pose (the hips height is "
               "measured from the rest pose's feet): a translation relative to the clip's start, "
               "or a rest pose not standing on its feet; if the input was recorded on a model, "
               "give it with --source-rig MODEL"
             : "the input has no rest pose, so its hips translation is taken as metres: give "
               "--scale F to turn its unit into metres (0.01 for centimetres, 0.0254 for inches)";
}

}  // namespace

void CheckRetargetedHips(const Asset& retargeted, bool source_rest_known,
                         Diagnostics* diagnostics) {
  const Rig& rig = retargeted.rig;
  const int hips = HumanBoneNode(rig, HumanBone::kHips);
  if (hips < 0) return;
  const RestPose rest(rig);
  // Heights along the target's up (a --skeleton model drawn Z-up), as ClipPoser::Height takes them.
  const UpAxis up = RestUpAxis(rig);
  double floor = 0;
  const std::vector<int> feet = FootAndToeNodes(rig);
  for (const int foot : feet) floor = std::min(floor, up.HeightOf(rest.WorldPosition(foot)));
  const double rest_hips = up.HeightOf(rest.WorldPosition(hips)) - floor;
  // A target whose rest hips are on its floor (a degenerate test model, every node at the origin)
  // gives nothing to measure against; the retargeter already says it did not scale the hips.
  if (rest_hips <= 0.001) return;
  const bool person_sized = rest_hips >= kHipsHeightRange[0] && rest_hips <= kHipsHeightRange[1];
  for (const Clip& clip : retargeted.clips) {
    const bool moves_hips =
        std::any_of(clip.channels.begin(), clip.channels.end(), [hips](const Channel& channel) {
          return channel.node == hips && channel.path == Path::kTranslation;
        });
    if (!moves_hips) continue;  // the hips stay at the target's own rest height
    double duration = 0;
    for (const Channel& channel : clip.channels) {
      duration = std::max(duration, channel.times_seconds.back());
    }
    // 30 samples a second, at most 2000: a walk's lowest foot is within a frame of a sample.
    const int samples = static_cast<int>(std::clamp(std::ceil(duration * 30), 1.0, 2000.0));
    ClipPoser poser(rig, clip);
    std::vector<double> hips_heights;
    double lowest_foot = std::numeric_limits<double>::infinity();
    double lowest_time = 0;
    for (int i = 0; i <= samples; ++i) {
      const double seconds = duration * i / samples;
      poser.Pose(seconds);
      hips_heights.push_back(poser.Height(hips) - floor);
      for (const int foot : feet) {
        const double height = poser.Height(foot) - floor;
        if (height < lowest_foot) {
          lowest_foot = height;
          lowest_time = seconds;
        }
      }
    }
    std::nth_element(hips_heights.begin(), hips_heights.begin() + hips_heights.size() / 2,
                     hips_heights.end());
    const double hips_height = hips_heights[hips_heights.size() / 2];
    const std::string where =
        retargeted.clips.size() > 1 ? fmt::format("clip '{}': ", clip.name) : std::string();
    // A target that is no person's size itself (a toy-sized test model, a rig in centimetres)
    // is measured against its own rest hips height instead of metres.
    const double low = person_sized ? kHipsHeightRange[0] : rest_hips / 3;
    const double high = person_sized ? kHipsHeightRange[1] : rest_hips * 2.5;
    if (hips_height < low || hips_height > high) {
      AddDiagnostic(
          diagnostics, Severity::kWarning,
          fmt::format("{}the retargeted hips are {:.3f} m above the floor over the clip "
                      "(median; {}): {}",
                      where, hips_height,
                      person_sized ? fmt::format("a person's are {}-{} m", kHipsHeightRange[0],
                                                 kHipsHeightRange[1])
                                   : fmt::format("the target's are {:.3f} m at rest", rest_hips),
                      ScaleFix(source_rest_known)));
    } else if (lowest_foot < -kFeetBelowFloorMetres) {
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("{}the retargeted feet go {:.3f} m below the floor (at {:.3g} s): "
                                "{}",
                                where, -lowest_foot, lowest_time, ScaleFix(source_rest_known)));
    }
  }
}

}  // namespace animconv
