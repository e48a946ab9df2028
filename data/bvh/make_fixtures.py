#!/usr/bin/env python3
"""Writes the project's own small BVH fixtures (data/bvh/README.md): a CMU-style skeleton
(cgspeed's BVH conversion of the CMU database: LHipJoint, LeftUpLeg, LowerBack, Spine1, Neck1,
LThumb...) and a Mixamo-style one ("mixamorig:" names), each with a short made-up motion.
Deterministic: re-running gives the same bytes."""
import math

def joint_lines(joint, depth, order):
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
            lines += joint_lines(child, depth + 1, order)
    else:
        lines += [f"{pad}\tEnd Site", f"{pad}\t{{", f"{pad}\t\tOFFSET 0.000000 1.000000 0.000000", f"{pad}\t}}"]
    lines.append(f"{pad}}}")
    return lines

def names(joint):
    result = [joint[0]]
    for child in joint[2]:
        result += names(child)
    return result

def write(path, root, order, frames, frame_time, motion):
    """motion(name, frame) -> (x, y, z) degrees about X, Y, Z; root also gets a position."""
    lines = ["HIERARCHY"] + joint_lines(root, 0, order)
    lines += ["MOTION", f"Frames: {frames}", f"Frame Time: {frame_time:.6f}"]
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

write("cmu_walk.bvh", cmu(), "ZYX", 48, 1 / 120, cmu_motion)
write("mixamo_wave.bvh", mixamo(), "ZXY", 30, 1 / 30, mixamo_motion)
