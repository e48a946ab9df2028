#include "animconv/convert.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "animconv/error.h"
#include "animconv/ground.h"
#include "animconv/humanoid_pose.h"
#include "animconv/io.h"
#include "animconv/quaternion.h"
#include "animconv/reduce.h"
#include "animconv/resample.h"
#include "animconv/rest_pose.h"
#include "libconvert/body_frame.h"
#include "pipeline/coverage.h"
#include "pipeline/hold_duration.h"
#include "pipeline/retarget_job.h"
#include "pipeline/step_channels.h"

namespace animconv {

namespace {

const char* FacingOptionName(Facing facing) { return facing == Facing::kPlusZ ? "+z" : "-z"; }

// Retargeting turns the character to the target's facing: taking an unknown one for +Z would
// play a -Z clip turned 180° with exit 0 (docs/retargeting.md).
void RequireFacing(const Asset& asset) {
  if (asset.coordinates.facing != Facing::kUnknown) return;
  // A rest pose that stands other than up +Y facing ±Z gives its own frame (BodyFrame).
  if (RestFrameBeyondFacing(asset.rig)) return;
  if (std::none_of(asset.rig.nodes.begin(), asset.rig.nodes.end(),
                   [](const Node& node) { return node.human_bone; })) {
    return;  // the retarget step says what is missing
  }
  ThrowUsage(
      "the input does not record which way its character faces, and its rest pose does not show "
      "it: give --source-facing +z|-z (a three.js JSON from a Unity CSV with the default "
      "--mirror z faces -z), or --source-rig MODEL");
}

// Models named by --source-rig / --skeleton are detected on their own, whatever --from says.
LoadedAsset LoadModel(const std::string& path, const ConvertOptions& options,
                      Diagnostics* diagnostics) {
  ConvertOptions model_options = options;
  model_options.from.clear();
  model_options.read.bone_names.clear();
  return LoadAsset(path, model_options, diagnostics);
}

// Whether the rig stands up +Y, or has no rest pose to say otherwise: --ground and --root-motion
// move the hips along and across +Y.
bool StandsUpY(const Rig& rig) {
  const UpAxis up = RestUpAxis(rig);
  return up.axis == 1 && !up.negative;
}

// The lowest foot or toe point over every clip (ground.h), on a rig with a rest pose (heights
// along its up, ClipPoser::Height).
std::optional<LowestFootPoint> LowestFootOverClips(const Asset& asset) {
  std::optional<LowestFootPoint> lowest;
  if (!asset.rig.rest_pose_known) return lowest;
  for (const Clip& clip : asset.clips) {
    const std::optional<LowestFootPoint> point = MeasureLowestFootPoint(asset.rig, clip);
    if (point && (!lowest || point->metres < lowest->metres)) lowest = point;
  }
  return lowest;
}

// `feet_before`: the input's lowest foot point, measured before retargeting: with the output's,
// what the hips scaling did to the floor contact (docs/retargeting.md, "Hips translation").
void ReportRetarget(const RetargetReport& report, const std::string& onto,
                    const std::optional<LowestFootPoint>& feet_before, const Asset& retargeted,
                    Diagnostics* diagnostics) {
  AddDiagnostic(
      diagnostics, Severity::kInfo,
      fmt::format(
          "retargeted onto {}: {} bone channel(s){}", onto, report.bones,
          report.hips_scale
              ? fmt::format(", hips translation scaled by {:.4g} ({} {:.4g} m "
                            "-> {:.4g} m)",
                            *report.hips_scale,
                            report.hips_scale_basis == HipsScale::kLegLength ? "rest leg length"
                                                                             : "rest hips height",
                            report.source_length_metres, report.target_length_metres)
              : std::string()));
  for (const std::string& note : report.notes) AddDiagnostic(diagnostics, Severity::kInfo, note);
  for (const std::string& warning : report.warnings) {
    AddDiagnostic(diagnostics, Severity::kWarning, warning);
  }
  // Not a VRM rig, with rest feet below the origin: its hips height was measured from them. Where
  // that moves the scale off what the origin would give (three-vrm's rule for a VRMA), say so.
  if (report.hips_scale && report.source_feet_floor_metres) {
    const double from_origin = report.source_length_metres + *report.source_feet_floor_metres;
    const double origin_scale = report.target_length_metres / from_origin;
    if (from_origin > 1e-3 && std::abs(*report.hips_scale / origin_scale - 1) > 1e-3) {
      AddDiagnostic(
          diagnostics, Severity::kWarning,
          fmt::format("hips translation scaled by {:.4g}: the input's rest hips height was "
                      "measured from its lowest foot or toe joint, {:.4g} m below the origin "
                      "({:.4g} m), not from the origin ({:.4g} m, a scale of {:.4g}, as three-vrm "
                      "measures a VRMA's); if the input stands on the origin, pass --hips-scale "
                      "leg, or --hips-scale none and scale it yourself",
                      *report.hips_scale, -*report.source_feet_floor_metres,
                      report.source_length_metres, from_origin, origin_scale));
    }
  }
  // Measured only when it is reported: posing the feet at every key is a full pass over the clip
  // (a third of a 50 MB CSV's way to .vrma, whose input has no rest pose to measure before).
  if (!report.hips_scale || !feet_before) return;
  const std::optional<LowestFootPoint> feet_after = LowestFootOverClips(retargeted);
  if (feet_after) {
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("the lowest foot point over the clip: {:.4f} m on the input ('{}'), "
                    "{:.4f} m retargeted ('{}'; --ground stands the clip on y = 0)",
                    feet_before->metres, feet_before->node, feet_after->metres, feet_after->node));
  }
}

// --resample makes a grid the user chose; where it plays off the input beyond the --reduce
// tolerances (a grid that misses the keys cuts corners, chords cut a cubic curve's bends), exit 0
// must come with a warning naming the channel and the fix (the project's first rule).
void WarnResampleError(const PlaybackErrors& errors, double fps, const Rig& rig,
                       Diagnostics* diagnostics) {
  for (size_t path = 0; path < 4; ++path) {
    const Path p = static_cast<Path>(path);
    const double tolerance = ToleranceOf(ReduceOptions{}, p);
    const int node = errors.worst_node[path];
    if (node < 0 || errors.max[path] <= tolerance) continue;
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--resample {}: plays up to {:.3g} {} off the input on {}.{} "
                              "(tolerance {:g}): the new keys miss the input's keys or curve "
                              "between them; use a higher rate, or leave out --resample",
                              fps, ErrorInPrintedUnit(p, errors.max[path]), PrintedUnit(p),
                              rig.nodes[static_cast<size_t>(node)].name, PathName(p),
                              ErrorInPrintedUnit(p, tolerance)));
  }
}

