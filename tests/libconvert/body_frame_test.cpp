// BodyFrame and AxisTurn (libconvert/body_frame.h): which way a rig stands, and retargeting and
// diff between rigs that stand differently (docs/retargeting.md, "Up and facing"). Before body
// frames only the ±Z facings were turned: a BVH drawn Z-up played lying on its back, and one
// facing +X a quarter turn off, with exit 0 and a diff of 0 (session 36).
#include "libconvert/body_frame.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "animconv/clip_diff.h"
#include "animconv/ground.h"
#include "animconv/humanoid_pose.h"
#include "animconv/quaternion.h"
#include "animconv/retarget.h"
#include "libconvert/rest_heights.h"
#include "pose_test_support.h"

namespace animconv {
namespace {

std::vector<HumanBone> Body() { return testing::SeventeenBoneBody(); }

// The frames a rig can stand in: (left, up), forward = left × up.
struct Frame {
  const char* name;
  Vec3 left;
  Vec3 up;
};
const Frame kTurnedFrames[] = {
    {"Z-up, facing -Y (3ds Max, Blender)", {1, 0, 0}, {0, 0, 1}},
    {"Z-up, facing +Y", {-1, 0, 0}, {0, 0, 1}},
    {"facing +X", {0, 0, -1}, {0, 1, 0}},
    {"facing -X", {0, 0, 1}, {0, 1, 0}},
    {"X-up", {0, 0, 1}, {1, 0, 0}},
    {"upside down", {-1, 0, 0}, {0, -1, 0}},
};

// A clip turning every node at random (within about 40 degrees of its rest) and moving the hips,
// keyed at 0, 0.5 and 1 s.
Clip RandomClip(const Rig& rig, unsigned seed) {
  Clip clip = testing::RandomTurnsClip(rig, seed);
  std::mt19937 random(seed + 1000);
  std::normal_distribution<double> normal;
  Channel hips;
  hips.node = HumanBoneNode(rig, HumanBone::kHips);
  hips.path = Path::kTranslation;
  hips.width = 3;
  hips.times_seconds = {0, 0.5, 1};
  const Vec3 rest = rig.nodes[static_cast<size_t>(hips.node)].rest_translation;
  for (int k = 0; k < 3; ++k) {
    hips.values.insert(hips.values.end(), {rest[0] + 0.1 * normal(random),
                                           rest[1] + 0.05 * normal(random), rest[2] + 0.3 * k});
  }
  clip.channels.push_back(std::move(hips));
  return clip;
}

// `asset` drawn in another world: every offset and position turned by P, every rotation (rest
// and keyed) conjugated by it, as a BVH exported Z-up holds the same motion.
Asset Turned(Asset asset, const AxisTurn& turn) {
  for (Node& node : asset.rig.nodes) {
    node.rest_translation = turn.Apply(node.rest_translation);
    node.rest_rotation = turn.Apply(node.rest_rotation);
  }
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      for (size_t i = 0; i < channel.values.size(); i += channel.width) {
        double* v = &channel.values[i];
        if (channel.path == Path::kRotation) {
          const Quat q = turn.Apply(Quat{v[0], v[1], v[2], v[3]});
          std::copy(q.begin(), q.end(), v);
        } else {
          const Vec3 p = turn.Apply(Vec3{v[0], v[1], v[2]});
          std::copy(p.begin(), p.end(), v);
        }
      }
    }
  }
  return asset;
}

Asset Upright(unsigned seed) {
  Asset asset;
  asset.rig = MakeHumanoidTPoseRig(Body(), Facing::kPlusZ);
  asset.clips = {RandomClip(asset.rig, seed)};
  asset.coordinates = {Handedness::kRight, Facing::kPlusZ};
  return asset;
}

