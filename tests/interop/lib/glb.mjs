// The GLB container as check_gltf.mjs needs it: telling GLB from JSON, splitting and packing the
// chunks (glTF 2.0 §4.4), reading the files a glTF refers to.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const GLB_MAGIC = 0x46546c67;  // 'glTF'
export const CHUNK_JSON = 0x4e4f534a;
export const CHUNK_BIN = 0x004e4942;

export function isGlb(bytes) {
  return bytes.length >= 12 && new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(0, true) === GLB_MAGIC;
}

// { json, bin (Uint8Array or null), glb } from the file's bytes; throws on a broken container.
export function splitContainer(bytes) {
  if (!isGlb(bytes)) {
    return { json: JSON.parse(new TextDecoder().decode(bytes)), bin: null, glb: false };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  if (length > bytes.length) throw new Error(`GLB header length ${length} > file size ${bytes.length}`);
  let json = null;
  let bin = null;
  for (let offset = 12; offset + 8 <= length;) {
    const chunkLength = view.getUint32(offset, true);
    const chunkType = view.getUint32(offset + 4, true);
    const data = bytes.subarray(offset + 8, offset + 8 + chunkLength);
    if (chunkType === CHUNK_JSON && json === null) json = JSON.parse(new TextDecoder().decode(data));
    else if (chunkType === CHUNK_BIN && bin === null) bin = data;
    offset += 8 + chunkLength;
  }
  if (json === null) throw new Error('GLB without a JSON chunk');
  return { json, bin, glb: true };
}

export function packGlb(json, bin) {
  const encoded = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (encoded.length + 3) & ~3;
  const binLength = bin ? (bin.length + 3) & ~3 : 0;
  const total = 12 + 8 + jsonLength + (bin ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(encoded, 20);
  out.fill(0x20, 20 + encoded.length, 20 + jsonLength);
  if (bin) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, CHUNK_BIN, true);
    out.set(bin, at + 8);
  }
  return out.buffer;
}

// A file next to `file`, for the relative URIs of inputs with external .bin/.png files.
export function readRelative(file, uri) {
  return new Uint8Array(readFileSync(resolve(dirname(file), decodeURIComponent(uri))));
}
