// `animconv convert --root-motion` and `--ground` through the real binary: the option's values,
// what it refuses, and what it tells (docs/root_motion.md). The motion itself is checked in
// three.js (tests/interop check_root_motion.mjs) and by tests/libconvert/root_motion_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace animconv {
namespace {

using testing::Has;
using testing::RunAnimconv;
using testing::SourcePath;
using testing::TempDir;

std::string CmuWalk() { return SourcePath("data/bvh/cmu_walk.bvh"); }

TEST(RootMotionOptionTest, InPlaceAndExtractSayWhatTheyDid) {
  TempDir dir;
  const auto in_place =
      RunAnimconv("convert " + CmuWalk() + " --root-motion in-place -o " + dir.File("a.glb"));
  EXPECT_EQ(in_place.exit_code, 0) << in_place.output;
  EXPECT_TRUE(Has(in_place.output, "--root-motion in-place: the hips' travel over the ground"))
      << in_place.output;
  EXPECT_TRUE(Has(in_place.output, "removed in 1 clip(s)")) << in_place.output;
  const auto extract =
      RunAnimconv("convert " + CmuWalk() + " --root-motion extract -o " + dir.File("b.glb"));
  EXPECT_EQ(extract.exit_code, 0) << extract.output;
  EXPECT_TRUE(Has(extract.output, "moved to a new root node 'root' above the hips"))
      << extract.output;
  // keep is the default and changes nothing.
  const auto keep =
      RunAnimconv("convert " + CmuWalk() + " --root-motion keep -o " + dir.File("c.glb"));
  const auto plain = RunAnimconv("convert " + CmuWalk() + " -o " + dir.File("d.glb"));
  ASSERT_EQ(keep.exit_code, 0) << keep.output;
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(testing::ReadText(dir.File("c.glb")), testing::ReadText(dir.File("d.glb")));
}

TEST(RootMotionOptionTest, RefusesAnUnknownModeAndExtractToVrmaWritingNothing) {
  TempDir dir;
  const auto unknown =
      RunAnimconv("convert " + CmuWalk() + " --root-motion sideways -o " + dir.File("a.glb"));
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_TRUE(Has(unknown.output, "--root-motion must be keep, in-place or extract"))
      << unknown.output;
  const auto vrma =
      RunAnimconv("convert " + CmuWalk() + " --root-motion extract -o " + dir.File("a.vrma"));
  EXPECT_EQ(vrma.exit_code, 1) << vrma.output;
  EXPECT_TRUE(Has(vrma.output, "--root-motion in-place removes it")) << vrma.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("a.vrma")));
  // in-place onto a .vrma is what its players want.
  const auto in_place =
      RunAnimconv("convert " + CmuWalk() + " --root-motion in-place -o " + dir.File("b.vrma"));
  EXPECT_EQ(in_place.exit_code, 0) << in_place.output;
}

TEST(RootMotionOptionTest, RootYawSaysWhatItDidAndNeedsRootMotion) {
  TempDir dir;
  const auto alone = RunAnimconv("convert " + CmuWalk() + " --root-yaw -o " + dir.File("a.glb"));
  EXPECT_EQ(alone.exit_code, 1) << alone.output;
  EXPECT_TRUE(Has(alone.output, "--root-yaw needs --root-motion in-place or extract"))
      << alone.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("a.glb")));
  for (const std::string mode : {"in-place", "extract"}) {
    const auto turned = RunAnimconv("convert " + CmuWalk() + " --root-motion " + mode +
                                    " --root-yaw -o " + dir.File(mode + ".glb"));
    EXPECT_EQ(turned.exit_code, 0) << turned.output;
    EXPECT_TRUE(Has(turned.output, "--root-yaw: the hips' turn about +Y (up to ")) << turned.output;
    EXPECT_TRUE(Has(turned.output, mode == "extract" ? "moved to the root"
                                                     : "removed, the clip keeps its first heading"))
        << turned.output;
    EXPECT_FALSE(Has(turned.output, "warning")) << turned.output;
  }
}

