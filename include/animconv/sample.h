// Evaluates a channel at any time, the way glTF 2.0 Appendix C and three.js define it.
#pragma once

#include <cstddef>

#include "animconv/model.h"
#include "animconv/quaternion.h"

namespace animconv {

// Writes channel.width numbers to `out`. Before the first key and after the last the end values
// hold. At a key time the key value is returned exactly. Step holds the previous key; linear
// rotations slerp on the short path; cubic splines use the Hermite form with tangents per second
// (glTF 2.0 Appendix C (CUBICSPLINE)), rotations renormalised.
void EvaluateChannel(const Channel& channel, double seconds, double* out);

// The channel's limit from the left at `seconds`: where a step channel jumps (at each key time
// but the first) the value it held just before, the previous key's; elsewhere EvaluateChannel's
// value (linear and cubic curves are continuous). A player shows it for every time just short of
// the key, so the largest difference to another curve can be there (animconv diff).
void EvaluateChannelBefore(const Channel& channel, double seconds, double* out);

// EvaluateChannel for a channel asked at times that mostly rise (a clip posed frame after frame,
// finely sampled between keys: --ground and the retarget's foot notes pose a 36,900-key clip at
// 295,000 times). The segment found last is tried first, then the next one, before searching,
// and a rotation segment's arc is kept for the next time in it. The same values, bit for bit.
// One cursor per channel; any order of times is right, only slower.
class ChannelCursor {
 public:
  void Evaluate(const Channel& channel, double seconds, double* out);

 private:
  size_t next_ = 0;                           // the first key after the time asked last
  size_t arc_key_ = static_cast<size_t>(-1);  // the first key of the segment whose arc is kept
  SlerpArc arc_;
};

}  // namespace animconv
