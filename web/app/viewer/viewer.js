// The module `animconv preview` pages run (viewer.html): decodes the clip and model the CLI put
// into the page and plays them with the web page's own Preview (src/preview.js), choosing the way
// the CLI chose (pipeline/preview.cpp, PreviewShow): on the VRM model (three-vrm-animation), on the
// output's own meshes (GLTFLoader), as a three.js clip on the model (AnimationClip.parse), on the
// generated humanoid, or the BVH's own skeleton (BVHLoader).
import {Preview, parseGltf} from '../src/preview.js';

const $ = (id) => document.getElementById(id);

function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function show(preview, data) {
  const output = decodeBase64(data.output.base64);
  const model = data.model ? await parseGltf(decodeBase64(data.model.base64)) : null;
  const title = data.output.name;
  switch (data.show) {
    case 'gltf':
      preview.showGltf(await parseGltf(output), title);
      return;
    case 'vrma-on-vrm':
      await preview.showVrmaOnVrm(output, model, title);
      return;
    case 'vrma-on-humanoid':
      await preview.showVrmaOnHumanoid(output, title, 'on a generated humanoid (no --model given)');
      return;
    case 'three-on-model':
      preview.showThreeClipOn(JSON.parse(new TextDecoder().decode(output)), model, title,
                              `the model '${data.model.name}'`);
      return;
    case 'bvh':
      preview.showBvh(new TextDecoder().decode(output), title);
      return;
    default:
      throw new Error(`this viewer cannot show '${data.show}': the page is newer than the viewer`);
  }
}

const data = JSON.parse($('animconv-preview-data').textContent);
document.title = `animconv preview: ${data.input}`;
$('what').textContent = data.what;
$('diagnostics').textContent = data.diagnostics.join('\n') || '(nothing)';
$('info').textContent = data.info;
const preview = new Preview($('preview'), {
  play: $('play'), scrub: $('scrub'), time: $('time'), speed: $('preview-speed'),
  note: $('preview-note'), title: $('preview-title'), bones: $('show-bones'),
});
try {
  await show(preview, data);
} catch (error) {
  $('error').textContent = `No preview: ${error.message}`;
  document.body.dataset.preview = 'error';
}
