// The generated humanoid the preview plays a clip on when there is no model: boxes on a skeleton
// whose bones carry the VRM humanoid bone names, in the VRM 1.0 T-pose (faces +Z, every rest
// rotation identity), so a .vrma's normalised rotations apply to it unchanged.
import * as THREE from 'three';

// [bone, parent, offset from the parent in metres, limb thickness in metres]
const BONES = [
  ['hips', null, [0, 0.95, 0], 0.2],
  ['spine', 'hips', [0, 0.1, 0], 0.2],
  ['chest', 'spine', [0, 0.14, 0], 0.22],
  ['upperChest', 'chest', [0, 0.12, 0], 0.24],
  ['neck', 'upperChest', [0, 0.14, 0], 0.07],
  ['head', 'neck', [0, 0.08, 0], 0.07],
  ['leftShoulder', 'upperChest', [0.03, 0.1, 0], 0.08],
  ['leftUpperArm', 'leftShoulder', [0.1, 0, 0], 0.08],
  ['leftLowerArm', 'leftUpperArm', [0.26, 0, 0], 0.07],
  ['leftHand', 'leftLowerArm', [0.24, 0, 0], 0.06],
  ['rightShoulder', 'upperChest', [-0.03, 0.1, 0], 0.08],
  ['rightUpperArm', 'rightShoulder', [-0.1, 0, 0], 0.08],
  ['rightLowerArm', 'rightUpperArm', [-0.26, 0, 0], 0.07],
  ['rightHand', 'rightLowerArm', [-0.24, 0, 0], 0.06],
  ['leftUpperLeg', 'hips', [0.09, -0.05, 0], 0.11],
  ['leftLowerLeg', 'leftUpperLeg', [0, -0.42, 0], 0.1],
  ['leftFoot', 'leftLowerLeg', [0, -0.4, 0], 0.08],
  ['leftToes', 'leftFoot', [0, -0.06, 0.12], 0.07],
  ['rightUpperLeg', 'hips', [-0.09, -0.05, 0], 0.11],
  ['rightLowerLeg', 'rightUpperLeg', [0, -0.42, 0], 0.1],
  ['rightFoot', 'rightLowerLeg', [0, -0.4, 0], 0.08],
  ['rightToes', 'rightFoot', [0, -0.06, 0.12], 0.07],
];

const UP = new THREE.Vector3(0, 1, 0);

// A box from the parent's origin to `offset`, added to the parent: it turns with the parent bone.
export function limb(offset, thickness, material) {
  const direction = new THREE.Vector3(...offset);
  const length = direction.length();
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(thickness, length, thickness * 0.8), material);
  mesh.position.copy(direction).multiplyScalar(0.5);
  mesh.quaternion.setFromUnitVectors(UP, direction.normalize());
  return mesh;
}

export function createHumanoid() {
  const root = new THREE.Group();
  root.name = 'generated humanoid';
  const body = new THREE.MeshStandardMaterial({color: 0x6fa8dc, roughness: 0.6});
  const left = new THREE.MeshStandardMaterial({color: 0xe69138, roughness: 0.6});
  const bones = new Map();
  for (const [name, parentName, offset, thickness] of BONES) {
    const bone = new THREE.Bone();
    bone.name = name;
    bone.position.set(...offset);
    const parent = parentName ? bones.get(parentName) : root;
    parent.add(bone);
    bones.set(name, bone);
    if (parentName) parent.add(limb(offset, thickness, name.startsWith('left') ? left : body));
  }
  const head = new THREE.Mesh(new THREE.SphereGeometry(0.11, 24, 16), body);
  head.position.set(0, 0.1, 0);
  bones.get('head').add(head);
  // The nose shows which way the figure faces.
  const nose = new THREE.Mesh(new THREE.BoxGeometry(0.04, 0.04, 0.06), left);
  nose.position.set(0, 0.1, 0.11);
  bones.get('head').add(nose);
  for (const hand of ['leftHand', 'rightHand']) {
    const palm = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.03, 0.08), body);
    palm.position.set(hand === 'leftHand' ? 0.05 : -0.05, 0, 0);
    bones.get(hand).add(palm);
  }
  return {root, bones, hipsHeight: BONES[0][2][1]};
}

// The clip of a loaded VRMAnimation on the generated humanoid: its rotations as they are (both
// are normalised VRM 1.0 rigs), the hips' travel scaled by the hips' heights, as
// createVRMAnimationClip does for a VRM.
export function humanoidClip(vrmAnimation, humanoid) {
  const tracks = [];
  for (const [bone, track] of vrmAnimation.humanoidTracks.rotation) {
    if (!humanoid.bones.has(bone)) continue;
    tracks.push(new THREE.QuaternionKeyframeTrack(`${bone}.quaternion`, track.times, track.values));
  }
  const hipsTravel = vrmAnimation.humanoidTracks.translation.get('hips');
  if (hipsTravel) {
    const restHeight = vrmAnimation.restHipsPosition?.y || humanoid.hipsHeight;
    const scale = humanoid.hipsHeight / restHeight;
    const values = hipsTravel.values.map((v) => v * scale);
    tracks.push(new THREE.VectorKeyframeTrack('hips.position', hipsTravel.times, values));
  }
  return new THREE.AnimationClip('clip', vrmAnimation.duration, tracks);
}
