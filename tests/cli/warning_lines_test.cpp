// A fact is told once, with the names it is about: the unnamed nodes a three.js output's tracks
// target are one warning (not one line per unnamed node of the whole file), and bones the target
// lacks are named once by the coverage check (not again, nameless, by the retargeting step).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

std::string Shared(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST(WarningLinesTest, UnnamedNodesAreOneWarningAboutTheWrittenClip) {
  // magnum's fixture: six unnamed nodes; clip 2 animates node_0..node_2, clip 3 node_3..node_5.
  const std::string input = Shared("skeletal/magnum_gltf_fixtures/animation.glb");
  if (!std::filesystem::exists(input)) GTEST_SKIP() << input << " is absent";
  TempDir dir;
  const auto result = RunAnimconv("convert " + input + " --clip 2 -o " + dir.File("x.json"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(Count(result.output, "no name in"), 1u) << result.output;
  EXPECT_EQ(Count(result.output,
                  "warning: 3 animated node(s) have no name in their source and were named: "
                  "node 0 as 'node_0', node 1 as 'node_1', node 2 as 'node_2'; three.js binds"),
            1u)
      << result.output;
  EXPECT_EQ(Count(result.output, "node_3"), 0u) << result.output;
}

TEST(WarningLinesTest, BonesTheTargetLacksAreNamedOnce) {
  // The DAZ walk animates upperChest (chestUpper), which the minimal VRM 0.x model lacks.
  const std::string model = Shared("vrm/vrmaddon_minimal_vrm0.vrm");
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent";
  TempDir dir;
  const auto result =
      RunAnimconv("convert " + testing::SourcePath("data/bvh/daz_genesis8_walk.bvh") + " -o " +
                  dir.File("w.glb") + " --skeleton " + model);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(Count(result.output, "missing on the target"), 1u) << result.output;
  EXPECT_EQ(Count(result.output,
                  "warning: 1 source bone(s) missing on the target passed their rotation to the "
                  "bones below: upperChest"),
            1u)
      << result.output;
}

}  // namespace
}  // namespace animconv
