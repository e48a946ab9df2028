#include "formats/common/json_stream.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "animconv/error.h"
#include "formats/common/json_errors.h"
#include "formats/common/json_failure.h"

namespace animconv {
namespace {

using nlohmann::json;

// Keeps every element it is given.
class KeepingSink : public JsonElementSink {
 public:
  std::vector<json> elements;
  bool ended = false;

 protected:
  void Element(json&& element) override { elements.push_back(std::move(element)); }
  void End() override { ended = true; }
};

StreamedJson Parse(const std::string& text, const JsonSinkFactory& factory,
                   const JsonMemberFilter& keep_member = nullptr) {
  return ParseJsonStreamingOrThrow(text, "clip.json", factory, keep_member);
}

const JsonSinkFactory kKeepEveryArray = [](const JsonPath&) { return nullptr; };

TEST(JsonStreamTest, WithoutSinksTheTreeIsJsonParses) {
  // Every kind of value, nesting, escapes, big integers, and repeated members (nlohmann's DOM
  // keeps the last value of a repeated member).
  const std::string text =
      R"({"a": [1, -0, 2.5e3, 18446744073709551615, -9223372036854775808, 1e400000000000000000000],
          "b": {"c": [true, false, null, "x\u00e9\"y"], "d": {}, "e": []},
          "r": 1, "r": [2], "b2": {"r": {"s": 1}, "r": "last"}})";
  std::string valid = text;
  valid.replace(valid.find("1e400000000000000000000"), 23, "1e300");
  const StreamedJson streamed = Parse(valid, kKeepEveryArray);
  EXPECT_EQ(streamed.document, json::parse(valid));
  EXPECT_EQ(streamed.document.dump(), json::parse(valid).dump());
  EXPECT_EQ(streamed.document["r"], json::parse("[2]"));
  EXPECT_EQ(streamed.document["b2"]["r"], "last");
  EXPECT_TRUE(streamed.sinks.empty());
  for (const char* scalar : {"1", "\"s\"", "null", "[]", "{}"}) {
    EXPECT_EQ(Parse(scalar, kKeepEveryArray).document, json::parse(scalar)) << scalar;
  }
}

TEST(JsonStreamTest, AsksForEveryArrayWithItsPathInsideStreamedOnesToo) {
  std::vector<std::string> asked;
  const StreamedJson streamed =
      Parse(R"({"a": [1, [2, {"x": []}]], "b/c~d": {"e": [[], []]}, "s": [[1], {"t": [2]}]})",
            [&](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
              asked.push_back(path.Pointer());
              if (path.depth() == 1 && path.Is(0, "s")) return std::make_unique<KeepingSink>();
              return nullptr;
            });
  EXPECT_EQ(asked, (std::vector<std::string>{"/a", "/a/1", "/a/1/1/x", "/b~1c~0d/e", "/b~1c~0d/e/0",
                                             "/b~1c~0d/e/1", "/s", "/s/0", "/s/1/t"}));
}

// Keeps the elements it is given until it has `wanted`.
class WantingSink : public KeepingSink {
 public:
  explicit WantingSink(size_t wanted) : wanted_(wanted) {}

 protected:
  void Element(json&& element) override {
    KeepingSink::Element(std::move(element));
    if (size() == wanted_) StopWanting();
  }

 private:
  size_t wanted_;
};

TEST(JsonStreamTest, AStreamedArrayInsideAStreamedElementLeavesAPlaceholderThere) {
  std::vector<std::string> asked;
  const StreamedJson streamed =
      Parse(R"({"h": [{"k": [1, 2]}, {"k": [3], "p": 0}, {"k": [4]}, [{"k": [5]}], 6]})",
            [&](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
              asked.push_back(path.Pointer());
              if (path.depth() == 1) return std::make_unique<WantingSink>(2);
              if (path.Is(path.depth() - 1, "k")) return std::make_unique<KeepingSink>();
              return nullptr;
            });
  // Past what the outer sink wants, nothing is built or asked about; the count goes on.
  EXPECT_EQ(asked, (std::vector<std::string>{"/h", "/h/0/k", "/h/1/k"}));
  const auto* outer = streamed.SinkOf<WantingSink>(streamed.document["h"]);
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->size(), 5u);
  ASSERT_EQ(outer->elements.size(), 2u);
  const auto* first = streamed.SinkOf<KeepingSink>(outer->elements[0]["k"]);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(json(first->elements), json::parse("[1, 2]"));
  EXPECT_EQ(outer->elements[1]["p"], 0);
  EXPECT_EQ(streamed.sinks.size(), 3u);
}

