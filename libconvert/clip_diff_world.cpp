// DiffClips across two different rigs: the local values of a bone whose rest frame (or whose
// parents' rest frames or scale) differ between the rigs hold the same motion as other numbers,
// so comparing them reports the rig, not the motion (a 0.01-scaled FBX armature's centimetres
// against a .vrma's metres, a rest rotation folded into every key). There the two clips are
// compared in model space (DiffSpace::kWorld, documented in clip_diff.h and docs/cli.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "animconv/error.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/resample.h"
#include "animconv/rest_pose.h"
#include "animconv/sample.h"
#include "libconvert/body_frame.h"
#include "libconvert/clip_diff_internal.h"
#include "libconvert/rest_heights.h"
#include "libconvert/rest_tpose.h"
#include "libconvert/value_error.h"

namespace animconv::diff_detail {
namespace {

// Rest frames closer than this are the same frame: float32 files round a rotation to ~1e-7 rad
// and a scale to ~1e-7 relative, so a rig read back from its own output agrees far within it.
constexpr double kSameAngleRadians = 1e-5;
constexpr double kSameScaleRatio = 1e-5;
// Rest positions closer than this times the larger distance from the origin (at least 1 m) are
// the same: float32 rounds a position to ~6e-8 of its size.
constexpr double kSamePositionRatio = 1e-5;

Vec3 ParentScale(const RestPose& rest, int node) {
  const Vec3 origin = rest.ParentToWorld(node, {0, 0, 0});
  Vec3 scale{};
  for (size_t axis = 0; axis < 3; ++axis) {
    Vec3 unit{0, 0, 0};
    unit[axis] = 1;
    const Vec3 p = rest.ParentToWorld(node, unit);
    scale[axis] = std::hypot(p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]);
  }
  return scale;
}

// Whether a local value of node `na` of A means something else on node `nb` of B: a different rest
// world rotation of the node or of its parent, or a different world scale of its parent; for a
// node with a translation channel (`translated`), also a different rest world position of its
// parent: the same local translation puts the node elsewhere in the model (a .vrma whose hips hang
// under a node moved by (0.5, 0, 2) plays its hips 2.06 m from the same numbers under none, as
// three-vrm-animation applies the hips parent's world matrix to the hips track).
bool RestFramesDiffer(const RestPose& rest_a, int na, const RestPose& rest_b, int nb,
                      bool translated) {
  if (translated) {
    const Vec3 origin_a = rest_a.ParentToWorld(na, {0, 0, 0});
    const Vec3 origin_b = rest_b.ParentToWorld(nb, {0, 0, 0});
    const double apart =
        std::hypot(origin_a[0] - origin_b[0], origin_a[1] - origin_b[1], origin_a[2] - origin_b[2]);
    const double size = std::max({1.0, std::hypot(origin_a[0], origin_a[1], origin_a[2]),
                                  std::hypot(origin_b[0], origin_b[1], origin_b[2])});
    if (apart > kSamePositionRatio * size) return true;
  }
  if (AngleBetween(Normalized(rest_a.WorldRotation(na)), Normalized(rest_b.WorldRotation(nb))) >
          kSameAngleRadians ||
      AngleBetween(Normalized(rest_a.ParentWorldRotation(na)),
                   Normalized(rest_b.ParentWorldRotation(nb))) > kSameAngleRadians) {
    return true;
  }
  const Vec3 scale_a = ParentScale(rest_a, na);
  const Vec3 scale_b = ParentScale(rest_b, nb);
  for (size_t axis = 0; axis < 3; ++axis) {
    if (std::abs(scale_a[axis] - scale_b[axis]) > kSameScaleRatio * std::abs(scale_a[axis])) {
      return true;
    }
  }
  return false;
}

// Whether node `n` sits in a frame other than the model's: a rest world rotation of it or of its
// parent, or a parent world scale other than 1.
bool FrameIsNotModels(const RestPose& rest, int n) {
  const Quat identity{0, 0, 0, 1};
  if (AngleBetween(Normalized(rest.WorldRotation(n)), identity) > kSameAngleRadians ||
      AngleBetween(Normalized(rest.ParentWorldRotation(n)), identity) > kSameAngleRadians) {
    return true;
  }
  const Vec3 scale = ParentScale(rest, n);
  return std::any_of(scale.begin(), scale.end(),
                     [](double s) { return std::abs(s - 1) > kSameScaleRatio; });
}

Vec3 Position(const glm::dmat4& world) { return {world[3][0], world[3][1], world[3][2]}; }

// The world scale as three.js's Matrix4.decompose gives it (getWorldScale): the lengths of the
// axes, x negative where the matrix mirrors (negative determinant). Lengths alone lost the
// mirror: a node scaled (-1, 1, 1) compared as unscaled.
Vec3 WorldScale(const glm::dmat4& world) {
  Vec3 scale{};
  for (glm::length_t axis = 0; axis < 3; ++axis) {
    scale[static_cast<size_t>(axis)] = std::hypot(world[axis][0], world[axis][1], world[axis][2]);
  }
  if (glm::determinant(glm::dmat3(world)) < 0) scale[0] = -scale[0];
  return scale;
}

// The signs of a chain of scales, per axis (+1 or -1).
using Signs = std::array<int, 3>;

// D R D for the diagonal D of `signs`: the rotation R seen through those mirrors (its axis
// mirrored as an axial vector, det(D) D v; the angle kept).
Quat MirroredBy(const Signs& signs, const Quat& q) {
  const int det = signs[0] * signs[1] * signs[2];
  return {det * signs[0] * q[0], det * signs[1] * q[1], det * signs[2] * q[2], q[3]};
}

// The rotation left of the mirrors `signs` once a mirroring chain's x sign is taken as a negative
// x scale (three.js's decompose): none, or a half turn about the one axis whose sign stays.
Quat HalfTurnOf(Signs signs) {
  if (signs[0] * signs[1] * signs[2] < 0) signs[0] = -signs[0];
  if (signs[0] > 0 && signs[1] > 0) return {0, 0, 0, 1};
  if (signs[0] > 0) return {1, 0, 0, 0};
  if (signs[1] > 0) return {0, 1, 0, 0};
  return {0, 0, 1, 0};
}

// The world rotation of node `n` relative to its orientation in the T-pose, W(t)·W_rest⁻¹·S⁻¹
// with S its swing from rest to the T-pose (identity for -1, a root's parent): the motion
// retargeting moves between rigs, so a rig whose rest holds its arms down and one drawn in a
// T-pose compare by where the limbs point (docs/retargeting.md, "Rest poses").
Quat FromTPose(const std::vector<Quat>& now, const std::vector<Quat>& rest, const TPoseSwing& swing,
               int n) {
  if (n < 0) return {0, 0, 0, 1};
  const size_t node = static_cast<size_t>(n);
  const Quat relative = Multiply(now[node], Conjugate(rest[node]));
  return swing.swung[node] ? Multiply(relative, Conjugate(swing.world[node])) : relative;
}

// The world scale of node `n` relative to its rest world scale ({1, 1, 1} for -1).
Vec3 RelativeScale(const std::vector<glm::dmat4>& now, const std::vector<glm::dmat4>& rest, int n) {
  Vec3 scale{1, 1, 1};
  if (n < 0) return scale;
  const Vec3 at = WorldScale(now[static_cast<size_t>(n)]);
  const Vec3 base = WorldScale(rest[static_cast<size_t>(n)]);
  for (size_t i = 0; i < 3; ++i) scale[i] = base[i] != 0 ? at[i] / base[i] : at[i];
  return scale;
}

// Where node `n` of `rig` would be with its rest translation under its parent as posed in
// `world`, times `scale`.
Vec3 RestUnder(const Rig& rig, const std::vector<glm::dmat4>& world, int n, double scale) {
  if (n < 0) return {0, 0, 0};
  const Node& node = rig.nodes[static_cast<size_t>(n)];
  const Vec3& t = node.rest_translation;
  glm::dvec4 p(t[0], t[1], t[2], 1);
  if (node.parent >= 0) p = world[static_cast<size_t>(node.parent)] * p;
  return {p[0] * scale, p[1] * scale, p[2] * scale};
}

}  // namespace

