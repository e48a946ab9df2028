#include "libconvert/value_error.h"

#include <algorithm>
#include <cmath>

#include "animconv/quaternion.h"

namespace animconv {

double ValueError(Path path, const double* reference, size_t reference_width, const double* value,
                  size_t value_width) {
  double error = 0;
  switch (path) {
    case Path::kRotation:
      return AngleBetween(LoadQuat(reference), LoadQuat(value));
    case Path::kTranslation:
      return std::hypot(reference[0] - value[0], reference[1] - value[1], reference[2] - value[2]);
    case Path::kScale:
      // A ratio to a scale near 0 is noise: a 0.001 -> 0.00276 wobble of a hidden object is not a
      // "176 %" error. Below kScaleRatioFloor the difference is divided by the floor instead, so
      // the error is continuous at the floor and finite at 0. At or above it the ratio is computed
      // as before, digit for digit, so --reduce keeps the same keys on every ordinary scale.
      for (size_t i = 0; i < 3; ++i) {
        error = std::max(error, std::abs(reference[i]) >= kScaleRatioFloor
                                    ? std::abs(value[i] / reference[i] - 1)
                                    : std::abs(value[i] - reference[i]) / kScaleRatioFloor);
      }
      return error;
    case Path::kWeights:
      for (size_t i = 0; i < std::max(reference_width, value_width); ++i) {
        const double a = i < reference_width ? reference[i] : 0;
        const double b = i < value_width ? value[i] : 0;
        error = std::max(error, std::abs(a - b));
      }
      return error;
  }
  return error;
}

}  // namespace animconv
