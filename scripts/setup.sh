#!/usr/bin/env bash
# Installs what animconv needs on a fresh Debian 12 / Ubuntu machine (apt) and builds it.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true

# The design card's stack (docs/dependencies.md says why each is here).
need=(build-essential cmake
  libassimp-dev libglm-dev libfmt-dev libspdlog-dev libboost-program-options-dev
  nlohmann-json3-dev libmeshoptimizer-dev libgtest-dev libgmock-dev libbenchmark-dev
  zlib1g-dev  # the FBX curve scan inflates binary FBX arrays (formats/assimp/fbx_curves.cpp)
  pkgconf  # tests/install: the installed package through pkg-config
  assimp-utils  # `assimp export`, the peer of bench/bvh_vs_assimp_export.sh
  blender python3-numpy  # tests/blender: Blender 3.4 headless imports our outputs
  emscripten libfast-float-dev  # scripts/web.sh: the WebAssembly build (docs/web.md)
  chromium)  # scripts/web.sh: the web page and p5.js checks in headless Chromium (docs/web.md)
# Node runs the interop tests against the real three.js; any install that provides node and
# npm will do (Debian's nodejs + npm, or a nodesource nodejs that bundles npm).
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || need+=(nodejs npm)

missing=()
for package in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# web/app's npm packages (committed lockfile): the `animconv preview` viewer is built from them
# (three.js and three-vrm inlined; cli/CMakeLists.txt), as is the web page (scripts/web.sh).
[ -f web/app/node_modules/three/package.json ] ||
  npm ci --prefix web/app --no-audit --no-fund --loglevel=error

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