// What PrepareAsset did to the rig, for the coverage check (pipeline/coverage.h).
// --root-motion (root_motion.h): in-place everywhere, extract where the format holds a node
// above the hips.
void RootMotionStep(Asset& asset, const Format& format, const RootMotionOptions& options,
                    Diagnostics* diagnostics) {
  if (options.mode == RootMotionMode::kKeep) return;
  const bool extract = options.mode == RootMotionMode::kExtract;
  if (extract && format.normalized_humanoid != NormalizedHumanoid::kNo) {
    ThrowUsage(fmt::format(
        "--root-motion extract: {} holds the humanoid bones only, no root node to carry the "
        "travel; --root-motion in-place removes it",
        format.id));
  }
  const RootMotionReport report = ApplyRootMotion(asset, options);
  const char* option = extract ? "--root-motion extract" : "--root-motion in-place";
  if (report.clips_changed == 0) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("{}: no clip translates the hips, so nothing travels and nothing "
                              "was changed",
                              option));
    return;
  }
  std::string where;
  if (extract) {
    where = report.root_created
                ? fmt::format(
                      ", moved to a new root node '{}' above the hips (a three.js model "
                      "playing this clip needs an object of that name)",
                      report.root_name)
                : fmt::format(", moved to the root node '{}'", report.root_name);
  }
  AddDiagnostic(
      diagnostics, Severity::kInfo,
      fmt::format("{}: the hips' travel over the ground (up to {:.4g} m from the start) "
                  "{} in {} clip(s){}",
                  option, report.largest_travel_metres, extract ? "taken off the hips" : "removed",
                  report.clips_changed, where));
  if (!options.remove_yaw) return;
  AddDiagnostic(
      diagnostics, Severity::kInfo,
      fmt::format("--root-yaw: the hips' turn about +Y (up to {:.4g}° from their first "
                  "heading) {}; {} key(s) added so that it plays within {}° between "
                  "keys (largest measured {:.3g}°{})",
                  report.largest_turn_degrees,
                  extract ? "moved to the root" : "removed, the clip keeps its first heading",
                  report.yaw_keys_added, kRootYawToleranceDegrees, report.largest_yaw_error_degrees,
                  extract ? fmt::format(", the root's translation {:.3g} m",
                                        report.largest_root_error_metres)
                          : ""));
  // The refinement's key budget or halvings ran out (root_motion.h): a jump in a step channel,
  // or a turn too fast for the keys; the output plays the turn this far off between keys.
  if (report.largest_yaw_error_degrees > kRootYawToleranceDegrees ||
      report.largest_root_error_metres > kRootYawToleranceMetres) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  fmt::format("--root-yaw: between keys the output strays from the exact turn by "
                              "up to {:.3g}° ({:.3g} m at the root), over the {}° ({} m) aimed "
                              "for; --resample FPS with a higher rate before it keys the turn "
                              "finer (docs/root_motion.md)",
                              report.largest_yaw_error_degrees, report.largest_root_error_metres,
                              kRootYawToleranceDegrees, kRootYawToleranceMetres));
  }
}

