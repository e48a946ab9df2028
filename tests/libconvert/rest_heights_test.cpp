// RestMeasures (libconvert/rest_heights.h): the hips height, leg length and leg height that size
// a rig for the hips translation, measured on the rest pose with its posed limbs in the T-pose,
// once for retargeting and diff alike.
#include "libconvert/rest_heights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "animconv/humanoid_pose.h"
#include "animconv/rest_pose.h"

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<HumanBone> Legs() {
  return {HumanBone::kHips,          HumanBone::kSpine,         HumanBone::kHead,
          HumanBone::kLeftUpperLeg,  HumanBone::kRightUpperLeg, HumanBone::kLeftLowerLeg,
          HumanBone::kRightLowerLeg, HumanBone::kLeftFoot,      HumanBone::kRightFoot};
}

Node& NodeOf(Rig& rig, HumanBone bone) {
  return rig.nodes[static_cast<size_t>(HumanBoneNode(rig, bone))];
}

// A rig drawn in the T-pose measures its rest pose as it is, to the bit: retargets between such
// rigs scale the hips as before the alignment.
TEST(RestHeightsTest, ATPoseIsMeasuredAsItStands) {
  const Rig rig = MakeHumanoidTPoseRig(Legs(), Facing::kPlusZ);
  const RestPose rest(rig);
  const RestMeasures measures(rig);
  for (const HumanBone bone : Legs()) {
    EXPECT_EQ(*measures.Position(bone), rest.WorldPosition(HumanBoneNode(rig, bone)));
  }
  EXPECT_FALSE(measures.Position(HumanBone::kLeftToes));
  double floor = 1;
  EXPECT_EQ(measures.HipsHeight(&floor),
            rest.WorldPosition(HumanBoneNode(rig, HumanBone::kHips))[1]);
  EXPECT_EQ(floor, 0);  // the feet stand above the origin
  const double ankle = rest.WorldPosition(HumanBoneNode(rig, HumanBone::kLeftFoot))[1];
  EXPECT_DOUBLE_EQ(measures.LegHeight(), measures.HipsHeight() - ankle);
  ASSERT_TRUE(measures.LegLength());
  EXPECT_NEAR(*measures.LegLength(), HumanoidTPosePosition(HumanBone::kLeftUpperLeg)[1] - ankle,
              1e-12);
}

// Legs splayed 20 degrees at rest (CMU's skeleton) and the rig drawn around its hips: the feet,
// where the straightened legs put them, are the floor. The leg length does not change with the
// turn; the hips height above the ankles grows by 1 / cos 20 degrees.
TEST(RestHeightsTest, SplayedLegsAreMeasuredStraightened) {
  Rig rig = MakeHumanoidTPoseRig(Legs(), Facing::kPlusZ);
  NodeOf(rig, HumanBone::kHips).rest_translation = {0, 0, 0};
  const double half = 20 * kPi / 360;
  NodeOf(rig, HumanBone::kLeftUpperLeg).rest_rotation = {0, 0, std::sin(half), std::cos(half)};
  NodeOf(rig, HumanBone::kRightUpperLeg).rest_rotation = {0, 0, -std::sin(half), std::cos(half)};
  const Rig straight = [] {
    Rig r = MakeHumanoidTPoseRig(Legs(), Facing::kPlusZ);
    NodeOf(r, HumanBone::kHips).rest_translation = {0, 0, 0};
    return r;
  }();
  const RestMeasures splayed(rig);
  const RestMeasures measured_straight(straight);
  double floor = 0;
  EXPECT_NEAR(splayed.HipsHeight(&floor), measured_straight.HipsHeight(), 1e-12);
  EXPECT_LT(floor, -0.8);
  EXPECT_NEAR(splayed.LegHeight(), measured_straight.LegHeight(), 1e-12);
  EXPECT_NEAR(*splayed.LegLength(), *measured_straight.LegLength(), 1e-12);
  // The rest pose as drawn is shorter by the legs' cosine (the hips to hip joints drop is not
  // turned): the old measure, which scaled the hips translation 5 % too far.
  const RestPose rest(rig);
  const double drawn = rest.WorldPosition(HumanBoneNode(rig, HumanBone::kHips))[1] -
                       rest.WorldPosition(HumanBoneNode(rig, HumanBone::kLeftFoot))[1];
  const double drop = HumanoidTPosePosition(HumanBone::kHips)[1] -
                      HumanoidTPosePosition(HumanBone::kLeftUpperLeg)[1];
  EXPECT_NEAR(drawn, drop + *splayed.LegLength() * std::cos(20 * kPi / 180), 1e-12);
}

// A VRM rig is measured from the origin whatever its feet do (three-vrm's restHipsPosition.y);
// a rig without a rest pose on the generated T-pose.
TEST(RestHeightsTest, VrmRigsFromTheOriginAndRigsWithoutARestPoseOnTheTPose) {
  Rig rig = MakeHumanoidTPoseRig(Legs(), Facing::kPlusZ);
  NodeOf(rig, HumanBone::kHips).rest_translation = {0, 0.3, 0};  // feet below the origin
  rig.vrm_humanoid = true;
  double floor = 1;
  EXPECT_NEAR(RestMeasures(rig).HipsHeight(&floor), 0.3, 1e-12);
  EXPECT_EQ(floor, 0);
  rig.vrm_humanoid = false;
  EXPECT_GT(RestMeasures(rig).HipsHeight(&floor), 0.3);
  EXPECT_LT(floor, 0);
  Rig none = MakeHumanoidTPoseRig(Legs(), Facing::kPlusZ);
  none.rest_pose_known = false;
  EXPECT_EQ(*RestMeasures(none).Position(HumanBone::kLeftFoot),
            HumanoidTPosePosition(HumanBone::kLeftFoot));
  EXPECT_EQ(RestMeasures(none).HipsHeight(), HumanoidTPosePosition(HumanBone::kHips)[1]);
}

}  // namespace
}  // namespace animconv
