// The whole-process memory bound of issue 14 (docs/reliability.md "Time and memory bounds"): the
// real `animconv convert`, as a child process, on a large input of each format it writes, to each
// format it writes, must peak at no more than 3 × (input + output bytes) + the binary's own
// baseline, by the kernel's count of its resident memory (wait4's ru_maxrss) rather than the
// fuzz harnesses' count of heap bytes. Prints the table docs/reliability.md shows.
//
// posix_spawn shares this process's memory until the exec, and the kernel carries the larger
// high-water mark over an exec: this test process stays small (it holds no input, only names).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_process.h"
#include "test_support.h"

namespace animconv {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::SourcePath;
using testing::TempDir;

// What `animconv convert` holds whatever its input: its code and that of the shared libraries
// it maps and touches (libstdc++, Boost, fmt, spdlog, Assimp), the format registry, the first
// stream buffers. Measured 10.0 MiB converting the 2.8 KB anim.csv (BaselineOfATinyInput,
// Release, GCC 12, Debian 12), plus 2 MiB: the size of the whole animconv binary, for the reader
// and writer code a tiny CSV does not touch.
constexpr double kBaselineMiB = 12;
constexpr double kBoundFactor = 3;  // × (input + output bytes)
// Every reader is held to it: the three.js clip and hierarchy JSON readers (once 4 and 8 here)
// stream their key arrays (formats/common/json_stream.h), and the glTF reader (once 4.5) decodes
// each accessor once, into its channel, with the GLB chunk read in place (docs/reliability.md,
// "The whole process").

struct Measured {
  int exit_code = -1;
  std::string errors;
  double peak_mib = 0;  // ru_maxrss
};

Measured Convert(const TempDir& dir, const std::vector<std::string>& arguments) {
  static int counter = 0;
  const std::string log = dir.File("stderr." + std::to_string(counter++));
  struct rusage usage {};
  Measured measured;
  measured.exit_code = testing::ExitCode(testing::Start(arguments, log), &usage);
  measured.errors = testing::ReadText(log);
  measured.peak_mib = static_cast<double>(usage.ru_maxrss) / 1024;
  return measured;
}

double MiB(const std::string& path) { return static_cast<double>(fs::file_size(path)) / (1 << 20); }

TEST(ProcessBaselineTest, BaselineOfATinyInput) {
  TempDir dir;
  const Measured run =
      Convert(dir, {"convert", SourcePath("data/unity/anim.csv"), "-o", dir.File("out.json")});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  std::fprintf(stderr, "baseline: peak RSS %.1f MiB converting a 2.8 KB CSV\n", run.peak_mib);
  EXPECT_LE(run.peak_mib, kBaselineMiB);
  EXPECT_GT(run.peak_mib, 1.0);  // ru_maxrss read at all
}

struct Format {
  const char* id;
  const char* extension;
  std::vector<std::string> read_options;   // to read it back as written
  std::vector<std::string> write_options;  // for any input of the test
};

// Every format animconv writes (FBX and the other Assimp formats are read only: no large input
// can be made here). A Unity CSV stores neither its rate (read it back with the one it was
// written at) nor times (rows on a grid: the glTF float times are not exactly on one); a VRMA
// needs the facing, which the animconv CSV and hierarchy JSON do not record.
const std::vector<Format>& Formats() {
  static const std::vector<Format> formats = {
      {"unity-csv", ".unity.csv", {"--fps", "400"}, {"--fps", "400"}},
      {"csv", ".csv", {}, {}},
      {"three", ".json", {}, {}},
      {"three-hierarchy", ".hierarchy.json", {}, {}},
      {"gltf", ".gltf", {}, {}},
      {"glb", ".glb", {}, {}},
      {"vrma", ".vrma", {}, {"--source-facing", "-z"}},
      {"bvh", ".bvh", {}, {}},
  };
  return formats;
}

// Converts an input of `from` to every format, each within `factor` × (input + output bytes)
// + the baseline. The input: the 12 s walk resampled to 400 fps as a Unity CSV (6.9 MiB), then
// converted to `from` (the unity-csv input measures those conversions themselves). Prints the
// rows of docs/reliability.md's table.
void ExpectEveryOutputWithin(const Format& from, double factor) {
  TempDir dir;
  const std::string source = dir.File("source.unity.csv");
  {
    const Measured run = Convert(dir, {"convert", SourcePath("data/unity/walk.csv"), "--resample",
                                       "400", "-o", source, "--to", "unity-csv"});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
  }
  const std::string input = dir.File(std::string("input") + from.extension);
  if (std::string(from.id) != "unity-csv") {
    const Measured run = Convert(dir, {"convert", source, "--fps", "400", "-o", input});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
  } else {
    fs::rename(source, input);
  }
  std::string table;
  for (const Format& to : Formats()) {
    SCOPED_TRACE(std::string(from.id) + " -> " + to.id);
    const std::string output = dir.File(std::string("output") + to.extension);
    std::vector<std::string> arguments = {"convert", input};
    arguments.insert(arguments.end(), from.read_options.begin(), from.read_options.end());
    if (to.write_options != from.read_options) {  // unity-csv to unity-csv: one --fps for both
      arguments.insert(arguments.end(), to.write_options.begin(), to.write_options.end());
    }
    arguments.insert(arguments.end(), {"-o", output});
    const Measured run = Convert(dir, arguments);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const double bytes_mib = MiB(input) + MiB(output);
    char row[256];
    std::snprintf(row, sizeof row, "| %s | %s | %.1f | %.1f | %.1f | %.2f |\n", from.id, to.id,
                  MiB(input), MiB(output), run.peak_mib, (run.peak_mib - kBaselineMiB) / bytes_mib);
    table += row;
    EXPECT_LE(run.peak_mib, factor * bytes_mib + kBaselineMiB) << row;
    fs::remove(output);
  }
  std::fprintf(stderr, "| input | output | input MiB | output MiB | peak RSS MiB | ratio |\n%s",
               table.c_str());
}

// One input format (the test's parameter) to every format.
class ProcessMemoryTest : public ::testing::TestWithParam<Format> {};

TEST_P(ProcessMemoryTest, EveryOutputWithinTheBound) {
  ExpectEveryOutputWithin(GetParam(), kBoundFactor);
}

// For test names and failure messages: the format's id.
void PrintTo(const Format& format, std::ostream* out) { *out << format.id; }

// gtest names: letters, digits and '_'.
std::string TestName(const ::testing::TestParamInfo<Format>& format) {
  std::string name = format.param.id;
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

INSTANTIATE_TEST_SUITE_P(Formats, ProcessMemoryTest, ::testing::ValuesIn(Formats()), TestName);

// Structure-heavy inputs, where a file's bulk is JSON objects or nodes rather than keyframes
// (issue 14, docs/reliability.md "The whole process"). Per rig node the model costs about a
// kilobyte whatever the text (the fuzz harnesses' allowance, fuzz/resource_bounds.cpp).
constexpr double kMiBPerNode = 1.0 / 1024;

// A .gltf of `clips` one-channel clips, each with its own time and translation accessors and
// bufferViews (in an external .bin), on 4 nodes: 40,000 accessors and bufferViews for 20,000 clips.
void WriteManyClipsGltf(const std::string& path, int clips) {
  std::string binary, views, accessors, animations;
  for (int c = 0; c < clips; ++c) {
    const float times[2] = {0, 1 + static_cast<float>(c) * 1e-4f};
    const float values[6] = {0, 0, 0, static_cast<float>(c % 7), 1, 0};
    const std::string sep = c ? "," : "";
    views +=
        sep + "{\"buffer\":0,\"byteOffset\":" + std::to_string(binary.size()) +
        ",\"byteLength\":8},{\"buffer\":0,\"byteOffset\":" + std::to_string(binary.size() + 8) +
        ",\"byteLength\":24}";
    binary.append(reinterpret_cast<const char*>(times), sizeof times);
    binary.append(reinterpret_cast<const char*>(values), sizeof values);
    char text[256];
    std::snprintf(text, sizeof text,
                  "{\"bufferView\":%d,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
                  "\"min\":[0],\"max\":[%.9g]},{\"bufferView\":%d,\"componentType\":5126,"
                  "\"count\":2,\"type\":\"VEC3\"}",
                  2 * c, times[1], 2 * c + 1);
    accessors += sep + text;
    std::snprintf(text, sizeof text,
                  "{\"name\":\"clip%d\",\"samplers\":[{\"input\":%d,\"output\":%d}],"
                  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":%d,\"path\":"
                  "\"translation\"}}]}",
                  c, 2 * c, 2 * c + 1, c % 4);
    animations += sep + text;
  }
  const std::string bin_path = path + ".bin";
  std::ofstream(bin_path, std::ios::binary) << binary;
  std::ofstream(path, std::ios::binary)
      << "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1,2,3]}],"
      << "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"},{\"name\":\"d\"}],"
      << "\"buffers\":[{\"byteLength\":" << binary.size() << ",\"uri\":\""
      << fs::path(bin_path).filename().string() << "\"}],\"bufferViews\":[" << views
      << "],\"accessors\":[" << accessors << "],\"animations\":[" << animations << "]}";
}

// A BVH whose root has `joints` sibling joints, each with an End Site (2 x joints + 1 nodes),
// and two frames.
void WriteWideBvh(const std::string& path, int joints) {
  std::ofstream out(path, std::ios::binary);
  out << "HIERARCHY\nROOT root\n{\n\tOFFSET 0 0 0\n"
      << "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  for (int j = 0; j < joints; ++j) {
    out << "\tJOINT j" << j << "\n\t{\n\t\tOFFSET 1 2 3\n\t\tCHANNELS 3 Zrotation Xrotation "
        << "Yrotation\n\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 1 0\n\t\t}\n\t}\n";
  }
  out << "}\nMOTION\nFrames: 2\nFrame Time: 0.033333\n";
  for (int frame = 0; frame < 2; ++frame) {
    for (int channel = 0; channel < 6 + 3 * joints; ++channel) out << (channel ? " " : "") << frame;
    out << "\n";
  }
}

// `input` to each of `outputs`, each within 3 x (input + output bytes) + the baseline + the
// per-node allowance for `nodes` rig nodes.
void ExpectStructureHeavyWithin(const TempDir& dir, const std::string& input, size_t nodes,
                                const std::vector<std::string>& outputs) {
  for (const std::string& extension : outputs) {
    SCOPED_TRACE(input + " -> " + extension);
    const std::string output = dir.File("output" + extension);
    const Measured run = Convert(dir, {"convert", input, "-o", output});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const double bytes_mib = MiB(input) + MiB(output);
    const double bound =
        kBoundFactor * bytes_mib + kBaselineMiB + static_cast<double>(nodes) * kMiBPerNode;
    std::fprintf(stderr, "| %s | %s | %.1f | %.1f | %.1f | %.1f |\n",
                 fs::path(input).filename().c_str(), extension.c_str(), MiB(input), MiB(output),
                 run.peak_mib, bound);
    EXPECT_LE(run.peak_mib, bound);
    fs::remove(output);
  }
}

// 196 MB before the glTF reader packed its accessors, bufferViews and animations and the writers
// wrote theirs as text (formats/gltf/gltf_output.h), against a bound of 65.
TEST(ProcessStructureTest, AGltfOfManySmallClips) {
  TempDir dir;
  const std::string input = dir.File("clips.gltf");
  WriteManyClipsGltf(input, 20000);
  ExpectStructureHeavyWithin(dir, input, 4, {".glb", ".gltf"});
}

// 183 MB to .glb before (the writer's node, channel and sampler trees, and the coverage check's
// copy of the rig), against a bound of 114.
TEST(ProcessStructureTest, ABvhOfManySiblingJoints) {
  TempDir dir;
  const std::string input = dir.File("wide.bvh");
  WriteWideBvh(input, 30000);
  ExpectStructureHeavyWithin(dir, input, 60001, {".glb", ".json"});
}

// `count` zeros: `0,0,…`.
std::string Zeros(int count) {
  std::string text;
  text.reserve(2 * static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) text += i ? ",0" : "0";
  return text;
}

// `count` glTF defaults: `{},{},…`.
std::string EmptyObjects(int count) {
  std::string text;
  text.reserve(3 * static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) text += i ? ",{}" : "{}";
  return text;
}

// A one-node, one-clip .gltf (buffer in a data: URI), its node's members `node`, the document's
// further members `members` (each text ending in a comma) and buffers after the clip's
// `more_buffers` (each text starting with a comma).
void WriteOneClipGltf(const std::string& path, const std::string& node, const std::string& members,
                      const std::string& more_buffers = "") {
  std::ofstream(path, std::ios::binary)
      << "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{" << node << "\"name\":\"a\"}]," << members
      << "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":"
         "\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,"
         "\"count\":2,\"type\":\"VEC3\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},"
         "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],\"buffers\":[{\"byteLength\":32,"
         "\"uri\":\"data:application/octet-stream;base64,"
         "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAA=\"}"
      << more_buffers
      << "],\"animations\":[{\"channels\":[{"
         "\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{"
         "\"input\":0,\"output\":1}]}]}";
}

// The same with `materials` default materials, which no reader reads and the writers pass through.
void WriteManyMaterialsGltf(const std::string& path, int materials) {
  WriteOneClipGltf(path, "", "\"materials\":[" + EmptyObjects(materials) + "],");
}

// 165 MiB to .glb before the reader packed the top-level arrays it does not read
// (GltfLists::unread) and the writers wrote them from there, against a bound of 29.
TEST(ProcessStructureTest, AGltfOfManyMaterials) {
  TempDir dir;
  const std::string input = dir.File("materials.gltf");
  WriteManyMaterialsGltf(input, 1000000);
  ExpectStructureHeavyWithin(dir, input, 1, {".glb", ".gltf"});
}

// 117 MiB to .glb and .gltf before the members no reader reads were packed values, written
// straight from the parser's events (formats/common/canonical_json.h): a node's `extras` of a
// million `{}` and an unknown extension of a million zeros, each a tree while the node was parsed
// and again once the nodes were read. 31.5 MiB after, same bytes out, against a bound of 41.
TEST(ProcessStructureTest, AGltfWhoseBulkIsMembersNoReaderReads) {
  TempDir dir;
  const std::string input = dir.File("extras.gltf");
  WriteOneClipGltf(input,
                   "\"extras\":[" + EmptyObjects(1000000) + "],\"extensions\":{\"VENDOR_x\":[" +
                       Zeros(1000000) + "]},",
                   "\"extensionsUsed\":[\"VENDOR_x\"],");
  ExpectStructureHeavyWithin(dir, input, 1, {".glb", ".gltf"});
}

// 31.4 MiB to .gltf before a mesh's `weights` were packed in the reader's tree and parsed only as
// far as the mesh has morph targets (MeshWeights), against a bound of 24: a million zeros as the
// weights of a mesh without targets, which the reader ignores and the writers copy.
TEST(ProcessStructureTest, AGltfWhoseMeshWeightsAreLong) {
  TempDir dir;
  const std::string input = dir.File("weights.gltf");
  WriteOneClipGltf(
      input, "\"mesh\":0,",
      "\"meshes\":[{\"primitives\":[{\"attributes\":{}}],\"weights\":[" + Zeros(1000000) + "]}],");
  ExpectStructureHeavyWithin(dir, input, 1, {".glb", ".gltf"});
}

// A million `{}` meshes, and one mesh of half a million primitives (`{}`, which no node shows: the
// pass-through writes them back): each list was a tree before the reader kept the meshes packed
// and read one mesh, and one primitive, at a time (GltfObjectList, GltfMeshPrimitives).
TEST(ProcessStructureTest, AGltfOfManyMeshesAndPrimitives) {
  TempDir dir;
  const std::string meshes = dir.File("meshes.gltf");
  WriteOneClipGltf(meshes, "", "\"meshes\":[" + EmptyObjects(1000000) + "],");
  ExpectStructureHeavyWithin(dir, meshes, 1, {".glb"});
  const std::string primitives = dir.File("primitives.gltf");
  WriteOneClipGltf(primitives, "", "\"meshes\":[{\"primitives\":[" + EmptyObjects(500000) + "]}],");
  ExpectStructureHeavyWithin(dir, primitives, 1, {".glb"});
}

// 159 MiB to .glb before the reader checked and decoded each buffer as it was parsed
// (GltfBufferList): a tree of half a million empty data: URI buffers, which the glTF schema
// allows, and again their views. 30 MiB after, against a bound of 48.
TEST(ProcessStructureTest, AGltfOfManyEmptyBuffers) {
  TempDir dir;
  const std::string input = dir.File("buffers.gltf");
  std::string buffers;
  for (int i = 0; i < 500000; ++i) buffers += ",{\"uri\":\"data:;base64,\"}";
  WriteOneClipGltf(input, "", "", buffers);
  ExpectStructureHeavyWithin(dir, input, 1, {".glb", ".gltf"});
}

// 442 MiB to .glb before a repeated member's streamed array was freed with the value that
// replaces it (json_stream.cpp, ReleaseSinks) and a packed list's text grew as it filled instead of
// reserving 64 KiB at its first element (PackedJsonArray): 100,000 `"materials":[{}]`, of which
// the last is the document's (JSON leaves a repeated name's meaning open, RFC 8259 §4; nlohmann's
// parser, like JavaScript's JSON.parse, keeps the last).
TEST(ProcessStructureTest, AGltfWhoseListIsRepeated) {
  TempDir dir;
  const std::string input = dir.File("repeated.gltf");
  std::string members;
  for (int i = 0; i < 100000; ++i) members += "\"materials\":[{}],";
  WriteOneClipGltf(input, "", members);
  ExpectStructureHeavyWithin(dir, input, 1, {".glb", ".gltf"});
}

// Converts `input`, which must be refused with an error naming `where` and leaving no output,
// within the bound of its size alone.
void ExpectRefusedWithin(const TempDir& dir, const std::string& input, const std::string& where) {
  const Measured run = Convert(dir, {"convert", input, "-o", dir.File("output.glb")});
  EXPECT_EQ(run.exit_code, 2) << run.errors;
  EXPECT_NE(run.errors.find(where), std::string::npos) << run.errors;
  EXPECT_FALSE(fs::exists(dir.File("output.glb")));
  const double bound = kBoundFactor * MiB(input) + kBaselineMiB;
  std::fprintf(stderr, "| %s (refused) | - | %.1f | - | %.1f | %.1f |\n",
               fs::path(input).filename().c_str(), MiB(input), run.peak_mib, bound);
  EXPECT_LE(run.peak_mib, bound);
}

// 125 MiB before, against a bound of 18: a million `{}` as buffers, refused at the first
// (a .gltf has no BIN chunk), held as a tree first.
TEST(ProcessStructureTest, AGltfOfBuffersRefusedAtTheFirst) {
  TempDir dir;
  const std::string input = dir.File("buffers.gltf");
  std::ofstream(input, std::ios::binary)
      << "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[" << EmptyObjects(1000000) << "]}";
  ExpectRefusedWithin(dir, input, "/buffers/0: has no uri");
}

// 120 MiB before the reader kept `nodes` packed until the document's own checks had passed
// (GltfLists::deferred), against a bound of 21: a file refused for its asset version holds no tree
// of its million nodes.
TEST(ProcessStructureTest, AGltfOfManyNodesRefusedBeforeTheyAreRead) {
  TempDir dir;
  const std::string input = dir.File("nodes.gltf");
  std::ofstream(input, std::ios::binary)
      << "{\"asset\":{\"version\":\"3.0\"},\"nodes\":[" << EmptyObjects(1000000) << "]}";
  ExpectRefusedWithin(dir, input, "/asset/version");
}

// 17.5 MiB against a bound of 16.3, 14.0 after: a mesh of 500,000 `{}` primitives after one with
// a morph target, refused at the second (1.4 MiB). The mesh's primitives were written again by
// the packer as its tree was read, copied into their packed value, held by nlohmann's lexer (every
// character since the last string or number), and copied again to be read one at a time; now
// they are cut out of the mesh's text and read where they stand (PackedArrayView). The p5 bake of
// such a file peaked at 53 MiB while it read the mesh as one tree.
TEST(ProcessStructureTest, AGltfMeshOfManyPrimitivesRefusedAtTheSecond) {
  TempDir dir;
  const std::string input = dir.File("primitives.gltf");
  WriteOneClipGltf(input, "\"mesh\":0,",
                   "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1},"
                   "\"targets\":[{\"POSITION\":1}]}," +
                       EmptyObjects(500000) + "]}],");
  ExpectRefusedWithin(dir, input, "/meshes/0/primitives/1/targets");
}

}  // namespace
}  // namespace animconv
