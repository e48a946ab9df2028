#include "animconv/text_pieces.h"

#include <memory>
#include <stdexcept>
#include <utility>

namespace animconv {

size_t TextPieces::Keep(std::string text) {
  if (texts_ == nullptr) texts_ = std::make_shared<std::deque<std::string>>();  // moved from
  texts_->push_back(std::move(text));
  return texts_->size() - 1;
}

void TextPieces::FlushGlue() {
  if (glue_.empty()) return;
  order_.push_back(Keep(std::move(glue_)));
  size_ += texts_->back().size();
  glue_.clear();
}

void TextPieces::PublishNew() {
  if (sink_ == nullptr) return;
  for (; published_ < order_.size(); ++published_) {
    const std::string& text = (*texts_)[order_[published_]];
    if (!text.empty()) sink_->PublishKept(text, texts_);
  }
}

void TextPieces::StreamTo(PieceSink* sink) {
  sink_ = sink;
  PublishNew();
}

void TextPieces::Flush() {
  FlushGlue();
  PublishNew();
}

void TextPieces::AppendKept(size_t kept) {
  FlushGlue();
  order_.push_back(kept);
  size_ += (*texts_)[kept].size();
  PublishNew();
}

void TextPieces::AppendOwned(std::string text) {
  if (sink_ == nullptr) {
    AppendKept(Keep(std::move(text)));
    return;
  }
  FlushGlue();
  PublishNew();
  size_ += text.size();
  if (text.empty()) return;
  handed_over_ = true;
  sink_->PublishOwned(std::move(text));
}

std::vector<std::string_view> TextPieces::Pieces() {
  if (handed_over_) throw std::logic_error("TextPieces: some pieces were handed to the sink");
  FlushGlue();
  std::vector<std::string_view> pieces;
  pieces.reserve(order_.size());
  for (const size_t text : order_) {
    if (!(*texts_)[text].empty()) pieces.emplace_back((*texts_)[text]);
  }
  return pieces;
}

std::string TextPieces::Joined() && {
  if (handed_over_) throw std::logic_error("TextPieces: some pieces were handed to the sink");
  FlushGlue();
  if (order_.size() == 1) return std::move((*texts_)[order_[0]]);
  std::string whole;
  whole.reserve(size());
  for (const std::string_view piece : Pieces()) whole += piece;
  return whole;
}

}  // namespace animconv
