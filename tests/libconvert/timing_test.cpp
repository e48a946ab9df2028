#include "animconv/timing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "animconv/error.h"
#include "animconv/quaternion.h"
#include "animconv/resample.h"
#include "animconv/sample.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::MakeChannel;

constexpr double kPi = 3.14159265358979323846;

Quat AboutY(double radians) { return {0, std::sin(radians / 2), 0, std::cos(radians / 2)}; }

std::vector<double> Evaluate(const Channel& channel, double seconds) {
  std::vector<double> out(static_cast<size_t>(channel.width));
  EvaluateChannel(channel, seconds, out.data());
  return out;
}

// The largest difference between two evaluations: rotation angle in radians for rotations.
double Distance(const Channel& channel, const std::vector<double>& a,
                const std::vector<double>& b) {
  if (channel.path == Path::kRotation) return AngleBetween(LoadQuat(a.data()), LoadQuat(b.data()));
  double distance = 0;
  for (size_t i = 0; i < a.size(); ++i) distance = std::max(distance, std::abs(a[i] - b[i]));
  return distance;
}

// A clip with a rotation, a translation, a step weights channel and a cubic translation, keys at
// random strictly increasing times; rotations turn up to 120 degrees between keys.
Clip RandomClip(std::mt19937& random) {
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_real_distribution<double> gap(0.05, 0.5);
  auto times = [&](size_t count) {
    std::vector<double> out{gap(random) < 0.2 ? 0.0 : gap(random)};
    while (out.size() < count) out.push_back(out.back() + gap(random));
    return out;
  };
  Clip clip;
  clip.name = "random";
  std::vector<double> rotation;
  double angle = 0;
  for (size_t k = 0; k < 8; ++k) {
    angle += unit(random) * 2 * kPi / 3;
    const Quat q = AboutY(angle);
    rotation.insert(rotation.end(), q.begin(), q.end());
  }
  clip.channels.push_back(MakeChannel(0, Path::kRotation, times(8), rotation, 4));
  std::vector<double> translation(18);
  for (double& value : translation) value = unit(random);
  clip.channels.push_back(MakeChannel(0, Path::kTranslation, times(6), translation, 3));
  std::vector<double> weights(10);
  for (double& value : weights) value = unit(random);
  clip.channels.push_back(
      MakeChannel(1, Path::kWeights, times(5), weights, 2, Interpolation::kStep));
  std::vector<double> cubic(5 * 3 * 3);
  for (double& value : cubic) value = unit(random);
  clip.channels.push_back(
      MakeChannel(0, Path::kScale, times(5), cubic, 3, Interpolation::kCubicSpline));
  return clip;
}

// Every channel of `changed` at map(t) equals `original` at t, for t on a fine grid in [from, to].
template <typename Map>
void ExpectMapped(const Clip& original, const Clip& changed, double from, double to, Map map) {
  ASSERT_EQ(original.channels.size(), changed.channels.size());
  for (size_t c = 0; c < original.channels.size(); ++c) {
    const Channel& channel = original.channels[c];
    for (int i = 0; i <= 400; ++i) {
      const double seconds = from + (to - from) * i / 400.0;
      // Step channels jump at a key; a time that rounds across one compares different keys.
      const auto key = std::lower_bound(channel.times_seconds.begin(), channel.times_seconds.end(),
                                        seconds - 1e-9);
      if (channel.interpolation == Interpolation::kStep && key != channel.times_seconds.end() &&
          std::abs(*key - seconds) < 1e-9) {
        continue;
      }
      EXPECT_LT(Distance(channel, Evaluate(channel, seconds),
                         Evaluate(changed.channels[c], map(seconds))),
                1e-9)
          << "channel " << c << " at " << seconds << " s";
    }
  }
}

TEST(TimingTest, ResampleAtTheOriginalRateIsTheIdentity) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  Clip clip;
  clip.name = "walk";
  std::vector<double> times;
  // Key times as readers make them (row * interval), not k / fps: the grid snaps onto them.
  for (int row = 0; row < 60; ++row) times.push_back(row * 0.2);
  std::vector<double> rotation;
  std::vector<double> translation;
  for (int row = 0; row < 60; ++row) {
    const Quat q = Normalized({unit(random), unit(random), unit(random), unit(random)});
    rotation.insert(rotation.end(), q.begin(), q.end());
    for (int i = 0; i < 3; ++i) translation.push_back(unit(random));
  }
  clip.channels.push_back(MakeChannel(0, Path::kRotation, times, rotation, 4));
  clip.channels.push_back(
      MakeChannel(0, Path::kTranslation, times, translation, 3, Interpolation::kStep));
  const Clip original = clip;
  ResampleClip(clip, 5);
  for (size_t c = 0; c < clip.channels.size(); ++c) {
    EXPECT_EQ(clip.channels[c].times_seconds, original.channels[c].times_seconds);
    EXPECT_EQ(clip.channels[c].values, original.channels[c].values);
    EXPECT_EQ(clip.channels[c].interpolation, original.channels[c].interpolation);
  }
}

