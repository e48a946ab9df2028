// Playing a clip in three.js and comparing poses, for check_gltf.mjs: the objects a track drives
// (found as PropertyBinding finds them), snapshots of their transforms and morph weights, and the
// differences between two snapshots. Import it after requireModules(['three']).
import { formatQuat, signFreeDistance } from './common.mjs';

const THREE = await import('three');

// Tolerance of every recorded component (float32 data; 1e-5 as the interop contract says).
export const TOLERANCE = 1e-5;

// The object a GLTFLoader track drives, found the way PropertyBinding finds it.
export function trackTarget(root, track) {
  const parsed = THREE.PropertyBinding.parseTrackName(track.name);
  return THREE.PropertyBinding.findNode(root, parsed.nodeName) ?? null;
}

export function pathOf(object, root) {
  const steps = [];
  for (let node = object; node !== root; node = node.parent) {
    if (!node.parent) return null;
    steps.push(node.parent.children.indexOf(node));
  }
  return steps.reverse().join('/');
}

export function objectAt(root, path) {
  let node = root;
  if (path === '') return node;
  for (const step of path.split('/')) {
    node = node.children[Number(step)];
    if (!node) return null;
  }
  return node;
}

export function snapshot(object) {
  return {
    position: object.position.toArray(),
    quaternion: object.quaternion.toArray(),
    scale: object.scale.toArray(),
    morph: object.morphTargetInfluences ? Array.from(object.morphTargetInfluences) : null,
  };
}

export function restore(object, state) {
  object.position.fromArray(state.position);
  object.quaternion.fromArray(state.quaternion);
  object.scale.fromArray(state.scale);
  if (state.morph) state.morph.forEach((value, i) => { object.morphTargetInfluences[i] = value; });
}

// Key times of every track of a clip, plus the midpoints of consecutive key times.
export function keyAndMidTimes(clips) {
  const times = new Set();
  for (const clip of clips) {
    for (const track of clip.tracks) {
      const keys = track.times;
      for (let k = 0; k < keys.length; ++k) {
        times.add(keys[k]);
        if (k + 1 < keys.length) times.add((keys[k] + keys[k + 1]) / 2);
      }
    }
  }
  return [...times].sort((a, b) => a - b);
}

// Every key time of `times` (sorted) and `steps` - 1 evenly spaced times between each pair, as
// animconv poses feet for --ground (docs/root_motion.md, "Grounding"): the times in order.
export function keysAndBetween(times, steps) {
  const out = [];
  for (let k = 0; k + 1 < times.length; ++k) {
    for (let i = 0; i < steps; ++i) out.push(times[k] + (times[k + 1] - times[k]) * i / steps);
  }
  if (times.length > 0) out.push(times[times.length - 1]);
  return out;
}


// Plays `clip` on `root` at `times`; returns values[sample][object] (snapshots). The objects
// are put back into their rest state afterwards.
export function play(root, clip, times, objects) {
  const rest = objects.map((object) => (object ? snapshot(object) : null));
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  // Play once and hold the last pose: with the default LoopRepeat, time == duration wraps to 0.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const values = [];
  for (const t of times) {
    action.reset();  // clampWhenFinished pauses the action at the end
    mixer.setTime(t);
    values.push(objects.map((object) => (object ? snapshot(object) : null)));
  }
  action.stop();
  mixer.uncacheRoot(root);
  objects.forEach((object, i) => { if (object) restore(object, rest[i]); });
  return values;
}

export function maxDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

export function formatVector(values) {
  return `(${Array.from(values, (c) => c.toFixed(7)).join(', ')})`;
}

// The first difference between two snapshots beyond the tolerance, or null.
export function snapshotDifference(want, got) {
  for (const key of ['position', 'scale']) {
    const d = maxDifference(want[key], got[key]);
    if (!(d <= TOLERANCE)) return `${key} ${formatVector(got[key])}, input ${formatVector(want[key])}, off by ${d.toExponential(2)}`;
  }
  const dq = signFreeDistance(want.quaternion, got.quaternion);
  if (!(dq <= TOLERANCE)) {
    return `quaternion ${formatQuat(got.quaternion)}, input ${formatQuat(want.quaternion)} (±q), off by ${dq.toExponential(2)}`;
  }
  if ((want.morph === null) !== (got.morph === null) || (want.morph && want.morph.length !== got.morph.length)) {
    return `morphTargetInfluences has ${got.morph ? got.morph.length : 'no'} entries, input ${want.morph ? want.morph.length : 'none'}`;
  }
  if (want.morph) {
    const d = maxDifference(want.morph, got.morph);
    if (!(d <= TOLERANCE)) {
      const i = want.morph.findIndex((w, k) => !(Math.abs(w - got.morph[k]) <= TOLERANCE));
      return `morphTargetInfluences[${i}] ${got.morph[i]}, input ${want.morph[i]}, off by ${d.toExponential(2)}`;
    }
  }
  return null;
}

// Paths (from gltf.root) of the objects the clip's tracks drive; counts unbound tracks.
export function animatedPaths(gltf, clip) {
  const paths = new Set();
  const unbound = [];
  for (const track of clip.tracks) {
    const target = trackTarget(gltf.root, track);
    const path = target ? pathOf(target, gltf.root) : null;
    if (path === null) unbound.push(track.name);
    else paths.add(path);
  }
  return { paths, unbound };
}

// An AnimationMixer on `root` playing `clip` once, held at its end (LoopOnce, clamped).
export function playOnce(THREE, root, clip) {
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  return mixer;
}

// name -> the object under `root` a track of that node name binds to.
export function nodeFinder(THREE, root) {
  const nodes = new Map();
  root.traverse((object) => nodes.set(object.name, object));
  return (name) => nodes.get(THREE.PropertyBinding.sanitizeNodeName(name));
}