// --ground (ground.h): one note per clip with the lowest foot point before and after, so the
// user sees what was measured and moved.
void GroundStep(Asset& asset, const Format& format, Diagnostics* diagnostics) {
  const GroundReport report = ApplyGround(asset, !format.skeleton_without_meshes);
  if (report.soles) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("--ground: the feet carry meshes, whose lowest vertex stands at "
                              "{:.4f} m at rest ('{}'): their soles are grounded, not the joints",
                              report.soles->floor_metres, report.soles->lowest_node));
  } else if (!report.soles_left_out.empty()) {
    AddDiagnostic(diagnostics, Severity::kWarning, "--ground: " + report.soles_left_out);
  }
  for (const GroundedClip& clip : report.clips) {
    // What is left is rounding (1e-17 m), whose last bits differ between the native and the
    // WebAssembly builds' arithmetic: under a nanometre it is printed as 0.
    const double after = std::abs(clip.lowest_after_metres) < 1e-9 ? 0.0 : clip.lowest_after_metres;
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("--ground: clip '{}': the lowest foot point was {:.4f} m ('{}'{} at {:.3g} "
                    "s), the hips moved {} {:.4f} m; now {:.2g} m ({} samples)",
                    clip.clip, clip.lowest_before_metres, clip.lowest_node,
                    report.soles
                        ? fmt::format(", {:.4f} m above the floor at rest,", clip.sole_depth_metres)
                        : std::string(),
                    clip.lowest_seconds, clip.shift_metres >= 0 ? "up" : "down",
                    std::abs(clip.shift_metres), after, clip.samples));
  }
}