TEST(AxisTurnTest, TurnsExactlyAndComposes) {
  const AxisTurn identity;
  EXPECT_TRUE(identity.IsIdentity());
  const Vec3 v{0.1, -0.2, 0.3};
  const Quat q{0.1, 0.2, -0.3, 0.9};
  EXPECT_EQ(identity.Apply(v), v);
  EXPECT_EQ(identity.Apply(q), q);
  // The half turn about +Y negates x and z, bit for bit, as the ±Z facings always have.
  const AxisTurn half = AxisTurn::FromAxes({-1, 0, 0}, {0, 1, 0});
  EXPECT_EQ(half.Apply(v), (Vec3{-0.1, -0.2, -0.3}));
  EXPECT_EQ(half.Apply(q), (Quat{-0.1, 0.2, 0.3, 0.9}));
  EXPECT_EQ(half.Matrix(), (std::array<int, 9>{-1, 0, 0, 0, 1, 0, 0, 0, -1}));
  EXPECT_EQ(half.DescribeUpAndFacing(), "up +Y, facing -Z");
  // Z-up, facing -Y: +Y goes to +Z, +Z to -Y; a rotation about +Y becomes one about +Z.
  const AxisTurn z_up = AxisTurn::FromAxes({1, 0, 0}, {0, 0, 1});
  EXPECT_EQ(z_up.Apply(Vec3{0, 1, 0}), (Vec3{0, 0, 1}));
  EXPECT_EQ(z_up.Apply(Vec3{0, 0, 1}), (Vec3{0, -1, 0}));
  EXPECT_EQ(z_up.DescribeUpAndFacing(), "up +Z, facing -Y");
  EXPECT_FALSE(z_up.KeepsUp());
  for (const Frame& frame : kTurnedFrames) {
    SCOPED_TRACE(frame.name);
    const AxisTurn turn = AxisTurn::FromAxes(frame.left, frame.up);
    EXPECT_TRUE(turn.Inverse().After(turn).IsIdentity());
    EXPECT_TRUE(turn.After(turn.Inverse()).IsIdentity());
    // As a rotation it agrees with the quaternion product T·q·T⁻¹ and with the turned vector.
    const Vec3 turned = turn.Apply(v);
    const Vec3 rotated = Rotate(turn.Apply(q), turn.Apply(Vec3{1, 2, 3}));
    const Vec3 expected = turn.Apply(Rotate(q, Vec3{1, 2, 3}));
    for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(rotated[i], expected[i], 1e-12);
    EXPECT_NEAR(std::hypot(turned[0], turned[1], turned[2]), std::hypot(v[0], v[1], v[2]), 0);
    // Composition: B after A applies A first.
    const AxisTurn both = half.After(turn);
    EXPECT_EQ(both.Apply(v), half.Apply(turn.Apply(v)));
  }
}

// The rest pose decides where it shows a rig standing other than up +Y facing ±Z; otherwise the
// facing the caller gives does (measured by FacingFromRestPose where the rest shows it, else the
// format's or --source-facing's), so the ±Z cases turn as they always have.
TEST(BodyFrameTest, TheRestPoseDecidesOnlyWhereAFacingCannotSayIt) {
  const Rig upright = MakeHumanoidTPoseRig(Body(), Facing::kPlusZ);
  bool measured = true;
  EXPECT_TRUE(BodyFrame(upright, Facing::kPlusZ, &measured).IsIdentity());
  EXPECT_FALSE(measured);
  EXPECT_EQ(BodyFrame(upright, Facing::kMinusZ, &measured),
            AxisTurn::FromAxes({-1, 0, 0}, {0, 1, 0}));
  EXPECT_FALSE(measured);
  EXPECT_TRUE(BodyFrame(upright, Facing::kUnknown, &measured).IsIdentity());
  EXPECT_TRUE(measured);
  Rig restless = upright;
  restless.rest_pose_known = false;
  EXPECT_TRUE(BodyFrame(restless, Facing::kUnknown, &measured).IsIdentity());
  EXPECT_FALSE(measured);
  for (const Frame& frame : kTurnedFrames) {
    SCOPED_TRACE(frame.name);
    const AxisTurn turn = AxisTurn::FromAxes(frame.left, frame.up);
    const Asset turned = Turned(Upright(1), turn);
    for (const Facing facing : {Facing::kPlusZ, Facing::kMinusZ, Facing::kUnknown}) {
      if (turn.KeepsUpAndFacingZ()) continue;
      EXPECT_EQ(BodyFrame(turned.rig, facing, &measured), turn);
      EXPECT_TRUE(measured);
    }
    const std::optional<BodyAxes> axes = RestBodyAxes(turned.rig);
    ASSERT_TRUE(axes);
    EXPECT_EQ(axes->up, frame.up);
  }
}

