// The structure limits as options (--max-nodes, --max-depth, ...; docs/cli.md, convert): a file
// just past a default limit is bad input located where it goes past, and reads with the limit
// raised, so a user whose real file is bigger is not stuck with the library's defaults.
#include <gtest/gtest.h>

#include <string>

#include "animconv/model.h"
#include "test_support.h"

namespace animconv {
namespace {

using testing::Has;
using testing::RunAnimconv;
using testing::TempDir;

// A glTF of one parent chain of `count` nodes, node i the parent of node i + 1.
std::string Chain(size_t count, const std::string& first_name = "n") {
  std::string nodes;
  for (size_t i = 0; i < count; ++i) {
    if (i) nodes += ',';
    nodes += "{\"name\":\"" + (i ? "n" + std::to_string(i) : first_name) + "\"";
    if (i + 1 < count) nodes += ",\"children\":[" + std::to_string(i + 1) + "]";
    nodes += '}';
  }
  return "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[" + nodes + "]}";
}

TEST(LimitOptionsTest, AChainOneNodeDeeperThanTheDefaultNeedsMaxDepth) {
  TempDir dir;
  const size_t depth = StructureLimits{}.depth + 1;
  const std::string file = dir.File("deep.gltf");
  testing::WriteText(file, Chain(depth));
  const auto refused = RunAnimconv("info " + file);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(Has(refused.output, "error: " + file +
                                      ":/nodes/10000: the node is 10001 levels "
                                      "deep, more than the limit of 10000"))
      << refused.output;
  const auto read = RunAnimconv("info " + file + " --max-depth 10001");
  EXPECT_EQ(read.exit_code, 0) << read.output;
  EXPECT_TRUE(Has(read.output, "rig: 10001 nodes")) << read.output;
  // The same option through diff (both inputs) and batch.
  const auto diff = RunAnimconv("diff " + file + " " + file + " --max-depth 10001");
  EXPECT_FALSE(Has(diff.output, "levels deep")) << diff.output;
  const auto batch = RunAnimconv("batch " + file + " -o " + dir.File("out") +
                                 " --to glb --allow-partial --max-depth 10001");
  EXPECT_EQ(batch.exit_code, 0) << batch.output;
}

TEST(LimitOptionsTest, ANameOneByteLongerThanTheDefaultNeedsMaxNameBytes) {
  TempDir dir;
  const size_t bytes = StructureLimits{}.name_bytes + 1;
  const std::string file = dir.File("long.gltf");
  testing::WriteText(file, Chain(2, std::string(bytes, 'a')));
  const auto refused = RunAnimconv("info " + file);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_TRUE(Has(refused.output, "error: " + file + ":/nodes/0/name: a name of 65537 bytes"))
      << refused.output;
  const auto read = RunAnimconv("info " + file + " --max-name-bytes " + std::to_string(bytes));
  EXPECT_EQ(read.exit_code, 0) << read.output;
  // Lowered below what the file holds, the limit refuses it at the same place.
  const auto lowered =
      RunAnimconv("info " + file + " --max-nodes 1 --max-name-bytes " + std::to_string(bytes));
  EXPECT_EQ(lowered.exit_code, 2) << lowered.output;
  EXPECT_TRUE(Has(lowered.output, "2 nodes, more than the limit of 1")) << lowered.output;
}

TEST(LimitOptionsTest, EveryCommandThatReadsTakesTheLimits) {
  for (const char* command : {"convert", "batch", "info", "diff", "bake"}) {
    const auto help = RunAnimconv(std::string(command) + " --help");
    for (const char* option : {"--max-nodes", "--max-depth", "--max-channels", "--max-keys",
                               "--max-morph-targets", "--max-name-bytes"}) {
      EXPECT_TRUE(Has(help.output, option)) << command << " " << option;
    }
  }
}

TEST(LimitOptionsTest, ALimitIsAWholeNumberOfAtLeastOne) {
  const std::string input = testing::SourcePath("data/gltf/walk.glb");
  for (const char* value : {"0", "-1", "1.5", "x", "99999999999999999999"}) {
    const auto result = RunAnimconv("info " + input + " --max-nodes=" + value);
    EXPECT_EQ(result.exit_code, 1) << value << result.output;
    EXPECT_TRUE(Has(result.output, "--max-nodes must be a whole number of at least 1"))
        << value << result.output;
  }
}

}  // namespace
}  // namespace animconv