TEST(TimingTest, TrimSpeedAndOffsetKeepValuesAtMappedTimes) {
  std::mt19937 random(42);
  for (int round = 0; round < 50; ++round) {
    const Clip original = RandomClip(random);
    const double duration = original.duration();
    std::uniform_real_distribution<double> within(0, duration);
    double start = within(random);
    double end = within(random);
    if (start > end) std::swap(start, end);
    if (end - start < 0.01) continue;

    SCOPED_TRACE(::testing::Message() << "round " << round << ", trim " << start << ":" << end);
    Clip trimmed = original;
    TrimClip(trimmed, {start, end});
    EXPECT_DOUBLE_EQ(trimmed.duration(), end - start);
    ExpectMapped(original, trimmed, start, end, [&](double t) { return t - start; });

    const double factor = std::uniform_real_distribution<double>(0.25, 4)(random);
    Clip faster = original;
    ChangeSpeed(faster, factor);
    ExpectMapped(original, faster, 0, duration, [&](double t) { return t / factor; });

    const double offset = std::uniform_real_distribution<double>(0, 3)(random);
    Clip later = original;
    OffsetClip(later, offset);
    ExpectMapped(original, later, 0, duration, [&](double t) { return t + offset; });
  }
}

TEST(TimingTest, TrimSplitsACubicRotationOnTheCurve) {
  // Cubic rotations are renormalised after the Hermite, so a split is exact only to first
  // order: the halves agree in value and derivative at the cut. Keys as exporters write them:
  // tangents are the derivative of the turn (about Y at 1.5, 1.25 and 1 rad/s). Measured: under
  // 0.06 degrees on keys 1.5 rad apart.
  std::vector<double> values;
  const double angles[3] = {0, 1.5, 2.5};
  const double speeds[3] = {1.5, 1.25, 1};
  for (int k = 0; k < 3; ++k) {
    const Quat q = AboutY(angles[k]);
    const double tangent[4] = {0, std::cos(angles[k] / 2) * speeds[k] / 2, 0,
                               -std::sin(angles[k] / 2) * speeds[k] / 2};
    values.insert(values.end(), tangent, tangent + 4);
    values.insert(values.end(), q.begin(), q.end());
    values.insert(values.end(), tangent, tangent + 4);
  }
  Clip clip;
  clip.channels.push_back(
      MakeChannel(0, Path::kRotation, {0, 1, 2}, values, 4, Interpolation::kCubicSpline));
  const Clip original = clip;
  TrimClip(clip, {0.4, 1.7});
  ASSERT_EQ(clip.channels[0].times_seconds, (std::vector<double>{0, 1 - 0.4, 1.7 - 0.4}));
  for (int i = 0; i <= 100; ++i) {
    const double seconds = 0.4 + 1.3 * i / 100.0;
    EXPECT_LT(Distance(original.channels[0], Evaluate(original.channels[0], seconds),
                       Evaluate(clip.channels[0], seconds - 0.4)),
              1.5e-3)
        << seconds;
  }
}