// The review of session 36: the same clip drawn in another world retargets onto an upright +Z rig
// as the upright clip does (every rotation and the hips' positions within 1e-12), with a note; and
// diff, between the turned source and the upright one, finds nothing. Before, the Z-up source's
// motion was applied about the wrong axes (the body lying on its back) with exit 0.
TEST(BodyFrameTest, ARigStandingOtherwiseRetargetsAsTheUprightOne) {
  const Asset upright = Upright(7);
  const Rig target = MakeHumanoidTPoseRig(Body(), Facing::kPlusZ);
  const Clip expected = RetargetClips(upright, target, Facing::kPlusZ, {}, nullptr)[0];
  for (const Frame& frame : kTurnedFrames) {
    SCOPED_TRACE(frame.name);
    const AxisTurn turn = AxisTurn::FromAxes(frame.left, frame.up);
    Asset turned = Turned(upright, turn);
    turned.coordinates.facing = Facing::kPlusZ;  // what a glTF declares, whatever its rig does
    RetargetReport report;
    const Clip got = RetargetClips(turned, target, Facing::kPlusZ, {}, &report)[0];
    ASSERT_EQ(got.channels.size(), expected.channels.size());
    for (size_t c = 0; c < got.channels.size(); ++c) {
      const Channel& a = got.channels[c];
      const Channel& b = expected.channels[c];
      ASSERT_EQ(a.node, b.node);
      ASSERT_EQ(a.path, b.path);
      ASSERT_EQ(a.values.size(), b.values.size());
      for (size_t i = 0; i < a.values.size(); ++i) {
        EXPECT_NEAR(a.values[i], b.values[i], 1e-12) << c << " " << i;
      }
    }
    bool noted = false;
    for (const std::string& note : report.notes) {
      noted |= note.find("the input's rest pose stands " + turn.DescribeUpAndFacing()) !=
               std::string::npos;
    }
    EXPECT_TRUE(noted);
    // diff turns B's world into A's, in both orders.
    for (const bool turned_first : {true, false}) {
      const Asset& a = turned_first ? turned : upright;
      const Asset& b = turned_first ? upright : turned;
      const ClipDiff diff = DiffClips(a, a.clips[0], b, b.clips[0], {});
      EXPECT_EQ(diff.space, DiffSpace::kWorld);
      EXPECT_TRUE(diff.turn_b);
      const AxisTurn b_to_a = turned_first ? turn : turn.Inverse();
      EXPECT_EQ(diff.turn_b_matrix, b_to_a.Matrix());
      for (const ChannelDiff& channel : diff.channels) EXPECT_LT(channel.max, 1e-9) << channel.node;
    }
  }
}

// A rig facing between two world axes is turned by the nearer one, so its motion plays about
// axes that far off: more than 10 degrees is a warning with the angle, never only a note.
TEST(BodyFrameTest, ARigFacingBetweenAxesIsWarnedAbout) {
  const Rig target = MakeHumanoidTPoseRig(Body(), Facing::kPlusZ);
  for (const double degrees : {5.0, 30.0}) {
    Asset yawed = Upright(5);
    // The whole rig turned about +Y at its root (the hips).
    const double half = degrees * 3.14159265358979323846 / 360;
    Node& hips = yawed.rig.nodes[static_cast<size_t>(HumanBoneNode(yawed.rig, HumanBone::kHips))];
    hips.rest_rotation = {0, std::sin(half), 0, std::cos(half)};
    const std::optional<BodyAxes> axes = RestBodyAxes(yawed.rig);
    ASSERT_TRUE(axes);
    EXPECT_NEAR(LeftOffAxisDegrees(*axes), degrees, 1e-9);
    RetargetReport report;
    RetargetClips(yawed, target, Facing::kPlusZ, {}, &report);
    if (degrees < 10) {
      EXPECT_TRUE(report.warnings.empty());
    } else {
      ASSERT_EQ(report.warnings.size(), 1u);
      EXPECT_NE(report.warnings[0].find("the input's rest pose faces 30 deg off the nearest world "
                                        "axis"),
                std::string::npos)
          << report.warnings[0];
    }
  }
}

