#include "animconv/share_key_times.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "animconv/sample.h"

namespace animconv {
namespace {

Channel MakeChannel(Path path, Interpolation interpolation, std::vector<double> times,
                    std::vector<double> values, int width) {
  Channel channel;
  channel.node = 0;
  channel.path = path;
  channel.interpolation = interpolation;
  channel.times_seconds = std::move(times);
  channel.values = std::move(values);
  channel.width = width;
  return channel;
}

// A turn about a tilted axis: the angle at each time (unit quaternions, as the model holds them).
std::vector<double> Turn(const std::vector<double>& angles) {
  const double length = std::sqrt(1.0 + 4.0 + 9.0);
  const double axis[3] = {1 / length, 2 / length, 3 / length};
  std::vector<double> values;
  for (double angle : angles) {
    const double half = 0.5 * angle;
    values.insert(values.end(), {axis[0] * std::sin(half), axis[1] * std::sin(half),
                                 axis[2] * std::sin(half), std::cos(half)});
  }
  return values;
}

// The largest difference between two channels' values, evaluated at every key time of either
// and at 200 times between 0.1 s before the first and after the last.
double LargestDifference(const Channel& a, const Channel& b) {
  std::vector<double> times = a.times_seconds;
  times.insert(times.end(), b.times_seconds.begin(), b.times_seconds.end());
  const double first = std::min(a.times_seconds.front(), b.times_seconds.front()) - 0.1;
  const double last = std::max(a.times_seconds.back(), b.times_seconds.back()) + 0.1;
  for (int i = 0; i <= 200; ++i) times.push_back(first + (last - first) * i / 200.0);
  double worst = 0;
  std::vector<double> va(static_cast<size_t>(a.width));
  std::vector<double> vb(static_cast<size_t>(b.width));
  for (double seconds : times) {
    EvaluateChannel(a, seconds, va.data());
    EvaluateChannel(b, seconds, vb.data());
    for (size_t c = 0; c < va.size(); ++c) worst = std::max(worst, std::abs(va[c] - vb[c]));
  }
  return worst;
}

// ShareKeyTimes in place: `clip` becomes the shared clip when one is returned.
void Share(Clip& clip, const ShareKeyTimesOptions& options, ShareKeyTimesReport* report) {
  if (std::optional<Clip> shared = ShareKeyTimes(clip, options, report)) clip = std::move(*shared);
}

// Every other time accessor costs more than the keys it would take: the estimate merges.
ShareKeyTimesOptions Eager() {
  ShareKeyTimesOptions options;
  options.accessor_bytes = 1e6;
  return options;
}

TEST(ShareKeyTimesTest, ChannelsOnDifferentTimesShareTheirUnionAndPlayTheSame) {
  Clip clip;
  clip.channels.push_back(
      MakeChannel(Path::kRotation, Interpolation::kLinear, {0, 0.5, 1.0}, Turn({0, 1.0, 0.2}), 4));
  clip.channels.push_back(MakeChannel(Path::kTranslation, Interpolation::kLinear, {0.25, 0.75, 1.5},
                                      {0, 1, 2, 3, 4, 5, -1, 0.5, 7}, 3));
  clip.channels.push_back(
      MakeChannel(Path::kWeights, Interpolation::kStep, {0, 0.75}, {0.1, 0.9, 0.6, 0.2}, 2));
  const Clip before = clip;
  ShareKeyTimesReport report;
  Share(clip, Eager(), &report);
  const std::vector<double> shared = {0, 0.25, 0.5, 0.75, 1.0, 1.5};
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    SCOPED_TRACE(c);
    EXPECT_EQ(clip.channels[c].times_seconds, shared);
    EXPECT_EQ(clip.channels[c].values.size(), shared.size() * clip.channels[c].width);
    EXPECT_LT(LargestDifference(before.channels[c], clip.channels[c]), 1e-13);
  }
  EXPECT_EQ(report.time_sets_before, 3u);
  EXPECT_EQ(report.time_sets_after, 1u);
  EXPECT_EQ(report.channels_moved, 3u);
  EXPECT_EQ(report.keys_added, 3u + 3u + 4u);
  EXPECT_NE(report.Describe().find("3 key-time set(s) -> 1"), std::string::npos);
  // A key the channel had keeps its value exactly.
  EXPECT_EQ(clip.channels[0].key_value(2)[3], before.channels[0].key_value(1)[3]);
}

TEST(ShareKeyTimesTest, NothingMovesWhereTheKeysCostMoreThanAnAccessor) {
  Clip clip;
  clip.channels.push_back(
      MakeChannel(Path::kRotation, Interpolation::kLinear, {0, 0.5, 1.0}, Turn({0, 1.0, 0.2}), 4));
  clip.channels.push_back(MakeChannel(Path::kRotation, Interpolation::kLinear, {0, 0.3, 0.6, 1.0},
                                      Turn({0, 0.4, 0.1, 0.2}), 4));
  const Clip before = clip;
  ShareKeyTimesOptions options;
  options.accessor_bytes = 10;  // less than the 2 x 3 rotation keys (8 bytes each) it would take
  ShareKeyTimesReport report;
  Share(clip, options, &report);
  EXPECT_EQ(clip.channels[0].times_seconds, before.channels[0].times_seconds);
  EXPECT_EQ(clip.channels[1].values, before.channels[1].values);
  EXPECT_EQ(report.channels_moved, 0u);
  EXPECT_EQ(report.time_sets_after, 2u);
  const auto stored = [](const Channel& channel) {
    return std::vector<float>(channel.times_seconds.begin(), channel.times_seconds.end());
  };
  // At the default estimate (100 bytes an accessor, 4 a time) the three added keys pay: 100 + 4 x 2
  // saved against 8 x 3 added.
  Share(clip, ShareKeyTimesOptions{}, &report);
  EXPECT_EQ(stored(clip.channels[0]), stored(clip.channels[1]));
  EXPECT_EQ(clip.channels[0].key_count(), 5u);
}

TEST(ShareKeyTimesTest, CubicSplinesKeepTheirKeys) {
  Clip clip;
  // One key: in-tangent, value, out-tangent.
  clip.channels.push_back(MakeChannel(Path::kTranslation, Interpolation::kCubicSpline, {0.1, 0.9},
                                      {0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0}, 3));
  clip.channels.push_back(MakeChannel(Path::kTranslation, Interpolation::kLinear, {0, 0.5, 1.0},
                                      {0, 0, 0, 1, 1, 1, 2, 2, 2}, 3));
  const Clip before = clip;
  ShareKeyTimesReport report;
  Share(clip, Eager(), &report);
  EXPECT_EQ(clip.channels[0].times_seconds, before.channels[0].times_seconds);
  EXPECT_EQ(clip.channels[0].values, before.channels[0].values);
  EXPECT_EQ(clip.channels[1].times_seconds, before.channels[1].times_seconds);
  EXPECT_EQ(report.time_sets_before, 2u);
  EXPECT_EQ(report.time_sets_after, 2u);
}

TEST(ShareKeyTimesTest, TimesAreComparedAsTheFloat32TheyAreWrittenWith) {
  Clip clip;
  const double single = static_cast<float>(0.1);  // 0.10000000149011612
  clip.channels.push_back(
      MakeChannel(Path::kTranslation, Interpolation::kLinear, {0, 0.1}, {0, 0, 0, 1, 1, 1}, 3));
  clip.channels.push_back(MakeChannel(Path::kTranslation, Interpolation::kLinear, {0, single, 0.2},
                                      {0, 0, 0, 2, 2, 2, 3, 3, 3}, 3));
  ShareKeyTimesReport report;
  Share(clip, Eager(), &report);
  // 0.1 and its float32 are one key: the first channel takes only 0.2, and keeps its own 0.1.
  ASSERT_EQ(clip.channels[0].key_count(), 3u);
  EXPECT_EQ(clip.channels[0].times_seconds[1], 0.1);
  EXPECT_EQ(clip.channels[0].times_seconds[2], static_cast<double>(static_cast<float>(0.2)));
  EXPECT_EQ(report.keys_added, 1u);
  EXPECT_EQ(report.time_sets_before, 2u);
  EXPECT_EQ(report.time_sets_after, 1u);
}

TEST(ShareKeyTimesTest, AClipWithMoreTimeSetsThanTheLimitIsLeftAsItIs) {
  Clip clip;
  for (int c = 0; c < 5; ++c) {
    clip.channels.push_back(MakeChannel(Path::kTranslation, Interpolation::kLinear,
                                        {0, 0.1 * (c + 1)}, {0, 0, 0, 1, 1, 1}, 3));
  }
  const Clip before = clip;
  ShareKeyTimesOptions options = Eager();
  options.max_time_sets = 4;
  ShareKeyTimesReport report;
  Share(clip, options, &report);
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    EXPECT_EQ(clip.channels[c].times_seconds, before.channels[c].times_seconds);
  }
  EXPECT_EQ(report.time_sets_before, 5u);
  EXPECT_EQ(report.time_sets_after, 5u);
}

}  // namespace
}  // namespace animconv
