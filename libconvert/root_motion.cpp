#include "animconv/root_motion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/sample.h"
#include "libconvert/heading.h"
#include "libconvert/hips_frame.h"

namespace animconv {
namespace {

constexpr double kDegreesPerRadian = 180 / M_PI;
// RefineKeyTimes' bounds (root_motion.h): a segment is halved at most this often, and the keys
// of one refined channel are at most kKeyBudgetFactor × the clip's + kKeyBudgetExtra.
constexpr int kMaxHalvings = 10;
constexpr size_t kKeyBudgetFactor = 16;
constexpr size_t kKeyBudgetExtra = 4096;
// Where a segment is checked against the exact turn.
constexpr double kCheckedFractions[] = {0.25, 0.5, 0.75};

// The travel over the ground of a hips translation `value` (parent space) from `start`, in model
// space: for tangents (start 0) the same linear map.
Vec3 GroundTravel(const HipsParentFrame& frame, const double* value, const Vec3& start) {
  const Vec3 moved = frame.ToModel({value[0] - start[0], value[1] - start[1], value[2] - start[2]});
  return {moved[0], 0, moved[2]};
}

// The hips' topmost ancestor, or a new root node made the hips' parent.
int RootFor(Asset& asset, int hips, const RootMotionOptions& options, RootMotionReport* report) {
  const std::vector<int> ancestors = AncestorsOf(asset.rig, hips);
  if (!ancestors.empty()) {
    report->root_name = asset.rig.nodes[static_cast<size_t>(ancestors.back())].name;
    return ancestors.back();
  }
  std::set<std::string> names;
  for (const Node& node : asset.rig.nodes) names.insert(node.name);
  std::string name = options.created_root_name;
  for (int suffix = 2; names.count(name); ++suffix) {
    name = fmt::format("{}_{}", options.created_root_name, suffix);
  }
  Node root;
  root.name = name;
  asset.rig.nodes.push_back(root);
  const int index = static_cast<int>(asset.rig.nodes.size() - 1);
  asset.rig.nodes[static_cast<size_t>(hips)].parent = index;
  // A writer passing the source document through would not know the new node (model.h).
  asset.source_document.reset();
  report->root_name = name;
  report->root_created = true;
  return index;
}

Channel* FindChannel(Clip& clip, int node, Path path) {
  const auto found =
      std::find_if(clip.channels.begin(), clip.channels.end(),
                   [&](const Channel& c) { return c.node == node && c.path == path; });
  return found == clip.channels.end() ? nullptr : &*found;
}

// The hips' translation with the travel taken off, key by key (an affine map of the values, so
// exact between keys for every interpolation); returns the travel per key in model space, the
// channel an extracted root carries.
Channel RemoveTravel(Channel& channel, const HipsParentFrame& frame, RootMotionReport* report) {
  const double* first = channel.key_value(0);
  const Vec3 start{first[0], first[1], first[2]};
  Channel carried = channel;
  const size_t per_key = channel.elements_per_key();
  for (size_t k = 0; k < channel.key_count(); ++k) {
    for (size_t e = 0; e < per_key; ++e) {
      // Cubic splines hold in-tangent, value, out-tangent: tangents are derivatives, so they
      // take the linear part of the map only.
      const bool is_value = per_key == 1 || e == 1;
      double* hips_value = channel.values.data() + (k * per_key + e) * 3;
      const Vec3 travel = GroundTravel(frame, hips_value, is_value ? start : Vec3{0, 0, 0});
      if (is_value) {
        report->largest_travel_metres =
            std::max(report->largest_travel_metres, std::hypot(travel[0], travel[2]));
      }
      const Vec3 back = frame.FromModel(travel);
      for (size_t c = 0; c < 3; ++c) hips_value[c] -= back[c];
      double* carried_value = carried.values.data() + (k * per_key + e) * 3;
      for (size_t c = 0; c < 3; ++c) carried_value[c] = travel[c];
    }
  }
  return carried;
}

// The root's rest (or constant keyed) translation and rotation in one clip: it has no parent, so
// these are in model space.
void RootPlacement(const Asset& asset, Clip& clip, int root, Vec3* translation, Quat* rotation) {
  const Node& node = asset.rig.nodes[static_cast<size_t>(root)];
  *translation = node.rest_translation;
  *rotation = node.rest_rotation;
  // Constant when present: HipsParentFrame checked every ancestor of the hips.
  if (const Channel* keyed = FindChannel(clip, root, Path::kTranslation)) {
    const double* value = keyed->key_value(0);
    *translation = {value[0], value[1], value[2]};
  }
  if (const Channel* keyed = FindChannel(clip, root, Path::kRotation)) {
    *rotation = LoadQuat(keyed->key_value(0));
  }
}

void SetChannel(Clip& clip, Channel channel) {
  if (Channel* existing = FindChannel(clip, channel.node, channel.path)) {
    *existing = std::move(channel);
  } else {
    clip.channels.push_back(std::move(channel));
  }
}

// The hips' turn in one clip: their rotation channel as the source has it, and the frame of
// their parent.
class HipsTurn {
 public:
  HipsTurn(const Channel& rotation, const HipsParentFrame& frame)
      : rotation_(rotation), parent_(frame.ParentRotation()), parent_inverse_(Conjugate(parent_)) {
    start_inverse_ = Conjugate(Multiply(parent_, LoadQuat(rotation.key_value(0))));
  }

