#include "libconvert/text.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstring>
#include <random>
#include <string>

namespace animconv {
namespace {

std::string Fixed(double value, int decimals) {
  char buffer[40];
  return std::string(buffer, FormatFixed(value, decimals, buffer));
}

std::string Shortest(float value) {
  char buffer[40];
  return std::string(buffer, FormatShortest(value, buffer));
}

TEST(TextTest, FixedMatchesTheExportersF3) {
  EXPECT_EQ(Fixed(0.03, 3), "0.030");
  EXPECT_EQ(Fixed(-0.014, 3), "-0.014");
  EXPECT_EQ(Fixed(1, 3), "1.000");
  // Zero after rounding has no sign, as Unity prints it.
  EXPECT_EQ(Fixed(-0.0, 3), "0.000");
  EXPECT_EQ(Fixed(-0.0004, 3), "0.000");
  EXPECT_EQ(Fixed(-0.0005001, 3), "-0.001");
  EXPECT_EQ(Fixed(-0.0, 0), "0");
}

TEST(TextTest, ShortestFloatReadsBackAsTheSameFloat) {
  EXPECT_EQ(Shortest(0.2f), "0.2");
  EXPECT_EQ(Shortest(-0.0f), "0");
  EXPECT_EQ(Shortest(1.0f / 3), "0.33333334");
  std::mt19937 random(3);
  for (int i = 0; i < 100000; ++i) {
    const auto bits = static_cast<uint32_t>(random());
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value)) continue;
    const std::string text = Shortest(value);
    float back;
    ASSERT_EQ(std::from_chars(text.data(), text.data() + text.size(), back).ec, std::errc());
    ASSERT_EQ(back, value == 0 ? 0.0f : value) << text;
  }
}

TEST(TextTest, CaseInsensitiveCompareAndTrim) {
  EXPECT_TRUE(EqualsIgnoreCase("UpperChest", "upperchest"));
  EXPECT_FALSE(EqualsIgnoreCase("Hips", "Hip"));
  EXPECT_EQ(TrimAscii(" \t x y \r\n"), "x y");
  EXPECT_EQ(TrimAscii("   "), "");
}

}  // namespace
}  // namespace animconv
