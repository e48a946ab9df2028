#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run every test (unit, CLI,
# interop against the real three.js in Node, data reproducibility).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
scripts/setup.sh "$build_dir" -DANIMCONV_WERROR=ON
npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
cd "$build_dir"
ctest --output-on-failure -j"$(nproc)"
