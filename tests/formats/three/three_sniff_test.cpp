// SniffThreeJson (formats/three/three_sniff.cpp) and the registry's choice by content.
#include <gtest/gtest.h>

#include <string>

#include "animconv/format.h"
#include "formats/three/three_json.h"

namespace animconv {
namespace {

std::string ClipWith(const std::string& tracks) {
  return R"({"name":"c","tracks":[)" + tracks + "]}";
}

const std::string kHipsRotation =
    R"({"name":"hips.quaternion","times":[0,0.5],"values":[0,0,0,1,0,0.6,0,0.8],
      "type":"quaternion"})";

TEST(ThreeSniffTest, SniffsClipsArraysAndScenes) {
  EXPECT_TRUE(SniffThreeJson(ClipWith(kHipsRotation)));
  EXPECT_TRUE(SniffThreeJson("\xEF\xBB\xBF \n[" + ClipWith("") + "]"));
  // The key may come after megabytes of other data.
  EXPECT_TRUE(SniffThreeJson(R"({"object":{"children":[{"name":"tracks","a":[)" +
                             std::string(1'000'000, '1') + R"(]}]},"animations":[{"name":"x \"}",
                             "tracks":[]}]})"));
  EXPECT_FALSE(SniffThreeJson(R"({"name":"tracks","x":{"tracks":[]}})"));  // not a top-level key
  // glTF: `animations` holds channels and samplers, not tracks.
  EXPECT_FALSE(SniffThreeJson(R"({"asset":{"version":"2.0"},"animations":[{"channels":[]}]})"));
  EXPECT_FALSE(SniffThreeJson("time,hips.rotation.x\n0,1\n"));
  EXPECT_FALSE(SniffThreeJson(R"({"hierarchy":[],"tracks_":1})"));
  EXPECT_FALSE(SniffThreeJson(""));
  EXPECT_FALSE(SniffThreeJson("{\"tracks"));
}

TEST(ThreeSniffTest, RegistryReadsThreeJsonByContent) {
  EXPECT_EQ(DetectInputFormat("clip.txt", ClipWith(kHipsRotation), "").id, "three");
  EXPECT_EQ(DetectInputFormat("clip.hierarchy.json", ClipWith(kHipsRotation), "").id, "three");
  EXPECT_EQ(DetectInputFormat("a.json", R"({"hierarchy":[]})", "").id, "three-hierarchy");
}

}  // namespace
}  // namespace animconv
