#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer: a second build in
# build-asan (clang, ANIMCONV_SANITIZE=ON, warnings as errors), then ctest there. Any sanitizer
# report fails its test. Run scripts/test.sh first (it installs the interop tests' node packages).
# SANITIZE_FUZZ=1 builds the libFuzzer harnesses into the same folder (ANIMCONV_FUZZ=ON: the
# libraries carry libFuzzer's coverage hooks, which the tests run through as no-ops, and slower),
# so that `FUZZ_BUILD_DIR=build-asan scripts/fuzz.sh` needs no build of its own.
# SANITIZE_TEST_SHARDS=0 lists every gtest test on its own (slower: one process each).
# Usage: scripts/sanitize.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-asan}
source scripts/clang_env.sh
fuzz=OFF
if [ "${SANITIZE_FUZZ:-0}" = 1 ]; then fuzz=ON; fi

# No benchmarks (nothing runs them here); each gtest binary as a few shards, each one process
# (tests/CMakeLists.txt, ANIMCONV_TEST_SHARDS: an ASan process takes ~0.3 s to start).
cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$CLANGXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZE_OPT_FLAGS" -DANIMCONV_BUILD_BENCH=OFF \
  -DANIMCONV_TEST_SHARDS="${SANITIZE_TEST_SHARDS:-8}" \
  -DANIMCONV_SANITIZE=ON -DANIMCONV_FUZZ="$fuzz" -DANIMCONV_WERROR=ON >/dev/null
cmake --build "$build_dir" -j2
cd "$build_dir"
ctest --output-on-failure -j2 "$@"
