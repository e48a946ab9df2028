#!/usr/bin/env node
// Blender 3.4 (Debian's headless `blender`) reading an animconv output, against the SOURCE file
// read by its own reference reader: the second real consumer after three.js (tests/interop).
//
//   node check_blender.mjs --source SRC --output OUT [--source-unit M] [--output-unit M]
//                          [--blender PATH] [--axes z-up|y-up] [--max-failure-lines N]
//                          [--interval SECONDS] [--bones LIST] [--mirror x|z]   (CSV sources)
//                          [--clip NAME]   (glTF sources: the clip a one-clip output holds)
//                          [--third-party-bvh]  (OUT is a BVH animconv did not write)
//
// OUT is imported by blender_dump.py (`blender -b --factory-startup --python`): .bvh with
// Blender's BVH importer, anything else with its bundled glTF importer; a failed import, or one
// without animation, is a failure. Blender's world matrices are sampled at the source's frame
// times: a glTF key at t seconds is Blender frame t·fps (the scene rate, 30 here), a BVH frame i
// is frame 1 + i (BVH importer, use_fps_scale off; OUT's own Frame Time gives i = t / frame time).
// Both importers turn +Y up into +Z up, (x, y, z) -> (x, -z, y); --axes y-up (a self-test) reads
// Blender's matrices without undoing that, and must fail.
//
// The reference, by SRC's extension:
//   .bvh   three.js r187 BVHLoader: its skeleton posed with its own tracks at every frame (not
//          ENDSITE bones). Positions in metres: BVH units x --source-unit (0.01, animconv's
//          documented centimetres). For a .vrma output: the joints that are humanoid bones (by
//          tests/interop/lib/bvh_names.mjs), as world rotations from the T-pose, W(t)·W(rest)⁻¹·S⁻¹
//          (S the turn from the rest to the T-pose, tests/interop/lib/tpose.mjs: identity for a
//          BVH drawn in a T-pose, the arms' turn for one standing arms down), no positions.
//   .csv   a Unity CSV (--interval rows, 0.2 s by default; data/unity/README.md): animconv's
//          documented semantics, as tests/interop/check_vrma.mjs and check_gltf.mjs state them:
//          each bone's local rotation is the normalised localRotation mirrored with --mirror x
//          (the default: (-x, -y, z, w), a .vrma's VRM 1.0 convention) or z (a .glb's default,
//          --mirror z) at each row. Columns: the 55 HumanBodyBones by VRM 1.0 name (a .vrma's
//          node names) or --bones LIST's names (a .glb's). Rotations only: the CSV holds no
//          positions.
//   other  three.js r187 GLTFLoader and an AnimationMixer playing the first clip at the union of
//          its key times. Nodes: those the clip animates and the skins' joints, by their glTF
//          names.
// Joints are paired by name: Blender keeps BVH joint and glTF node names (three sanitises glTF
// names, so the glTF side uses the names in the file).
//
// Compared, per joint and frame (conventions-free quantities):
//   - the world position (bone head / object origin), within 1e-5 m;
//   - for Blender bones (armatures: BVH imports, skinned glTF joints) the world rotation relative
//     to rest, W(t)·W(rest)⁻¹, which cancels Blender's bone-axis convention (a bone points along
//     +Y to its child; the glTF importer's bone heuristic), against the source's W(t)·W(rest)⁻¹;
//     for Blender objects (empties: glTF nodes no skin uses), which carry no such convention, the
//     absolute world rotation; within 1e-3 degrees.
//   - CSV sources: the local rotation, W(parent)⁻¹·W, within 1e-3 degrees.
// Prints the largest differences and "N passed, M failed"; exit 1 on failure, 2 on usage errors.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  INTEROP_DIR, Report, expectedBones, parseArgs, poseAt, readBoneList, readUnityCsv, requireModules, usage,
} from '../interop/lib/common.mjs';
import { bvhHumanBoneOf } from '../interop/lib/bvh_names.mjs';
import { bodyAxes, bodyFrameTurn, swingsToTPose } from '../interop/lib/tpose.mjs';
import { NOT_IN_VRMA, loadGltfFile, readRecording } from '../interop/lib/vrm.mjs';

