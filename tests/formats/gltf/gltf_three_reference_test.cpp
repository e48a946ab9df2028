// Our three.js clip JSON for glTF inputs against the clips three.js r187 itself made from the same
// files (shared/data/threejs/generated-by-three-r187, see its MANIFEST): same track names, times
// and values. Skipped where the shared data is not present.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "animconv/convert.h"
#include "formats/gltf/gltf.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;

std::string SharedData(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

struct ReferenceCase {
  const char* input;
  const char* reference;
};

class GltfThreeReferenceTest : public ::testing::TestWithParam<ReferenceCase> {};

// GLTFLoader names a track after an object's uuid when the glTF node has no name (and no mesh to
// lend one); such tracks cannot be matched by name.
bool IsUuidTrack(const std::string& name) {
  return name.size() > 36 && name[8] == '-' && name[13] == '-' && name[18] == '-' &&
         name[23] == '-' && name[36] == '.';
}

TEST_P(GltfThreeReferenceTest, MatchesWhatThreeJsMade) {
  const std::string input = SharedData(GetParam().input);
  if (!std::filesystem::exists(input)) GTEST_SKIP() << "no shared data at " << input;
  const LoadedAsset loaded = LoadAsset(input, ConvertOptions{});
  ConvertOptions options;
  options.write.three_array = true;
  const json ours = json::parse(RenderAsset(loaded.asset, *FindFormat("three"), options));
  const json reference = json::parse(testing::ReadText(
      SharedData(std::string("threejs/generated-by-three-r187/") + GetParam().reference)));
  ASSERT_EQ(ours.size(), reference.size());
  for (size_t c = 0; c < ours.size(); ++c) {
    EXPECT_EQ(ours[c]["name"], reference[c]["name"]);
    EXPECT_NEAR(ours[c]["duration"].get<double>(), reference[c]["duration"].get<double>(), 1e-6);
    std::map<std::string, json> our_tracks;
    for (const json& track : ours[c]["tracks"]) our_tracks[track["name"]] = track;
    size_t compared = 0;
    for (const json& theirs : reference[c]["tracks"]) {
      const std::string name = theirs["name"];
      if (IsUuidTrack(name)) continue;
      ASSERT_TRUE(our_tracks.count(name)) << "missing track " << name;
      const json& mine = our_tracks[name];
      EXPECT_EQ(mine["type"], theirs["type"]) << name;
      const auto& my_times = mine["times"];
      const auto& their_times = theirs["times"];
      ASSERT_EQ(my_times.size(), their_times.size()) << name;
      for (size_t k = 0; k < my_times.size(); ++k) {
        ASSERT_EQ(my_times[k].get<float>(), their_times[k].get<float>()) << name << " key " << k;
      }
      const auto& my_values = mine["values"];
      const auto& their_values = theirs["values"];
      ASSERT_EQ(my_values.size(), their_values.size()) << name;
      const size_t width = my_values.size() / my_times.size();
      for (size_t k = 0; k < my_times.size(); ++k) {
        // We renormalise rotations in double precision and align their hemispheres; three.js keeps
        // the file's float32 values, so compare quaternions up to sign and within float precision.
        double same = 0, opposite = 0;
        for (size_t i = 0; i < width; ++i) {
          const double a = my_values[k * width + i].get<double>();
          const double b = their_values[k * width + i].get<double>();
          const double scale = std::max(1.0, std::fabs(b));
          same = std::max(same, std::fabs(a - b) / scale);
          opposite = std::max(opposite, std::fabs(a + b) / scale);
        }
        const double error = theirs["type"] == "quaternion" ? std::min(same, opposite) : same;
        ASSERT_LE(error, 1e-6) << name << " key " << k;
      }
      ++compared;
    }
    EXPECT_GT(compared, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    SharedData, GltfThreeReferenceTest,
    ::testing::Values(ReferenceCase{"skeletal/khronos_Fox.glb", "khronos_Fox.clips.json"},
                      ReferenceCase{"skeletal/khronos_BoxAnimated_embedded.gltf",
                                    "khronos_BoxAnimated_embedded.clips.json"},
                      ReferenceCase{"morph/khronos_MorphStressTest_embedded.gltf",
                                    "khronos_MorphStressTest_embedded.clips.json"},
                      ReferenceCase{"morph/threejs_Flamingo.glb", "threejs_Flamingo.clips.json"},
                      ReferenceCase{"morph/threejs_Horse.glb", "threejs_Horse.clips.json"},
                      ReferenceCase{"morph/threejs_RobotExpressive.glb",
                                    "threejs_RobotExpressive.clips.json"}),
    [](const ::testing::TestParamInfo<ReferenceCase>& param_info) {
      std::string name = std::filesystem::path(param_info.param.input).stem().string();
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace animconv
