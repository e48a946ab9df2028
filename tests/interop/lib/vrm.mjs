// Helpers of the VRM interop checks (check_vrma.mjs, check_vrm_skeleton.mjs): humanoid bone
// tables written out from ../Unity HumanBodyBones and the VRM 0.x / 1.0 humanoid specs (not taken from animconv's C++), a
// GLTFLoader wrapper for Node, and the quaternion algebra the expectations need.

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  parseArgs, parseGltfCapturingConsole, readBoneList, readUnityCsv, stubProgressEvent, usage,
  withConsoleAsFailures,
} from './common.mjs';
import { isGlb } from './glb.mjs';

// ---------------------------------------------------------------------------------------------
// Bone names (Unity HumanBodyBones and the VRM 0.x / 1.0 humanoid specs): Unity HumanBodyBones in enum order (UpperChest = 54, last), the
// VRM 0.x name (same order, lowerCamelCase) and the VRM 1.0 / VRMA name. The thumbs shift by one
// segment: Unity/0.x ThumbProximal = 1.0 ThumbMetacarpal, ThumbIntermediate = 1.0 ThumbProximal.
export const HUMAN_BONES = [
  ['Hips', 'hips', 'hips'],
  ['LeftUpperLeg', 'leftUpperLeg', 'leftUpperLeg'],
  ['RightUpperLeg', 'rightUpperLeg', 'rightUpperLeg'],
  ['LeftLowerLeg', 'leftLowerLeg', 'leftLowerLeg'],
  ['RightLowerLeg', 'rightLowerLeg', 'rightLowerLeg'],
  ['LeftFoot', 'leftFoot', 'leftFoot'],
  ['RightFoot', 'rightFoot', 'rightFoot'],
  ['Spine', 'spine', 'spine'],
  ['Chest', 'chest', 'chest'],
  ['Neck', 'neck', 'neck'],
  ['Head', 'head', 'head'],
  ['LeftShoulder', 'leftShoulder', 'leftShoulder'],
  ['RightShoulder', 'rightShoulder', 'rightShoulder'],
  ['LeftUpperArm', 'leftUpperArm', 'leftUpperArm'],
  ['RightUpperArm', 'rightUpperArm', 'rightUpperArm'],
  ['LeftLowerArm', 'leftLowerArm', 'leftLowerArm'],
  ['RightLowerArm', 'rightLowerArm', 'rightLowerArm'],
  ['LeftHand', 'leftHand', 'leftHand'],
  ['RightHand', 'rightHand', 'rightHand'],
  ['LeftToes', 'leftToes', 'leftToes'],
  ['RightToes', 'rightToes', 'rightToes'],
  ['LeftEye', 'leftEye', 'leftEye'],
  ['RightEye', 'rightEye', 'rightEye'],
  ['Jaw', 'jaw', 'jaw'],
  ['LeftThumbProximal', 'leftThumbProximal', 'leftThumbMetacarpal'],
  ['LeftThumbIntermediate', 'leftThumbIntermediate', 'leftThumbProximal'],
  ['LeftThumbDistal', 'leftThumbDistal', 'leftThumbDistal'],
  ['LeftIndexProximal', 'leftIndexProximal', 'leftIndexProximal'],
  ['LeftIndexIntermediate', 'leftIndexIntermediate', 'leftIndexIntermediate'],
  ['LeftIndexDistal', 'leftIndexDistal', 'leftIndexDistal'],
  ['LeftMiddleProximal', 'leftMiddleProximal', 'leftMiddleProximal'],
  ['LeftMiddleIntermediate', 'leftMiddleIntermediate', 'leftMiddleIntermediate'],
  ['LeftMiddleDistal', 'leftMiddleDistal', 'leftMiddleDistal'],
  ['LeftRingProximal', 'leftRingProximal', 'leftRingProximal'],
  ['LeftRingIntermediate', 'leftRingIntermediate', 'leftRingIntermediate'],
  ['LeftRingDistal', 'leftRingDistal', 'leftRingDistal'],
  ['LeftLittleProximal', 'leftLittleProximal', 'leftLittleProximal'],
  ['LeftLittleIntermediate', 'leftLittleIntermediate', 'leftLittleIntermediate'],
  ['LeftLittleDistal', 'leftLittleDistal', 'leftLittleDistal'],
  ['RightThumbProximal', 'rightThumbProximal', 'rightThumbMetacarpal'],
  ['RightThumbIntermediate', 'rightThumbIntermediate', 'rightThumbProximal'],
  ['RightThumbDistal', 'rightThumbDistal', 'rightThumbDistal'],
  ['RightIndexProximal', 'rightIndexProximal', 'rightIndexProximal'],
  ['RightIndexIntermediate', 'rightIndexIntermediate', 'rightIndexIntermediate'],
  ['RightIndexDistal', 'rightIndexDistal', 'rightIndexDistal'],
  ['RightMiddleProximal', 'rightMiddleProximal', 'rightMiddleProximal'],
  ['RightMiddleIntermediate', 'rightMiddleIntermediate', 'rightMiddleIntermediate'],
  ['RightMiddleDistal', 'rightMiddleDistal', 'rightMiddleDistal'],
  ['RightRingProximal', 'rightRingProximal', 'rightRingProximal'],
  ['RightRingIntermediate', 'rightRingIntermediate', 'rightRingIntermediate'],
  ['RightRingDistal', 'rightRingDistal', 'rightRingDistal'],
  ['RightLittleProximal', 'rightLittleProximal', 'rightLittleProximal'],
  ['RightLittleIntermediate', 'rightLittleIntermediate', 'rightLittleIntermediate'],
  ['RightLittleDistal', 'rightLittleDistal', 'rightLittleDistal'],
  ['UpperChest', 'upperChest', 'upperChest'],
];

