#!/usr/bin/env python3
"""Writes the project's own small BVH fixtures (data/bvh/README.md): a CMU-style skeleton
(cgspeed's BVH conversion of the CMU database: LHipJoint, LeftUpLeg, LowerBack, Spine1, Neck1,
LThumb...) and a Mixamo-style one ("mixamorig:" names), each with a short made-up motion.
Deterministic: re-running gives the same bytes."""
import math

def joint_lines(joint, depth, order, end_site=(0.0, 1.0, 0.0)):
    name, offset, children = joint
    pad = "\t" * depth
    keyword = "ROOT" if depth == 0 else "JOINT"
    lines = [f"{pad}{keyword} {name}", f"{pad}{{", f"{pad}\tOFFSET {offset[0]:.6f} {offset[1]:.6f} {offset[2]:.6f}"]
    rotations = " ".join(f"{axis}rotation" for axis in order)
    if depth == 0:
        lines.append(f"{pad}\tCHANNELS 6 Xposition Yposition Zposition {rotations}")
    else:
        lines.append(f"{pad}\tCHANNELS 3 {rotations}")
    if children:
        for child in children:
            lines += joint_lines(child, depth + 1, order, end_site)
    else:
        lines += [f"{pad}\tEnd Site", f"{pad}\t{{",
                  f"{pad}\t\tOFFSET {end_site[0]:.6f} {end_site[1]:.6f} {end_site[2]:.6f}", f"{pad}\t}}"]
    lines.append(f"{pad}}}")
    return lines

def names(joint):
    result = [joint[0]]
    for child in joint[2]:
        result += names(child)
    return result

def write(path, root, order, frames, frame_time, motion, end_site=(0.0, 1.0, 0.0)):
    """motion(name, frame) -> (x, y, z) degrees about X, Y, Z; root also gets a position."""
    lines = ["HIERARCHY"] + joint_lines(root, 0, order, end_site)
    lines += ["MOTION", f"Frames: {frames}", f"Frame Time: {frame_time:.10f}"]
    for frame in range(frames):
        values = []
        for index, name in enumerate(names(root)):
            if index == 0:
                values += motion("@position", frame)
            angles = dict(zip("XYZ", motion(name, frame)))
            values += [angles[axis] for axis in order]
        lines.append(" ".join(f"{v:.4f}" for v in values))
    with open(path, "w", newline="\n") as out:
        out.write("\n".join(lines) + "\n")

def side(prefix, sign, parts):
    return [(prefix + name, (sign * x, y, z), kids) for name, (x, y, z), kids in parts]

def chain(items):
    """[(name, offset)...] -> nested joints, last one a leaf."""
    name, offset = items[0]
    return (name, offset, [chain(items[1:])] if len(items) > 1 else [])

def wave(frame, period, amplitude, phase=0.0):
    return amplitude * math.sin(2 * math.pi * frame / period + phase)

# CMU (cgspeed): units of about 2.3 cm (hips at ~17), legs below LHipJoint, arms along +-X.
def cmu():
    def leg(s, S):
        return (f"{S}HipJoint", (0, 0, 0), [chain([(f"{s}UpLeg", (s_x(s) * 1.36, -1.9, 0.84)), (f"{s}Leg", (s_x(s) * 2.44, -6.7, 0)),
                                                  (f"{s}Foot", (s_x(s) * 2.6, -7.1, 0)), (f"{s}ToeBase", (0, -0.4, 2.1))])])
    def arm(s, S):
        hand = (f"{s}Hand", (s_x(s) * 3.4, 0, 0), [
            chain([(f"{s}FingerBase", (s_x(s) * 0.7, 0, 0)), (f"{s}HandIndex1", (s_x(s) * 0.6, 0, 0))]),
            (f"{S}Thumb", (s_x(s) * 0.5, 0, 0.5), [])])
        return (f"{s}Shoulder", (s_x(s) * 1.1, 1.6, 0), [(f"{s}Arm", (s_x(s) * 3.5, 0, 0), [(f"{s}ForeArm", (s_x(s) * 5.0, 0, 0), [hand])])])
    spine = ("LowerBack", (0, 0, 0), [("Spine", (0, 2.0, 0), [("Spine1", (0, 2.0, 0), [
        ("Neck", (0, 1.6, 0), [("Neck1", (0, 1.5, 0), [("Head", (0, 1.5, 0), [])])]),
        arm("Left", "L"), arm("Right", "R")])])])
    return ("Hips", (0.3, 17.0, -0.2), [leg("Left", "L"), leg("Right", "R"), spine])

