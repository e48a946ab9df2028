// The JSON document a glTF writer writes, held member by member so that neither the reader's
// document nor the writer's thousands of accessors become a second tree (issue 14,
// docs/reliability.md "Time and memory bounds": a .gltf of 20,000 small clips peaked at 196 MB
// converted to .glb, the input's members copied and the output's accessors, bufferViews and
// animations held as JSON objects). A top-level member is one of:
// - owned: a tree the writer builds or changes (asset, scenes, the extensions it adds);
// - referred: the source document's own member, written as it is and never copied; the first
//   mutable access copies it (the writer's overlay on its source);
// - text: already rendered, as json::dump() would render it (JsonArrayText).
// The bytes are those of json::dump() of the same document: an object's members in key order,
// each its own dump().
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace animconv {

// A JSON array rendered element by element: the text of dump() of the array, without the tree.
class JsonArrayText {
 public:
  void Append(const nlohmann::json& element);
  // An element already rendered (dump()'s bytes).
  void AppendText(std::string_view element);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The array's text ("[...]"); leaves this empty.
  std::string Take();

 private:
  std::string text_ = "[";
  size_t size_ = 0;
};

class GltfOutputJson {
 public:
  // The owned member `key`, null when new; a referred member is copied into it first.
  nlohmann::json& operator[](const std::string& key);
  // `key` written as `value` is; `value` must outlive this document.
  void Refer(const std::string& key, const nlohmann::json& value);
  // `key` written as `text` (dump()'s bytes of the value).
  void SetText(const std::string& key, std::string text);
  void Erase(const std::string& key) { members_.erase(key); }
  bool Contains(const std::string& key) const { return members_.count(key) > 0; }
  // The member's value when it is a tree (owned or referred); null for text or absent.
  const nlohmann::json* Find(const std::string& key) const;

  // Every member in key order: `value` for a tree, else `text`.
  void ForEach(const std::function<void(const std::string& key, const nlohmann::json* value,
                                        std::string_view text)>& visit) const;

 private:
  struct Member {
    nlohmann::json owned;
    const nlohmann::json* referred = nullptr;
    std::string text;
    bool is_text = false;
  };
  std::map<std::string, Member> members_;
};

}  // namespace animconv