// A retargeted clip whose feet never come near the target's floor: the source floats (a BVH whose
// ROOT OFFSET and position channels both hold the hips height, which three.js's BVHLoader adds)
// and the hips scaling carried that onto the avatar. The motion is the source's, so this is a
// warning with the fix, not an error (docs/root_motion.md, "Grounding").
void WarnFloatingFeet(const Asset& asset, Diagnostics* diagnostics) {
  const int hips = HumanBoneNode(asset.rig, HumanBone::kHips);
  const std::vector<int> feet = FootAndToeNodes(asset.rig);
  if (hips < 0 || feet.empty()) return;
  const RestPose rest(asset.rig);
  const UpAxis up = RestUpAxis(asset.rig);  // ClipPoser::Height's axis
  double rest_lowest = up.HeightOf(rest.WorldPosition(feet[0]));
  for (const int foot : feet)
    rest_lowest = std::min(rest_lowest, up.HeightOf(rest.WorldPosition(foot)));
  const double legs = up.HeightOf(rest.WorldPosition(hips)) - rest_lowest;
  if (legs <= 0.001) return;  // a degenerate rig: nothing to measure against
  // A tenth of the leg: about 9 cm on a person, more than a heel lifts in a walk.
  const double floating_from = std::max(0.0, rest_lowest) + 0.1 * legs;
  for (const Clip& clip : asset.clips) {
    if (FeetReachDown(asset.rig, clip, floating_from)) continue;  // the usual case, found early
    const std::optional<LowestFootPoint> lowest = MeasureLowestFootPoint(asset.rig, clip);
    if (!lowest || lowest->metres <= floating_from) continue;
    AddDiagnostic(
        diagnostics, Severity::kWarning,
        fmt::format("{}the retargeted feet stay above the floor over the whole clip: the "
                    "lowest foot point is {:.3f} m up ('{}' at {:.3g} s), {:.2g} leg lengths; "
                    "give --ground to stand the clip on the floor",
                    asset.clips.size() > 1 ? fmt::format("clip '{}': ", clip.name) : std::string(),
                    lowest->metres, lowest->node, lowest->seconds, lowest->metres / legs));
  }
}

struct PreparedSteps {
  bool adopted_source_rig = false;
  bool retargeted = false;
  // With --source-rig: what the input animates once on the model's nodes (with their humanoid
  // identities), the baseline the output is measured against.
  std::optional<InputCoverage> adopted;
};