  // θ(t) (root_motion.h), and the hips' local rotation with it taken off.
  double TurnAt(double seconds) const {
    return TwistAboutY(Multiply(WorldAt(seconds), start_inverse_));
  }
  Quat UnturnedAt(double seconds, double* turn) const {
    const Quat world = WorldAt(seconds);
    *turn = TwistAboutY(Multiply(world, start_inverse_));
    return Multiply(parent_inverse_, Multiply(TurnAboutY(-*turn), world));
  }

  // How far the world rotation played between the hips' keys a and b strays from the source's:
  // the hips' own slerp, and with `root_turns` the root's slerp between Ry(θa) and Ry(θb) too.
  double ErrorDegrees(double a, double b, bool root_turns) const {
    double turn_a = 0;
    double turn_b = 0;
    const Quat key_a = UnturnedAt(a, &turn_a);
    const Quat key_b = UnturnedAt(b, &turn_b);
    double largest = 0;
    for (const double fraction : kCheckedFractions) {
      double turn = 0;
      const Quat exact = UnturnedAt(a + fraction * (b - a), &turn);
      double error = AngleBetween(SlerpShortest(key_a, key_b, fraction), exact);
      if (root_turns) {
        error += std::abs(WrapRadians(turn_a + fraction * WrapRadians(turn_b - turn_a) - turn));
      }
      largest = std::max(largest, error * kDegreesPerRadian);
    }
    return largest;
  }

  // The unturned hips rotation channel: step keeps its keys, linear and cubic become linear keys
  // refined within the tolerance. `turns` receives θ at each key.
  Channel Unturned(bool root_turns, size_t key_budget, std::vector<double>* turns,
                   RootMotionReport* report) const {
    Channel out;
    out.node = rotation_.node;
    out.path = Path::kRotation;
    out.width = 4;
    if (rotation_.interpolation == Interpolation::kStep) {
      out.interpolation = Interpolation::kStep;
      out.times_seconds = rotation_.times_seconds;
    } else {
      out.interpolation = Interpolation::kLinear;
      const RefinedTimes refined = RefineKeyTimes(
          rotation_.times_seconds,
          [&](double a, double b) { return ErrorDegrees(a, b, root_turns); },
          kRootYawToleranceDegrees, kMaxHalvings, key_budget);
      out.times_seconds = refined.seconds;
      report->largest_yaw_error_degrees =
          std::max(report->largest_yaw_error_degrees, refined.largest_error);
    }
    report->yaw_keys_added += out.key_count() - rotation_.key_count();
    turns->clear();
    for (const double seconds : out.times_seconds) {
      double turn = 0;
      const Quat unturned = UnturnedAt(seconds, &turn);
      out.values.insert(out.values.end(), unturned.begin(), unturned.end());
      turns->push_back(turn);
      report->largest_turn_degrees =
          std::max(report->largest_turn_degrees, std::abs(turn) * kDegreesPerRadian);
    }
    AlignHemispheres(out);
    return out;
  }

 private:
  Quat WorldAt(double seconds) const {
    Quat local;
    EvaluateChannel(rotation_, seconds, local.data());
    return Multiply(parent_, local);
  }