def s_x(s):
    return 1 if s == "Left" else -1

def cmu_motion(name, frame):
    if name == "@position":
        return [0.3 + wave(frame, 24, 0.4), 17.0 + wave(frame, 12, 0.3), -0.2 + 0.5 * frame]
    table = {
        "Hips": (wave(frame, 24, 4), wave(frame, 24, 10, 1), wave(frame, 24, 3)),
        "LeftUpLeg": (wave(frame, 24, 30), 0, wave(frame, 48, 5)),
        "RightUpLeg": (wave(frame, 24, 30, math.pi), 0, 0),
        "LeftLeg": (abs(wave(frame, 24, 40)), 0, 0),
        "RightLeg": (abs(wave(frame, 24, 40, 1)), 0, 0),
        "Spine": (0, wave(frame, 24, 12, 2), 0),
        "Spine1": (wave(frame, 24, 5), 0, wave(frame, 24, 4)),
        "LeftArm": (wave(frame, 24, 20), wave(frame, 24, 25), -60 + wave(frame, 24, 10)),
        "RightArm": (wave(frame, 24, 20, 2), wave(frame, 24, 25, 1), 60 + wave(frame, 24, 10)),
        "LeftForeArm": (0, wave(frame, 24, 30) - 30, 0),
        "Head": (wave(frame, 24, 15), wave(frame, 12, 20), 0),
        "LThumb": (wave(frame, 12, 20), 0, 0),
    }
    return list(table.get(name, (0, 0, 0)))

# Mixamo: centimetres (hips at ~104), "mixamorig:" names, Spine/Spine1/Spine2.
def mixamo():
    p = "mixamorig:"
    def leg(s):
        return chain([(f"{p}{s}UpLeg", (s_x(s) * 9.1, -6.6, -0.2)), (f"{p}{s}Leg", (0, -44.0, 0.3)),
                      (f"{p}{s}Foot", (0, -43.0, -2.0)), (f"{p}{s}ToeBase", (0, -8.5, 10.5))])
    def arm(s):
        return chain([(f"{p}{s}Shoulder", (s_x(s) * 6.1, 9.1, -0.5)), (f"{p}{s}Arm", (s_x(s) * 12.8, 0, 0)),
                      (f"{p}{s}ForeArm", (s_x(s) * 27.0, 0, 0)), (f"{p}{s}Hand", (s_x(s) * 26.5, 0, 0))])
    upper = (f"{p}Spine2", (0, 12.4, 0), [chain([(f"{p}Neck", (0, 14.4, 1.0)), (f"{p}Head", (0, 9.6, 3.0))]), arm("Left"), arm("Right")])
    return (f"{p}Hips", (0, 104.0, 1.0), [leg("Left"), leg("Right"),
                                           (f"{p}Spine", (0, 9.9, -0.6), [(f"{p}Spine1", (0, 11.6, 0), [upper])])])

def mixamo_motion(name, frame):
    if name == "@position":
        return [wave(frame, 30, 3), wave(frame, 15, 2), wave(frame, 30, 4, 1)]
    short = name.split(":")[-1]
    table = {
        "Hips": (wave(frame, 30, 5), wave(frame, 30, 20), 0),
        "Spine1": (wave(frame, 30, 8), 0, wave(frame, 30, 6)),
        "Spine2": (0, wave(frame, 30, 10), 0),
        "RightArm": (wave(frame, 30, 15), 0, 70 + wave(frame, 10, 25)),
        "RightForeArm": (0, -40 + wave(frame, 10, 35), 0),
        "RightHand": (wave(frame, 10, 20), 0, 0),
        "LeftArm": (0, 0, -70),
        "LeftUpLeg": (wave(frame, 30, 10), 0, 0),
        "LeftLeg": (abs(wave(frame, 30, 20)), 0, 0),
        "Head": (wave(frame, 30, 10), wave(frame, 15, 15), 0),
    }
    return list(table.get(short, (0, 0, 0)))

