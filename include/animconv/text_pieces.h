// An output's bytes as pieces written one after the other (docs/performance.md, "Against the seed
// pipeline"): a writer whose output is mostly large texts it has already made (the three.js
// writer's times and values arrays, one times array shared by every track) hands them over as
// they are instead of copying them into one string, and WriteFileAtomic writes them in order
// (writev). The bytes are the pieces' concatenation (Joined).
//
// Streamed (StreamTo): each piece is also handed to a PieceSink as soon as it is final, so that
// the file can be written while the rest is still being made (WriteFileAtomicStreamed). A text
// appended once (AppendOwned) is then handed over with its memory, which the sink frees once it
// is written: a large output is not all held at once, and the freed blocks are reused for the
// texts still to be made instead of fresh pages (docs/performance.md, "Less fresh memory, faulted
// in on the idle core").
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// Takes the pieces of an output in order as they are made (TextPieces::StreamTo). A piece given
// by Publish must stay valid and unchanged until the sink is done with it (the caller's promise).
// One given by PublishKept is kept valid by `owner`, which the sink holds until the piece is
// written or dropped: however the producer ends, a throw that destroys its texts included, the
// sink never reads freed memory (a writing thread may still be writing a piece while the
// producer's exception unwinds; docs/reliability.md). One given by PublishOwned is the sink's
// own, to free once written.
class PieceSink {
 public:
  virtual ~PieceSink() = default;
  virtual void Publish(std::string_view piece) = 0;
  virtual void PublishKept(std::string_view piece, std::shared_ptr<const void> owner) = 0;
  virtual void PublishOwned(std::string piece) = 0;
};

class TextPieces {
 public:
  TextPieces() = default;
  explicit TextPieces(std::string whole) { AppendKept(Keep(std::move(whole))); }

  // Appends a copy of `text` (the small text between the kept pieces).
  void Append(std::string_view text) { glue_ += text; }
  void Append(char c) { glue_ += c; }
  // Keeps `text` without copying it; AppendKept(id) then appends it, as many times as wanted.
  size_t Keep(std::string text);
  void AppendKept(size_t kept);
  // Appends `text`, which is not used again: once streamed, it goes to the sink with its memory.
  void AppendOwned(std::string text);

  // From now on, hands every piece to `sink` as soon as it is final: those already in order at
  // once, later ones as they are appended. The small text appended last is final only at the
  // next kept piece or at Flush.
  void StreamTo(PieceSink* sink);
  // Makes the small text appended last a piece (and publishes it when streamed).
  void Flush();

  // The bytes written so far, glue included.
  size_t size() const { return size_ + glue_.size(); }
  // The pieces in order (views into this object: valid while it lives and is not appended to).
  // Not after a text appended by AppendOwned has been handed to a sink (std::logic_error).
  std::vector<std::string_view> Pieces();
  // The bytes as one string; consumes the pieces (a single piece is moved, not copied). Not after
  // a text appended by AppendOwned has been handed to a sink (std::logic_error).
  std::string Joined() &&;

 private:
  void FlushGlue();
  void PublishNew();

  // A deque: its strings never move, so views of them stay. Shared with the sink for the pieces
  // it was given (PieceSink::PublishKept), so they outlive this object if need be.
  std::shared_ptr<std::deque<std::string>> texts_ = std::make_shared<std::deque<std::string>>();
  std::vector<size_t> order_;  // indices into texts_
  std::string glue_;           // appended since the last kept piece
  size_t size_ = 0;            // bytes in order_
  PieceSink* sink_ = nullptr;
  size_t published_ = 0;      // the first pieces of order_ handed to sink_
  bool handed_over_ = false;  // some text went to sink_ with its memory (AppendOwned)
};

}  // namespace animconv
