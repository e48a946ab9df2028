// Headless Chromium for the page checks (docs/web.md, "Checks"): Debian's /usr/bin/chromium driven
// by puppeteer-core (nothing downloaded), and a static file server on 127.0.0.1 for the folder
// under test. Software WebGL (SwiftShader): the machines have no GPU.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The flags: root needs --no-sandbox; the background-networking ones keep Chromium from calling
// out of this machine's closed network at every start.
const ARGS = [
  '--no-sandbox', '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-quic', '--disable-default-apps', '--disable-extensions',
];

export async function launchBrowser() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium`);
  }
  return puppeteer.launch({executablePath: CHROMIUM, headless: true, args: ARGS});
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.css': 'text/css', '.wasm': 'application/wasm',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.glb': 'model/gltf-binary',
  '.vrm': 'model/gltf-binary', '.vrma': 'model/gltf-binary', '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream', '.csv': 'text/csv',
};

// Serves `root` on 127.0.0.1 at a free port; resolves to {url, close()}. Only files under root.
export function serveFolder(root) {
  const base = path.resolve(root);
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    let file = path.resolve(base, '.' + pathname);
    if (file !== base && !file.startsWith(base + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (error, bytes) => {
      if (error) {
        response.writeHead(404).end();
        return;
      }
      const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      response.writeHead(200, {'content-type': type, 'cache-control': 'no-store'}).end(bytes);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      resolve({url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r))});
    });
  });
}

// Fails the page's run on an uncaught error or a console error, so a broken page cannot pass by
// showing nothing.
export function collectPageErrors(page) {
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    errors.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  return errors;
}
