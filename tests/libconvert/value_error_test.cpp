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
  const double reference[] = {2, 1, 0};
  const double value[] = {3, 1, 0.25};
  // 3 / 2 - 1 = 0.5; the zero reference has no ratio, so its absolute value counts (0.25).
  EXPECT_EQ(ValueError(Path::kScale, reference, 3, value, 3), 0.5);
  const double small[] = {2, 1, 0.75};
  EXPECT_EQ(ValueError(Path::kScale, reference, 3, small, 3), 0.75);
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
