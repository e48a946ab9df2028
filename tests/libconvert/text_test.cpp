#include "libconvert/text.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "animconv/error.h"

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

// Floats, and the web build's doubles, are formatted without floating-point std::to_chars
// (libconvert/text.h); the text must be to_chars's byte for byte, or outputs would change.
template <typename Float>
void ExpectSameTextAsToChars(Float value) {
  char expected[64];
  char actual[64];
  const auto expected_end = std::to_chars(expected, expected + sizeof expected, value).ptr;
  const size_t length = FormatShortestWithoutCharconv(value, actual);
  ASSERT_EQ(std::string(actual, length), std::string(expected, expected_end)) << value;
}

TEST(TextTest, ShortestWithoutCharconvIsToCharsText) {
  for (const double value :
       {0.0, -0.0, 1.0, -1.0, 0.2, 100.0, 1e15, 1e16, 1e20, 1e21, 123456789012345678.0,
        // Fixed text with the most digits after an integer part (16 + 1)
        // and with the most zeros after "0." (3): the layout's edges.
        1234567890123456.7, -4503599627370495.5, 0.00012345678901234567, -0.00099999999999999991,
        0.001, 0.0001, 1e-5, 1.5e-7, 12345e-10, 5e-324, 1.7976931348623157e308, 2.5e-308, 1e100,
        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()}) {
    ExpectSameTextAsToChars(value);
    ExpectSameTextAsToChars(static_cast<float>(value));
  }
  std::mt19937_64 random(7);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t bits = random();
    double value;
    std::memcpy(&value, &bits, sizeof value);
    ExpectSameTextAsToChars(value);
    float narrow;
    const auto low = static_cast<uint32_t>(bits);
    std::memcpy(&narrow, &low, sizeof narrow);
    ExpectSameTextAsToChars(narrow);
    // Keyframe-like magnitudes, where fixed and scientific trade places.
    const double scaled = std::ldexp(static_cast<double>(bits >> 11) / 9007199254740992.0,
                                     static_cast<int>(bits % 80) - 40);
    ExpectSameTextAsToChars(scaled);
    ExpectSameTextAsToChars(static_cast<float>(scaled));
    ExpectSameTextAsToChars(std::round(scaled * 1000) / 1000);
  }
}

TEST(TextTest, CaseInsensitiveCompareAndTrim) {
  EXPECT_TRUE(EqualsIgnoreCase("UpperChest", "upperchest"));
  EXPECT_FALSE(EqualsIgnoreCase("Hips", "Hip"));
  EXPECT_TRUE(StartsWithIgnoreCase("MixamoRig:Hips", "mixamorig"));
  EXPECT_FALSE(StartsWithIgnoreCase("Rig", "mixamorig"));
  EXPECT_TRUE(EndsWithIgnoreCase("walk.GLB", ".glb"));
  EXPECT_TRUE(EndsWithIgnoreCase("x", ""));
  EXPECT_FALSE(EndsWithIgnoreCase("glb", ".glb"));
  EXPECT_EQ(TrimAscii(" \t x y \r\n"), "x y");
  EXPECT_EQ(TrimAscii("   "), "");
}

TEST(TextTest, FindsTheFirstByteThatIsNotUtf8) {
  EXPECT_EQ(FindInvalidUtf8(""), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("Hüfte 腰 \xF0\x9F\xA6\xB4"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("ab\xFF"), 2u);
  EXPECT_EQ(FindInvalidUtf8("a\xC3"), 1u);             // truncated sequence
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("\xE0\x80\xAF"), 0u);      // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("x\xED\xA0\x80"), 1u);     // a UTF-16 surrogate
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // beyond U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("\xE2\x82x"), 0u);         // 'x' is no continuation byte
}

TEST(TextTest, EscapesWhatATerminalWouldInterpret) {
  EXPECT_EQ(EscapeForTerminal("hips.z 'Hüfte' C:\\data"), "hips.z 'Hüfte' C:\\data");
  EXPECT_EQ(EscapeForTerminal("\x1b[2J\x1b[31mOK"), "\\x1b[2J\\x1b[31mOK");
  EXPECT_EQ(EscapeForTerminal("a\rb\nc\td"), "a\\x0db\\x0ac\\x09d");
  EXPECT_EQ(EscapeForTerminal(std::string("nul\0", 4)), "nul\\x00");
  EXPECT_EQ(EscapeForTerminal("\x7f"), "\\x7f");
  EXPECT_EQ(EscapeForTerminal("\xC2\x9B"
                              "31m"),
            "\\xc2\\x9b31m");  // C1 CSI
  EXPECT_EQ(EscapeForTerminal("txt.\xE2\x80\xAE"
                              "fdp"),
            "txt.\\xe2\\x80\\xaefdp");  // RLO
  EXPECT_EQ(EscapeForTerminal("\xFF\xFE.rotation"), "\\xff\\xfe.rotation");
  const std::string once = EscapeForTerminal("\x1b]0;title\x07\xC3");
  EXPECT_EQ(once, "\\x1b]0;title\\x07\\xc3");
  EXPECT_EQ(EscapeForTerminal(once), once);
}

// The CLI prints what(); callers and tests read the parts: all are escaped the same way.
TEST(TextTest, ErrorsEscapeTheBytesTheyQuote) {
  const Error error(ErrorKind::kBadInput, "a\x1b.csv", "1:2", "found '\rOK'");
  EXPECT_EQ(error.source(), "a\\x1b.csv");
  EXPECT_EQ(error.location(), "1:2");
  EXPECT_EQ(error.message(), "found '\\x0dOK'");
  EXPECT_STREQ(error.what(), "a\\x1b.csv:1:2: found '\\x0dOK'");
}

TEST(TextTest, ReplaceInvalidUtf8KeepsValidTextAndReplacesEachBadByte) {
  EXPECT_EQ(ReplaceInvalidUtf8("Hips"), "Hips");
  EXPECT_EQ(ReplaceInvalidUtf8("\xE9\xAA\xA8\xE7\x9B\xA4"), "\xE9\xAA\xA8\xE7\x9B\xA4");  // 骨盤
  EXPECT_EQ(ReplaceInvalidUtf8("Bip\xA8"), "Bip\xEF\xBF\xBD");            // a Latin-1 byte
  EXPECT_EQ(ReplaceInvalidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(FindInvalidUtf8(ReplaceInvalidUtf8("\xFF\xFE a \xED\xA0\x80")), std::string::npos);
}

// FirstNames keeps the first items only and says what ListFirst of them all says.
TEST(TextTest, FirstNamesJoinsAsListFirstOfEveryItem) {
  for (const size_t count : {0, 1, 3, 4, 1000}) {
    std::vector<std::string> all;
    FirstNames first(3);
    for (size_t i = 0; i < count; ++i) {
      all.push_back("n" + std::to_string(i));
      first.Add(all.back());
    }
    EXPECT_EQ(first.size(), count);
    EXPECT_EQ(first.empty(), count == 0);
    EXPECT_EQ(first.Join("; "), ListFirst(all, 3, "; ")) << count;
  }
}

}  // namespace
}  // namespace animconv
