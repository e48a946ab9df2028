#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run every test (unit, CLI,
# interop against the real three.js in Node, data reproducibility, the bad-input corpus); then the
# WebAssembly build against the native CLI (build-web, scripts/web.sh), the same suite under
# ASan + UBSan (build-asan) and a short fuzz run of every reader (build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
scripts/setup.sh "$build_dir" -DANIMCONV_WERROR=ON
npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
(cd "$build_dir" && ctest --output-on-failure -j"$(nproc)")
# The WebAssembly build and its parity with the native CLI just tested (docs/web.md): before the
# sanitizers, which take longest, so a web failure shows early.
scripts/web.sh "$build_dir"
scripts/sanitize.sh
# 60 s per harness, two at a time, from a fixed seed so the result reproduces; the long
# exploring runs are by hand (docs/reliability.md, "Fuzzing").
FUZZ_JOBS=2 FUZZ_SEED=1 scripts/fuzz.sh 60
