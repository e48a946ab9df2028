#include "formats/common/packed_json.h"

#include <algorithm>

#include "formats/common/json_release.h"

namespace animconv {

using nlohmann::json;

namespace {

// Decoded SAX events into a tree, the tree json::from_cbor gives, without from_cbor's copy of it
// (nlohmann/json 3.11 returns `res ? result : basic_json(discarded)`, a copy: twice an element's
// tree at the peak, 7.6 MB for a node whose `extras` is 37,000 `{}`). Arrays are reserved at their
// encoded length (ours, from to_cbor), not grown by doubling.
class TreeBuilder : public nlohmann::json_sax<json> {
 public:
  explicit TreeBuilder(json& root) : root_(root) {}

  bool null() override { return Add(json(nullptr)) != nullptr; }
  bool boolean(bool value) override { return Add(json(value)) != nullptr; }
  bool number_integer(number_integer_t value) override { return Add(json(value)) != nullptr; }
  bool number_unsigned(number_unsigned_t value) override { return Add(json(value)) != nullptr; }
  bool number_float(number_float_t value, const string_t&) override {
    return Add(json(value)) != nullptr;
  }
  bool string(string_t& value) override { return Add(json(std::move(value))) != nullptr; }
  bool binary(binary_t& value) override { return Add(json::binary(std::move(value))) != nullptr; }
  bool start_object(std::size_t) override {
    open_.push_back(Add(json::object()));
    return true;
  }
  bool key(string_t& key) override {
    key_ = std::move(key);
    return true;
  }
  bool end_object() override {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t length) override {
    json* array = Add(json::array());
    if (length != static_cast<std::size_t>(-1)) array->get_ref<json::array_t&>().reserve(length);
    open_.push_back(array);
    return true;
  }
  bool end_array() override {
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception& error) override {
    throw json::other_error::create(501, error.what(), nullptr);  // our own encoding: a bug
  }

 private:
  // Into the open container (an ancestor's address is stable while its children are added).
  json* Add(json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& member = parent[key_];
    member = std::move(value);
    return &member;
  }

  json& root_;
  std::vector<json*> open_;
  std::string key_;
};

}  // namespace

void PackedJsonArray::Element(json&& element) {
  std::string encoded;
  json::to_cbor(element, encoded);
  ReleaseJson(element);
  const size_t index = size() - 1;
  if (chunks_.empty() || chunks_.back().size() + encoded.size() > kChunkBytes) {
    chunk_first_.push_back(index);
    if (encoded.size() >= kChunkBytes) {
      chunks_.push_back(std::move(encoded));
      ends_.push_back(0);  // the whole chunk (the last element of a chunk ends with it)
      return;
    }
    chunks_.emplace_back();
    chunks_.back().reserve(kChunkBytes);
  }
  std::string& chunk = chunks_.back();
  chunk += encoded;
  ends_.push_back(static_cast<uint16_t>(chunk.size()));
}

json PackedJsonArray::At(size_t index) const {
  const size_t chunk = static_cast<size_t>(
      std::upper_bound(chunk_first_.begin(), chunk_first_.end(), index) - chunk_first_.begin() - 1);
  const std::string& bytes = chunks_[chunk];
  const bool first = index == chunk_first_[chunk];
  const bool last = chunk + 1 == chunks_.size() ? index + 1 == ends_.size()
                                                : index + 1 == chunk_first_[chunk + 1];
  const size_t begin = first ? 0 : ends_[index - 1];
  const size_t end = last ? bytes.size() : ends_[index];
  json element;
  TreeBuilder builder(element);
  json::sax_parse(bytes.data() + begin, bytes.data() + end, &builder, json::input_format_t::cbor);
  return element;
}

}  // namespace animconv