Poser::Poser(const Rig& skeleton, const Rig& clip_rig, const Clip& clip)
    : skeleton_(skeleton), channels_(skeleton.nodes.size(), std::array<int, 3>{-1, -1, -1}) {
  for (const Channel& channel : clip.channels) {
    // Weights, and a VRMA's expression and lookAt nodes (values, not poses), move no node.
    if (channel.path == Path::kWeights ||
        clip_rig.nodes[static_cast<size_t>(channel.node)].vrma_role) {
      continue;
    }
    const int node =
        &clip_rig == &skeleton ? channel.node : MatchNode(skeleton, clip_rig, channel.node);
    if (node < 0) continue;
    int& slot = channels_[static_cast<size_t>(node)][static_cast<size_t>(channel.path)];
    if (slot < 0) {
      slot = static_cast<int>(prepared_.size());
      prepared_.push_back(Renormalized(channel));
    }
  }
  // Parents may follow children in the node list: order by depth so parents come first.
  std::vector<int> depth(skeleton.nodes.size(), 0);
  for (size_t n = 0; n < skeleton.nodes.size(); ++n) {
    for (int p = skeleton.nodes[n].parent; p >= 0;
         p = skeleton.nodes[static_cast<size_t>(p)].parent) {
      ++depth[n];
    }
    order_.push_back(n);
  }
  std::stable_sort(order_.begin(), order_.end(),
                   [&](size_t x, size_t y) { return depth[x] < depth[y]; });
}

