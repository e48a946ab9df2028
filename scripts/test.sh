#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run every test (unit, CLI,
# interop against the real three.js in Node, data reproducibility, the bad-input corpus); then the
# WebAssembly build against the native CLI (build-web, scripts/web.sh), the same suite under
# ASan + UBSan in one clang build that also holds the libFuzzer harnesses (build-asan,
# scripts/sanitize.sh), and a short fuzz run of every reader from that build.
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
# The sanitizer build holds the libFuzzer harnesses too (ANIMCONV_FUZZ=ON): one clang build
# instead of two. Blender's tests are left out there: Blender's own run is their whole time, and
# the conversions they check run under the sanitizers in the interop and sweep tests anyway; so
# is the sweep's --reduce round, which runs the readers and writers of the plain sweep again.
stage sanitize env SANITIZE_FUZZ=1 scripts/sanitize.sh -LE 'blender|sweep-reduce'
# 60 s per harness, two at a time, from a fixed seed so the result reproduces; the long
# exploring runs are by hand (docs/reliability.md, "Fuzzing").
stage fuzz env FUZZ_BUILD_DIR=build-asan FUZZ_JOBS=2 FUZZ_SEED=1 scripts/fuzz.sh 60
