// Parsing a JSON document without holding its bulk (issue 14, docs/reliability.md "The whole
// process"): a tree of nlohmann::json values like json::parse's, except for the arrays a reader
// picks by their place (a three.js track's `times`, a hierarchy entry's `keys`). Each element of
// such an array goes, once complete, to the reader's sink and is not kept; the tree holds a
// placeholder there. A reader then runs its checks on the tree in the order it always did, and
// takes what each sink made of its array where it used to read the array.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animconv/error.h"
#include "formats/common/canonical_json.h"
#include "formats/common/json_pointer.h"

namespace animconv {

// Where a value sits: the member names and array indices from the document down to it.
class JsonPath {
 public:
  struct Step {
    bool is_index = false;
    size_t index = 0;  // when is_index
    std::string key;   // otherwise
  };

  const std::vector<Step>& steps() const { return steps_; }
  size_t depth() const { return steps_.size(); }
  // Whether step `i` (0 = below the document) is the member `key`, or any array index when
  // `key` is nullptr.
  bool Is(size_t i, const char* key) const;
  // "/animations/0/tracks" (RFC 6901, escaped), "" for the document itself.
  std::string Pointer() const;

  void PushKey(std::string key) { steps_.push_back({false, 0, std::move(key)}); }
  void PushIndex(size_t index) { steps_.push_back({true, index, {}}); }
  void Pop() { steps_.pop_back(); }

 private:
  std::vector<Step> steps_;
};

// Receives the elements of one array in document order, each a whole value (a number, or a small
// tree for an object, with placeholders for the arrays inside it that are streamed too). Sinks
// must not throw for bad input while the document is parsed: a syntax
// error later in the text is reported first (as json::parse did), and a reader reports what is
// wrong in its own order. They keep their first failure in a DeferredFailure instead.
class JsonElementSink {
 public:
  virtual ~JsonElementSink() = default;
  // The next element: counts it, then hands it to Element.
  void Add(nlohmann::json&& element) {
    ++size_;
    Element(std::move(element));
  }
  // An element the sink did not want (wants() was false when it started): parsed, its syntax
  // checked, and only counted.
  void Count() { ++size_; }
  // How many elements the array had (so far, while it is parsed).
  size_t size() const { return size_; }
  // Whether the sink takes the next element. Once it stops wanting them (StopWanting), nothing
  // of the elements after is built: no tree, no sinks for the arrays inside them.
  bool wants() const { return wants_; }
  // After the last element (the array's `]`).
  virtual void End() {}
  // A sink that takes its elements as canonical text (canonical_json.h) instead of trees returns
  // the writer each element's parse events go to; the parser calls AddText() at each element's
  // end. No tree of such an element is built, and no sink is asked for an array inside it.
  virtual CanonicalJsonWriter* TextWriter() { return nullptr; }
  void AddText() {
    ++size_;
    TextElement();
  }

 protected:
  // Element number size() - 1.
  virtual void Element(nlohmann::json&& element) = 0;
  // Element number size() - 1, written into TextWriter().
  virtual void TextElement() {}
  // For a sink whose reader will never read the elements after this one (past a limit, or after
  // one it refuses whatever follows).
  void StopWanting() { wants_ = false; }

 private:
  size_t size_ = 0;
  bool wants_ = true;
};

// The first Error an element's check threw, to be rethrown when the reader reaches the array.
class DeferredFailure {
 public:
  bool failed() const { return static_cast<bool>(failure_); }
  // Runs `check` unless a failure is kept; keeps the Error it throws (any other exception, such
  // as std::bad_alloc, goes through). A template: it runs per number or key of large files.
  template <typename Check>
  void Run(Check&& check) {
    if (failure_) return;
    try {
      check();
    } catch (const Error&) {
      failure_ = std::current_exception();
    }
  }
  // Rethrows the kept Error, if any.
  void RethrowIfFailed() const;

