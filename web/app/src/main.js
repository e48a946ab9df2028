// The page's UI: picks and drops files, gathers the options, hands the job to the conversion
// worker, shows its progress, the per-file results and the download, and starts the preview.
import {collectOptionFiles, collectOptions} from './options.js';
import {Preview, parseGltf, hasMeshes} from './preview.js';

const $ = (id) => document.getElementById(id);
let worker = startWorker();
const state = {inputs: [], sideFiles: [], model: null, results: [], download: null, job: 0};

// Files a glTF refers to: given to every input as side files, not converted themselves.
const SIDE_FILE = /\.(bin|png|jpe?g|webp|ktx2)$/i;
const MODEL_FILE = /\.vrm$/i;

const preview = new Preview($('preview'), {
  play: $('play'), scrub: $('scrub'), time: $('time'), speed: $('preview-speed'),
  note: $('preview-note'), title: $('preview-title'), bones: $('show-bones'),
});
preview.clear('Convert a file to preview it.');

function setBusy(busy) {
  document.body.dataset.state = busy ? 'converting' : 'idle';
  $('convert').disabled = busy;
  $('cancel').hidden = !busy;
}

function addFiles(files) {
  for (const file of files) {
    if (MODEL_FILE.test(file.name)) state.model = file;
    else if (SIDE_FILE.test(file.name)) state.sideFiles.push(file);
    else state.inputs.push(file);
  }
  renderFileList();
}

function renderFileList() {
  const list = $('file-list');
  list.replaceChildren();
  const line = (text) => list.appendChild(Object.assign(document.createElement('li'), {textContent: text}));
  for (const file of state.inputs) line(`${file.name} (${formatBytes(file.size)})`);
  for (const file of state.sideFiles) line(`${file.name} (side file)`);
  if (state.model) line(`${state.model.name} (model)`);
}

