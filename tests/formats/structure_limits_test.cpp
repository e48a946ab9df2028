// Issue 14: deep and wide inputs of every reader. Each builds one parent chain (or N tracks for
// the formats without a hierarchy) at a small limit and just past it — the error must be located
// and clean — and at the default depth limit, whose read must take time linear in the depth
// (t(4n) < 8·t(n) + 0.2 s: a quadratic pass takes 16×). bench/gen_deep.py makes the same shapes.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

#include "animconv/error.h"
#include "animconv/format.h"
#include "animconv/model.h"
#include "formats/bvh/bvh_reader.h"
#include "formats/csv/animconv_csv.h"
#include "formats/gltf/gltf.h"
#include "formats/three/three_hierarchy.h"
#include "formats/three/three_json.h"

namespace animconv {
namespace {

std::string Gltf(size_t n) {
  // Two keys, rotation of node 0: times 0, 1; quaternions identity and 90° about Y.
  std::string out = R"({"asset":{"version":"2.0"},"nodes":[)";
  for (size_t i = 0; i < n; ++i) {
    out += R"({"name":"n)" + std::to_string(i) + '"';
    if (i + 1 < n) out += R"(,"children":[)" + std::to_string(i + 1) + "]";
    out += i + 1 < n ? "}," : "}";
  }
  out +=
      R"(],"buffers":[{"byteLength":40,"uri":"data:application/octet-stream;base64,)"
      R"(AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAPMENT8AAAAA8wQ1Pw=="}],)"
      R"("bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],)"
      R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},)"
      R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],)"
      R"("animations":[{"samplers":[{"input":0,"output":1}],)"
      R"("channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}]}]})";
  return out;
}

std::string Hierarchy(size_t n) {
  std::string bones, entries;
  for (size_t i = 0; i < n; ++i) {
    const std::string parent = std::to_string(static_cast<long>(i) - 1);
    bones += (i ? "," : "") + std::string(R"({"name":"n)") + std::to_string(i) + R"(","parent":)" +
             parent + "}";
    entries += (i ? "," : "") + std::string(R"({"parent":)") + parent + R"(,"keys":)" +
               (i == 0 ? R"([{"time":0,"rot":[0,0,0,1]},{"time":1,"rot":[0,0,0,1]}])" : "[]") + "}";
  }
  return R"({"bones":[)" + bones + R"(],"animation":{"name":"deep","fps":30,"hierarchy":[)" +
         entries + "]}}";
}

std::string Bvh(size_t n) {
  std::string out =
      "HIERARCHY\nROOT n0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  for (size_t i = 1; i < n; ++i) out += "JOINT n" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n";
  out += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (size_t i = 0; i < n; ++i) out += "}\n";
  return out + "MOTION\nFrames: 1\nFrame Time: 0.5\n0 0 0\n";
}

std::string ThreeTracks(size_t n) {
  std::string out = R"({"name":"wide","tracks":[)";
  for (size_t i = 0; i < n; ++i) {
    out += (i ? "," : "") + std::string(R"({"name":"n)") + std::to_string(i) +
           R"(.quaternion","type":"quaternion","times":[0],"values":[0,0,0,1]})";
  }
  return out + "]}";
}

std::string CsvColumns(size_t n) {
  std::string header = "time", row = "0";
  for (size_t i = 0; i < n; ++i) {
    header += ",n" + std::to_string(i) + ".translation.x,n" + std::to_string(i) +
              ".translation.y,n" + std::to_string(i) + ".translation.z";
    row += ",0,0,0";
  }
  return header + "\n" + row + "\n";
}

struct Case {
  const char* name;
  std::function<std::string(size_t)> make;
  Asset (*read)(std::string_view, const ReadOptions&);
  const char* source;
  size_t StructureLimits::*limit;  // what the shape's size counts against
  const char* location;            // of the error just past a limit of 50
  const char* fragment;
};

