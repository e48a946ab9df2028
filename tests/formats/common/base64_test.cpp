#include "formats/common/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace animconv {
namespace {

TEST(Base64Test, EncodesWithPadding) {
  // RFC 4648 §10.
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(Base64Test, DecodesWhatItEncodes) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (size_t length = 0; length <= all.size(); length += 37) {
    std::string bytes = "stale";
    ASSERT_TRUE(Base64Decode(Base64Encode(all.substr(0, length)), &bytes));
    EXPECT_EQ(bytes, all.substr(0, length));
  }
}

TEST(Base64Test, RejectsWhatIsNotBase64) {
  std::string bytes;
  EXPECT_FALSE(Base64Decode("Zm9v!", &bytes));
  EXPECT_FALSE(Base64Decode("Zg==Zg", &bytes));
  EXPECT_TRUE(Base64Decode("Zg", &bytes));  // padding may be left out
  EXPECT_EQ(bytes, "f");
}

}  // namespace
}  // namespace animconv
