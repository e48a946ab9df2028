#include "formats/gltf/gltf_mesh_quantize_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "animconv/quaternion.h"
#include "formats/gltf/gltf.h"
#include "formats/gltf/gltf_mesh_quantize.h"

namespace animconv::mesh_test {

using nlohmann::json;
using testing::GltfFixture;
using testing::JsonOfGlb;

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

std::vector<double> Output::Element(size_t a, size_t i) const {
  const json& accessor = document["accessors"][a];
  const size_t view_index = accessor["bufferView"].get<size_t>();
  const json& view = document["bufferViews"][view_index];
  const std::string& bytes =
      dynamic_cast<const GltfDocument&>(*asset.source_document).buffer_views.at(view_index);
  const size_t components = accessor["type"] == "VEC2"   ? 2
                            : accessor["type"] == "VEC3" ? 3
                            : accessor["type"] == "MAT4" ? 16
                                                         : 4;
  const int type = accessor["componentType"].get<int>();
  const size_t size = static_cast<size_t>(ComponentSize(type));
  const size_t stride = view.value("byteStride", components * size);
  const char* data = bytes.data() + accessor.value("byteOffset", size_t{0}) + i * stride;
  const bool normalized = accessor.value("normalized", false);
  std::vector<double> out;
  for (size_t c = 0; c < components; ++c) {
    const char* at = data + c * size;
    double value = 0;
    double max = 1;
    if (type == kGltfFloat) {
      float f;
      std::memcpy(&f, at, 4);
      value = f;
    } else if (type == kGltfByte) {
      value = static_cast<int8_t>(*at), max = 127;
    } else if (type == kGltfUnsignedByte) {
      value = static_cast<uint8_t>(*at), max = 255;
    } else if (type == kGltfShort) {
      int16_t s;
      std::memcpy(&s, at, 2);
      value = s, max = 32767;
    } else if (type == kGltfUnsignedShort) {
      uint16_t s;
      std::memcpy(&s, at, 2);
      value = s, max = 65535;
    }
    out.push_back(normalized ? std::max(value / max, -1.0) : value);
  }
  return out;
}

size_t Output::Attribute(const char* name) const {
  return document["meshes"][0]["primitives"][0]["attributes"][name].get<size_t>();
}

size_t Output::Target(size_t t, const char* name) const {
  return document["meshes"][0]["primitives"][0]["targets"][t][name].get<size_t>();
}

int Output::Type(size_t a) const { return document["accessors"][a]["componentType"].get<int>(); }

std::string Output::Note() const {
  for (const Diagnostic& note : notes) {
    if (note.text.rfind("--compress-meshes:", 0) == 0) return note.text;
  }
  return "";
}

// p placed by the node's matrix, or by its translation, rotation and scale.
Vec3 Place(const json& node, const std::vector<double>& p) {
  if (node.contains("matrix")) {
    const std::vector<double> m = node["matrix"].get<std::vector<double>>();
    Vec3 out;
    for (size_t row = 0; row < 3; ++row) {
      out[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
    }
    return out;
  }
  const Vec3 t = node.value("translation", Vec3{0, 0, 0});
  const Quat r = node.value("rotation", Quat{0, 0, 0, 1});
  const Vec3 s = node.value("scale", Vec3{1, 1, 1});
  const Vec3 rotated = Rotate(r, {s[0] * p[0], s[1] * p[1], s[2] * p[2]});
  return {rotated[0] + t[0], rotated[1] + t[1], rotated[2] + t[2]};
}

// The same without translation: where a morph delta moves a vertex.
Vec3 Turn(const json& node, const std::vector<double>& d) {
  const Vec3 origin = Place(node, {0, 0, 0});
  const Vec3 moved = Place(node, d);
  return {moved[0] - origin[0], moved[1] - origin[1], moved[2] - origin[2]};
}

double Distance(const Vec3& a, const Vec3& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

double AngleDegrees(const std::vector<double>& a, const std::vector<double>& b) {
  const double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const double la = std::hypot(a[0], a[1], a[2]);
  const double lb = std::hypot(b[0], b[1], b[2]);
  return std::acos(std::clamp(dot / (la * lb), -1.0, 1.0)) * 180 / kPi;
}

GltfFixture ShapeFixture() {
  GltfFixture gltf;
  gltf.AddNodes({"root", "shape"});
  json& nodes = gltf.document()["nodes"];
  nodes[0]["children"] = {1};
  nodes[1]["mesh"] = 0;
  nodes[1]["translation"] = {1.5, -2, 0.25};
  nodes[1]["rotation"] = {0.2, 0.3, 0.1, 0.9273618495495703};
  nodes[1]["scale"] = {2, 0.5, 1.25};
  std::vector<float> positions, normals, uvs, colors, deltas, normal_deltas;
  for (size_t i = 0; i < kVertices; ++i) {
    const double a = 0.37 * static_cast<double>(i);
    positions.insert(positions.end(), {static_cast<float>(-1 + 3 * std::sin(a) * std::sin(a)),
                                       static_cast<float>(0.7 * std::cos(1.3 * a)),
                                       static_cast<float>(0.01 * static_cast<double>(i))});
    const Vec3 n{std::sin(a), std::cos(a) * 0.6, 0.8};
    const double length = std::hypot(n[0], n[1], n[2]);
    normals.insert(normals.end(),
                   {static_cast<float>(n[0] / length), static_cast<float>(n[1] / length),
                    static_cast<float>(n[2] / length)});
    uvs.insert(uvs.end(), {static_cast<float>(std::fmod(a, 1.0)),
                           static_cast<float>(0.5 + 0.4 * std::sin(a))});
    colors.insert(colors.end(), {static_cast<float>(0.5 + 0.5 * std::cos(a)), 0.25f,
                                 static_cast<float>(std::fmod(a * 0.1, 1.0)), 1.0f});
    deltas.insert(deltas.end(), {static_cast<float>(0.2 * std::sin(2 * a)), 0.0f,
                                 static_cast<float>(0.05 * std::cos(a))});
    normal_deltas.insert(normal_deltas.end(),
                         {static_cast<float>(0.1 * std::cos(a)), -0.05f, 0.0f});
  }
  const auto add = [&](const std::vector<float>& values, const char* type, bool bounds) {
    return gltf.AddAttribute(values, type, values.size() / kVertices, bounds);
  };
  const size_t position = add(positions, "VEC3", true);
  const size_t normal = add(normals, "VEC3", false);
  const size_t uv = add(uvs, "VEC2", false);
  const size_t color = add(colors, "VEC4", false);
  const size_t delta = add(deltas, "VEC3", true);
  const size_t normal_delta = add(normal_deltas, "VEC3", false);
  gltf.document()["meshes"] = {
      {{"primitives",
        {{{"attributes",
           {{"POSITION", position}, {"NORMAL", normal}, {"TEXCOORD_0", uv}, {"COLOR_0", color}}},
          {"targets", {{{"POSITION", delta}, {"NORMAL", normal_delta}}}}}}},
       {"weights", {0.0}}}};
  gltf.AddChannel(0, 0, "translation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 0, 1, 0}, "VEC3", 2));
  return gltf;
}

Output Render(const GltfFixture& gltf, bool quantize, double tolerance) {
  const Asset source = ReadGltf(gltf.Glb(), ReadOptions{});
  Output out;
  ConvertOptions options;
  options.write.gltf_compression = GltfCompression{};
  options.write.gltf_compression->quantize_meshes = quantize;
  options.write.gltf_compression->mesh_position_fraction = tolerance;
  const std::string glb = RenderAsset(source, *FindFormat("glb"), options, &out.notes);
  out.document = JsonOfGlb(glb);
  out.asset = ReadGltf(glb, ReadOptions{});
  return out;
}

// The size the bound is a fraction of: the largest side of the positions' bounding box.
double Extent(const Output& plain) {
  const json& accessor = plain.document["accessors"][plain.Attribute("POSITION")];
  double extent = 0;
  for (size_t c = 0; c < 3; ++c) {
    extent = std::max(extent, accessor["max"][c].get<double>() - accessor["min"][c].get<double>());
  }
  return extent;
}

GltfFixture SkinnedFixture() {
  GltfFixture gltf = ShapeFixture();
  json& document = gltf.document();
  document["animations"] = json::array();
  json& shape = document["nodes"][1];
  shape.erase("translation"), shape.erase("rotation"), shape.erase("scale");
  document["nodes"][0].erase("children");
  document["nodes"][0]["translation"] = {0, 1, 0};
  const std::vector<float> inverse_bind = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5f, -1, 2, 1};
  const size_t matrices = gltf.AddAccessor({{"bufferView", gltf.AddView(inverse_bind)},
                                            {"componentType", kGltfFloat},
                                            {"count", 1},
                                            {"type", "MAT4"}});
  document["skins"] = {{{"joints", {0}}, {"inverseBindMatrices", matrices}}};
  shape["skin"] = 0;
  const std::vector<uint8_t> joints(kVertices * 4, 0);
  std::vector<float> weights;
  for (size_t i = 0; i < kVertices; ++i) weights.insert(weights.end(), {1, 0, 0, 0});
  json& attributes = document["meshes"][0]["primitives"][0]["attributes"];
  attributes["JOINTS_0"] = gltf.AddAccessor({{"bufferView", gltf.AddView(joints)},
                                             {"componentType", kGltfUnsignedByte},
                                             {"count", kVertices},
                                             {"type", "VEC4"}});
  attributes["WEIGHTS_0"] = gltf.AddAccessor({{"bufferView", gltf.AddView(weights)},
                                              {"componentType", kGltfFloat},
                                              {"count", kVertices},
                                              {"type", "VEC4"}});
  gltf.AddChannel(0, 0, "rotation", gltf.AddFloats({0.0f, 1.0f}, "SCALAR", 2),
                  gltf.AddFloats({0, 0, 0, 1, 0, 0.6f, 0, 0.8f}, "VEC4", 2));
  return gltf;
}

}  // namespace animconv::mesh_test
