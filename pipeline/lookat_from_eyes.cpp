#include "pipeline/lookat_from_eyes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/reduce.h"
#include "animconv/resample.h"
#include "animconv/sample.h"
#include "pipeline/gaze.h"

namespace animconv {
namespace {

// Eyes that disagree by more than this most likely are not the eye bones they were mapped as: the
// warning says to check the mapping.
constexpr double kEyesApartHintDegrees = 5;

bool IsEye(const Node& node) {
  return node.human_bone &&
         (*node.human_bone == HumanBone::kLeftEye || *node.human_bone == HumanBone::kRightEye);
}

// The eyes' rotation channels of one clip and what turning them into a gaze dropped.
struct EyeGaze {
  std::vector<const Channel*> eyes;  // one or two (a rig has two eye bones)
  std::vector<bool> left;            // per eye: the leftEye bone
  const VrmLookAt* maps = nullptr;   // the input model's bone lookAt, taken back; else 1:1
  double largest_apart_degrees = 0;
  double largest_roll_degrees = 0;
  bool beyond_maps = false;  // an eye turned past what its model's lookAt turns it by
  // How far an eye the gaze turns (as the model turns it, or 1:1) is from the eye's own rotation
  // at a key: what the roll, the eyes' disagreement and the maps' ends leave out, which `diff`
  // shows (pipeline/diff_look_at.h).
  double largest_eye_error_degrees = 0;

  // The gaze at `seconds`: the mean of the eyes' yaw and pitch, without roll.
  Quat At(double seconds) {
    double yaw = 0, pitch = 0;
    std::array<std::array<double, 3>, 2> angles{};
    std::array<Quat, 2> actual{};
    for (size_t e = 0; e < eyes.size(); ++e) {
      double value[4];
      EvaluateChannel(*eyes[e], seconds, value);
      actual[e] = LoadQuat(value);
      angles[e] = YawPitchRollDegrees(actual[e]);
      if (maps) {
        const std::array<double, 2> gaze =
            GazeForEyeAngles(*maps, left[e], angles[e][0], angles[e][1], &beyond_maps);
        angles[e][0] = gaze[0];
        angles[e][1] = gaze[1];
      }
      yaw += angles[e][0];
      pitch += angles[e][1];
      largest_roll_degrees = std::max(largest_roll_degrees, std::abs(angles[e][2]));
    }
    if (eyes.size() == 2) {
      const double apart =
          std::max(std::abs(angles[0][0] - angles[1][0]), std::abs(angles[0][1] - angles[1][1]));
      largest_apart_degrees = std::max(largest_apart_degrees, apart);
    }
    const double count = static_cast<double>(eyes.size());
    yaw /= count;
    pitch /= count;
    for (size_t e = 0; e < eyes.size(); ++e) {
      const Quat played = EyeTurnForGaze(maps, left[e], yaw, pitch);
      largest_eye_error_degrees =
          std::max(largest_eye_error_degrees,
                   ErrorInPrintedUnit(Path::kRotation, AngleBetween(played, actual[e])));
    }
    return YawPitchRotation(yaw, pitch);
  }
};

// The lookAt channel of one clip's eyes: keyed at every key of either eye.
Channel GazeChannel(EyeGaze& gaze, size_t* added_keys) {
  std::vector<double> key_times;
  bool all_step = true;
  for (const Channel* eye : gaze.eyes) {
    key_times.insert(key_times.end(), eye->times_seconds.begin(), eye->times_seconds.end());
    all_step = all_step && eye->interpolation == Interpolation::kStep;
  }
  std::sort(key_times.begin(), key_times.end());
  key_times.erase(std::unique(key_times.begin(), key_times.end()), key_times.end());
  return FollowRotation(
      key_times, all_step, [&gaze](double seconds) { return gaze.At(seconds); }, added_keys);
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

void MoveEyesToLookAt(Asset& normalized, const VrmLookAt* source_look_at,
                      Diagnostics* diagnostics) {
  // An expression lookAt moves no eye bone: its model's eye clips are the eyes' own motion.
  const VrmLookAt* maps =
      source_look_at && source_look_at->type == VrmLookAt::Type::kBone ? source_look_at : nullptr;
  std::vector<EyeGaze> gazes(normalized.clips.size());
  for (size_t c = 0; c < normalized.clips.size(); ++c) {
    gazes[c].maps = maps;
    for (const Channel& channel : normalized.clips[c].channels) {
      const Node& node = normalized.rig.nodes[static_cast<size_t>(channel.node)];
      if (channel.path == Path::kRotation && IsEye(node) && gazes[c].eyes.size() < 2) {
        gazes[c].eyes.push_back(&channel);  // one per eye
        gazes[c].left.push_back(*node.human_bone == HumanBone::kLeftEye);
      }
    }
  }
  std::vector<std::optional<Channel>> channels(normalized.clips.size());
  size_t keys = 0, added_keys = 0;
  double apart = 0, roll = 0;
  bool beyond_maps = false;
  double eye_error = 0;
  size_t eye_count = 0;
  for (size_t c = 0; c < gazes.size(); ++c) {
    if (gazes[c].eyes.empty()) continue;
    channels[c] = GazeChannel(gazes[c], &added_keys);
    keys += channels[c]->key_count();
    apart = std::max(apart, gazes[c].largest_apart_degrees);
    roll = std::max(roll, gazes[c].largest_roll_degrees);
    beyond_maps = beyond_maps || gazes[c].beyond_maps;
    eye_error = std::max(eye_error, gazes[c].largest_eye_error_degrees);
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
  std::string note = fmt::format("lookAt from eye rotations: {} key(s); its yaw and pitch are {}, ",
                                 keys, eye_count == 2 ? "the mean of both eyes'" : "the eye's");
  note += maps ? "taken back through the input's lookAt range maps (`animconv info` lists them), "
                 "so that the input model turns its eyes as they were"
               : "1:1 (a model turns its eyes by them through its own lookAt range maps)";
  if (added_keys > 0) {
    note += fmt::format("; {} key(s) added between keys to keep within {:g} rad", added_keys,
                        kGazeToleranceRadians);
  }
  if (eye_count == 2) note += fmt::format("; the eyes differ by up to {:.3g} deg", apart);
  if (roll > 0.01) note += fmt::format("; their roll (up to {:.3g} deg) is dropped", roll);
  if (beyond_maps) note += "; the eyes turn further than the input's own lookAt turns them";
  // Exit 0 means the motion is right: eyes that play further off than diff's tolerance are a
  // warning, with the fix.
  const bool warn = eye_error > ReduceOptions{}.rotation_degrees;
  if (warn) {
    std::vector<std::string> causes;
    if (eye_count == 2 && apart > 0) causes.push_back("one gaze for both eyes");
    if (roll > 0.01) causes.push_back("no roll");
    if (beyond_maps) causes.push_back("no turn past the range maps' end");
    note += fmt::format(
        ": played as a lookAt ({}), the eyes play up to {:.3g} deg off their own rotations; keep "
        "the eye bones with a glb or bvh output",
        fmt::join(causes, ", "), eye_error);
    if (apart > kEyesApartHintDegrees) {
      note += fmt::format(
          " (eyes more than {:g} deg apart: check their mapping with `animconv "
          "bones`)",
          kEyesApartHintDegrees);
    }
  }
  AddDiagnostic(diagnostics, warn ? Severity::kWarning : Severity::kInfo, note);
}

}  // namespace animconv