export const VRM1_BONES = HUMAN_BONES.map((row) => row[2]);

// VRMA's humanBones may not hold the eyes (VRMC_vrm_animation 1.0 schema: they are driven by lookAt).
export const NOT_IN_VRMA = new Set(['leftEye', 'rightEye']);

// VRM 1.0 humanoid parent of each bone (VRM 1.0 humanoid spec: the thumbs renamed from VRM 0.x; spec humanoid.md). hips is the root.
export const VRM1_PARENT = (() => {
  const parent = {
    spine: 'hips', chest: 'spine', upperChest: 'chest',
    neck: 'upperChest', leftShoulder: 'upperChest', rightShoulder: 'upperChest',
    head: 'neck', leftEye: 'head', rightEye: 'head', jaw: 'head',
  };
  for (const side of ['left', 'right']) {
    parent[`${side}UpperLeg`] = 'hips';
    parent[`${side}LowerLeg`] = `${side}UpperLeg`;
    parent[`${side}Foot`] = `${side}LowerLeg`;
    parent[`${side}Toes`] = `${side}Foot`;
    parent[`${side}UpperArm`] = `${side}Shoulder`;
    parent[`${side}LowerArm`] = `${side}UpperArm`;
    parent[`${side}Hand`] = `${side}LowerArm`;
    parent[`${side}ThumbMetacarpal`] = `${side}Hand`;
    parent[`${side}ThumbProximal`] = `${side}ThumbMetacarpal`;
    parent[`${side}ThumbDistal`] = `${side}ThumbProximal`;
    for (const finger of ['Index', 'Middle', 'Ring', 'Little']) {
      parent[`${side}${finger}Proximal`] = `${side}Hand`;
      parent[`${side}${finger}Intermediate`] = `${side}${finger}Proximal`;
      parent[`${side}${finger}Distal`] = `${side}${finger}Intermediate`;
    }
  }
  return parent;
})();

// The VRM 1.0 name of each CSV column. Without a bone list: the 55 HumanBodyBones in enum order.
// A bone list (like data/unity/bone.txt) names the columns with Unity or VRM 0.x names (the
// CSV's own naming; case-insensitive), mapped through the table with the thumb shift.
export function columnBoneNames(bonesFile) {
  if (bonesFile === undefined) return VRM1_BONES.slice();
  const byName = new Map();
  for (const [unity, vrm0, vrm1] of HUMAN_BONES) {
    byName.set(unity.toLowerCase(), vrm1);
    byName.set(vrm0.toLowerCase(), vrm1);
  }
  return readBoneList(bonesFile).map((name) => {
    const vrm1 = byName.get(name.toLowerCase());
    if (vrm1 === undefined) throw new Error(`${bonesFile}: '${name}' is not a Unity/VRM 0.x humanoid bone name`);
    return vrm1;
  });
}

