// Diagnostics through the API (animconv/diagnostic.h): what readers, writers and the jobs tell
// reaches the caller in order, with no logger, and survives an error thrown after it.
#include <gtest/gtest.h>

#include <filesystem>

#include "animconv/convert.h"
#include "animconv/diagnostic.h"
#include "animconv/error.h"
#include "animconv/format.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::TempDir;

// The sample's morph weights channel has no place in three-hierarchy (docs/formats).
const Diagnostic kDroppedWeights{Severity::kWarning,
                                 "three-hierarchy: 1 morph weight channel(s) not written "
                                 "(parseAnimation's morph branch throws in every three.js "
                                 "version that has it)"};

// A three.js clip with a bool track, which the reader skips with a warning, before `more`.
std::string ThreeClipWithBoolTrack(const std::string& more) {
  return R"({"name":"c","tracks":[{"name":"hips.visible","type":"bool","times":[0],"values":[1]},
            {"name":"hips.quaternion","type":"quaternion","times":[0,1],
             "values":[0,0,0,1,0,0,0,1]})" +
         more + "]}";
}

TEST(DiagnosticsTest, ConvertReportHoldsTheWritersWarningInOrder) {
  TempDir dir;
  ConvertOptions options;
  // The hierarchy output holds no animation (the cube's clip is morph weights only): a partial
  // output, written here on purpose so the writer's warning is in the report.
  options.allow_partial = true;
  const ConvertReport report = ConvertFile(testing::SourcePath("data/gltf/morph_cube.gltf"),
                                           dir.File("cube.hierarchy.json"), options);
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics.front(),
            (Diagnostic{Severity::kDebug,
                        testing::SourcePath("data/gltf/morph_cube.gltf") + ": read as gltf"}));
  EXPECT_EQ(report.diagnostics.back(), kDroppedWeights);
}

TEST(DiagnosticsTest, DiagnosticsBeforeAnErrorStayInThePartialReport) {
  TempDir dir;
  ConvertReport report;
  ConvertOptions options;
  options.allow_partial = true;  // as above
  // The writer warns, then the output cannot be moved into place: its name is a folder's.
  std::filesystem::create_directory(dir.File("cube.hierarchy.json"));
  EXPECT_EQ(testing::ErrorKindOf([&] {
              ConvertFile(testing::SourcePath("data/gltf/morph_cube.gltf"),
                          dir.File("cube.hierarchy.json"), options, &report);
            }),
            ErrorKind::kIo);
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics.back(), kDroppedWeights);
  EXPECT_EQ(report.output_format->id, "three-hierarchy");
}

TEST(DiagnosticsTest, ReaderWarningsReachTheSinkAlsoWhenALaterTrackFails) {
  TempDir dir;
  const std::string path = dir.File("clip.json");
  testing::WriteText(path, ThreeClipWithBoolTrack(""));
  Diagnostics diagnostics;
  const LoadedAsset loaded = LoadAsset(path, ConvertOptions{}, &diagnostics);
  ASSERT_EQ(diagnostics.size(), 2u);
  EXPECT_EQ(diagnostics[0],
            (Diagnostic{Severity::kWarning,
                        "three: skipped track 'hips.visible': a bool track is not a transform or "
                        "morph weight"}));
  EXPECT_EQ(diagnostics[1].severity, Severity::kDebug);  // "read as three"

  testing::WriteText(path, ThreeClipWithBoolTrack(R"(,{"name":"hips.position","type":"vector"})"));
  Diagnostics before_error;
  EXPECT_EQ(testing::ErrorKindOf([&] { LoadAsset(path, ConvertOptions{}, &before_error); }),
            ErrorKind::kBadInput);
  ASSERT_EQ(before_error.size(), 1u);
  EXPECT_EQ(before_error[0], diagnostics[0]);
}

TEST(DiagnosticsTest, WritersReportThroughWriteOptionsAndANullSinkDropsThem) {
  Asset asset = testing::MakeAsset({"Root"});  // not a humanoid name: matched by name
  asset.clips[0].channels = {
      testing::MakeChannel(0, Path::kRotation, {0, 0.2}, {0, 0, 0, 1, 0, 0, 0, 1}, 4),
      testing::MakeChannel(0, Path::kTranslation, {0, 0.2}, {0, 1, 0, 0, 1, 0}, 3)};
  WriteOptions options;  // rows 0.2 s apart: the reader's default, no interval warning
  options.bone_names = {"Root"};
  Diagnostics diagnostics;
  options.diagnostics = &diagnostics;
  const Format& csv = *FindFormat("unity-csv");
  const std::string with_sink = csv.write(asset, options);
  EXPECT_EQ(diagnostics,
            (Diagnostics{{Severity::kWarning,
                          "unity-csv holds bone rotations only: 1 channel(s) not written: "
                          "Root.translation"}}));
  options.diagnostics = nullptr;
  EXPECT_EQ(csv.write(asset, options), with_sink);
}

TEST(DiagnosticsTest, SeverityNames) {
  EXPECT_STREQ(SeverityName(Severity::kDebug), "debug");
  EXPECT_STREQ(SeverityName(Severity::kInfo), "info");
  EXPECT_STREQ(SeverityName(Severity::kWarning), "warning");
}

}  // namespace
}  // namespace animconv
