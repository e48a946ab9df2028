#!/usr/bin/env python3
"""Writes data/gltf/shod_figure.glb (data/gltf/README.md): a Mixamo-named humanoid skeleton of a
1.70 m adult standing in the T-pose on y = 0, facing +Z, wearing two shoes, and nothing else.

The shoes are what --ground measures (docs/root_motion.md, "Grounding"): each is a skinned box
whose sole lies on y = 0 at rest, its heel half on the foot joint (8 cm up) and its front half on
the toes joint (2 cm up), the vertices between them shared half and half, as a skinned shoe is.
Grounding the joints left these soles 2-8 cm under the floor. No animation: the file is a
--skeleton target. Deterministic: re-running gives the same bytes."""
import json
import math
import os
import struct
import sys

# Joint name, parent, rest world position (metres). Rest rotations are identity, so each local
# translation is the difference of world positions.
JOINTS = [
    ("mixamorig:Hips", None, (0.0, 0.95, 0.0)),
    ("mixamorig:Spine", "mixamorig:Hips", (0.0, 1.05, 0.0)),
    ("mixamorig:Spine1", "mixamorig:Spine", (0.0, 1.18, 0.0)),
    ("mixamorig:Spine2", "mixamorig:Spine1", (0.0, 1.30, 0.0)),
    ("mixamorig:Neck", "mixamorig:Spine2", (0.0, 1.45, 0.0)),
    ("mixamorig:Head", "mixamorig:Neck", (0.0, 1.55, 0.0)),
]
for side, sign in (("Left", 1.0), ("Right", -1.0)):
    JOINTS += [
        (f"mixamorig:{side}Shoulder", "mixamorig:Spine2", (0.03 * sign, 1.40, 0.0)),
        (f"mixamorig:{side}Arm", f"mixamorig:{side}Shoulder", (0.17 * sign, 1.40, 0.0)),
        (f"mixamorig:{side}ForeArm", f"mixamorig:{side}Arm", (0.45 * sign, 1.40, 0.0)),
        (f"mixamorig:{side}Hand", f"mixamorig:{side}ForeArm", (0.70 * sign, 1.40, 0.0)),
        (f"mixamorig:{side}UpLeg", "mixamorig:Hips", (0.09 * sign, 0.90, 0.0)),
        (f"mixamorig:{side}Leg", f"mixamorig:{side}UpLeg", (0.09 * sign, 0.50, 0.0)),
        (f"mixamorig:{side}Foot", f"mixamorig:{side}Leg", (0.09 * sign, 0.08, -0.02)),
        (f"mixamorig:{side}ToeBase", f"mixamorig:{side}Foot", (0.09 * sign, 0.02, 0.10)),
    ]
INDEX = {name: i for i, (name, _, _) in enumerate(JOINTS)}

# A shoe around each foot: x ±0.045 about the foot, y 0 (the sole) to 0.11, z from the heel
# (-0.09) past the toes (0.19). Sections along z and their weights (foot, toes).
SECTIONS = [(-0.09, 1.0, 0.0), (0.04, 1.0, 0.0), (0.10, 0.5, 0.5), (0.19, 0.0, 1.0)]
HEIGHTS = (0.0, 0.11)


def shoe(side, toe_out_degrees):
    foot = INDEX[f"mixamorig:{side}Foot"]
    toes = INDEX[f"mixamorig:{side}ToeBase"]
    x0, _, z0 = JOINTS[foot][2]
    # Turned about the vertical through the ankle, toes outward (the character's left is +X).
    angle = math.radians(toe_out_degrees) * (1.0 if side == "Left" else -1.0)
    positions, joints, weights = [], [], []
    for z, w_foot, w_toes in SECTIONS:
        for y in HEIGHTS:
            for x in (x0 - 0.045, x0 + 0.045):
                dx, dz = x - x0, z - z0
                positions.append((x0 + dx * math.cos(angle) + dz * math.sin(angle), y,
                                  z0 - dx * math.sin(angle) + dz * math.cos(angle)))
                # Unused slots name joint 0 with weight 0 (glTF 2.0 §3.7.3.3; the validator warns
                # of a joint named with zero weight).
                if w_toes == 0.0:
                    joints.append((foot, 0, 0, 0))
                    weights.append((1.0, 0.0, 0.0, 0.0))
                elif w_foot == 0.0:
                    joints.append((toes, 0, 0, 0))
                    weights.append((1.0, 0.0, 0.0, 0.0))
                else:
                    joints.append((foot, toes, 0, 0))
                    weights.append((w_foot, w_toes, 0.0, 0.0))
    # Vertex (section s, height h, side x) = s * 4 + h * 2 + x. Quads between sections, and the
    # two end caps; counter-clockwise seen from outside.
    quads = []
    for s in range(len(SECTIONS) - 1):
        a, b = s * 4, (s + 1) * 4
        quads += [(a + 0, b + 0, b + 1, a + 1),   # sole (y = 0), seen from below
                  (a + 2, a + 3, b + 3, b + 2),   # top
                  (a + 0, a + 2, b + 2, b + 0),   # outer x
                  (a + 1, b + 1, b + 3, a + 3)]   # inner x
    last = (len(SECTIONS) - 1) * 4
    quads += [(0, 1, 3, 2), (last + 0, last + 2, last + 3, last + 1)]
    indices = []
    for q in quads:
        indices += [q[0], q[1], q[2], q[0], q[2], q[3]]
    return positions, joints, weights, indices


