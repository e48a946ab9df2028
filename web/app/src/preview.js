// The preview: a three.js scene that plays a converted clip, on the user's VRM
// (createVRMAnimationClip), on a glTF output's own meshes and skeleton (morph clips, a model
// retargeted onto with --skeleton), or on the generated humanoid. Play/pause, scrub and speed.
import * as THREE from 'three';
import {GLTFLoader} from 'three/addons/loaders/GLTFLoader.js';
import {OrbitControls} from 'three/addons/controls/OrbitControls.js';
import {BVHLoader} from 'three/addons/loaders/BVHLoader.js';
import {VRMLoaderPlugin, VRMUtils} from '@pixiv/three-vrm';
import {VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip} from '@pixiv/three-vrm-animation';
import {createHumanoid, humanoidClip, limb} from './humanoid.js';

const BACKGROUND = 0x20252b;

// Parses glTF/GLB bytes; side files (a .gltf's .bin, images) resolve to blob URLs of their bytes.
export async function parseGltf(bytes, sideFiles = []) {
  const manager = new THREE.LoadingManager();
  const urls = new Map(sideFiles.map((f) => [f.name, URL.createObjectURL(new Blob([f.bytes]))]));
  manager.setURLModifier((url) => urls.get(decodeURIComponent(url.split('/').pop())) ?? url);
  const loader = new GLTFLoader(manager);
  loader.register((parser) => new VRMLoaderPlugin(parser));
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  try {
    return await loader.parseAsync(buffer, '');
  } finally {
    for (const url of urls.values()) URL.revokeObjectURL(url);
  }
}

export function hasMeshes(gltf) {
  let found = false;
  gltf.scene.traverse((object) => { found ||= object.isMesh === true; });
  return found;
}

export class Preview {
  constructor(canvas, controls) {
    this.canvas = canvas;
    this.controls = controls;  // {play, scrub, time, speed, note, title, bones}
    this.renderer = new THREE.WebGLRenderer({canvas, antialias: true});
    this.renderer.setPixelRatio(1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 2);
    sun.position.set(2, 4, 3);
    this.scene.add(sun);
    this.scene.add(new THREE.GridHelper(6, 12, 0x556070, 0x39414b));
    this.camera = new THREE.PerspectiveCamera(35, 4 / 3, 0.01, 100);
    this.camera.position.set(0, 1.2, 4);
    this.orbit = new OrbitControls(this.camera, canvas);
    this.orbit.target.set(0, 0.9, 0);
    this.orbit.update();
    this.timer = new THREE.Timer();
    this.playing = true;
    this.subject = null;
    this.mixer = null;
    this.vrm = null;
    this.boneLines = null;
    this.duration = 0;
    controls.play.addEventListener('click', () => this.setPlaying(!this.playing));
    controls.scrub.addEventListener('input', () => {
      this.setPlaying(false);
      this.seek(Number(controls.scrub.value));
    });
    controls.bones.addEventListener('change', () => {
      if (this.boneLines) this.boneLines.visible = controls.bones.checked;
    });
    this.renderer.setAnimationLoop((milliseconds) => this.frame(milliseconds));
  }

  setPlaying(playing) {
    this.playing = playing;
    this.controls.play.textContent = playing ? 'Pause' : 'Play';
  }

  clear(note) {
    if (this.subject) this.scene.remove(this.subject);
    if (this.boneLines) {
      this.scene.remove(this.boneLines);
      this.boneLines.dispose();
      this.boneLines = null;
    }
    if (this.vrm) VRMUtils.deepDispose(this.vrm.scene);
    this.subject = null;
    this.mixer = null;
    this.vrm = null;
    this.duration = 0;
    this.controls.play.disabled = true;
    this.controls.scrub.disabled = true;
    this.controls.note.textContent = note ?? '';
    this.controls.title.textContent = '';
    document.body.dataset.preview = 'empty';
  }

  // Shows `subject` playing `clip`; `vrm`, when given, is updated every frame (its normalised
  // bones drive the raw ones).
  show({subject, clip, vrm = null, title, note}) {
    this.clear(note);
    this.subject = subject;
    this.vrm = vrm;
    this.scene.add(subject);
    // The bones as lines over the meshes: a model's mesh may hide them or barely cover them.
    this.boneLines = new THREE.SkeletonHelper(subject);
    this.boneLines.material.depthTest = false;
    this.boneLines.renderOrder = 1;
    this.boneLines.visible = this.controls.bones.checked;
    this.scene.add(this.boneLines);
    this.mixer = new THREE.AnimationMixer(subject);
    this.mixer.clipAction(clip).play();
    this.duration = clip.duration;
    this.controls.title.textContent = title;
    this.controls.scrub.max = String(this.duration);
    this.controls.play.disabled = false;
    this.controls.scrub.disabled = this.duration <= 0;
    this.setPlaying(true);
    this.seek(0);
    this.frameSubject(subject);
    document.body.dataset.preview = 'ready';
  }