TEST(JsonPathTest, TellsKeysFromIndices) {
  JsonPath path;
  EXPECT_EQ(path.Pointer(), "");
  path.PushKey("tracks");
  path.PushIndex(3);
  path.PushKey("0");
  EXPECT_EQ(path.Pointer(), "/tracks/3/0");
  EXPECT_TRUE(path.Is(0, "tracks"));
  EXPECT_TRUE(path.Is(1, nullptr));
  EXPECT_FALSE(path.Is(1, "3"));      // an index is no member name
  EXPECT_FALSE(path.Is(2, nullptr));  // nor a member named "0" an index
  EXPECT_TRUE(path.Is(2, "0"));
  EXPECT_FALSE(path.Is(3, nullptr));
  path.Pop();
  EXPECT_EQ(path.Pointer(), "/tracks/3");
}

TEST(JsonStreamTest, StreamedElementsGoToTheSinkAndAPlaceholderStaysInTheTree) {
  KeepingSink* sink = nullptr;
  const StreamedJson streamed =
      Parse(R"({"keep": [1], "t": [0, {"a": [1, 2]}, "s", [3], null], "n": 1})",
            [&](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
              if (path.depth() != 1 || !path.Is(0, "t")) return nullptr;
              auto made = std::make_unique<KeepingSink>();
              sink = made.get();
              return made;
            });
  ASSERT_NE(sink, nullptr);
  EXPECT_TRUE(sink->ended);
  EXPECT_EQ(sink->size(), 5u);
  EXPECT_EQ(json(sink->elements), json::parse(R"([0, {"a": [1, 2]}, "s", [3], null])"));
  const json& placeholder = streamed.document["t"];
  EXPECT_TRUE(placeholder.is_binary());
  EXPECT_EQ(streamed.SinkOf(placeholder), sink);
  EXPECT_EQ(streamed.SinkOf<KeepingSink>(placeholder), sink);
  EXPECT_EQ(streamed.SinkOf<Float32ArraySink>(placeholder), nullptr);  // another kind of sink
  EXPECT_EQ(streamed.SinkOf(streamed.document["keep"]), nullptr);
  EXPECT_EQ(streamed.document["keep"], json::parse("[1]"));
  EXPECT_EQ(streamed.document["n"], 1);
}

// A member both the pack filter and the sink factory pick goes to the sink when it is an array and
// is packed otherwise (the glTF reader's `nodes`: a list, or anything else packed, never a tree).
TEST(JsonStreamTest, ASinkTakesAnArrayThePackFilterPicksAndTheFilterPacksTheRest) {
  const auto parse = [](const std::string& text, KeepingSink** sink) {
    return ParseJsonStreaming(
        text,
        [sink](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
          if (path.depth() != 1 || !path.Is(0, "t")) return nullptr;
          auto made = std::make_unique<KeepingSink>();
          *sink = made.get();
          return made;
        },
        [](const JsonPath& path) { return path.depth() == 1; });
  };
  KeepingSink* sink = nullptr;
  StreamedJson streamed = parse(R"({"t":[{"a":[1]},2],"u":[3]})", &sink);
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(json(sink->elements), json::parse(R"([{"a":[1]},2])"));
  EXPECT_EQ(streamed.SinkOf(streamed.document["t"]), sink);
  EXPECT_TRUE(IsPackedJsonValue(streamed.document["u"]));  // no sink for it: packed
  sink = nullptr;
  streamed = parse(R"({"t":{"x":[{},{}]},"u":[3]})", &sink);
  EXPECT_EQ(sink, nullptr);
  ASSERT_TRUE(IsPackedJsonValue(streamed.document["t"]));
  EXPECT_EQ(PackedJsonText(streamed.document["t"]), R"({"x":[{},{}]})");
}

