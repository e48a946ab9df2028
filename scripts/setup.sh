#!/usr/bin/env bash
# Installs what animconv needs on a fresh Debian 12 / Ubuntu machine and builds it.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true

packages=(build-essential cmake pkg-config
  libassimp-dev libglm-dev libfmt-dev libspdlog-dev libboost-program-options-dev
  nlohmann-json3-dev libmeshoptimizer-dev libgtest-dev libgmock-dev libbenchmark-dev
  nodejs npm)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
# nodesource's nodejs bundles npm; Debian's splits it. Either satisfies us.
if command -v npm >/dev/null 2>&1; then
  missing=("${missing[@]/npm/}")
  missing=("${missing[@]/nodejs/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