Asset Prepare(Asset asset, const Format& format, const ConvertOptions& options,
              Diagnostics* diagnostics, PreparedSteps* steps) {
  for (const std::string& warning : RenameBones(asset.rig, options.bone_map, std::nullopt)) {
    AddDiagnostic(diagnostics, Severity::kWarning, "--bone-map: " + warning);
  }
  // An explicit --source-facing wins over what the input records (the userData of our own
  // three.js JSON, a VRM's version), but not silently (docs/cli.md).
  if (options.source_facing) {
    if (asset.coordinates.facing != Facing::kUnknown &&
        asset.coordinates.facing != *options.source_facing) {
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("--source-facing {} overrides the facing {} the input records",
                                FacingOptionName(*options.source_facing),
                                FacingOptionName(asset.coordinates.facing)));
    }
    asset.coordinates.facing = *options.source_facing;
    bool measured = false;
    const AxisTurn frame = BodyFrame(asset.rig, asset.coordinates.facing, &measured);
    if (measured) {
      AddDiagnostic(
          diagnostics, Severity::kWarning,
          fmt::format("--source-facing {} is not used: the input's rest pose stands {}, "
                      "which the option (+z or -z, standing up +Y) cannot say",
                      FacingOptionName(*options.source_facing), frame.DescribeUpAndFacing()));
    }
  }
  Mirror mirror = options.mirror.value_or(Mirror::kZ);
  if (!options.source_rig.empty()) {
    const LoadedAsset model = LoadModel(options.source_rig, options, diagnostics);
    if (!options.mirror) mirror = MirrorForModel(model.asset);
    AdoptSourceRig(asset, model.asset, mirror, options.source_rig, diagnostics);
    steps->adopted_source_rig = true;
    steps->adopted = DescribeInputCoverage(asset);
  }
  const bool has_humanoid = std::any_of(asset.rig.nodes.begin(), asset.rig.nodes.end(),
                                        [](const Node& node) { return node.human_bone; });
  const bool to_normalized =
      format.normalized_humanoid == NormalizedHumanoid::kAlways ||
      (format.normalized_humanoid == NormalizedHumanoid::kWhenRestPoseKnown &&
       asset.rig.rest_pose_known && has_humanoid);
  if (!options.skeleton.empty()) {
    if (format.normalized_humanoid != NormalizedHumanoid::kNo) {
      ThrowUsage(
          fmt::format("--skeleton does not apply to {}: its rotations are normalised "
                      "humanoid ones, which any model plays",
                      format.id));
    }
    RequireFacing(asset);
    // --scale is the input's unit: the output is written for the model, in the model's own (the
    // model scaled with it was written out with its nodes scaled and its meshes not, and sank
    // half its height into the floor at --scale 0.5; review of session 37).
    ConvertOptions model_options = options;
    model_options.length_scale.reset();
    const LoadedAsset model = LoadModel(options.skeleton, model_options, diagnostics);
    RetargetReport report;
    const std::optional<LowestFootPoint> feet_before = LowestFootOverClips(asset);
    asset = RetargetOntoModel(std::move(asset), model.asset, options.skeleton, mirror,
                              options.write.row_interval_seconds, options.retarget, &report,
                              diagnostics);
    steps->retargeted = true;
    ReportRetarget(report, options.skeleton, feet_before, asset, diagnostics);
  } else if (to_normalized) {
    RequireFacing(asset);
    NormalizedRig rig;  // VRM Animation
    if (format.normalized_humanoid == NormalizedHumanoid::kWhenRestPoseKnown) {
      // Unity localRotations of a VRM 0.x-style avatar: all 55 columns, and the facing the
      // mirror to Unity's axes turns into Unity's +Z front (reverse-Z: -Z, reverse-X: +Z).
      rig = {mirror == Mirror::kX ? Facing::kPlusZ : Facing::kMinusZ, true, false, false, {}};
    }
    rig.expression_map = options.expression_map;
    RetargetReport report;
    const std::optional<LowestFootPoint> feet_before = LowestFootOverClips(asset);
    asset =
        RetargetOntoNormalizedRig(std::move(asset), rig, mirror, options.write.row_interval_seconds,
                                  options.retarget, &report, diagnostics);
    steps->retargeted = true;
    ReportRetarget(report, fmt::format("the normalised T-pose rig of {}", format.id), feet_before,
                   asset, diagnostics);
  }
  // --scale scales the rig and the motion, not the meshes a glTF output passes through from the
  // input: the nodes were written scaled and the skins not (a figure's shoes 0.48 m under the floor
  // at --scale 0.5, review of session 37).
  if (options.length_scale && !steps->retargeted && asset.source_document &&
      (format.id == "gltf" || format.id == "glb") &&
      std::any_of(asset.rig.nodes.begin(), asset.rig.nodes.end(),
                  [](const Node& node) { return node.mesh.has_value(); })) {
    ThrowUsage(fmt::format(
        "--scale scales the input's skeleton and motion, not the meshes the {} output would pass "
        "through from it, which would then no longer fit: glTF is in metres already, so leave "
        "--scale out, or write a format without meshes (three.js JSON, BVH)",
        format.id));
  }
  if (options.retarget.hips_scale != HipsScale::kHipsHeight && !steps->retargeted) {
    AddDiagnostic(diagnostics, Severity::kWarning,
                  "--hips-scale: nothing was retargeted (no --skeleton, and the output format "
                  "keeps the input's rig), so it changed nothing");
  }
  if (options.bone_names) {
    for (const std::string& warning : RenameBones(asset.rig, {}, options.bone_names)) {
      AddDiagnostic(diagnostics, Severity::kWarning, "--bone-names: " + warning);
    }
  }
  WarnStepTiming(asset, options.timing, diagnostics);
  const TimingReport timing = ApplyTiming(asset, options.timing);
  if (timing.keys_before != timing.keys_after) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("timing: {} keys -> {}", timing.keys_before, timing.keys_after));
  }
  if (options.timing.resample_fps) {
    WarnResampleError(timing.resample, *options.timing.resample_fps, asset.rig, diagnostics);
  }
  // Both move the hips along or across +Y: on a rig drawn Z-up the travel would be taken from its
  // height and the floor from its depth, with exit 0 (session 36).
  if ((options.ground || options.root_motion.mode != RootMotionMode::kKeep) &&
      !StandsUpY(asset.rig)) {
    const std::string option = options.ground ? "--ground" : "--root-motion";
    const std::string stands = BodyFrame(asset.rig, Facing::kUnknown).DescribeUpAndFacing();
    ThrowUsage(steps->retargeted
                   ? fmt::format("{} works along +Y, and the target's rest pose stands {}: give "
                                 "a --skeleton model standing up +Y",
                                 option, stands)
                   : fmt::format("{} works along +Y, and the input's rest pose stands {}: "
                                 "retarget it onto an upright rig first (-o clip.vrma, or "
                                 "--skeleton model.glb), which turns it up +Y",
                                 option, stands));
  }
  RootMotionStep(asset, format, options.root_motion, diagnostics);
  if (options.ground && !asset.rig.rest_pose_known) {
    // Without joint offsets every joint stands at the origin, so the feet would measure 0 m and
    // the hips would get a translation of 0: a character sunk to its hips. A format that shows a
    // skeleton stands the rig in the generated T-pose when it is rendered, and is grounded on it
    // there (RenderAssetPieces); into a clip-only format the floor is the user's model's.
    if (!format.needs_rest_pose) {
      ThrowUsage(fmt::format(
          "--ground needs to know where the feet are, and this input has no rest pose (joint "
          "offsets; a Unity CSV holds rotations only): retarget it onto a rig, --skeleton "
          "model.glb (or .vrm) to ground it on that model's legs, or -o clip.vrma onto the VRMA "
          "rig; .glb and .bvh outputs stand it in a generated T-pose and ground it on that"));
    }
  } else if (options.ground) {
    GroundStep(asset, format, diagnostics);
  } else if (steps->retargeted) {
    WarnFloatingFeet(asset, diagnostics);
  }
  return asset;
}

