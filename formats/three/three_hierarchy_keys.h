// The keys of a three.js hierarchy entry (`hierarchy[h].keys`, {time, pos, rot, scl} objects),
// read one key at a time while the document is parsed (formats/common/json_stream.h), so the
// reader never holds a tree of them (issue 14). Private to three_hierarchy_reader.cpp.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/model.h"
#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"

namespace animconv {

// The key properties parseAnimation turns into tracks, in its order (three.js <= r184
// AnimationClip.parseAnimation).
struct ThreeKeyProperty {
  const char* key;
  Path path;
  size_t width;
};
inline constexpr ThreeKeyProperty kThreeKeyProperties[] = {
    {"pos", Path::kTranslation, 3}, {"rot", Path::kRotation, 4}, {"scl", Path::kScale, 3}};

// The `count` numbers of the array `value` at `pointer` into `out`: "expected an array of 3
// numbers, found ..." unless it is one.
void ReadThreeNumbers(const JsonPointerReader& reader, const nlohmann::json& value, size_t count,
                      const std::string& pointer, double* out);

// One entry's `keys` array: a channel per property from the keys that carry it
// (AnimationUtils.flattenJSON), and the first failure of each of the reader's checks, kept to be
// reported in the order the reader always checked them: every key an object without
// `morphTargets`, then the `pos` keys in order, then `rot`, then `scl`.
class ThreeHierarchyKeysSink : public JsonElementSink {
 public:
  // `reader` must outlive the sink; `pointer` is the array's.
  ThreeHierarchyKeysSink(const JsonPointerReader& reader, std::string pointer)
      : json_(reader), pointer_(std::move(pointer)) {}

  // The channels of `node` (pos, rot, scl, those with keys), or the first failure. Moves them out.
  std::vector<Channel> Take(int node);

 protected:
  void Element(nlohmann::json&& key) override;
  void End() override;

 private:
  void ReadProperty(const nlohmann::json& key, size_t k, const ThreeKeyProperty& property,
                    Channel& channel) const;
  double ReadKeyTime(const nlohmann::json& key, const ThreeKeyProperty& property, size_t k) const;
  void ReadKeyValue(const nlohmann::json& value, const ThreeKeyProperty& property, size_t k,
                    double* out) const;

  const JsonPointerReader& json_;
  std::string pointer_;
  DeferredFailure key_failure_;  // a key that is no object, or has morphTargets
  std::array<Channel, 3> channels_;
  std::array<DeferredFailure, 3> property_failures_;
};

// A clip's `hierarchy` array, streamed: its entries with their indices, except that an entry
// which is an empty object (a bone's placeholder: no parent, no keys) is only counted, and that
// nothing past the entry count limit, or past an entry that is not an object (which the reader
// refuses whatever follows), is kept (docs/reliability.md, "Limits": a file of a million `{}`
// entries holds none of them).
class ThreeHierarchyEntriesSink : public JsonElementSink {
 public:
  struct Entry {
    size_t index;
    nlohmann::json value;  // its `keys` a placeholder (ThreeHierarchyKeysSink)
  };

  explicit ThreeHierarchyEntriesSink(size_t limit) : limit_(limit) {}
  const std::vector<Entry>& entries() const { return entries_; }  // by index

 protected:
  void Element(nlohmann::json&& entry) override;

 private:
  size_t limit_;
  std::vector<Entry> entries_;
};

}  // namespace animconv
