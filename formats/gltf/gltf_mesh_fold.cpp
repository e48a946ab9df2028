#include "formats/gltf/gltf_mesh_fold.h"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "animconv/quaternion.h"
#include "formats/gltf/gltf_float32_text.h"
#include "formats/gltf/gltf_mesh_dequantize.h"
#include "formats/gltf/gltf_references.h"

namespace animconv {
namespace {

using nlohmann::json;
using Mat3 = std::array<double, 9>;  // column-major

// An affine map as a reader in doubles composes it from a node: x -> linear·x + offset.
struct Affine {
  Mat3 linear;
  Vec3 offset;
};

Mat3 Multiply(const Mat3& a, const Mat3& b) {
  Mat3 out{};
  for (size_t column = 0; column < 3; ++column) {
    for (size_t row = 0; row < 3; ++row) {
      for (size_t k = 0; k < 3; ++k) out[column * 3 + row] += a[k * 3 + row] * b[column * 3 + k];
    }
  }
  return out;
}

Vec3 Apply(const Mat3& m, const Vec3& v) {
  Vec3 out{0, 0, 0};
  for (size_t row = 0; row < 3; ++row) {
    for (size_t k = 0; k < 3; ++k) out[row] += m[k * 3 + row] * v[k];
  }
  return out;
}

std::optional<Mat3> Inverse(const Mat3& m) {
  // Columns a, b, c: the inverse's rows are b×c, c×a, a×b over the determinant.
  const Vec3 a{m[0], m[1], m[2]}, b{m[3], m[4], m[5]}, c{m[6], m[7], m[8]};
  const auto cross = [](const Vec3& u, const Vec3& v) {
    return Vec3{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  };
  const Vec3 rows[3] = {cross(b, c), cross(c, a), cross(a, b)};
  const double determinant = a[0] * rows[0][0] + a[1] * rows[0][1] + a[2] * rows[0][2];
  if (!std::isnormal(determinant)) return std::nullopt;
  Mat3 out;
  for (size_t row = 0; row < 3; ++row) {
    for (size_t column = 0; column < 3; ++column) {
      out[column * 3 + row] = rows[row][column] / determinant;
    }
  }
  return out;
}

// The rotation matrix three.js composes from q as it is (Matrix4.compose, no normalisation).
Mat3 RotationAsWritten(const Quat& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  const double x2 = x + x, y2 = y + y, z2 = z + z;
  const double xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const double wx = w * x2, wy = w * y2, wz = w * z2;
  return {1 - (yy + zz), xy + wz,       xz - wy,  //
          xy - wz,       1 - (xx + zz), yz + wx,  //
          xz + wy,       yz - wx,       1 - (xx + yy)};
}

// The transforms readers in doubles compose from `node`: its matrix; or its TRS with the rotation
// as written (three.js) and normalised (readers that normalise it).
std::vector<Affine> ReaderTransforms(const json& node) {
  if (const auto matrix = node.find("matrix"); matrix != node.end()) {
    const std::vector<double> m = matrix->get<std::vector<double>>();
    return {{{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]}, {m[12], m[13], m[14]}}};
  }
  const Vec3 t = node.value("translation", Vec3{0, 0, 0});
  const Quat r = node.value("rotation", Quat{0, 0, 0, 1});
  const Vec3 s = node.value("scale", Vec3{1, 1, 1});
  const Mat3 scale{s[0], 0, 0, 0, s[1], 0, 0, 0, s[2]};
  return {{Multiply(RotationAsWritten(r), scale), t},
          {Multiply(RotationAsWritten(Normalized(r)), scale), t}};
}

// |L⁻¹(t' − t − L·corner)| + ‖L⁻¹L' − step·I‖_F · reach: where the written map puts corner +
// step·code against where the plain one puts the same point, in the plain map's source units,
// for any code up to `reach` long (the Frobenius norm bounds the spectral one).
std::optional<double> FoldError(const Affine& plain, const Affine& written, const Vec3& corner,
                                double step, double reach) {
  const std::optional<Mat3> inverse = Inverse(plain.linear);
  if (!inverse) return std::nullopt;
  const Vec3 placed = Apply(plain.linear, corner);
  const Vec3 origin = Apply(*inverse, {written.offset[0] - plain.offset[0] - placed[0],
                                       written.offset[1] - plain.offset[1] - placed[1],
                                       written.offset[2] - plain.offset[2] - placed[2]});
  const Mat3 relative = Multiply(*inverse, written.linear);
  double squared = 0;
  for (size_t column = 0; column < 3; ++column) {
    for (size_t row = 0; row < 3; ++row) {
      const double e = relative[column * 3 + row] - (row == column ? step : 0);
      squared += e * e;
    }
  }
  return std::hypot(origin[0], origin[1], origin[2]) + std::sqrt(squared) * reach;
}

json Number(double value, bool float32_text) {
  return float32_text ? Float32Number(static_cast<float>(value)) : json(value);
}

}  // namespace

void FoldIntoNode(json& node, const Vec3& corner, double step, bool float32_text) {
  if (json* matrix = Find(node, "matrix")) {
    std::vector<double> m = matrix->get<std::vector<double>>();  // column-major
    for (size_t row = 0; row < 4; ++row) {
      m[12 + row] += m[row] * corner[0] + m[4 + row] * corner[1] + m[8 + row] * corner[2];
    }
    for (size_t k = 0; k < 12; ++k) m[k] *= step;
    json written = json::array();
    for (const double x : m) written.push_back(Number(x, float32_text));
    *matrix = std::move(written);
    return;
  }
  Vec3 translation{0, 0, 0};
  Quat rotation{0, 0, 0, 1};
  Vec3 scale{1, 1, 1};
  if (const json* t = Find(node, "translation")) translation = t->get<Vec3>();
  if (const json* r = Find(node, "rotation")) rotation = r->get<Quat>();
  if (const json* s = Find(node, "scale")) scale = s->get<Vec3>();
  // T R S translate(c) scale(k) = translate(T + R (S c)) R (S k): k is uniform.
  const Vec3 offset = Rotate(Normalized(rotation),
                             {scale[0] * corner[0], scale[1] * corner[1], scale[2] * corner[2]});
  node["translation"] = {Number(translation[0] + offset[0], float32_text),
                         Number(translation[1] + offset[1], float32_text),
                         Number(translation[2] + offset[2], float32_text)};
  node["scale"] = {Number(scale[0] * step, float32_text), Number(scale[1] * step, float32_text),
                   Number(scale[2] * step, float32_text)};
  if (float32_text && node.contains("rotation")) {
    for (json& x : node["rotation"]) x = Number(x.get<double>(), true);
  }
}

double NodeFoldError(const json& plain, const json& written, const Vec3& corner, double step,
                     double reach) {
  const std::vector<Affine> before = ReaderTransforms(plain);
  const std::vector<Affine> after = ReaderTransforms(written);
  double largest = 0;
  for (size_t k = 0; k < before.size(); ++k) {
    const std::optional<double> error = FoldError(before[k], after[k], corner, step, reach);
    if (!error) {
      // Singular (a zero scale draws the mesh flat): exact numbers fold exactly.
      json exact = plain;
      FoldIntoNode(exact, corner, step, false);
      return exact == written ? 0 : std::numeric_limits<double>::infinity();
    }
    largest = std::max(largest, *error);
  }
  return largest;
}

double MatricesFoldError(const std::vector<double>& matrices, const Vec3& corner, double step,
                         double reach) {
  const std::string bytes = FoldIntoMatrices(matrices, corner, step);
  double largest = 0;
  for (size_t k = 0; k + 16 <= matrices.size(); k += 16) {
    float stored[16];
    std::memcpy(stored, bytes.data() + k * 4, sizeof(stored));
    const auto affine = [](const auto& m) {
      return Affine{{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]}, {m[12], m[13], m[14]}};
    };
    const std::optional<double> error =
        FoldError(affine(&matrices[k]), affine(stored), corner, step, reach);
    // (A singular inverse bind matrix collapses the mesh; its float32 fold is not measured.)
    largest = std::max(largest, error.value_or(std::numeric_limits<double>::infinity()));
  }
  return largest;
}

}  // namespace animconv