// --reduce, the last step of PrepareAsset. Kept out of Prepare so the coverage check sees the
// channels before it: a channel --reduce removes plays its rest value within the tolerance
// (reduce.h), which is the motion kept, not lost (a spine left at rest is not a missing spine) —
// in a format that holds the rest pose. Into one that does not (a three.js clip, CSV), such a
// channel is kept as one key: left out, its node would stay wherever the target model had it
// (Fox's b_Hip_01 92 degrees from its rest, as `diff` measured).
// A retargeted output is measured in model space (`diff` between rigs whose rest frames differ),
// so its rotations are bounded there (ReduceOptions::model_space_rotations): each channel within
// its own tolerance, a foot at the end of four reduced joints was 0.26 degrees off (the pirouette
// BVH to .vrma). A format that writes every frame of one grid gains nothing from fewer keys.
void ReduceStep(Asset& asset, const Format& format, const ConvertOptions& options, bool retargeted,
                Diagnostics* diagnostics) {
  if (!options.reduce) return;
  if (format.writes_every_frame) {
    AddDiagnostic(diagnostics, Severity::kInfo,
                  fmt::format("--reduce: {} holds every channel at every frame, so there are no "
                              "keys to remove; the clip is written as it is",
                              format.id));
    return;
  }
  ReduceOptions reduce = *options.reduce;
  reduce.drop_rest_constant = reduce.drop_rest_constant && format.writes_rest_pose;
  reduce.model_space_rotations = reduce.model_space_rotations || retargeted;
  AddDiagnostic(diagnostics, Severity::kInfo,
                "--reduce: " + DescribeReduction(Reduce(asset, reduce)));
}