TEST(JsonStreamTest, ARepeatedMemberKeepsItsLastValueAsTheTreeDid) {
  const JsonSinkFactory stream_t = [](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
    return path.Is(0, "t") ? std::make_unique<KeepingSink>() : nullptr;
  };
  const StreamedJson twice = Parse(R"({"t": [1, 2], "t": [3]})", stream_t);
  ASSERT_EQ(twice.sinks.size(), 2u);
  const auto* last = twice.SinkOf<KeepingSink>(twice.document["t"]);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(json(last->elements), json::parse("[3]"));
  // An array then another value: the value, as in json::parse.
  EXPECT_EQ(Parse(R"({"t": [1, 2], "t": 5})", stream_t).document["t"], 5);
  EXPECT_EQ(Parse(R"({"t": 5, "t": [1]})", stream_t).document.size(), 1u);
}

// Each value a repeated member replaces is freed, and with it the sinks of the arrays streamed in
// it: 10,000 `"nodes": [{}]` kept 10,000 sinks (and 64 KiB of text each) before.
TEST(JsonStreamTest, ARepeatedMemberFreesTheSinksOfTheValuesItReplaces) {
  const JsonSinkFactory stream_t = [](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
    return path.depth() > 0 && path.steps().back().key == "t" ? std::make_unique<KeepingSink>()
                                                              : nullptr;
  };
  const auto live = [](const StreamedJson& streamed) {
    size_t count = 0;
    for (const auto& sink : streamed.sinks) count += sink != nullptr;
    return count;
  };
  const StreamedJson thrice = Parse(R"({"t": [1], "t": [2], "t": [3, 4]})", stream_t);
  EXPECT_EQ(live(thrice), 1u);
  const auto* last = thrice.SinkOf<KeepingSink>(thrice.document["t"]);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(json(last->elements), json::parse("[3, 4]"));
  // Streamed arrays deep inside the value replaced, and inside the one kept.
  const StreamedJson nested =
      Parse(R"({"o": {"a": [{"t": [1]}, {"b": {"t": [2]}}]}, "o": {"t": [5]}, "u": {"t": [6]}})",
            stream_t);
  EXPECT_EQ(live(nested), 2u);
  const auto* kept = nested.SinkOf<KeepingSink>(nested.document["o"]["t"]);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(json(kept->elements), json::parse("[5]"));
  ASSERT_NE(nested.SinkOf<KeepingSink>(nested.document["u"]["t"]), nullptr);
}

TEST(JsonStreamTest, SyntaxAndNestingErrorsAreThoseOfParseJsonOrThrow) {
  const JsonSinkFactory stream_all = [](const JsonPath&) {
    return std::make_unique<KeepingSink>();
  };
  for (const std::string& text :
       std::vector<std::string>{R"({"t": [1, 2, 3]]})", "{\"t\": [1,\n 2 x]}", R"({"t": [1e999]})",
                                "", "[1] 2", std::string(600, '[') + std::string(600, ']')}) {
    const std::string expected = Failure([&] { ParseJsonOrThrow(text, "clip.json"); });
    EXPECT_NE(expected, "no error");
    EXPECT_EQ(Failure([&] { Parse(text, stream_all); }), expected) << text.substr(0, 40);
    EXPECT_EQ(Failure([&] { Parse(text, kKeepEveryArray); }), expected) << text.substr(0, 40);
  }
}

