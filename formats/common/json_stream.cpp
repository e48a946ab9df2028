#include "formats/common/json_stream.h"

#include <fmt/format.h>

#include "animconv/error.h"
#include "formats/common/json_errors.h"
#include "formats/common/json_release.h"

namespace animconv {

using nlohmann::json;

bool JsonPath::Is(size_t i, const char* key) const {
  if (i >= steps_.size()) return false;
  const Step& step = steps_[i];
  return key == nullptr ? step.is_index : !step.is_index && step.key == key;
}

std::string JsonPath::Pointer() const {
  std::string pointer;
  for (const Step& step : steps_) {
    pointer += '/';
    pointer += step.is_index ? std::to_string(step.index) : JsonPointerEscape(step.key);
  }
  return pointer;
}

void DeferredFailure::RethrowIfFailed() const {
  if (failure_) std::rethrow_exception(failure_);
}

JsonElementSink* StreamedJson::SinkOf(const json& value) const {
  if (!value.is_binary()) return nullptr;
  const json::binary_t& placeholder = value.get_binary();
  return placeholder.has_subtype() && placeholder.subtype() < sinks.size()
             ? sinks[static_cast<size_t>(placeholder.subtype())].get()
             : nullptr;
}

StreamedJson& StreamedJson::operator=(StreamedJson&& other) {
  ReleaseJson(document);
  document = std::move(other.document);
  sinks = std::move(other.sinks);
  cut_arrays = std::move(other.cut_arrays);
  return *this;
}

StreamedJson::~StreamedJson() { ReleaseJson(document); }

size_t StreamedJson::ElementCount(const json& array, const std::string& pointer) const {
  const auto cut = cut_arrays.find(pointer);
  return cut == cut_arrays.end() ? array.size() : cut->second;
}

namespace {

// A scalar parse event into a canonical text writer.
void WriteScalar(const json& value, CanonicalJsonWriter& writer) {
  switch (value.type()) {
    case json::value_t::null:
      return writer.Null();
    case json::value_t::boolean:
      return writer.Boolean(value.get<bool>());
    case json::value_t::number_integer:
      return writer.Integer(value.get<int64_t>());
    case json::value_t::number_unsigned:
      return writer.Unsigned(value.get<uint64_t>());
    case json::value_t::number_float:
      return writer.Float(value.get<double>());
    case json::value_t::string:
      return writer.String(value.get_ref<const std::string&>());
    default:
      ThrowInternal("WriteScalar: JSON text holds no such value");
  }
}

}  // namespace

// The SAX handler: builds the tree as nlohmann's own DOM parser does (a repeated member's last
// value wins), streaming the arrays the factory picks, packing the members the pack filter picks
// and the elements of sinks that take text, and leaving out the members the filter refuses and
// the elements past an array's policy. `path_` is the path of the value being read: a member's
// name is pushed at its key, an element's index when it starts, and both are popped when the
// value ends (nothing is pushed inside a packed value).
class JsonStreamBuilder : public nlohmann::json_sax<json> {
 public:
  JsonStreamBuilder(const JsonSinkFactory& factory, const JsonMemberFilter& keep_member,
                    const JsonArrayPolicyFactory& array_policy, bool throw_parse_errors = false,
                    const JsonPackFilter& pack = nullptr)
      : factory_(factory),
        keep_member_(keep_member),
        array_policy_(array_policy),
        pack_(pack),
        throw_parse_errors_(throw_parse_errors) {}

  // A syntax error leaves partial trees in the frames: freed leaves first (json_release.h).
  ~JsonStreamBuilder() override {
    for (Frame& frame : frames_) ReleaseJson(frame.value);
  }

  StreamedJson Finish() { return std::move(result_); }

