// A deterministic synthetic Unity CSV: the layout of the Unity `AnimationExporter` script
// (docs/formats/unity-csv.md; one row per sample, 55 HumanBodyBones localRotation quaternions
// x,y,z,w in enum order, each value C# "F3" followed by a comma, so every row ends with ","),
// filled with a formula-driven humanoid walk cycle. No seed, no randomness: the output depends
// only on (rows, interval) and is meant to be byte-identical on every machine (see
// synthetic_unity_csv.cpp and data/unity/README.md).
//
// Used by `animconv_gen_unity_csv` (which produced data/unity/walk.csv) and by the benchmarks.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace animconv::bench {

using SyntheticQuat = std::array<double, 4>;  // x, y, z, w (Unity localRotation order)

// Gait cycle (one left and one right step) and the slow whole-body turn, in seconds.
constexpr double kWalkCycleSeconds = 1.1;
constexpr double kTurnSeconds = 12.0;

// The 55 local rotations at time `seconds`, HumanBodyBones order. Present bones are unit
// quaternions canonicalised to w >= 0; bones the typical avatar lacks (LeftEye, RightEye, Jaw,
// UpperChest) are 0,0,0,0 as the exporter writes them.
std::array<SyntheticQuat, 55> SyntheticWalkPose(double seconds);

// Appends one exporter row for `pose`: 220 values "%.3f," (a negative value that rounds to zero
// is written "0.000", as Unity's Mono C# "F3" does), then '\n'.
void AppendUnityCsvRow(const std::array<SyntheticQuat, 55>& pose, std::string* out);

// The whole file: rows r = 0 .. rows-1 sampled at r * interval_seconds.
std::string SyntheticUnityCsv(size_t rows, double interval_seconds);

}  // namespace animconv::bench