// --hips-scale (docs/retargeting.md, "Hips translation"): onto data/gltf's walk.glb rig the CMU
// walk's hips translation is scaled by the rest hips heights (0.17 m -> 0.95 m) or leg lengths
// (0.147 m -> 0.82 m), and a note gives the lowest foot point before and after. (The walk's legs
// splay 20 degrees at rest and play so on the target since rest poses are aligned to the T-pose:
// the feet figures moved with that, docs/retargeting.md "Rest poses".)
TEST(RootMotionOptionTest, HipsScaleSaysWhatItScaledByAndWhereTheFeetAre) {
  TempDir dir;
  const std::string onto = " --skeleton " + SourcePath("data/gltf/walk.glb");
  const auto legs =
      RunAnimconv("convert " + CmuWalk() + onto + " --hips-scale leg -o " + dir.File("legs.glb"));
  EXPECT_EQ(legs.exit_code, 0) << legs.output;
  EXPECT_TRUE(
      Has(legs.output, "hips translation scaled by 5.581 (rest leg length 0.1469 m -> 0.82 m)"))
      << legs.output;
  EXPECT_TRUE(Has(legs.output,
                  "the lowest foot point over the clip: 0.1720 m on the input "
                  "('LeftToeBase'), 0.9800 m retargeted ('leftToes'"))
      << legs.output;
  const auto height = RunAnimconv("convert " + CmuWalk() + onto + " -o " + dir.File("height.glb"));
  EXPECT_TRUE(Has(height.output,
                  "hips translation scaled by 5.588 (rest hips height 0.17 m -> "
                  "0.95 m)"))
      << height.output;
  // none: the source's metres, which put this clip's feet under the floor, warned about.
  const auto none =
      RunAnimconv("convert " + CmuWalk() + onto + " --hips-scale none -o " + dir.File("none.glb"));
  EXPECT_EQ(none.exit_code, 0) << none.output;
  EXPECT_FALSE(Has(none.output, "hips translation scaled")) << none.output;
  EXPECT_TRUE(Has(none.output, "the retargeted feet go 0.573 m below the floor")) << none.output;
  // Refused values, and an option that had nothing to scale.
  const auto bad =
      RunAnimconv("convert " + CmuWalk() + " --hips-scale knee -o " + dir.File("bad.vrma"));
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_TRUE(Has(bad.output, "--hips-scale must be height, leg or none")) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("bad.vrma")));
  const auto unused =
      RunAnimconv("convert " + CmuWalk() + " --hips-scale leg -o " + dir.File("plain.glb"));
  EXPECT_EQ(unused.exit_code, 0) << unused.output;
  EXPECT_TRUE(Has(unused.output, "--hips-scale: nothing was retargeted")) << unused.output;
}

TEST(RootMotionOptionTest, AClipWithoutHipsTranslationIsWarnedAsUnchanged) {
  TempDir dir;
  const auto result = RunAnimconv("convert " + SourcePath("data/unity/walk.csv") +
                                  " --root-motion in-place -o " + dir.File("walk.json"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Has(result.output, "no clip translates the hips, so nothing travels"))
      << result.output;
}

TEST(RootMotionOptionTest, GroundSaysWhatItMeasuredAndMoved) {
  TempDir dir;
  // The CMU walk's toes stand 0.172 m above y = 0 at their lowest (at 0.294 s).
  const auto grounded = RunAnimconv("convert " + CmuWalk() + " --ground -o " + dir.File("a.glb"));
  EXPECT_EQ(grounded.exit_code, 0) << grounded.output;
  EXPECT_TRUE(Has(grounded.output,
                  "--ground: clip 'cmu_walk': the lowest foot point was 0.1720 m ('LeftToeBase' "
                  "at 0.294 s), the hips moved down 0.1720 m; now "))
      << grounded.output;
  // After --root-motion, onto the rig written: in place and grounded onto a .vrma.
  const auto both = RunAnimconv("convert " + CmuWalk() + " --root-motion in-place --ground -o " +
                                dir.File("b.vrma"));
  EXPECT_EQ(both.exit_code, 0) << both.output;
  EXPECT_TRUE(Has(both.output, "--ground: clip 'cmu_walk'")) << both.output;
}

// Onto a model whose feet carry meshes (data/gltf/shod_figure.glb's shoes), the soles are grounded
// and the note says so; the same clip read back from that .glb is grounded on its soles too. Into
// a .bvh, which shows the skeleton alone, the joints are. --scale is the input's unit, not the
// model's: at --scale 0.5 the model was scaled with the input and its feet sank (review of
// session 37); the hips now move as without it.
TEST(RootMotionOptionTest, GroundStandsAModelsSolesOnTheFloor) {
  TempDir dir;
  const std::string model = SourcePath("data/gltf/shod_figure.glb");
  const auto shod = RunAnimconv("convert " + CmuWalk() + " --skeleton " + model + " --ground -o " +
                                dir.File("shod.glb"));
  EXPECT_EQ(shod.exit_code, 0) << shod.output;
  EXPECT_TRUE(Has(shod.output,
                  "--ground: the feet carry meshes, whose lowest vertex stands at 0.0000 m at "
                  "rest ('mixamorig:LeftToeBase'): their soles are grounded, not the joints"))
      << shod.output;
  EXPECT_TRUE(Has(shod.output,
                  "the lowest foot point was 0.9395 m ('mixamorig:LeftToeBase', 0.0200 m above "
                  "the floor at rest, at 0.292 s), the hips moved down 0.9395 m"))
      << shod.output;
  const auto scaled = RunAnimconv("convert " + CmuWalk() + " --skeleton " + model +
                                  " --ground --scale 0.5 -o " + dir.File("scaled.glb"));
  EXPECT_EQ(scaled.exit_code, 0) << scaled.output;
  EXPECT_TRUE(Has(scaled.output, "the hips moved down 0.9395 m")) << scaled.output;
  const auto plain =
      RunAnimconv("convert " + CmuWalk() + " --skeleton " + model + " -o " + dir.File("plain.glb"));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const auto again =
      RunAnimconv("convert " + dir.File("plain.glb") + " --ground -o " + dir.File("again.glb"));
  EXPECT_TRUE(Has(again.output, "their soles are grounded")) << again.output;
  EXPECT_TRUE(Has(again.output, "0.0200 m above the floor at rest")) << again.output;
  // --scale on a glTF whose meshes a .glb passes through would scale the nodes and not the
  // skins: refused, nothing written.
  const auto rescaled = RunAnimconv("convert " + dir.File("plain.glb") + " --scale 0.5 -o " +
                                    dir.File("rescaled.glb"));
  EXPECT_EQ(rescaled.exit_code, 1) << rescaled.output;
  EXPECT_TRUE(
      Has(rescaled.output, "--scale scales the input's skeleton and motion, not the meshes"))
      << rescaled.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("rescaled.glb")));
  const auto bvh =
      RunAnimconv("convert " + dir.File("plain.glb") + " --ground -o " + dir.File("again.bvh"));
  EXPECT_EQ(bvh.exit_code, 0) << bvh.output;
  EXPECT_FALSE(Has(bvh.output, "soles")) << bvh.output;
  EXPECT_TRUE(Has(bvh.output, "the lowest foot point was 0.9867 m ('mixamorig:LeftToeBase' at"))
      << bvh.output;
}