  bool null() override { return Scalar(json(nullptr)); }
  bool boolean(bool value) override { return Scalar(json(value)); }
  bool number_integer(number_integer_t value) override { return Scalar(json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Scalar(json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return Scalar(json(value)); }
  bool string(string_t& value) override { return Scalar(json(std::move(value))); }
  bool binary(binary_t& value) override { return Scalar(json::binary(std::move(value))); }

  bool start_object(std::size_t) override {
    if (StartsPackedContainer()) {
      packer_->StartObject();
      return true;
    }
    if (!StartContainer()) return true;
    frames_.emplace_back(Frame::kObject, json::object());
    return true;
  }
  bool key(string_t& key) override {
    if (skip_depth_ > 0) return true;
    if (packer_) {
      packer_->Key(key);
      return true;
    }
    path_.PushKey(key);
    skip_member_ = keep_member_ && !keep_member_(path_);
    pack_member_ = !skip_member_ && pack_ && pack_(path_);
    frames_.back().key = std::move(key);
    return true;
  }
  bool end_object() override {
    if (EndSkipped()) return true;
    if (packer_) {
      packer_->EndObject();
      return packer_->depth() == 0 ? EndPacked() : true;
    }
    return EndContainer();
  }

  bool start_array(std::size_t) override {
    // A member the pack filter picks goes to the sink the factory gives it when it is an array
    // (JsonPackFilter): the filter packs what else stands there.
    std::unique_ptr<JsonElementSink> sink;
    if (pack_member_ && packer_ == nullptr && skip_depth_ == 0 && !skip_member_ && factory_) {
      sink = factory_(path_);
      if (sink) pack_member_ = false;
    }
    if (!sink && StartsPackedContainer()) {
      packer_->StartArray();
      return true;
    }
    if (!StartContainer()) return true;
    if (!sink && factory_) sink = factory_(path_);
    if (sink) {
      frames_.emplace_back(Frame::kStreamed, json(), sink.get(), result_.sinks.size());
      result_.sinks.push_back(std::move(sink));
      ++streamed_depth_;
      return true;
    }
    Frame frame(Frame::kArray, json::array());
    if (array_policy_ && streamed_depth_ == 0) {
      frame.policy = array_policy_(path_);
      if (frame.policy) {
        frame.pointer = path_.Pointer();
        frame.cut = frame.policy->keep_at_most == 0;
      }
    }
    frames_.push_back(std::move(frame));
    return true;
  }
  bool end_array() override {
    if (EndSkipped()) return true;
    if (packer_) {
      packer_->EndArray();
      return packer_->depth() == 0 ? EndPacked() : true;
    }
    if (frames_.back().kind != Frame::kStreamed) return EndContainer();
    const Frame streamed = std::move(frames_.back());
    frames_.pop_back();
    --streamed_depth_;
    streamed.sink->End();
    return Complete(json::binary({}, streamed.sink_index));
  }

  bool parse_error(std::size_t, const std::string&, const json::exception& error) override {
    if (throw_parse_errors_) {
      // What json::parse throws: its DOM builder rethrows the parser's exception as it is (a
      // parse_error, or out_of_range for a number beyond double range).
      if (const auto* parse = dynamic_cast<const json::parse_error*>(&error)) throw *parse;
      if (const auto* range = dynamic_cast<const json::out_of_range*>(&error)) throw *range;
      throw json::other_error::create(501, error.what(), nullptr);
    }
    return false;  // the caller locates it (ThrowJsonSyntaxError)
  }

 private:
  struct Frame {
    enum Kind { kObject, kArray, kStreamed } kind;
    Frame(Kind frame_kind, json frame_value, JsonElementSink* frame_sink = nullptr,
          size_t frame_sink_index = 0)
        : kind(frame_kind),
          value(std::move(frame_value)),
          sink(frame_sink),
          sink_index(frame_sink_index) {}

    json value;                       // the object or array being built
    std::string key;                  // an object's member being read
    JsonElementSink* sink = nullptr;  // a streamed array's
    size_t sink_index = 0;            // its index in StreamedJson::sinks
    // A kept array's policy; once `cut`, its further elements are only counted in `dropped`.
    std::optional<JsonArrayPolicy> policy;
    std::string pointer;  // when it has a policy
    bool cut = false;
    size_t dropped = 0;
  };

  // Whether the value starting now is an element of a cut array, or of a streamed one whose sink
  // wants no more (and so counted, not kept).
  bool DropsElement() {
    if (frames_.empty()) return false;
    Frame& parent = frames_.back();
    if (parent.kind == Frame::kStreamed && !parent.sink->wants()) {
      parent.sink->Count();
      return true;
    }
    if (!parent.cut) return false;
    ++parent.dropped;
    return true;
  }

  // A value starts: an element's index joins the path (a member's name did at its key).
  void BeginValue() {
    if (frames_.empty()) return;
    const Frame& parent = frames_.back();
    if (parent.kind == Frame::kArray) path_.PushIndex(parent.value.size());
    if (parent.kind == Frame::kStreamed) path_.PushIndex(parent.sink->size());
  }

  bool Scalar(json&& value) {
    if (skip_depth_ > 0) return true;
    if (packer_) {
      WriteScalar(value, *packer_);
      return true;  // inside a packed container: it ends the packed value at its own end
    }
    if (skip_member_) {
      skip_member_ = false;
      path_.Pop();
      return true;
    }
    if (StartPacking()) {
      WriteScalar(value, *packer_);
      return EndPacked();
    }
    if (DropsElement()) return true;
    // No index joins the path for a scalar element: nothing asks for a scalar's path, and
    // streamed arrays hold millions of numbers.
    if (frames_.empty() || frames_.back().kind == Frame::kObject) return Complete(std::move(value));
    return Insert(std::move(value));
  }

  // Whether the value starting now is packed: a member the pack filter picked, or an element of a
  // sink that takes text (and still wants elements). If so, packer_ takes its events.
  bool StartPacking() {
    if (pack_member_) {
      pack_member_ = false;
      packed_member_text_.clear();
      packer_ = &member_writer_;
      return true;
    }
    if (frames_.empty() || frames_.back().kind != Frame::kStreamed) return false;
    JsonElementSink* sink = frames_.back().sink;
    if (!sink->wants() || sink->TextWriter() == nullptr) return false;
    packer_ = sink->TextWriter();
    packing_sink_ = sink;
    return true;
  }

  // A container starts inside a packed value, or starts one.
  bool StartsPackedContainer() {
    if (skip_depth_ > 0) return false;
    return packer_ != nullptr || (!skip_member_ && StartPacking());
  }

  // The packed value is complete: to its sink, or as a packed value into its object.
  bool EndPacked() {
    packer_ = nullptr;
    if (packing_sink_) {
      packing_sink_->AddText();
      packing_sink_ = nullptr;
      return true;
    }
    json value = PackedJsonValue(packed_member_text_);
    if (packed_member_text_.capacity() > 64 * 1024) packed_member_text_ = std::string();
    return Complete(std::move(value));
  }

  // False when the container is left out (a refused member, an element of a cut array, or inside
  // one).
  bool StartContainer() {
    if (skip_depth_ > 0) {
      ++skip_depth_;
      return false;
    }
    if (skip_member_ || DropsElement()) {
      skip_depth_ = 1;
      skip_pops_path_ = skip_member_;  // the member's name was pushed; an element's index was not
      skip_member_ = false;
      return false;
    }
    BeginValue();
    return true;
  }

  // True at the end of a container inside or of a refused member.
  bool EndSkipped() {
    if (skip_depth_ == 0) return false;
    if (--skip_depth_ == 0 && skip_pops_path_) path_.Pop();  // the refused member's name
    return true;
  }

  bool EndContainer() {
    Frame& frame = frames_.back();
    if (frame.policy) {
      // Set or cleared: of a repeated member, the last value is the tree's.
      if (frame.dropped > 0) {
        result_.cut_arrays[frame.pointer] = frame.value.size() + frame.dropped;
      } else {
        result_.cut_arrays.erase(frame.pointer);
      }
    }
    json value = std::move(frame.value);
    frames_.pop_back();
    return Complete(std::move(value));
  }

  // A complete value: into its parent, or the document.
  bool Complete(json&& value) {
    if (frames_.empty()) {
      result_.document = std::move(value);
      return true;
    }
    path_.Pop();
    return Insert(std::move(value));
  }

  // Into the parent container (whose step the path no longer has).
  bool Insert(json&& value) {
    Frame& parent = frames_.back();
    switch (parent.kind) {
      case Frame::kObject: {
        json& member = parent.value[parent.key];
        // Of a repeated member the last value is the tree's: the sinks of the arrays streamed
        // in the one it replaces are freed with it (a file of 10,000 `"nodes": [{}]` kept
        // 10,000 sinks; issue 14).
        if (!member.is_null()) ReleaseSinks(member);
        member = std::move(value);
        break;
      }
      case Frame::kArray:
        parent.value.push_back(std::move(value));
        if (parent.policy) {
          const JsonArrayPolicy& policy = *parent.policy;
          parent.cut = parent.value.size() >= policy.keep_at_most ||
                       (policy.refuses && policy.refuses(parent.value.back()));
        }
        break;
      case Frame::kStreamed:
        parent.sink->Add(std::move(value));
        break;
    }
    return true;
  }

  // Frees the sinks of the placeholders in `value` (a streamed array, or a container holding
  // some), walked without recursion: a replaced value may be as deep as the nesting check allows.
  void ReleaseSinks(const json& value) {
    std::vector<const json*> pending{&value};
    while (!pending.empty()) {
      const json* next = pending.back();
      pending.pop_back();
      if (next->is_binary()) {
        const json::binary_t& placeholder = next->get_binary();
        if (placeholder.has_subtype() && placeholder.subtype() < result_.sinks.size()) {
          result_.sinks[static_cast<size_t>(placeholder.subtype())].reset();
        }
      } else if (next->is_structured()) {
        for (const json& element : *next) pending.push_back(&element);
      }
    }
  }

  // Copies, not references: ParseJsonStreaming passes nullptr for the filter and the policy,
  // temporaries that end with the constructor's call.
  const JsonSinkFactory factory_;
  const JsonMemberFilter keep_member_;
  const JsonArrayPolicyFactory array_policy_;
  const JsonPackFilter pack_;
  const bool throw_parse_errors_;
  std::vector<Frame> frames_;
  JsonPath path_;
  size_t streamed_depth_ = 0;    // streamed arrays open (array policies apply outside them)
  bool skip_member_ = false;     // the member whose key was just read is left out
  size_t skip_depth_ = 0;        // containers open inside a member or element left out
  bool skip_pops_path_ = false;  // whether the value left out was a member (its name on the path)
  bool pack_member_ = false;     // the member whose key was just read is packed
  // The value being packed: the writer its events go to, and the sink it is an element of (null
  // for a member, written into packed_member_text_).
  CanonicalJsonWriter* packer_ = nullptr;
  JsonElementSink* packing_sink_ = nullptr;
  std::string packed_member_text_;
  CanonicalJsonWriter member_writer_{packed_member_text_};
  StreamedJson result_;
};

StreamedJson ParseJsonStreamingOrThrow(std::string_view bytes, const std::string& source,
                                       const JsonSinkFactory& factory,
                                       const JsonMemberFilter& keep_member,
                                       const JsonArrayPolicyFactory& array_policy) {
  if (const std::optional<size_t> excess = FindExcessJsonNesting(bytes)) {
    ThrowBadInput(source, JsonLineColumn(bytes, *excess), ExcessJsonNestingMessage());
  }
  JsonStreamBuilder builder(factory, keep_member, array_policy);
  if (!json::sax_parse(bytes, &builder)) ThrowJsonSyntaxError(source, bytes);
  return builder.Finish();
}

StreamedJson ParseJsonStreaming(std::string_view bytes, const JsonSinkFactory& factory,
                                const JsonPackFilter& pack,
                                const JsonArrayPolicyFactory& array_policy) {
  JsonStreamBuilder builder(factory, nullptr, array_policy, /*throw_parse_errors=*/true, pack);
  json::sax_parse(bytes, &builder);
  return builder.Finish();
}

void Float32ArraySink::Element(json&& element) {
  if (bad_element_) return;
  if (element.is_number()) {
    const double number = element.get<double>();
    if (FitsFloat32(number)) {
      numbers_.push_back(static_cast<float>(number));
      return;
    }
  }
  bad_index_ = size() - 1;
  bad_element_ = std::make_unique<json>(std::move(element));
  numbers_ = {};  // this array is refused when read
}

std::vector<double> Float32ArraySink::Take(const std::string& pointer,
                                           const JsonPointerReader& reader) {
  if (bad_element_) {
    const std::string element_pointer = fmt::format("{}/{}", pointer, bad_index_);
    reader.ToFloat32(reader.RequireNumber(*bad_element_, element_pointer), element_pointer);
  }
  return std::move(numbers_);
}

bool IsOneOf(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* candidate : names) {
    if (name == candidate) return true;
  }
  return false;
}

}  // namespace animconv