TEST(TimingTest, ResamplingA270DegreeTurnKeepsEverySampleOnTheCurve) {
  // 270 degrees about Y over three keys (135 degrees each): the short path between neighbours is
  // the turn itself; the first and last key alone would be a 90 degree turn the other way.
  std::vector<double> values;
  for (double degrees : {0.0, 135.0, 270.0}) {
    const Quat q = AboutY(degrees * kPi / 180);
    values.insert(values.end(), q.begin(), q.end());
  }
  Clip clip;
  clip.channels.push_back(MakeChannel(0, Path::kRotation, {0, 1, 2}, values, 4));
  ResampleClip(clip, 10);
  Channel& channel = clip.channels[0];
  ASSERT_EQ(channel.key_count(), 21u);
  // What the pipeline does before writing: must not change the path the samples describe.
  AlignHemispheres(channel);
  double path = 0;
  for (size_t k = 0; k < channel.key_count(); ++k) {
    const double seconds = channel.times_seconds[k];
    EXPECT_NEAR(seconds, static_cast<double>(k) / 10.0, 1e-15);
    EXPECT_LT(AngleBetween(LoadQuat(channel.key_value(k)), AboutY(seconds * 135 * kPi / 180)),
              1e-12);
    if (k == 0) continue;
    path += AngleBetween(LoadQuat(channel.key_value(k - 1)), LoadQuat(channel.key_value(k)));
    // Between samples too: the output played back follows the original turn.
    const double middle = seconds - 0.05;
    const std::vector<double> played = Evaluate(channel, middle);
    EXPECT_LT(AngleBetween(LoadQuat(played.data()), AboutY(middle * 135 * kPi / 180)), 1e-12);
  }
  EXPECT_NEAR(path, 270 * kPi / 180, 1e-12);
}

TEST(TimingTest, StepStaysStepWithSampledValuesHolding) {
  Clip clip;
  clip.channels.push_back(
      MakeChannel(0, Path::kWeights, {0, 0.25, 1}, {0, 1, 2}, 1, Interpolation::kStep));
  ResampleClip(clip, 10);
  const Channel& channel = clip.channels[0];
  EXPECT_EQ(channel.interpolation, Interpolation::kStep);
  ASSERT_EQ(channel.key_count(), 11u);
  // The change at 0.25 s shows at the first grid point after it, 0.3 s.
  const std::vector<double> expected{0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2};
  EXPECT_EQ(channel.values, expected);
}

TEST(TimingTest, CubicIsEvaluatedWithTangentsPerSecond) {
  // One segment of 2 s: tangents per second are multiplied by t_d = 2 (glTF 2.0 Appendix C
  // (CUBICSPLINE)).
  const double v0 = 1, b0 = 3, a1 = -2, v1 = 4;
  Clip clip;
  clip.channels.push_back(MakeChannel(0, Path::kWeights, {0, 2}, {0, v0, b0, a1, v1, 0}, 1,
                                      Interpolation::kCubicSpline));
  const Clip original = clip;
  ResampleClip(clip, 4);
  const Channel& channel = clip.channels[0];
  EXPECT_EQ(channel.interpolation, Interpolation::kLinear);
  ASSERT_EQ(channel.key_count(), 9u);
  for (size_t k = 0; k < channel.key_count(); ++k) {
    const double s = static_cast<double>(k) / 8.0;
    const double hermite = (2 * s * s * s - 3 * s * s + 1) * v0 +
                           2 * (s * s * s - 2 * s * s + s) * b0 +
                           (-2 * s * s * s + 3 * s * s) * v1 + 2 * (s * s * s - s * s) * a1;
    EXPECT_NEAR(channel.values[k], hermite, 1e-12) << "s = " << s;
  }
  // Playing twice as fast doubles the per-second tangents: the same curve, in half the time.
  Clip faster = original;
  ChangeSpeed(faster, 2);
  EXPECT_EQ(faster.channels[0].values, (std::vector<double>{0, v0, 2 * b0, 2 * a1, v1, 0}));
  ExpectMapped(original, faster, 0, 2, [](double t) { return t / 2; });
}

