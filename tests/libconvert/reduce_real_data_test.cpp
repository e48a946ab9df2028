// --reduce and --resample on every animated file of the shared sample data (ANIMCONV_SHARED_DATA):
// reduction at the default tolerances must stay within them as `animconv diff` measures it
// (DiffClips, a different code path from the reducer's own check), and resampling at a clip's own
// key rate must give the clip back bit for bit. One test per file, so a new file in the folder is
// covered as soon as the tests are listed again (a rebuild). Each check is instantiated only for
// the files that exercise it, never skipped at run time: a file without animation, or without a
// clip on its own key grid, is listed below with the reason, and a test checks that the lists are
// right, so a skip is never counted as a passed test and a new file that a check cannot use
// fails until it is listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "animconv/clip_diff.h"
#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/format.h"
#include "animconv/reduce.h"
#include "animconv/summary.h"
#include "animconv/timing.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;

// Files in the folder that none of our readers turns into an asset, and why. The test expects
// these to fail loading, so when a reader learns one of them the list has to shrink and the file
// gets its reduction checks.
const std::map<std::string, std::string>& NotReadable() {
  static const std::map<std::string, std::string> files = {
      {"fbx/bevy_cube_anim_fbx6100_binary.fbx",
       "FBX 6.1, which Assimp rejects (\"FBX-DOM unsupported, old format version\")"},
      {"threejs/legacy/threejs_animated_sittingBox_morphseq.js",
       "three.js JSON model format 3 whose animation is only a morph-target sequence (no clip); "
       "no reader claims it"},
  };
  return files;
}

// Readable files with no keys at all (models without a clip): nothing to reduce or resample.
const std::set<std::string>& WithoutAnimation() {
  static const std::set<std::string> files = {
      "fbx/threejs_morph_test.fbx",
      "morph/khronos_MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf",
      "vrm/three-vrm_sphere.vrm",
      "vrm/vrmaddon_debug_robot.vrm",
      "vrm/vrmaddon_minimal_vrm0.vrm",
      "vrm/vrmaddon_simple_morph.vrm",
      "vrm/vrmaddon_skinned_mesh_parent_vrm1.vrm",
      "vrm/vrmspec_VRMC_materials_mtoon_UV_Animation_Test.vrm",
      "vrm/vrmspec_VRMC_vrm_expressions_isBinary_Overridden.vrm",
      "vrm/vrmspec_VRMC_vrm_expressions_isBinary_Overrides.vrm",
  };
  return files;
}

// Animated files none of whose clips has every key on one grid from 0 without cubic splines
// (OwnGridRate below): resampling cannot give them back unchanged.
const std::set<std::string>& WithoutOwnGridClip() {
  static const std::set<std::string> files = {
      "bvh/pybvh_standard_skeleton.bvh",
      "fbx/assimp_animation_with_skeleton.fbx",
      "fbx/magnum-assimp_exported-animation.fbx",
      "fbx/magnum-ufbx_animation-interpolation.fbx",
      "morph/khronos_AnimatedMorphSphere/glTF/AnimatedMorphSphere.gltf",
      "morph/threejs_facecap_meshopt.glb",
      "skeletal/bevy_animations_node_trs.gltf",
      "skeletal/khronos_BoxAnimated_embedded.gltf",
      "skeletal/magnum_gltf_fixtures/animation-splines-sharing.gltf",
      "skeletal/threejs_SimpleSkinning.gltf",
      "threejs/generated-by-three-r187/khronos_BoxAnimated_embedded.clips.json",
      "threejs/legacy/threejs_scene-animation_objectloader_v4.4.json",
      "vrm/vrmaddon_nop.vrma",
  };
  return files;
}

fs::path SharedData() { return fs::path(ANIMCONV_SHARED_DATA_DIR); }

