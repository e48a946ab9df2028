#include "libconvert/heading.h"

#include <algorithm>
#include <cmath>

namespace animconv {

double TwistAboutY(const Quat& rotation) {
  // Swing-twist: the twist about an axis keeps the quaternion's w and its vector part along the
  // axis; the rest is a swing about a horizontal axis, which turns nothing about +Y.
  const double y = rotation[1];
  const double w = rotation[3];
  if (std::hypot(y, w) < 1e-12) return 0;
  return WrapRadians(2 * std::atan2(y, w));
}

Quat TurnAboutY(double radians) { return {0, std::sin(radians / 2), 0, std::cos(radians / 2)}; }

double WrapRadians(double radians) {
  const double wrapped = std::remainder(radians, 2 * M_PI);
  return wrapped <= -M_PI ? wrapped + 2 * M_PI : wrapped;
}

RefinedTimes RefineKeyTimes(const std::vector<double>& seeds,
                            const std::function<double(double, double)>& error, double tolerance,
                            int max_halvings, size_t max_keys) {
  RefinedTimes refined;
  if (seeds.empty()) return refined;
  refined.seconds.push_back(seeds.front());
  struct Segment {
    double from, to;
    int halvings;
  };
  std::vector<Segment> pending;  // left to right: the next segment is at the back
  for (size_t i = 1; i < seeds.size(); ++i) {
    pending.push_back({seeds[i - 1], seeds[i], 0});
    while (!pending.empty()) {
      const Segment segment = pending.back();
      pending.pop_back();
      const double measured = error(segment.from, segment.to);
      const double middle = 0.5 * (segment.from + segment.to);
      const bool can_split =
          segment.halvings < max_halvings && middle > segment.from && middle < segment.to &&
          refined.seconds.size() + pending.size() + (seeds.size() - i) < max_keys;
      if (measured <= tolerance || !can_split) {
        refined.seconds.push_back(segment.to);
        refined.largest_error = std::max(refined.largest_error, measured);
        continue;
      }
      pending.push_back({middle, segment.to, segment.halvings + 1});
      pending.push_back({segment.from, middle, segment.halvings + 1});
    }
  }
  return refined;
}

}  // namespace animconv
