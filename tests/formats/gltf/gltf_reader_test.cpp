#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;

Asset Read(const std::string& bytes) {
  ReadOptions options;
  options.source = "model.gltf";
  return ReadGltf(bytes, options);
}

// The location and message of a read that must fail.
std::pair<std::string, std::string> ReadError(const std::string& bytes) {
  try {
    Read(bytes);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return {error.location(), error.message()};
  }
  ADD_FAILURE() << "no error";
  return {};
}

// Two nodes, one animation: a rotation channel on node 1 with 3 linear keys.
GltfFixture RotationFixture() {
  GltfFixture gltf;
  gltf.AddNodes({"root", "arm"});
  gltf.document()["nodes"][0]["children"] = {1};
  const size_t input = gltf.AddFloats({0, 0.5f, 1}, "SCALAR", 3);
  const size_t output = gltf.AddFloats({0, 0, 0, 1, 0, 0.6f, 0, 0.8f, 0, 1, 0, 0}, "VEC4", 3);
  gltf.AddChannel(0, 1, "rotation", input, output);
  return gltf;
}

TEST(GltfReaderTest, ReadsNodesHierarchyAndAnimation) {
  const Asset asset = Read(RotationFixture().Text());
  ASSERT_EQ(asset.rig.nodes.size(), 2u);
  EXPECT_EQ(asset.rig.nodes[1].parent, 0);
  EXPECT_TRUE(asset.rig.rest_pose_known);
  EXPECT_EQ(asset.coordinates.handedness, Handedness::kRight);
  EXPECT_EQ(asset.coordinates.facing, Facing::kPlusZ);
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_EQ(asset.clips[0].name, "animation_0");  // unnamed: GLTFLoader's name
  const Channel& channel = asset.clips[0].channels[0];
  EXPECT_EQ(channel.node, 1);
  EXPECT_EQ(channel.path, Path::kRotation);
  EXPECT_EQ(channel.times_seconds, (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(channel.values[5], static_cast<double>(0.6f));
  EXPECT_NE(asset.source_document, nullptr);
}

TEST(GltfReaderTest, AnEmptySamplerIsALocatedWarningAndSkipped) {
  // accessor.count minimum 1 (glTF 2.0 §5.1): a real file's "empty TRS animation" beside good
  // channels is read, the empty channel skipped with a warning naming its accessor.
  GltfFixture gltf = RotationFixture();
  gltf.document()["accessors"].push_back(
      {{"componentType", 5126}, {"count", 0}, {"type", "SCALAR"}});
  gltf.document()["accessors"].push_back({{"componentType", 5126}, {"count", 0}, {"type", "VEC3"}});
  const size_t empty_input = gltf.document()["accessors"].size() - 2;
  gltf.AddChannel(0, 0, "translation", empty_input, empty_input + 1);
  Diagnostics diagnostics;
  ReadOptions options;
  options.source = "model.gltf";
  options.diagnostics = &diagnostics;
  const Asset asset = ReadGltf(gltf.Text(), options);
  ASSERT_EQ(asset.clips.size(), 1u);
  EXPECT_EQ(asset.clips[0].channels.size(), 1u);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[0].text,
            "model.gltf:/accessors/" + std::to_string(empty_input) +
                "/count: 0 keys for /animations/0/channels/1, where glTF 2.0 requires count >= 1; "
                "the channel is skipped");
}

TEST(GltfReaderTest, GlbAndTextGiveTheSameAsset) {
  const GltfFixture gltf = RotationFixture();
  const Asset text = Read(gltf.Text());
  const Asset binary = Read(gltf.Glb());
  EXPECT_EQ(text.clips[0].channels[0].values, binary.clips[0].channels[0].values);
  EXPECT_TRUE(SniffGlb(gltf.Glb()));
  EXPECT_TRUE(SniffGltf(gltf.Text()));
  EXPECT_FALSE(SniffGltf("{\"tracks\":[]}"));
}

TEST(GltfReaderTest, DecodesNormalizedIntegersPerTheSpecTable) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  const size_t input = gltf.AddFloats({0, 1}, "SCALAR", 2);
  // Signed shorts: 32767 -> 1, -32768 -> max(-32768/32767, -1) = -1.
  const size_t output = gltf.AddAccessor(
      {{"bufferView", gltf.AddView(std::vector<int16_t>{0, 0, 0, 32767, 0, -32768, 0, 0})},
       {"componentType", 5122},
       {"normalized", true},
       {"count", 2},
       {"type", "VEC4"}});
  gltf.AddChannel(0, 0, "rotation", input, output);
  const Asset asset = Read(gltf.Text());
  const Channel& channel = asset.clips[0].channels[0];
  EXPECT_EQ(channel.values[3], 1.0);
  EXPECT_EQ(channel.values[5], -1.0);
}

