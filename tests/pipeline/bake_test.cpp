#include "animconv/bake.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "animconv/convert.h"
#include "animconv/error.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_test_support.h"
#include "test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;

// A triangle on node "shape" with two position targets and a normal target, and one LINEAR
// weights animation "wave" with keys at `times`.
GltfFixture MorphFixture(const std::vector<float>& times, const std::vector<float>& weights,
                         const char* interpolation = "LINEAR") {
  GltfFixture gltf;
  gltf.AddNodes({"shape"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  const size_t position = gltf.AddFloats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  const size_t normal = gltf.AddFloats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3", 3);
  const size_t lift = gltf.AddFloats({0, 0, 0, 0, 0, 0, 0, 0, 2}, "VEC3", 3);
  const size_t tilt = gltf.AddFloats({1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3", 3);
  const size_t slide = gltf.AddFloats({1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3", 3);
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes", {{"POSITION", position}, {"NORMAL", normal}}},
          {"targets", {{{"POSITION", lift}, {"NORMAL", tilt}}, {{"POSITION", slide}}}}}}}}};
  const size_t input = gltf.AddFloats(times, "SCALAR", times.size());
  const size_t output = gltf.AddFloats(weights, "SCALAR", weights.size());
  gltf.AddChannel(0, 0, "weights", input, output, interpolation);
  gltf.document()["animations"][0]["name"] = "wave";
  return gltf;
}

Asset Read(const std::string& text) {
  ReadOptions options;
  options.source = "shape.gltf";
  return ReadGltf(text, options);
}

json Bake(const Asset& asset, const P5BakeOptions& options = {}) {
  P5BakeReport report;
  const std::string text = BakeP5Frames(asset, options, "shape.gltf", &report);
  json baked = json::parse(text);
  EXPECT_EQ(report.frames, baked["frames"].size());
  EXPECT_EQ(report.clip, baked["name"]);
  EXPECT_EQ(report.node, baked["node"]);
  return baked;
}

std::string UsageError(const Asset& asset, const P5BakeOptions& options = {}) {
  try {
    P5BakeReport report;
    BakeP5Frames(asset, options, "shape.gltf", &report);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    return error.message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

std::vector<double> Numbers(const json& array) { return array.get<std::vector<double>>(); }
// The file holds float32 shortest text: compare as float32, which is what a reader gets back.
std::vector<float> Floats(const json& array) { return array.get<std::vector<float>>(); }

TEST(P5FramesTest, OneFramePerKeyWithBaseMeshAndFrameRate) {
  const json baked = Bake(Read(MorphFixture({0, 0.5f, 1}, {0, 0, 1, 0, 0.5f, -1}).Text()));
  EXPECT_EQ(baked["name"], "wave");
  EXPECT_EQ(baked["node"], "shape");
  EXPECT_EQ(baked["fps"], 2.0);
  EXPECT_EQ(Numbers(baked["times"]), (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(Numbers(baked["v"]), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(Numbers(baked["n"]), (std::vector<double>{0, 0, 1, 0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(baked["f"].get<std::vector<int>>(), (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(baked.contains("c"));
  ASSERT_EQ(baked["frames"].size(), 3u);
  EXPECT_EQ(Numbers(baked["frames"][0]["v"]), Numbers(baked["v"]));
  // Key 1: lift 1 moves vertex 2 up by 2; its normals tilt by (1, 0, 0) and are renormalised.
  EXPECT_EQ(Numbers(baked["frames"][1]["v"]), (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 2}));
  const float half = static_cast<float>(std::sqrt(0.5));
  EXPECT_EQ(Floats(baked["frames"][1]["n"])[6], half);
  EXPECT_EQ(Floats(baked["frames"][1]["n"])[8], half);
  // Key 2: lift 0.5, slide -1 (negative weights extrapolate, they are not clamped).
  EXPECT_EQ(Numbers(baked["frames"][2]["v"]), (std::vector<double>{-1, 0, 0, 0, 0, 0, -1, 1, 1}));
}

TEST(P5FramesTest, UnevenKeysGiveTimesWithoutFps) {
  const json baked = Bake(Read(MorphFixture({0, 0.1f, 1}, {0, 0, 1, 0, 0, 1}).Text()));
  EXPECT_FALSE(baked.contains("fps"));
  EXPECT_EQ(baked["times"].size(), 3u);
  EXPECT_EQ(baked["times"][1].get<float>(), 0.1f);
}

TEST(P5FramesTest, FpsSamplesAUniformGridEndingAtTheDuration) {
  const Asset asset = Read(MorphFixture({0, 1}, {0, 0, 1, 0}).Text());
  P5BakeOptions options;
  options.fps = 4;
  json baked = Bake(asset, options);
  EXPECT_EQ(baked["fps"], 4.0);
  EXPECT_EQ(Numbers(baked["times"]), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  // Linear weights at 0.25 s: lift 0.25 moves vertex 2 up by 0.5.
  EXPECT_EQ(Numbers(baked["frames"][1]["v"])[8], 0.5);
  // Off the grid: 0, 0.4, 0.8, then the end of the clip.
  options.fps = 2.5;
  baked = Bake(asset, options);
  EXPECT_EQ(Floats(baked["times"]), (std::vector<float>{0, 0.4f, 0.8f, 1}));
  EXPECT_EQ(Numbers(baked["frames"][3]["v"])[8], 2.0);
  options.fps = 3;  // 1 s * 3 lands on the grid: no extra frame
  EXPECT_EQ(Bake(asset, options)["times"].size(), 4u);
}

TEST(P5FramesTest, CubicSplineWeightsAreExactAtKeys) {
  // Per key: in-tangents (2), values (2), out-tangents (2).
  const Asset asset = Read(
      MorphFixture({0, 1}, {0, 0, 0.25f, 0, 9, 9, 9, 9, 0.75f, 0, 0, 0}, "CUBICSPLINE").Text());
  const json baked = Bake(asset);
  EXPECT_EQ(Numbers(baked["frames"][0]["v"])[8], 0.5);
  EXPECT_EQ(Numbers(baked["frames"][1]["v"])[8], 1.5);
}

TEST(P5FramesTest, ColorsAreWrittenWhenTheMeshHasThem) {
  GltfFixture gltf = MorphFixture({0, 1}, {0, 0, 1, 0});
  std::vector<uint16_t> colors = {65535, 0, 0, 65535, 0, 65535, 0, 65535, 0, 0, 65535, 32768};
  const size_t accessor = gltf.AddAccessor({{"bufferView", gltf.AddView(colors)},
                                            {"componentType", 5123},
                                            {"normalized", true},
                                            {"count", 3},
                                            {"type", "VEC4"}});
  gltf.document()["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = accessor;
  const json baked = Bake(Read(gltf.Text()));
  EXPECT_EQ(Floats(baked["c"]), (std::vector<float>{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1,
                                                    static_cast<float>(32768 / 65535.0)}));
}

TEST(P5FramesTest, SeveralAnimatedNodesNeedANodeName) {
  GltfFixture gltf = MorphFixture({0, 1}, {0, 0, 1, 0});
  gltf.AddNodes({"twin"});
  gltf.document()["nodes"][1]["mesh"] = 0;
  const size_t input = gltf.AddFloats({0, 2}, "SCALAR", 2);
  const size_t output = gltf.AddFloats({0, 0, 0, 1}, "SCALAR", 4);
  gltf.AddChannel(0, 1, "weights", input, output);
  const Asset asset = Read(gltf.Text());
  EXPECT_NE(UsageError(asset).find("clip 'wave' animates the morph weights of 2 nodes (shape, "
                                   "twin); choose one with --node NAME"),
            std::string::npos);
  P5BakeOptions options;
  options.node = "twin";
  const json baked = Bake(asset, options);
  EXPECT_EQ(baked["node"], "twin");
  EXPECT_EQ(Numbers(baked["times"]), (std::vector<double>{0, 2}));
  options.node = "nobody";
  EXPECT_NE(UsageError(asset, options).find("--node nobody: no node has that name"),
            std::string::npos);
}

TEST(P5FramesTest, NothingToBakeIsAUsageError) {
  GltfFixture gltf = MorphFixture({0, 1}, {0, 0, 1, 0});
  gltf.document()["animations"][0]["channels"][0]["target"]["path"] = "scale";
  gltf.document()["animations"][0]["samplers"][0]["output"] =
      gltf.AddFloats({1, 1, 1, 2, 2, 2}, "VEC3", 2);
  EXPECT_NE(UsageError(Read(gltf.Text())).find("clip 'wave' animates no morph weights"),
            std::string::npos);
  P5BakeOptions options;
  options.node = "shape";
  EXPECT_NE(UsageError(Read(gltf.Text()), options)
                .find("no clip animates the morph weights of node 'shape'"),
            std::string::npos);
  EXPECT_NE(UsageError(testing::MakeAsset({"hips"})).find("bake needs a glTF or GLB input"),
            std::string::npos);
  gltf.document().erase("animations");
  EXPECT_NE(UsageError(Read(gltf.Text())).find("the input has no animations to bake"),
            std::string::npos);
}

TEST(P5FramesTest, ExtrapolationBeyondFloat32IsRefused) {
  const Asset asset = Read(MorphFixture({0, 1}, {0, 0, 3e38f, 0}).Text());
  P5BakeReport report;
  try {
    BakeP5Frames(asset, {}, "shape.gltf", &report);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(error.message().find("frame 1 (1 s): a value is beyond float32 range"),
              std::string::npos)
        << error.message();
  }
}

TEST(P5FramesTest, AnAbsurdFrameRateIsRefusedBeforeBaking) {
  const Asset asset = Read(MorphFixture({0, 1000}, {0, 0, 1, 0}).Text());
  P5BakeOptions options;
  options.fps = 1e12;
  EXPECT_NE(UsageError(asset, options).find("use a lower --fps"), std::string::npos);
}

// ---- Real files, checked against an independent reading of their accessors ----

std::string DecodeBase64(const std::string& text) {
  std::string out;
  uint32_t accumulator = 0;
  int bits = 0;
  for (const char c : text) {
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char* found = std::strchr(alphabet, c);
    if (c == '=' || !found) break;
    accumulator = (accumulator << 6) | static_cast<uint32_t>(found - alphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((accumulator >> bits) & 0xFF);
    }
  }
  return out;
}

// Float accessors read directly from the file's buffers (byteStride honoured, no sparse), not
// through animconv's reader, so the comparison below is independent of the code under test.
class PlainGltf {
 public:
  explicit PlainGltf(const std::string& path) {
    document_ = json::parse(testing::ReadText(path));
    const std::string folder = std::filesystem::path(path).parent_path().string();
    for (const json& buffer : document_["buffers"]) {
      const std::string uri = buffer["uri"];
      buffers_.push_back(uri.compare(0, 5, "data:") == 0
                             ? DecodeBase64(uri.substr(uri.find(',') + 1))
                             : testing::ReadText(folder + "/" + uri));
    }
  }
  const json& document() const { return document_; }

  std::vector<double> Floats(size_t index) const {
    const json& accessor = document_["accessors"][index];
    EXPECT_EQ(accessor["componentType"], 5126);
    EXPECT_FALSE(accessor.contains("sparse"));
    const std::string type = accessor["type"];
    const size_t components = type == "SCALAR" ? 1 : type == "VEC3" ? 3 : 4;
    const json& view = document_["bufferViews"][accessor["bufferView"].get<size_t>()];
    const size_t stride = view.value("byteStride", components * 4);
    const size_t start = view.value("byteOffset", 0) + accessor.value("byteOffset", 0);
    const std::string& buffer = buffers_[view["buffer"].get<size_t>()];
    std::vector<double> values;
    for (size_t e = 0; e < accessor["count"].get<size_t>(); ++e) {
      for (size_t c = 0; c < components; ++c) {
        float value;
        std::memcpy(&value, buffer.data() + start + e * stride + c * 4, 4);
        values.push_back(value);
      }
    }
    return values;
  }

 private:
  json document_;
  std::vector<std::string> buffers_;
};

json BakeFile(const std::string& path, const P5BakeOptions& options = {}) {
  ConvertOptions load;
  const LoadedAsset loaded = LoadAsset(path, load);
  P5BakeReport report;
  return json::parse(BakeP5Frames(loaded.asset, options, path, &report));
}

// Frame k of the bake of animation 0 equals base + sum(w_k,t * delta_t), w_k the key values,
// for the one-primitive mesh of the animated node; normals are unit length and point along the
// independently blended normal.
void ExpectKeyFramesMatch(const std::string& path) {
  const PlainGltf gltf(path);
  const json& animation = gltf.document()["animations"][0];
  const json& sampler = animation["samplers"][animation["channels"][0]["sampler"].get<size_t>()];
  const size_t node = animation["channels"][0]["target"]["node"];
  const json& mesh =
      gltf.document()["meshes"][gltf.document()["nodes"][node]["mesh"].get<size_t>()];
  ASSERT_EQ(mesh["primitives"].size(), 1u);
  const json& primitive = mesh["primitives"][0];
  const std::vector<double> base = gltf.Floats(primitive["attributes"]["POSITION"]);
  const bool has_normals = primitive["attributes"].contains("NORMAL");
  const std::vector<double> base_normals =
      has_normals ? gltf.Floats(primitive["attributes"]["NORMAL"]) : std::vector<double>{};
  std::vector<std::vector<double>> deltas, normal_deltas;
  for (const json& target : primitive["targets"]) {
    deltas.push_back(gltf.Floats(target["POSITION"]));
    normal_deltas.push_back(target.contains("NORMAL") ? gltf.Floats(target["NORMAL"])
                                                      : std::vector<double>{});
  }
  const std::vector<double> times = gltf.Floats(sampler["input"]);
  const std::vector<double> weights = gltf.Floats(sampler["output"]);
  const size_t targets = deltas.size();

  const json baked = BakeFile(path);
  ASSERT_EQ(baked["frames"].size(), times.size());
  EXPECT_EQ(baked["v"].size(), base.size());
  EXPECT_EQ(baked.contains("n"), has_normals);
  for (size_t k = 0; k < times.size(); ++k) {
    EXPECT_EQ(baked["times"][k].get<float>(), static_cast<float>(times[k]));
    const std::vector<double> v = Numbers(baked["frames"][k]["v"]);
    ASSERT_EQ(v.size(), base.size());
    for (size_t i = 0; i < base.size(); ++i) {
      double expected = base[i];
      for (size_t t = 0; t < targets; ++t) expected += weights[k * targets + t] * deltas[t][i];
      ASSERT_NEAR(v[i], expected, 1e-6 * std::fabs(expected) + 1e-9)
          << path << " frame " << k << " value " << i;
    }
    if (!has_normals) continue;
    const std::vector<double> n = Numbers(baked["frames"][k]["n"]);
    ASSERT_EQ(n.size(), base.size());
    for (size_t i = 0; i < n.size(); i += 3) {
      double blended[3];
      for (size_t c = 0; c < 3; ++c) {
        blended[c] = base_normals[i + c];
        for (size_t t = 0; t < targets; ++t) {
          if (!normal_deltas[t].empty()) {
            blended[c] += weights[k * targets + t] * normal_deltas[t][i + c];
          }
        }
      }
      const double length = std::hypot(blended[0], blended[1], blended[2]);
      ASSERT_NEAR(std::hypot(n[i], n[i + 1], n[i + 2]), 1.0, 1e-6) << path << " frame " << k;
      for (size_t c = 0; c < 3; ++c) ASSERT_NEAR(n[i + c], blended[c] / length, 1e-6);
    }
  }
}

std::string SharedFile(const std::string& relative) {
  return std::string(ANIMCONV_SHARED_DATA_DIR) + "/" + relative;
}

TEST(P5FramesTest, AnimatedMorphCubeMatchesAnIndependentBlend) {
  const std::string path =
      SharedFile("morph/khronos_AnimatedMorphCube/glTF/AnimatedMorphCube.gltf");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  ExpectKeyFramesMatch(path);
  EXPECT_EQ(BakeFile(path)["frames"].size(), 127u);
}

TEST(P5FramesTest, SimpleMorphMatchesAnIndependentBlend) {
  const std::string path = SharedFile("morph/khronos_SimpleMorph/glTF/SimpleMorph.gltf");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  ExpectKeyFramesMatch(path);
  const json baked = BakeFile(path);
  EXPECT_EQ(baked["frames"].size(), 5u);
  EXPECT_FALSE(baked.contains("n"));  // SimpleMorph has no normals
}

TEST(P5FramesTest, ProjectMorphCubeMatchesAnIndependentBlend) {
  const std::string path = testing::SourcePath("data/gltf/morph_cube.gltf");
  ExpectKeyFramesMatch(path);
  const json baked = BakeFile(path);
  // COLOR_0 is normalized unsigned short: full intensity is exactly 1 (65535 / 65535).
  const std::vector<double> colors = Numbers(baked["c"]);
  EXPECT_EQ(colors.size(), baked["v"].size() / 3 * 4);
  EXPECT_NE(std::find(colors.begin(), colors.end(), 1.0), colors.end());
  for (const double c : colors) {
    EXPECT_GE(c, 0.0);
    EXPECT_LE(c, 1.0);
  }
  P5BakeOptions options;
  options.fps = 30;
  EXPECT_EQ(BakeFile(path, options)["frames"].size(), 61u);  // 0 .. 2 s at 30 fps
}

}  // namespace
}  // namespace animconv
