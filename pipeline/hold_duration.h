// A clip that lasts past its last key, written to a format whose files have no duration of their
// own (Format::stores_duration: glTF, whose clip ends at its last key, glTF 2.0 "Animations";
// animconv and Unity CSV, whose rows end there): one hold key at the clip's duration keeps the
// ending. Without it a three.js clip holding its last pose for a second (duration 2 s, keys to 1 s)
// looped back to its start a second early in GLTFLoader, 90° off in every loop (review of
// session 35). docs/timing.md, "Duration".
#pragma once

#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "animconv/model.h"

namespace animconv {

// For each clip whose duration_seconds is past its last key (by more than 0.1 ms): the first
// channel that ends at the last key gets a key at the duration with its last value (a cubic
// spline's last out-tangent and the new key's tangents zero: a hold), and an info line says so.
void HoldToDuration(Asset& asset, const Format& format, Diagnostics* diagnostics);

}  // namespace animconv