std::vector<glm::dmat4> Poser::PoseAt(double seconds, std::vector<Quat>* rotations,
                                      bool before) const {
  const auto evaluate = before ? EvaluateChannelBefore : EvaluateChannel;
  std::vector<glm::dmat4> world(skeleton_.nodes.size());
  if (rotations) rotations->assign(skeleton_.nodes.size(), Quat{0, 0, 0, 1});
  std::vector<Quat> chain(rotations ? skeleton_.nodes.size() : 0);
  std::vector<Signs> signs(rotations ? skeleton_.nodes.size() : 0);
  for (const size_t n : order_) {
    const Node& node = skeleton_.nodes[n];
    Vec3 translation = node.rest_translation;
    Quat rotation = Normalized(node.rest_rotation);
    Vec3 scale = node.rest_scale;
    const auto& slots = channels_[n];
    if (slots[0] >= 0) evaluate(prepared_[slots[0]], seconds, translation.data());
    if (slots[1] >= 0) {
      evaluate(prepared_[slots[1]], seconds, rotation.data());
      rotation = Normalized(rotation);
    }
    if (slots[2] >= 0) evaluate(prepared_[slots[2]], seconds, scale.data());
    const glm::dmat4 local = TrsMatrix(translation, rotation, scale);
    const size_t parent = static_cast<size_t>(node.parent);
    world[n] = node.parent < 0 ? local : world[parent] * local;
    if (rotations) {
      // The mirrors of the scales above (each axis's sign) move past this rotation to the right,
      // which turns it into D R D (D the diagonal of signs: a rotation again), so the chain is
      // R' D with R' a rotation; D's x sign is dropped where the chain mirrors (det D < 0), as
      // three.js's decompose takes a mirror as a negative x scale, and what is left of D (a half
      // turn, or nothing) is part of the world rotation.
      const Signs& above = node.parent < 0 ? Signs{1, 1, 1} : signs[parent];
      const Quat turned = MirroredBy(above, rotation);
      chain[n] = node.parent < 0 ? turned : Multiply(chain[parent], turned);
      for (size_t i = 0; i < 3; ++i) signs[n][i] = above[i] * (scale[i] < 0 ? -1 : 1);
      (*rotations)[n] = Multiply(chain[n], HalfTurnOf(signs[n]));
    }
  }
  return world;
}

bool ComparedAsValues(const Asset& a, const Asset& b, const ChannelPair& pair) {
  if ((pair.a ? *pair.a : *pair.b).path == Path::kWeights) return true;
  return (pair.node_a >= 0 && a.rig.nodes[static_cast<size_t>(pair.node_a)].vrma_role) ||
         (pair.node_b >= 0 && b.rig.nodes[static_cast<size_t>(pair.node_b)].vrma_role);
}

