#include "animconv/text_pieces.h"

#include <gtest/gtest.h>

#include <string>

namespace animconv {
namespace {

std::string Concatenated(TextPieces& pieces) {
  std::string whole;
  for (const std::string_view piece : pieces.Pieces()) whole += piece;
  return whole;
}

TEST(TextPiecesTest, KeptTextsGoWhereTheyAreAppendedAsOftenAsTheyAre) {
  TextPieces pieces;
  const size_t times = pieces.Keep("0,1,2");  // short: its characters live in the string itself
  pieces.Append("{\"times\":[");
  pieces.AppendKept(times);
  pieces.Append("]},{\"times\":[");
  pieces.AppendKept(times);
  pieces.Append(']');
  pieces.Append('}');
  const std::string want = "{\"times\":[0,1,2]},{\"times\":[0,1,2]}";
  EXPECT_EQ(pieces.size(), want.size());
  EXPECT_EQ(Concatenated(pieces), want);
  EXPECT_EQ(std::move(pieces).Joined(), want);
}

TEST(TextPiecesTest, OneWholeTextIsMovedOut) {
  const std::string text(1000, 'a');
  TextPieces pieces{std::string(text)};
  const char* data = pieces.Pieces()[0].data();
  const std::string joined = std::move(pieces).Joined();
  EXPECT_EQ(joined, text);
  EXPECT_EQ(joined.data(), data);  // not copied
}

}  // namespace
}  // namespace animconv
