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
  GltfAccessors(const nlohmann::json& document, const GltfLists& lists, const GltfViewBytes& views,
                const GltfErrors& errors, uint64_t budget_bytes);

  size_t size() const { return definitions_ ? definitions_->size() : 0; }
  // Decoded once, then cached. `index` must be < size().
  const AccessorData& Get(size_t index);
  // Plans one more TakeValues(index). The plan must not fall short of the real takes (count every
  // reference that may be taken); an unused planned take only keeps the decoded values cached.
  void PlanTake(size_t index) { ++planned_takes_[index]; }
  // Get(index)'s values for a channel to own: a copy while more takes are planned, the values
  // themselves on the last one, so no accessor is held twice (the cache keeps its description).
  std::vector<double> TakeValues(size_t index);
  std::string Pointer(size_t index) const;

 private:
  AccessorData Decode(size_t index);
  void ApplySparse(const nlohmann::json& sparse, const std::string& pointer, Shape shape,
                   AccessorData& data);

  const PackedJsonArray* definitions_ = nullptr;
  const PackedJsonArray* view_definitions_ = nullptr;
  const GltfViewBytes& views_;
  const GltfErrors& errors_;
  uint64_t budget_bytes_;
  uint64_t used_bytes_ = 0;
  std::vector<std::unique_ptr<AccessorData>> cache_;
  std::vector<size_t> planned_takes_;  // per accessor: TakeValues calls still to come, at most
  std::vector<bool> taken_;            // per accessor: its values were moved out
};

}  // namespace animconv