TEST(JsonStreamTest, LeavesOutTheMembersTheFilterRefusesInsideStreamedElementsToo) {
  std::vector<std::string> asked_members;
  std::vector<std::string> asked_arrays;
  KeepingSink* sink = nullptr;
  const StreamedJson streamed = Parse(
      R"({"junk": [{"a": [1]}, 2], "keep": {"x": 1, "drop": {"y": [3]}, "z": [4]},
          "s": [{"time": 0, "junk": [5], "pos": [1, 2]}, {"junk": {}, "time": 1}], "n": null})",
      [&](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
        asked_arrays.push_back(path.Pointer());
        if (path.depth() != 1 || !path.Is(0, "s")) return nullptr;
        auto made = std::make_unique<KeepingSink>();
        sink = made.get();
        return made;
      },
      [&](const JsonPath& path) {
        asked_members.push_back(path.Pointer());
        return path.steps().back().key != "junk" && path.steps().back().key != "drop";
      });
  // Nothing inside a member left out is asked about; paths after one are right.
  EXPECT_EQ(asked_members, (std::vector<std::string>{"/junk", "/keep", "/keep/x", "/keep/drop",
                                                     "/keep/z", "/s", "/s/0/time", "/s/0/junk",
                                                     "/s/0/pos", "/s/1/junk", "/s/1/time", "/n"}));
  EXPECT_EQ(asked_arrays, (std::vector<std::string>{"/keep/z", "/s", "/s/0/pos"}));
  EXPECT_EQ(streamed.document.size(), 3u);  // keep, s (a placeholder) and n
  EXPECT_TRUE(streamed.document["s"].is_binary());
  EXPECT_EQ(streamed.document["keep"], json::parse(R"({"x": 1, "z": [4]})"));
  EXPECT_FALSE(streamed.document.contains("junk"));
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(json(sink->elements), json::parse(R"([{"time": 0, "pos": [1, 2]}, {"time": 1}])"));
  // A member left out is still parsed: its syntax errors are reported.
  const std::string bad = R"({"junk": [1, 2 3], "keep": 1})";
  EXPECT_EQ(Failure([&] {
              ParseJsonStreamingOrThrow(bad, "clip.json", kKeepEveryArray,
                                        [](const JsonPath& path) { return !path.Is(0, "junk"); });
            }),
            Failure([&] { ParseJsonOrThrow(bad, "clip.json"); }));
}

TEST(JsonStreamTest, AnArrayPolicyKeepsUpToItsLimitAndCountsTheRest) {
  std::vector<std::string> asked;
  const StreamedJson streamed = ParseJsonStreamingOrThrow(
      R"({"a": [1, [2], {"x": [3]}, 4, [5, [6]], {"y": {}}], "b": [[7], [8]], "c": [9]})",
      "clip.json", kKeepEveryArray, nullptr,
      [&](const JsonPath& path) -> std::optional<JsonArrayPolicy> {
        asked.push_back(path.Pointer());
        if (!path.Is(0, "a") || path.depth() != 1) return std::nullopt;
        JsonArrayPolicy policy;
        policy.keep_at_most = 2;
        return policy;
      });
  // The elements past the limit are not kept, and nothing inside them is asked about.
  EXPECT_EQ(asked, (std::vector<std::string>{"/a", "/a/1", "/b", "/b/0", "/b/1", "/c"}));
  EXPECT_EQ(streamed.document["a"], json::parse("[1, [2]]"));
  EXPECT_EQ(streamed.ElementCount(streamed.document["a"], "/a"), 6u);
  EXPECT_EQ(streamed.document["b"], json::parse("[[7], [8]]"));  // no policy: whole
  EXPECT_EQ(streamed.ElementCount(streamed.document["b"], "/b"), 2u);
  EXPECT_EQ(streamed.document["c"], json::parse("[9]"));
  EXPECT_EQ(streamed.cut_arrays, (std::map<std::string, size_t>{{"/a", 6}}));
}

TEST(JsonStreamTest, AnArrayPolicyStopsKeepingAfterTheFirstElementItRefuses) {
  const JsonArrayPolicyFactory refuse_empty = [](const JsonPath& path) {
    JsonArrayPolicy policy;
    policy.refuses = [](const json& element) { return element.is_object() && element.empty(); };
    return path.depth() == 1 ? std::optional<JsonArrayPolicy>(policy) : std::nullopt;
  };
  const auto parse = [&](const std::string& text) {
    return ParseJsonStreamingOrThrow(text, "clip.json", kKeepEveryArray, nullptr, refuse_empty);
  };
  const StreamedJson streamed =
      parse(R"({"t": [{"n": 1}, {}, {"n": 2}, {}, [1, {}], 3], "u": [{"n": 3}], "v": [{}]})");
  EXPECT_EQ(streamed.document["t"], json::parse(R"([{"n": 1}, {}])"));
  EXPECT_EQ(streamed.ElementCount(streamed.document["t"], "/t"), 6u);
  EXPECT_EQ(streamed.document["u"], json::parse(R"([{"n": 3}])"));
  EXPECT_EQ(streamed.document["v"], json::parse("[{}]"));  // refused last: nothing was dropped
  EXPECT_EQ(streamed.cut_arrays.size(), 1u);
  // Of a repeated member, the last array's count holds.
  const StreamedJson twice = parse(R"({"t": [{}, 1, 2], "t": [5]})");
  EXPECT_EQ(twice.ElementCount(twice.document["t"], "/t"), 1u);
  EXPECT_TRUE(twice.cut_arrays.empty());
  // What is dropped is still parsed: a syntax error past the cut is the one json::parse reports.
  const std::string bad = R"({"t": [{}, {"a": [1 2]}]})";
  EXPECT_EQ(Failure([&] { parse(bad); }), Failure([&] { ParseJsonOrThrow(bad, "clip.json"); }));
}

