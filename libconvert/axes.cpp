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

void TransformChannel(const AxisMap& map, Channel& channel) {
  const size_t elements = channel.values.size() / static_cast<size_t>(channel.width);
  for (size_t e = 0; e < elements; ++e) {
    double* value = channel.values.data() + e * static_cast<size_t>(channel.width);
    switch (channel.path) {
      case Path::kTranslation: {
        const Vec3 v = TransformVector(map, {value[0], value[1], value[2]});
        std::copy(v.begin(), v.end(), value);
        break;
      }
      case Path::kRotation: {
        const Quat q = TransformRotation(map, {value[0], value[1], value[2], value[3]});
        std::copy(q.begin(), q.end(), value);
        break;
      }
      case Path::kScale: {
        const Vec3 s = PermuteScale(map, {value[0], value[1], value[2]});
        std::copy(s.begin(), s.end(), value);
        break;
      }
      case Path::kWeights:
        return;
    }
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
