#include "libconvert/clip_select.h"

#include <gtest/gtest.h>

#include "animconv/error.h"

namespace animconv {
namespace {

Asset WithClips(std::initializer_list<const char*> names) {
  Asset asset;
  for (const char* name : names) {
    Clip clip;
    clip.name = name;
    asset.clips.push_back(clip);
  }
  return asset;
}

TEST(ClipSelectTest, ByNameThenByIndex) {
  const Asset asset = WithClips({"walk", "run", "walk"});
  EXPECT_EQ(FindClip(asset, "run"), &asset.clips[1]);
  EXPECT_EQ(FindClip(asset, "walk"), &asset.clips[0]);  // the first of a name
  EXPECT_EQ(FindClip(asset, "2"), &asset.clips[2]);
  EXPECT_EQ(FindClip(asset, "3"), nullptr);
  EXPECT_EQ(FindClip(asset, "jump"), nullptr);
  for (const char* not_an_index : {"", "-1", "+1", "1x", " 1", "0x1"}) {
    EXPECT_EQ(FindClip(asset, not_an_index), nullptr) << not_an_index;
  }
}

TEST(ClipSelectTest, ANameWinsOverAnIndex) {
  const Asset asset = WithClips({"walk", "0"});
  EXPECT_EQ(FindClip(asset, "0"), &asset.clips[1]);
  EXPECT_EQ(FindClip(asset, "1"), &asset.clips[1]);
}

TEST(ClipSelectTest, TheErrorListsTheClips) {
  try {
    ThrowNoSuchClip("--clip-b", "jump", WithClips({"walk", "run"}), "none");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_EQ(error.message(),
              "--clip-b jump: no such clip name or index (clips: 0: 'walk', 1: 'run')");
  }
  try {
    ThrowNoSuchClip("--clip", "0", Asset{}, "none");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.message(), "--clip 0: no such clip name or index (clips: none)");
  }
}

}  // namespace
}  // namespace animconv