 private:
  std::exception_ptr failure_;
};

// The sink for the array at `path`, or nullptr to keep the array in the tree. Asked for every
// array when it starts, inside the elements of streamed ones too.
using JsonSinkFactory = std::function<std::unique_ptr<JsonElementSink>(const JsonPath& path)>;

// Whether the member at `path` (its last step the member's name) is kept in the tree; one left
// out is parsed (its syntax checked) but not held. Asked for every member, inside streamed
// arrays' elements too. Readers keep exactly the members they read, so that a file's other
// members, however large, cost no memory (issue 14).
using JsonMemberFilter = std::function<bool(const JsonPath& path)>;

// Whether the member at `path` (its last step the member's name) is kept as its canonical text
// (a packed value, canonical_json.h) instead of a tree: a member a reader never reads but a writer
// may copy (a glTF `extras`, an unknown extension). Not asked inside a packed value. An array
// there for which the sink factory gives a sink goes to the sink: so a filter may pack whatever
// is not the array a reader streams (a glTF `nodes` that is an object, which the reader refuses
// whatever it holds).
using JsonPackFilter = std::function<bool(const JsonPath& path)>;

// How much of a kept array (one not streamed) the tree holds (issue 14, docs/reliability.md
// "Limits"): a reader's count limit and its first certain refusal take effect while the document
// is parsed, not once the whole array is in memory. Elements past either are parsed (their
// syntax checked) and counted, not kept; StreamedJson::ElementCount gives the array's length.
struct JsonArrayPolicy {
  // Elements kept at most: a reader refuses an array longer than its limit before it reads any
  // element, so none past the limit is needed.
  size_t keep_at_most = std::numeric_limits<size_t>::max();
  // Whether the reader certainly refuses this element (complete, as kept) when it reaches it:
  // the elements after it are then never read. Optional; it need not know every refusal.
  std::function<bool(const nlohmann::json& element)> refuses;
};

// The policy for the array at `path`, or nullopt to keep it whole. Asked for every array outside
// a streamed one, when it starts.
using JsonArrayPolicyFactory = std::function<std::optional<JsonArrayPolicy>(const JsonPath& path)>;

// For member filters: whether `name` is one of `names`.
bool IsOneOf(const std::string& name, std::initializer_list<const char*> names);

struct StreamedJson {
  // The document is freed by ReleaseJson (formats/common/json_release.h), not by its destructor's
  // copy of its largest array.
  StreamedJson() = default;
  StreamedJson(StreamedJson&&) = default;
  StreamedJson& operator=(StreamedJson&& other);
  ~StreamedJson();

  nlohmann::json document;  // a placeholder (a binary value, which JSON text cannot hold) where
                            // each streamed array was
  std::vector<std::unique_ptr<JsonElementSink>> sinks;  // indexed by the placeholder's subtype
  // The arrays a JsonArrayPolicy cut short: JSON pointer -> length in the text.
  std::map<std::string, size_t> cut_arrays;

  // The length the array `array` at `pointer` had in the text (more than it holds when cut).
  size_t ElementCount(const nlohmann::json& array, const std::string& pointer) const;

  // The sink of `value` when it is a placeholder, else nullptr.
  JsonElementSink* SinkOf(const nlohmann::json& value) const;
  template <typename Sink>
  Sink* SinkOf(const nlohmann::json& value) const {
    return dynamic_cast<Sink*>(SinkOf(value));
  }
};

// Like ParseJsonOrThrow (the nesting check first, then syntax errors at their line:column), with
// the arrays `factory` picks streamed into their sinks, when `keep_member` is given only the
// members it keeps, and when `array_policy` is given the kept arrays it cuts short.
StreamedJson ParseJsonStreamingOrThrow(std::string_view bytes, const std::string& source,
                                       const JsonSinkFactory& factory,
                                       const JsonMemberFilter& keep_member = nullptr,
                                       const JsonArrayPolicyFactory& array_policy = nullptr);

// json::parse(bytes) with the arrays `factory` (which may be null) picks streamed into their
// sinks, the members `pack` picks kept packed and the kept arrays `array_policy` cuts short,
// throwing what json::parse throws (nlohmann's parse_error at its byte, out_of_range for a number
// beyond double range), for a reader that reports those itself (the glTF reader, gltf_buffers.cpp).
// No nesting check: the caller makes it first (FindExcessJsonNesting).
StreamedJson ParseJsonStreaming(std::string_view bytes, const JsonSinkFactory& factory,
                                const JsonPackFilter& pack = nullptr,
                                const JsonArrayPolicyFactory& array_policy = nullptr);

// The sink for a three.js track's number array: the numbers as float32 (doubles holding the
// float32 rounding, like JsonPointerReader::Float32At), and the first element that is not one.
class Float32ArraySink : public JsonElementSink {
 public:
  // The numbers, or the error Float32At would give for the first element that is not a number
  // within float32's range, at `pointer` + "/" + its index. Moves the numbers out.
  std::vector<double> Take(const std::string& pointer, const JsonPointerReader& reader);

 protected:
  void Element(nlohmann::json&& element) override;
  void End() override { numbers_.shrink_to_fit(); }

 private:
  std::vector<double> numbers_;
  size_t bad_index_ = 0;
  std::unique_ptr<nlohmann::json> bad_element_;  // the first element Float32At would refuse
};

}  // namespace animconv
