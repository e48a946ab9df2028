// Assimp recurses once per node level, in its FBX converter and in the scene's destructor: a chain
// of 8,000 nested FBX models overflowed the main thread's stack (SIGSEGV) under our 10,000-level
// depth limit. The reader runs Assimp on a stack sized to the limit (formats/assimp/
// assimp_stack.h), so a chain at the limit reads and one past it is our own located error.
#include <gtest/gtest.h>

#include <string>

#include "animconv/error.h"
#include "animconv/format.h"
#include "formats/assimp/assimp.h"
#include "formats/assimp/assimp_stack.h"
#include "formats/assimp/fbx_claims.h"

namespace animconv {
namespace {

// An ASCII FBX 7.5 of `depth` Null models, each the child of the one before (bench/gen_deep.py
// fbx makes the same file).
std::string FbxChain(size_t depth) {
  std::string out =
      "; FBX 7.5.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
      "\tFBXVersion: 7500\n}\nGlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
      "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n"
      "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n\t}\n}\n"
      "Definitions:  {\n\tVersion: 100\n\tCount: " +
      std::to_string(depth) + "\n\tObjectType: \"Model\" {\n\t\tCount: " + std::to_string(depth) +
      "\n\t}\n}\nObjects:  {\n";
  for (size_t i = 0; i < depth; ++i) {
    out += "\tModel: " + std::to_string(1000 + i) + ", \"Model::n" + std::to_string(i) +
           "\", \"Null\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n"
           "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,1,0\n\t\t}\n\t}\n";
  }
  out += "}\nConnections:  {\n";
  for (size_t i = 0; i < depth; ++i) {
    out += "\tC: \"OO\"," + std::to_string(1000 + i) + "," +
           (i == 0 ? std::string("0") : std::to_string(999 + i)) + "\n";
  }
  return out + "}\n";
}

TEST(AssimpDepthTest, AnFbxChainAtTheDepthLimitReadsAndOnePastItIsRefused) {
  ReadOptions options;
  options.source = "deep.fbx";
  // The default limit: 10,000 models read (the root node Assimp adds makes 10,001 levels for its
  // walk, which counts the models only), where 8,000 crashed on an 8 MiB stack.
  const Asset asset = ReadAssimp(FbxChain(10000), options);
  EXPECT_GE(asset.rig.nodes.size(), 10000u);
  try {
    ReadAssimp(FbxChain(10001), options);
    FAIL() << "expected an error past the depth limit";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(error.message().find("10001 levels deep, more than the limit of 10000"),
              std::string::npos)
        << error.message();
  }
}

TEST(AssimpDepthTest, TheStackFitsTheLimitAndExceptionsCrossTheThread) {
  EXPECT_EQ(AssimpStackBytes(0), size_t{8} << 20);
  EXPECT_EQ(AssimpStackBytes(10000), (size_t{8} << 20) + 10000 * 4096);
  EXPECT_EQ(AssimpStackBytes(static_cast<size_t>(-1)), size_t{4} << 30);
  EXPECT_THROW(RunOnStack(1 << 20, [] { throw Error(ErrorKind::kBadInput, "x", "", "thrown"); }),
               Error);
  int ran = 0;
  RunOnStack(1 << 20, [&] { ++ran; });
  EXPECT_EQ(ran, 1);
}

// A binary FBX 7.4 header and one record "KeyTime" holding one int64 array property.
std::string FbxWithArray(uint32_t elements, uint32_t encoding, uint32_t stored) {
  std::string out("Kaydara FBX Binary  \0\x1a\0", 23);
  const auto u32 = [&out](uint32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); };
  u32(7400);
  const std::string name = "KeyTime";
  const uint32_t properties = 1 + 12 + stored;
  const auto end = static_cast<uint32_t>(out.size() + 13 + name.size() + properties);
  u32(end);
  u32(1);
  u32(properties);
  out += static_cast<char>(name.size());
  out += name;
  out += 'l';
  u32(elements);
  u32(encoding);
  u32(stored);
  out.append(stored, '\0');
  return out + std::string(13, '\0');
}

TEST(FbxClaimsTest, AnArrayClaimPastWhatItsBytesCanHoldIsRefusedBeforeAssimp) {
  // fuzz_assimp: 268,435,516 int64 from 368 bytes of zlib made Assimp 5.2 malloc 2 GiB.
  EXPECT_NO_THROW(CheckFbxArrayClaims(FbxWithArray(4, 0, 32), "a.fbx"));     // raw, exact
  EXPECT_NO_THROW(CheckFbxArrayClaims(FbxWithArray(4000, 1, 32), "a.fbx"));  // within 1032:1
  try {
    CheckFbxArrayClaims(FbxWithArray(268435516, 1, 368), "a.fbx");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.location(), "byte 47");  // the type byte after 27 + 13 + 7 of headers
    EXPECT_NE(error.message().find("FBX array 'KeyTime' claims 268435516 elements (2147484128 "
                                   "bytes) from 368 stored bytes of zlib"),
              std::string::npos)
        << error.message();
  }
  EXPECT_THROW(CheckFbxArrayClaims(FbxWithArray(5, 0, 32), "a.fbx"), Error);  // raw, too few
  // Not binary FBX, or a structure that breaks off: left to Assimp.
  EXPECT_NO_THROW(CheckFbxArrayClaims("; FBX 7.5.0 project file", "a.fbx"));
  EXPECT_NO_THROW(CheckFbxArrayClaims(FbxWithArray(268435516, 1, 368).substr(0, 45), "a.fbx"));
}

}  // namespace
}  // namespace animconv
