// Small glTF documents built in tests: a JSON skeleton plus one buffer of little-endian data.
#pragma once

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv::testing {

class GltfFixture {
 public:
  GltfFixture();
  nlohmann::json& document() { return json_; }

  // Appends raw bytes as a bufferView (4-byte aligned); returns the view index.
  size_t AddView(const std::string& bytes, nlohmann::json extra = nlohmann::json::object());
  template <typename T>
  size_t AddView(const std::vector<T>& values, nlohmann::json extra = nlohmann::json::object()) {
    std::string bytes(values.size() * sizeof(T), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return AddView(bytes, std::move(extra));
  }
  // A FLOAT accessor over new data; times get min/max.
  size_t AddFloats(const std::vector<float>& values, const char* type, size_t count);
  size_t AddAccessor(nlohmann::json accessor);
  // A FLOAT vertex attribute of `components` per vertex over new data; with `bounds`, its min and
  // max per component (POSITION's are required, glTF 2.0 §3.7.2.1).
  size_t AddAttribute(const std::vector<float>& values, const char* type, size_t components,
                      bool bounds);
  // One node per name, in order, all roots unless parented later.
  void AddNodes(const std::vector<std::string>& names);
  // An animation with one channel per (node, path, input, output, interpolation).
  void AddChannel(size_t animation, size_t node, const char* path, size_t input, size_t output,
                  const char* interpolation = "LINEAR");

  std::string Text() const;  // .gltf with the buffer as a base64 data: URI
  std::string Glb() const;   // .glb with a BIN chunk
  const std::string& binary() const { return binary_; }

 private:
  nlohmann::json WithBuffer(bool embed) const;
  nlohmann::json json_;
  std::string binary_;
};

// The fixture's .gltf read by ReadGltf as "test.gltf".
Asset ReadFixture(const GltfFixture& gltf);

// The JSON chunk of a GLB.
nlohmann::json JsonOfGlb(const std::string& glb);

}  // namespace animconv::testing
