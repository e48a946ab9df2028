// Prepended to the ES module emscripten writes (--extern-pre-js, web/CMakeLists.txt). emscripten
// 3.1.6's ES module output still calls CommonJS's `require` and reads `__dirname` when it runs in
// Node, which an ES module does not have ("__dirname is not defined in ES module scope"): both
// are defined here, only under Node, so the same file loads in browsers.
const animconvInNode = typeof process === 'object' && typeof process.versions?.node === 'string';
const require = animconvInNode
  ? (await import('node:module')).createRequire(import.meta.url)
  : undefined;
const __dirname = animconvInNode ? new URL('.', import.meta.url).pathname : '';
