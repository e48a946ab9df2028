// `animconv preview` through the real binary: the page, the line it prints, exit codes, and no
// page on any error. A one-line template (--viewer) stands in for the real viewer; real pages are
// played in Chromium by web/app/test/preview_test.mjs.
#include <gtest/gtest.h>

#include "test_support.h"

namespace animconv {
namespace {

using testing::Has;
using testing::RunAnimconv;
using testing::TempDir;

struct PreviewDir {
  TempDir dir;
  std::string viewer = dir.File("viewer.html");
  PreviewDir() { testing::WriteText(viewer, "<pre>/*ANIMCONV_PREVIEW_DATA*/</pre>"); }
  std::string Run(const std::string& arguments) const {
    return "preview " + arguments + " --viewer " + viewer + " -o " + dir.File("page.html");
  }
};

std::string Walk() { return testing::SourcePath("data/unity/walk.csv"); }

TEST(PreviewCommandTest, WritesThePageAndSaysWhatItShows) {
  PreviewDir preview;
  const auto result = RunAnimconv(preview.Run(Walk()));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Has(result.output, "(unity-csv) -> walk.vrma (vrma, vrma-on-humanoid) in "))
      << result.output;
  // The conversion's own diagnostics come first, as `convert` prints them.
  EXPECT_TRUE(Has(result.output, "info: retargeted onto the normalised T-pose rig of vrma"));
  EXPECT_TRUE(
      Has(testing::ReadText(preview.dir.File("page.html")), "\"show\":\"vrma-on-humanoid\""));
}

TEST(PreviewCommandTest, ErrorsWriteNoPage) {
  PreviewDir preview;
  TempDir inputs;
  testing::WriteText(inputs.File("bad.csv"), "time,x\n0,0.0x1\n");
  EXPECT_EQ(RunAnimconv(preview.Run(inputs.File("bad.csv"))).exit_code, 2);
  EXPECT_EQ(RunAnimconv(preview.Run(Walk() + " --to unity-csv")).exit_code, 1);
  EXPECT_EQ(RunAnimconv(preview.Run(Walk() + " --mirror sideways")).exit_code, 1);
  EXPECT_EQ(preview.dir.FileCount(), 1u);                    // the template only
  EXPECT_EQ(RunAnimconv("preview " + Walk()).exit_code, 1);  // no -o
}

TEST(PreviewCommandTest, AMissingViewerIsAnIoErrorThatSaysHowToBuildIt) {
  TempDir dir;
  const auto result = RunAnimconv("preview " + Walk() + " --viewer " + dir.File("none.html") +
                                  " -o " + dir.File("page.html"));
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_TRUE(Has(result.output, "none.html")) << result.output;
  EXPECT_EQ(dir.FileCount(), 0u);
}

TEST(PreviewCommandTest, HelpListsTheModelAndTheConvertOptions) {
  const auto result = RunAnimconv("preview --help");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_TRUE(Has(result.output, "--model"));
  EXPECT_TRUE(Has(result.output, "--viewer"));
  EXPECT_TRUE(Has(result.output, "--reduce"));
}

}  // namespace
}  // namespace animconv