// The recording a check compares with: its column bones and rows; a bad file is a usage error.
export function readRecording(bonesFile, csvPath) {
  try {
    const columns = columnBoneNames(bonesFile);
    return { columns, rows: readUnityCsv(csvPath, columns.length) };
  } catch (error) {
    usage(error.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Quaternions [x, y, z, w], double precision (Hamilton product; a·b applies b first).

export const IDENTITY = [0, 0, 0, 1];

export function multiply(a, b) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export function conjugate(q) {
  return [-q[0], -q[1], -q[2], q[3]];
}

// ---------------------------------------------------------------------------------------------
// Loading .vrm / .vrma with GLTFLoader in Node

// GLTFLoader decodes images with createImageBitmap or an <img>, neither of which Node has. This
// plugin answers every texture request with an empty THREE.Texture before the loader's own
// code runs, so no image is decoded; materials get a texture object without pixels. Nodes,
// skins, the humanoid and the animation data are untouched.
function textureStubPlugin(THREE) {
  return () => ({
    name: 'animconv_interop_texture_stub',
    loadTexture() {
      return Promise.resolve(new THREE.Texture());
    },
  });
}

// Loads `path` with GLTFLoader.parse and the given plugin factories (parser => plugin).
// Returns { gltf, messages }: the console warnings/errors printed while loading.
export async function loadGltfFile(THREE, GLTFLoader, path, pluginFactories) {
  stubProgressEvent();
  const bytes = readFileSync(path);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  loader.register(textureStubPlugin(THREE));
  for (const factory of pluginFactories) loader.register(factory);
  return parseGltfCapturingConsole(loader, data);
}

// Adds the lookAt proxy a VRM needs to play a VRMA's lookAt track, as the three-vrm-animation
// examples do, so createVRMAnimationClip need not make one (it warns when it does).
// `VRMLookAtQuaternionProxy` comes from the caller's @pixiv/three-vrm-animation import.
export function addLookAtProxy(vrm, VRMLookAtQuaternionProxy) {
  if (!vrm.lookAt) return;
  const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt);
  proxy.name = 'lookAtQuaternionProxy';
  vrm.scene.add(proxy);
}

// The arguments of a check of OUT converted from IN.vrma onto M.vrm (`convert IN.vrma --skeleton
// M.vrm -o OUT`): --model M.vrm --vrma IN.vrma [--max-failure-lines N] OUT.glb|OUT.json.
export function parseModelOutputArgs(argv) {
  const args = parseArgs(argv, { options: ['model', 'vrma', 'max-failure-lines'] });
  if (args.model === undefined || args.vrma === undefined) usage('--model M.vrm and --vrma IN.vrma are required');
  if (args.positional.length !== 1) usage('give one OUT.glb or OUT.json');
  const outFile = args.positional[0];
  for (const file of [args.model, args.vrma, outFile]) if (!existsSync(file)) usage(`${file} not found`);
  return { args, outFile };
}

// OUT's scene and clip as plain three.js plays them: a GLB (the model with the clip) with
// GLTFLoader, three.js JSON with AnimationClip.parse on the model read with GLTFLoader.
export async function loadOutputOnModel(THREE, GLTFLoader, outFile, modelFile, report) {
  if (isGlb(new Uint8Array(readFileSync(outFile)))) {
    const { gltf, messages } = await loadGltfFile(THREE, GLTFLoader, outFile, []);
    report.check(messages.length === 0, () => `loading ${basename(outFile)} printed: ${messages.join(' | ')}`);
    return { scene: gltf.scene, clip: gltf.animations[0] };
  }
  const { gltf } = await loadGltfFile(THREE, GLTFLoader, modelFile, []);
  const json = JSON.parse(readFileSync(outFile, 'utf8'));
  let clip;
  withConsoleAsFailures(report, 'AnimationClip.parse', () => {
    clip = THREE.AnimationClip.parse(Array.isArray(json) ? json[0] : json);
  });
  return { scene: gltf.scene, clip };
}
