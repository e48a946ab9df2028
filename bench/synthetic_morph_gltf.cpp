// The morph cube. Everything is computed in double precision with + - * / std::sqrt, std::sin
// and std::cos, then stored as float32 (or rounded to unsigned short), and the JSON is printed by
// nlohmann's shortest round-trip formatting, so the bytes do not depend on the machine (the build
// also turns off floating-point contraction for this file: an FMA would change the last bits).
// Buffers are little-endian as glTF requires; like every platform animconv targets, the host is.
//
// Geometry: an axis-aligned cube of side 1 centred on the origin, each face its own grid of
// (segments + 1)^2 vertices with the face's normal (sharp edges), two counter-clockwise triangles
// per cell seen from outside. COLOR_0 (normalized UNSIGNED_SHORT RGBA) is the position mapped
// from [-0.5, 0.5] to [0, 1] per channel, alpha 1, so corners hold exactly 0 and 65535.
//
// Morph targets (names in mesh.extras.targetNames):
//   0 "sphere"  every vertex moves onto the sphere of radius 0.62 along its direction from the
//               centre; the normal becomes that direction (delta = direction - face normal)
//   1 "twist"   rotation about +Y by y * 90 degrees (top +45, bottom -45); normals rotate the
//               same way (an approximation: the twist's shear is ignored)
//
// Animation "pulse" (LINEAR, 9 keys every 0.25 s over 2 s):
//   sphere(t) = sin^2(pi t / 2)    0 -> 1 at 1 s -> 0
//   twist(t)  = sin(pi t)          0 -> 1 -> -1 -> 0; negative weights twist the other way
#include "bench/synthetic_morph_gltf.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