SpaceChoice ChooseSpace(const Asset& a, const Asset& b, const std::vector<ChannelPair>& pairs,
                        DiffSpace requested) {
  SpaceChoice choice;
  if (requested == DiffSpace::kLocal) {
    choice.reason = "--space local";
    return choice;
  }
  const RestPose rest_a(a.rig);
  const RestPose rest_b(b.rig);
  std::set<std::pair<int, int>> seen;
  size_t differing = 0;
  std::string first;
  size_t unknown = 0;  // pairs that may differ, with a rig that has no rest pose
  std::string first_unknown;
  bool translations = false;
  std::set<std::pair<int, int>> translated;  // node pairs with a translation channel on a side
  for (const ChannelPair& pair : pairs) {
    if ((pair.a ? *pair.a : *pair.b).path == Path::kTranslation) {
      translated.insert({pair.node_a, pair.node_b});
    }
  }
  for (const ChannelPair& pair : pairs) {
    const Channel& any = pair.a ? *pair.a : *pair.b;
    if (ComparedAsValues(a, b, pair)) continue;
    translations |= any.path == Path::kTranslation;
    if (pair.node_a < 0 || pair.node_b < 0 || !seen.insert({pair.node_a, pair.node_b}).second) {
      continue;
    }
    const std::string& name = a.rig.nodes[static_cast<size_t>(pair.node_a)].name;
    if (!a.rig.rest_pose_known || !b.rig.rest_pose_known) {
      // A clip without a rest pose (a three.js clip, a Unity CSV) holds local values for whatever
      // rig plays it: of the same-named node (also as three.js sanitises names or names an
      // unnamed node's object, MatchedByName), they are that node's local values (a three.js
      // clip of this glTF). Matched by humanoid bone only, they are another rig's, which compare
      // only where the other rig's frames are the model's.
      if (MatchedByName(a.rig, pair.node_a, b.rig, pair.node_b)) continue;
      const bool a_known = a.rig.rest_pose_known;
      if (!a_known && !b.rig.rest_pose_known) continue;
      if (FrameIsNotModels(a_known ? rest_a : rest_b, a_known ? pair.node_a : pair.node_b)) {
        if (unknown++ == 0) first_unknown = name;
      }
      continue;
    }
    if (RestFramesDiffer(rest_a, pair.node_a, rest_b, pair.node_b,
                         translated.count({pair.node_a, pair.node_b}) > 0)) {
      if (differing++ == 0) first = name;
    }
  }
  if (unknown > 0) {
    ThrowUsage(fmt::format(
        "cannot compare the clips: {} has no rest pose, and {} of its nodes match the other "
        "rig's by humanoid bone only where that rig's rest frames are not the model's (first: "
        "'{}'), so neither their local values nor their world motion are known to mean the same; "
        "--space local compares the local values as they are",
        a.rig.rest_pose_known ? "B" : "A", unknown, first_unknown));
  }
  std::vector<std::string> reasons;
  if (differing > 0) {
    reasons.push_back(fmt::format("rest poses differ at {} of {} compared nodes (first: '{}')",
                                  differing, seen.size(), first));
  }
  // Hips heights only mean a size when both rigs know their rest pose.
  const int hips_a = HumanBoneNode(a.rig, HumanBone::kHips);
  const int hips_b = HumanBoneNode(b.rig, HumanBone::kHips);
  if (translations && hips_a >= 0 && hips_b >= 0 && a.rig.rest_pose_known &&
      b.rig.rest_pose_known) {
    // Measured as retargeting measures them (RestMeasures): the limbs in the T-pose.
    const RestMeasures measures_a(a.rig);
    const RestMeasures measures_b(b.rig);
    const double height_a = measures_a.HipsHeight();
    const double height_b = measures_b.HipsHeight();
    // The same skeleton drawn standing on the origin and drawn around its hips is one size: its
    // hips heights above the floor differ by the feet's height above the origin, its leg
    // heights do not.
    const double legs_a = measures_a.LegHeight();
    const double legs_b = measures_b.LegHeight();
    // Two VRM rigs are scaled by their hips heights from the origin whatever their legs, as
    // three-vrm scales a VRMA's hips translation.
    const bool both_vrm = a.rig.vrm_humanoid && b.rig.vrm_humanoid;
    const bool same_legs = !both_vrm && legs_a > 1e-3 && legs_b > 1e-3 &&
                           std::abs(legs_a / legs_b - 1) <= kSameScaleRatio;
    if (!same_legs && height_a > 1e-3 && height_b > 1e-3 &&
        std::abs(height_a / height_b - 1) > kSameScaleRatio) {
      choice.translation_scale = height_a / height_b;
      reasons.push_back(fmt::format(
          "rest hips heights differ (A {:.4g} m, B {:.4g} m): B's positions scaled by {:.6g}, as "
          "retargeting and VRMA players scale the hips translation",
          height_a, height_b, choice.translation_scale));
    }
  }
  // Only rigs with rest poses are turned, each by its body frame measured on its own rest pose
  // (BodyFrame: where the left limbs are, and which way is up): a format's declared facing can be
  // a convention, not the rig's (a glTF says its front is +Z, glTF 2.0 §3.4, yet a glTF of a Unity
  // CSV's T-pose faces -Z; a BVH drawn Z-up says nothing), and a clip without a rest pose has no
  // world frame to turn (its values are compared as they are, above).
  // A rig whose rest pose shows neither (no hips, no left/right pair) is not turned.
  const auto frame_of = [](const Asset& asset) -> std::optional<AxisTurn> {
    if (!asset.rig.rest_pose_known) return std::nullopt;
    const Facing facing = FacingFromRestPose(asset.rig, asset.coordinates.handedness);
    bool measured = false;
    const AxisTurn frame = BodyFrame(asset.rig, facing, &measured);
    if (facing == Facing::kUnknown && !measured) return std::nullopt;
    return frame;
  };
  const std::optional<AxisTurn> frame_a = frame_of(a);
  const std::optional<AxisTurn> frame_b = frame_of(b);
  if (frame_a && frame_b) choice.turn_b = frame_a->After(frame_b->Inverse());
  if (!choice.turn_b.IsIdentity()) {
    reasons.push_back(
        fmt::format("the rigs stand differently (A {}, B {}): B's world turned into A's",
                    frame_a->DescribeUpAndFacing(), frame_b->DescribeUpAndFacing()));
  }
  if (reasons.empty()) {
    if (requested == DiffSpace::kWorld) {
      choice.space = DiffSpace::kWorld;
      choice.reason = "--space world";
    } else {
      choice.reason = "the rigs' rest frames agree at every compared node";
    }
    return choice;
  }
  choice.reason = fmt::format("{}", fmt::join(reasons, "; "));
  choice.space = DiffSpace::kWorld;
  return choice;
}