TEST(GltfReaderTest, UnsignedByteWeightsDivideBy255) {
  GltfFixture gltf;
  gltf.AddNodes({"face"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  const size_t positions = gltf.AddFloats({0, 0, 0}, "VEC3", 1);
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", positions}}},
          {"targets", {{{"POSITION", positions}}, {{"POSITION", positions}}}}}}},
       {"extras", {{"targetNames", {"smile", "blink"}}}}}};
  const size_t input = gltf.AddFloats({0, 1}, "SCALAR", 2);
  const size_t output =
      gltf.AddAccessor({{"bufferView", gltf.AddView(std::vector<uint8_t>{0, 255, 51, 102})},
                        {"componentType", 5121},
                        {"normalized", true},
                        {"count", 4},
                        {"type", "SCALAR"}});
  gltf.AddChannel(0, 0, "weights", input, output);
  const Asset asset = Read(gltf.Text());
  EXPECT_EQ(asset.rig.nodes[0].morph_target_count, 2);
  EXPECT_EQ(asset.rig.nodes[0].morph_target_names, (std::vector<std::string>{"smile", "blink"}));
  EXPECT_EQ(asset.clips[0].channels[0].width, 2);
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{0, 1, 0.2, 0.4}));
}

TEST(GltfReaderTest, HonoursByteStrideAndSparseAndMissingBufferView) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  const size_t input = gltf.AddFloats({0, 1, 2}, "SCALAR", 3);
  // VEC3 floats with 4 bytes of padding after each element (stride 16).
  const size_t strided = gltf.AddView(std::vector<float>{1, 2, 3, -1, 4, 5, 6, -1, 7, 8, 9, -1},
                                      json{{"byteStride", 16}});
  gltf.AddAccessor(
      {{"bufferView", strided}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}});
  gltf.AddChannel(0, 0, "translation", input, 1);
  // Scale: zeros everywhere but element 2, substituted by a sparse accessor.
  const size_t indices = gltf.AddView(std::vector<uint16_t>{2, 0});
  const size_t values = gltf.AddView(std::vector<float>{5, 5, 5});
  gltf.AddAccessor({{"componentType", 5126},
                    {"count", 3},
                    {"type", "VEC3"},
                    {"sparse",
                     {{"count", 1},
                      {"indices", {{"bufferView", indices}, {"componentType", 5123}}},
                      {"values", {{"bufferView", values}}}}}});
  gltf.AddChannel(0, 0, "scale", input, 2);
  const Asset asset = Read(gltf.Text());
  EXPECT_EQ(asset.clips[0].channels[0].values, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(asset.clips[0].channels[1].values, (std::vector<double>{0, 0, 0, 0, 0, 0, 5, 5, 5}));
}

