#!/usr/bin/env node
// `animconv diff` of two .vrma files against what the real consumer plays: both files are loaded
// with @pixiv/three-vrm-animation 3.5.5 (VRMAnimationLoaderPlugin, three r187) and played on one
// VRM 1.0 model (createVRMAnimationClip + AnimationMixer), and for every channel diff reports on
// what the model plays:
//   - an expression (a VRMA expression node's translation): |weight A − weight B| as
//     expressionManager reads it, paired by the expression's name, whatever its node is called;
//   - the hips translation: the distance between the normalised hips' world positions the two
//     clips give the model, divided by A's factor model hips height / A's rest hips height (the
//     scale three-vrm-animation plays A's hips with), i.e. in A's metres as diff reports;
//   - a bone's rotation: the angle between the normalised bone's rotations, local ones where diff
//     compared locally (`space.name` local), world ones in world space.
// Required, per channel: at diff's time_of_max_seconds three's error equals diff's max (for a STEP
// track with a key there, the larger of three's error there and just before it), and on a dense
// grid (every key time of both clips, 9 times between each pair, and just before each key) three
// never measures more than diff's max; both within float32 (the tracks are Float32Arrays).
//
//   node check_diff_vrma.mjs --animconv BIN --model M.vrm [--perturb] A.vrma B.vrma [A B ...]
//
// --perturb turns every max diff reports into 1.5 × max + 0.01 before checking, so the check must
// fail. Prints one line per failure and "N passed, N failed"; exit 1 on failure, 2 on usage errors.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Report, parseArgs, usage, withConsoleAsFailures } from './lib/common.mjs';
import { splitContainer } from './lib/glb.mjs';
import { addLookAtProxy, loadGltfFile } from './lib/vrm.mjs';
import { importVrmModules } from './lib/vrm_modules.mjs';

const { THREE, GLTFLoader, VRMLoaderPlugin, VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy,
  createVRMAnimationClip } = await importVrmModules();

const args = parseArgs(process.argv.slice(2), { flags: ['perturb'], options: ['animconv', 'model', 'max-failure-lines'] });
if (!args.animconv || !args.model) usage('--animconv BIN and --model M.vrm are required');
if (args.positional.length === 0 || args.positional.length % 2 !== 0) usage('give pairs of files: A B [A B ...]');
for (const file of [args.model, ...args.positional]) if (!existsSync(file)) usage(`${file} not found`);
const report = new Report(args['max-failure-lines'] === undefined ? 40 : Number(args['max-failure-lines']));

const BETWEEN = 9;
const BEFORE = 1e-7;  // "just before" a key: a STEP track still holds its previous key there
function slack(unit, value) {
  switch (unit) {
    case 'deg': return 2e-4 + 1e-5 * value;
    case 'm': return 1e-5 * Math.max(1, value);
    default: return 1e-6 * Math.max(1, value);
  }
}

// The node names of a .vrma: its expressions (name -> node name) and humanoid bones (node name ->
// bone), from the file's own JSON.
function rolesOf(file) {
  const { json } = splitContainer(new Uint8Array(readFileSync(file)));
  const extension = json.extensions?.VRMC_vrm_animation ?? {};
  const name = (index) => json.nodes[index].name ?? `node_${index}`;
  const expressionNode = new Map();
  for (const group of ['preset', 'custom']) {
    for (const [expression, { node }] of Object.entries(extension.expressions?.[group] ?? {})) {
      expressionNode.set(expression, name(node));
    }
  }
  const boneOfNode = new Map();
  for (const [bone, { node }] of Object.entries(extension.humanoid?.humanBones ?? {})) boneOfNode.set(name(node), bone);
  return { expressionNode, boneOfNode };
}

async function player(file) {
  const { gltf: model } = await loadGltfFile(THREE, GLTFLoader, args.model, [(parser) => new VRMLoaderPlugin(parser)]);
  const vrm = model.userData.vrm;
  addLookAtProxy(vrm, VRMLookAtQuaternionProxy);
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, file, [(parser) => new VRMAnimationLoaderPlugin(parser)]);
  const animation = gltf.userData.vrmAnimations?.[0];
  if (!animation) usage(`${file}: no VRM animation`);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  let clip = null;
  withConsoleAsFailures(report, `${basename(file)}: createVRMAnimationClip`, () => {
    clip = createVRMAnimationClip(animation, vrm);
    mixer.clipAction(clip).play();
  });
  const scale = vrm.humanoid.normalizedRestPose.hips.position[1] / animation.restHipsPosition.y;
  return {
    vrm, clip, scale,
    at(t) {
      mixer.setTime(t);
      vrm.scene.updateMatrixWorld(true);
    },
    weight: (expression) => vrm.expressionManager.getValue(expression) ?? 0,
    hips: () => vrm.humanoid.getNormalizedBoneNode('hips').getWorldPosition(new THREE.Vector3()),
    rotation(bone, world) {
      const node = vrm.humanoid.getNormalizedBoneNode(bone);
      return world ? node.getWorldQuaternion(new THREE.Quaternion()) : node.quaternion.clone();
    },
  };
}

