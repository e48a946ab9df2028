#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run every test (unit, CLI,
# interop against the real three.js in Node, data reproducibility, the bad-input corpus); then the
# WebAssembly build against the native CLI (build-web, scripts/web.sh), and the suite's native
# parts under ASan + UBSan in a clang build (build-asan, scripts/sanitize.sh).
# Each stage's wall time is printed as it ends and again in a table at the end (docs/testing.md,
# "CI time", keeps the measured figures).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

timings=()
# Runs "$@" as the stage named $1 and records its wall time.
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$(printf '%-10s %5d s' "$name" $((SECONDS - start)))")
  echo "test.sh: stage $name done in $((SECONDS - start)) s"
}
report() {
  local status=$?
  echo "test.sh: stage times (total $SECONDS s, exit $status):"
  local line
  for line in "${timings[@]}"; do echo "  $line"; done
}
trap report EXIT

stage setup scripts/setup.sh "$build_dir" -DANIMCONV_WERROR=ON
stage npm npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
stage ctest bash -c 'cd "$1" && ctest --output-on-failure -j"$(nproc)"' ctest "$build_dir"
# The WebAssembly build and its parity with the native CLI just tested (docs/web.md): before the
# sanitizers, which take longest, so a web failure shows early.
stage web scripts/web.sh "$build_dir"
# The sanitizer stage runs what exercises our native code in ways the normal suite cannot see:
# the unit tests, the bad-input corpus, the fuzz corpora and bounds, the documented commands,
# and the sweep of one or two inputs per reader family (label sweep-asan). Left out: Blender's
# and the interop tests (their time is Blender's and Node's; the conversions they check are the
# sweep's), the rest of the sweep (the same readers and writers on more files) and the install
# test (a compile). docs/testing.md, "CI time", has the figures.
stage sanitize scripts/sanitize.sh -LE '^(blender|interop|sweep|sweep-reduce|install)$'
# Fuzzing itself is by hand (docs/reliability.md, "Fuzzing": ten CPU-minutes per harness); CI
# replays every corpus and regression through the harnesses above (label fuzz).
