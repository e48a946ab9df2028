// glTF Transform's resample on one file, as `gltf-transform resample IN OUT --tolerance T` does
// it (the CLI passes the WebAssembly resampler of keyframe-resample; `--js` uses the JavaScript
// resampleDebug that is the library's default instead; both drop the same keys).
//
//   node resample.mjs IN OUT TOLERANCE [--js]
//
// Prints one JSON line: milliseconds spent reading, resampling and writing, measured in-process
// (the caller also times the whole process, Node's start-up included).
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { resample, unpartition } from '@gltf-transform/functions';
import { ready as resampleReady, resample as resampleWasm } from 'keyframe-resample';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

const [input, output, toleranceText, ...flags] = process.argv.slice(2);
const tolerance = Number(toleranceText);
if (!input || !output || !(tolerance > 0)) {
  console.error('usage: node resample.mjs IN OUT TOLERANCE [--js]');
  process.exit(2);
}
const useJs = flags.includes('--js');

const now = () => Number(process.hrtime.bigint()) / 1e6;
// The meshopt codec is only needed by files that use EXT_meshopt_compression (facecap); its
// WebAssembly start-up is part of reading such a file in glTF Transform, so it is timed with it.
const t0 = now();
await MeshoptDecoder.ready;
await MeshoptEncoder.ready;
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
  'meshopt.decoder': MeshoptDecoder,
  'meshopt.encoder': MeshoptEncoder,
});
const document = await io.read(input);
const t1 = now();
await document.transform(
  useJs ? resample({ tolerance }) : resample({ ready: resampleReady, resample: resampleWasm, tolerance }),
);
const t2 = now();
// A GLB holds one buffer: a .gltf with several (SimpleSkin, SimpleMorph) is merged into one first,
// which leaves the animation data as it is.
if (output.toLowerCase().endsWith('.glb') && document.getRoot().listBuffers().length > 1) {
  await document.transform(unpartition());
}
await io.write(output, document);
const t3 = now();
console.log(JSON.stringify({ read_ms: t1 - t0, resample_ms: t2 - t1, write_ms: t3 - t2 }));
