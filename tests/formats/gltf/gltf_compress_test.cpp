// --compress (formats/gltf/gltf_compress.h, docs/formats/gltf.md "Compact output"): the width
// chosen per channel, its measured error, shared and merged accessors, and the round trip through
// our own reader (which decodes EXT_meshopt_compression) measured with clip_diff.
#include "formats/gltf/gltf_compress.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "animconv/clip_diff.h"
#include "animconv/convert.h"
#include "animconv/error.h"
#include "animconv/option_values.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_document.h"
#include "formats/gltf/gltf_float32_text.h"
#include "formats/gltf/gltf_test_support.h"

namespace animconv {
namespace {

using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

constexpr double kPi = 3.14159265358979323846;

Channel MakeChannel(Path path, int width, std::vector<double> values,
                    Interpolation interpolation = Interpolation::kLinear) {
  Channel channel;
  channel.node = 0;
  channel.path = path;
  channel.width = width;
  channel.interpolation = interpolation;
  channel.values = std::move(values);
  const size_t keys = channel.values.size() / static_cast<size_t>(width) /
                      (interpolation == Interpolation::kCubicSpline ? 3 : 1);
  for (size_t k = 0; k < keys; ++k) channel.times_seconds.push_back(0.1 * static_cast<double>(k));
  return channel;
}

// A turn about a tilted axis, 60 keys: no key lies on an 8-bit grid.
std::vector<double> TurningRotation() {
  std::vector<double> values;
  const double axis[3] = {0.267261, 0.534522, 0.801784};
  for (int k = 0; k < 60; ++k) {
    const double half = 0.5 * (0.37 + 0.05 * k);
    values.insert(values.end(), {axis[0] * std::sin(half), axis[1] * std::sin(half),
                                 axis[2] * std::sin(half), std::cos(half)});
  }
  return values;
}

// The accessor's values as glTF 2.0 §3.11 reads normalized integers (our own decoding here, not
// the encoder's), so the measured error is checked independently.
std::vector<double> ReadNormalized(const EncodedAccessor& encoded) {
  std::vector<double> values;
  const std::string& bytes =
      encoded.filtered_bytes.empty() ? encoded.bytes : encoded.filtered_bytes;
  for (size_t i = 0; i < bytes.size();) {
    if (encoded.component_type == kGltfByte) {
      values.push_back(std::max(static_cast<int8_t>(bytes[i]) / 127.0, -1.0));
      i += 1;
    } else if (encoded.component_type == kGltfUnsignedByte) {
      values.push_back(static_cast<uint8_t>(bytes[i]) / 255.0);
      i += 1;
    } else if (encoded.component_type == kGltfShort) {
      int16_t code;
      std::memcpy(&code, bytes.data() + i, 2);
      values.push_back(std::max(code / 32767.0, -1.0));
      i += 2;
    } else if (encoded.component_type == kGltfUnsignedShort) {
      uint16_t code;
      std::memcpy(&code, bytes.data() + i, 2);
      values.push_back(code / 65535.0);
      i += 2;
    } else {
      float value;
      std::memcpy(&value, bytes.data() + i, 4);
      values.push_back(value);
      i += 4;
    }
  }
  return values;
}

double LargestKeyAngleDegrees(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i + 3 < a.size(); i += 4) {
    double dot = 0, la = 0, lb = 0;
    for (size_t c = 0; c < 4; ++c) {
      dot += a[i + c] * b[i + c];
      la += a[i + c] * a[i + c];
      lb += b[i + c] * b[i + c];
    }
    worst = std::max(worst, 2 * std::acos(std::min(1.0, std::abs(dot) / std::sqrt(la * lb))));
  }
  return worst * 180 / kPi;
}

TEST(GltfCompressTest, ConstantIdentityRotationFitsEightBits) {
  const Channel channel = MakeChannel(Path::kRotation, 4, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  const EncodedAccessor encoded = EncodeSamplerOutput(channel, GltfCompression{}, false);
  EXPECT_EQ(encoded.component_type, kGltfByte);
  EXPECT_TRUE(encoded.normalized);
  EXPECT_EQ(encoded.count, 3u);
  EXPECT_EQ(encoded.bytes.size(), 12u);
  EXPECT_EQ(encoded.max_error, 0);
}

TEST(GltfCompressTest, TurningRotationTakesSixteenBitsWithinTheBound) {
  const Channel channel = MakeChannel(Path::kRotation, 4, TurningRotation());
  const GltfCompression options;
  const EncodedAccessor encoded = EncodeSamplerOutput(channel, options, false);
  EXPECT_EQ(encoded.component_type, kGltfShort);  // 8 bits: ~0.5 deg, far above 0.01
  EXPECT_TRUE(encoded.normalized);
  // Measured against the float32 values the plain writer stores, as the encoder does.
  const std::vector<float> stored(channel.values.begin(), channel.values.end());
  const double angle = LargestKeyAngleDegrees(std::vector<double>(stored.begin(), stored.end()),
                                              ReadNormalized(encoded));
  EXPECT_GT(angle, 0);
  EXPECT_LE(angle, options.rotation_degrees);
  EXPECT_LE(angle, encoded.max_error * 180 / kPi + 1e-9);  // keys are among the measured samples
}

TEST(GltfCompressTest, RotationBeyondSixteenBitsStaysFloat) {
  const Channel channel = MakeChannel(Path::kRotation, 4, TurningRotation());
  GltfCompression options;
  options.rotation_degrees = 1e-5;  // below what 16 bits (~0.003 deg) can hold
  const EncodedAccessor encoded = EncodeSamplerOutput(channel, options, true);
  EXPECT_EQ(encoded.component_type, kGltfFloat);
  EXPECT_EQ(std::string(encoded.filter), "NONE");
  EXPECT_EQ(encoded.max_error, 0);
}

TEST(GltfCompressTest, WeightsTakeTheNarrowestNormalizedTypeOfTheirRange) {
  GltfCompression options;
  // On the 8-bit grid: exact in UNSIGNED_BYTE.
  EXPECT_EQ(
      EncodeSamplerOutput(MakeChannel(Path::kWeights, 2, {0, 1, 51 / 255.0, 0.2}), options, false)
          .component_type,
      kGltfUnsignedByte);
  // Off the grid by more than the 1e-4 bound: UNSIGNED_SHORT.
  const Channel fine = MakeChannel(Path::kWeights, 2, {0, 1, 0.123456, 0.5});
  const EncodedAccessor word = EncodeSamplerOutput(fine, options, false);
  EXPECT_EQ(word.component_type, kGltfUnsignedShort);
  const std::vector<double> read = ReadNormalized(word);
  for (size_t i = 0; i < read.size(); ++i) EXPECT_NEAR(read[i], fine.values[i], options.weight);
  // Negative weights: signed.
  EXPECT_EQ(
      EncodeSamplerOutput(MakeChannel(Path::kWeights, 2, {-0.5, 0.123456, 0, 1}), options, false)
          .component_type,
      kGltfShort);
  // Beyond [-1, 1] no normalized type holds them.
  EXPECT_EQ(
      EncodeSamplerOutput(MakeChannel(Path::kWeights, 1, {0, 1.5}), options, false).component_type,
      kGltfFloat);
}

TEST(GltfCompressTest, CubicSplinesStayFloat) {
  const Channel channel = MakeChannel(
      Path::kRotation, 4, {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
      Interpolation::kCubicSpline);
  EXPECT_EQ(EncodeSamplerOutput(channel, GltfCompression{}, true).component_type, kGltfFloat);
}

TEST(GltfCompressTest, MeshoptFiltersUseTheFewestBitsWithinTheBound) {
  if (!MeshoptEncodingAvailable()) GTEST_SKIP() << "a build without meshoptimizer";
  const GltfCompression options;
  const Channel rotation = MakeChannel(Path::kRotation, 4, TurningRotation());
  const EncodedAccessor quaternion = EncodeSamplerOutput(rotation, options, true);
  EXPECT_EQ(std::string(quaternion.filter), "QUATERNION");
  EXPECT_EQ(quaternion.filter_stride, 8u);
  EXPECT_LT(quaternion.bits, 16);
  EXPECT_LE(LargestKeyAngleDegrees(rotation.values, ReadNormalized(quaternion)),
            options.rotation_degrees);

  std::vector<double> path;
  for (int k = 0; k < 40; ++k) path.insert(path.end(), {0.01 * k, 0.9 + 0.001 * k, -0.3});
  const Channel translation = MakeChannel(Path::kTranslation, 3, path);
  const EncodedAccessor exponential = EncodeSamplerOutput(translation, options, true);
  EXPECT_EQ(std::string(exponential.filter), "EXPONENTIAL");
  EXPECT_EQ(exponential.filter_stride, 12u);
  EXPECT_LT(exponential.bits, 24);
  const std::vector<double> read = ReadNormalized(exponential);
  for (size_t k = 0; k < read.size(); k += 3) {
    EXPECT_LE(std::hypot(read[k] - path[k], read[k + 1] - path[k + 1], read[k + 2] - path[k + 2]),
              options.translation_metres);
  }
  // One bit fewer than chosen breaks the bound somewhere (the fewest bits that fit).
  GltfCompression looser = options;
  looser.translation_metres = options.translation_metres * 8;
  EXPECT_LT(EncodeSamplerOutput(translation, looser, true).bits, exponential.bits);
}

// Two nodes with the same rotation curve and one constant: a GLB fixture read through ReadGltf.
Asset TwinAsset() {
  GltfFixture gltf;
  gltf.AddNodes({"a", "b", "c"});
  std::vector<float> times;
  std::vector<float> turn;
  const std::vector<double> rotation = TurningRotation();
  for (size_t k = 0; k < rotation.size() / 4; ++k) times.push_back(0.1f * static_cast<float>(k));
  turn.assign(rotation.begin(), rotation.end());
  const size_t input = gltf.AddFloats(times, "SCALAR", times.size());
  gltf.AddChannel(0, 0, "rotation", input, gltf.AddFloats(turn, "VEC4", times.size()));
  gltf.AddChannel(0, 1, "rotation", input, gltf.AddFloats(turn, "VEC4", times.size()));
  std::vector<float> slide;
  for (size_t k = 0; k < times.size(); ++k) {
    slide.insert(slide.end(), {0.02f * static_cast<float>(k), 1.0f, 0.0f});
  }
  gltf.AddChannel(0, 2, "translation", input, gltf.AddFloats(slide, "VEC3", times.size()));
  return ReadGltf(gltf.Glb(), ReadOptions{});
}

std::string Render(const Asset& asset, const char* format, bool compress) {
  ConvertOptions options;
  if (compress) options.write.gltf_compression = GltfCompression{};
  return RenderAsset(asset, *FindFormat(format), options);
}

TEST(GltfCompressTest, IdenticalOutputsAndTimesAreWrittenOnce) {
  const Asset asset = TwinAsset();
  const json plain = JsonOfGlb(Render(asset, "glb", false));
  const json compact = JsonOfGlb(Render(asset, "glb", true));
  const json& plain_samplers = plain["animations"][0]["samplers"];
  EXPECT_NE(plain_samplers[0]["output"], plain_samplers[1]["output"]);
  const json& samplers = compact["animations"][0]["samplers"];
  ASSERT_EQ(samplers.size(), 3u);
  EXPECT_EQ(samplers[0]["output"], samplers[1]["output"]);  // byte-equal: one accessor
  EXPECT_EQ(samplers[0]["input"], samplers[2]["input"]);    // same key times: one accessor
  EXPECT_EQ(compact["accessors"].size(), 3u);               // times, rotation, translation
}

TEST(GltfCompressTest, RoundTripThroughOurReaderStaysWithinTheBounds) {
  const Asset asset = TwinAsset();
  const GltfCompression bounds;
  for (const char* format : {"glb", "gltf"}) {
    SCOPED_TRACE(format);
    const std::string plain = Render(asset, format, false);
    const std::string compact = Render(asset, format, true);
    EXPECT_LT(compact.size(), plain.size());
    const Asset a = ReadGltf(plain, ReadOptions{});
    const Asset b = ReadGltf(compact, ReadOptions{});
    const ClipDiff diff = DiffClips(a, a.clips[0], b, b.clips[0], DiffOptions{});
    EXPECT_TRUE(diff.only_in_a.empty());
    EXPECT_TRUE(diff.only_in_b.empty());
    EXPECT_GT(diff.overall.at("deg").max, 0);
    EXPECT_LE(diff.overall.at("deg").max, bounds.rotation_degrees);
    EXPECT_LE(diff.overall.at("m").max, bounds.translation_metres);
    const json document = format == std::string("glb")
                              ? JsonOfGlb(compact)
                              : json::parse(compact.substr(0, compact.size()));
    if (MeshoptEncodingAvailable()) {
      EXPECT_EQ(document["extensionsRequired"], json::array({"EXT_meshopt_compression"}));
      ASSERT_EQ(document["buffers"].size(), 2u);
      EXPECT_FALSE(document["buffers"][1].contains("uri"));
      EXPECT_TRUE(document["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"]);
    }
  }
}

// A passed-through mesh is compressed losslessly: indices in mode INDICES, vertices in mode
// ATTRIBUTES, and our reader decodes them to the same bytes as the plain output's.
TEST(GltfCompressTest, PassedThroughMeshViewsAreCompressedLosslessly) {
  if (!MeshoptEncodingAvailable()) GTEST_SKIP() << "a build without meshoptimizer";
  GltfFixture gltf;
  gltf.AddNodes({"body"});
  gltf.document()["nodes"][0]["mesh"] = 0;
  std::vector<float> positions;
  for (int v = 0; v < 200; ++v) {
    positions.insert(positions.end(), {0.01f * static_cast<float>(v % 20),
                                       0.02f * static_cast<float>(v / 20), 0.5f});
  }
  std::vector<uint16_t> indices;
  for (uint16_t t = 0; t < 150; ++t) {
    indices.insert(indices.end(), {t, static_cast<uint16_t>(t + 1), static_cast<uint16_t>(t + 20)});
  }
  const size_t position = gltf.AddFloats(positions, "VEC3", 200);
  const size_t index = gltf.AddAccessor({{"bufferView", gltf.AddView(indices)},
                                         {"componentType", kGltfUnsignedShort},
                                         {"count", indices.size()},
                                         {"type", "SCALAR"}});
  gltf.document()["meshes"] = {
      {{"primitives", {{{"attributes", {{"POSITION", position}}}, {"indices", index}}}}}};
  const std::vector<double> rotation = TurningRotation();
  std::vector<float> times;
  for (size_t k = 0; k < rotation.size() / 4; ++k) times.push_back(0.1f * static_cast<float>(k));
  gltf.AddChannel(
      0, 0, "rotation", gltf.AddFloats(times, "SCALAR", times.size()),
      gltf.AddFloats(std::vector<float>(rotation.begin(), rotation.end()), "VEC4", times.size()));
  const Asset asset = ReadGltf(gltf.Glb(), ReadOptions{});
  const std::string plain = Render(asset, "glb", false);
  const std::string compact = Render(asset, "glb", true);
  EXPECT_LT(compact.size(), plain.size());
  const json document = JsonOfGlb(compact);
  std::set<std::string> modes;
  for (const json& view : document["bufferViews"]) {
    if (view.contains("extensions")) {
      modes.insert(view["extensions"]["EXT_meshopt_compression"]["mode"].get<std::string>());
    }
  }
  EXPECT_EQ(modes, (std::set<std::string>{"ATTRIBUTES", "INDICES"}));
  const Asset a = ReadGltf(plain, ReadOptions{});
  const Asset b = ReadGltf(compact, ReadOptions{});
  const auto* da = dynamic_cast<const GltfDocument*>(a.source_document.get());
  const auto* db = dynamic_cast<const GltfDocument*>(b.source_document.get());
  ASSERT_TRUE(da && db);
  // The mesh's two views come first in both (pass-through keeps their order); a view may grow
  // to a whole number of meshopt elements, never change.
  for (size_t v = 0; v < 2; ++v) {
    ASSERT_GE(db->buffer_views[v].size(), da->buffer_views[v].size());
    EXPECT_EQ(db->buffer_views[v].substr(0, da->buffer_views[v].size()), da->buffer_views[v]);
  }
}

TEST(GltfCompressTest, KeyStreamStrideHoldsWholeKeysWithinTheExtensionsLimits) {
  const GltfCompression options;
  std::vector<double> smooth;  // 13 targets, 40 keys, within [0, 1]
  for (int k = 0; k < 40; ++k) {
    for (int t = 0; t < 13; ++t) smooth.push_back(0.5 + 0.5 * std::sin(0.05 * k + t));
  }
  EncodedAccessor weights = EncodeSamplerOutput(MakeChannel(Path::kWeights, 13, smooth), options,
                                                MeshoptEncodingAvailable());
  const size_t value_bytes = weights.bytes.size() / smooth.size();
  EXPECT_EQ(weights.key_bytes, 13 * value_bytes);
  // The fewest whole keys that are a multiple of 4 bytes: 4 keys of 13 bytes, 2 of 26 or 1 of 52.
  EXPECT_EQ(KeyStreamStride(weights), 52u);
  EXPECT_EQ(StreamStride(weights), 4u);  // SCALAR: four bytes at a time
  weights.key_bytes = 100 * 4;           // 100 float targets: more than 256 bytes
  EXPECT_EQ(KeyStreamStride(weights), 0u);
  const EncodedAccessor rotation =
      EncodeSamplerOutput(MakeChannel(Path::kRotation, 4, TurningRotation()), options, false);
  EXPECT_EQ(rotation.key_bytes, 8u);  // normalized SHORT
  EXPECT_EQ(KeyStreamStride(rotation), StreamStride(rotation));
  if (MeshoptEncodingAvailable()) {
    const EncodedAccessor filtered =
        EncodeSamplerOutput(MakeChannel(Path::kRotation, 4, TurningRotation()), options, true);
    ASSERT_EQ(std::string(filtered.filter), "QUATERNION");
    EXPECT_EQ(KeyStreamStride(filtered), 0u);  // the filter's elements are 8 bytes, always
  }
  const Channel cubic = MakeChannel(Path::kTranslation, 3, std::vector<double>(18, 0.25),
                                    Interpolation::kCubicSpline);
  const EncodedAccessor tangents = EncodeSamplerOutput(cubic, options, false);
  EXPECT_EQ(tangents.key_bytes, 36u);  // in-tangent, value, out-tangent of float VEC3
  EXPECT_EQ(KeyStreamStride(tangents), 36u);
}

// A face's weights that change smoothly, in bytes: the attribute codec gets one key (52 bytes) per
// element, so each byte follows one target's weight over time, and the file is smaller than with
// four bytes per element; weights that jump from target to target (a morph sequence) keep the
// smaller of the two.
TEST(GltfCompressTest, SmoothMorphWeightsAreCompressedOneKeyPerElement) {
  if (!MeshoptEncodingAvailable()) GTEST_SKIP() << "a build without meshoptimizer";
  for (const bool smooth : {true, false}) {
    SCOPED_TRACE(smooth ? "smooth" : "one target at a time");
    constexpr int kTargets = 52;  // ARKit's blend shapes, as in three.js's facecap.glb
    constexpr int kKeys = 300;
    GltfFixture gltf;
    gltf.AddNodes({"face"});
    gltf.document()["nodes"][0]["mesh"] = 0;
    const size_t positions = gltf.AddFloats({0, 0, 0}, "VEC3", 1);
    json targets = json::array();
    for (int t = 0; t < kTargets; ++t) targets.push_back({{"POSITION", positions}});
    gltf.document()["meshes"] = {
        {{"primitives", {{{"attributes", {{"POSITION", positions}}}, {"targets", targets}}}}}};
    std::vector<float> times;
    std::vector<float> weights;
    for (int k = 0; k < kKeys; ++k) {
      times.push_back(static_cast<float>(k) / 30);
      for (int t = 0; t < kTargets; ++t) {
        // On the 8-bit grid, as a face capture stored in bytes (three.js's facecap.glb).
        const double weight = smooth ? 0.5 + 0.5 * std::sin(0.02 * k + 0.9 * t) : k % kTargets == t;
        weights.push_back(static_cast<float>(std::round(weight * 255) / 255));
      }
    }
    gltf.AddChannel(0, 0, "weights", gltf.AddFloats(times, "SCALAR", times.size()),
                    gltf.AddFloats(weights, "SCALAR", weights.size()));
    const Asset asset = ReadGltf(gltf.Glb(), ReadOptions{});
    const std::string compact = Render(asset, "glb", true);
    const json document = JsonOfGlb(compact);
    const json& output =
        document["accessors"][document["animations"][0]["samplers"][0]["output"].get<size_t>()];
    const json& view = document["bufferViews"][output["bufferView"].get<size_t>()];
    ASSERT_EQ(output["componentType"], kGltfUnsignedByte);
    // What the two strides give for this accessor's bytes.
    const EncodedAccessor encoded =
        EncodeSamplerOutput(asset.clips[0].channels[0], GltfCompression{}, true);
    std::string padded = encoded.bytes;
    padded.resize((padded.size() + 3) / 4 * 4, '\0');
    const size_t by_four = CompressAttributes(padded, 4).size();
    padded = encoded.bytes;
    padded.resize((padded.size() + 51) / 52 * 52, '\0');
    const size_t by_key = CompressAttributes(padded, 52).size();
    ASSERT_TRUE(view.contains("extensions")) << view.dump();
    const json& extension = view["extensions"]["EXT_meshopt_compression"];
    EXPECT_EQ(extension["byteStride"], by_key < by_four ? 52u : 4u);
    EXPECT_EQ(extension["byteLength"], std::min(by_key, by_four));
    if (smooth) {
      EXPECT_LT(by_key, by_four * 3 / 4);  // what this change is for
    }
    // Our reader decodes it to the same motion within the bound.
    const Asset read = ReadGltf(compact, ReadOptions{});
    const ClipDiff diff = DiffClips(asset, asset.clips[0], read, read.clips[0], DiffOptions{});
    EXPECT_TRUE(diff.only_in_a.empty());
    EXPECT_LE(diff.overall.at("weight").max, GltfCompression{}.weight);
  }
}

TEST(GltfCompressTest, VrmaOutputIsCompressedToo) {
  // The seed article's two rows of 55 HumanBodyBones (data/unity/anim.csv).
  ConvertOptions options;
  ConvertOptions compact = options;
  compact.write.gltf_compression = GltfCompression{};
  const Format& vrma = *FindFormat("vrma");
  const Asset asset =
      LoadAsset(std::string(ANIMCONV_SOURCE_DIR) + "/data/unity/anim.csv", options).asset;
  const std::string plain = RenderAsset(PrepareAsset(asset, vrma, options), vrma, options);
  const std::string small = RenderAsset(PrepareAsset(asset, vrma, compact), vrma, compact);
  const json document = JsonOfGlb(small);
  EXPECT_TRUE(document["extensions"].contains("VRMC_vrm_animation"));
  bool normalized_rotation = false;
  for (const json& accessor : document["accessors"]) {
    normalized_rotation |= accessor.value("normalized", false) && accessor["type"] == "VEC4";
  }
  EXPECT_TRUE(normalized_rotation);
  EXPECT_NE(plain, small);
}

// How many numbers of the nodes' translation, rotation and scale are written with more digits
// than the shortest text of their float32 needs.
size_t LongNodeNumbers(const json& document) {
  size_t count = 0;
  for (const json& node : document["nodes"]) {
    for (const char* member : {"translation", "rotation", "scale"}) {
      if (!node.contains(member)) continue;
      for (const json& number : node[member]) {
        const std::string shortest = Float32Number(static_cast<float>(number.get<double>())).dump();
        if (number.dump().size() > shortest.size()) ++count;
      }
    }
  }
  return count;
}

// gltf_float32_text.h: a rig passed through (walk.glb's rest pose, computed in doubles when it was
// written: -0.04999999999999993) and one generated (the VRMA's T-pose) both get the shortest text.
TEST(GltfCompressTest, NodeNumbersAreTheShortestTextOfTheirFloat32) {
  ConvertOptions options;
  ConvertOptions compact = options;
  compact.write.gltf_compression = GltfCompression{};
  const std::string walk = std::string(ANIMCONV_SOURCE_DIR) + "/data/gltf/walk.glb";
  const std::string csv = std::string(ANIMCONV_SOURCE_DIR) + "/data/unity/anim.csv";
  for (const auto& [path, format_id] : {std::pair{walk, "glb"}, std::pair{csv, "vrma"}}) {
    SCOPED_TRACE(path);
    const Format& format = *FindFormat(format_id);
    const Asset asset = LoadAsset(path, options).asset;
    const json plain =
        JsonOfGlb(RenderAsset(PrepareAsset(asset, format, options), format, options));
    Diagnostics diagnostics;
    const json small =
        JsonOfGlb(RenderAsset(PrepareAsset(asset, format, compact), format, compact, &diagnostics));
    EXPECT_GT(LongNodeNumbers(plain), 10u);  // the default output keeps every digit
    EXPECT_EQ(LongNodeNumbers(small), 0u);
    ASSERT_EQ(plain["nodes"].size(), small["nodes"].size());
    for (size_t n = 0; n < plain["nodes"].size(); ++n) {
      for (const char* member : {"translation", "rotation", "scale"}) {
        if (!plain["nodes"][n].contains(member)) continue;
        for (size_t i = 0; i < plain["nodes"][n][member].size(); ++i) {
          EXPECT_EQ(static_cast<float>(small["nodes"][n][member][i].get<double>()),
                    static_cast<float>(plain["nodes"][n][member][i].get<double>()));
        }
      }
    }
    bool noted = false;
    for (const Diagnostic& diagnostic : diagnostics) {
      noted |= diagnostic.text.find("shortest text of their float32") != std::string::npos;
    }
    EXPECT_TRUE(noted);
  }
}

TEST(GltfCompressTest, OtherOutputFormatsRefuseTheSwitch) {
  const Asset asset = TwinAsset();
  ConvertOptions options;
  options.write.gltf_compression = GltfCompression{};
  EXPECT_THROW(RenderAsset(asset, *FindFormat("three"), options), Error);
}

TEST(GltfCompressTest, WithoutMeshoptTheOutputIsCoreGltf) {
  ConvertOptionValues values;
  values.compress_without_meshopt = true;
  ConvertOptions options;
  ApplyConvertOptions(values, GivenOptions{"compress-without-meshopt"}, &options);
  ASSERT_TRUE(options.write.gltf_compression);
  EXPECT_FALSE(options.write.gltf_compression->meshopt);
  const json document = JsonOfGlb(RenderAsset(TwinAsset(), *FindFormat("glb"), options));
  EXPECT_FALSE(document.contains("extensionsUsed"));
  EXPECT_EQ(document["buffers"].size(), 1u);
  EXPECT_EQ(document["accessors"][1]["componentType"], kGltfShort);  // the rotation
  EXPECT_TRUE(document["accessors"][1]["normalized"]);
}

// share_key_times.h in the writer: a rotation on 60 keys and a translation on 55 of those times
// share one time accessor (the 5 added translation keys cost less than another accessor), unless
// --compress-keep-key-times.
TEST(GltfCompressTest, ChannelsShareKeyTimesUnlessAskedToKeepThem) {
  GltfFixture gltf;
  gltf.AddNodes({"a", "b"});
  const std::vector<double> rotation = TurningRotation();
  std::vector<float> times;
  std::vector<float> turn(rotation.begin(), rotation.end());
  std::vector<float> slide_times;
  std::vector<float> slide;
  for (size_t k = 0; k < rotation.size() / 4; ++k) {
    times.push_back(0.1f * static_cast<float>(k));
    if (k % 10 == 5) continue;
    slide_times.push_back(times.back());
    slide.insert(slide.end(), {0.02f * static_cast<float>(k), 1.0f, 0.0f});
  }
  gltf.AddChannel(0, 0, "rotation", gltf.AddFloats(times, "SCALAR", times.size()),
                  gltf.AddFloats(turn, "VEC4", times.size()));
  gltf.AddChannel(0, 1, "translation", gltf.AddFloats(slide_times, "SCALAR", slide_times.size()),
                  gltf.AddFloats(slide, "VEC3", slide_times.size()));
  const Asset asset = ReadGltf(gltf.Glb(), ReadOptions{});
  for (const bool keep : {false, true}) {
    SCOPED_TRACE(keep);
    ConvertOptionValues values;
    values.compress = !keep;  // --compress-keep-key-times alone implies it
    values.compress_keep_key_times = keep;
    ConvertOptions options;
    ApplyConvertOptions(values, GivenOptions{}, &options);
    ASSERT_TRUE(options.write.gltf_compression);
    EXPECT_EQ(options.write.gltf_compression->share_key_times, !keep);
    Diagnostics diagnostics;
    const json document = JsonOfGlb(RenderAsset(asset, *FindFormat("glb"), options, &diagnostics));
    const json& samplers = document["animations"][0]["samplers"];
    ASSERT_EQ(samplers.size(), 2u);
    const json& accessors = document["accessors"];
    if (keep) {
      EXPECT_NE(samplers[0]["input"], samplers[1]["input"]);
      EXPECT_EQ(accessors[samplers[1]["output"].get<size_t>()]["count"], 54);
    } else {
      EXPECT_EQ(samplers[0]["input"], samplers[1]["input"]);
      EXPECT_EQ(accessors[samplers[1]["output"].get<size_t>()]["count"], 60);
      bool noted = false;
      for (const Diagnostic& diagnostic : diagnostics) {
        noted |= diagnostic.text.find("2 key-time set(s) -> 1") != std::string::npos;
      }
      EXPECT_TRUE(noted);
    }
  }
}

// The option layer splits each tolerance: --compress a tenth, --reduce the rest.
TEST(GltfCompressTest, CompressAndReduceShareTheTolerance) {
  ConvertOptionValues values;
  values.compress = true;
  values.reduce = true;
  ConvertOptions options;
  ApplyConvertOptions(values, GivenOptions{"compress", "reduce"}, &options);
  ASSERT_TRUE(options.write.gltf_compression);
  ASSERT_TRUE(options.reduce);
  const ReduceOptions asked;
  EXPECT_NEAR(options.write.gltf_compression->rotation_degrees + options.reduce->rotation_degrees,
              asked.rotation_degrees, 1e-15);
  EXPECT_NEAR(
      options.write.gltf_compression->translation_metres + options.reduce->translation_metres,
      asked.translation_metres, 1e-15);
  EXPECT_NEAR(options.write.gltf_compression->weight + options.reduce->weight, asked.weight, 1e-15);
  EXPECT_NEAR(options.write.gltf_compression->rotation_degrees, 0.1 * asked.rotation_degrees,
              1e-15);
}

}  // namespace
}  // namespace animconv
