// The points of a mesh that can touch a floor: for each of a fan of directions around down, the
// vertex farthest along it (its support point). A rigid part turned from its rest pose by up to
// 75° has its lowest vertex where one of these directions, turned with it, points down, within
// about 11° of one: a corner (a box's, a heel's edge) is found exactly, and a rounded toe of
// radius r at most r (1 - cos 11°), 1.8 % of r, too high (0.9 mm for 5 cm). What --ground
// stands on the floor for feet that carry meshes (Node::rest_mesh_support, ground.h).
#pragma once

#include <vector>

#include "animconv/model.h"

namespace animconv {

// Unit vectors: -Y, then rings 15°, 30°, ... 75° from it, about 15° apart on each ring (80).
const std::vector<Vec3>& DownwardSupportDirections();

// Keeps, for each DownwardSupportDirections() entry, the point added farthest along it.
class SupportPoints {
 public:
  SupportPoints();
  void Add(const Vec3& point);
  bool empty() const { return !any_; }
  // The points kept, each once, in the order of the directions they serve first.
  std::vector<Vec3> Points() const;

 private:
  std::vector<double> reach_;  // per direction: the farthest dot product so far
  std::vector<Vec3> best_;     // per direction: its point
  bool any_ = false;
};

}  // namespace animconv
