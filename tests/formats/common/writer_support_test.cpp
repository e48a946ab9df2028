#include "formats/common/writer_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace animconv {
namespace {

std::string PlainList(const std::vector<double>& values) {
  std::string text;
  AppendFloatList(text, values.data(), values.size());
  return text;
}

std::string ListOfKeys(const std::vector<double>& values, size_t values_per_key) {
  std::string text = "[";  // appended after what is there
  AppendFloatListOfKeys(text, values.data(), values.size(), values_per_key);
  return text.substr(1);
}

// AppendFloatListOfKeys copies the text of a value that repeats its previous key's: the text must
// be AppendFloatList's whatever repeats, for every width it caches and those it does not.
TEST(WriterSupportTest, KeysTextIsThePlainListsText) {
  std::mt19937_64 random(34);
  const std::vector<double> specials = {0.0,
                                        -0.0,
                                        1.0,
                                        -1.0,
                                        0.70710678118654752,
                                        1.17549435e-38,  // the longest texts: 14-15 characters
                                        -1.17549435e-38,
                                        -3.4028234e38,
                                        1e-45,
                                        0.1,
                                        123456789.0,
                                        -0.00012345678};
  for (const size_t values_per_key : {size_t{0}, size_t{1}, size_t{3}, size_t{4}, size_t{12},
                                      kMaxRepeatSlots, kMaxRepeatSlots + 1}) {
    for (const double repeat_share : {0.0, 0.5, 0.95, 1.0}) {
      std::vector<double> values;
      const size_t width = std::max<size_t>(values_per_key, 1);
      for (size_t i = 0; i < 3000; ++i) {  // several 4 KiB blocks of text
        const bool repeat =
            i >= width && std::uniform_real_distribution<double>(0, 1)(random) < repeat_share;
        if (repeat) {
          values.push_back(values[i - width]);
        } else if (random() % 3 == 0) {
          values.push_back(specials[random() % specials.size()]);
        } else {
          values.push_back(std::uniform_real_distribution<double>(-2, 2)(random));
        }
      }
      EXPECT_EQ(ListOfKeys(values, values_per_key), PlainList(values))
          << values_per_key << " values a key, repeat share " << repeat_share;
    }
  }
}

// A value equal to one a key before as a double but not as the float written, and the other way
// round: what decides is the float32 written.
TEST(WriterSupportTest, KeysTextComparesTheFloatWritten) {
  const double a = 0.1;
  const double b = std::nextafter(0.1, 1.0);  // the same float32
  const std::vector<double> values = {a, 0.0, b, -0.0, a, 0.0};
  EXPECT_EQ(ListOfKeys(values, 2), "0.1,0,0.1,0,0.1,0");
  EXPECT_EQ(ListOfKeys({}, 4), "");
  EXPECT_EQ(ListOfKeys({0.25}, 4), "0.25");
}

}  // namespace
}  // namespace animconv
