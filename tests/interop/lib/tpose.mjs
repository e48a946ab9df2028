// The VRM T-pose a rest pose is measured from (docs/retargeting.md, "Rest poses"), worked out
// here from the VRM 1.0 T-pose (VRMC_vrm-1.0 tpose.md: arms horizontal, legs straight down, soles
// flat), not from animconv's C++: taken in the body's own rest axes (up the world axis nearest
// the line from the hips to the head, +Y without a torso bone; left towards the left limbs; a BVH
// drawn Z-up is in its T-pose with its legs along -Z). An arm or leg segment of the rest pose more
// than 10° from it is turned onto it by the shortest arc, the joints below it (a hand, the
// fingers) with it; the feet (and toes) and every other joint not at all.

// The arm and leg segments: a humanoid bone and the child its direction points to.
export const LIMB_SEGMENTS = [
  ['leftUpperArm', 'leftLowerArm'], ['leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm'],
  ['rightLowerArm', 'rightHand'], ['leftUpperLeg', 'leftLowerLeg'], ['leftLowerLeg', 'leftFoot'],
  ['rightUpperLeg', 'rightLowerLeg'], ['rightLowerLeg', 'rightFoot'],
];
export const POSED_DEGREES = 10;

// The unit world direction from one object to another.
export function segmentDirection(THREE, from, to) {
  return to.getWorldPosition(new THREE.Vector3()).sub(from.getWorldPosition(new THREE.Vector3())).normalize();
}

// The world axis, with its sign, nearest `v`.
function nearestAxis(THREE, v) {
  const c = v.toArray();
  let axis = 0;
  for (let i = 1; i < 3; ++i) if (Math.abs(c[i]) > Math.abs(c[axis])) axis = i;
  const unit = [0, 0, 0];
  unit[axis] = c[axis] < 0 ? -1 : 1;
  return new THREE.Vector3().fromArray(unit);
}

// A rig's body axes at rest from `position(bone)` (a world Vector3, or null for a bone it lacks):
// up the world axis nearest the line from the hips to the head (else neck, upperChest, chest,
// spine; +Y without one), left from the right upper
// leg (else upper arm, foot, hand) to the left one made square to up, forward = left × up. null
// without them.
export function bodyAxes(THREE, position) {
  const hips = position('hips');
  if (!hips) return null;
  let up = new THREE.Vector3(0, 1, 0);
  for (const bone of ['head', 'neck', 'upperChest', 'chest', 'spine']) {
    const top = position(bone);
    if (top && top.distanceTo(hips) > 1e-9) { up = nearestAxis(THREE, top.clone().sub(hips)); break; }
  }
  for (const [l, r] of [['leftUpperLeg', 'rightUpperLeg'], ['leftUpperArm', 'rightUpperArm'], ['leftFoot', 'rightFoot'], ['leftHand', 'rightHand']]) {
    const a = position(l);
    const b = position(r);
    if (!a || !b) continue;
    const apart = a.clone().sub(b);
    apart.addScaledVector(up, -apart.dot(up));
    if (apart.length() < 1e-9) continue;
    const left = apart.normalize();
    return { up, left, forward: new THREE.Vector3().crossVectors(left, up) };
  }
  return null;
}

// A world direction in a rig's body axes (x left, y up, z forward).
export function inBody(THREE, axes, direction) {
  return new THREE.Vector3(direction.dot(axes.left), direction.dot(axes.up), direction.dot(axes.forward));
}

// Per object of the hierarchy under `root` (at rest, its world matrices current), the world turn
// [x, y, z, w] from its rest orientation to its orientation in the T-pose. `objectOf(bone)` gives
// the object of a humanoid bone, or undefined.
export function swingsToTPose(THREE, root, objectOf) {
  const position = (bone) => objectOf(bone)?.getWorldPosition(new THREE.Vector3()) ?? null;
  const axes = bodyAxes(THREE, position);
  const own = new Map();  // object -> its own turn (identity for a segment close to the T-pose)
  for (const foot of ['leftFoot', 'rightFoot']) {
    if (objectOf(foot)) own.set(objectOf(foot), [0, 0, 0, 1]);  // feet stand flat
  }
  if (axes !== null) {
    for (const [bone, child] of LIMB_SEGMENTS) {
      const from = objectOf(bone);
      const to = objectOf(child);
      if (!from || !to) continue;
      const rest = segmentDirection(THREE, from, to);
      const tpose = /Leg$/.test(bone) ? axes.up.clone().negate()
        : axes.left.clone().multiplyScalar(bone.startsWith('left') ? 1 : -1);
      const degrees = THREE.MathUtils.radToDeg(rest.angleTo(tpose));
      own.set(from, degrees > POSED_DEGREES ? new THREE.Quaternion().setFromUnitVectors(rest, tpose).toArray() : [0, 0, 0, 1]);
    }
  }
  const swing = new Map();
  const visit = (object, inherited) => {
    const mine = own.get(object) ?? inherited;
    swing.set(object, mine);
    for (const child of object.children) visit(child, mine);
  };
  visit(root, [0, 0, 0, 1]);
  return swing;
}

// The quaternion [x, y, z, w] that turns a rig standing in body axes `from` into one standing in
// `to` (each from bodyAxes, its left snapped to the nearest world axis): a Z-up BVH's world motion
// turned into a Y-up model's, the half turn about +Y between a VRM 1.0 and a VRM 0.x model.
export function bodyFrameTurn(THREE, from, to) {
  const frame = (axes) => {
    const left = nearestAxis(THREE, axes.left);
    const forward = new THREE.Vector3().crossVectors(left, axes.up);
    return new THREE.Matrix4().makeBasis(left, axes.up, forward);
  };
  const turn = frame(to).multiply(frame(from).invert());
  return new THREE.Quaternion().setFromRotationMatrix(turn).toArray();
}