// The coverage rule (pipeline/coverage.h): a partial output is an error unless --allow-partial,
// then a warning; smaller losses are warnings naming what was lost.
void CheckCoverage(const InputCoverage& input, const Asset& prepared, const Format& format,
                   const ConvertOptions& options, const PreparedSteps& steps,
                   const std::string& path, Diagnostics* diagnostics) {
  CoverageCheck check;
  check.humanoid_output =
      format.normalized_humanoid != NormalizedHumanoid::kNo || !options.skeleton.empty();
  check.retargeted = steps.retargeted;
  check.same_nodes = !steps.retargeted && (!steps.adopted_source_rig || steps.adopted);
  // Tracks that found no node of the --source-rig model are already warned about, one by one;
  // when they are most of the input, the output is partial as well.
  if (steps.adopted && 2 * steps.adopted->animated.size() < input.animated.size()) {
    const std::string summary = fmt::format(
        "{} of the input's {} animated channel(s) match no node of the --source-rig model",
        input.animated.size() - steps.adopted->animated.size(), input.animated.size());
    if (options.allow_partial) {
      AddDiagnostic(diagnostics, Severity::kWarning, "--allow-partial: " + summary);
    } else {
      throw Error(ErrorKind::kBadInput, path, "",
                  fmt::format("{}; nothing written: check that the clip was made on that model, "
                              "or pass --allow-partial to write it anyway (docs/cli.md, partial "
                              "outputs)",
                              summary));
    }
  }
  const CoverageLoss loss = MeasureCoverageLoss(steps.adopted ? *steps.adopted : input, prepared,
                                                format, options.write, check);
  for (const std::string& detail : loss.details) {
    AddDiagnostic(diagnostics, Severity::kWarning, detail);
  }
  if (!loss.partial) return;
  if (options.allow_partial) {
    AddDiagnostic(diagnostics, Severity::kWarning, "--allow-partial: " + loss.summary);
    return;
  }
  throw Error(ErrorKind::kBadInput, path, "",
              fmt::format("{}; nothing written: {}, or pass --allow-partial to write it anyway "
                          "(docs/cli.md, partial outputs)",
                          loss.summary, loss.fix));
}

}  // namespace

Asset PrepareAsset(Asset asset, const Format& format, const ConvertOptions& options,
                   Diagnostics* diagnostics) {
  PreparedSteps steps;
  Asset prepared = Prepare(std::move(asset), format, options, diagnostics, &steps);
  ReduceStep(prepared, format, options, steps.retargeted, diagnostics);
  return prepared;
}

TextPieces RenderAssetPieces(Asset asset, const Format& format, const ConvertOptions& options,
                             Diagnostics* diagnostics, PieceSink* sink) {
  if (options.write.gltf_compression && format.id != "gltf" && format.id != "glb" &&
      format.id != "vrma") {
    ThrowUsage(fmt::format("--compress is for gltf, glb and vrma output, not {}", format.id));
  }
  if (options.write.gltf_drop_unused_attributes && format.id != "gltf" && format.id != "glb") {
    ThrowUsage(
        fmt::format("--drop-unused-attributes is for gltf and glb output, not {}", format.id));
  }
  const Mirror mirror = options.mirror.value_or(Mirror::kZ);
  if (asset.coordinates.handedness != format.handedness) {
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("{} data is {}; converting with --mirror {}", format.id,
                    format.handedness == Handedness::kRight ? "right-handed" : "left-handed",
                    MirrorName(mirror)));
  }
  ConvertHandedness(asset, format.handedness, mirror);
  if (!format.accepts_cubic) {
    // The format's consumers interpolate linearly (three.js: slerp), so the cubic curve is baked to
    // keys whose chords stay within the --reduce tolerances of it (docs/timing.md, "Cubic
    // splines"); the motion changes by that much, so the user is told (a warning, not info).
    const CubicBakeReport baked = BakeCubicSplines(asset, options.write.row_interval_seconds);
    if (baked.channels > 0) {
      AddDiagnostic(diagnostics, Severity::kWarning,
                    fmt::format("{} has no cubic splines: {}, as a linear (slerp) player "
                                "interpolates them; sampled {}",
                                format.id, DescribeCubicBake(baked, asset.rig),
                                options.write.row_interval_seconds
                                    ? fmt::format("every {} s, plus keys where that grid was off",
                                                  *options.write.row_interval_seconds)
                                    : std::string("at the key times, plus keys where needed")));
    }
  }
  if (format.needs_rest_pose && !asset.rig.rest_pose_known) {
    ApplyHumanoidTPose(asset.rig, asset.coordinates.facing);
    AddDiagnostic(
        diagnostics, Severity::kInfo,
        fmt::format("{}: the input has no rest pose; bones stand in a generated T-pose "
                    "facing {}",
                    format.id, asset.coordinates.facing == Facing::kMinusZ ? "-Z" : "+Z"));
    // --ground waited for the feet to have places (Prepare). The handedness change above mirrors
    // x or z, never the height.
    if (options.ground) GroundStep(asset, format, diagnostics);
  }
  if (!format.keeps_raw_rotations) {
    const RotationNormalization normalized = NormalizeRotations(asset);
    AddDiagnostic(diagnostics, Severity::kDebug,
                  fmt::format("rotations: {} keys renormalised, {} sign-flipped to the previous "
                              "key's hemisphere",
                              normalized.keys_renormalized, normalized.keys_flipped));
  }
  // After normalising: the changes the warning measures are between unit quaternions.
  if (!format.plays_step) StepChannelsToLinear(asset, format, diagnostics);
  HoldToDuration(asset, format, diagnostics);
  WriteOptions write = options.write;
  write.diagnostics = diagnostics;
  write.piece_sink = sink;
  TextPieces pieces = format.write_pieces ? format.write_pieces(asset, write)
                                          : TextPieces(format.write(asset, write));
  if (sink != nullptr) {
    pieces.StreamTo(sink);  // what the writer did not publish itself
    pieces.Flush();
  }
  return pieces;
}