TEST(TimingTest, LoopEndsOnTheFirstValueWithASmoothBlend) {
  // x = t over 1 s at 30 keys/s: the end is 1 away from the start.
  std::vector<double> times;
  std::vector<double> values;
  for (int k = 0; k <= 30; ++k) {
    times.push_back(k / 30.0);
    values.insert(values.end(), {k / 30.0, 0, 0});
  }
  Clip clip;
  clip.channels.push_back(MakeChannel(0, Path::kTranslation, times, values, 3));
  LoopClip(clip, 0.2);
  const Channel& channel = clip.channels[0];
  ASSERT_EQ(channel.times_seconds, times);  // 0.8 s is a key already
  EXPECT_EQ(channel.key_value(30)[0], 0);   // the first value, exactly
  for (int k = 0; k < 30; ++k) {
    const double seconds = k / 30.0;
    const double s = std::max(0.0, (seconds - 0.8) / 0.2);
    // The motion continues, with smoothstep(s) of the end-to-start difference added.
    EXPECT_NEAR(channel.key_value(k)[0], seconds - s * s * (3 - 2 * s), 1e-12) << k;
  }

  // A rotation turning 90 degrees: the last key is the first, every step stays small.
  std::vector<double> rotation;
  for (int k = 0; k <= 30; ++k) {
    const Quat q = AboutY(k / 30.0 * kPi / 2);
    rotation.insert(rotation.end(), q.begin(), q.end());
  }
  Clip turn;
  turn.channels.push_back(MakeChannel(0, Path::kRotation, times, rotation, 4));
  LoopClip(turn, 0.2);
  const Channel& looped = turn.channels[0];
  ASSERT_EQ(looped.key_count(), 31u);
  EXPECT_EQ(LoadQuat(looped.key_value(30)), LoadQuat(looped.key_value(0)));
  for (size_t k = 1; k < looped.key_count(); ++k) {
    const double step =
        AngleBetween(LoadQuat(looped.key_value(k - 1)), LoadQuat(looped.key_value(k)));
    // 3 degrees per key of motion; the correction adds at most 1.5 (smoothstep's steepest slope)
    // times 90 degrees over 6 keys.
    EXPECT_LT(step, (3 + 1.5 * 90 / 6 + 1e-9) * kPi / 180) << k;
    if (k < 24) {
      EXPECT_EQ(LoadQuat(looped.key_value(k)), LoadQuat(&rotation[4 * k]));  // before the window
    }
  }
}

TEST(TimingTest, LoopAddsKeysAtTheWindowStartAndTheClipEnd) {
  Clip clip;
  clip.duration_seconds = 2;
  clip.channels.push_back(MakeChannel(0, Path::kWeights, {0, 1}, {0, 1}, 1));
  LoopClip(clip, kDefaultLoopBlendSeconds);
  EXPECT_EQ(clip.channels[0].times_seconds, (std::vector<double>{0, 1, 1.9, 2}));
  EXPECT_EQ(clip.channels[0].values, (std::vector<double>{0, 1, 1, 0}));
}

TEST(TimingTest, InterpolationConversionsKeepTheShape) {
  Clip clip;
  clip.channels.push_back(
      MakeChannel(0, Path::kWeights, {0, 1, 2, 3}, {0, 5, 5, 7}, 1, Interpolation::kStep));
  ConvertInterpolation(clip, Interpolation::kLinear);
  const Channel& linear = clip.channels[0];
  EXPECT_EQ(linear.interpolation, Interpolation::kLinear);
  // The hold before each change is a key 1 ms earlier; 1 -> 2 changes nothing.
  EXPECT_EQ(linear.times_seconds,
            (std::vector<double>{0, 1 - kStepHoldSeconds, 1, 2, 3 - kStepHoldSeconds, 3}));
  EXPECT_EQ(linear.values, (std::vector<double>{0, 0, 5, 5, 5, 7}));

  Clip step = clip;
  ConvertInterpolation(step, Interpolation::kStep);
  EXPECT_EQ(step.channels[0].times_seconds, linear.times_seconds);
  EXPECT_EQ(step.channels[0].values, linear.values);

  Clip cubic;
  cubic.channels.push_back(MakeChannel(0, Path::kWeights, {0, 0.05, 0.1},
                                       {0, 0, 2, 1, 1, -3, 0, 0, 0}, 1,
                                       Interpolation::kCubicSpline));
  const Clip original = cubic;
  ConvertInterpolation(cubic, Interpolation::kLinear);
  // Every key kept, and keys added where the chords would leave the curve: it plays within half
  // the 0.001 weight tolerance. A 30 fps grid's chords (what it wrote before) are 0.2 off.
  const std::vector<double>& times = cubic.channels[0].times_seconds;
  for (const double key : {0.0, 0.05, 0.1}) {
    EXPECT_NE(std::find(times.begin(), times.end(), key), times.end()) << key;
  }
  EXPECT_LE(PlaybackError(original.channels[0], cubic.channels[0]), 0.0005);
  const Channel grid = MakeChannel(
      0, Path::kWeights, {0, 1 / 30.0, 0.05, 2 / 30.0, 0.1},
      {Evaluate(original.channels[0], 0)[0], Evaluate(original.channels[0], 1 / 30.0)[0],
       Evaluate(original.channels[0], 0.05)[0], Evaluate(original.channels[0], 2 / 30.0)[0],
       Evaluate(original.channels[0], 0.1)[0]},
      1);
  EXPECT_GT(PlaybackError(original.channels[0], grid), 0.01);
  for (size_t k = 0; k < cubic.channels[0].key_count(); ++k) {
    EXPECT_EQ(cubic.channels[0].values[k],
              Evaluate(original.channels[0], cubic.channels[0].times_seconds[k])[0]);
  }
}

