#include "formats/assimp/dae_interpolation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "animconv/diagnostic.h"
#include "formats/assimp/assimp.h"
#include "test_support.h"

namespace animconv {
namespace {

// turn.dae with its first two keys STEP (data/dae/README.md): Assimp plays the turn as a ramp
// (22.5 degrees at 0.25 s where the file holds 0): the reader names the node and the keys.
TEST(DaeInterpolationTest, StepKeysAreFoundAndWarnedAbout) {
  const std::string path = testing::SourcePath("data/dae/turn_step.dae");
  const std::string text = testing::ReadText(path);
  const std::vector<DaeNonLinearChannel> channels = FindNonLinearDaeChannels(text);
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_EQ(channels[0].node, "arm");
  EXPECT_EQ(channels[0].target, "rotZ.ANGLE");
  EXPECT_EQ(channels[0].step_segments, 2u);
  EXPECT_EQ(channels[0].curve_segments, 0u);
  Diagnostics diagnostics;
  ReadOptions options;
  options.source = path;
  options.diagnostics = &diagnostics;
  ReadAssimp(text, options);
  size_t warned = 0;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kWarning &&
        d.text.find("arm (rotZ.ANGLE: 2 STEP segment(s))") != std::string::npos) {
      ++warned;
    }
  }
  EXPECT_EQ(warned, 1u);
  // The all-LINEAR original: nothing found, nothing said.
  const std::string linear = testing::ReadText(testing::SourcePath("data/dae/turn.dae"));
  EXPECT_TRUE(FindNonLinearDaeChannels(linear).empty());
  diagnostics.clear();
  ReadAssimp(linear, options);
  for (const Diagnostic& d : diagnostics) EXPECT_EQ(d.text.find("dae:"), std::string::npos);
}

std::string Document(const std::string& interpolations, const std::string& node) {
  return "<COLLADA><library_animations><animation>"
         "<source id='i'><Name_array id='ia' count='3'>" +
         interpolations +
         "</Name_array></source>"
         "<sampler id='s'><input semantic='INPUT' source='#t'/>"
         "<input semantic=\"INTERPOLATION\" source=\"#i\"/></sampler>"
         "<channel source='#s' target='n1/translate'/>"
         "</animation></library_animations>" +
         node + "</COLLADA>";
}

// A key's interpolation is the segment after it, so the last key's says nothing; curved kinds
// count apart from STEP; a node without a name is named by its id, as Assimp names it.
TEST(DaeInterpolationTest, SegmentsAreEveryKeyButTheLast) {
  EXPECT_TRUE(FindNonLinearDaeChannels(Document("LINEAR LINEAR BEZIER", "")).empty());
  std::vector<DaeNonLinearChannel> channels =
      FindNonLinearDaeChannels(Document("BEZIER\nHERMITE STEP STEP", "<node id='n1'/>"));
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_EQ(channels[0].node, "n1");
  EXPECT_EQ(channels[0].target, "translate");
  EXPECT_EQ(channels[0].curve_segments, 2u);
  EXPECT_EQ(channels[0].step_segments, 1u);
  channels = FindNonLinearDaeChannels(Document("STEP LINEAR", "<node name='Arm' id='n1'>"));
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_EQ(channels[0].node, "Arm");
  EXPECT_NE(NonLinearDaeWarning(channels).find("Arm (translate: 1 STEP segment(s))"),
            std::string::npos);
  EXPECT_EQ(NonLinearDaeWarning({}), "");
}

// Markup cut short anywhere gives what it can follow and never reads past the text.
TEST(DaeInterpolationTest, BrokenMarkupGivesNoChannel) {
  const std::string whole = Document("STEP STEP LINEAR", "<node id='n1' name='x'/>");
  for (size_t length = 0; length < whole.size(); ++length) {
    const std::vector<DaeNonLinearChannel> channels =
        FindNonLinearDaeChannels(std::string_view(whole).substr(0, length));
    EXPECT_LE(channels.size(), 1u);
  }
  EXPECT_TRUE(FindNonLinearDaeChannels("<source id='a'><Name_array>STEP").empty());
  // Many start tags whose close never comes (or comes once, at the end), and tags without '>':
  // the file is searched once per close tag, and a tag's attributes within its first 4 KiB, so
  // this takes milliseconds (a search per start tag to the end would take minutes).
  std::string hostile;
  for (int i = 0; i < 100000; ++i) hostile += "<source id='a'><sampler id='s'><node id='n' ";
  hostile += "<Name_array>STEP STEP</Name_array></sampler></source>";
  EXPECT_TRUE(FindNonLinearDaeChannels(hostile).empty());
  EXPECT_TRUE(FindNonLinearDaeChannels("<channel source='#s' target='").empty());
}

}  // namespace
}  // namespace animconv