const Case kCases[] = {
    {"gltf", Gltf, ReadGltf, "deep.gltf", &StructureLimits::depth, "/nodes/50",
     "the node is 51 levels deep, more than the limit of 50"},
    {"hierarchy", Hierarchy, ReadThreeHierarchy, "deep.hierarchy.json", &StructureLimits::depth,
     "/bones/50/parent", "bone 50 is 51 levels deep, more than the limit of 50"},
    {"bvh", Bvh, ReadBvh, "deep.bvh", &StructureLimits::depth, "154:1",
     "BVH joints nested 51 levels deep, more than the limit of 50"},
    {"three", ThreeTracks, ReadThreeJson, "wide.json", &StructureLimits::channels, "/tracks",
     "51 tracks, more than the limit of 50"},
    {"csv", CsvColumns, ReadAnimconvCsv, "wide.csv", &StructureLimits::channels, "1:1",
     "the header names 51 channels, more than the limit of 50"},
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class StructureLimitsTest : public ::testing::TestWithParam<Case> {};

TEST_P(StructureLimitsTest, AtTheLimitReadsJustPastItIsALocatedError) {
  const Case& c = GetParam();
  ReadOptions options;
  options.source = c.source;
  options.limits.*c.limit = 50;
  // The BVH's End Site nests one level below the last joint.
  const size_t at_limit = c.read == ReadBvh ? 49 : 50;
  EXPECT_NO_THROW(c.read(c.make(at_limit), options));
  try {
    c.read(c.make(at_limit + 1), options);
    FAIL() << "expected an error past the limit";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.location(), c.location);
    EXPECT_NE(error.message().find(c.fragment), std::string::npos) << error.message();
  }
}

double SecondsToRead(const Case& c, size_t n) {
  const std::string bytes = c.make(n);
  ReadOptions options;
  options.source = c.source;
  const auto start = std::chrono::steady_clock::now();
  const Asset asset = c.read(bytes, options);
  ValidateAsset(asset, options.source);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The default depth limit, 10,000, and a quarter of it: a read O(n·depth) took 0.6 s at 4000
// nodes and 9.9 s at 16,000 (glTF, before); linear it is milliseconds.
TEST_P(StructureLimitsTest, TimeGrowsLinearlyUpToTheDefaultLimit) {
  const Case& c = GetParam();
  const size_t n = StructureLimits{}.depth - 1;  // BVH: the End Site is one level more
  const double quarter = SecondsToRead(c, n / 4);
  const double full = SecondsToRead(c, n);
  EXPECT_LT(full, 8 * quarter + 0.2) << "n/4: " << quarter << " s, n: " << full << " s";
}

INSTANTIATE_TEST_SUITE_P(Formats, StructureLimitsTest, ::testing::ValuesIn(kCases),
                         [](const auto& test) { return std::string(test.param.name); });

TEST(StructureLimitsTest, GltfDeepChainIsRefusedAtTheDefaultDepth) {
  ReadOptions options;
  options.source = "deep.gltf";
  try {
    ReadGltf(Gltf(StructureLimits{}.depth + 1), options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/nodes/10000");
  }
}

// Past the default, for a user who raises the limit: the rig walk over Assimp's tree was
// recursive and copied a vector per level, and overflowed the stack at ~11,000 joints; the BVH
// reader keeps an explicit stack (tests/formats/bvh: a million levels).
TEST(StructureLimitsTest, BvhHierarchyParseIsIterative) {
  ReadOptions options;
  options.source = "deep.bvh";
  options.limits.depth = 20000;
  const Asset asset = ReadBvh(Bvh(15000), options);
  ASSERT_GE(asset.rig.nodes.size(), 15000u);
  EXPECT_EQ(asset.rig.nodes[14999].parent, 14998);
}

TEST(StructureLimitsTest, BvhNegativeFramesIsLocated) {
  std::string bytes = Bvh(2);
  bytes.replace(bytes.find("Frames: 1"), 9, "Frames: -1");
  ReadOptions options;
  options.source = "negative.bvh";
  try {
    ReadBvh(bytes, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "16:9");
    EXPECT_NE(error.message().find("found '-1'"), std::string::npos) << error.message();
  }
}

TEST(StructureLimitsTest, NodeCountIsCheckedBeforeTheRig) {
  ReadOptions options;
  options.source = "wide.gltf";
  options.limits.nodes = 10;
  try {
    ReadGltf(Gltf(11), options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.location(), "/nodes");
    EXPECT_NE(error.message().find("11 nodes, more than the limit of 10"), std::string::npos);
  }
}

}  // namespace
}  // namespace animconv
