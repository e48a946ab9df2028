// A three.js clip track's keys (`times` and `values`, or the pre-r74 `keys` objects), read while
// the document is parsed (formats/common/json_stream.h) so the reader never holds a tree of them
// (issue 14), and the checks on them alone. Private to three_json_reader.cpp.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/json_pointer.h"
#include "formats/common/json_stream.h"

namespace animconv {

// One track's keys as read, and where each came from in the file (for error locations).
struct ThreeTrackKeys {
  std::string pointer;  // the track's
  std::vector<double> times;
  std::vector<double> values;
  std::vector<size_t> legacy_keys;  // `keys` form: the index in `keys` of each kept key

  std::string TimePointer(size_t key) const;
  std::string ValuePointer(size_t key, size_t width) const;
};

// The sink for the array at `path` when it is a track's `times`, `values` or `keys` in one of the
// layouts the reader accepts (a clip, an array of clips, a scene's `animations`), else nullptr.
// `source` names the file in its errors.
std::unique_ptr<JsonElementSink> MakeThreeTrackSink(const JsonPath& path,
                                                    const std::string& source);

// The keys of the track object `track` at `pointer` (whose key arrays were streamed into the sinks
// MakeThreeTrackSink made), as three.js's parseKeyframeTrack finds them: float32 numbers.
ThreeTrackKeys ReadThreeTrackKeys(const nlohmann::json& track, const std::string& pointer,
                                  const StreamedJson& streamed, const JsonPointerReader& reader);

// Times >= 0 and strictly increasing (track `name`).
void CheckThreeKeyTimes(const ThreeTrackKeys& keys, const std::string& name,
                        const JsonPointerReader& reader);
// No key of a 4-wide track is the zero quaternion.
void CheckThreeQuaternionKeys(const ThreeTrackKeys& keys, const std::string& name,
                              const JsonPointerReader& reader);

// The pre-r74 `keys` array of a track, read key by key (AnimationUtils.flattenJSON: keys without
// `value` are skipped, array values are spread); the first failure is kept for ReadThreeTrackKeys.
class ThreeLegacyKeysSink : public JsonElementSink {
 public:
  ThreeLegacyKeysSink(const std::string& source, std::string track_pointer) : json_(source) {
    keys_.pointer = std::move(track_pointer);
  }
  // The keys, or the first failure. Moves them out.
  ThreeTrackKeys Take();

 protected:
  void Element(nlohmann::json&& key) override;

 private:
  void Read(const nlohmann::json& key, size_t k);

  JsonPointerReader json_;
  ThreeTrackKeys keys_;
  std::optional<size_t> value_size_;  // the first key's
  DeferredFailure failure_;
};

}  // namespace animconv
