// The whole public API of animconv in one include (docs/architecture.md, "Library use").
// Link animconv::pipeline (CMake: find_package(animconv CONFIG)) or `pkg-config --libs animconv`.
//
// Conventions, stated once: quaternions are x, y, z, w; times are seconds; lengths are metres;
// +Y is up. Every error thrown is an animconv::Error (error.h) with its kind.
#pragma once

#include "animconv/axes.h"        // handedness and axis changes
#include "animconv/bake.h"        // morph clips baked to per-frame geometry (p5.js)
#include "animconv/batch.h"       // many files, one set of options, in parallel
#include "animconv/bone_map.h"    // the --bone-map file format
#include "animconv/bone_names.h"  // humanoid namings, guessing, renaming
#include "animconv/clip_diff.h"   // the error between two clips (what `diff` prints)
#include "animconv/clip_poser.h"  // a clip's world pose at any time
#include "animconv/convert.h"     // the conversion job: load, prepare, render, write
#include "animconv/diff_job.h"    // `diff`: both inputs read and compared, its JSON report
#include "animconv/error.h"       // animconv::Error and its kinds
#include "animconv/format.h"      // the format registry: sniff, read, write
#include "animconv/ground.h"      // --ground: the lowest foot point moved to y = 0
#include "animconv/humanoid.h"    // the 55 humanoid bones
#include "animconv/humanoid_pose.h"
#include "animconv/info_report.h"  // `info`: one input read, its JSON report
#include "animconv/io.h"           // bounded reads, atomic writes
#include "animconv/model.h"        // Asset, Rig, Clip, Channel
#include "animconv/morph_mesh.h"
#include "animconv/option_values.h"  // the CLI's options, checked and mapped onto ConvertOptions
#include "animconv/quaternion.h"
#include "animconv/reduce.h"  // error-bounded keyframe reduction
#include "animconv/resample.h"
#include "animconv/rest_pose.h"
#include "animconv/retarget.h"         // humanoid retargeting between rigs
#include "animconv/root_motion.h"      // --root-motion: in place, or the travel moved to a root
#include "animconv/sample.h"           // evaluating a channel at a time
#include "animconv/share_key_times.h"  // a clip's channels on shared key times (--compress)
#include "animconv/summary.h"          // what `info` prints
#include "animconv/timing.h"           // trim, speed, offset, resample, loop
#include "animconv/transform.h"