def main(path, toe_out_degrees=0.0):
    binary = bytearray()
    views, accessors = [], []

    def add(data, target=None):
        while len(binary) % 4:
            binary.append(0)
        view = {"buffer": 0, "byteOffset": len(binary), "byteLength": len(data)}
        if target:
            view["target"] = target
        binary.extend(data)
        views.append(view)
        return len(views) - 1

    def accessor(view, component, count, kind, extra=None):
        accessors.append({"bufferView": view, "componentType": component, "count": count,
                          "type": kind, **(extra or {})})
        return len(accessors) - 1

    positions, joints, weights, indices = [], [], [], []
    for side in ("Left", "Right"):
        p, j, w, i = shoe(side, toe_out_degrees)
        indices += [index + len(positions) for index in i]
        positions += p
        joints += j
        weights += w
    floats = lambda rows: b"".join(struct.pack("<3f", *row) for row in rows)
    position_view = add(floats(positions), 34962)
    low = [min(p[k] for p in positions) for k in range(3)]
    high = [max(p[k] for p in positions) for k in range(3)]
    position = accessor(position_view, 5126, len(positions), "VEC3",
                        {"min": [struct.unpack("<f", struct.pack("<f", v))[0] for v in low],
                         "max": [struct.unpack("<f", struct.pack("<f", v))[0] for v in high]})
    joint = accessor(add(b"".join(struct.pack("<4B", *row) for row in joints), 34962), 5121,
                     len(joints), "VEC4")
    weight = accessor(add(b"".join(struct.pack("<4f", *row) for row in weights), 34962), 5126,
                      len(weights), "VEC4")
    index = accessor(add(b"".join(struct.pack("<H", i) for i in indices), 34963), 5123,
                     len(indices), "SCALAR")
    # Inverse bind matrices: each joint's rest world matrix is a translation.
    ibm = b"".join(struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1)
                   for _, _, (x, y, z) in JOINTS)
    matrices = accessor(add(ibm), 5126, len(JOINTS), "MAT4")

    nodes = []
    for name, parent, (x, y, z) in JOINTS:
        origin = (0.0, 0.0, 0.0) if parent is None else JOINTS[INDEX[parent]][2]
        node = {"name": name, "translation": [round(x - origin[0], 6), round(y - origin[1], 6),
                                              round(z - origin[2], 6)]}
        children = [i for i, (_, p, _) in enumerate(JOINTS) if p == name]
        if children:
            node["children"] = children
        nodes.append(node)
    nodes.append({"name": "Shoes", "mesh": 0, "skin": 0})
    document = {
        "asset": {"version": "2.0", "generator": "animconv data/gltf/make_shod_figure.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, len(nodes) - 1]}],
        "nodes": nodes,
        "skins": [{"joints": list(range(len(JOINTS))), "inverseBindMatrices": matrices,
                   "skeleton": 0}],
        "meshes": [{"name": "Shoes", "primitives": [{
            "attributes": {"POSITION": position, "JOINTS_0": joint, "WEIGHTS_0": weight},
            "indices": index, "material": 0}]}],
        "materials": [{"name": "Leather", "pbrMetallicRoughness": {
            "baseColorFactor": [0.3, 0.18, 0.1, 1.0], "metallicFactor": 0.0}}],
        "buffers": [{"byteLength": 0}],
        "bufferViews": views,
        "accessors": accessors,
    }
    while len(binary) % 4:
        binary.append(0)
    document["buffers"][0]["byteLength"] = len(binary)
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * ((4 - len(text) % 4) % 4)
    glb = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + 8 + len(binary))
    glb += struct.pack("<I4s", len(text), b"JSON") + text
    glb += struct.pack("<I4s", len(binary), b"BIN\0") + bytes(binary)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as out:
        out.write(glb)


if __name__ == "__main__":
    # make_shod_figure.py [OUT.glb [TOE_OUT_DEGREES]]: the committed file has the shoes straight;
    # the interop tests also turn them toes-out (a rest pose many rigs stand in).
    main(sys.argv[1] if len(sys.argv) > 1 else "data/gltf/shod_figure.glb",
         float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
