#!/usr/bin/env python3
"""Writes variants of .gltf files for scripts/compare_builds.sh: each top-level member (and two the
samples lack: `materials`, an unknown one) replaced in turn by a value of every JSON kind, so that
two builds are compared on the readers' refusals too, not only on files they accept.

Usage: gltf_member_mutations.py OUT_DIR FILE.gltf...  Each variant is OUT_DIR/NNNNN/in.gltf, with
the sample's other files linked beside it (its .bin and images), and OUT_DIR/NNNNN/what naming it.
"""
import json
import os
import sys

VALUES = {"empty-array": [], "empty-object": {}, "number": 5, "string": "x", "null": None,
          "array-of-object": [{}], "array-of-number": [1], "array-of-array": [[]],
          "array-of-string": ["a"]}


def main(out_dir, files):
    count = 0
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
        except (ValueError, UnicodeDecodeError):
            continue  # the bad corpus's broken JSON: compare_builds runs it as it is
        if not isinstance(document, dict):
            continue
        folder = os.path.dirname(os.path.abspath(path))
        for key in list(document) + ["materials", "vendorMember"]:
            for kind, value in VALUES.items():
                variant = os.path.join(out_dir, f"{count:05d}")
                os.makedirs(variant)
                for name in os.listdir(folder):
                    sibling = os.path.join(folder, name)
                    if os.path.isfile(sibling) and not name.endswith(".gltf"):
                        os.symlink(sibling, os.path.join(variant, name))
                with open(os.path.join(variant, "in.gltf"), "w", encoding="utf-8") as f:
                    json.dump({**document, key: value}, f)
                with open(os.path.join(variant, "what"), "w", encoding="utf-8") as f:
                    f.write(f"{path}: {key} = {kind}\n")
                count += 1
    print(count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