TEST(TimingTest, ResampleMeasuresHowFarTheGridPlaysFromTheInput) {
  // A linear peak at 0.5 s: a 3 fps grid (0, 1/3, 2/3, 1) misses it and cuts the corner.
  Clip clip;
  clip.channels.push_back(MakeChannel(2, Path::kWeights, {0, 0.5, 1}, {0, 1, 0}, 1));
  PlaybackErrors errors;
  ResampleClip(clip, 3, &errors);
  const size_t weights = static_cast<size_t>(Path::kWeights);
  // At 0.5 s the grid plays the chord between 2/3 (at 1/3 s) and 2/3 (at 2/3 s): 1/3 off.
  EXPECT_NEAR(errors.max[weights], 1.0 / 3, 1e-9);
  EXPECT_EQ(errors.worst_node[weights], 2);
  // A grid through every key plays the input exactly.
  Clip on_keys;
  on_keys.channels.push_back(MakeChannel(2, Path::kWeights, {0, 0.5, 1}, {0, 1, 0}, 1));
  PlaybackErrors exact;
  ResampleClip(on_keys, 2, &exact);
  EXPECT_LT(exact.max[weights], 1e-12);
}

TEST(TimingTest, ApplyTimingTrimsInInputSecondsThenChangesSpeed) {
  std::mt19937 random(3);
  Asset asset;
  asset.clips.push_back(RandomClip(random));
  const Clip original = asset.clips[0];
  TimingOptions options;
  options.trim = TrimRange{0.5, 1.5};
  options.speed = 2;
  options.offset_seconds = 0.25;
  const TimingReport report = ApplyTiming(asset, options);
  EXPECT_EQ(report.keys_before, 8u + 6 + 5 + 5);
  EXPECT_EQ(report.keys_after,
            asset.clips[0].channels[0].key_count() + asset.clips[0].channels[1].key_count() +
                asset.clips[0].channels[2].key_count() + asset.clips[0].channels[3].key_count());
  EXPECT_DOUBLE_EQ(asset.clips[0].duration(), 0.75);
  ExpectMapped(original, asset.clips[0], 0.5, 1.5, [](double t) { return (t - 0.5) / 2 + 0.25; });
}

void ExpectUsageError(const std::function<void()>& run, const std::string& message) {
  try {
    run();
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
  }
}

TEST(TimingTest, OptionsOutOfRangeAreUsageErrors) {
  Clip clip;
  clip.name = "walk";
  clip.channels.push_back(MakeChannel(0, Path::kWeights, {0, 1, 2}, {0, 1, 2}, 1));
  clip.channels.push_back(MakeChannel(0, Path::kTranslation, {0, 2},
                                      {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5}, 3,
                                      Interpolation::kCubicSpline));
  auto copy = [&] { return clip; };
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ChangeSpeed(c, 0);
      },
      "--speed 0: must be a number above 0");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ChangeSpeed(c, -1.5);
      },
      "--speed -1.5");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ChangeSpeed(c, 1e-310);
      },
      "key 1 at inf s, out of range");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        OffsetClip(c, 1e17);
      },
      "not after the key before it");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ResampleClip(c, 0);
      },
      "--resample 0: must be frames");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ResampleClip(c, 1e12);
      },
      "more than the limit");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        TrimClip(c, {3, 1.0});
      },
      "0 <= START < END");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        TrimClip(c, {1, 6.0});
      },
      "--trim 1:6: clip 'walk' is only 2 s long");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        OffsetClip(c, -0.5);
      },
      "--offset -0.5: clip 'walk', channel 0 would have key 0 at -0.5 s, before 0");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        LoopClip(c, 0.1);
      },
      "--loop cannot blend the cubic spline of clip 'walk', channel 1");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        LoopClip(c, 0);
      },
      "--loop-blend 0");
  ExpectUsageError(
      [&] {
        Clip c = copy();
        ConvertInterpolation(c, Interpolation::kCubicSpline);
      },
      "--interpolation must be linear or step");
  // A trim up to the end keeps the clip's own end.
  Clip c = copy();
  TrimClip(c, {0.5, std::nullopt});
  EXPECT_EQ(c.channels[0].times_seconds, (std::vector<double>{0, 0.5, 1.5}));
}

}  // namespace
}  // namespace animconv