  // Aims the camera at the subject's first pose, from the front (+Z), whatever its size.
  frameSubject(subject) {
    subject.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(subject);
    if (box.isEmpty()) return;
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    const center = box.getCenter(new THREE.Vector3());
    this.orbit.target.copy(center);
    this.camera.position.set(center.x + size * 0.4, center.y + size * 0.3, center.z + size * 1.8);
    this.camera.near = size / 100;
    this.camera.far = size * 100;
    this.camera.updateProjectionMatrix();
    this.orbit.update();
  }

  seek(seconds) {
    if (!this.mixer) return;
    // Just short of the end: at the duration itself a repeating action wraps to the first frame.
    this.mixer.setTime(Math.min(Math.max(seconds, 0), Math.max(this.duration - 1e-4, 0)));
    this.vrm?.update(0);
  }

  frame(milliseconds) {
    this.timer.update(milliseconds);
    const delta = this.timer.getDelta();
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (width && height && (this.canvas.width !== width || this.canvas.height !== height)) {
      this.renderer.setSize(width, height, false);
      this.camera.aspect = width / height;
      this.camera.updateProjectionMatrix();
    }
    if (this.mixer && this.playing) {
      this.mixer.update(delta * Number(this.controls.speed.value));
      this.vrm?.update(delta);
    }
    if (this.mixer) {
      const time = this.duration > 0 ? this.mixer.time % this.duration : 0;
      if (this.playing) this.controls.scrub.value = String(time);
      this.controls.time.textContent = `${time.toFixed(2)} s`;
    }
    this.renderer.render(this.scene, this.camera);
  }

  // A .vrma on the user's VRM model.
  async showVrmaOnVrm(vrmaBytes, modelGltf, title) {
    const animation = (await parseGltf(vrmaBytes)).userData.vrmAnimations?.[0];
    if (!animation) throw new Error('the .vrma holds no VRM animation');
    const vrm = modelGltf.userData.vrm;
    VRMUtils.rotateVRM0(vrm);
    // The proxy the clip's lookAt track drives (createVRMAnimationClip warns and makes one
    // itself otherwise).
    if (vrm.lookAt && !vrm.scene.getObjectByName('lookAtQuaternionProxy')) {
      const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt);
      proxy.name = 'lookAtQuaternionProxy';
      vrm.scene.add(proxy);
    }
    this.show({subject: vrm.scene, clip: createVRMAnimationClip(animation, vrm), vrm, title,
               note: 'on your VRM model (three-vrm-animation)'});
  }

  // A .vrma on the generated humanoid.
  async showVrmaOnHumanoid(vrmaBytes, title, note) {
    const animation = (await parseGltf(vrmaBytes)).userData.vrmAnimations?.[0];
    if (!animation) throw new Error('the .vrma holds no VRM animation');
    const humanoid = createHumanoid();
    this.show({subject: humanoid.root, clip: humanoidClip(animation, humanoid), title, note});
  }

  // A BVH output without humanoid bones (no .vrma copy): its own skeleton as lines (BVHLoader).
  showBvh(text, title) {
    const {skeleton, clip} = new BVHLoader().parse(text);
    const subject = new THREE.Group();
    subject.add(skeleton.bones[0]);
    // A box from every joint to each child joint, as thick as a fifth of the bone.
    const material = new THREE.MeshStandardMaterial({color: 0x6fa8dc, roughness: 0.6});
    for (const bone of skeleton.bones) {
      for (const child of bone.children.filter((c) => c.isBone && c.position.lengthSq() > 0)) {
        bone.add(limb(child.position.toArray(), child.position.length() / 5, material));
      }
    }
    this.show({subject, clip, title, note: 'the BVH\'s own skeleton (BVHLoader): it has no humanoid bones'});
  }

  // A three.js clip JSON on the glTF whose nodes its tracks name (the model written onto with
  // --skeleton, or the glTF input): AnimationClip.parse, as a three.js app loads it.
  showThreeClipOn(json, gltf, title, whose) {
    const clip = THREE.AnimationClip.parse(Array.isArray(json) ? json[0] : json);
    this.show({subject: gltf.scene, clip, title, note: `the three.js clip on ${whose} (AnimationClip.parse)`});
  }

  // A glTF output with meshes (a morph clip, a model with the clip): its own scene and clip.
  showGltf(gltf, title) {
    const clip = gltf.animations[0];
    if (!clip) throw new Error('the output holds no animation three.js reads');
    this.show({subject: gltf.scene, clip, title, note: 'the output\'s own meshes and skeleton (GLTFLoader)'});
  }
}
