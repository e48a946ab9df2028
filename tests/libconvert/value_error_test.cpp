#include "libconvert/value_error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace animconv {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(ValueErrorTest, RotationIsTheAngleInRadians) {
  const double identity[] = {0, 0, 0, 1};
  const double quarter_turn[] = {0, std::sin(kPi / 4), 0, std::cos(kPi / 4)};  // 90° about Y
  EXPECT_NEAR(ValueError(Path::kRotation, identity, 4, quarter_turn, 4), kPi / 2, 1e-12);
  // q and -q are one rotation.
  const double negated[] = {0, 0, 0, -1};
  EXPECT_EQ(ValueError(Path::kRotation, identity, 4, negated, 4), 0);
}

TEST(ValueErrorTest, TranslationIsTheDistance) {
  const double a[] = {1, 2, 3};
  const double b[] = {4, 6, 3};
  EXPECT_EQ(ValueError(Path::kTranslation, a, 3, b, 3), 5);
  EXPECT_EQ(ValueError(Path::kTranslation, b, 3, a, 3), 5);
}

TEST(ValueErrorTest, ScaleIsTheLargestRatioOffOne) {
  const double reference[] = {2, 1, 1};
  const double value[] = {3, 1, 1.25};
  EXPECT_EQ(ValueError(Path::kScale, reference, 3, value, 3), 0.5);  // 3 / 2 - 1
  const double small[] = {2, 1, 1.75};
  EXPECT_EQ(ValueError(Path::kScale, reference, 3, small, 3), 0.75);
}

TEST(ValueErrorTest, ScaleNearZeroIsDividedByTheFloorNotItself) {
  // A hidden object's scale wobbling from 0.0001 to 0.000276 is no "176 %" error: below the
  // floor (1e-3) the difference is divided by the floor, 1.76e-4 / 1e-3 = 0.176.
  const double tiny[] = {1, 1, 1e-4};
  const double wobble[] = {1, 1, 2.76e-4};
  EXPECT_NEAR(ValueError(Path::kScale, tiny, 3, wobble, 3), 0.176, 1e-12);
  // Finite at 0 and continuous at the floor: just above and just below it agree.
  const double zero[] = {1, 1, 0};
  const double micro[] = {1, 1, 1e-6};
  EXPECT_NEAR(ValueError(Path::kScale, zero, 3, micro, 3), 1e-3, 1e-15);
  const double at_floor[] = {1, 1, kScaleRatioFloor};
  const double below[] = {1, 1, kScaleRatioFloor * (1 - 1e-9)};
  const double up[] = {1, 1, 2 * kScaleRatioFloor};
  EXPECT_NEAR(ValueError(Path::kScale, at_floor, 3, up, 3), 1, 1e-12);
  EXPECT_NEAR(ValueError(Path::kScale, below, 3, up, 3), 1, 1e-6);
  // At and above the floor the ratio is computed exactly as |b / a - 1|, so --reduce keeps the
  // same keys it always kept.
  const double a[] = {0.3, 1, 1};
  const double b[] = {0.7, 1, 1};
  EXPECT_EQ(ValueError(Path::kScale, a, 3, b, 3), std::abs(0.7 / 0.3 - 1));
}

TEST(ValueErrorTest, WeightsMissingOnOneSideWeighZero) {
  const std::vector<double> two = {0.5, 0.25};
  const std::vector<double> three = {0.5, 0.5, 0.125};
  EXPECT_EQ(ValueError(Path::kWeights, two.data(), 2, three.data(), 3), 0.25);
  const std::vector<double> big_third = {0.5, 0.25, 0.75};
  EXPECT_EQ(ValueError(Path::kWeights, two.data(), 2, big_third.data(), 3), 0.75);
  EXPECT_EQ(ValueError(Path::kWeights, big_third.data(), 3, two.data(), 2), 0.75);
}

}  // namespace
}  // namespace animconv
