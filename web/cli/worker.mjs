// The npm CLI's worker thread: one module instance with the host file system mounted, running
// one request at a time. The main thread stays free to handle Ctrl-C while a conversion runs
// (web/cli/main.mjs), and asks for a batch to stop through the shared flag.
import {parentPort, workerData} from 'node:worker_threads';

import createAnimconv from '../dist/animconv_wasm.mjs';
import {mountHost} from './host_fs.mjs';

const module = await createAnimconv();
const stopFlag = new Int32Array(workerData.stopBuffer);
mountHost(module.FS, workerData.cwd);
module.onBatchProgress = (resultJson) => parentPort.postMessage({progress: resultJson});
module.batchStopRequested = () => Atomics.load(stopFlag, 0) !== 0;
parentPort.on('message', (request) => {
  const reply = module.ccall('animconv_run', 'string', ['string'], [JSON.stringify(request)]);
  parentPort.postMessage({reply});
});
parentPort.postMessage({ready: true});
