#include "libconvert/clip_select.h"

#include <gtest/gtest.h>

#include "animconv/clip_diff.h"
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

TEST(ClipSelectTest, DiffPairsClipsByNameThenAnOnlyClipNeverByIndex) {
  Asset a = WithClips({"walk", "run"});
  Asset b = WithClips({"run", "walk"});
  DiffOptions options;
  auto pair = SelectClipPair(a, b, options);
  EXPECT_EQ(pair.first, &a.clips[0]);
  EXPECT_EQ(pair.second, &b.clips[1]);  // "walk" by name
  b.clips[1].name = "idle";
  options.clip_a = "1";
  pair = SelectClipPair(a, b, options);
  EXPECT_EQ(pair.first, &a.clips[1]);
  EXPECT_EQ(pair.second, &b.clips[0]);  // "run" by name
  // No "walk" in B, which has several clips: B's clip 0 ("run") would be an unrelated motion.
  options.clip_a = "walk";
  try {
    SelectClipPair(a, b, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(error.what()).find("0: 'run', 1: 'idle'"), std::string::npos)
        << error.what();
  }
  options.clip_b = "idle";
  EXPECT_EQ(SelectClipPair(a, b, options).second, &b.clips[1]);
  options.clip_b = "jump";
  EXPECT_THROW(SelectClipPair(a, b, options), Error);
}

TEST(ClipSelectTest, DiffPairsSingleClipsWhateverTheirNames) {
  // A conversion into a one-clip format, or a renamed take: the only clip on each side.
  const Asset a = WithClips({"mixamo.com"});
  const Asset b = WithClips({"walk"});
  EXPECT_EQ(SelectClipPair(a, b, {}).second, &b.clips[0]);
  // A has several clips and B one: A's clip of B's clip's name, not A's first.
  const Asset several = WithClips({"Idle", "Walk", "Run"});
  const Asset walk = WithClips({"Walk"});
  const auto pair = SelectClipPair(several, walk, {});
  EXPECT_EQ(pair.first, &several.clips[1]);
  EXPECT_EQ(pair.second, &walk.clips[0]);
  // ... and with no name in common, no guess.
  EXPECT_THROW(SelectClipPair(several, b, {}), Error);
  DiffOptions chosen;
  chosen.clip_a = "Run";  // a chosen clip against B's only one
  EXPECT_EQ(SelectClipPair(several, b, chosen).first, &several.clips[2]);
}

}  // namespace
}  // namespace animconv
