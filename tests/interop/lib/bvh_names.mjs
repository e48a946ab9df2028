// BVH joint names -> VRM 1.0 humanoid bones, written from the skeletons' conventions (not from
// animconv's C++), for the checks that pair a BVH's joints with a VRMA's bones: check_bvh.mjs
// (three-vrm-animation) and tests/blender/check_blender.mjs (Blender's import of a .vrma).
// `jointNames`: every joint name of the file (the Biovision convention is told by its Collars).
// BVH joint name -> VRM 1.0 humanoid bone, per skeleton convention. Mixamo/CMU: Spine1 = chest,
// Spine2 = upperChest (three-vrm's Mixamo example map); Biovision: Collar = shoulder, Shoulder =
// upper arm, Hip = upper leg; Poser: abdomen = spine, Shldr = upper arm, Thigh = upper leg; DAZ
// Genesis: abdomenLower = spine, chestLower = chest, chestUpper = upperChest, ShldrBend = upper
// arm, ForearmBend = lower arm, ThighBend = upper leg.
export function bvhHumanBoneOf(jointName, jointNames) {
  const name = jointName.replace(/^mixamorig[0-9]*[:_]?/, '');
  const sides = { Left: 'left', Right: 'right', l: 'left', r: 'right' };
  const common = {
    Hips: 'hips', Spine: 'spine', Spine1: 'chest', Spine2: 'upperChest', Neck: 'neck', Head: 'head',
    hip: 'hips', abdomen: 'spine', chest: 'chest', neck: 'neck', head: 'head',
    // DAZ Genesis 3/8: the lower joint of each split pair is the bone, the upper one folds in.
    abdomenLower: 'spine', chestLower: 'chest', chestUpper: 'upperChest', neckLower: 'neck', lowerJaw: 'jaw',
    Chest: 'spine', Chest2: 'chest', Chest3: 'upperChest',
  };
  if (common[name] !== undefined) {
    // "Chest" is Biovision's spine, but a Unity-like name elsewhere; the BVHs here use it as spine.
    return common[name];
  }
  const limb = {
    // Mixamo / CMU
    Shoulder: 'Shoulder', Arm: 'UpperArm', ForeArm: 'LowerArm', Hand: 'Hand',
    UpLeg: 'UpperLeg', Leg: 'LowerLeg', Foot: 'Foot', ToeBase: 'Toes',
    // Biovision
    Collar: 'Shoulder', Elbow: 'LowerArm', Wrist: 'Hand', Hip: 'UpperLeg', Knee: 'LowerLeg',
    Ankle: 'Foot', Toe: 'Toes',
    // Poser
    Shldr: 'UpperArm', Thigh: 'UpperLeg', Shin: 'LowerLeg', Eye: 'Eye',
    // DAZ Genesis (its Twist joints are no bones)
    ShldrBend: 'UpperArm', ForearmBend: 'LowerArm', ThighBend: 'UpperLeg',
  };
  // Fingers: Mixamo HandIndex1..3 / Poser Index1..3 are proximal..distal; thumbs 1..3 are VRM
  // 1.0's metacarpal, proximal, distal.
  const finger = /^(Left|Right|l|r)(?:Hand)?(Thumb|Index|Middle|Mid|Ring|Pinky)([123])$/.exec(name);
  if (finger) {
    const fingerName = { Thumb: 'Thumb', Index: 'Index', Middle: 'Middle', Mid: 'Middle', Ring: 'Ring', Pinky: 'Little' }[finger[2]];
    const segment = finger[2] === 'Thumb' ? ['Metacarpal', 'Proximal', 'Distal'] : ['Proximal', 'Intermediate', 'Distal'];
    return `${sides[finger[1]]}${fingerName}${segment[Number(finger[3]) - 1]}`;
  }
  const biovision = jointNames.some((joint) => /Collar$/.test(joint));
  let match = /^(Left|Right)(.+)$/.exec(name) ?? /^(l|r)([A-Z].*)$/.exec(name);
  if (!match) return null;
  const side = sides[match[1]];
  const part = match[2];
  if (biovision && part === 'Shoulder') return `${side}UpperArm`;
  if (limb[part] !== undefined) return `${side}${limb[part]}`;
  return null;
}
