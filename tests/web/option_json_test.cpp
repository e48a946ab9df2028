// The web API's option typing (web/src/option_json.cpp), compiled natively so it also runs under
// the sanitizers: the npm CLI sends every value as typed, and it must be read as the native CLI's
// Boost.Program_options reads it (web/test/cli_parity.mjs checks the same cases end to end).
#include "web/src/option_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "animconv/error.h"

namespace animconv::web {
namespace {

using nlohmann::json;

std::string UsageMessage(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    return error.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(OptionJsonTest, RealTextIsReadAsLexicalCastReadsIt) {
  EXPECT_EQ(ParseRealText("offset", ".5"), 0.5);
  EXPECT_EQ(ParseRealText("offset", "1."), 1.0);
  EXPECT_EQ(ParseRealText("offset", "+0.25"), 0.25);
  EXPECT_EQ(ParseRealText("offset", "2.5E-1"), 0.25);
  EXPECT_EQ(ParseRealText("offset", "-3e2"), -300.0);
  EXPECT_EQ(ParseRealText("offset", "1e-400"), 0.0);  // underflow is a value, as natively
  EXPECT_EQ(ParseRealText("offset", "inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ParseRealText("offset", "-Infinity"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(ParseRealText("offset", "NaN")));
  EXPECT_TRUE(std::isnan(ParseRealText("offset", "nan(1)")));
  for (const char* refused :
       {"-", "1e", "1x", " 1", "1 ", "0x1", "0x1p3", "1e400", ".", "e5", "nan(", "infinit"}) {
    EXPECT_EQ(UsageMessage([&] { ParseRealText("offset", refused); }),
              std::string("the argument ('") + refused + "') for option '--offset' is invalid")
        << refused;
  }
  EXPECT_EQ(UsageMessage([] { ParseRealText("speed", ""); }),
            "the argument for option '--speed' is invalid");
}

TEST(OptionJsonTest, WholeNumbersAndTheUnsignedWrapAround) {
  EXPECT_EQ(ParseIntegerText("precision", "+3", 0, 100), 3);
  EXPECT_EQ(ParseIntegerText("precision", "-1", -5, 100), -1);
  for (const char* refused : {"3.0", "1e2", " 3", "", "+", "99999999999999999999"}) {
    EXPECT_FALSE(
        UsageMessage([&] { ParseIntegerText("precision", refused, INT32_MIN, INT32_MAX); }).empty())
        << refused;
  }
  EXPECT_FALSE(UsageMessage([] { ParseIntegerText("top", "7", 0, 5); }).empty());
  // lexical_cast<uint64_t>("-1") is 2^64 - 1: the same command line means the same in both builds.
  EXPECT_EQ(ParseUnsignedText("max-input-mb", "-1"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(ParseUnsignedText("max-input-mb", "+2048"), 2048u);
  EXPECT_FALSE(
      UsageMessage([] { ParseUnsignedText("max-input-mb", "99999999999999999999"); }).empty());
}

TEST(OptionJsonTest, ValuesMayBeNumbersOrTextSwitchesTrue) {
  const OptionValues values = ReadOptionJson(
      json{{"speed", "0.5"}, {"offset", 2}, {"precision", "3"}, {"reduce", true}, {"loop", false}},
      OptionSet::kConvert);
  EXPECT_EQ(values.convert.speed, 0.5);
  EXPECT_EQ(values.convert.offset_seconds, 2.0);
  EXPECT_EQ(values.convert.precision, 3);
  EXPECT_TRUE(values.convert.reduce);
  EXPECT_EQ(values.given,
            (GivenOptions{"speed", "offset", "precision", "reduce"}));  // false = not given
}

TEST(OptionJsonTest, EachCommandTakesItsOwnOptions) {
  EXPECT_EQ(UsageMessage([] {
              ReadOptionJson(json{{"nope", 1}}, OptionSet::kConvert);
            }),
            "unrecognised option '--nope'");
  EXPECT_EQ(UsageMessage([] {
              ReadOptionJson(json{{"mirror", "z"}}, OptionSet::kInfo);
            }),
            "unrecognised option '--mirror'");
  // bake: --clip, --node, --fps and the limits, but not the input options of convert.
  const OptionValues bake = ReadOptionJson(
      json{{"fps", "2.5"}, {"node", "Head"}, {"max-input-mb", 10}}, OptionSet::kBake);
  EXPECT_EQ(bake.bake.fps, 2.5);
  EXPECT_EQ(bake.bake.node, "Head");
  EXPECT_EQ(bake.bake.max_input_mb, 10u);
  EXPECT_EQ(UsageMessage([] {
              ReadOptionJson(json{{"scale", 2}}, OptionSet::kBake);
            }),
            "unrecognised option '--scale'");
  EXPECT_EQ(UsageMessage([] {
              ReadOptionJson(json{{"speed", "fast"}}, OptionSet::kConvert);
            }),
            "the argument ('fast') for option '--speed' is invalid");
}

}  // namespace
}  // namespace animconv::web