// three from tests/interop/node_modules (the pinned r187), by path: this folder has none. The
// loaders' own `import 'three'` resolves to the same file, so the classes are the same.
requireModules(['three']);
const threeFile = (relative) => pathToFileURL(join(INTEROP_DIR, 'node_modules', 'three', relative)).href;
const THREE = await import(threeFile('build/three.module.js'));

const DEGREES_TOLERANCE = 1e-3;
const METRES_TOLERANCE = 1e-5;
// Blender's matrices are single precision (mathutils): each parent adds float32 rounding of
// the size of its coordinates, so positions are compared within max(1e-5 m, 2e-6 x SIZE), SIZE
// the skeleton's size (the farthest joint from the origin over the clip). Measured: Blender
// reading khronos_Fox.glb ITSELF is 5.7e-5 m off three, SIZE 70 units (8e-7 x SIZE); animconv's
// output of it, the same.
const RELATIVE_POSITION_TOLERANCE = 2e-6;
const SCENE_FPS = 30;

const args = parseArgs(process.argv.slice(2), {
  flags: ['third-party-bvh'],
  options: ['source', 'output', 'source-unit', 'output-unit', 'blender', 'axes', 'interval', 'bones', 'mirror',
            'max-failure-lines', 'clip'],
});
for (const required of ['source', 'output']) {
  if (args[required] === undefined) usage(`--${required} is required`);
  if (!existsSync(args[required])) usage(`${args[required]} not found`);
}
const sourceUnit = Number(args['source-unit'] ?? 1);
const outputUnit = Number(args['output-unit'] ?? 1);
if (!(sourceUnit > 0) || !(outputUnit > 0)) usage('--source-unit and --output-unit must be positive');
const axes = args.axes ?? 'z-up';
if (!['z-up', 'y-up'].includes(axes)) usage(`--axes must be z-up or y-up, not '${axes}'`);
const report = new Report(args['max-failure-lines'] === undefined ? 20 : Number(args['max-failure-lines']));
report.setContext(`${basename(args.output)} in Blender vs ${basename(args.source)}`);

const extension = (path) => path.toLowerCase().split('.').pop();

// ---------------------------------------------------------------------------------------------
// The source's reading: { times, kind, joints: Map(name -> {rest, poses}) } with rest/poses
// { q: THREE.Quaternion, p: THREE.Vector3 (metres) or null }; kind 'world' (world poses),
// 'local' (local rotations) or 'delta' (world rotations relative to rest).

async function readReference(path) {
  if (extension(path) === 'bvh') return readBvh(path);
  if (extension(path) === 'csv') return readCsv(path);
  return readGltf(path);
}

function worldOf(object) {
  const p = new THREE.Vector3();
  const q = new THREE.Quaternion();
  object.matrixWorld.decompose(p, q, new THREE.Vector3());
  return { q, p: p.multiplyScalar(sourceUnit) };
}

