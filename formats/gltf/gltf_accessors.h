// Decoding glTF accessors into doubles: every component type, normalized integers (glTF
// 2.0 §3.11 sampler output formats, §3.6.2.3), byteStride, matrix column padding, sparse
// substitution, accessors without a bufferView. Every offset and count is checked against the real
// bytes before anything is allocated.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "formats/gltf/gltf_document.h"

namespace animconv {

struct AccessorData {
  size_t count = 0;
  int components = 0;  // per element: 1 (SCALAR) .. 16 (MAT4)
  int component_type = 0;
  bool normalized = false;
  std::vector<double> values;  // count * components
};

class GltfAccessors {
 public:
  // Columns of a matrix and rows per column; one column for scalars and vectors.
  struct Shape {
    int columns = 0;
    int rows = 0;
  };

  // `budget_bytes` bounds the decoded doubles over all accessors, so a small file cannot claim
  // gigabytes (an accessor without bufferView, or one accessor used a thousand times).
  GltfAccessors(const nlohmann::json& document, const std::vector<std::string>& views,
                const GltfErrors& errors, uint64_t budget_bytes);

  size_t size() const { return definitions_ ? definitions_->size() : 0; }
  // Decoded once, then cached. `index` must be < size().
  const AccessorData& Get(size_t index);
  std::string Pointer(size_t index) const;

 private:
  AccessorData Decode(size_t index);
  void ApplySparse(const nlohmann::json& sparse, const std::string& pointer, Shape shape,
                   AccessorData& data);

  const nlohmann::json* definitions_ = nullptr;
  const nlohmann::json* view_definitions_ = nullptr;
  const std::vector<std::string>& views_;
  const GltfErrors& errors_;
  uint64_t budget_bytes_;
  uint64_t used_bytes_ = 0;
  std::vector<std::unique_ptr<AccessorData>> cache_;
};

}  // namespace animconv
