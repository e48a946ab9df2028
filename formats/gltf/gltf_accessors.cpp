#include "formats/gltf/gltf_accessors.h"

#include <fmt/format.h>

#include <cstring>

#include "animconv/error.h"

namespace animconv {

int ComponentSize(int type) {
  switch (type) {
    case kGltfByte:
    case kGltfUnsignedByte:
      return 1;
    case kGltfShort:
    case kGltfUnsignedShort:
      return 2;
    case kGltfUnsignedInt:
    case kGltfFloat:
      return 4;
    default:
      return 0;
  }
}

namespace {

using nlohmann::json;

GltfAccessors::Shape ShapeOf(const std::string& type) {
  if (type == "SCALAR") return {1, 1};
  if (type == "VEC2") return {1, 2};
  if (type == "VEC3") return {1, 3};
  if (type == "VEC4") return {1, 4};
  if (type == "MAT2") return {2, 2};
  if (type == "MAT3") return {3, 3};
  if (type == "MAT4") return {4, 4};
  return {};
}

// One component as a double, decoded per the spec's table for normalized integers.
double ReadComponent(const char* at, int type, bool normalized) {
  switch (type) {
    case kGltfByte: {
      int8_t c;
      std::memcpy(&c, at, 1);
      return normalized ? std::max(c / 127.0, -1.0) : c;
    }
    case kGltfUnsignedByte: {
      uint8_t c;
      std::memcpy(&c, at, 1);
      return normalized ? c / 255.0 : c;
    }
    case kGltfShort: {
      int16_t c;
      std::memcpy(&c, at, 2);
      return normalized ? std::max(c / 32767.0, -1.0) : c;
    }
    case kGltfUnsignedShort: {
      uint16_t c;
      std::memcpy(&c, at, 2);
      return normalized ? c / 65535.0 : c;
    }
    case kGltfUnsignedInt: {
      uint32_t c;
      std::memcpy(&c, at, 4);
      return c;
    }
    default: {
      float c;
      std::memcpy(&c, at, 4);
      return c;
    }
  }
}

// Layout of one element: matrix columns start on 4-byte boundaries (glTF 2.0 §3.6.2.4).
struct Layout {
  int component_size = 0;
  int column_stride = 0;
  size_t element_size = 0;
};

Layout LayoutOf(GltfAccessors::Shape shape, int component_size) {
  Layout layout;
  layout.component_size = component_size;
  const int column_bytes = shape.rows * component_size;
  layout.column_stride = shape.columns > 1 ? (column_bytes + 3) & ~3 : column_bytes;
  layout.element_size = static_cast<size_t>(layout.column_stride) * shape.columns;
  return layout;
}

void ReadElements(const std::string& bytes, size_t offset, size_t stride, size_t count,
                  GltfAccessors::Shape shape, const Layout& layout, int type, bool normalized,
                  double* out) {
  for (size_t e = 0; e < count; ++e) {
    const char* element = bytes.data() + offset + e * stride;
    for (int c = 0; c < shape.columns; ++c) {
      for (int r = 0; r < shape.rows; ++r) {
        *out++ = ReadComponent(element + c * layout.column_stride + r * layout.component_size, type,
                               normalized);
      }
    }
  }
}

}  // namespace

GltfAccessors::GltfAccessors(const json& document, const GltfLists& lists,
                             const GltfViewBytes& views, const GltfErrors& errors,
                             uint64_t budget_bytes)
    : views_(views), errors_(errors), budget_bytes_(budget_bytes) {
  definitions_ = errors.OptionalList(document, lists.accessors.get(), "accessors");
  view_definitions_ = errors.OptionalList(document, lists.buffer_views.get(), "bufferViews");
  if (view_definitions_ && view_definitions_->size() != views.size()) {
    errors.Fail("/bufferViews", "internal: bufferView bytes and definitions differ in count");
  }
  cache_.resize(size());
  planned_takes_.resize(size());
  taken_.resize(size());
}

std::string GltfAccessors::Pointer(size_t index) const {
  return fmt::format("/accessors/{}", index);
}

const AccessorData& GltfAccessors::Get(size_t index) {
  // Only an empty accessor (no values to lose) may be read after its last take.
  if (taken_[index] && cache_[index]->count > 0) {
    ThrowInternal(fmt::format("GltfAccessors::Get: {} read after its last take", Pointer(index)));
  }
  if (!cache_[index]) cache_[index] = std::make_unique<AccessorData>(Decode(index));
  return *cache_[index];
}

std::vector<double> GltfAccessors::TakeValues(size_t index) {
  Get(index);
  AccessorData& data = *cache_[index];
  if (planned_takes_[index] > 1) {
    --planned_takes_[index];
    return data.values;
  }
  if (planned_takes_[index] == 0) {
    ThrowInternal(
        fmt::format("GltfAccessors::TakeValues: {} taken more often than planned", Pointer(index)));
  }
  planned_takes_[index] = 0;
  taken_[index] = true;
  return std::move(data.values);
}

AccessorData GltfAccessors::Decode(size_t index) {
  const std::string pointer = Pointer(index);
  const json accessor = definitions_->At(index);
  if (!accessor.is_object()) errors_.Fail(pointer, "expected an object");
  AccessorData data;
  data.component_type =
      static_cast<int>(errors_.OptionalCount(accessor, "componentType", pointer, 0));
  const int component_size = ComponentSize(data.component_type);
  if (component_size == 0) {
    errors_.Fail(pointer + "/componentType",
                 "expected 5120, 5121, 5122, 5123, 5125 or 5126 (glTF 2.0 §3.6.2.2)");
  }
  const Shape shape = ShapeOf(errors_.OptionalString(accessor, "type", pointer));
  if (shape.columns == 0) {
    errors_.Fail(pointer + "/type", "expected SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4");
  }
  data.components = shape.columns * shape.rows;
  if (accessor.contains("normalized") && !accessor["normalized"].is_boolean()) {
    errors_.Fail(pointer + "/normalized", "expected true or false");
  }
  data.normalized = accessor.value("normalized", false);
  if (data.normalized &&
      (data.component_type == kGltfFloat || data.component_type == kGltfUnsignedInt)) {
    errors_.Fail(pointer + "/normalized", "normalized is not allowed for FLOAT or UNSIGNED_INT");
  }
  // The schema says count >= 1, but real files (exporter test fixtures, emptied tracks) carry 0;
  // decode it as empty and let the caller decide what an empty accessor means for it.
  data.count = errors_.OptionalCount(accessor, "count", pointer, 0);
  if (data.count == 0) return data;
  // Check the claim against the budget before allocating anything.
  const uint64_t bytes = static_cast<uint64_t>(data.count) * data.components * sizeof(double);
  if (data.count > budget_bytes_ || bytes > budget_bytes_ - used_bytes_) {
    errors_.Fail(pointer + "/count",
                 fmt::format("{} elements is more than this file's data can hold", data.count));
  }
  used_bytes_ += bytes;
  data.values.assign(data.count * static_cast<size_t>(data.components), 0.0);

  const Layout layout = LayoutOf(shape, component_size);
  if (accessor.contains("bufferView")) {
    const size_t view_index =
        errors_.Index(accessor, "bufferView", pointer, views_.size(), "bufferViews");
    const std::string& view = views_[view_index];
    const size_t offset = errors_.OptionalCount(accessor, "byteOffset", pointer, 0);
    const size_t stride =
        errors_.OptionalCount(view_definitions_->At(view_index), "byteStride",
                              fmt::format("/bufferViews/{}", view_index), layout.element_size);
    if (stride < layout.element_size) {
      errors_.Fail(fmt::format("/bufferViews/{}/byteStride", view_index),
                   fmt::format("byteStride {} is smaller than the {}-byte elements of {}", stride,
                               layout.element_size, pointer));
    }
    // The last element must end inside the view: offset + stride * (count - 1) + element size.
    if (offset > view.size() || stride == 0 || (data.count - 1) > (view.size() - offset) / stride ||
        offset + stride * (data.count - 1) + layout.element_size > view.size()) {
      errors_.Fail(pointer, fmt::format("{} elements from byte {} with stride {} do not fit "
                                        "bufferView {} ({} bytes)",
                                        data.count, offset, stride, view_index, view.size()));
    }
    ReadElements(view, offset, stride, data.count, shape, layout, data.component_type,
                 data.normalized, data.values.data());
  }
  if (accessor.contains("sparse")) {
    ApplySparse(accessor["sparse"], pointer + "/sparse", shape, data);
  }
  return data;
}

void GltfAccessors::ApplySparse(const json& sparse, const std::string& pointer, Shape shape,
                                AccessorData& data) {
  if (!sparse.is_object()) errors_.Fail(pointer, "expected an object");
  const size_t count = errors_.OptionalCount(sparse, "count", pointer, 0);
  if (count == 0 || count > data.count) {
    errors_.Fail(pointer + "/count",
                 fmt::format("expected 1 to {} substituted elements", data.count));
  }
  const json& indices = errors_.Object(sparse, "indices", pointer);
  const json& values = errors_.Object(sparse, "values", pointer);
  auto view_of = [&](const json& part, const std::string& part_pointer) -> const std::string& {
    return views_[errors_.Index(part, "bufferView", part_pointer, views_.size(), "bufferViews")];
  };
  const std::string indices_pointer = pointer + "/indices";
  const std::string values_pointer = pointer + "/values";
  const int index_type =
      static_cast<int>(errors_.OptionalCount(indices, "componentType", indices_pointer, 0));
  if (index_type != kGltfUnsignedByte && index_type != kGltfUnsignedShort &&
      index_type != kGltfUnsignedInt) {
    errors_.Fail(indices_pointer + "/componentType", "expected 5121, 5123 or 5125");
  }
  const std::string& index_view = view_of(indices, indices_pointer);
  const size_t index_offset = errors_.OptionalCount(indices, "byteOffset", indices_pointer, 0);
  const size_t index_size = static_cast<size_t>(ComponentSize(index_type));
  if (index_offset > index_view.size() || count > (index_view.size() - index_offset) / index_size) {
    errors_.Fail(indices_pointer, fmt::format("{} indices do not fit their bufferView", count));
  }
  const std::string& value_view = view_of(values, values_pointer);
  const size_t value_offset = errors_.OptionalCount(values, "byteOffset", values_pointer, 0);
  // Substitute values are tightly packed elements of the accessor's own layout.
  const Layout layout = LayoutOf(shape, ComponentSize(data.component_type));
  if (value_offset > value_view.size() ||
      count > (value_view.size() - value_offset) / layout.element_size) {
    errors_.Fail(values_pointer, fmt::format("{} values do not fit their bufferView", count));
  }
  std::vector<double> substitutes(count * static_cast<size_t>(data.components));
  ReadElements(value_view, value_offset, layout.element_size, count, shape, layout,
               data.component_type, data.normalized, substitutes.data());
  double previous = -1;
  for (size_t i = 0; i < count; ++i) {
    const double target =
        ReadComponent(index_view.data() + index_offset + i * index_size, index_type, false);
    // The spec requires strictly increasing indices; they must also address an element.
    if (target <= previous || target >= static_cast<double>(data.count)) {
      errors_.Fail(indices_pointer, fmt::format("index {} ({}) is not increasing or is not below "
                                                "the accessor's count {}",
                                                i, target, data.count));
    }
    previous = target;
    std::copy_n(substitutes.data() + i * data.components, data.components,
                data.values.data() + static_cast<size_t>(target) * data.components);
  }
}

}  // namespace animconv