std::string RenderAsset(Asset asset, const Format& format, const ConvertOptions& options,
                        Diagnostics* diagnostics) {
  return RenderAssetPieces(std::move(asset), format, options, diagnostics).Joined();
}

void ConvertFile(const std::string& input, const std::string& output, const ConvertOptions& options,
                 ConvertReport* report) {
  const std::pair<const char*, const std::string*> inputs[] = {
      {"the input file", &input},
      {"the --source-rig model", &options.source_rig},
      {"the --skeleton model", &options.skeleton},
      {"the --bones list", &options.bones_file},
      {"the --bone-map file", &options.bone_map_file},
      {"the --expression-map file", &options.expression_map_file}};
  for (const auto& [what, path] : inputs) {
    if (!path->empty() && (*path == output || SameFile(*path, output))) {
      ThrowUsage(fmt::format("the output '{}' is {}; choose another name", output, what));
    }
  }
  // Resolve the writer before reading so a bad output name fails fast.
  report->output_format = &DetectOutputFormat(output, options.to);
  LoadedAsset loaded = LoadAsset(input, options, &report->diagnostics);
  // Written while it is made (docs/performance.md, "Writing while formatting"); the pieces live
  // in `bytes` until the file is in place.
  std::optional<TextPieces> bytes;
  WriteFileAtomicStreamed(output, [&](PieceSink& sink) {
    bytes.emplace(ConvertLoadedAssetPieces(std::move(loaded), input, options, report, &sink));
  });
  report->output_bytes = bytes->size();
}

std::string ConvertLoadedAsset(LoadedAsset loaded, const std::string& input,
                               const ConvertOptions& options, ConvertReport* report) {
  return ConvertLoadedAssetPieces(std::move(loaded), input, options, report).Joined();
}

TextPieces ConvertLoadedAssetPieces(LoadedAsset loaded, const std::string& input,
                                    const ConvertOptions& options, ConvertReport* report,
                                    PieceSink* sink) {
  report->input_format = loaded.format;
  report->input_bytes = loaded.input_bytes;
  if (options.clip) SelectClip(loaded.asset, *options.clip);
  const InputCoverage coverage = DescribeInputCoverage(loaded.asset);
  PreparedSteps steps;
  Asset prepared = Prepare(std::move(loaded.asset), *report->output_format, options,
                           &report->diagnostics, &steps);
  CheckCoverage(coverage, prepared, *report->output_format, options, steps, input,
                &report->diagnostics);
  ReduceStep(prepared, *report->output_format, options, steps.retargeted, &report->diagnostics);
  TextPieces bytes = RenderAssetPieces(std::move(prepared), *report->output_format, options,
                                       &report->diagnostics, sink);
  report->output_bytes = bytes.size();
  return bytes;
}

ConvertReport ConvertFile(const std::string& input, const std::string& output,
                          const ConvertOptions& options) {
  ConvertReport report;
  ConvertFile(input, output, options, &report);
  return report;
}

}  // namespace animconv
