// The preview canvas, read back from screenshots (docs/web.md, "Checks"): shared by the web page's
// check (page_test.mjs) and the `animconv preview` pages' (preview_test.mjs). A page's player is
// the web page's (src/preview.js): #preview canvas, #scrub range, body[data-preview=ready].
import assert from 'node:assert/strict';
import {decodePng} from './png.mjs';

// The preview canvas at `seconds`: its pixels, decoded from a screenshot of the element.
export async function canvasAt(page, seconds) {
  await page.waitForFunction(() => document.body.dataset.preview === 'ready', {timeout: 30000});
  await page.evaluate((seconds) => {
    const scrub = document.getElementById('scrub');
    scrub.value = String(seconds);
    scrub.dispatchEvent(new Event('input'));
  }, seconds);
  // Two frames: the one the seek lands in is rendered by the next animation frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return decodePng(Buffer.from(await (await page.$('#preview')).screenshot({type: 'png'})));
}

const BACKGROUND = [0x20, 0x25, 0x2b];
// Pixels that are neither the background nor the floor grid's greys: the figure.
export function figurePixels({pixels}) {
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    const grey = Math.max(r, g, b) - Math.min(r, g, b) < 24;
    if (!grey && Math.abs(r - BACKGROUND[0]) + Math.abs(g - BACKGROUND[1]) + Math.abs(b - BACKGROUND[2]) > 40) ++count;
  }
  return count;
}

export function changedPixels(a, b) {
  let count = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    if (Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) +
        Math.abs(a.pixels[i + 2] - b.pixels[i + 2]) > 30) ++count;
  }
  return count;
}

// The preview shows a figure and it moves between two times of the clip.
export async function checkPreviewMoves(page, what, [t0, t1], least = {figure: 500, changed: 200}) {
  const a = await canvasAt(page, t0);
  const b = await canvasAt(page, t1);
  const figure = figurePixels(a);
  const changed = changedPixels(a, b);
  console.log(`  preview ${what}: ${figure} figure pixels at ${t0} s, ${changed} pixels changed by ${t1} s (${a.width}x${a.height})`);
  assert.ok(figure > least.figure, `${what}: the preview shows a figure (${figure} pixels)`);
  assert.ok(changed > least.changed, `${what}: the pose changes between ${t0} s and ${t1} s (${changed} pixels)`);
}
