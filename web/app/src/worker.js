// The conversion worker: runs the animconv package (WebAssembly) off the main thread, so the page
// stays responsive on a big file. Messages in: {type: 'formats'}, {type: 'convert', job},
// {type: 'preview', request, index, wantVrma}. Out: 'formats', 'progress' (per file and per
// stage), 'converted', 'preview'. The worker keeps the last job so the preview can reuse its
// inputs. Stages: 'reading' (the file's bytes into memory), 'converting' (the one call into the
// module: parse, convert, write into its in-memory files), 'writing' (the outputs handed back).
// Module workers do not see the page's import map: the imports are relative paths.
import {convert, formats, info} from '../animconv/index.js';
import {zipOutputs} from './zip.js';

let lastJob = null;

async function fileInput(file, sideFiles) {
  return {name: file.name, bytes: new Uint8Array(await file.arrayBuffer()), files: sideFiles};
}

function errorReport(error) {
  return {
    message: error?.message ?? String(error),
    kind: error?.kind ?? 'internal',
    file: error?.file ?? '',
    location: error?.location ?? '',
  };
}

function progress(index, count, name, stage) {
  postMessage({type: 'progress', index, count, name, stage});
}

// The file options as the API takes them: {name, bytes}.
async function optionFiles(job) {
  const files = {};
  for (const [name, file] of Object.entries(job.optionFiles ?? {})) {
    files[name] = {name: file.name, bytes: new Uint8Array(await file.arrayBuffer())};
  }
  return files;
}

async function convertOne(file, index, job, sideFiles, model) {
  const count = job.inputs.length;
  progress(index, count, file.name, 'reading');
  const input = await fileInput(file, sideFiles);
  progress(index, count, file.name, 'converting');
  const options = {...job.options, ...job.files};
  // A model is retargeted onto (--skeleton) except for .vrma, which is always written on the
  // VRMA T-pose rig (cli.md): there the model only serves the preview.
  if (model && job.options.to !== 'vrma') options.skeleton = model;
  try {
    const result = await convert(input, options);
    progress(index, count, file.name, 'writing');
    return {input: file.name, ok: true, files: result.files, warnings: result.warnings, notes: result.notes};
  } catch (error) {
    return {input: file.name, ok: false, error: errorReport(error)};
  }
}

async function runConvert(job) {
  const sideFiles = await Promise.all(
    job.sideFiles.map(async (file) => ({name: file.name, bytes: new Uint8Array(await file.arrayBuffer())})));
  const model = job.model ? {name: job.model.name, bytes: new Uint8Array(await job.model.arrayBuffer())} : null;
  job.files = await optionFiles(job);
  const results = [];
  for (let i = 0; i < job.inputs.length; ++i) {
    results.push(await convertOne(job.inputs[i], i, job, sideFiles, model));
  }
  lastJob = {job, sideFiles, model, results};
  const outputs = results.filter((r) => r.ok).flatMap((r) => r.files);
  let download = null;
  if (outputs.length === 1) {
    download = {name: outputs[0].name, bytes: outputs[0].bytes};
  } else if (outputs.length > 1) {
    progress(job.inputs.length, job.inputs.length, '', 'zipping');
    download = {name: `animconv-${job.options.to}.zip`, bytes: zipOutputs(outputs)};
  }
  postMessage({type: 'converted', results, download});
}

// What the preview needs for result `index`: the output's info report and, unless the output
// itself can be shown (glTF with meshes, .vrma), a .vrma copy converted with the same options.
async function runPreview(request, index, wantVrma) {
  const {job, sideFiles, results} = lastJob;
  const result = results[index];
  const [main, ...rest] = result.files;
  const reply = {type: 'preview', request, index, report: null, reportError: null, vrma: null, vrmaError: null};
  try {
    reply.report = (await info({name: main.name, bytes: main.bytes, files: rest})).report;
  } catch (error) {
    reply.reportError = errorReport(error).message;
  }
  if (wantVrma) {
    try {
      const input = await fileInput(job.inputs[index], sideFiles);
      const options = {...job.options, ...job.files, to: 'vrma'};
      delete options.boneNames;  // .vrma names its bones itself
      reply.vrma = (await convert(input, options)).files[0].bytes;
    } catch (error) {
      reply.vrmaError = errorReport(error).message;
    }
  }
  postMessage(reply);
}

onmessage = async ({data}) => {
  try {
    if (data.type === 'formats') postMessage({type: 'formats', formats: await formats()});
    else if (data.type === 'convert') await runConvert(data.job);
    else if (data.type === 'preview') await runPreview(data.request, data.index, data.wantVrma);
  } catch (error) {
    postMessage({type: 'failed', error: errorReport(error)});
  }
};