# DAZ Genesis 8 as DAZ Studio exports it: centimetres, bend/twist pairs, a split abdomen, chest
# and neck, and in-between joints (pelvis, Twist, Metatarsals, Carpal) whose rotations a
# retargeter must fold into the bones around them.
def daz():
    def leg(s):
        return chain([(f"{s}ThighBend", (s_x_daz(s) * 8.0, -5.0, 0)), (f"{s}ThighTwist", (0, -20.0, 0)),
                      (f"{s}Shin", (0, -23.0, 0.5)), (f"{s}Foot", (0, -42.0, -2.0)),
                      (f"{s}Metatarsals", (0, -5.0, 5.0)), (f"{s}Toe", (0, -1.5, 7.0))])
    def arm(s):
        hand = (f"{s}Hand", (s_x_daz(s) * 12.0, 0, 0), [
            chain([(f"{s}Thumb1", (s_x_daz(s) * 2.0, -1.0, 3.0)), (f"{s}Thumb2", (s_x_daz(s) * 3.0, 0, 1.0)),
                   (f"{s}Thumb3", (s_x_daz(s) * 2.5, 0, 0.5))]),
            (f"{s}Carpal1", (s_x_daz(s) * 1.5, 0, 1.5), [chain([(f"{s}Index1", (s_x_daz(s) * 6.0, 0, 0)),
                                                             (f"{s}Index2", (s_x_daz(s) * 4.0, 0, 0)),
                                                             (f"{s}Index3", (s_x_daz(s) * 2.5, 0, 0))])])])
        return with_leaf(chain([(f"{s}Collar", (s_x_daz(s) * 2.0, 9.0, 0)),
                                (f"{s}ShldrBend", (s_x_daz(s) * 13.0, 0, 0)),
                                (f"{s}ShldrTwist", (s_x_daz(s) * 13.0, 0, 0)),
                                (f"{s}ForearmBend", (s_x_daz(s) * 13.0, 0, 0)),
                                (f"{s}ForearmTwist", (s_x_daz(s) * 12.0, 0, 0))]), hand)
    head = ("head", (0, 5.0, 0), [("lEye", (3.0, 7.0, 8.0), []), ("rEye", (-3.0, 7.0, 8.0), []),
                                  ("lowerJaw", (0, 0, 3.0), [])])
    neck = with_leaf(chain([("neckLower", (0, 12.0, 0)), ("neckUpper", (0, 4.0, 0))]), head)
    chest = ("chestUpper", (0, 10.0, 0), [neck, arm("l"), arm("r")])
    spine = chain([("abdomenLower", (0, 2.0, 0)), ("abdomenUpper", (0, 7.0, 0)), ("chestLower", (0, 8.0, 0))])
    return ("hip", (0, 103.0, 0), [("pelvis", (0, -2.0, 0), [leg("l"), leg("r")]), with_leaf(spine, chest)])

def s_x_daz(s):
    return 1 if s == "l" else -1

def with_leaf(joint, child):
    """joint (a chain) with `child` added below its last joint."""
    name, offset, kids = joint
    if not kids:
        return (name, offset, [child])
    return (name, offset, [with_leaf(kids[0], child)])

def daz_motion(name, frame):
    if name == "@position":
        return [wave(frame, 30, 2), wave(frame, 15, 1.5), 0.8 * frame]
    table = {
        "hip": (wave(frame, 30, 4), wave(frame, 30, 12), 0),
        "pelvis": (wave(frame, 30, 6), 0, wave(frame, 30, 3)),
        "lThighBend": (wave(frame, 30, 25), 0, wave(frame, 30, 4)),
        "rThighBend": (wave(frame, 30, 25, math.pi), 0, 0),
        "lThighTwist": (0, wave(frame, 30, 10), 0),
        "lShin": (abs(wave(frame, 30, 35)), 0, 0),
        "rShin": (abs(wave(frame, 30, 35, 1)), 0, 0),
        "lFoot": (wave(frame, 30, 10), 0, 0),
        "lMetatarsals": (wave(frame, 30, 8), 0, 0),
        "abdomenLower": (wave(frame, 30, 5), wave(frame, 30, 6), 0),
        "abdomenUpper": (0, wave(frame, 30, 5, 1), wave(frame, 30, 3)),
        "chestUpper": (wave(frame, 30, 4), 0, 0),
        "neckLower": (wave(frame, 30, 6), 0, 0),
        "neckUpper": (0, wave(frame, 15, 8), 0),
        "head": (wave(frame, 30, 8), wave(frame, 15, 12), 0),
        "lShldrBend": (wave(frame, 30, 15), 0, -60 + wave(frame, 15, 15)),
        "rShldrBend": (wave(frame, 30, 15, 2), 0, 60 + wave(frame, 15, 15)),
        "lShldrTwist": (wave(frame, 30, 20), 0, 0),
        "lForearmBend": (0, -30 + wave(frame, 15, 25), 0),
        "rForearmTwist": (wave(frame, 30, 15), 0, 0),
        "lCarpal1": (0, 0, wave(frame, 15, 10)),
        "lIndex1": (0, 0, wave(frame, 15, 30)),
        "lThumb2": (wave(frame, 15, 20), 0, 0),
        "lowerJaw": (abs(wave(frame, 10, 10)), 0, 0),
    }
    return list(table.get(name, (0, 0, 0)))