async function readBvh(path) {
  const { BVHLoader } = await import(threeFile('examples/jsm/loaders/BVHLoader.js'));
  const bvh = new BVHLoader().parse(readFileSync(path, 'utf8'));
  const times = Array.from(bvh.clip.tracks[0].times);
  const bones = bvh.skeleton.bones.filter((bone) => bone.name !== 'ENDSITE');
  const track = new Map(bvh.clip.tracks.map((t) => [t.name, t.createInterpolant()]));
  const root = bvh.skeleton.bones[0];
  root.updateMatrixWorld(true);
  const joints = new Map(bones.map((bone) => [bone.name, { rest: worldOf(bone), poses: [] }]));
  // At rest: each joint's turn to the T-pose (tests/interop/lib/tpose.mjs), for a .vrma below.
  const names = bones.map((bone) => bone.name);
  const boneObjects = new Map();
  for (const bone of bones) {
    const human = bvhHumanBoneOf(bone.name, names);
    if (human !== null && !boneObjects.has(human)) boneObjects.set(human, bone);
  }
  const swing = swingsToTPose(THREE, root, (human) => boneObjects.get(human));
  // The BVH's body frame (up and facing at rest): a .vrma's rig stands up +Y facing +Z, and a BVH
  // drawn Z-up or facing +X is turned into it (docs/retargeting.md, "Up and facing").
  const axes = bodyAxes(THREE, (human) => boneObjects.get(human)?.getWorldPosition(new THREE.Vector3()) ?? null);
  const vrmaAxes = { left: new THREE.Vector3(1, 0, 0), up: new THREE.Vector3(0, 1, 0) };
  const toVrma = new THREE.Quaternion().fromArray(axes === null ? [0, 0, 0, 1] : bodyFrameTurn(THREE, axes, vrmaAxes));
  for (const t of times) {
    // Posed by hand from the tracks: a mixer cannot bind "mixamorig:Hips" (':' is reserved in
    // three's property paths).
    for (const bone of bones) {
      bone.quaternion.fromArray(track.get(`${bone.name}.quaternion`).evaluate(t));
      bone.position.fromArray(track.get(`${bone.name}.position`).evaluate(t));
    }
    root.updateMatrixWorld(true);
    for (const bone of bones) joints.get(bone.name).poses.push(worldOf(bone));
  }
  console.log(`source ${basename(path)} (three BVHLoader): ${bones.length} joints x ${times.length} frames`);
  if (extension(args.output) !== 'vrma') return { times, kind: 'world', joints };
  // A .vrma of a BVH holds its humanoid bones, as nodes named by their VRM 1.0 names on the
  // normalised T-pose rig (identity rest rotations), with each bone's world rotation relative to
  // the T-pose equal to the BVH joint's, W(t)·W(rest)⁻¹·S⁻¹ with S its turn from its rest to the
  // T-pose (what three-vrm-animation plays; tests/interop/check_bvh.mjs checks it there), turned
  // from the BVH's body frame into the .vrma's: joints are paired by the BVH naming table,
  // rotations only.
  const humanoid = new Map();
  for (const bone of bones) {
    const human = bvhHumanBoneOf(bone.name, names);
    if (human === null || NOT_IN_VRMA.has(human) || boneObjects.get(human) !== bone) continue;
    const joint = joints.get(bone.name);
    const toTPose = new THREE.Quaternion().fromArray(swing.get(bone)).invert();
    humanoid.set(human, {
      rest: joint.rest,
      poses: joint.poses.map((pose) => ({
        q: toVrma.clone().multiply(relative(pose, joint.rest).multiply(toTPose)).multiply(toVrma.clone().invert()),
        p: null,
      })),
    });
  }
  console.log(`source: ${humanoid.size} of the joints are humanoid bones of a .vrma`);
  return { times, kind: 'delta', joints: humanoid };
}

function readCsv(path) {
  const interval = Number(args.interval ?? 0.2);
  const mirrorAxis = args.mirror ?? 'x';
  if (!['x', 'z'].includes(mirrorAxis)) usage(`--mirror must be x or z, not '${mirrorAxis}'`);
  // Without --bones: the 55 HumanBodyBones columns by VRM 1.0 name (a .vrma's nodes). With
  // --bones: the list's names as they are (a .glb's nodes are named by the list).
  let columns;
  let rows;
  if (args.bones === undefined) {
    ({ columns, rows } = readRecording(undefined, path));
  } else {
    columns = readBoneList(args.bones);
    rows = readUnityCsv(path, columns.length);
  }
  const times = rows.map((_, r) => r * interval);
  const joints = new Map();
  for (const { name, keys } of expectedBones(rows, columns, { interval, mirrorAxis })) {
    if (keys.length === 0 || NOT_IN_VRMA.has(name)) continue;
    joints.set(name, {
      rest: null,
      poses: times.map((t) => ({ q: new THREE.Quaternion().fromArray(poseAt(keys, Math.fround(t))), p: null })),
    });
  }
  console.log(`source ${basename(path)} (Unity CSV semantics): ${joints.size} animated bones x ${times.length} rows`);
  return { times, kind: 'local', joints };
}

