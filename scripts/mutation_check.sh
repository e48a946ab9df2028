#!/usr/bin/env bash
# Mutation check (docs/testing.md): applies each plausible wrong change below, one at a time, to
# a scratch copy of the repository, builds it and runs the whole ctest suite. A mutation the suite
# fails on is "caught"; one it passes is "MISSED", a hole in the suite. Run by hand before a
# release, not in CI: it takes one build of the copy, then per mutation a rebuild and a test run.
#
# Per mutation the tests meant to catch it (the ctest regex in its entry) run first; when they
# fail, the mutation is caught (the suite fails) and the rest of the suite is not run, unless
# FULL=1, which runs the whole suite every time and lists every failing test. When they pass, the
# whole suite decides between caught (by other tests) and MISSED. About 15 minutes on 2 cores
# (FULL=1: about 35), after the first build.
#
# Usage: scripts/mutation_check.sh [NAME ...]      (no NAME: every mutation)
# Environment: MUTATION_DIR (scratch folder, default /tmp/animconv-mutants; its src/ is replaced,
#   its build/ reused), JOBS (default 2), FULL=1, CTEST_ARGS (extra ctest arguments).
# The working tree is never changed: the copy is taken from it (tracked and untracked files, not
# .git, build folders or node_modules, which is linked), then each mutation is applied with sed
# to the copy and undone before the next. Exit status: 0 if every mutation was caught, 1 if any
# was missed, did not apply or did not build, 2 if the unmutated copy fails.
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
scratch=${MUTATION_DIR:-/tmp/animconv-mutants}
jobs=${JOBS:-2}
copy="$scratch/src"
build="$scratch/build"

# name # file # sed script # the tests meant to catch it (docs/testing.md) # their ctest regex;
# '#' separates the fields because the sed scripts hold '|'.
mutations=(
  'reduce-no-between-samples#libconvert/reduce.cpp#s/^  const bool between =$/  const bool between = false \&\&/#ReduceTest.SparseLargeAngleKeysAreCheckedBetweenKeys#^ReduceTest\.SparseLargeAngle'
  'three-names-no-u202f#formats/three/three_names.cpp#s/ || b2 == 0xAF//#ThreeNamesTest.EveryJavaScriptWhitespaceBecomesUnderscore, interop.names.*#^ThreeNamesTest\.EveryJavaScriptWhitespace|^interop\.(gltf\.csv\.)?names'
  'unity-csv-w-zero-is-missing#formats/csv/unity_csv_reader.cpp#s/return xyzw\[0\] == 0 \&\& xyzw\[1\] == 0 \&\& xyzw\[2\] == 0 \&\& xyzw\[3\] == 0;/return xyzw[3] == 0;/#UnityCsvReaderTest.HalfTurnKeysWithZeroWAreRotations#^UnityCsvReaderTest\.HalfTurn'
  'slerp-long-path#libconvert/quaternion.cpp#s/const double sign = cosine < 0 ? -1.0 : 1.0;/const double sign = 1.0;/#QuaternionTest.SlerpFollowsTheShortPathAcrossHemispheres#^QuaternionTest\.SlerpFollowsTheShortPath'
  'mirror-no-determinant#libconvert/axes.cpp#s/const double det = map.determinant();/const double det = 1;/#AxesTest.*, PipelineTest.UnityCsvToThreeGivesUniGltfsValues, interop#^PipelineTest\.UnityCsvToThreeGivesUniGltfsValues'
  'resample-ignored#libconvert/timing.cpp#s/if (options.resample_fps) ResampleClip/if (false) ResampleClip/#TimingOptionsTest.ResampleAtTheOriginalRateWritesTheSameClip#^TimingOptionsTest\.ResampleAtTheOriginalRate'
  'retarget-drops-restless-source#libconvert/retarget.cpp#s/if (target_bones_\[bone\] < 0) continue;/if (target_bones_[bone] < 0 || !source_.rig.rest_pose_known) continue;/#RetargetTest.SourceWithoutRestPoseIsNormalised#^RetargetTest\.SourceWithoutRestPose'
  'retarget-fold-ends-only#libconvert/retarget.cpp#/^    std::sort(out.times_seconds.begin(), out.times_seconds.end());$/a\    if (parts.size() > 1) out.times_seconds = {out.times_seconds.front(), out.times_seconds.back()};#RetargetTest.BoneMissingOnTargetPassesItsRotationToChildren#^RetargetTest\.BoneMissingOnTarget'
  'retarget-rest-inverse-order#libconvert/retarget.cpp#s/return {parent, Multiply(Conjugate(rest), Conjugate(parent))};/return {parent, Multiply(Conjugate(parent), Conjugate(rest))};/#RetargetTest.* (unit tests only)#^RetargetTest\.'
  'bvh-rotation-order-reversed#formats/bvh/bvh_motion.cpp#s/rotation = Multiply(rotation, AxisAngle(axis, value));/rotation = Multiply(AxisAngle(axis, value), rotation);/#BvhReaderTest.RotationsFollowTheChannelOrder, interop.bvh.*.bvhloader#^BvhReaderTest\.RotationsFollow'
  'bvh-position-without-offset#formats/bvh/bvh_motion.cpp#s/= joint.offset\[static_cast<size_t>(axis)\] + value;/= value;/#BvhReaderTest.PositionsAreOffsetPlusChannelsOnEveryJointInMetres, interop.bvh.*.bvhloader#^BvhReaderTest\.Positions'
  'gltf-min-max-from-doubles#formats/gltf/gltf_writer.cpp#s/json::array({times.front()}), json::array({times.back()})/json::array({channel.times_seconds.front()}), json::array({channel.times_seconds.back()})/#GltfWriterTest.AccessorMinAndMaxAreTheStoredFloat32Extremes, interop.*gltf* (validator)#^GltfWriterTest\.AccessorMinAndMax'
)

