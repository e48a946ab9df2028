#include "formats/gltf/gltf_test_support.h"

#include <algorithm>

#include "formats/gltf/gltf.h"

namespace animconv::testing {

using nlohmann::json;

namespace {

std::string Base64(const std::string& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t accumulator = 0;
  int bits = 0;
  for (const char c : bytes) {
    accumulator = (accumulator << 8) | static_cast<uint8_t>(c);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(accumulator >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(accumulator << (6 - bits)) & 63];
  while (out.size() % 4 != 0) out += '=';
  return out;
}

void AppendU32(std::string& out, uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), 4);
}

}  // namespace

GltfFixture::GltfFixture() {
  json_ = {{"asset", {{"version", "2.0"}}},
           {"bufferViews", json::array()},
           {"accessors", json::array()},
           {"nodes", json::array()}};
}

size_t GltfFixture::AddView(const std::string& bytes, json extra) {
  binary_.append((4 - binary_.size() % 4) % 4, '\0');
  extra["buffer"] = 0;
  extra["byteOffset"] = binary_.size();
  extra["byteLength"] = bytes.size();
  binary_ += bytes;
  json_["bufferViews"].push_back(extra);
  return json_["bufferViews"].size() - 1;
}

size_t GltfFixture::AddFloats(const std::vector<float>& values, const char* type, size_t count) {
  json accessor = {
      {"bufferView", AddView(values)}, {"componentType", 5126}, {"count", count}, {"type", type}};
  if (std::string(type) == "SCALAR") {
    accessor["min"] = {values.front()};
    accessor["max"] = {values.back()};
  }
  return AddAccessor(accessor);
}

size_t GltfFixture::AddAttribute(const std::vector<float>& values, const char* type,
                                 size_t components, bool bounds) {
  json accessor = {{"bufferView", AddView(values)},
                   {"componentType", 5126},
                   {"count", values.size() / components},
                   {"type", type}};
  if (bounds) {
    std::vector<float> low(components, 1e30f), high(components, -1e30f);
    for (size_t i = 0; i < values.size(); ++i) {
      low[i % components] = std::min(low[i % components], values[i]);
      high[i % components] = std::max(high[i % components], values[i]);
    }
    accessor["min"] = low;
    accessor["max"] = high;
  }
  return AddAccessor(accessor);
}

size_t GltfFixture::AddAccessor(json accessor) {
  json_["accessors"].push_back(std::move(accessor));
  return json_["accessors"].size() - 1;
}

void GltfFixture::AddNodes(const std::vector<std::string>& names) {
  for (const std::string& name : names) json_["nodes"].push_back({{"name", name}});
}

void GltfFixture::AddChannel(size_t animation, size_t node, const char* path, size_t input,
                             size_t output, const char* interpolation) {
  if (!json_.contains("animations")) json_["animations"] = json::array();
  while (json_["animations"].size() <= animation) {
    json_["animations"].push_back({{"channels", json::array()}, {"samplers", json::array()}});
  }
  json& target = json_["animations"][animation];
  target["samplers"].push_back(
      {{"input", input}, {"output", output}, {"interpolation", interpolation}});
  target["channels"].push_back(
      {{"sampler", target["samplers"].size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

json GltfFixture::WithBuffer(bool embed) const {
  json out = json_;
  json buffer = {{"byteLength", binary_.size()}};
  if (embed) buffer["uri"] = "data:application/octet-stream;base64," + Base64(binary_);
  out["buffers"] = json::array({buffer});
  return out;
}

std::string GltfFixture::Text() const { return WithBuffer(true).dump(); }

std::string GltfFixture::Glb() const {
  std::string text = WithBuffer(false).dump();
  text.append((4 - text.size() % 4) % 4, ' ');
  std::string bin = binary_;
  bin.append((4 - bin.size() % 4) % 4, '\0');
  std::string out;
  AppendU32(out, 0x46546C67);
  AppendU32(out, 2);
  AppendU32(out, static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  AppendU32(out, static_cast<uint32_t>(text.size()));
  AppendU32(out, 0x4E4F534A);
  out += text;
  AppendU32(out, static_cast<uint32_t>(bin.size()));
  AppendU32(out, 0x004E4942);
  out += bin;
  return out;
}

Asset ReadFixture(const GltfFixture& gltf) {
  ReadOptions options;
  options.source = "test.gltf";
  return ReadGltf(gltf.Text(), options);
}

nlohmann::json JsonOfGlb(const std::string& glb) {
  uint32_t length;
  std::memcpy(&length, glb.data() + 12, 4);
  return nlohmann::json::parse(glb.substr(20, length));
}

}  // namespace animconv::testing
