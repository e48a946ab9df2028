// A legacy three.js model's bone records (`bones`, {name, parent, pos, rotq, scl} objects), read
// one record at a time while the document is parsed (formats/common/json_stream.h) into a few
// bytes each: a failing read never holds a tree of them (issue 14, docs/reliability.md "Time and
// memory bounds"). Private to three_hierarchy_reader.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "animconv/model.h"
#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"

namespace animconv {

// Every check of a record is made as it arrives, except the parents' range (the record count is
// not known until the array ends): Check makes those and reports the first failure in the order
// the reader always checked the records in (each record's name, parent, pos, rotq, scl, record
// after record). After Check, FillNodes cannot fail.
class ThreeBoneRecordsSink : public JsonElementSink {
 public:
  // `reader` and `limits` must outlive the sink.
  ThreeBoneRecordsSink(const JsonPointerReader& reader, const StructureLimits& limits)
      : json_(reader), limits_(limits) {}

  // Throws the first failure of the records, given that the array holds `bone_count` of them
  // (the reader checked it against the node limit first).
  void Check(size_t bone_count) const;
  // Record b's parent, if it gives one. After Check.
  std::optional<int> Parent(size_t b) const;
  // Whether every record gives its rest translation and rotation (and there is one).
  bool rest_pose_known() const;
  // The nodes' names and rest poses, one node per record. After Check.
  void FillNodes(std::vector<Node>& nodes) const;

 protected:
  void Element(nlohmann::json&& record) override;

 private:
  enum Field : uint8_t { kPos = 1, kRotq = 2, kScl = 4 };  // bits of given_
  static constexpr int32_t kNoParent = INT32_MIN;

  void ReadRecord(const nlohmann::json& record, size_t b);
  [[noreturn]] void FailParent(size_t b, double parent, size_t bone_count) const;

  const JsonPointerReader& json_;
  const StructureLimits& limits_;
  // Deques, not vectors: they grow without a copy of what they hold, so the records' peak is their
  // size (9 bytes a record, beside the names' bytes and the rest poses given).
  std::deque<char> names_;                          // every name, one after the other
  std::deque<uint32_t> name_ends_;                  // where record b's name ends in names_
  std::deque<int32_t> parents_;                     // -1 .. nodes - 1, or kNoParent
  std::deque<uint8_t> given_;                       // Field bits: what record b gives
  std::deque<std::array<double, 3>> translations_;  // of the records with pos, in order
  std::deque<std::array<double, 4>> rotations_;     // rotq (x, y, z, w)
  std::deque<std::array<double, 3>> scales_;        // scl
  // The first record refused, and why: an Error, or a parent that cannot be an index of another
  // record (whose message names the record count, known only at Check).
  size_t failed_record_ = SIZE_MAX;
  DeferredFailure failure_;
  std::optional<double> bad_parent_;
};

}  // namespace animconv
