// Step channels where a conversion cannot keep their jumps: the warnings for --resample and
// --interpolation linear, and the bake to linear for formats whose players play STEP as linear
// (Format::plays_step: VRMA). Both name the channels whose changes move (docs/timing.md).
#pragma once

#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "animconv/model.h"
#include "animconv/timing.h"

namespace animconv {

void WarnStepTiming(const Asset& asset, const TimingOptions& timing, Diagnostics* diagnostics);

void StepChannelsToLinear(Asset& asset, const Format& format, Diagnostics* diagnostics);

}  // namespace animconv