TEST(DeferredFailureTest, KeepsTheFirstErrorAndLetsOthersThrough) {
  DeferredFailure failure;
  int runs = 0;
  failure.Run([&] { ++runs; });
  EXPECT_FALSE(failure.failed());
  EXPECT_NO_THROW(failure.RethrowIfFailed());
  failure.Run([&] { ThrowBadInput("clip.json", "/a", "first"); });
  failure.Run([&] {
    ++runs;
    ThrowBadInput("clip.json", "/b", "second");
  });
  EXPECT_TRUE(failure.failed());
  EXPECT_EQ(runs, 1);  // nothing runs once a failure is kept
  EXPECT_EQ(Failure([&] { failure.RethrowIfFailed(); }), "/a: first");
  DeferredFailure other;
  EXPECT_THROW(other.Run([] { throw std::bad_alloc(); }), std::bad_alloc);
  EXPECT_FALSE(other.failed());
}

// The sink for the array at /tracks/0/times.
Float32ArraySink* TimesSink(const StreamedJson& streamed) {
  return streamed.SinkOf<Float32ArraySink>(streamed.document["tracks"][0]["times"]);
}

StreamedJson ParseTimes(const std::string& times) {
  return Parse(R"({"tracks": [{"times": )" + times + "}]}",
               [](const JsonPath& path) -> std::unique_ptr<JsonElementSink> {
                 return path.depth() == 3 && path.Is(2, "times")
                            ? std::make_unique<Float32ArraySink>()
                            : nullptr;
               });
}

TEST(Float32ArraySinkTest, KeepsFloat32Numbers) {
  const JsonPointerReader reader("clip.json");
  const StreamedJson streamed = ParseTimes("[0, 0.1, -3, 1e30, 16777217]");
  Float32ArraySink* sink = TimesSink(streamed);
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(sink->size(), 5u);
  EXPECT_EQ(
      sink->Take("/tracks/0/times", reader),
      (std::vector<double>{0, static_cast<float>(0.1), -3, static_cast<float>(1e30), 16777216}));
}

TEST(Float32ArraySinkTest, RefusesAsFloat32AtDoesAtTheElementsPointer) {
  const JsonPointerReader reader("clip.json");
  const std::string pointer = "/tracks/0/times";
  // The reference: what Float32At says for the first element of `text` it refuses.
  auto float32_at = [&](const std::string& text) {
    return Failure([&] {
      const json array = json::parse(text);
      for (size_t i = 0; i < array.size(); ++i) reader.Float32At(array, i, pointer);
    });
  };
  for (const std::string& text :
       std::vector<std::string>{R"([0, 1, "2", 3])", "[0, null]", "[0, 1e39, true]",
                                "[0, [1], 1e39]", R"([{"a": 1}])"}) {
    const StreamedJson streamed = ParseTimes(text);
    const std::string expected = float32_at(text);
    EXPECT_NE(expected, "no error");
    EXPECT_EQ(Failure([&] { TimesSink(streamed)->Take(pointer, reader); }), expected) << text;
  }
  EXPECT_EQ(float32_at(R"([0, 1, "2"])"), "/tracks/0/times/2: expected a number, found string");
}

}  // namespace
}  // namespace animconv