namespace animconv::bench {
namespace {

using nlohmann::ordered_json;
using V3 = std::array<double, 3>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kSphereRadius = 0.62;
constexpr int kKeys = 9;
constexpr double kKeyInterval = 0.25;

// glTF 2.0 §3.6.2.2 component types and §3.6.1 bufferView targets.
constexpr int kFloat = 5126;
constexpr int kUnsignedShort = 5123;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

struct Face {
  V3 normal, u, v;  // u x v = normal, so (u, v) grid cells wind counter-clockwise from outside
};

const Face kFaces[6] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
    {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
    {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
};

struct Mesh {
  std::vector<float> positions, normals;
  std::vector<uint16_t> colors, indices;
  std::vector<float> sphere_positions, sphere_normals, twist_positions, twist_normals;
};

V3 RotateY(const V3& p, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * p[0] + s * p[2], p[1], -s * p[0] + c * p[2]};
}

void Push(std::vector<float>& out, const V3& value) {
  for (const double component : value) out.push_back(static_cast<float>(component));
}

void PushDelta(std::vector<float>& out, const V3& to, const V3& from) {
  Push(out, {to[0] - from[0], to[1] - from[1], to[2] - from[2]});
}

Mesh BuildMesh(int segments) {
  Mesh mesh;
  const int side = segments + 1;
  for (const Face& face : kFaces) {
    const auto first = static_cast<uint16_t>(mesh.positions.size() / 3);
    for (int j = 0; j < side; ++j) {
      for (int i = 0; i < side; ++i) {
        const double a = static_cast<double>(i) / segments - 0.5;
        const double b = static_cast<double>(j) / segments - 0.5;
        V3 p;
        for (int c = 0; c < 3; ++c) p[c] = 0.5 * face.normal[c] + a * face.u[c] + b * face.v[c];
        Push(mesh.positions, p);
        Push(mesh.normals, face.normal);
        for (int c = 0; c < 3; ++c) {
          mesh.colors.push_back(static_cast<uint16_t>(std::lround((p[c] + 0.5) * 65535)));
        }
        mesh.colors.push_back(65535);

        const double length = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        const V3 direction = {p[0] / length, p[1] / length, p[2] / length};
        PushDelta(mesh.sphere_positions,
                  {direction[0] * kSphereRadius, direction[1] * kSphereRadius,
                   direction[2] * kSphereRadius},
                  p);
        PushDelta(mesh.sphere_normals, direction, face.normal);
        const double angle = p[1] * (kPi / 2);
        PushDelta(mesh.twist_positions, RotateY(p, angle), p);
        PushDelta(mesh.twist_normals, RotateY(face.normal, angle), face.normal);
      }
    }
    for (int j = 0; j < segments; ++j) {
      for (int i = 0; i < segments; ++i) {
        const auto corner = static_cast<uint16_t>(first + j * side + i);
        const auto right = static_cast<uint16_t>(corner + 1);
        const auto up = static_cast<uint16_t>(corner + side);
        const auto diagonal = static_cast<uint16_t>(up + 1);
        mesh.indices.insert(mesh.indices.end(), {corner, right, diagonal, corner, diagonal, up});
      }
    }
  }
  return mesh;
}

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

// Builds the single buffer and its bufferViews / accessors, 4-byte aligned.
class Packer {
 public:
  template <typename T>
  size_t View(const std::vector<T>& values, int target) {
    const size_t offset = bytes_.size();
    bytes_.resize(offset + values.size() * sizeof(T));
    std::memcpy(bytes_.data() + offset, values.data(), values.size() * sizeof(T));
    bytes_.resize((bytes_.size() + 3) & ~size_t{3}, '\0');
    ordered_json view = {
        {"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(T)}};
    if (target != 0) view["target"] = target;
    views_.push_back(view);
    return views_.size() - 1;
  }

  // A float accessor; with bounds (required for POSITION and animation inputs) when asked.
  size_t Floats(const std::vector<float>& values, const char* type, int components, int target,
                bool bounds) {
    ordered_json accessor = {{"bufferView", View(values, target)},
                             {"componentType", kFloat},
                             {"count", values.size() / components},
                             {"type", type}};
    if (bounds) {
      ordered_json low = ordered_json::array(), high = ordered_json::array();
      for (int c = 0; c < components; ++c) {
        float lo = values[c], hi = values[c];
        for (size_t i = c; i < values.size(); i += components) {
          lo = std::min(lo, values[i]);
          hi = std::max(hi, values[i]);
        }
        low.push_back(lo);
        high.push_back(hi);
      }
      accessor["min"] = low;
      accessor["max"] = high;
    }
    accessors_.push_back(accessor);
    return accessors_.size() - 1;
  }

  size_t Shorts(const std::vector<uint16_t>& values, const char* type, int components, int target,
                bool normalized) {
    ordered_json accessor = {{"bufferView", View(values, target)},
                             {"componentType", kUnsignedShort}};
    if (normalized) accessor["normalized"] = true;
    accessor["count"] = values.size() / components;
    accessor["type"] = type;
    accessors_.push_back(accessor);
    return accessors_.size() - 1;
  }

  void Finish(ordered_json& document) const {
    document["accessors"] = accessors_;
    document["bufferViews"] = views_;
    document["buffers"] = {{{"byteLength", bytes_.size()},
                            {"uri", "data:application/octet-stream;base64," + Base64(bytes_)}}};
  }

 private:
  std::string bytes_;
  ordered_json views_ = ordered_json::array();
  ordered_json accessors_ = ordered_json::array();
};

}  // namespace

std::string SyntheticMorphCubeGltf(int segments) {
  const Mesh mesh = BuildMesh(segments);
  std::vector<float> times, weights;
  for (int k = 0; k < kKeys; ++k) {
    const double t = k * kKeyInterval;
    const double half = std::sin(kPi * t / 2);
    times.push_back(static_cast<float>(t));
    weights.push_back(static_cast<float>(half * half));
    weights.push_back(static_cast<float>(std::sin(kPi * t)));
  }

  Packer packer;
  const size_t indices = packer.Shorts(mesh.indices, "SCALAR", 1, kElementArrayBuffer, false);
  const size_t position = packer.Floats(mesh.positions, "VEC3", 3, kArrayBuffer, true);
  const size_t normal = packer.Floats(mesh.normals, "VEC3", 3, kArrayBuffer, false);
  const size_t color = packer.Shorts(mesh.colors, "VEC4", 4, kArrayBuffer, true);
  const size_t sphere_position =
      packer.Floats(mesh.sphere_positions, "VEC3", 3, kArrayBuffer, true);
  const size_t sphere_normal = packer.Floats(mesh.sphere_normals, "VEC3", 3, kArrayBuffer, false);
  const size_t twist_position = packer.Floats(mesh.twist_positions, "VEC3", 3, kArrayBuffer, true);
  const size_t twist_normal = packer.Floats(mesh.twist_normals, "VEC3", 3, kArrayBuffer, false);
  const size_t input = packer.Floats(times, "SCALAR", 1, 0, true);
  const size_t output = packer.Floats(weights, "SCALAR", 1, 0, false);

  ordered_json document = {
      {"asset", {{"version", "2.0"}, {"generator", "animconv_gen_morph_gltf"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0}}}}},
      {"nodes", {{{"name", "morph_cube"}, {"mesh", 0}}}},
      {"meshes",
       {{{"name", "morph_cube"},
         {"primitives",
          {{{"attributes", {{"POSITION", position}, {"NORMAL", normal}, {"COLOR_0", color}}},
            {"indices", indices},
            {"targets",
             {{{"POSITION", sphere_position}, {"NORMAL", sphere_normal}},
              {{"POSITION", twist_position}, {"NORMAL", twist_normal}}}}}}},
         {"weights", {0, 0}},
         {"extras", {{"targetNames", {"sphere", "twist"}}}}}}},
      {"animations",
       {{{"name", "pulse"},
         {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}},
         {"samplers", {{{"input", input}, {"interpolation", "LINEAR"}, {"output", output}}}}}}},
  };
  packer.Finish(document);
  return document.dump(1) + "\n";
}

}  // namespace animconv::bench
