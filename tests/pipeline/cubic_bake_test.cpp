// RenderAsset's cubic-spline bake for formats without CUBICSPLINE (docs/timing.md, "Cubic splines
// into formats without them"): the motion changes within a tolerance, so the user is warned.
#include <gtest/gtest.h>

#include <algorithm>

#include "animconv/convert.h"
#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "test_support.h"

namespace animconv {
namespace {

TEST(CubicBakeTest, ThreeJsonGetsTheBakedCurveAndAWarningSayingSo) {
  Asset asset = testing::MakeAsset({"bone"});
  // Equal keys, tangents of 4 m/s: a 0.19 m swing between the keys that a chord loses.
  asset.clips[0].channels = {testing::MakeChannel(
      0, Path::kTranslation, {0, 0.5}, {4, 0, 0, 0, 0, 0, 4, 0, 0, 4, 0, 0, 0, 0, 0, 4, 0, 0}, 3,
      Interpolation::kCubicSpline)};
  const Format* three = FindFormat("three");
  ASSERT_NE(three, nullptr);
  ASSERT_FALSE(three->accepts_cubic);
  Diagnostics diagnostics;
  const std::string json = RenderAsset(asset, *three, ConvertOptions{}, &diagnostics);
  const auto warning = std::find_if(
      diagnostics.begin(), diagnostics.end(),
      [](const Diagnostic& d) { return d.text.find("has no cubic splines") != std::string::npos; });
  ASSERT_NE(warning, diagnostics.end());
  EXPECT_EQ(warning->severity, Severity::kWarning);
  EXPECT_NE(warning->text.find("three has no cubic splines: 1 cubic-spline channel(s) (2 keys) "
                               "baked to "),
            std::string::npos)
      << warning->text;
  EXPECT_NE(warning->text.find("(tolerance 0.0001)"), std::string::npos) << warning->text;
  // Many more keys than the 2 a chord would have.
  EXPECT_GT(std::count(json.begin(), json.end(), ','), 40);
}

}  // namespace
}  // namespace animconv
