"""Print each bone's world matrix as Blender evaluates a Cast model and animation.

Run by Debian's Blender, headless, with the official Cast add-on, which the user fetches
(https://github.com/dtzxporter/cast; castkit never ships it):

    blender -b --factory-startup --python-exit-code 1 -P tests/blender/blender_pose.py -- \
        --addon CAST_CHECKOUT --model M.cast --anim A.cast --frames 0,7 --out blender.json \
        [--cast-ik]

CAST_CHECKOUT is a checkout of that repository: its plugins/blender folder and
libraries/python/cast.py are put together into one add-on package, as its releases do.
The JSON is {"frames": {"7": {"bone": [16 numbers, row by row]}}}: the bone's matrix in the
armature object's space, which the add-on builds from the Cast bones' own frames, so it is
comparable with `castkit pose --json`'s world transforms. compare_with_blender.py does that.

The add-on's constraints are used as it sets them up. Its IK set-up differs from Cast's handles
in two ways that --cast-ik mends, leaving Blender's own solver to do the solving: the chain
reaches with the end bone's 0.0025 tail rather than its joint, and Blender's pole turns the root
bone's X axis to the pole where Cast turns the chain's bend (docs/animation.md, "IK handles").
"""

import argparse
import json
import math
import os
import shutil
import sys
import tempfile

import bpy


def arguments():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(prog="blender_pose.py")
    parser.add_argument("--addon", required=True, help="checkout of dtzxporter/cast")
    parser.add_argument("--model", required=True)
    parser.add_argument("--anim", required=True)
    parser.add_argument("--frames", required=True, help="comma-separated frame numbers")
    parser.add_argument("--out", required=True)
    parser.add_argument("--cast-ik", action="store_true",
                        help="make the add-on's IK set-up solve as Cast's handles do")
    return parser.parse_args(argv)


def register_addon(checkout, folder):
    """Assemble the add-on package as its releases ship it, then register it."""
    package = os.path.join(folder, "io_scene_cast_checked")
    shutil.copytree(os.path.join(checkout, "plugins", "blender"), package)
    shutil.copy(os.path.join(checkout, "libraries", "python", "cast.py"), package)
    sys.path.insert(0, folder)
    import io_scene_cast_checked
    io_scene_cast_checked.register()


def armature_of_scene():
    armatures = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    if len(armatures) != 1:
        raise SystemExit("expected one armature, found %d" % len(armatures))
    return armatures[0]


def shorten_ik_end_bones(armature, length=1e-5):
    """The add-on gives every bone a 0.0025 tail along +Y, and Blender's IK (use_tail) reaches
    for the end bone's tail, not its joint as Cast's handles do. A tail 250 times shorter, same
    direction and roll, makes the add-on's set-up reach for the joint."""
    ends = [b.name for b in armature.pose.bones for c in b.constraints if c.type == "IK"]
    bpy.ops.object.mode_set(mode="EDIT")
    for name in ends:
        armature.data.edit_bones[name].length = length
    bpy.ops.object.mode_set(mode="POSE")


def chain_of(bone, constraint):
    chain = [bone]
    while len(chain) < constraint.chain_count and chain[-1].parent:
        chain.append(chain[-1].parent)
    return chain[::-1]


def set_cast_pole_angles(armature):
    """Blender turns an IK chain's root bone so that its X axis (turned by pole_angle about its
    Y) points at the pole; Cast turns the chain's bend, the side its middle joints lie on at rest,
    to the pole. The pole angle that makes them one: the direction across the root bone's Y that
    lies in the rest bend plane, on the bend's side."""
    for bone in armature.pose.bones:
        for constraint in (c for c in bone.constraints if c.type == "IK" and c.pole_target):
            chain = [b.bone for b in chain_of(bone, constraint)]
            start, end = chain[0].head_local, chain[-1].head_local
            axis = (end - start).normalized()
            bend = next(((b.head_local - start) - axis * axis.dot(b.head_local - start)
                         for b in chain[1:-1]
                         if ((b.head_local - start).cross(axis)).length > 1e-6), None)
            if bend is None:
                continue
            normal = axis.cross(bend).normalized()
            rest = chain[0].matrix_local.to_3x3()
            up = normal.cross(rest.col[1]).normalized()
            if up.dot(bend) < 0:
                up = -up
            constraint.pole_angle = math.atan2(up.dot(rest.col[2]), up.dot(rest.col[0]))


def import_model_and_animation(model, anim, cast_ik):
    bpy.ops.import_scene.cast(filepath=model, import_ik=True, import_constraints=True)
    armature = armature_of_scene()
    bpy.context.view_layer.objects.active = armature
    if cast_ik:
        shorten_ik_end_bones(armature)
        set_cast_pole_angles(armature)
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.ops.object.select_all(action="DESELECT")
    armature.select_set(True)
    bpy.ops.import_scene.cast(filepath=anim)
    return armature


def bone_matrices(armature):
    return {bone.name: [round(value, 7) for row in bone.matrix for value in row]
            for bone in armature.pose.bones}


def main():
    args = arguments()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    with tempfile.TemporaryDirectory() as folder:
        register_addon(args.addon, folder)
        armature = import_model_and_animation(args.model, args.anim, args.cast_ik)
        frames = {}
        for frame in (int(f) for f in args.frames.split(",")):
            bpy.context.scene.frame_set(frame)
            frames[str(frame)] = bone_matrices(armature)
    with open(args.out, "w") as out:
        json.dump({"blender": bpy.app.version_string, "frames": frames}, out)


main()
