// The points of a mesh that can touch a floor: for each of a fan of directions over the whole
// sphere, the vertex farthest along it (its support point). However a rigid part turns from its
// rest pose (a foot flat, on its toes, kneeling on its instep), its lowest vertex is where one of
// these directions, turned with it, points down, within about 11° of one: a corner (a box's, a
// heel's edge) is found exactly, and a rounded toe of radius r at most r (1 - cos 11°), 1.8 % of
// r, too high (0.9 mm for 5 cm). What --ground stands on the floor for feet that carry meshes
// (Node::rest_mesh_support, ground.h).
#pragma once

#include <vector>

#include "animconv/model.h"

namespace animconv {

// Unit vectors: -Y, rings 15°, 30°, ... 165° from it, about 15° apart on each ring, and +Y (184).
const std::vector<Vec3>& SupportDirections();

// Keeps, for each SupportDirections() entry, the point added farthest along it.
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