async function readGltf(path) {
  const { GLTFLoader } = await import(threeFile('examples/jsm/loaders/GLTFLoader.js'));
  const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, path, []);
  for (const message of new Set(messages)) console.log(`note: loading the source printed ${message}`);
  const json = gltf.parser.json;
  // --clip NAME: the source clip a one-clip output (a BVH) was made of; else the first.
  const clip = args.clip === undefined ? gltf.animations[0]
    : gltf.animations.find((candidate) => candidate.name === args.clip);
  if (!clip) usage(`${path} has no animation${args.clip === undefined ? '' : ` named '${args.clip}'`}`);
  const nodeIndex = new Map();
  gltf.scene.traverse((object) => {
    const association = gltf.parser.associations.get(object);
    if (association?.nodes !== undefined && !nodeIndex.has(association.nodes)) nodeIndex.set(association.nodes, object);
  });
  const wanted = new Set((json.skins ?? []).flatMap((skin) => skin.joints));
  const animated = new Set();
  const sourceAnimation = json.animations[gltf.animations.indexOf(clip)];
  for (const channel of sourceAnimation.channels) {
    if (channel.target.node !== undefined && channel.target.path !== 'weights') animated.add(channel.target.node);
  }
  for (const node of animated) wanted.add(node);
  // A BVH output holds an unanimated leaf joint (the Fox's b_LeftFoot02_018) as its parent's
  // End Site, which Blender's importer makes the parent bone's tail, not a bone of its own.
  if (extension(args.output) === 'bvh') {
    const endSites = [...wanted].filter((i) => !animated.has(i) && !(json.nodes[i].children?.length));
    for (const i of endSites) wanted.delete(i);
    if (endSites.length) console.log(`source: ${endSites.length} unanimated leaf joint(s) are End Sites in a BVH, not compared`);
    // A VRMA's expression and lookAt nodes are no joints of a BVH (docs/formats/bvh.md, "What
    // BVH cannot hold"): animconv leaves them out, with a warning.
    const vrma = json.extensions?.VRMC_vrm_animation;
    const roles = [
      ...Object.values(vrma?.expressions?.preset ?? {}), ...Object.values(vrma?.expressions?.custom ?? {}),
      ...(vrma?.lookAt ? [vrma.lookAt] : []),
    ].map(({ node }) => node);
    for (const i of roles) wanted.delete(i);
    if (roles.length) console.log(`source: ${roles.length} VRMA expression/lookAt node(s) have no place in a BVH, not compared`);
  }
  // A .vrma output holds the humanoid bones only, as nodes named by their VRM 1.0 bone names on
  // animconv's normalised T-pose rig (identity rest rotations): a VRMA source's humanoid nodes
  // are paired by bone name and compared as world rotations relative to their rest (what a VRMA
  // means: three-vrm-animation plays W(t)·W(rest)⁻¹), without positions.
  const humanBones = extension(args.output) === 'vrma' ? json.extensions?.VRMC_vrm_animation?.humanoid?.humanBones : undefined;
  const boneOfNode = new Map(Object.entries(humanBones ?? {}).map(([bone, { node }]) => [node, bone]));
  const nameOf = (i) => (humanBones ? boneOfNode.get(i) : json.nodes[i].name);
  const objects = [...wanted].filter((i) => nodeIndex.has(i) && nameOf(i) !== undefined)
    .map((i) => [nameOf(i), nodeIndex.get(i)]);
  const times = [...new Set(clip.tracks.flatMap((track) => Array.from(track.times)))].sort((a, b) => a - b);
  // Blender normalises every rotation (its quaternion -> matrix); three uses a key or a node
  // rotation as stored, and a file's float32 values can be 1e-5 off unit length
  // (three-vrm_test.vrma: 1.1e-3 degrees at rightUpperArm, t = 0.5). The reference normalises
  // them too, as tests/interop's loadGltfSource does with the rotation keys.
  const settle = () => {
    gltf.scene.traverse((object) => object.quaternion.normalize());
    gltf.scene.updateMatrixWorld(true);
  };
  settle();
  const joints = new Map(objects.map(([name, object]) => [name, { rest: worldOf(object), poses: [] }]));
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  for (const t of times) {
    action.reset();
    mixer.setTime(t);
    settle();
    for (const [name, object] of objects) joints.get(name).poses.push(worldOf(object));
  }
  if (humanBones) {
    for (const joint of joints.values()) {
      joint.poses = joint.poses.map((pose) => ({ q: relative(pose, joint.rest), p: null }));
    }
  }
  console.log(`source ${basename(path)} (three GLTFLoader): clip "${clip.name}", ${joints.size} ` +
              `${humanBones ? 'humanoid bones' : 'nodes'} x ${times.length} key times`);
  return { times, kind: humanBones ? 'delta' : 'world', joints, animation: sourceAnimation.name ?? null };
}

