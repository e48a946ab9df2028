#include "formats/common/json_pointer.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

#include "animconv/error.h"
#include "formats/common/json_failure.h"

namespace animconv {
namespace {

using nlohmann::json;

TEST(JsonPointerReaderTest, ReadsValuesOfTheRightType) {
  const JsonPointerReader reader("clip.json");
  const json document = json::parse(R"({"tracks": [1.5, "a"], "n": null})");
  EXPECT_EQ(&reader.Require(document, "tracks", ""), &document["tracks"]);
  EXPECT_EQ(reader.RequireArray(document["tracks"], "/tracks").size(), 2u);
  EXPECT_EQ(reader.RequireNumber(document["tracks"][0], "/tracks/0"), 1.5);
  EXPECT_EQ(reader.RequireString(document["tracks"][1], "/tracks/1"), "a");
  EXPECT_EQ(Given(document, "n"), nullptr);
  EXPECT_EQ(Given(document, "absent"), nullptr);
  EXPECT_EQ(Given(document, "tracks"), &document["tracks"]);
}

TEST(JsonPointerReaderTest, SaysWhatWasExpectedWhere) {
  const JsonPointerReader reader("clip.json");
  const json document = json::parse(R"({"a": {}, "s": "x", "n": null, "t": true})");
  EXPECT_EQ(Failure([&] { reader.Require(document, "tracks", "/0"); }),
            "/0: expected a member 'tracks'");
  EXPECT_EQ(Failure([&] { reader.RequireArray(document["a"], "/a"); }),
            "/a: expected an array, found object");
  EXPECT_EQ(Failure([&] { reader.RequireString(document["t"], "/t"); }),
            "/t: expected a string, found boolean");
  EXPECT_EQ(Failure([&] { reader.RequireNumber(document["s"], "/s"); }),
            "/s: expected a number, found string");
  EXPECT_EQ(Failure([&] { reader.RequireNumber(document["n"], "/n"); }),
            "/n: expected a number, found null (JSON.stringify writes NaN and Infinity as null)");
  EXPECT_EQ(Failure([&] { reader.Fail("", "whole document"); }), ": whole document");
}

TEST(JsonPointerReaderTest, TheRootCanBeNamed) {
  const JsonPointerReader reader("clip.json", "/");
  EXPECT_EQ(Failure([&] { reader.Fail("", "whole document"); }), "/: whole document");
  EXPECT_EQ(Failure([&] { reader.Fail("/x", "member"); }), "/x: member");
}

TEST(JsonPointerReaderTest, Float32TrackNumbers) {
  const JsonPointerReader reader("clip.json");
  const json values = json::parse(R"([0.1, 1e39, "x"])");
  EXPECT_EQ(reader.Float32At(values, 0, "/values"), static_cast<double>(0.1f));
  EXPECT_EQ(Failure([&] { reader.Float32At(values, 1, "/values"); }),
            "/values/1: 1e+39 is beyond float32's range (three.js keeps tracks in Float32Arrays)");
  EXPECT_EQ(Failure([&] { reader.Float32At(values, 2, "/values"); }),
            "/values/2: expected a number, found string");
  EXPECT_TRUE(FitsFloat32(3.4028234663852886e38));
  EXPECT_FALSE(FitsFloat32(3.5e38));
  // FLT_MAX as our writers give it (its shortest float32 text), which a double holds just above
  // FLT_MAX: a float32 reader rounds it to FLT_MAX, and so does three.js's Float32Array.
  EXPECT_TRUE(FitsFloat32(3.4028235e38));
  EXPECT_EQ(static_cast<float>(3.4028235e38), std::numeric_limits<float>::max());
  EXPECT_TRUE(FitsFloat32(-3.4028235677973362e38));  // the largest double below the halfway point
  EXPECT_FALSE(FitsFloat32(3.4028235677973366e38));  // halfway to 2^128: rounds to infinity
  EXPECT_EQ(reader.Float32At(json::parse("[3.4028235e+38]"), 0, "/values"),
            static_cast<double>(std::numeric_limits<float>::max()));
}

}  // namespace
}  // namespace animconv