def turned(root, order, motion, axes):
    """The same skeleton and motion in a turned world: `axes` gives, for X, Y and Z, the signed
    world axis each becomes ("+X", "-Z", ...), a proper rotation P. Offsets and the root position
    become P·v; a joint's rotation becomes P·R·P⁻¹, whose factor about axis i is the factor about
    P's image of i with the angle negated where that image is a negative axis, so the channel
    order is renamed and the angles move and change sign accordingly."""
    index = ["XYZ".index(a[1]) for a in axes]
    sign = [-1 if a[0] == "-" else 1 for a in axes]

    def move(v):
        out = [0.0, 0.0, 0.0]
        for i in range(3):
            out[index[i]] = sign[i] * v[i] + 0.0  # + 0.0: no -0 in the file
        return tuple(out)

    def joint(j):
        name, offset, children = j
        return (name, move(offset), [joint(child) for child in children])

    def turned_motion(name, frame):
        return list(move(motion(name, frame)))

    new_order = "".join("XYZ"[index["XYZ".index(axis)]] for axis in order)
    return joint(root), new_order, turned_motion, move((0.0, 1.0, 0.0))


write("cmu_walk.bvh", cmu(), "ZYX", 48, 1 / 120, cmu_motion)
# The same walk in other worlds (retargeting and diff turn a rig by its rest pose's up and facing,
# docs/retargeting.md "Up and facing"): drawn Z-up as 3ds Max and Blender scenes are (up +Z, front
# -Y: X stays, Y becomes Z, Z becomes -Y), and standing up +Y facing +X (a quarter turn about Y).
for path, axes in [("cmu_walk_z_up.bvh", ("+X", "+Z", "-Y")), ("cmu_walk_facing_x.bvh", ("-Z", "+Y", "+X"))]:
    skeleton, order, motion, end_site = turned(cmu(), "ZYX", cmu_motion, axes)
    write(path, skeleton, order, 48, 1 / 120, motion, end_site)
# As the CMU files really are: the rest pose drawn around the hips (root OFFSET 0, the feet 16
# units below the origin), the motion standing on the origin (the hips at ~17).
hips_name, _, hips_children = cmu()
write("cmu_walk_hips_at_origin.bvh", (hips_name, (0.0, 0.0, 0.0), hips_children), "ZYX", 48, 1 / 120,
      cmu_motion)
write("mixamo_wave.bvh", mixamo(), "ZXY", 30, 1 / 30, mixamo_motion)
write("daz_genesis8_walk.bvh", daz(), "XYZ", 30, 1 / 30, daz_motion)


# ---------------------------------------------------------------------------------------------
# The Mixamo skeleton and motion again as an ASCII FBX 7.4, the way Mixamo delivers clips: take
# "mixamo.com", centimetres (UnitScaleFactor 1), Y up, 30 fps. Euler order: FBX RotationOrder 3
# (eEulerYXZ: Y first, then X, then Z), the same rotation as the BVH's "Zrotation Xrotation
# Yrotation" channels, so the FBX must play exactly like mixamo_wave.bvh.
FBX_TICKS_PER_SECOND = 46186158000


