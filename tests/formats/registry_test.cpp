#include <gtest/gtest.h>

#include "animconv/error.h"
#include "animconv/format.h"

namespace animconv {
namespace {

TEST(RegistryTest, OutputFormatFollowsTheLongestExtension) {
  EXPECT_EQ(DetectOutputFormat("a.json", "").id, "three");
  EXPECT_EQ(DetectOutputFormat("A.JSON", "").id, "three");
  EXPECT_EQ(DetectOutputFormat("a.hierarchy.json", "").id, "three-hierarchy");
  EXPECT_EQ(DetectOutputFormat("a.csv", "").id, "csv");
  EXPECT_EQ(DetectOutputFormat("a.unity.csv", "").id, "unity-csv");
  EXPECT_EQ(DetectOutputFormat("a.json", "unity-csv").id, "unity-csv");
  EXPECT_THROW(DetectOutputFormat("a.txt", ""), Error);
  EXPECT_THROW(DetectOutputFormat("a.json", "nope"), Error);
}

TEST(RegistryTest, InputFormatFollowsContentFirst) {
  EXPECT_EQ(DetectInputFormat("a.csv", "time,n.scale.x\n", "").id, "csv");
  EXPECT_EQ(DetectInputFormat("a.csv", "0.1,0.2\n", "").id, "unity-csv");
  EXPECT_EQ(DetectInputFormat("a.txt", "0.1,0.2\n", "").id, "unity-csv");
  EXPECT_EQ(DetectInputFormat("a.csv", "0.1", "csv").id, "csv");
  EXPECT_THROW(DetectInputFormat("a.bin", "\x01\x02", ""), Error);
  EXPECT_THROW(DetectInputFormat("a.csv", "", "nope"), Error);            // no such format
  EXPECT_EQ(DetectInputFormat("a.csv", "glTF\x02\0\0\0", "").id, "glb");  // magic beats name
}

TEST(RegistryTest, BvhIsReadAndWrittenByItsOwnEntry) {
  EXPECT_EQ(DetectOutputFormat("x.bvh", "").id, "bvh");
  EXPECT_EQ(DetectOutputFormat("X.BVH", "").id, "bvh");
  EXPECT_EQ(DetectInputFormat("x.bvh", "HIERARCHY\nROOT Hips\n", "").id, "bvh");
  EXPECT_EQ(DetectInputFormat("anything", "HIERARCHY\nROOT Hips\n", "").id, "bvh");  // sniffed
  EXPECT_NE(FindFormat("bvh")->read, nullptr);
  EXPECT_NE(FindFormat("bvh")->write, nullptr);
  EXPECT_FALSE(FindFormat("bvh")->holds_morph_weights);
  EXPECT_FALSE(FindFormat("bvh")->accepts_cubic);
}

TEST(RegistryTest, EveryFormatHasAnIdExtensionsAndAnImplementation) {
  for (const Format& format : Formats()) {
    EXPECT_FALSE(format.id.empty());
    EXPECT_FALSE(format.extensions.empty()) << format.id;
    EXPECT_TRUE(format.read || format.write) << format.id;
    EXPECT_EQ(FindFormat(format.id), &format);
  }
}

}  // namespace
}  // namespace animconv
