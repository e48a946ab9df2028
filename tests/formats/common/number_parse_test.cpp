#include "formats/common/number_parse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>

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

// The exporter's "d.ddd" shape takes the fast path (a character must follow it): every such
// number, with each sign, against the division by 10^3 done at run time and against strtod.
TEST(NumberParseTest, EveryThreeDecimalNumberIsTheDivisionAndStrtodsValue) {
  volatile double thousand = 1e3;  // volatile: divided at run time, never folded
  for (int digits = 0; digits < 10000; ++digits) {
    for (const char* sign : {"", "-", "+"}) {
      char text[16];
      std::snprintf(text, sizeof text, "%s%d.%03d,", sign, digits / 1000, digits % 1000);
      const char* cursor = text;
      const char* const end = text + std::strlen(text);
      double value = 0;
      ASSERT_TRUE(ParseDecimal(&cursor, end, '.', &value)) << text;
      EXPECT_EQ(*cursor, ',') << text;
      const double expected = (sign[0] == '-' ? -1.0 : 1.0) * (digits / thousand);
      EXPECT_EQ(std::memcmp(&value, &expected, sizeof value), 0) << text;  // -0 included
      EXPECT_EQ(value, std::strtod(text, nullptr)) << text;
    }
  }
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

// The 8-byte fast path of the Unity CSV rows: every "d.ddd" and "-d.ddd" followed by the
// separator, in both dialects, takes the bytes ParseDecimal and the separator take and gives
// ParseDecimal's value to the bit.
TEST(NumberParseTest, TheExportersValueAndSeparatorAreParseDecimalsInOneWord) {
  for (const auto& [mark, separator] : {std::pair<char, char>{'.', ','}, {',', ','}, {',', ';'}}) {
    for (int digits = 0; digits < 10000; ++digits) {
      for (const char* sign : {"", "-"}) {
        char text[32];
        std::snprintf(text, sizeof text, "%s%d%c%03d%c0.5%c", sign, digits / 1000, mark,
                      digits % 1000, separator, separator);
        const char* const end = text + std::strlen(text);
        double fast = 0;
        const size_t taken = ParseExporterValueAndSeparator(text, end, mark, separator, &fast);
        const char* cursor = text;
        double general = 0;
        ASSERT_TRUE(ParseDecimal(&cursor, end, mark, &general)) << text;
        ASSERT_EQ(*cursor, separator) << text;
        ASSERT_EQ(taken, static_cast<size_t>(cursor + 1 - text)) << text;
        ASSERT_EQ(std::memcmp(&fast, &general, sizeof fast), 0) << text;  // -0 included
      }
    }
  }
}

// Every other shape is left to the general path (0 taken, the value untouched).
TEST(NumberParseTest, TheOneWordPathTakesNoOtherShape) {
  for (const char* text : {"+0.500,0.5,", "0.5000,0.5,", "0.500e1,0.5", "0.50,0.5,0", " 0.500,0.5,",
                           "0.500;0.5,0", "10.500,0.5,", "0.5a0,0.5,0", "0,500,0.5,", "--0.500,0.",
                           "0.500,", "-0.500,", "0.5/0,0.5,", "0:500,0.5,", "0.500\r0.5,"}) {
    const char* const end = text + std::strlen(text);
    double value = 42;
    EXPECT_EQ(ParseExporterValueAndSeparator(text, end, '.', ',', &value), 0u) << text;
    EXPECT_EQ(value, 42) << text;
  }
  // Fewer than 8 bytes left: even a well-shaped value takes the general path.
  const char* const short_text = "0.500,1";
  double value = 42;
  EXPECT_EQ(ParseExporterValueAndSeparator(short_text, short_text + 7, '.', ',', &value), 0u);
}

}  // namespace
}  // namespace animconv
