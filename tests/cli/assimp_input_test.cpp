// FBX through the CLI (formats/assimp/assimp.h); BVH is tests/cli/bvh_input_test.cpp.
#include <gtest/gtest.h>

#include "test_support.h"

namespace animconv {
namespace {

using testing::RunAnimconv;
using testing::TempDir;

TEST(AssimpInputTest, UnreadableFileIsBadInputWithAssimpsReason) {
  TempDir dir;
  testing::WriteText(dir.File("broken.fbx"), "Kaydara FBX Binary  \0\x1a\0garbage");
  const auto result =
      RunAnimconv("convert " + dir.File("broken.fbx") + " -o " + dir.File("out.glb"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("cannot import it:"), std::string::npos) << result.output;
  EXPECT_EQ(dir.FileCount(), 1u);
}

}  // namespace
}  // namespace animconv
