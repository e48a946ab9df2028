// glTF Transform's compact animation output on one file: resample (the WebAssembly resampler the
// CLI passes, default tolerance 1e-4) + quantize + meshopt (level high: EXT_meshopt_compression
// with filters), as `gltf-transform resample`, `quantize` and `meshopt` do one after another.
//
//   node gltf_transform_compress.mjs IN OUT
//
// Prints one JSON line with the in-process milliseconds (the caller times the whole process too).
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { meshopt, quantize, resample, unpartition } from '@gltf-transform/functions';
import { ready as resampleReady, resample as resampleWasm } from 'keyframe-resample';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node gltf_transform_compress.mjs IN OUT');
  process.exit(2);
}
const now = () => Number(process.hrtime.bigint()) / 1e6;
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
  resample({ ready: resampleReady, resample: resampleWasm }),
  quantize(),
  meshopt({ encoder: MeshoptEncoder, level: 'high' }),
);
if (output.toLowerCase().endsWith('.glb') && document.getRoot().listBuffers().length > 1) {
  await document.transform(unpartition());
}
const t2 = now();
await io.write(output, document);
const t3 = now();
console.log(JSON.stringify({ read_ms: t1 - t0, transform_ms: t2 - t1, write_ms: t3 - t2 }));
