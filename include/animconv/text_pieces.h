// An output's bytes as pieces written one after the other (docs/performance.md, "Against the seed
// pipeline"): a writer whose output is mostly large texts it has already made (the three.js
// writer's times and values arrays, one times array shared by every track) hands them over as
// they are instead of copying them into one string, and WriteFileAtomic writes them in order
// (writev). The bytes are the pieces' concatenation (Joined).
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

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

  // The bytes written so far, glue included.
  size_t size() const { return size_ + glue_.size(); }
  // The pieces in order (views into this object: valid while it lives and is not appended to).
  std::vector<std::string_view> Pieces();
  // The bytes as one string; consumes the pieces (a single piece is moved, not copied).
  std::string Joined() &&;

 private:
  void FlushGlue();

  std::deque<std::string> texts_;  // a deque: its strings never move, so views of them stay
  std::vector<size_t> order_;      // indices into texts_
  std::string glue_;               // appended since the last kept piece
  size_t size_ = 0;                // bytes in order_
};

}  // namespace animconv