def write_fbx(path, root, frames, frame_time, motion, z_up=False, unit_cm=1.0):
    """z_up: the scene in 3ds Max axes (up +Z, front -Y) and `unit_cm` centimetres per unit, the
    numbers converted accordingly: a reader that honours the file's axes and unit gets the same
    motion back. Positions (x, y, z) become (x, -z, y); an Euler YXZ rotation (ax, ay, az) about
    Y-up axes becomes ZXY (ax, -az, ay) about Z-up axes."""
    def position(v):
        v = [c / unit_cm for c in v]
        return [v[0], -v[2], v[1]] if z_up else v

    def rotation(v):
        return [v[0], -v[2], v[1]] if z_up else v
    joints = []  # (name, offset, parent index)

    def walk(joint, parent):
        joints.append((joint[0], joint[1], parent))
        index = len(joints) - 1
        for child in joint[2]:
            walk(child, index)

    walk(root, -1)
    ids = {"stack": 100, "layer": 101}
    model_id = lambda i: 1000 + i
    out = ["; FBX 7.4.0 project file", "; made by data/bvh/make_fixtures.py", "",
           "FBXHeaderExtension:  {", "\tFBXHeaderVersion: 1003", "\tFBXVersion: 7400", "}",
           "GlobalSettings:  {", "\tVersion: 1000", "\tProperties70:  {"]
    axes = ([("UpAxis", 2), ("UpAxisSign", 1), ("FrontAxis", 1), ("FrontAxisSign", -1)] if z_up else
            [("UpAxis", 1), ("UpAxisSign", 1), ("FrontAxis", 2), ("FrontAxisSign", 1)])
    for name, value in axes + [("CoordAxis", 0), ("CoordAxisSign", 1)]:
        out.append(f'\t\tP: "{name}", "int", "Integer", "",{value}')
    out += [f'\t\tP: "UnitScaleFactor", "double", "Number", "",{unit_cm}',
            '\t\tP: "TimeMode", "enum", "", "",6', "\t}", "}", "Objects:  {"]
    for i, (name, offset, _) in enumerate(joints):
        t = position(offset)
        out += [f'\tModel: {model_id(i)}, "Model::{name}", "LimbNode" {{', "\t\tVersion: 232",
                "\t\tProperties70:  {", f'\t\t\tP: "RotationOrder", "enum", "", "",{4 if z_up else 3}',
                f'\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",{t[0]:.8f},{t[1]:.8f},{t[2]:.8f}',
                "\t\t}", "\t}"]
    stop = round((frames - 1) * frame_time * FBX_TICKS_PER_SECOND)
    out += [f'\tAnimationStack: {ids["stack"]}, "AnimStack::mixamo.com", "" {{', "\t\tProperties70:  {",
            f'\t\t\tP: "LocalStop", "KTime", "Time", "",{stop}', "\t\t}", "\t}",
            f'\tAnimationLayer: {ids["layer"]}, "AnimLayer::BaseLayer", "" {{', "\t}"]
    connections = [f'\tC: "OO",{ids["layer"]},{ids["stack"]}']
    for i, (name, _, parent) in enumerate(joints):
        connections.append(f'\tC: "OO",{model_id(i)},{model_id(parent) if parent >= 0 else 0}')
    times = ",".join(str(round(f * frame_time * FBX_TICKS_PER_SECOND)) for f in range(frames))
    next_id = 10000
    for i, (name, offset, _) in enumerate(joints):
        # The BVH's numbers as written (4 decimals), so both files hold the same motion.
        rounded = lambda values: [round(v, 4) for v in values]
        curves = {"Lcl Rotation": [rotation(rounded(motion(name, f))) for f in range(frames)]}
        if i == 0:
            curves["Lcl Translation"] = [
                position([o + p for o, p in zip(offset, rounded(motion("@position", f)))])
                for f in range(frames)]
        for prop, values in curves.items():
            node_id = next_id
            next_id += 1
            out += [f'\tAnimationCurveNode: {node_id}, "AnimCurveNode::{"R" if "Rot" in prop else "T"}", "" {{',
                    "\t\tProperties70:  {"]
            for a, axis in enumerate("XYZ"):
                out.append(f'\t\t\tP: "d|{axis}", "Number", "", "A",{values[0][a]:.8f}')
            out += ["\t\t}", "\t}"]
            connections += [f'\tC: "OO",{node_id},{ids["layer"]}',
                            f'\tC: "OP",{node_id},{model_id(i)}, "{prop}"']
            for a, axis in enumerate("XYZ"):
                curve_id = next_id
                next_id += 1
                keys = ",".join(f"{v[a]:.8f}" for v in values)
                out += [f'\tAnimationCurve: {curve_id}, "AnimCurve::", "" {{', "\t\tDefault: 0",
                        "\t\tKeyVer: 4008", f"\t\tKeyTime: *{frames} {{", f"\t\t\ta: {times}", "\t\t}",
                        f"\t\tKeyValueFloat: *{frames} {{", f"\t\t\ta: {keys}", "\t\t}",
                        "\t\tKeyAttrFlags: *1 {", "\t\t\ta: 24836", "\t\t}",
                        "\t\tKeyAttrDataFloat: *4 {", "\t\t\ta: 0,0,255790911,0", "\t\t}",
                        "\t\tKeyAttrRefCount: *1 {", f"\t\t\ta: {frames}", "\t\t}", "\t}"]
                connections.append(f'\tC: "OP",{curve_id},{node_id}, "d|{axis}"')
    out += ["}", "Connections:  {"] + connections + ["}"]
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(out) + "\n")


write_fbx("../fbx/mixamo_wave.fbx", mixamo(), 30, 1 / 30, mixamo_motion)
write_fbx("../fbx/mixamo_wave_z_up_inches.fbx", mixamo(), 30, 1 / 30, mixamo_motion, z_up=True,
          unit_cm=2.54)