selected=("$@")
wanted() {
  [ ${#selected[@]} -eq 0 ] && return 0
  local s
  for s in "${selected[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}

log() { echo "mutation_check: $*" >&2; }

rm -rf "$copy" && mkdir -p "$copy" "$build" || exit 2
log "copying $source_dir to $copy"
(cd "$source_dir" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$source_dir" && xargs -0 cp --parents -t "$copy" 2>/dev/null)
if [ -d "$source_dir/tests/interop/node_modules" ]; then
  ln -s "$source_dir/tests/interop/node_modules" "$copy/tests/interop/node_modules"
fi
shared=${ANIMCONV_SHARED_DATA:-$source_dir/../shared/data}
configure=(-DCMAKE_BUILD_TYPE=Release -DANIMCONV_WERROR=ON)
[ -d "$shared" ] && configure+=("-DANIMCONV_SHARED_DATA=$(cd "$shared" && pwd)")
export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-$(command -v ccache || true)}
export CCACHE_BASEDIR="$scratch"  # the copy and its build are rebuilt every run: keep hits

build_and_test() {  # log-prefix; returns 0 pass, 1 tests failed, 3 build failed
  if ! cmake --build "$build" -j"$jobs" >"$1.build.log" 2>&1; then return 3; fi
  # shellcheck disable=SC2086
  (cd "$build" && ctest -j"$jobs" ${CTEST_ARGS:-}) >"$1.ctest.log" 2>&1
}

log "configuring and building the unmutated copy"
cmake -S "$copy" -B "$build" "${configure[@]}" >"$scratch/configure.log" 2>&1 || {
  log "configure failed, see $scratch/configure.log"
  exit 2
}
build_and_test "$scratch/baseline"
case $? in
  0) log "the unmutated copy passes: $(grep -E 'tests passed' "$scratch/baseline.ctest.log")" ;;
  3) log "the unmutated copy does not build, see $scratch/baseline.build.log"; exit 2 ;;
  *) log "the unmutated copy fails its tests, see $scratch/baseline.ctest.log"; exit 2 ;;
esac

run_ctest() {  # log; ctest arguments...
  local log=$1
  shift
  # shellcheck disable=SC2086
  (cd "$build" && ctest -j"$jobs" ${CTEST_ARGS:-} "$@") >"$log" 2>&1
}

failed_tests() {  # ctest log -> the names of its failed tests, one a line
  sed -n '/The following tests FAILED:/,$p' "$1" 2>/dev/null |
    grep -E '^\s+[0-9]+ - ' | sed -E 's/^\s+[0-9]+ - //; s/ \(.*$//'
}

describe() {  # names (one a line) -> "N failed: a, b, c, d, ..."
  local count
  count=$(printf '%s\n' "$1" | grep -c . || true)
  printf '%s failed: %s%s' "$count" "$(printf '%s\n' "$1" | head -4 | paste -sd, - | sed 's/,/, /g')" \
    "$([ "$count" -gt 4 ] && echo ', ...')"
}

status=0
results=()
for entry in "${mutations[@]}"; do
  IFS='#' read -r name file script meant regex <<<"$entry"
  wanted "$name" || continue
  target="$copy/$file"
  cp -p "$target" "$scratch/original"
  sed -i -e "$script" "$target"
  if cmp -s "$target" "$scratch/original"; then
    results+=("$name|$file|NOT APPLIED (the code changed: update the sed script)|$meant")
    status=1
    continue
  fi
  log "$name: building"
  if ! cmake --build "$build" -j"$jobs" >"$scratch/$name.build.log" 2>&1; then
    verdict="BUILD FAILED (see $scratch/$name.build.log)"
    status=1
  else
    log "$name: the tests meant to catch it ($regex)"
    run_ctest "$scratch/$name.meant.log" -R "$regex"
    meant_code=$?
    meant_failed=$(failed_tests "$scratch/$name.meant.log")
    if grep -q 'No tests were found' "$scratch/$name.meant.log"; then
      meant_note="no test matches $regex; "
      meant_code=0
    else
      meant_note=""
    fi
    if [ $meant_code -ne 0 ] && [ "${FULL:-0}" != 1 ]; then
      verdict="caught by the meant tests ($(describe "$meant_failed"))"
    else
      log "$name: the whole suite"
      run_ctest "$scratch/$name.ctest.log"
      code=$?
      all_failed=$(failed_tests "$scratch/$name.ctest.log")
      if [ $code -eq 0 ]; then
        verdict="${meant_note}MISSED"
        status=1
      elif [ $meant_code -ne 0 ]; then
        verdict="caught by the meant tests and others ($(describe "$all_failed"))"
      else
        verdict="${meant_note}caught by other tests only, the meant ones pass ($(describe "$all_failed"))"
      fi
    fi
  fi
  results+=("$name|$file|$verdict|$meant")
  # Undo with a fresh mtime, so the next build recompiles the file (ccache makes that quick).
  cp "$scratch/original" "$target" && touch "$target"
done

# Leave the build matching the sources for a rerun.
cmake --build "$build" -j"$jobs" >/dev/null 2>&1
echo
echo "| mutation | file | result | meant to be caught by |"
echo "|---|---|---|---|"
for r in "${results[@]}"; do
  IFS='|' read -r name file verdict meant <<<"$r"
  echo "| $name | $file | $verdict | $meant |"
done
exit $status
