# Imports one animation file into Blender and dumps where its joints are at given frames.
#
#   blender -b --factory-startup --python blender_dump.py -- --input FILE --request REQUEST.json
#           --output DUMP.json
#
# REQUEST.json: {"fps": INT, "frames": [FLOAT...], "animation": NAME-or-null}
#   fps     the scene rate set BEFORE importing: the glTF importer writes a key at time t
#           (seconds) on frame t * scene fps (io_scene_gltf2 gltf2_blender_animation_node.py);
#           the BVH importer (use_fps_scale off) puts BVH frame i on frame 1 + i whatever the rate.
#   frames  Blender frames to sample (fractional ones through frame_set's subframe).
#   animation  the glTF animation whose actions are played (the importer makes one action per
#           animation and object, named "<animation>_<object>"); null: the one the importer made
#           active (the first).
#
# DUMP.json: {"items": [{"name", "kind": "bone"|"object", "parent", "rest": [m16] or null,
#             "world": [[m16] per frame]}]}, 4x4 world matrices row-major in Blender's space
#             (+Z up). "rest" is a bone's rest (armature.matrix_world @ bone.matrix_local): its
#             pose matrices carry the importer's bone-axis correction, which world(t)·rest⁻¹
#             cancels. Objects (empties, the glTF importer's nodes that no skin uses) carry none.
# Prints "blender_dump: ..." lines; exit 1 when the import fails or imports nothing animated.
import json
import sys

import bpy


def parse_args(argv):
    argv = argv[argv.index("--") + 1:] if "--" in argv else []
    args = {}
    for i in range(0, len(argv) - 1, 2):
        args[argv[i].lstrip("-")] = argv[i + 1]
    for required in ("input", "request", "output"):
        if required not in args:
            print(f"blender_dump: --{required} is required", file=sys.stderr)
            sys.exit(2)
    return args


def flat(matrix):
    return [matrix[r][c] for r in range(4) for c in range(4)]


def import_file(path):
    if path.lower().endswith(".bvh"):
        # Defaults: axis_forward '-Z', axis_up 'Y' (BVH's +Y up becomes +Z up, as the glTF
        # importer does), global_scale 1 (BVH units), rotate_mode 'NATIVE' (the file's Euler
        # order), frame_start 1, use_fps_scale off, linear keys.
        # Blender 3.4's importer opens the file with mode 'rU' (import_bvh.py line 101), which
        # Python 3.11 (Debian 12's, which its blender uses) no longer accepts: "ValueError:
        # invalid mode: 'rU'". 'U' has meant nothing since Python 3.0, so it is dropped here.
        import builtins
        original_open = builtins.open

        def open_without_u(file, mode="r", *rest, **options):
            return original_open(file, mode.replace("U", ""), *rest, **options)

        builtins.open = open_without_u
        try:
            return bpy.ops.import_anim.bvh(filepath=path)
        finally:
            builtins.open = original_open
    # Blender 3.4's glTF importer calls numpy.bool (mesh import), which Debian 12's numpy 1.24
    # removed.
    import warnings
    import numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy 1.24 warns when asked for the removed name
        if not hasattr(numpy, "bool"):
            numpy.bool = bool
    # guess_original_bind_pose off: the armature's rest is the nodes' own TRS (what three.js
    # calls the rest), not a pose guessed from the skins' inverse bind matrices. Other options
    # are the defaults (bone_heuristic 'BLENDER': the bone-axis correction world(t)·rest⁻¹
    # cancels).
    return bpy.ops.import_scene.gltf(filepath=path, guess_original_bind_pose=False)


def select_actions(animation):
    """Plays `animation` on every object that has an action of it; returns the animated objects."""
    animated = []
    for obj in bpy.data.objects:
        wanted = None
        if animation is not None:
            wanted = bpy.data.actions.get(f"{animation}_{obj.name}")
        if obj.animation_data is not None and wanted is not None:
            obj.animation_data.action = wanted
        if obj.animation_data is not None and obj.animation_data.action is not None:
            animated.append(obj)
    return animated


def main():
    args = parse_args(sys.argv)
    with open(args["request"]) as f:
        request = json.load(f)
    # Factory startup holds a cube, a camera and a light: start from an empty scene.
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    scene = bpy.context.scene
    scene.render.fps = int(request["fps"])
    scene.render.fps_base = 1.0
    try:
        result = import_file(args["input"])
    except Exception as error:  # the importer's own exception: an import failure
        print(f"blender_dump: importing {args['input']} failed: {error}", file=sys.stderr)
        sys.exit(1)
    if result != {"FINISHED"}:
        print(f"blender_dump: importing {args['input']} returned {result}", file=sys.stderr)
        sys.exit(1)

    animated = select_actions(request.get("animation"))
    if not animated:
        print(f"blender_dump: {args['input']} imported no animated object", file=sys.stderr)
        sys.exit(1)
    items = []
    for obj in bpy.data.objects:
        if obj.type == "ARMATURE":
            for bone in obj.data.bones:
                items.append({"name": bone.name, "kind": "bone", "armature": obj,
                              "parent": bone.parent.name if bone.parent else None,
                              "rest": flat(obj.matrix_world @ bone.matrix_local), "world": []})
        else:
            items.append({"name": obj.name, "kind": "object", "object": obj, "rest": None,
                          "parent": obj.parent.name if obj.parent else None,
                          "world": []})
    for frame in request["frames"]:
        whole = int(frame // 1)
        scene.frame_set(whole, subframe=frame - whole)
        for item in items:
            if item["kind"] == "bone":
                armature = item["armature"]
                matrix = armature.matrix_world @ armature.pose.bones[item["name"]].matrix
            else:
                matrix = item["object"].matrix_world
            item["world"].append(flat(matrix))
    for item in items:
        item.pop("armature", None)
        item.pop("object", None)
    with open(args["output"], "w") as f:
        json.dump({"blender": bpy.app.version_string, "items": items}, f)
    print(f"blender_dump: {args['input']}: {len(items)} joints/objects x {len(request['frames'])} "
          f"frames, {len(animated)} animated object(s)")


main()
