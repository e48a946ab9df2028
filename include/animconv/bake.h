// The `bake` job: evaluates a glTF morph animation into per-frame geometry for consumers without
// morph targets (p5.js p5.Geometry, as in the Processing Advent Calendar 2025 article
// "p5.jsでgltfを使ってシェイプキーアニメーションを動かす"). The JSON layout is specified in
// docs/cookbook/p5js.md; keep the two in step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "animconv/diagnostic.h"
#include "animconv/io.h"
#include "animconv/model.h"

namespace animconv {

struct P5BakeOptions {
  // The node whose morph weights to bake (its name as `info` shows it). Needed when the clip
  // animates the weights of several nodes.
  std::optional<std::string> node;
  // Frames on a uniform grid from 0 to the clip's duration (the last frame at the duration);
  // unset: one frame per key of the weights channel, at its key times.
  std::optional<double> fps;
};

struct P5BakeReport {
  std::string clip;
  std::string node;
  size_t frames = 0;
  size_t vertices = 0;
  // What reading the input told (BakeP5File; BakeP5Frames itself has nothing to tell).
  Diagnostics diagnostics;
};

// Bakes the first clip of `asset` that animates morph weights (of options.node when set), with
// the mesh read from the glTF document the reader kept. Error(kUsage) when there is nothing to
// bake (not a glTF input, no weights channel, several nodes without --node); Error(kBadInput)
// for geometry that cannot be baked. `source` names the input in messages.
std::string BakeP5Frames(const Asset& asset, const P5BakeOptions& options,
                         const std::string& source, P5BakeReport* report);

struct P5BakeFileOptions {
  P5BakeOptions bake;
  std::optional<std::string> clip;  // name or 0-based index (SelectClip in animconv/convert.h)
  uint64_t max_input_bytes = kDefaultMaxInputBytes;
  StructureLimits limits;  // what the reader accepts (docs/reliability.md, Limits)
};

// Reads `input`, bakes, writes `output` atomically. Refuses to write over the input; leaves no
// output file on any error.
P5BakeReport BakeP5File(const std::string& input, const std::string& output,
                        const P5BakeFileOptions& options);
// The same, filling `*report` as the job goes: after an Error it still holds the diagnostics
// gathered before it.
void BakeP5File(const std::string& input, const std::string& output,
                const P5BakeFileOptions& options, P5BakeReport* report);

}  // namespace animconv
