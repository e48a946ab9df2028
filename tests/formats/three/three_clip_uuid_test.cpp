#include "formats/three/three_clip_uuid.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace animconv {
namespace {

// The uuid of a clip text `before` + [array] + "]}", its one array read as its digest.
std::string UuidOf(const std::string& array, size_t index = 0,
                   const std::string& before = "{\"times\":[") {
  ClipUuidHash hash(index);
  hash.AddText(before);
  hash.AddArray(DigestArrayText(array));
  hash.AddText("]}");
  return hash.Uuid();
}

TEST(ThreeClipUuidTest, DigestSeesEveryByteOfEveryLength) {
  // Lengths around the 32-byte stripe and the 8-byte word, so every tail path is taken; a change
  // of any one byte changes the digest.
  for (size_t length = 1; length <= 70; ++length) {
    const std::string base(length, '0');
    const uint64_t digest = DigestArrayText(base);
    for (size_t at = 0; at < length; ++at) {
      std::string changed = base;
      changed[at] = '1';
      ASSERT_NE(DigestArrayText(changed), digest) << length << " " << at;
    }
    ASSERT_NE(DigestArrayText(base + "0"), digest) << length;  // the length counts
  }
}

TEST(ThreeClipUuidTest, IsAVersion8UuidThatFollowsTheTextAndTheIndex) {
  const std::string uuid = UuidOf("0,0.5,1");
  ASSERT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[8], '-');
  EXPECT_EQ(uuid[14], '8');  // RFC 9562 §5.8: version 8, not random
  EXPECT_NE(std::string("89ab").find(uuid[19]), std::string::npos);  // the RFC variant
  EXPECT_EQ(UuidOf("0,0.5,1"), uuid);                                // the same text, the same uuid
  std::set<std::string> seen{uuid};
  EXPECT_TRUE(seen.insert(UuidOf("0,0.5,2")).second);     // a value in the array
  EXPECT_TRUE(seen.insert(UuidOf("0,0.5,1", 1)).second);  // the clip's place in the file
  // The text outside the arrays counts too.
  EXPECT_TRUE(seen.insert(UuidOf("0", 0, "{\"name\":\"b\",\"times\":[")).second);
}

}  // namespace
}  // namespace animconv