// ---------------------------------------------------------------------------------------------
// Blender

function blenderFrames(times) {
  if (extension(args.output) !== 'bvh') return times.map((t) => t * SCENE_FPS);
  const frameTime = Number(/Frame Time:\s*(\S+)/i.exec(readFileSync(args.output, 'utf8'))?.[1]);
  if (!(frameTime > 0)) usage(`${args.output}: no Frame Time`);
  return times.map((t) => 1 + t / frameTime);
}

function runBlender(output, times) {
  const dir = mkdtempSync(join(tmpdir(), 'animconv-blender-'));
  try {
    const request = join(dir, 'request.json');
    const dumpFile = join(dir, 'dump.json');
    writeFileSync(request, JSON.stringify({
      fps: SCENE_FPS, frames: blenderFrames(times), animation: reference.animation ?? null,
    }));
    const script = join(dirname(fileURLToPath(import.meta.url)), 'blender_dump.py');
    const started = Date.now();
    const run = spawnSync(args.blender ?? 'blender',
                          ['-b', '--factory-startup', '-noaudio', '--python-exit-code', '1', '--python', script,
                           '--', '--input', output, '--request', request, '--output', dumpFile],
                          { encoding: 'utf8', maxBuffer: 64 << 20 });
    const said = `${run.stdout ?? ''}${run.stderr ?? ''}`.split('\n')
      .filter((line) => /blender_dump|Error|Traceback|error/.test(line));
    if (!report.check(run.status === 0 && existsSync(dumpFile),
                      () => `Blender could not import ${output} (exit ${run.status ?? run.error}): ${said.join(' | ')}`)) {
      return null;
    }
    for (const line of said) console.log(line);
    console.log(`blender: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return JSON.parse(readFileSync(dumpFile, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Blender's BVH importer takes a joint's position channels as its position and drops its OFFSET
// (import_bvh.py: pose translation = channels - OFFSET); three's BVHLoader (and animconv) add
// the OFFSET. animconv writes such joints at OFFSET 0, where the two agree, so its BVHs are
// compared as Blender plays them. A third-party BVH (the harness self-test on an input) may have
// a ROOT OFFSET: Blender's positions of it are shifted back by that OFFSET.
function blenderRootOffset() {
  if (extension(args.output) !== 'bvh' || !args['third-party-bvh']) return new THREE.Vector3();
  const offset = /ROOT[^{]*\{\s*OFFSET\s+(\S+)\s+(\S+)\s+(\S+)/.exec(readFileSync(args.output, 'utf8'));
  if (!offset) usage(`${args.output}: no ROOT OFFSET`);
  return new THREE.Vector3(...offset.slice(1, 4).map(Number)).multiplyScalar(outputUnit);
}
const rootOffset = blenderRootOffset();

// Blender's row-major world matrix, in the source's +Y-up space (unless --axes y-up), metres.
const Y_UP_TO_BLENDER = new THREE.Matrix4().set(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1);
const BLENDER_TO_Y_UP = Y_UP_TO_BLENDER.clone().invert();
function fromBlender(m16) {
  const m = new THREE.Matrix4().set(...m16);
  if (axes === 'z-up') m.premultiply(BLENDER_TO_Y_UP).multiply(Y_UP_TO_BLENDER);
  const p = new THREE.Vector3();
  const q = new THREE.Quaternion();
  m.decompose(p, q, new THREE.Vector3());
  return { q, p: p.multiplyScalar(outputUnit).add(rootOffset) };
}

// ---------------------------------------------------------------------------------------------
// Comparison

function degreesBetween(a, b) {
  const d = a.clone().multiply(b.clone().invert());
  return (2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w)) * 180) / Math.PI;
}
const relative = (pose, rest) => pose.q.clone().multiply(rest.q.clone().invert());
const format = (v) => `(${v.toArray().map((c) => c.toFixed(7)).join(', ')})`;

function compare(reference, dump) {
  const size = Math.max(0, ...[...reference.joints.values()].flatMap((joint) => joint.poses)
    .filter((pose) => pose.p !== null).map((pose) => pose.p.length()));
  const positionTolerance = Math.max(METRES_TOLERANCE, RELATIVE_POSITION_TOLERANCE * size);
  const items = new Map(dump.items.map((item) => [item.name, item]));
  let worstDegrees = 0;
  let worstMetres = 0;
  let positions = 0;
  let worstAt = '';
  let kinds = new Set();
  for (const [name, joint] of reference.joints) {
    // A BVH joint name cannot hold every character a source name can: animconv's BVH writer
    // names 'mixamorig:Hips' 'mixamorigHips', as three.js sanitises node names
    // (docs/formats/bvh.md, "Joints"), so that spelling pairs too.
    const item = items.get(name) ?? items.get(THREE.PropertyBinding.sanitizeNodeName(name));
    if (!report.check(item !== undefined, () => `Blender has no bone or object named '${name}'`)) continue;
    kinds.add(item.kind);
    const parent = item.parent !== null ? items.get(item.parent) : undefined;
    const rest = item.rest ? fromBlender(item.rest) : null;
    reference.times.forEach((t, frame) => {
      const got = fromBlender(item.world[frame]);
      const want = joint.poses[frame];
      let degrees;
      if (reference.kind === 'local') {
        const parentWorld = parent ? fromBlender(parent.world[frame]).q : new THREE.Quaternion();
        degrees = degreesBetween(parentWorld.invert().multiply(got.q), want.q);
      } else if (reference.kind === 'delta') {
        degrees = degreesBetween(item.kind === 'bone' ? relative(got, rest) : got.q, want.q);
      } else if (item.kind === 'bone') {
        degrees = degreesBetween(relative(got, rest), relative(want, joint.rest));
      } else {
        degrees = degreesBetween(got.q, want.q);
      }
      if (degrees > worstDegrees) worstAt = `${name} at t=${t.toFixed(4)}`;
      worstDegrees = Math.max(worstDegrees, degrees);
      report.check(degrees <= DEGREES_TOLERANCE, () => `${name} at t=${t.toFixed(5)}: rotation off by ` +
                                                       `${degrees.toExponential(3)} degrees`);
      if (want.p === null) return;
      ++positions;
      const metres = got.p.distanceTo(want.p);
      worstMetres = Math.max(worstMetres, metres);
      report.check(metres <= positionTolerance, () => `${name} at t=${t.toFixed(5)}: position ${format(got.p)} m, ` +
                                                     `source ${format(want.p)} m (${metres.toExponential(3)} m off)`);
    });
  }
  console.log(`Blender ${dump.blender} (${[...kinds].join('/')}s): ${reference.joints.size} joints x ` +
              `${reference.times.length} frames; largest difference: rotation ${worstDegrees.toExponential(2)} ` +
              `degrees (${worstAt}), ` +
              (positions ? `position ${worstMetres.toExponential(2)} m (tolerance ${positionTolerance.toExponential(1)} m)` :
                'positions not compared'));
}

// ---------------------------------------------------------------------------------------------
const reference = await readReference(args.source);
const dump = runBlender(args.output, reference.times);
if (dump) compare(reference, dump);
report.finish();