  const Channel& rotation_;
  Quat parent_;
  Quat parent_inverse_;
  Quat start_inverse_;
};

Vec3 Ground(const Vec3& v) { return {v[0], 0, v[2]}; }

// extract with --root-yaw: the root turned by θ(t) about the vertical through the hips' start
// and moved by the travel, T(t) = move(P(t)) · Ry(θ(t)) · move(-P(0)) applied to its placement,
// where P is the hips' ground position (root_motion.h). Its rotation takes the hips' refined
// keys (a slerp between two turns about +Y is the turn in between); its translation is refined
// on its own within kRootYawToleranceMetres.
void TurnRoot(Clip& clip, int root, const Vec3& root_translation, const Quat& root_rotation,
              const Channel* hips_translation, const Vec3& hips_rest, const HipsParentFrame& frame,
              const HipsTurn& turn, const Channel& unturned, const std::vector<double>& turns,
              size_t key_budget, RootMotionReport* report) {
  Channel rotation;
  rotation.node = root;
  rotation.path = Path::kRotation;
  rotation.width = 4;
  rotation.interpolation = unturned.interpolation;
  rotation.times_seconds = unturned.times_seconds;
  for (const double theta : turns) {
    const Quat value = Multiply(TurnAboutY(theta), root_rotation);
    rotation.values.insert(rotation.values.end(), value.begin(), value.end());
  }
  AlignHemispheres(rotation);

  const auto hips_ground = [&](double seconds) {
    Vec3 value = hips_rest;
    if (hips_translation) EvaluateChannel(*hips_translation, seconds, value.data());
    return Ground(frame.PositionToModel(value));
  };
  const Vec3 start =
      hips_translation ? hips_ground(hips_translation->times_seconds.front()) : hips_ground(0);
  const Vec3 arm{root_translation[0] - start[0], root_translation[1],
                 root_translation[2] - start[2]};
  const auto placed = [&](double seconds) {
    const Vec3 ground = hips_ground(seconds);
    const Vec3 turned = Rotate(TurnAboutY(turn.TurnAt(seconds)), arm);
    return Vec3{ground[0] + turned[0], turned[1], ground[2] + turned[2]};
  };
  std::vector<double> seeds = unturned.times_seconds;
  if (hips_translation) {
    seeds.insert(seeds.end(), hips_translation->times_seconds.begin(),
                 hips_translation->times_seconds.end());
  }
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  const RefinedTimes refined = RefineKeyTimes(
      seeds,
      [&](double a, double b) {
        const Vec3 at_a = placed(a);
        const Vec3 at_b = placed(b);
        double largest = 0;
        for (const double fraction : kCheckedFractions) {
          const Vec3 exact = placed(a + fraction * (b - a));
          double squared = 0;
          for (size_t c = 0; c < 3; ++c) {
            const double d = at_a[c] + fraction * (at_b[c] - at_a[c]) - exact[c];
            squared += d * d;
          }
          largest = std::max(largest, std::sqrt(squared));
        }
        return largest;
      },
      kRootYawToleranceMetres, kMaxHalvings, key_budget);
  report->largest_root_error_metres =
      std::max(report->largest_root_error_metres, refined.largest_error);
  Channel translation;
  translation.node = root;
  translation.path = Path::kTranslation;
  translation.width = 3;
  translation.times_seconds = refined.seconds;
  for (const double seconds : refined.seconds) {
    const Vec3 value = placed(seconds);
    translation.values.insert(translation.values.end(), value.begin(), value.end());
  }
  SetChannel(clip, std::move(rotation));
  SetChannel(clip, std::move(translation));
}

size_t KeyBudget(const Clip& clip) {
  size_t keys = 0;
  for (const Channel& channel : clip.channels) keys += channel.key_count();
  return kKeyBudgetFactor * keys + kKeyBudgetExtra;
}

}  // namespace

RootMotionReport ApplyRootMotion(Asset& asset, const RootMotionOptions& options) {
  RootMotionReport report;
  if (options.mode == RootMotionMode::kKeep) return report;
  const int hips = HumanBoneNode(asset.rig, HumanBone::kHips);
  if (hips < 0) {
    ThrowUsage(
        "--root-motion needs the humanoid hips: the rig has none (animconv bones lists the "
        "humanoid mapping; --bone-map names a hips node)");
  }
  const bool extract = options.mode == RootMotionMode::kExtract;
  std::optional<int> root;
  for (Clip& clip : asset.clips) {
    Channel* translation = FindChannel(clip, hips, Path::kTranslation);
    const Channel* rotation =
        options.remove_yaw ? FindChannel(clip, hips, Path::kRotation) : nullptr;
    if (!translation && !rotation) continue;  // the hips neither travel nor turn
    const HipsParentFrame frame(asset.rig, clip, hips, "--root-motion");
    if (rotation && !frame.ParentScaleIsUniform()) {
      ThrowUsage(fmt::format(
          "--root-yaw: an ancestor of the hips '{}' is scaled unevenly, so a turn of the hips "
          "about +Y is no rotation in their parent's space (docs/root_motion.md)",
          asset.rig.nodes[static_cast<size_t>(hips)].name));
    }
    // Copies: the channels change below, and the clip's channel list may grow.
    const std::optional<Channel> source_translation =
        translation ? std::optional<Channel>(*translation) : std::nullopt;
    std::optional<Channel> carried;
    if (translation) carried = RemoveTravel(*translation, frame, &report);
    ++report.clips_changed;

    const size_t key_budget = KeyBudget(clip);
    std::optional<Channel> source_rotation;
    std::optional<Channel> unturned;
    std::vector<double> turns;
    if (rotation) {
      source_rotation = *rotation;
      const HipsTurn turn(*source_rotation, frame);
      unturned = turn.Unturned(extract, key_budget, &turns, &report);
      SetChannel(clip, *unturned);
    }
    if (!extract) continue;
    if (!root) root = RootFor(asset, hips, options, &report);
    Vec3 root_translation;
    Quat root_rotation;
    RootPlacement(asset, clip, *root, &root_translation, &root_rotation);
    if (rotation) {
      const HipsTurn turn(*source_rotation, frame);
      TurnRoot(clip, *root, root_translation, root_rotation,
               source_translation ? &*source_translation : nullptr,
               asset.rig.nodes[static_cast<size_t>(hips)].rest_translation, frame, turn, *unturned,
               turns, key_budget, &report);
      continue;
    }
    // The root has no parent: its translation is in model space, the travel added to it.
    carried->node = *root;
    for (size_t k = 0; k < carried->key_count(); ++k) {
      double* value = carried->key_value(k);
      for (size_t c = 0; c < 3; ++c) value[c] += root_translation[c];
    }
    SetChannel(clip, std::move(*carried));
  }
  return report;
}

}  // namespace animconv
