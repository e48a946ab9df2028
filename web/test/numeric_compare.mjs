// Equivalence of two outputs that differ only in the last bits of computed numbers (docs/web.md,
// "Parity": glibc's and emscripten's musl libm round sin, cos, atan2, acos differently in the
// last bit for a few percent of arguments). Two files are equivalent when everything but the
// numbers is byte-identical (text, JSON, binary layout) and each pair of numbers is within
// `DOUBLE_TOLERANCE` (text and JSON, written from doubles) or `FLOAT_TOLERANCE` (float32 words
// of glTF buffers) relative to its magnitude (absolute below 1). Returns null when equivalent,
// else what differs; `stats.maxRelative` gathers the largest difference seen.
export const DOUBLE_TOLERANCE = 1e-9;
export const FLOAT_TOLERANCE = 1e-5;

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;

function closeEnough(a, b, tolerance, stats) {
  if (a === b) return true;
  const scale = Math.max(1, Math.abs(a), Math.abs(b));
  const relative = Math.abs(a - b) / scale;
  stats.maxRelative = Math.max(stats.maxRelative, relative);
  return relative <= tolerance;
}

// Text with numbers: the text between numbers must match exactly.
export function compareText(a, b, stats, tolerance = DOUBLE_TOLERANCE) {
  const split = (text) => ({ rest: text.split(NUMBER), numbers: text.match(NUMBER) ?? [] });
  const x = split(a);
  const y = split(b);
  if (x.numbers.length !== y.numbers.length || x.rest.join('#') !== y.rest.join('#')) {
    return 'the text around the numbers differs';
  }
  for (let i = 0; i < x.numbers.length; ++i) {
    if (!closeEnough(Number(x.numbers[i]), Number(y.numbers[i]), tolerance, stats)) {
      return `number ${i}: ${x.numbers[i]} vs ${y.numbers[i]}`;
    }
  }
  return null;
}

function compareFloatWords(a, b, stats) {
  if (a.length !== b.length) return `binary lengths ${a.length} vs ${b.length}`;
  const x = new DataView(a.buffer, a.byteOffset, a.byteLength);
  const y = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i + 4 <= a.length; i += 4) {
    const u = x.getUint32(i, true);
    const v = y.getUint32(i, true);
    if (u !== v && !closeEnough(x.getFloat32(i, true), y.getFloat32(i, true), FLOAT_TOLERANCE, stats)) {
      return `binary word at byte ${i} differs`;
    }
  }
  for (let i = a.length - (a.length % 4); i < a.length; ++i) if (a[i] !== b[i]) return `binary byte ${i} differs`;
  return null;
}

// A glb: its JSON chunk as text, its BIN chunk as float words.
function glbChunks(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks = [];
  for (let offset = 12; offset + 8 <= bytes.length;) {
    const length = view.getUint32(offset, true);
    chunks.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 8 + length;
  }
  return chunks;
}

// A .gltf: the JSON with its embedded data: URIs cut out, and their decoded bytes.
function gltfParts(text) {
  const buffers = [];
  const json = text.replace(/"data:[^;"]*;base64,([^"]*)"/g, (_, data) => {
    buffers.push(new Uint8Array(Buffer.from(data, 'base64')));
    return '"data:"';
  });
  return { json, buffers };
}

// A three.js clip's uuid is a hash of the clip's JSON text (formats/three/three_json_writer.cpp),
// so numbers that differ in their last bits give another uuid: compared as the same.
const UUID = /"uuid":"[0-9a-f-]{36}"/g;

export function compareOutputs(format, a, b, stats) {
  const decoder = new TextDecoder();
  if (format === 'three') {
    return compareText(decoder.decode(a).replace(UUID, '"uuid"'), decoder.decode(b).replace(UUID, '"uuid"'), stats);
  }
  if (format === 'glb' || format === 'vrma') {
    const x = glbChunks(a);
    const y = glbChunks(b);
    if (x.length !== y.length) return 'chunk counts differ';
    return compareText(decoder.decode(x[0]).trimEnd(), decoder.decode(y[0]).trimEnd(), stats) ??
      (x.length > 1 ? compareFloatWords(x[1], y[1], stats) : null);
  }
  if (format === 'gltf') {
    const x = gltfParts(decoder.decode(a));
    const y = gltfParts(decoder.decode(b));
    const json = compareText(x.json, y.json, stats);
    if (json || x.buffers.length !== y.buffers.length) return json ?? 'buffer counts differ';
    for (let i = 0; i < x.buffers.length; ++i) {
      const problem = compareFloatWords(x.buffers[i], y.buffers[i], stats);
      if (problem) return problem;
    }
    return null;
  }
  return compareText(decoder.decode(a), decoder.decode(b), stats);
}

// Two JSON values (reports): same structure and strings, numbers within DOUBLE_TOLERANCE.
export function compareJson(a, b, stats, where = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    return closeEnough(a, b, DOUBLE_TOLERANCE, stats) ? null : `${where}: ${a} vs ${b}`;
  }
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    return `${where}: types differ`;
  }
  if (a === null || typeof a !== 'object') return a === b ? null : `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const keys = Object.keys(a);
  if (keys.join() !== Object.keys(b).join()) return `${where}: keys differ`;
  for (const key of keys) {
    const problem = compareJson(a[key], b[key], stats, `${where}/${key}`);
    if (problem) return problem;
  }
  return null;
}
