// The conversion job the CLI runs: read, pick a clip, bring the data into the writer's
// coordinate convention, write atomically. Pure apart from the two files it names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "animconv/axes.h"
#include "animconv/bone_names.h"
#include "animconv/diagnostic.h"
#include "animconv/format.h"
#include "animconv/io.h"
#include "animconv/reduce.h"
#include "animconv/retarget.h"
#include "animconv/root_motion.h"
#include "animconv/timing.h"

namespace animconv {

struct ConvertOptions {
  ReadOptions read;
  WriteOptions write;
  std::string from;  // forced input format id; empty = detect
  std::string to;    // forced output format id; empty = detect
  // How to cross handedness when input and output differ (Unity CSV -> three.js/glTF and back).
  // Unset: z, UniGLTF's default and what the seed article does (UniVRM: which inverter where); with
  // a source rig, the mirror UniVRM uses for that model (MirrorForModel in retarget_job.h).
  std::optional<Mirror> mirror;
  // The model the input was recorded on (--source-rig): its rest pose is what the input's raw
  // rotations are relative to. Without it a humanoid input counts as normalised.
  std::string source_rig;
  // The model to retarget onto (--skeleton): the output animates its nodes.
  std::string skeleton;
  // --hips-scale: what a retargeted hips translation is scaled by (onto --skeleton or a
  // normalised rig).
  RetargetOptions retarget;
  // The input's facing when its format does not say (three.js JSON): needed to retarget.
  std::optional<Facing> source_facing;
  std::vector<BoneMapEntry> bone_map;  // --bone-map, applied to the input's nodes after reading
  // --expression-map: `morph target,expression` lines (the --bone-map syntax) for .vrma output.
  std::vector<BoneMapEntry> expression_map;
  std::optional<BoneNaming> bone_names;  // --bone-names: output naming of humanoid nodes
  std::optional<std::string> clip;       // keep only this clip (name or 0-based index)
  // --trim, --speed, --offset, --resample, --interpolation, --loop: ApplyTiming at the end of
  // PrepareAsset, after retargeting (which samples on its own grid) and before --reduce.
  TimingOptions timing;
  // --root-motion: the hips' travel removed or moved to a root node (root_motion.h), after
  // timing (so the travel starts where the output starts) and before --reduce.
  RootMotionOptions root_motion;
  // --ground: the lowest foot point over each clip moved to y = 0 (ground.h), after
  // --root-motion, on the rig the output is written for.
  bool ground = false;
  // --reduce: error-bounded keyframe reduction, the last step of PrepareAsset.
  std::optional<ReduceOptions> reduce;
  // --allow-partial: write an output that holds no animation or lost most of the input's
  // (MeasureCoverageLoss in pipeline/coverage.h, docs/cli.md "Partial outputs") with a warning
  // instead of failing with Error(kBadInput).
  bool allow_partial = false;
  uint64_t max_input_bytes = kDefaultMaxInputBytes;
  // --scale: multiplies every length after the reader's own unit conversion (BVH is read as
  // centimetres, FBX in its UnitScaleFactor, everything else as metres).
  std::optional<double> length_scale;
  // The files `read.bone_names` (--bones) and `bone_map` came from: inputs too, never the output.
  std::string bones_file;
  std::string bone_map_file;
  std::string expression_map_file;
};

struct LoadedAsset {
  Asset asset;
  const Format* format = nullptr;
  size_t input_bytes = 0;
  // Set when the humanoid identities came from GuessHumanoid rather than the format or reader.
  std::optional<HumanoidGuess> humanoid_guess;
};

// Reads, detects, parses and validates `path`; applies --scale; guesses humanoid identities from
// node names when the format gave none (GuessHumanoid), and the facing from the rest pose when
// neither the format nor --source-facing gave one (FacingFromRestPose). Errors name the file.
// The reader's diagnostics go to `diagnostics` (may be null), as do those of the functions below.
LoadedAsset LoadAsset(const std::string& path, const ConvertOptions& options,
                      Diagnostics* diagnostics = nullptr);

// Keeps only the clip named `selector`, or with that 0-based index; Error(kUsage) otherwise.
void SelectClip(Asset& asset, const std::string& selector);

// The humanoid steps before writing: rename (--bone-map), put on the source rig, retarget onto
// the skeleton or the VRMA rig, then output naming (--bone-names). Loads the models it names.
// Tells each step's result (retargeted bones, renames that failed, keys reduced).
Asset PrepareAsset(Asset asset, const Format& format, const ConvertOptions& options,
                   Diagnostics* diagnostics = nullptr);

// Converts the asset into `format`'s bytes (handedness conversion included). Tells the
// conversions it made for the format and, through WriteOptions::diagnostics, what the writer left
// out.
std::string RenderAsset(Asset asset, const Format& format, const ConvertOptions& options,
                        Diagnostics* diagnostics = nullptr);
// The same bytes as pieces (Format::write_pieces), for writing to a file without joining them;
// with a `sink`, each piece is also handed to it as soon as it is final (WriteOptions::piece_sink).
TextPieces RenderAssetPieces(Asset asset, const Format& format, const ConvertOptions& options,
                             Diagnostics* diagnostics = nullptr, PieceSink* sink = nullptr);

struct ConvertReport {
  const Format* input_format = nullptr;
  const Format* output_format = nullptr;
  size_t input_bytes = 0;
  size_t output_bytes = 0;
  // What reading, the steps and the writer told, in the order it happened (the CLI prints them).
  Diagnostics diagnostics;
};

// The steps of ConvertFile after reading (--clip, PrepareAsset's steps, the partial-output check,
// --reduce, RenderAsset) into `report->output_format`, which the caller sets: the output's bytes.
// `input` names the file in errors. `animconv preview` converts through it too.
std::string ConvertLoadedAsset(LoadedAsset loaded, const std::string& input,
                               const ConvertOptions& options, ConvertReport* report);
// The same bytes as pieces; ConvertFile writes them so, streamed to `sink` as they are made.
TextPieces ConvertLoadedAssetPieces(LoadedAsset loaded, const std::string& input,
                                    const ConvertOptions& options, ConvertReport* report,
                                    PieceSink* sink = nullptr);

// The whole job. Refuses to write over the input; leaves no output file on any error.
ConvertReport ConvertFile(const std::string& input, const std::string& output,
                          const ConvertOptions& options);
// The same, filling `*report` as the job goes: after an Error it still holds what was learnt
// before it, the diagnostics above all (the CLI prints those, then the error).
void ConvertFile(const std::string& input, const std::string& output, const ConvertOptions& options,
                 ConvertReport* report);

}  // namespace animconv