// A rig tilted as a whole (pitched 30 degrees about X: head and legs alike) is turned by its
// nearest up axis, so its motion plays about axes 30 degrees off: a warning, where there was none
// (review of session 36: 35 degrees and 1.16 m off with exit 0). A torso leaning over upright
// legs is the rig's own posture and is not warned about.
TEST(BodyFrameTest, ARigTiltedAsAWholeIsWarnedAbout) {
  const Rig target = MakeHumanoidTPoseRig(Body(), Facing::kPlusZ);
  const double half = 30 * 3.14159265358979323846 / 360;
  Asset pitched = Upright(5);
  pitched.rig.nodes[static_cast<size_t>(HumanBoneNode(pitched.rig, HumanBone::kHips))]
      .rest_rotation = {std::sin(half), 0, 0, std::cos(half)};
  RetargetReport report;
  RetargetClips(pitched, target, Facing::kPlusZ, {}, &report);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("the input's rest pose leans 30 deg off its up axis (+Y)"),
            std::string::npos)
      << report.warnings[0];
  Asset leaning = Upright(5);
  leaning.rig.nodes[static_cast<size_t>(HumanBoneNode(leaning.rig, HumanBone::kSpine))]
      .rest_rotation = {std::sin(half), 0, 0, std::cos(half)};
  RetargetReport upright_legs;
  RetargetClips(leaning, target, Facing::kPlusZ, {}, &upright_legs);
  EXPECT_TRUE(upright_legs.warnings.empty());
}

// Heights of the feet over a clip are taken along the rig's up (ClipPoser::Height): the checks
// for floating or sunken feet after a retarget onto a --skeleton model drawn Z-up measured its
// depth, and warned falsely (or not at all upside down; review of session 36).
TEST(BodyFrameTest, TheLowestFootPointIsMeasuredAlongTheRigsUp) {
  const Asset upright = Upright(9);
  const std::optional<LowestFootPoint> expected =
      MeasureLowestFootPoint(upright.rig, upright.clips[0]);
  ASSERT_TRUE(expected);
  for (const Frame& frame : kTurnedFrames) {
    SCOPED_TRACE(frame.name);
    const Asset turned = Turned(upright, AxisTurn::FromAxes(frame.left, frame.up));
    const std::optional<LowestFootPoint> got = MeasureLowestFootPoint(turned.rig, turned.clips[0]);
    ASSERT_TRUE(got);
    EXPECT_NEAR(got->metres, expected->metres, 1e-12);
    EXPECT_EQ(got->node, expected->node);
  }
}

// The hips height (and so the scale of the hips translation) is measured along the body's up: a
// rig drawn Z-up once measured its depth, about 0 m, and its hips translation went unscaled.
TEST(BodyFrameTest, HeightsAreMeasuredAlongTheBodysUp) {
  const Asset upright = Upright(3);
  const RestMeasures expected(upright.rig);
  for (const Frame& frame : kTurnedFrames) {
    SCOPED_TRACE(frame.name);
    const Asset turned = Turned(upright, AxisTurn::FromAxes(frame.left, frame.up));
    const RestMeasures measures(turned.rig);
    EXPECT_EQ(measures.HipsHeight(), expected.HipsHeight());
    EXPECT_EQ(measures.LegHeight(), expected.LegHeight());
    EXPECT_GT(measures.HipsHeight(), 0.5);
  }
}

}  // namespace
}  // namespace animconv