// node.weights are the node's own default influences, over its mesh's: what GLTFLoader shows
// where no track animates a target (diff and the expression binds compare against them).
TEST(GltfReaderTest, NodeWeightsOverrideTheMeshsDefaultWeights) {
  GltfFixture gltf;
  gltf.AddNodes({"Root", "Face", "Face2", "Face3", "Face4"});
  json& document = gltf.document();
  document["meshes"] = {
      {{"primitives", {{{"attributes", json::object()}, {"targets", json(3, json::object())}}}},
       {"weights", {0.25, 0.5, 1}}}};
  for (int n = 1; n <= 4; ++n) document["nodes"][n]["mesh"] = 0;
  document["nodes"][1]["weights"] = {0.1, 0.2, 0.3};
  document["nodes"][2]["weights"] = {0.75};          // shorter: the first target only
  document["nodes"][3]["weights"] = {0.75, "high"};  // invalid: left out, as a mesh.weights is
  const Asset asset = ReadFixture(gltf);
  EXPECT_EQ(asset.rig.nodes[1].morph_default_weights, (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(asset.rig.nodes[2].morph_default_weights, (std::vector<double>{0.75, 0.5, 1}));
  EXPECT_EQ(asset.rig.nodes[3].morph_default_weights, (std::vector<double>{0.25, 0.5, 1}));
  EXPECT_EQ(asset.rig.nodes[4].morph_default_weights, (std::vector<double>{0.25, 0.5, 1}));
}

TEST(GltfReaderTest, DecomposesMatrixNodes) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  // Column-major: scale 2, rotation 90 degrees about Z, translation (1, 2, 3).
  gltf.document()["nodes"][0]["matrix"] = {0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
  const Node node = Read(gltf.Text()).rig.nodes[0];
  EXPECT_NEAR(node.rest_translation[2], 3, 1e-12);
  EXPECT_NEAR(node.rest_scale[0], 2, 1e-12);
  EXPECT_NEAR(std::fabs(node.rest_rotation[2]), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(std::fabs(node.rest_rotation[3]), std::sqrt(0.5), 1e-12);
}

// A matrix scaled 1e-6 (the dequantization --compress-meshes folds into a matrix node) has a
// determinant below double's epsilon, which glm::decompose refuses: such an output of ours read
// back as "the matrix cannot be decomposed into TRS". Its columns decompose it, a mirror too.
TEST(GltfReaderTest, DecomposesMatrixNodesScaledFarBelowOne) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  gltf.document()["nodes"][0]["matrix"] = {0, 2e-6, 0,    0, -2e-6, 0, 0, 0,
                                           0, 0,    2e-6, 0, 1,     2, 3, 1};
  Node node = Read(gltf.Text()).rig.nodes[0];
  EXPECT_NEAR(node.rest_translation[0], 1, 1e-12);
  EXPECT_NEAR(node.rest_translation[2], 3, 1e-12);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(node.rest_scale[c], 2e-6, 1e-18) << c;
  EXPECT_NEAR(std::fabs(node.rest_rotation[2]), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(std::fabs(node.rest_rotation[3]), std::sqrt(0.5), 1e-12);
  // Mirrored (x negated): the scale's first component carries the sign.
  gltf.document()["nodes"][0]["matrix"] = {-1e-6, 0, 0,    0, 0, 1e-6, 0, 0,
                                           0,     0, 1e-6, 0, 0, 0,    0, 1};
  node = Read(gltf.Text()).rig.nodes[0];
  EXPECT_NEAR(node.rest_scale[0], -1e-6, 1e-18);
  EXPECT_NEAR(node.rest_scale[1], 1e-6, 1e-18);
  EXPECT_NEAR(std::fabs(node.rest_rotation[3]), 1, 1e-12);
  // A zero column is no TRS.
  gltf.document()["nodes"][0]["matrix"] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  EXPECT_THROW(Read(gltf.Text()), Error);
}

TEST(GltfReaderTest, CubicSplineKeepsTangents) {
  GltfFixture gltf;
  gltf.AddNodes({"n"});
  const size_t input = gltf.AddFloats({0, 1}, "SCALAR", 2);
  const size_t output =
      gltf.AddFloats({0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5}, "VEC3", 6);
  gltf.AddChannel(0, 0, "translation", input, output, "CUBICSPLINE");
  const Asset asset = Read(gltf.Text());
  const Channel& channel = asset.clips[0].channels[0];
  EXPECT_EQ(channel.interpolation, Interpolation::kCubicSpline);
  EXPECT_EQ(channel.key_value(1)[0], 4);
}

TEST(GltfReaderTest, ErrorsPointAtTheOffendingJson) {
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["animations"][0]["channels"][0]["target"]["node"] = 7;
    EXPECT_EQ(ReadError(gltf.Text()).first, "/animations/0/channels/0/target/node");
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["accessors"][1]["count"] = 4;  // does not fit its bufferView
    const auto [location, message] = ReadError(gltf.Text());
    EXPECT_EQ(location, "/accessors/1");
    EXPECT_NE(message.find("do not fit bufferView"), std::string::npos) << message;
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["accessors"][1]["count"] = 1000000000000LL;  // a claim, not data
    EXPECT_EQ(ReadError(gltf.Text()).first, "/accessors/1/count");
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["animations"][0]["samplers"][0]["output"] = 0;  // SCALAR times as rotations
    EXPECT_NE(ReadError(gltf.Text()).second.find("a rotation output must be VEC4"),
              std::string::npos);
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["extensionsRequired"] = {"KHR_future_magic"};
    const auto [location, message] = ReadError(gltf.Text());
    EXPECT_EQ(location, "/extensionsRequired");
    EXPECT_NE(message.find("KHR_future_magic"), std::string::npos);
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.AddChannel(0, 1, "rotation", 0, 1);  // the same node and path twice
    EXPECT_NE(ReadError(gltf.Text()).second.find("already animated"), std::string::npos);
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["nodes"][1]["children"] = {0};  // a cycle: 0 -> 1 -> 0
    EXPECT_NE(ReadError(gltf.Text()).second.find("cycle"), std::string::npos);
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.AddNodes({"other"});
    gltf.document()["nodes"][2]["children"] = {1};  // node 1 would have two parents
    EXPECT_NE(ReadError(gltf.Text()).second.find("already has parent"), std::string::npos);
  }
  EXPECT_EQ(ReadError("{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": [}").first, "2:12");
  EXPECT_NE(ReadError("{\"asset\": {\"version\": \"1.0\"}}").second.find("not supported"),
            std::string::npos);
}

// A node's arrays longer than the reader can accept are held only as far as the reader looks
// (NodeArrayPolicy, gltf_buffers.cpp: no tree of 50,000 children or matrix numbers, issue 14), and
// refused with the message and place they always had.
TEST(GltfReaderTest, OverlongNodeArraysAreRefusedAsBefore) {
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["nodes"][0]["children"] = json::array();
    for (int i = 0; i < 5000; ++i) gltf.document()["nodes"][0]["children"].push_back(1);
    EXPECT_EQ(ReadError(gltf.Text()),
              std::make_pair(std::string("/nodes/0/children/1"),
                             std::string("node 1 already has parent 0; glTF nodes have at most "
                                         "one parent")));
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["nodes"][0]["matrix"] = std::vector<double>(5000, 0.0);
    EXPECT_EQ(ReadError(gltf.Text()),
              std::make_pair(std::string("/nodes/0/matrix"),
                             std::string("expected an array of 16 numbers")));
  }
  {
    GltfFixture gltf = RotationFixture();
    gltf.document()["nodes"][1]["translation"] = {0, 0, 0, 0, 0};
    EXPECT_EQ(ReadError(gltf.Text()).first, "/nodes/1/translation");
  }
}

TEST(GltfReaderTest, ValuesNlohmannCannotHoldAreBadInputNotCrashes) {
  // Found by fuzz_gltf: both ended as "internal error" (exit 4).
  EXPECT_EQ(
      ReadError("{\"asset\": {\"version\": \"2.0\"},\n \"x\": -1e999}"),
      std::make_pair(std::string("2:7"), std::string("the number -1e999 is out of double range")));
  GltfFixture gltf = RotationFixture();
  gltf.document()["accessors"][1]["normalized"] = "yes";
  EXPECT_EQ(ReadError(gltf.Text()).first, "/accessors/1/normalized");
}

TEST(GltfReaderTest, NonIncreasingOrNegativeTimesAreRejected) {
  for (const std::vector<float>& times :
       {std::vector<float>{0, 0.5f, 0.5f}, std::vector<float>{-1, 0, 1},
        std::vector<float>{0, NAN, 1}}) {
    GltfFixture gltf;
    gltf.AddNodes({"n"});
    const size_t input = gltf.AddFloats(times, "SCALAR", 3);
    const size_t output = gltf.AddFloats({0, 0, 0, 1, 1, 1, 2, 2, 2}, "VEC3", 3);
    gltf.AddChannel(0, 0, "translation", input, output);
    const auto [location, message] = ReadError(gltf.Text());
    EXPECT_EQ(location, "/accessors/0");
    EXPECT_NE(message.find("is not finite, >= 0 and greater"), std::string::npos) << message;
  }
}

TEST(GltfReaderTest, TruncatedGlbIsReported) {
  const std::string glb = RotationFixture().Glb();
  const auto [location, message] = ReadError(glb.substr(0, glb.size() - 10));
  EXPECT_EQ(location, "GLB header");
  EXPECT_NE(message.find("truncated"), std::string::npos);
}

TEST(GltfReaderTest, ExternalBuffersNeedAResourceLoader) {
  GltfFixture gltf = RotationFixture();
  json document = json::parse(gltf.Text());
  document["buffers"][0]["uri"] = "model.bin";
  EXPECT_NE(ReadError(document.dump())
                .second.find("cannot be read when the input comes from "
                             "memory"),
            std::string::npos);
  ReadOptions options;
  options.load_resource = [&](const std::string& uri) -> std::string {
    EXPECT_EQ(uri, "model.bin");
    return gltf.binary();
  };
  EXPECT_NO_THROW(ReadGltf(document.dump(), options));
}

// The loader (LoadResourceBeside) knows the file, not the place in it: the reader adds the uri's
// pointer, for buffers and images alike.
TEST(GltfReaderTest, RefusedExternalFilesAreLocatedAtTheirUri) {
  GltfFixture gltf = RotationFixture();
  json document = json::parse(gltf.Text());
  ReadOptions options;
  options.source = "model.gltf";
  options.load_resource = [&](const std::string& uri) -> std::string {
    if (uri == "model.bin") return gltf.binary();
    throw Error(ErrorKind::kBadInput, "model.gltf", "", "refusing to read '" + uri + "'");
  };
  const auto error_of = [&] {
    try {
      ReadGltf(document.dump(), options);
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_EQ(error.source(), "model.gltf");
      return std::make_pair(error.location(), error.message());
    }
    return std::make_pair(std::string("no error"), std::string());
  };
  document["buffers"][0]["uri"] = "../secret.bin";
  EXPECT_EQ(error_of(), std::make_pair(std::string("/buffers/0/uri"),
                                       std::string("refusing to read '../secret.bin'")));
  document["buffers"][0]["uri"] = "model.bin";
  document["images"] = {{{"uri", "/etc/passwd"}}};
  EXPECT_EQ(error_of(), std::make_pair(std::string("/images/0/uri"),
                                       std::string("refusing to read '/etc/passwd'")));
}

// A file lists the extensions it uses, each once: 1,024 names each are accepted, more are refused
// (held no further than that while parsing: 37,000 `""` cost 1.7 times the memory bound as a tree).
TEST(GltfReaderTest, ExtensionListsOfMoreThan1024NamesAreRefused) {
  for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
    SCOPED_TRACE(list);
    json document = json::parse(RotationFixture().Text());
    document[list] = json::array();
    for (int i = 0; i < 1024; ++i) document[list].push_back("KHR_materials_x" + std::to_string(i));
    EXPECT_NO_THROW(Read(document.dump()));
    document[list].push_back("KHR_materials_last");
    const auto [location, message] = ReadError(document.dump());
    EXPECT_EQ(location, std::string("/") + list);
    EXPECT_NE(message.find("more than 1024 extension names"), std::string::npos) << message;
  }
}

// The buffers are checked and decoded as they are parsed (GltfBufferList), the external ones
// loaded afterwards: the fault reported is still the first in buffer order, and a fault of the
// document's own checks still comes before any buffer's.
TEST(GltfReaderTest, BuffersAreRefusedInTheirOrder) {
  GltfFixture gltf = RotationFixture();
  json document = json::parse(gltf.Text());
  ReadOptions options;
  options.source = "model.gltf";
  std::vector<std::string> loaded;
  options.load_resource = [&](const std::string& uri) -> std::string {
    loaded.push_back(uri);
    if (uri == "model.bin") return gltf.binary();
    throw Error(ErrorKind::kBadInput, "model.gltf", "", "no file '" + uri + "'");
  };
  const auto error_of = [&] {
    loaded.clear();
    try {
      ReadGltf(document.dump(), options);
    } catch (const Error& error) {
      return std::make_pair(error.location(), error.message());
    }
    return std::make_pair(std::string("no error"), std::string());
  };
  const json bad_base64 = {{"uri", "data:;base64,@@"}};
  document["buffers"] = {{{"uri", "missing.bin"}}, json::object(), bad_base64};
  EXPECT_EQ(error_of(),
            std::make_pair(std::string("/buffers/0/uri"), std::string("no file 'missing.bin'")));
  document["buffers"] = {{{"uri", "model.bin"}}, bad_base64, json::object()};
  EXPECT_EQ(error_of(), std::make_pair(std::string("/buffers/1/uri"),
                                       std::string("expected a base64 data: URI")));
  EXPECT_EQ(loaded, std::vector<std::string>{"model.bin"});
  document["buffers"] = {{{"uri", "model.bin"}}, json::object(), {{"uri", "missing.bin"}}};
  EXPECT_EQ(error_of(), std::make_pair(std::string("/buffers/1"),
                                       std::string("has no uri and is not the GLB's BIN chunk")));
  // A buffer 0 without a uri is a GLB's BIN chunk, which a .gltf has not.
  document["buffers"] = {{{"byteLength", 4}}, {{"uri", "missing.bin"}}};
  EXPECT_EQ(error_of(), std::make_pair(std::string("/buffers/0"),
                                       std::string("has no uri and is not the GLB's BIN chunk")));
  EXPECT_TRUE(loaded.empty());
  // The asset's version is checked first.
  document["asset"]["version"] = "3.0";
  EXPECT_EQ(error_of().first, "/asset/version");
  document["asset"]["version"] = "2.0";
  // A meshopt fallback buffer may have no data; its views must then be compressed.
  document["buffers"] = {{{"uri", "model.bin"}},
                         {{"byteLength", 8}, {"extensions", {{"EXT_meshopt_compression", {}}}}}};
  EXPECT_EQ(error_of().first, "no error");
}

// meshoptimizer asserts what its decoders are given (Debian keeps the asserts): a filter or a
// TRIANGLES view the extension does not allow is refused with its pointer, not decoded (an
// OCTAHEDRAL filter of byteStride 12 aborted the process).
TEST(GltfReaderTest, MeshoptViewsOutsideTheExtensionsRulesAreRefused) {
  for (const auto& [mode, filter, stride, count] :
       {std::tuple<const char*, const char*, int, int>{"ATTRIBUTES", "OCTAHEDRAL", 12, 4},
        std::tuple<const char*, const char*, int, int>{"ATTRIBUTES", "QUATERNION", 4, 12},
        std::tuple<const char*, const char*, int, int>{"TRIANGLES", "NONE", 2, 24}}) {
    GltfFixture gltf;
    gltf.AddNodes({"root"});
    const size_t view = gltf.AddView(std::string(48, '\0'));
    gltf.document()["bufferViews"][view]["extensions"] = {{"EXT_meshopt_compression",
                                                           {{"buffer", 0},
                                                            {"byteOffset", 0},
                                                            {"byteLength", 48},
                                                            {"byteStride", stride},
                                                            {"count", count},
                                                            {"mode", mode},
                                                            {"filter", filter}}}};
    gltf.document()["extensionsUsed"] = {"EXT_meshopt_compression"};
    gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                    gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
    try {
      ReadGltf(gltf.Glb(), ReadOptions{});
      ADD_FAILURE() << mode << " " << filter << ": read";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput) << filter;
      EXPECT_NE(error.location().find("/bufferViews/"), std::string::npos) << error.location();
    }
  }
}

TEST(GltfReaderTest, AccessorsSharedByChannelsReachEveryChannelWhole) {
  // One time accessor for every channel and one output for two of them (exporters write a clip's
  // times once): each is decoded once and moved into its last channel only, so every channel
  // must still hold all of its keys, in text and GLB alike.
  GltfFixture gltf;
  gltf.AddNodes({"root", "arm", "hand"});
  const size_t times = gltf.AddFloats({0, 0.5f, 1}, "SCALAR", 3);
  const size_t turn = gltf.AddFloats({0, 0, 0, 1, 0, 0.6f, 0, 0.8f, 0, 1, 0, 0}, "VEC4", 3);
  const size_t moves = gltf.AddFloats({0, 0, 0, 1, 2, 3, 4, 5, 6}, "VEC3", 3);
  gltf.AddChannel(0, 1, "rotation", times, turn);
  gltf.AddChannel(0, 0, "translation", times, moves);
  gltf.AddChannel(0, 2, "rotation", times, turn);
  gltf.AddChannel(1, 1, "rotation", times, turn);  // a second clip on the same accessors
  for (const std::string& bytes : {gltf.Text(), gltf.Glb()}) {
    const Asset asset = Read(bytes);
    ASSERT_EQ(asset.clips.size(), 2u);
    ASSERT_EQ(asset.clips[0].channels.size(), 3u);
    ASSERT_EQ(asset.clips[1].channels.size(), 1u);
    const std::vector<double> turn_values = {
        0, 0, 0, 1, 0, static_cast<double>(0.6f), 0, static_cast<double>(0.8f), 0, 1, 0, 0};
    for (const Channel* channel : {&asset.clips[0].channels[0], &asset.clips[0].channels[1],
                                   &asset.clips[0].channels[2], &asset.clips[1].channels[0]}) {
      EXPECT_EQ(channel->times_seconds, (std::vector<double>{0, 0.5, 1}));
      EXPECT_EQ(channel->values, channel->path == Path::kRotation
                                     ? turn_values
                                     : (std::vector<double>{0, 0, 0, 1, 2, 3, 4, 5, 6}));
    }
  }
}

TEST(GltfReaderTest, ChannelsWithoutNodeAndEmptyAccessorsAreSkippedWithANote) {
  GltfFixture gltf = RotationFixture();
  gltf.document()["animations"][0]["channels"].push_back(
      {{"sampler", 0}, {"target", {{"path", "pointer"}}}});
  const Asset asset = Read(gltf.Text());
  EXPECT_EQ(asset.clips[0].channels.size(), 1u);
  ASSERT_FALSE(asset.notes.empty());
  EXPECT_NE(asset.notes.back().find("KHR_animation_pointer"), std::string::npos);
}

}  // namespace
}  // namespace animconv
