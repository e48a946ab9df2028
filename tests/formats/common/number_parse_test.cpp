#include "formats/common/number_parse.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace animconv {
namespace {

bool Parse(const std::string& text, double* out, char mark = '.') {
  const char* cursor = text.data();
  const bool ok = ParseDecimal(&cursor, text.data() + text.size(), mark, out);
  return ok && cursor == text.data() + text.size();
}

TEST(NumberParseTest, PlainNumbers) {
  double value;
  ASSERT_TRUE(Parse("0.030", &value));
  EXPECT_EQ(value, 0.030);
  ASSERT_TRUE(Parse("-0.014", &value));
  EXPECT_EQ(value, -0.014);
  ASSERT_TRUE(Parse("+1", &value));
  EXPECT_EQ(value, 1);
  ASSERT_TRUE(Parse("-0.000", &value));
  EXPECT_TRUE(std::signbit(value));
  ASSERT_TRUE(Parse("1.5e-3", &value));
  EXPECT_EQ(value, 1.5e-3);
  ASSERT_TRUE(Parse("0,999", &value, ','));
  EXPECT_EQ(value, 0.999);
  ASSERT_TRUE(Parse("0.12345678901234567890123", &value));
  EXPECT_EQ(value, 0.12345678901234567890123);
}

TEST(NumberParseTest, RejectsNonNumbers) {
  double value;
  for (const char* text : {"", "-", ".", "nan", "NaN", "inf", "Infinity", "1e999", "x1"}) {
    const std::string s(text);
    const char* cursor = s.data();
    EXPECT_FALSE(ParseDecimal(&cursor, s.data() + s.size(), '.', &value)) << text;
    EXPECT_EQ(cursor, s.data());
  }
}

TEST(NumberParseTest, StopsAtTheFirstCharacterAfterTheNumber) {
  const std::string text = "0.5,1";
  const char* cursor = text.data();
  double value;
  ASSERT_TRUE(ParseDecimal(&cursor, text.data() + text.size(), '.', &value));
  EXPECT_EQ(*cursor, ',');
  const std::string dangling = "1.,";  // a mark with no digits after it is not part of the number
  cursor = dangling.data();
  ASSERT_TRUE(ParseDecimal(&cursor, dangling.data() + dangling.size(), '.', &value));
  EXPECT_EQ(*cursor, '.');
}

TEST(NumberParseTest, AgreesWithStrtodOnRandomDecimals) {
  std::mt19937_64 random(7);
  char buffer[64];
  for (int i = 0; i < 100000; ++i) {
    const double source = std::uniform_real_distribution<double>(-10, 10)(random);
    const int decimals = static_cast<int>(random() % 18);
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, source);
    double value;
    ASSERT_TRUE(Parse(buffer, &value)) << buffer;
    ASSERT_EQ(value, std::strtod(buffer, nullptr)) << buffer;
  }
}

}  // namespace
}  // namespace animconv
