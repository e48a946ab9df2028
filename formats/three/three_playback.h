// What three.js plays of a clip it read, beyond its tracks' own keys, made explicit in the model
// so that every writer plays it too. Private to the three.js readers.
#pragma once

#include <string>
#include <vector>

#include "animconv/model.h"

namespace animconv {

// An AnimationMixer plays a clip from 0 to its `duration` (three.js r187 AnimationAction, the
// clip's duration as AnimationClip.parse was given it): keys after it are never reached. They are
// cut off there, each channel ending on its value at the duration (a note in `notes` says so);
// a format whose clips end at their last key played them before (a .glb 30 degrees off after
// 1 s, exit 0). A duration of 0 leaves every channel its value at 0. Keys past the duration by
// no more than float32 rounding of their times are left as they are.
void CutToThreeDuration(Clip& clip, std::vector<std::string>* notes);

// A track on the mixer's root (an empty node name, '.position') moves every object the other
// tracks find, which PropertyBinding.findNode looks for in the root's subtree: the node named ""
// becomes every other node's parent. Left a sibling, its motion moved only itself in a format
// with a hierarchy (a BVH's joint, a glTF node).
void ParentToThreeRoot(Rig& rig);

}  // namespace animconv
