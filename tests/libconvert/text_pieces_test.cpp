#include "animconv/text_pieces.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

struct CollectingSink : PieceSink {
  void Publish(std::string_view piece) override { published.emplace_back(piece); }
  void PublishKept(std::string_view piece, std::shared_ptr<const void> owner) override {
    published.emplace_back(piece);
    owners.push_back(std::move(owner));
  }
  void PublishOwned(std::string piece) override {
    owned_data.push_back(piece.data());
    published.push_back(std::move(piece));
  }
  std::vector<std::string> published;
  std::vector<const char*> owned_data;  // where each owned piece's bytes were handed over
  std::vector<std::shared_ptr<const void>> owners;  // of the kept pieces
};

// Streamed, each piece is handed over once it is final: the glue before a kept text at that
// text, the last glue at Flush; moving the TextPieces moves neither.
TEST(TextPiecesTest, StreamedPiecesArePublishedInOrderOnceFinal) {
  CollectingSink sink;
  TextPieces pieces;
  pieces.Append("head,");
  pieces.StreamTo(&sink);
  EXPECT_TRUE(sink.published.empty());  // "head," may still grow
  const size_t kept = pieces.Keep(std::string(100, 'k'));
  pieces.AppendKept(kept);
  EXPECT_EQ(sink.published, (std::vector<std::string>{"head,", std::string(100, 'k')}));
  const std::string_view view = pieces.Pieces()[1];
  TextPieces moved(std::move(pieces));
  EXPECT_EQ(moved.Pieces()[1].data(), view.data());  // still where it was published
  moved.Append(",");
  moved.AppendKept(kept);
  moved.Append("tail");
  moved.Flush();
  std::string streamed;
  for (const std::string& piece : sink.published) streamed += piece;
  EXPECT_EQ(sink.published.size(), 5u);
  EXPECT_EQ(streamed, std::move(moved).Joined());
}

// A text used once goes to the sink with its memory (moved, not copied), in order with the rest;
// it is counted, but the pieces cannot be listed or joined any more.
// A kept piece given to a sink comes with its owner: the text stays valid after the TextPieces is
// gone (a producer's exception destroys it while a writing thread may still be writing the piece).
TEST(TextPiecesTest, AStreamedKeptPieceOutlivesItsTextPieces) {
  CollectingSink sink;
  std::string_view view;
  {
    TextPieces pieces;
    pieces.StreamTo(&sink);
    pieces.AppendKept(pieces.Keep(std::string(1000, 'k')));  // long: on the heap
    ASSERT_EQ(sink.owners.size(), 1u);
    ASSERT_NE(sink.owners[0], nullptr);
    view = pieces.Pieces()[0];
  }
  EXPECT_EQ(sink.owners[0].use_count(), 1);  // the sink's is the last
  EXPECT_EQ(view, std::string(1000, 'k'));   // still there (ASan would report a freed read)
}

// Moved from, a TextPieces has no pieces and takes new texts (its storage is made again).
TEST(TextPiecesTest, AMovedFromTextPiecesTakesNewTexts) {
  TextPieces first;
  first.AppendKept(first.Keep(std::string(100, 'a')));
  TextPieces second(std::move(first));
  EXPECT_EQ(Concatenated(second), std::string(100, 'a'));
  first.AppendKept(first.Keep(std::string(50, 'b')));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(Concatenated(first), std::string(50, 'b'));
}

TEST(TextPiecesTest, OwnedTextsGoToTheSinkWithTheirMemory) {
  CollectingSink sink;
  TextPieces pieces;
  pieces.StreamTo(&sink);
  const size_t times = pieces.Keep("[0,1]");
  pieces.Append("{\"times\":");
  pieces.AppendKept(times);
  pieces.Append(",\"values\":");
  std::string values(1000, 'v');
  const char* values_data = values.data();
  pieces.AppendOwned(std::move(values));
  pieces.Append('}');
  pieces.Flush();
  EXPECT_EQ(sink.published, (std::vector<std::string>{"{\"times\":", "[0,1]", ",\"values\":",
                                                      std::string(1000, 'v'), "}"}));
  EXPECT_EQ(sink.owned_data, std::vector<const char*>{values_data});
  EXPECT_EQ(pieces.size(), 9u + 5u + 10u + 1000u + 1u);
  EXPECT_THROW(pieces.Pieces(), std::logic_error);
  EXPECT_THROW(std::move(pieces).Joined(), std::logic_error);
}

// Not streamed, an owned text is kept like any other, and later streaming publishes it as a view.
TEST(TextPiecesTest, OwnedTextsAreKeptUntilStreamed) {
  TextPieces pieces;
  pieces.Append("a");
  pieces.AppendOwned(std::string(100, 'o'));
  EXPECT_EQ(Concatenated(pieces), "a" + std::string(100, 'o'));
  CollectingSink sink;
  pieces.StreamTo(&sink);
  pieces.Append("z");
  pieces.Flush();
  EXPECT_EQ(sink.published, (std::vector<std::string>{"a", std::string(100, 'o'), "z"}));
  EXPECT_TRUE(sink.owned_data.empty());
  EXPECT_EQ(std::move(pieces).Joined(), "a" + std::string(100, 'o') + "z");
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