// data/bvh/cmu_walk.bvh floats: its ROOT OFFSET and its position channels both hold the hips
// height (17 units), which BVHLoader adds, so its toes never come below 17 units. Retargeted onto
// an avatar, the feet stay a leg length above the floor: a warning naming --ground. Its
// grounded twin (root OFFSET 0) and a walk that stands are not warned about.
TEST(RootMotionOptionTest, FeetThatNeverReachTheFloorAreWarnedAboutWithTheFix) {
  TempDir dir;
  const auto floating = RunAnimconv("convert " + CmuWalk() + " -o " + dir.File("a.vrma"));
  EXPECT_EQ(floating.exit_code, 0) << floating.output;
  EXPECT_TRUE(Has(floating.output,
                  "warning: the retargeted feet stay above the floor over the whole clip: the "
                  "lowest foot point is 0.982 m up"))
      << floating.output;
  EXPECT_TRUE(Has(floating.output, "give --ground to stand the clip on the floor"))
      << floating.output;
  const auto grounded = RunAnimconv("convert " + CmuWalk() + " --ground -o " + dir.File("b.vrma"));
  EXPECT_EQ(grounded.exit_code, 0) << grounded.output;
  EXPECT_FALSE(Has(grounded.output, "stay above the floor")) << grounded.output;
  for (const std::string& standing :
       {SourcePath("data/bvh/cmu_walk_hips_at_origin.bvh"), SourcePath("data/unity/walk.csv")}) {
    const auto result = RunAnimconv("convert " + standing + " -o " + dir.File("c.vrma"));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_FALSE(Has(result.output, "stay above the floor")) << standing << result.output;
  }
}

// A Unity CSV holds rotations only: without joint offsets every joint stands at the origin, so
// --ground measured 0 m everywhere and gave the hips a translation of 0, a character sunk to its
// hips, with exit 0 (before session 30). Into a clip-only format it is refused with the fixes;
// .glb and .bvh, which stand the rig in the generated T-pose, are grounded on that T-pose: the
// walk's right toes, 0.0188 m up at 1.12 s, as on the .vrma's normalised rig.
TEST(RootMotionOptionTest, GroundOnARigWithoutARestPoseStandsItOnTheTPoseOrIsRefused) {
  TempDir dir;
  const std::string walk = SourcePath("data/unity/walk.csv");
  for (const char* clip_only : {"a.json", "a.csv"}) {
    const auto refused = RunAnimconv("convert " + walk + " --ground -o " + dir.File(clip_only));
    EXPECT_EQ(refused.exit_code, 1) << refused.output;
    EXPECT_TRUE(Has(refused.output,
                    "--ground needs to know where the feet are, and this input has no rest pose"))
        << refused.output;
    EXPECT_TRUE(Has(refused.output, "--skeleton model.glb (or .vrm)")) << refused.output;
    EXPECT_FALSE(std::filesystem::exists(dir.File(clip_only)));
  }
  for (const char* shown : {"b.glb", "b.bvh", "b.vrma"}) {
    const auto grounded = RunAnimconv("convert " + walk + " --ground -o " + dir.File(shown));
    EXPECT_EQ(grounded.exit_code, 0) << grounded.output;
    EXPECT_TRUE(Has(grounded.output,
                    "--ground: clip 'walk': the lowest foot point was 0.0188 m ('rightToes' at "
                    "1.12 s), the hips moved down 0.0188 m; now "))
        << shown << grounded.output;
  }
}

TEST(RootMotionOptionTest, GroundRefusesARigWithoutFeetWritingNothing) {
  TempDir dir;
  const auto result = RunAnimconv("convert " + SourcePath("data/gltf/morph_cube.gltf") +
                                  " --ground -o " + dir.File("cube.glb"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(Has(result.output, "--ground needs the humanoid hips and at least one foot"))
      << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.File("cube.glb")));
}

}  // namespace
}  // namespace animconv
