#include "formats/three/three_bone_records.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "animconv/quaternion.h"
#include "formats/three/three_hierarchy_keys.h"

namespace animconv {

using nlohmann::json;

void ThreeBoneRecordsSink::Element(json&& record) {
  const size_t b = size() - 1;
  // The reader checks the count before any record: past the limit, none is read.
  if (size() >= limits_.nodes) StopWanting();
  if (size() > limits_.nodes) return;
  failure_.Run([&] { ReadRecord(record, b); });
  if (failure_.failed() || bad_parent_) {
    failed_record_ = b;
    StopWanting();  // the read fails at this record whatever follows
  }
}

// Every check of HierarchyReader's record reading, in its order, but the parent's range.
void ThreeBoneRecordsSink::ReadRecord(const json& record, size_t b) {
  const std::string pointer = fmt::format("/bones/{}", b);
  if (!record.is_object()) {
    json_.Fail(pointer,
               fmt::format("expected a bone record {{name, parent, pos, rotq, scl}}, found {}",
                           record.type_name()));
  }
  const json* name = Given(record, "name");
  // parseAnimation names tracks by bones[h].name; without it they would bind to "undefined".
  if (!name || !name->is_string()) {
    json_.Fail(pointer + "/name", "expected the bone's name as a string");
  }
  const std::string& name_text = name->get_ref<const std::string&>();
  if (name_text.size() > limits_.name_bytes) {
    json_.Fail(pointer + "/name", fmt::format("{} bytes in a name, more than the limit of {}",
                                              name_text.size(), limits_.name_bytes));
  }
  names_.insert(names_.end(), name_text.begin(), name_text.end());
  name_ends_.push_back(static_cast<uint32_t>(names_.size()));
  int32_t parent_index = kNoParent;
  if (const json* parent = Given(record, "parent")) {
    const double value = json_.RequireNumber(*parent, pointer + "/parent");
    // An index of another record below the node limit may still be past the records' count.
    if (value != std::floor(value) || value < -1 ||
        value >= static_cast<double>(std::min<size_t>(limits_.nodes, INT32_MAX)) ||
        value == static_cast<double>(b)) {
      bad_parent_ = value;
      return;
    }
    parent_index = static_cast<int32_t>(value);
  }
  parents_.push_back(parent_index);
  uint8_t given = 0;
  if (const json* pos = Given(record, "pos")) {
    ReadThreeNumbers(json_, *pos, 3, pointer + "/pos", translations_.emplace_back().data());
    given |= kPos;
  }
  if (const json* rotq = Given(record, "rotq")) {
    std::array<double, 4>& rotation = rotations_.emplace_back();
    ReadThreeNumbers(json_, *rotq, 4, pointer + "/rotq", rotation.data());
    if (Length(LoadQuat(rotation.data())) == 0) {
      json_.Fail(pointer + "/rotq", "the zero quaternion is no rotation");
    }
    given |= kRotq;
  }
  if (const json* scl = Given(record, "scl")) {
    ReadThreeNumbers(json_, *scl, 3, pointer + "/scl", scales_.emplace_back().data());
    given |= kScl;
  }
  given_.push_back(given);
}

void ThreeBoneRecordsSink::FailParent(size_t b, double parent, size_t bone_count) const {
  json_.Fail(fmt::format("/bones/{}/parent", b),
             fmt::format("parent {} of bone {}: expected -1 or the index of another of the {} "
                         "bones",
                         parent, b, bone_count));
}

void ThreeBoneRecordsSink::Check(size_t bone_count) const {
  // parents_ holds the parent of every record read, the failing one's too when it got past it.
  const size_t checked =
      failed_record_ == SIZE_MAX ? parents_.size() : std::min(parents_.size(), failed_record_ + 1);
  for (size_t b = 0; b < checked; ++b) {
    if (parents_[b] != kNoParent && static_cast<size_t>(parents_[b] + 1) > bone_count) {
      FailParent(b, parents_[b], bone_count);
    }
  }
  if (bad_parent_) FailParent(failed_record_, *bad_parent_, bone_count);
  failure_.RethrowIfFailed();
}

std::optional<int> ThreeBoneRecordsSink::Parent(size_t b) const {
  if (b >= parents_.size() || parents_[b] == kNoParent) return std::nullopt;
  return parents_[b];
}

bool ThreeBoneRecordsSink::rest_pose_known() const {
  if (given_.empty()) return false;
  for (const uint8_t given : given_) {
    if ((given & (kPos | kRotq)) != (kPos | kRotq)) return false;
  }
  return true;
}

void ThreeBoneRecordsSink::FillNodes(std::vector<Node>& nodes) const {
  size_t name_begin = 0, translation = 0, rotation = 0, scale = 0;
  for (size_t b = 0; b < given_.size(); ++b) {
    Node& node = nodes[b];
    node.name.assign(names_.begin() + static_cast<std::ptrdiff_t>(name_begin),
                     names_.begin() + static_cast<std::ptrdiff_t>(name_ends_[b]));
    name_begin = name_ends_[b];
    if (given_[b] & kPos) {
      const auto& t = translations_[translation++];
      std::copy(t.begin(), t.end(), node.rest_translation.data());
    }
    if (given_[b] & kRotq) {
      const auto& r = rotations_[rotation++];
      std::copy(r.begin(), r.end(), node.rest_rotation.data());
    }
    if (given_[b] & kScl) {
      const auto& s = scales_[scale++];
      std::copy(s.begin(), s.end(), node.rest_scale.data());
    }
  }
}

}  // namespace animconv
