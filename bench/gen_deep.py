#!/usr/bin/env python3
"""Deep and wide hostile inputs for every reader (issue 14): one parent chain of N nodes.

  bench/gen_deep.py FORMAT N OUT      FORMAT: gltf glb vrm hierarchy three csv bvh fbx

gltf/glb/vrm/hierarchy/bvh/fbx (ASCII 7.5, Null models connected child to parent): N nodes, each the child of the one before (depth N), a 2-key
rotation on the first and the last node. three/csv have no hierarchy: N tracks (wide).
bench/deep_bench.sh times `animconv` on these at N, 2N, 4N; tests/formats/deep_input_test.cpp
builds the same shapes in C++ at the limits.
"""
import base64
import json
import struct
import sys


def gltf_document(n, vrm=False):
    times = struct.pack("<2f", 0.0, 1.0)
    quats = struct.pack("<8f", 0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068)
    data = times + quats
    nodes = []
    for i in range(n):
        node = {"name": "n%d" % i, "translation": [0, 0.01, 0]}
        if i + 1 < n:
            node["children"] = [i + 1]
        nodes.append(node)
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 8, "byteLength": 32}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0], "max": [1]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}],
        "animations": [{"name": "deep", "samplers": [{"input": 0, "output": 1}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}},
                                     {"sampler": 0,
                                      "target": {"node": n - 1, "path": "rotation"}}]}],
    }
    if vrm:
        # A foot at the end of the chain: the retarget's foot-height note and --ground pose it
        # through every joint above it (a recursive walk crashed on a 200,000-joint chain).
        bones = ["hips", "spine", "chest", "neck", "head", "leftFoot"]
        doc["extensionsUsed"] = ["VRMC_vrm"]
        doc["extensions"] = {"VRMC_vrm": {"specVersion": "1.0", "humanoid": {"humanBones": {
            b: {"node": i * (n - 1) // (len(bones) - 1)} for i, b in enumerate(bones)}}}}
    return doc, data


def glb(doc, data):
    doc["buffers"][0].pop("uri", None)
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * ((4 - len(text) % 4) % 4)
    data += b"\0" * ((4 - len(data) % 4) % 4)
    total = 12 + 8 + len(text) + 8 + len(data)
    return (struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(text), b"JSON") +
            text + struct.pack("<I4s", len(data), b"BIN\0") + data)


def generate(fmt, n):
    if fmt in ("gltf", "vrm"):
        doc, data = gltf_document(n, vrm=fmt == "vrm")
        doc["buffers"][0]["uri"] = ("data:application/octet-stream;base64," +
                                    base64.b64encode(data).decode())
        return json.dumps(doc, separators=(",", ":")).encode()
    if fmt == "glb":
        return glb(*gltf_document(n))
    if fmt == "hierarchy":
        keys = [{"time": 0, "rot": [0, 0, 0, 1]}, {"time": 1, "rot": [0, 0.7071068, 0, 0.7071068]}]
        bones = [{"name": "n%d" % i, "parent": i - 1, "pos": [0, 0.01, 0], "rotq": [0, 0, 0, 1]}
                 for i in range(n)]
        hierarchy = [{"parent": i - 1, "keys": keys if i in (0, n - 1) else []} for i in range(n)]
        return json.dumps({"bones": bones, "animation": {"name": "deep", "fps": 30, "length": 1,
                                                         "hierarchy": hierarchy}},
                          separators=(",", ":")).encode()
    if fmt == "three":
        tracks = [{"name": "n%d.quaternion" % i, "type": "quaternion", "times": [0, 1],
                   "values": [0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068]} for i in range(n)]
        return json.dumps({"name": "wide", "duration": 1, "tracks": tracks},
                          separators=(",", ":")).encode()
    if fmt == "csv":
        header = ["time"] + ["n%d.rotation.%s" % (i, c) for i in range(n) for c in "xyzw"]
        rows = [",".join(header), "0," + ",".join(["0,0,0,1"] * n),
                "1," + ",".join(["0,0.7071068,0,0.7071068"] * n)]
        return ("\n".join(rows) + "\n").encode()
    if fmt == "bvh":
        out = ["HIERARCHY", "ROOT n0", "{", "OFFSET 0 0 0",
               "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
        for i in range(1, n):
            out += ["JOINT n%d" % i, "{", "OFFSET 0 1 0", "CHANNELS 3 Zrotation Xrotation Yrotation"]
        out += ["End Site", "{", "OFFSET 0 1 0", "}"] + ["}"] * n
        channels = 6 + 3 * (n - 1)
        out += ["MOTION", "Frames: 2", "Frame Time: 0.5", " ".join(["0"] * channels),
                " ".join(["1"] * channels)]
        return ("\n".join(out) + "\n").encode()
    if fmt == "fbx":
        out = ["; FBX 7.5.0 project file", "FBXHeaderExtension:  {", "\tFBXHeaderVersion: 1003",
               "\tFBXVersion: 7500", "}", "GlobalSettings:  {", "\tVersion: 1000",
               "\tProperties70:  {", '\t\tP: "UpAxis", "int", "Integer", "",1',
               '\t\tP: "UnitScaleFactor", "double", "Number", "",1', "\t}", "}",
               "Definitions:  {", "\tVersion: 100", "\tCount: %d" % n,
               '\tObjectType: "Model" {', "\t\tCount: %d" % n, "\t}", "}", "Objects:  {"]
        for i in range(n):
            out += ['\tModel: %d, "Model::n%d", "Null" {' % (1000 + i, i), "\t\tVersion: 232",
                    "\t\tProperties70:  {",
                    '\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",0,1,0', "\t\t}",
                    "\t}"]
        out += ["}", "Connections:  {"]
        for i in range(n):
            out.append('\tC: "OO",%d,%d' % (1000 + i, 999 + i if i else 0))
        out.append("}")
        return ("\n".join(out) + "\n").encode()
    raise SystemExit("unknown format " + fmt)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    with open(sys.argv[3], "wb") as f:
        f.write(generate(sys.argv[1], int(sys.argv[2])))
