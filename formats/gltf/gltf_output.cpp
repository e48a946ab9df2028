#include "formats/gltf/gltf_output.h"

#include "animconv/error.h"
#include "formats/common/json_dump.h"

namespace animconv {

using nlohmann::json;

void JsonArrayText::Append(const json& element) {
  if (size_ > 0) text_ += ',';
  AppendJsonDump(element, text_);
  ++size_;
}

void JsonArrayText::AppendText(std::string_view element) {
  if (size_ > 0) text_ += ',';
  text_ += element;
  ++size_;
}

std::string JsonArrayText::Take() {
  std::string text = std::move(text_);
  text += ']';
  text_ = "[";
  size_ = 0;
  return text;
}

json& GltfOutputJson::operator[](const std::string& key) {
  Member& member = members_[key];
  if (member.is_text) ThrowInternal("GltfOutputJson: '" + key + "' is text, not a tree");
  if (member.referred) {
    member.owned = *member.referred;
    member.referred = nullptr;
  }
  return member.owned;
}

void GltfOutputJson::Refer(const std::string& key, const json& value) {
  Member& member = members_[key];
  member = Member();
  member.referred = &value;
}

void GltfOutputJson::SetText(const std::string& key, std::string text) {
  Member& member = members_[key];
  member = Member();
  member.text = std::move(text);
  member.is_text = true;
}

const json* GltfOutputJson::Find(const std::string& key) const {
  const auto found = members_.find(key);
  if (found == members_.end() || found->second.is_text) return nullptr;
  return found->second.referred ? found->second.referred : &found->second.owned;
}

void GltfOutputJson::ForEach(
    const std::function<void(const std::string&, const json*, std::string_view)>& visit) const {
  for (const auto& [key, member] : members_) {
    if (member.is_text) {
      visit(key, nullptr, member.text);
    } else {
      visit(key, member.referred ? member.referred : &member.owned, {});
    }
  }
}

}  // namespace animconv
