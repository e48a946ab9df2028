#include "animconv/axes.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "animconv/error.h"
#include "libconvert/parallel.h"

namespace animconv {

int AxisMap::determinant() const {
  // The permutation's parity times the product of signs.
  int inversions = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) inversions += source[i] > source[j] ? 1 : 0;
  }
  return (inversions % 2 == 0 ? 1 : -1) * sign[0] * sign[1] * sign[2];
}

Mirror ParseMirror(std::string_view text) {
  if (text == "none") return Mirror::kNone;
  if (text == "x") return Mirror::kX;
  if (text == "z") return Mirror::kZ;
  ThrowUsage("--mirror must be one of none, x, z (got '" + std::string(text) + "')");
}

const char* MirrorName(Mirror mirror) {
  switch (mirror) {
    case Mirror::kNone:
      return "none";
    case Mirror::kX:
      return "x";
    case Mirror::kZ:
      return "z";
  }
  return "?";
}

AxisMap MirrorAxisMap(Mirror mirror) {
  AxisMap map;
  if (mirror == Mirror::kX) map.sign = {-1, 1, 1};
  if (mirror == Mirror::kZ) map.sign = {1, 1, -1};
  return map;
}

Vec3 TransformVector(const AxisMap& map, const Vec3& v) {
  return {map.sign[0] * v[map.source[0]], map.sign[1] * v[map.source[1]],
          map.sign[2] * v[map.source[2]]};
}

Quat TransformRotation(const AxisMap& map, const Quat& q) {
  const Vec3 axis = TransformVector(map, {q[0], q[1], q[2]});
  const double det = map.determinant();
  return {det * axis[0], det * axis[1], det * axis[2], q[3]};
}

namespace {

Vec3 PermuteScale(const AxisMap& map, const Vec3& s) {
  return {s[map.source[0]], s[map.source[1]], s[map.source[2]]};
}

// Each output component is one input component times +1 or -1: TransformVector for a
// translation, TransformRotation's axis (times the determinant) for a rotation, the bare
// permutation for a scale. The factors are worked out once per channel rather than per key (the
// basis change of a 50 MB Unity CSV was a sixth of its three.js conversion's CPU time,
// docs/performance.md); the products are those of the functions above, bit for bit.
void TransformChannel(const AxisMap& map, Channel& channel) {
  if (channel.path == Path::kWeights) return;
  const double det = channel.path == Path::kRotation ? map.determinant() : 1;
  std::array<double, 3> factor{};
  for (int i = 0; i < 3; ++i) {
    factor[i] = channel.path == Path::kScale ? 1.0 : det * map.sign[i];
  }
  const std::array<int, 3> source = map.source;
  const size_t width = static_cast<size_t>(channel.width);
  const size_t elements = channel.values.size() / width;
  double* value = channel.values.data();
  for (size_t e = 0; e < elements; ++e, value += width) {
    const double a = value[source[0]], b = value[source[1]], c = value[source[2]];
    value[0] = factor[0] * a;
    value[1] = factor[1] * b;
    value[2] = factor[2] * c;
  }
}

Facing TransformFacing(const AxisMap& map, Facing facing) {
  if (facing == Facing::kUnknown || map.source[2] != 2) return Facing::kUnknown;
  const bool plus = (facing == Facing::kPlusZ) == (map.sign[2] > 0);
  return plus ? Facing::kPlusZ : Facing::kMinusZ;
}

}  // namespace

void ChangeBasis(Asset& asset, const AxisMap& map) {
  for (Node& node : asset.rig.nodes) {
    node.rest_translation = TransformVector(map, node.rest_translation);
    node.rest_rotation = TransformRotation(map, node.rest_rotation);
    node.rest_scale = PermuteScale(map, node.rest_scale);
    for (Vec3& point : node.rest_mesh_support) point = TransformVector(map, point);
  }
  ForEachChannel(asset.clips,
                 [&map](size_t, size_t, Channel& channel) { TransformChannel(map, channel); });
  if (map.determinant() < 0) {
    asset.coordinates.handedness =
        asset.coordinates.handedness == Handedness::kRight ? Handedness::kLeft : Handedness::kRight;
  }
  asset.coordinates.facing = TransformFacing(map, asset.coordinates.facing);
}

void ScaleLengths(Asset& asset, double factor) {
  for (Node& node : asset.rig.nodes) {
    for (double& value : node.rest_translation) value *= factor;
    for (Vec3& point : node.rest_mesh_support) {
      for (double& value : point) value *= factor;
    }
  }
  for (Clip& clip : asset.clips) {
    for (Channel& channel : clip.channels) {
      if (channel.path != Path::kTranslation) continue;
      for (double& value : channel.values) value *= factor;
    }
  }
}

void ConvertHandedness(Asset& asset, Handedness target, Mirror mirror) {
  if (asset.coordinates.handedness == target) return;
  if (mirror == Mirror::kNone) {
    asset.coordinates.handedness = target;
    return;
  }
  ChangeBasis(asset, MirrorAxisMap(mirror));
}

}  // namespace animconv
