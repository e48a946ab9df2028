// What an FBX's own animation curves say about their interpolation, read from the file before
// Assimp: Assimp 5.2 reads only an AnimationCurve's KeyTime and KeyValueFloat and plays every
// segment as a straight line (FBXConverter.cpp, InterpolateKeys), whatever its KeyAttrFlags say
// (constant, constant-next, cubic with slopes and weights in KeyAttrDataFloat).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace animconv {

// One curve of a node's Lcl Translation/Rotation/Scaling whose keys are not all linear.
struct FbxNonLinearCurve {
  std::string node;          // the Model's name, as Assimp names the node
  std::string property;      // "Lcl Translation", "Lcl Rotation", "Lcl Scaling"
  char component = 'X';      // X, Y or Z
  size_t constant_keys = 0;  // segments held (constant or constant-next)
  size_t cubic_keys = 0;     // cubic segments
  // The largest difference, over the curve's segments, between the file's curve and the straight
  // line between the same keys (what Assimp plays), in the curve's own unit: file length units,
  // degrees, or a scale ratio. Cubic segments are sampled 64 times.
  double deviation = 0;
};

// Binary (7.x) or ASCII FBX. A file whose structure this scan cannot follow gives no curves (it
// is left to Assimp, which reports it). At most `max_keys` keys are read per curve.
std::vector<FbxNonLinearCurve> FindNonLinearFbxCurves(std::string_view bytes, uint64_t max_keys);

// The warnings for `curves` whose deviation exceeds animconv's tolerances (0.1 mm at
// `metres_per_unit`, 0.1 deg, 0.1 % scale): one per node and property, naming the node, the
// curves and the bound; `within` counts the curves left unsaid (non-linear, within them).
std::vector<std::string> NonLinearCurveWarnings(const std::vector<FbxNonLinearCurve>& curves,
                                                double metres_per_unit, size_t* within);

// The value of an FBX cubic segment from (0, v0) to (1, v1) at normalized time x in [0, 1]: a
// Bezier whose inner control points sit at x = w0 and x = 1 - w1 with slopes s0, s1 (per unit of
// x, i.e. the file's per-second slope times the segment's length in seconds).
double FbxCubicAt(double v0, double v1, double s0, double s1, double w0, double w1, double x);

}  // namespace animconv
