#!/usr/bin/env bash
# The WebAssembly build and its tests (docs/web.md): builds the npm package's module with
# emscripten into build-web, then checks byte parity with the native CLI on every sample, the
# bad-input corpus and info/diff reports (web/test/parity.mjs), the JavaScript layer's own
# behaviour (web/test/api_test.mjs), and the packed package installed offline
# (web/test/package_test.sh), and the p5.js cookbook sketch in headless Chromium on `bake` output
# (web/app/test/p5_sketch_test.mjs), and `animconv preview` pages from file:// in the same browser
# (web/app/test/preview_test.mjs). scripts/test.sh runs it after the native suite.
# Usage: scripts/web.sh [NATIVE_BUILD_DIR]   (default: build; must hold a built cli/animconv)
set -euo pipefail
cd "$(dirname "$0")/.."
native_build=${1:-${BUILD_DIR:-build}}
web_build=${WEB_BUILD_DIR:-build-web}
animconv="$native_build/cli/animconv"
[ -x "$animconv" ] || { echo "web.sh: build the native animconv first ($animconv)" >&2; exit 1; }
command -v emcmake >/dev/null || { echo "web.sh: emscripten missing: run scripts/setup.sh" >&2; exit 1; }
# emscripten's JS optimizer needs Debian's node modules (acorn); a node that is not Debian's
# does not look in /usr/share/nodejs by itself.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

start=$SECONDS
# web/app's npm folder first: the package's preview viewer is built from it (web/CMakeLists.txt),
# and the page checks below run in it.
npm ci --prefix web/app --no-audit --no-fund --loglevel=error
# The npm CLI's help texts and option grammar come from the native CLI (web/CMakeLists.txt).
emcmake cmake -S . -B "$web_build" -DCMAKE_BUILD_TYPE=Release -DANIMCONV_WERROR=ON \
  -DANIMCONV_NATIVE_CLI="$(realpath "$animconv")" "${launcher[@]}" >/dev/null
cmake --build "$web_build" -j"${JOBS:-$(nproc)}"
echo "web.sh: built in $((SECONDS - start)) s; module $(stat -c %s "$web_build/web/dist/animconv_wasm.mjs") bytes"
node web/test/parity.mjs --animconv "$animconv" --package "$web_build/web" --source .
node web/test/api_test.mjs --package "$web_build/web" --source . --animconv "$animconv"
node web/test/cli_parity.mjs --animconv "$animconv" --package "$web_build/web" --source .
web/test/package_test.sh "$web_build/web" "$animconv"
# The web page (web/app) in headless Chromium, then `animconv preview` pages from file://, made by
# the native and the npm CLI alike.
node web/app/test/page_test.mjs --animconv "$animconv" --package "$web_build/web" --source .
node web/app/test/preview_test.mjs --animconv "$animconv" --source . \
  --npm-cli "$web_build/web/cli/main.mjs"
node web/app/test/p5_sketch_test.mjs --animconv "$animconv" --source .
echo "web.sh: done in $((SECONDS - start)) s"