// The angle of a⁻¹·b, from its vector part and w (acos of a dot product near 1 loses half the digits).
function angle(a, b) {
  const r = a.clone().normalize().invert().multiply(b.clone().normalize());
  return 2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w)) * 180 / Math.PI;
}

async function checkPair(fileA, fileB) {
  report.setContext(`${basename(fileA)} vs ${basename(fileB)}`);
  let diff;
  try {
    diff = JSON.parse(execFileSync(args.animconv, ['-q', 'diff', '--json', fileA, fileB],
                                   { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }));
  } catch (error) {
    report.fail(`animconv diff failed: ${String(error.stderr ?? error.message).trim()}`);
    return;
  }
  const world = diff.space.name === 'world';
  const roles = [rolesOf(fileA), rolesOf(fileB)];
  const A = await player(fileA);
  const B = await player(fileB);
  // What three plays of each diff channel, as a function of the current poses of A and B.
  const measures = [];
  for (const channel of diff.channels) {
    const own = channel.only_in_b ? roles[1] : roles[0];
    const nodeName = channel.node;
    const expression = [...own.expressionNode].find(([, node]) => node === nodeName)?.[0];
    const bone = own.boneOfNode.get(nodeName);
    let error = null;
    if (expression !== undefined && channel.path === 'translation') {
      if (!A.vrm.expressionManager.getExpression(expression)) continue;  // the model lacks it
      report.check(channel.unit === 'weight', () => `expression ${expression}: unit ${channel.unit}, expected weight`);
      error = () => Math.abs(A.weight(expression) - B.weight(expression));
    } else if (bone === 'hips' && channel.path === 'translation') {
      error = () => A.hips().multiplyScalar(1 / A.scale).distanceTo(B.hips().multiplyScalar(1 / A.scale));
    } else if (bone !== undefined && channel.path === 'rotation') {
      if (!A.vrm.humanoid.getNormalizedBoneNode(bone)) continue;
      error = () => angle(A.rotation(bone, world), B.rotation(bone, world));
    }
    if (!error) continue;
    const max = args.perturb ? channel.max * 1.5 + 0.01 : channel.max;
    measures.push({ channel, what: expression ?? `${bone}.${channel.path}`, error, max, gridMax: 0, gridTime: 0 });
  }
  report.check(measures.some((m) => m.channel.unit === 'weight') || measures.some((m) => m.channel.unit === 'm'),
               'no expression or hips translation to compare: not a test');
  const sampleAt = (t) => {
    A.at(t);
    B.at(t);
  };
  for (const m of measures) {
    const t = m.channel.time_of_max_seconds;
    sampleAt(t);
    let three = m.error();
    if (t > BEFORE) {
      sampleAt(t - BEFORE);
      three = Math.max(three, m.error());
    }
    report.check(Math.abs(three - m.max) <= slack(m.channel.unit, m.max),
                 () => `${m.what}: diff max ${m.max} ${m.channel.unit} at ${t} s, three-vrm plays ${three} there`);
  }
  const keys = [...new Set([...A.clip.tracks, ...B.clip.tracks].flatMap((track) => [...track.times]))].sort((x, y) => x - y);
  const grid = [];
  keys.forEach((t, i) => {
    grid.push(t);
    if (t > BEFORE) grid.push(t - BEFORE);
    if (i + 1 < keys.length) for (let k = 1; k <= BETWEEN; ++k) grid.push(t + (keys[i + 1] - t) * k / (BETWEEN + 1));
  });
  for (const t of grid) {
    sampleAt(t);
    for (const m of measures) {
      const e = m.error();
      if (e > m.gridMax) [m.gridMax, m.gridTime] = [e, t];
    }
  }
  for (const m of measures) {
    report.check(m.gridMax <= m.max + slack(m.channel.unit, m.max),
                 () => `${m.what}: three-vrm plays ${m.gridMax} ${m.channel.unit} apart at ${m.gridTime} s, diff's max is ${m.max}`);
  }
  const worst = (unit) => Math.max(0, ...measures.filter((m) => m.channel.unit === unit).map((m) => m.gridMax));
  console.log(`${basename(fileA)} vs ${basename(fileB)} (${diff.space.name}): ${measures.length} channels; three-vrm ` +
              `max ${worst('weight').toExponential(3)} weight, ${worst('m').toExponential(3)} m, ${worst('deg').toExponential(3)} deg`);
}

for (let i = 0; i < args.positional.length; i += 2) await checkPair(args.positional[i], args.positional[i + 1]);
report.finish();
