#!/usr/bin/env bash
# The npm package as a user gets it (docs/testing.md, "Web build"): `npm pack` of the package
# folder, the tarball installed offline into an empty project, then `import { convert } from
# 'animconv'` converts data/unity/walk.csv to .vrma and the bytes must equal the native CLI's.
# Usage: web/test/package_test.sh PACKAGE_DIR NATIVE_ANIMCONV
set -euo pipefail
package_dir=$(realpath "$1")
animconv=$(realpath "$2")
source_dir=$(realpath "$(dirname "$0")/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack "$package_dir" --silent >/dev/null)
tarball=$(ls "$work"/animconv-*.tgz)
mkdir "$work/project"
cd "$work/project"
echo '{"name": "package-test", "version": "1.0.0", "private": true, "type": "module"}' > package.json
npm install "$tarball" --offline --no-audit --no-fund --loglevel=error >/dev/null
"$animconv" -q convert "$source_dir/data/unity/walk.csv" -o "$work/native.vrma"
cat > check.mjs <<'JS'
import { convert } from 'animconv';
import fs from 'node:fs';
const [input, expected] = process.argv.slice(2);
const result = await convert({ name: 'walk.csv', bytes: new Uint8Array(fs.readFileSync(input)) }, { to: 'vrma' });
const [file] = result.files;
if (result.files.length !== 1 || file.name !== 'walk.vrma') throw new Error(`unexpected files ${result.files.map((f) => f.name)}`);
if (Buffer.compare(Buffer.from(file.bytes), fs.readFileSync(expected)) !== 0) {
  console.error('package: walk.vrma from the installed package differs from the native output');
  process.exit(1);
}
console.log(`package: ${fs.statSync('node_modules/animconv/dist/animconv_wasm.mjs').size} bytes of module; walk.csv -> walk.vrma (${file.bytes.length} bytes) identical to the native CLI's`);
JS
node check.mjs "$source_dir/data/unity/walk.csv" "$work/native.vrma"
# The package's bin, as a user runs it: npx finds it in the project, with the native CLI's help,
# options and exit codes (web/test/cli_parity.mjs compares the two in depth).
npx --no-install animconv --help | grep -q '^usage: animconv \[-v|-q\] COMMAND'
npx --no-install animconv -q convert "$source_dir/data/unity/walk.csv" -o npx.vrma
cmp npx.vrma "$work/native.vrma"
status=0
npx --no-install animconv convert "$source_dir/data/unity/walk.csv" -o out.json --speed 0 \
  2>npx_error.txt || status=$?
[ "$status" -eq 1 ] && grep -q 'animconv: error: --speed' npx_error.txt || {
  echo "package: npx animconv with a bad --speed: exit $status, $(cat npx_error.txt)" >&2
  exit 1
}
echo "package: npx animconv --help runs; npx animconv convert walk.csv -o walk.vrma equals the native CLI's; a usage error exits 1"
