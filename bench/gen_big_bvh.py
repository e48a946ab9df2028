#!/usr/bin/env python3
"""A large BVH for reader timing (docs/performance.md, "Reading a large BVH"): a chain-and-branch
skeleton of JOINTS joints (the root with 6 channels, the others 3 rotation channels in ZXY order),
FRAMES frames of smooth, deterministic motion written with 4 decimals, as mocap exporters do.

Usage: bench/gen_big_bvh.py OUT.bvh [FRAMES (default 100000)] [JOINTS (default 60)]
"""
import math
import sys


def main():
    out = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    joints = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    with open(out, "w", newline="\n") as f:
        f.write("HIERARCHY\nROOT j0\n{\n\tOFFSET 0 90 0\n")
        f.write("\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
        # Five limbs of equal length hang off the root, so the depth stays that of a real rig.
        limb = max(1, (joints - 1) // 5)
        made = 1
        for branch in range(5):
            depth = 0
            while depth < limb and made < joints:
                indent = "\t" * (depth + 1)
                f.write(f"{indent}JOINT j{made}\n{indent}{{\n")
                f.write(f"{indent}\tOFFSET {branch - 2} 10 0\n")
                f.write(f"{indent}\tCHANNELS 3 Zrotation Xrotation Yrotation\n")
                made += 1
                depth += 1
            indent = "\t" * (depth + 1)
            f.write(f"{indent}End Site\n{indent}{{\n{indent}\tOFFSET 0 5 0\n{indent}}}\n")
            for d in range(depth, 0, -1):
                f.write("\t" * d + "}\n")
        f.write("}\nMOTION\n")
        f.write(f"Frames: {frames}\nFrame Time: 0.008333\n")
        values = 6 + 3 * (made - 1)
        for frame in range(frames):
            t = frame * 0.008333
            row = [f"{30 * math.sin(t + 0.1 * v):.4f}" for v in range(values)]
            f.write(" ".join(row) + "\n")


if __name__ == "__main__":
    main()