// Every file a reader of this build may take, by extension; FBX only once the Assimp reader is
// registered.
std::vector<std::string> SampleFiles() {
  std::vector<std::string> files;
  const fs::path root = SharedData();
  std::error_code error;
  if (!fs::is_directory(root, error)) return files;
  std::set<std::string> extensions = {".gltf", ".glb", ".vrm", ".vrma", ".json", ".js", ".bvh"};
  if (FindFormat("assimp") != nullptr) extensions.insert(".fbx");
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root, error)) {
    if (!entry.is_regular_file()) continue;
    std::string extension = entry.path().extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extensions.count(extension) == 0) continue;
    files.push_back(fs::relative(entry.path(), root).generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

size_t KeyCount(const Asset& asset) {
  size_t keys = 0;
  for (const Clip& clip : asset.clips) {
    for (const Channel& channel : clip.channels) keys += channel.key_count();
  }
  return keys;
}

// A clip can be resampled onto its own keys when they sit on one grid from 0 (ResampleClip's
// grid is k / fps) and no channel is a cubic spline (those come out linear).
std::optional<double> OwnGridRate(const Clip& clip) {
  const std::optional<double> rate = ClipKeyRate(clip);
  if (!rate) return std::nullopt;
  for (const Channel& channel : clip.channels) {
    if (channel.interpolation == Interpolation::kCubicSpline) return std::nullopt;
    const double frames = channel.times_seconds.front() * *rate;
    if (std::fabs(frames - std::round(frames)) / *rate > kTimingMergeSeconds) return std::nullopt;
  }
  return rate;
}

// The sample files with `in` and without `out` (null: none) among the names listed.
std::vector<std::string> Files(const std::set<std::string>* in,
                               std::vector<const std::set<std::string>*> out) {
  std::vector<std::string> files;
  for (const std::string& file : SampleFiles()) {
    if (in && in->count(file) == 0) continue;
    bool excluded = false;
    for (const std::set<std::string>* list : out) excluded = excluded || list->count(file) > 0;
    if (!excluded) files.push_back(file);
  }
  return files;
}

std::set<std::string> NotReadableNames() {
  std::set<std::string> names;
  for (const auto& [file, reason] : NotReadable()) names.insert(file);
  return names;
}

Asset Load(const std::string& file) {
  return LoadAsset((SharedData() / file).string(), ConvertOptions()).asset;
}

class UnreadableRealDataTest : public ::testing::TestWithParam<std::string> {};
class ReduceRealDataTest : public ::testing::TestWithParam<std::string> {};
class ResampleRealDataTest : public ::testing::TestWithParam<std::string> {};
class ExcludedRealDataTest : public ::testing::TestWithParam<std::string> {};

// When a reader learns one of these, the list has to shrink and the file gets its checks.
TEST_P(UnreadableRealDataTest, IsRefused) {
  EXPECT_THROW(Load(GetParam()), Error) << NotReadable().at(GetParam());
}

// The lists above are right: a file listed without animation has no keys, one listed without an
// own-grid clip has none, so no file leaves a check it could take.
TEST_P(ExcludedRealDataTest, LacksWhatItIsListedWithout) {
  const Asset asset = Load(GetParam());
  if (WithoutAnimation().count(GetParam())) {
    EXPECT_EQ(KeyCount(asset), 0u) << "animated: remove it from WithoutAnimation()";
  } else {
    EXPECT_GT(KeyCount(asset), 0u) << "not animated: move it to WithoutAnimation()";
  }
  if (WithoutOwnGridClip().count(GetParam())) {
    for (const Clip& clip : asset.clips) {
      EXPECT_FALSE(OwnGridRate(clip).has_value())
          << "clip " << clip.name << " is on its own grid: remove the file from "
          << "WithoutOwnGridClip()";
    }
  }
}

// Rotations: DiffClips samples the slerp at points of its own choosing, where the reducer checked
// 3 points per original segment, so allow the rounding of the angle computation, nothing more.
constexpr double kRelativeSlack = 1e-6;

TEST_P(ReduceRealDataTest, ReductionStaysWithinTheDefaultTolerances) {
  const Asset original = Load(GetParam());
  ASSERT_GT(KeyCount(original), 0u) << "no animation: list the file in WithoutAnimation()";
  for (const bool hierarchical : {false, true}) {
    SCOPED_TRACE(hierarchical ? "--reduce-hierarchical 0.1" : "--reduce");
    ReduceOptions options;
    if (hierarchical) options.hierarchical_distance_metres = 0.1;
    Asset reduced = original;
    const ReduceReport report = Reduce(reduced, options);
    EXPECT_LE(report.keys_after(), report.keys_before());
    ASSERT_EQ(reduced.clips.size(), original.clips.size());
    for (size_t c = 0; c < original.clips.size(); ++c) {
      SCOPED_TRACE("clip " + original.clips[c].name);
      DiffOptions diff_options;
      // Denser than diff's default midpoint: the error of a dropped key peaks between samples.
      diff_options.samples_between_keys = 4;
      diff_options.hierarchical_distance_metres = options.hierarchical_distance_metres;
      const ClipDiff diff =
          DiffClips(original, original.clips[c], reduced, reduced.clips[c], diff_options);
      // Removed rest-constant channels are only in A and compared with the rest value; a channel
      // only in B would be one the diff could not pair, i.e. one whose error went unmeasured.
      EXPECT_TRUE(diff.only_in_b.empty());
      EXPECT_LE(diff.overall.at("deg").max, options.rotation_degrees * (1 + kRelativeSlack));
      EXPECT_LE(diff.overall.at("m").max, options.translation_metres * (1 + kRelativeSlack));
      EXPECT_LE(diff.overall.at("ratio").max, options.scale_ratio * (1 + kRelativeSlack));
      EXPECT_LE(diff.overall.at("weight").max, options.weight * (1 + kRelativeSlack));
      if (hierarchical) {
        // The bound is first order and conservative; diff poses both clips exactly.
        ASSERT_TRUE(diff.hierarchical_overall.has_value());
        EXPECT_LE(diff.hierarchical_overall->max,
                  options.translation_metres * (1 + kRelativeSlack));
      }
    }
  }
}

TEST_P(ResampleRealDataTest, ResamplingAtTheOwnKeyRateIsTheIdentity) {
  const Asset original = Load(GetParam());
  size_t resampled = 0;
  for (const Clip& clip : original.clips) {
    const std::optional<double> rate = OwnGridRate(clip);
    if (!rate) continue;
    SCOPED_TRACE("clip " + clip.name + " at " + std::to_string(*rate) + " keys/s");
    Clip copy = clip;
    ResampleClip(copy, *rate);
    ASSERT_EQ(copy.channels.size(), clip.channels.size());
    for (size_t c = 0; c < clip.channels.size(); ++c) {
      EXPECT_EQ(copy.channels[c].times_seconds, clip.channels[c].times_seconds) << "channel " << c;
      EXPECT_EQ(copy.channels[c].values, clip.channels[c].values) << "channel " << c;
      EXPECT_EQ(copy.channels[c].interpolation, clip.channels[c].interpolation);
    }
    ++resampled;
  }
  EXPECT_GT(resampled, 0u) << "no clip on one grid from 0: list the file in WithoutOwnGridClip()";
}

const std::set<std::string> kNotReadable = NotReadableNames();

INSTANTIATE_TEST_SUITE_P(SharedData, UnreadableRealDataTest,
                         ::testing::ValuesIn(Files(&kNotReadable, {})), TestName);
INSTANTIATE_TEST_SUITE_P(SharedData, ReduceRealDataTest,
                         ::testing::ValuesIn(Files(nullptr, {&kNotReadable, &WithoutAnimation()})),
                         TestName);
INSTANTIATE_TEST_SUITE_P(SharedData, ResampleRealDataTest,
                         ::testing::ValuesIn(Files(nullptr, {&kNotReadable, &WithoutAnimation(),
                                                             &WithoutOwnGridClip()})),
                         TestName);
const std::set<std::string> kExcluded = [] {
  std::set<std::string> names = WithoutAnimation();
  names.insert(WithoutOwnGridClip().begin(), WithoutOwnGridClip().end());
  return names;
}();
INSTANTIATE_TEST_SUITE_P(SharedData, ExcludedRealDataTest,
                         ::testing::ValuesIn(Files(&kExcluded, {})), TestName);
// Without ../shared/data there is nothing to list; that is not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(UnreadableRealDataTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReduceRealDataTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ResampleRealDataTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ExcludedRealDataTest);

}  // namespace
}  // namespace animconv
