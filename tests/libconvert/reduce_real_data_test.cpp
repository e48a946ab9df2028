// --reduce and --resample on every animated file of the shared sample data (ANIMCONV_SHARED_DATA):
// reduction at the default tolerances must stay within them as `animconv diff` measures it
// (DiffClips, a different code path from the reducer's own check), and resampling at a clip's own
// key rate must give the clip back bit for bit. One test per file, so a new file in the folder is
// covered as soon as the tests are listed again (a rebuild).
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

fs::path SharedData() { return fs::path(ANIMCONV_SHARED_DATA_DIR); }

// Every file a reader of this build may take, by extension; BVH and FBX only once the Assimp
// reader is registered.
std::vector<std::string> SampleFiles() {
  std::vector<std::string> files;
  const fs::path root = SharedData();
  std::error_code error;
  if (!fs::is_directory(root, error)) return files;
  std::set<std::string> extensions = {".gltf", ".glb", ".vrm", ".vrma", ".json", ".js"};
  if (FindFormat("assimp") != nullptr) extensions.insert({".bvh", ".fbx"});
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

class ReduceRealDataTest : public ::testing::TestWithParam<std::string> {
 protected:
  // The asset, or nullopt after checking that a file of NotReadable() is indeed refused.
  std::optional<Asset> Load() {
    const std::string path = (SharedData() / GetParam()).string();
    const auto unreadable = NotReadable().find(GetParam());
    if (unreadable != NotReadable().end()) {
      EXPECT_THROW(LoadAsset(path, ConvertOptions()), Error) << unreadable->second;
      return std::nullopt;
    }
    return LoadAsset(path, ConvertOptions()).asset;
  }
};

// Rotations: DiffClips samples the slerp at points of its own choosing, where the reducer checked
// 3 points per original segment, so allow the rounding of the angle computation, nothing more.
constexpr double kRelativeSlack = 1e-6;

TEST_P(ReduceRealDataTest, ReductionStaysWithinTheDefaultTolerances) {
  const std::optional<Asset> original = Load();
  if (!original) return;
  if (KeyCount(*original) == 0) GTEST_SKIP() << "no animation";
  for (const bool hierarchical : {false, true}) {
    SCOPED_TRACE(hierarchical ? "--reduce-hierarchical 0.1" : "--reduce");
    ReduceOptions options;
    if (hierarchical) options.hierarchical_distance_metres = 0.1;
    Asset reduced = *original;
    const ReduceReport report = Reduce(reduced, options);
    EXPECT_LE(report.keys_after(), report.keys_before());
    ASSERT_EQ(reduced.clips.size(), original->clips.size());
    for (size_t c = 0; c < original->clips.size(); ++c) {
      SCOPED_TRACE("clip " + original->clips[c].name);
      DiffOptions diff_options;
      // Denser than diff's default midpoint: the error of a dropped key peaks between samples.
      diff_options.samples_between_keys = 4;
      diff_options.hierarchical_distance_metres = options.hierarchical_distance_metres;
      const ClipDiff diff =
          DiffClips(*original, original->clips[c], reduced, reduced.clips[c], diff_options);
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

TEST_P(ReduceRealDataTest, ResamplingAtTheOwnKeyRateIsTheIdentity) {
  const std::optional<Asset> original = Load();
  if (!original) return;
  size_t resampled = 0;
  for (const Clip& clip : original->clips) {
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
  if (resampled == 0) GTEST_SKIP() << "no clip with every key on one grid from 0";
}

INSTANTIATE_TEST_SUITE_P(SharedData, ReduceRealDataTest, ::testing::ValuesIn(SampleFiles()),
                         TestName);
// Without ../shared/data there is nothing to list; that is not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ReduceRealDataTest);

}  // namespace
}  // namespace animconv