function formatBytes(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} B`;
}

$('input-files').addEventListener('change', (event) => {
  state.inputs = [];
  state.sideFiles = [];
  addFiles(event.target.files);
});
$('model-file').addEventListener('change', (event) => {
  state.model = event.target.files[0] ?? null;
  renderFileList();
});
const dropZone = $('drop-zone');
dropZone.addEventListener('dragover', (event) => {
  event.preventDefault();
  dropZone.classList.add('dragging');
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  dropZone.classList.remove('dragging');
  addFiles(event.dataTransfer.files);
});

// Progress as the worker reports it: per file, and within one file its stages.
const STAGE_SHARE = {reading: 0, converting: 0.1, writing: 0.9, zipping: 0};
let progressText = '';
let stageStarted = 0;

function showProgress({index, count, name, stage}) {
  const bar = $('progress');
  bar.hidden = false;
  bar.value = (index + (STAGE_SHARE[stage] ?? 0)) / count;
  progressText = stage === 'zipping' ? 'zipping the outputs'
    : `${name} (${index + 1} of ${count}): ${stage}`;
  stageStarted = performance.now();
  document.body.dataset.stage = stage;
  document.body.dataset.progress = `${Math.min(index + 1, count)}/${count} ${stage}`;
  // The new stage shows at once, not at the next tick (the stage and the line agree).
  tickStatus();
}

// The status line ticks while a stage runs (the main thread is free: the work is in the worker).
function tickStatus() {
  if (document.body.dataset.state !== 'converting') return;
  $('status').textContent = `${progressText}… ${((performance.now() - stageStarted) / 1000).toFixed(1)} s`;
}
setInterval(tickStatus, 100);

function resultItem(result, index) {
  const item = document.createElement('li');
  item.dataset.input = result.input;
  const head = document.createElement('div');
  if (result.ok) {
    head.textContent = `${result.input} → ${result.files.map((f) => `${f.name} (${formatBytes(f.bytes.length)})`).join(', ')}`;
    const button = Object.assign(document.createElement('button'), {type: 'button', textContent: 'Preview'});
    button.addEventListener('click', () => startPreview(index));
    head.append(' ', button);
  } else {
    head.textContent = `${result.input}: not converted`;
  }
  item.appendChild(head);
  const lines = result.ok
    ? [...result.warnings.map((t) => ['warning', `warning: ${t}`]), ...result.notes.map((t) => ['note', `info: ${t}`])]
    : [['error', `error: ${result.error.message}`]];
  for (const [kind, text] of lines) {
    item.appendChild(Object.assign(document.createElement('div'), {className: kind, textContent: text}));
  }
  return item;
}

function showResults({results, download}) {
  state.results = results;
  state.download = download;
  $('results').replaceChildren(...results.map(resultItem));
  $('download').hidden = !download;
  if (download) $('download').textContent = `Download ${download.name} (${formatBytes(download.bytes.length)})`;
  $('progress').value = 1;
  const failed = results.filter((r) => !r.ok).length;
  $('status').textContent = failed === 0 ? `Converted ${results.length} file(s).`
    : `${results.length - failed} of ${results.length} file(s) converted; ${failed} failed.`;
  setBusy(false);
  document.body.dataset.converted = String(++state.job);
  const first = results.findIndex((r) => r.ok);
  if (first >= 0) startPreview(first);
  else preview.clear('Nothing to preview.');
}

$('download').addEventListener('click', () => {
  const {name, bytes} = state.download;
  const url = URL.createObjectURL(new Blob([bytes]));
  const link = Object.assign(document.createElement('a'), {href: url, download: name});
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
});

$('convert-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (state.inputs.length === 0) {
    $('status').textContent = 'Pick or drop an animation file first.';
    return;
  }
  setBusy(true);
  $('results').replaceChildren();
  $('download').hidden = true;
  $('info').textContent = '';
  $('info-summary').textContent = '';
  preview.clear('');
  worker.postMessage({type: 'convert', job: {
    inputs: state.inputs, sideFiles: state.sideFiles, model: state.model,
    options: collectOptions($('convert-form')), optionFiles: collectOptionFiles($('convert-form')),
  }});
});

// The preview of result `index`: what can be shown as it is (a glTF with meshes, a .vrma), else
// the worker's .vrma copy of it, on the user's VRM or the generated humanoid.
let previewRequest = 0;
async function startPreview(index) {
  const request = ++previewRequest;
  const result = state.results[index];
  const [main, ...rest] = result.files;
  document.body.dataset.preview = 'loading';
  let gltf = null;
  if (/\.(glb|gltf|vrm)$/i.test(main.name)) {
    gltf = await parseGltf(main.bytes, rest).catch(() => null);
    if (gltf && !hasMeshes(gltf)) gltf = null;
  }
  // A three.js clip plays on the glTF its tracks name: the model it was retargeted onto, else a
  // glTF input (a morph clip on the input's mesh).
  const threeClip = /\.json$/i.test(main.name) && !/\.hierarchy\.json$/i.test(main.name);
  const model = threeClip ? await clipTarget(state.inputs[index]) : null;
  const isVrma = /\.vrma$/i.test(main.name);
  worker.postMessage({type: 'preview', request, index, wantVrma: !gltf && !isVrma && !model});
  const reply = await previewReply(request);
  if (request !== previewRequest) return;
  $('info').textContent = reply.report ? JSON.stringify(reply.report, null, 2) : `info: ${reply.reportError}`;
  $('info-summary').textContent = reply.report ? infoSummary(reply.report) : '';
  try {
    if (gltf) {
      preview.showGltf(gltf, main.name);
      return;
    }
    if (model) {
      preview.showThreeClipOn(JSON.parse(new TextDecoder().decode(main.bytes)), model, main.name,
        state.model ? 'your model\'s own nodes' : 'the input\'s meshes and nodes');
      return;
    }
    const vrma = isVrma ? main.bytes : reply.vrma;
    if (!vrma && /\.bvh$/i.test(main.name)) {
      preview.showBvh(new TextDecoder().decode(main.bytes), main.name);
      return;
    }
    if (!vrma) {
      preview.clear(`No preview: the clip has no humanoid to show (${reply.vrmaError}).`);
      return;
    }
    const copy = isVrma ? '' : ' (through a .vrma copy)';
    const vrmModel = state.model ? await parseGltf(new Uint8Array(await state.model.arrayBuffer())) : null;
    if (vrmModel?.userData.vrm) await preview.showVrmaOnVrm(vrma, vrmModel, main.name + copy);
    else await preview.showVrmaOnHumanoid(vrma, main.name + copy,
      vrmModel ? 'on a generated humanoid (the model is not a VRM)' : 'on a generated humanoid');
  } catch (error) {
    preview.clear(`No preview: ${error.message}`);
  }
}

async function clipTarget(input) {
  const bytesOf = async (file) => new Uint8Array(await file.arrayBuffer());
  if (state.model) return parseGltf(await bytesOf(state.model)).catch(() => null);
  if (!/\.(glb|gltf|vrm)$/i.test(input.name)) return null;
  const sideFiles = await Promise.all(state.sideFiles.map(async (f) => ({name: f.name, bytes: await bytesOf(f)})));
  const gltf = await parseGltf(await bytesOf(input), sideFiles).catch(() => null);
  return gltf && hasMeshes(gltf) ? gltf : null;
}

// One line over the full report: what a user looks for first.
function infoSummary(report) {
  const clips = report.clips.map((clip) =>
    `"${clip.name}" ${clip.duration_seconds.toFixed(2)} s, ${clip.channels} channels, ${clip.keys} keys`);
  return `${report.input}: ${report.format}, ${formatBytes(report.bytes)}, ${report.nodes} nodes` +
         `, ${report.humanoid.bones_mapped} humanoid bones; ${clips.join('; ') || 'no clips'}`;
}

// Preview replies by request number: a second click on Preview must not take the first's reply.
const waiting = new Map();
function previewReply(request) {
  return new Promise((resolve) => waiting.set(request, resolve));
}

function onWorkerMessage({data}) {
  if (data.type === 'progress') showProgress(data);
  else if (data.type === 'converted') showResults(data);
  else if (data.type === 'formats') fillFormats(data.formats);
  else if (data.type === 'failed') {
    $('status').textContent = `error: ${data.error.message}`;
    setBusy(false);
  }
  if (data.type === 'preview') {
    waiting.get(data.request)?.(data);
    waiting.delete(data.request);
  }
}

function fillFormats(formats) {
  const select = $('format');
  for (const format of formats.filter((f) => f.write)) {
    const option = document.createElement('option');
    option.value = format.id;
    option.textContent = `${format.id} (${format.extensions.join(', ')}): ${format.description}`;
    select.appendChild(option);
  }
  select.value = 'vrma';
  document.body.dataset.ready = 'true';
}
function startWorker() {
  const started = new Worker(new URL('./worker.js', import.meta.url), {type: 'module'});
  started.onmessage = onWorkerMessage;
  // A worker that cannot start (its module or the WebAssembly failed to load) says so.
  started.onerror = (event) => {
    $('status').textContent = `error: the converter did not start (${event.message ?? 'worker error'})`;
    setBusy(false);
  };
  return started;
}

// Cancel: a call into the module cannot be interrupted, so the worker is ended and a fresh one
// started (it loads the module again on its first job).
$('cancel').addEventListener('click', () => {
  worker.terminate();
  worker = startWorker();
  $('progress').hidden = true;
  $('status').textContent = 'Cancelled: nothing was converted.';
  setBusy(false);
});

worker.postMessage({type: 'formats'});
setBusy(false);