void MeasureWorld(const Asset& a, const Clip& ca, const Asset& b, const Clip& cb,
                  const std::vector<ChannelPair>& pairs, const DiffOptions& options,
                  const SpaceChoice& space, std::vector<ChannelDiff>* out,
                  std::map<std::string, std::vector<double>>* unit_errors, size_t* adaptive) {
  // A node's world value moves with every ancestor's channels: every pair is sampled at the keys
  // of every transform channel of both clips.
  std::vector<double> key_times;
  std::vector<const Channel*> channels;
  for (const Clip* clip : {&ca, &cb}) {
    for (const Channel& channel : clip->channels) {
      if (channel.path == Path::kWeights) continue;
      key_times.insert(key_times.end(), channel.times_seconds.begin(), channel.times_seconds.end());
      channels.push_back(&channel);
    }
  }
  const std::vector<double> times =
      AdaptiveTimes(SampleTimes(std::move(key_times), options.samples_between_keys), channels,
                    options.cubic_chord_fraction, adaptive);
  const Poser pose_a(a.rig, a.rig, ca);
  const Poser pose_b(b.rig, b.rig, cb);
  const Clip none;
  std::vector<Quat> rest_rotation_a;
  std::vector<Quat> rest_rotation_b;
  const std::vector<glm::dmat4> rest_a = Poser(a.rig, a.rig, none).PoseAt(0, &rest_rotation_a);
  const std::vector<glm::dmat4> rest_b = Poser(b.rig, b.rig, none).PoseAt(0, &rest_rotation_b);
  const TPoseSwing swing_a = SwingToTPose(a.rig, kPosedLimbDegrees);
  const TPoseSwing swing_b = SwingToTPose(b.rig, kPosedLimbDegrees);

  const double translation_scale = space.translation_scale;
  // B's values in A's frame (SpaceChoice::turn_b).
  const auto turn_rotation = [&](const Quat& q) { return space.turn_b.Apply(q); };
  const auto turn_position = [&](const Vec3& p) { return space.turn_b.Apply(p); };
  out->assign(pairs.size(), ChannelDiff{});
  std::vector<std::vector<double>> errors(pairs.size());
  // The error of pair `p` in the poses given.
  const auto pair_error = [&](size_t p, const std::vector<glm::dmat4>& world_a,
                              const std::vector<Quat>& rotation_a,
                              const std::vector<glm::dmat4>& world_b,
                              const std::vector<Quat>& rotation_b) {
    const ChannelPair& pair = pairs[p];
    const Path path = (pair.a ? *pair.a : *pair.b).path;
    const int na = pair.node_a;
    const int nb = pair.node_b;
    // A side without the node: the other rig's node held at its rest local value under its
    // animated parent, so only the node's own motion counts (as a local comparison against the
    // rest value would), not the whole chain above it.
    const int parent_a = na >= 0 ? a.rig.nodes[static_cast<size_t>(na)].parent : -1;
    const int parent_b = nb >= 0 ? b.rig.nodes[static_cast<size_t>(nb)].parent : -1;
    if (path == Path::kRotation) {
      // From the T-pose: the rotation the motion adds to the rest pose in model space (then
      // to the T-pose where the rest holds a limb away from it), which rigs with other rest
      // frames share.
      const Quat qa =
          na >= 0 ? FromTPose(rotation_a, rest_rotation_a, swing_a, na)
                  : turn_rotation(FromTPose(rotation_b, rest_rotation_b, swing_b, parent_b));
      const Quat qb = nb >= 0 ? turn_rotation(FromTPose(rotation_b, rest_rotation_b, swing_b, nb))
                              : FromTPose(rotation_a, rest_rotation_a, swing_a, parent_a);
      // ValueError, as DiffError measures local values (degrees for rotations).
      return ValueError(path, Normalized(qa).data(), 4, Normalized(qb).data(), 4) *
             kDegreesPerRadian;
    }
    if (path == Path::kTranslation) {
      Vec3 pa = na >= 0 ? Position(world_a[static_cast<size_t>(na)])
                        : turn_position(RestUnder(b.rig, world_b, nb, translation_scale));
      // B's positions (whichever of its nodes gives them) carry the hips-height scale.
      Vec3 pb =
          nb >= 0 ? Position(world_b[static_cast<size_t>(nb)]) : RestUnder(a.rig, world_a, na, 1);
      if (nb >= 0) {
        for (double& x : pb) x *= translation_scale;
        pb = turn_position(pb);
      }
      return ValueError(path, pa.data(), 3, pb.data(), 3);
    }
    // World scale relative to rest, so a parent's constant scale is no error.
    const Vec3 sa =
        na >= 0 ? RelativeScale(world_a, rest_a, na) : RelativeScale(world_b, rest_b, parent_b);
    const Vec3 sb =
        nb >= 0 ? RelativeScale(world_b, rest_b, nb) : RelativeScale(world_a, rest_a, parent_a);
    return ValueError(path, sa.data(), 3, sb.data(), 3);
  };
  // Where a step channel jumps, the poses just before count too (their left limits).
  const std::vector<double> jumps = JumpTimes(channels);
  std::vector<Quat> rotation_a;
  std::vector<Quat> rotation_b;
  for (const double t : times) {
    const bool jump = IsJump(jumps, t);
    for (const bool before : {false, true}) {
      if (before && !jump) continue;
      const std::vector<glm::dmat4> world_a = pose_a.PoseAt(t, &rotation_a, before);
      const std::vector<glm::dmat4> world_b = pose_b.PoseAt(t, &rotation_b, before);
      for (size_t p = 0; p < pairs.size(); ++p) {
        if (ComparedAsValues(a, b, pairs[p])) continue;
        const double error = pair_error(p, world_a, rotation_a, world_b, rotation_b);
        if (before) {
          errors[p].back() = std::max(errors[p].back(), error);
        } else {
          errors[p].push_back(error);
        }
      }
    }
  }
  for (size_t p = 0; p < pairs.size(); ++p) {
    const Path path = (pairs[p].a ? *pairs[p].a : *pairs[p].b).path;
    if (ComparedAsValues(a, b, pairs[p])) continue;
    ChannelDiff& channel = (*out)[p];
    SetFromErrors(times, errors[p], &channel);
    std::vector<double>& all = (*unit_errors)[PrintedUnit(path)];
    all.insert(all.end(), errors[p].begin(), errors[p].end());
  }
}

}  // namespace animconv::diff_detail
