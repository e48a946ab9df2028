#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer: a second build in
# build-asan (clang, ANIMCONV_SANITIZE=ON, warnings as errors), then ctest there. Any sanitizer
# report fails its test. Run scripts/test.sh first (it installs the interop tests' node packages).
# Usage: scripts/sanitize.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-asan}
source scripts/clang_env.sh

# RelWithDebInfo: optimised enough for the large-file tests, with line numbers in reports.
cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$CLANGXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DANIMCONV_SANITIZE=ON -DANIMCONV_WERROR=ON >/dev/null
cmake --build "$build_dir" -j2
cd "$build_dir"
ctest --output-on-failure -j2 "$@"
