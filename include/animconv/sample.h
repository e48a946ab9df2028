// Evaluates a channel at any time, the way glTF 2.0 Appendix C and three.js define it.
#pragma once

#include "animconv/model.h"

namespace animconv {

// Writes channel.width numbers to `out`. Before the first key and after the last the end values
// hold. At a key time the key value is returned exactly. Step holds the previous key; linear
// rotations slerp on the short path; cubic splines use the Hermite form with tangents per second
// (glTF 2.0 Appendix C (CUBICSPLINE)), rotations renormalised.
void EvaluateChannel(const Channel& channel, double seconds, double* out);

}  // namespace animconv
