#!/usr/bin/python3
"""castkit's FBX, opened by Blender's own FBX importer (Debian's blender, headless).

The hero with its walk and idle (`castkit convert hero.cast hero_walk.cast hero_idle.cast -o
hero.fbx`) imports as one armature of 21 bones, a mesh with 21 vertex groups and 2 shape keys, 2
actions on the armature (the idle's blend weights make a third, on the shape keys) and its albedo
texture bound in its material (written with --texture-mode embed into another folder, the
texture comes from inside the file: Blender unpacks it); every bone's world position at frames 0, 7
and 15 of each action equals `castkit pose`'s (the additive lean converted with `--base
hero_idle.cast` too, against `castkit pose --base`) within 1e-4 of the hero's height, and the mesh's
vertices at rest equal the Cast's, both through the axes and units the file's GlobalSettings
give (+Y up in the hero's own units, its Metadata's `units`, becomes Blender's +Z up in metres:
(x, y, z) -> (x, -z, y) * metres per unit).

Usage: blender_fbx_import.py CASTKIT BLENDER SOURCE_DIR WORK_DIR (exit 77: no Blender).
Run by Blender itself (`blender -b --python THIS -- FILE.fbx OUT.json`) it imports FILE.fbx into an
empty scene and writes what it found to OUT.json.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import bpy  # noqa: F401 (only Blender's own Python has it)
    IN_BLENDER = True
except ImportError:
    IN_BLENDER = False

FRAMES = [0, 7, 15]


def summarise_in_blender(path, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # No offset: FBX time 0 is frame 0, as castkit's frames are.
    result = bpy.ops.import_scene.fbx(filepath=path, anim_offset=0.0)
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    summary = {
        "imported": "FINISHED" in result,
        "fps": bpy.context.scene.render.fps / bpy.context.scene.render.fps_base,
        "armatures": len(armatures),
        "bones": sorted(b.name for a in armatures for b in a.data.bones),
        "meshes": [],
        "actions": sorted(a.name for a in bpy.data.actions),
        "poses": {},
    }
    for mesh in meshes:
        keys = mesh.data.shape_keys.key_blocks if mesh.data.shape_keys else []
        images, packed = [], []
        for slot in mesh.material_slots:
            if slot.material and slot.material.node_tree:
                for node in slot.material.node_tree.nodes:
                    if node.type != "TEX_IMAGE" or not node.image or node.image.size[0] == 0:
                        continue
                    images.append(os.path.basename(node.image.filepath))
                    if node.image.packed_file:
                        packed.append(node.image.packed_file.size)
        summary["meshes"].append({
            "name": mesh.name,
            "vertex_groups": len(mesh.vertex_groups),
            "shape_keys": [k.name for k in keys][1:],  # after the Basis
            "images": images,
            "packed_bytes": packed,  # of the images the FBX embeds, as Blender unpacked them
        })
    if armatures:
        armature = armatures[0]
        scene = bpy.context.scene
        for action in bpy.data.actions:
            if not action.name.startswith(armature.name + "|"):
                continue
            # A bone the action does not key keeps what the last action left: start at rest.
            for bone in armature.pose.bones:
                bone.matrix_basis.identity()
            armature.animation_data.action = action
            poses = {}
            for frame in FRAMES:
                scene.frame_set(frame)
                poses[str(frame)] = {b.name: list((armature.matrix_world @ b.matrix).translation)
                                     for b in armature.pose.bones}
            # "<object>|<stack>|<layer>": one action per stack.
            summary["poses"][action.name.split("|")[1]] = poses
        if armature.animation_data:
            armature.animation_data.action = None
        scene.frame_set(0)
        for bone in armature.pose.bones:
            bone.matrix_basis.identity()
        bpy.context.view_layer.update()
    summary["rest_vertices"] = {}
    for mesh in meshes:
        # The rest shape, no armature deforming it: the Basis in world space.
        summary["rest_vertices"][mesh.name] = [list(mesh.matrix_world @ v.co)
                                               for v in mesh.data.vertices]
    with open(out, "w", encoding="utf-8") as file:
        json.dump(summary, file)


def import_in_blender(blender, fbx, out):
    """What Blender's importer makes of `fbx` (summarise_in_blender's summary)."""
    run = subprocess.run([blender, "-b", "--factory-startup", "--python-exit-code", "1",
                          "--python", os.path.abspath(__file__), "--", fbx, out],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0 or not os.path.exists(out):
        sys.exit(f"Blender did not import {fbx}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
    with open(out, encoding="utf-8") as file:
        return json.load(file)


def embedded_texture_failures(castkit, blender, hero, work):
    """The hero written with --texture-mode embed into a folder without its image: Blender
    unpacks the albedo from the FBX, byte for byte the PNG's size, and nothing is copied."""
    folder = os.path.join(work, "embedded")
    os.makedirs(folder)
    fbx = os.path.join(folder, "hero.fbx")
    castkit_json(castkit, "convert", os.path.join(hero, "hero.cast"), "-o", fbx,
                 "--texture-mode", "embed")
    if os.listdir(folder) != ["hero.fbx"]:
        return [f"--texture-mode embed wrote beside the FBX: {sorted(os.listdir(folder))}"]
    meshes = import_in_blender(blender, fbx, os.path.join(work, "embedded.json"))["meshes"]
    size = os.path.getsize(os.path.join(hero, "hero_albedo.png"))
    if len(meshes) != 1 or meshes[0]["packed_bytes"] != [size]:
        return [f"the embedded albedo ({size} bytes) is not what Blender unpacked: {meshes}"]
    return []


def pose_failures(castkit, hero, poses, tolerance, metres, failures, base=None):
    """Adds to `failures` each bone of `poses` (Blender's world positions per action and frame)
    farther than `tolerance` from `castkit pose` of the hero's clip of that name (layered on
    `base` when given); the worst distance."""
    worst = 0.0
    for name, frames in poses.items():
        anim = os.path.join(hero, f"hero_{name}.cast")
        layering = ["--base", base] if base else []
        for frame in FRAMES:
            text = castkit_json(castkit, "pose", "--model", os.path.join(hero, "hero.cast"),
                                "--anim", anim, *layering, "--frame", str(frame), "--json")
            expected = {b["name"]: to_blender(b["world"]["t"], metres)
                        for b in json.loads(text)["bones"]}
            for bone, position in frames[str(frame)].items():
                if bone not in expected:
                    failures.append(f"{name} frame {frame}: Blender's bone {bone} is not the hero's")
                    continue
                error = max(abs(a - b) for a, b in zip(position, expected[bone]))
                worst = max(worst, error)
                if error > tolerance:
                    failures.append(f"{name} frame {frame} bone {bone}: {position} in Blender, "
                                    f"{expected[bone]} from castkit pose ({error:.3g} m off)")
    return worst


def layered_failures(castkit, blender, hero, work, tolerance, metres, failures):
    """The additive lean layered on the idle (`convert hero.cast hero_lean.cast --base
    hero_idle.cast`): one action whose bones are where `castkit pose --base` puts them."""
    folder = os.path.join(work, "layered")
    os.makedirs(folder)
    fbx = os.path.join(folder, "leaning.fbx")
    base = os.path.join(hero, "hero_idle.cast")
    castkit_json(castkit, "convert", os.path.join(hero, "hero.cast"),
                 os.path.join(hero, "hero_lean.cast"), "-o", fbx, "--base", base)
    poses = import_in_blender(blender, fbx, os.path.join(work, "layered.json"))["poses"]
    if sorted(poses) != ["lean"]:
        failures.append(f"the layered lean gave actions {sorted(poses)}, not one 'lean'")
        return 0.0
    return pose_failures(castkit, hero, poses, tolerance, metres, failures, base)


def castkit_json(castkit, *args):
    run = subprocess.run([castkit] + list(args), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"castkit {' '.join(args)} failed ({run.returncode}):\n{run.stderr}")
    return run.stdout


METRES_PER = {"mm": 0.001, "cm": 0.01, "m": 1.0, "in": 0.0254, "ft": 0.3048}


def to_blender(point, metres):
    """A +Y-up point, `metres` a unit, as Blender's importer places it: +Z up, metres."""
    x, y, z = point
    return [x * metres, -z * metres, y * metres]


def cast_rest(source):
    """The hero's rest vertices and the metres its unit is (its Metadata's `units`, written
    into the FBX's UnitScaleFactor; centimetres where it says none)."""
    import castkit as module  # the build's Python module (PYTHONPATH=build/python)
    document = module.open(os.path.join(source, "examples", "data", "hero", "hero.cast"))
    units = next((m.units for root in document.roots for m in root.metadata if m.units), "cm")
    vertices = [list(map(float, p)) for model in document.models for mesh in model.meshes
                for p in mesh.positions]
    return vertices, METRES_PER[units]


def main():
    castkit, blender, source, work = (os.path.abspath(p) if os.sep in p else p
                                      for p in sys.argv[1:5])
    if not shutil.which(blender):
        print(f"skipped: no Blender at {blender}")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    hero = os.path.join(source, "examples", "data", "hero")
    fbx = os.path.join(work, "hero.fbx")
    castkit_json(castkit, "convert", os.path.join(hero, "hero.cast"),
                 os.path.join(hero, "hero_walk.cast"), os.path.join(hero, "hero_idle.cast"),
                 "-o", fbx)
    summary = import_in_blender(blender, fbx, os.path.join(work, "blender.json"))

    failures = embedded_texture_failures(castkit, blender, hero, work)
    if not summary["imported"] or summary["armatures"] != 1 or len(summary["bones"]) != 21:
        failures.append(f"expected one armature of 21 bones: {summary['armatures']} armatures, "
                        f"{len(summary['bones'])} bones")
    meshes = summary["meshes"]
    if len(meshes) != 1:
        failures.append(f"expected one mesh, found {len(meshes)}")
    else:
        mesh = meshes[0]
        if mesh["vertex_groups"] != 21:
            failures.append(f"{mesh['vertex_groups']} vertex groups, not 21")
        if len(mesh["shape_keys"]) != 2:
            failures.append(f"shape keys {mesh['shape_keys']}, not 2")
        if not any("hero_albedo" in image for image in mesh["images"]):
            failures.append(f"the albedo texture is not bound: {mesh['images']}")
        if mesh["packed_bytes"]:
            failures.append(f"images packed although none was embedded: {mesh['packed_bytes']}")
    if sorted(summary["poses"]) != ["idle", "walk"]:
        failures.append(f"actions {summary['actions']}: no walk and idle on the armature")

    rest, metres = cast_rest(source)
    height = max(p[1] for p in rest) - min(p[1] for p in rest)
    tolerance = 1e-4 * height * metres  # in Blender's metres
    worst = pose_failures(castkit, hero, summary["poses"], tolerance, metres, failures)
    worst = max(worst, layered_failures(castkit, blender, hero, work, tolerance, metres,
                                        failures))
    vertices = list(summary["rest_vertices"].values())
    worst_vertex = 0.0
    if vertices and len(vertices[0]) == len(rest):
        for got, want in zip(vertices[0], rest):
            placed = to_blender(want, metres)
            worst_vertex = max(worst_vertex, max(abs(a - b) for a, b in zip(got, placed)))
        if worst_vertex > tolerance:
            failures.append(f"rest vertices up to {worst_vertex:.3g} m from the Cast's")
    else:
        failures.append("the mesh's vertex count differs from the Cast's")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("poses", "rest_vertices")},
                     indent=1))
    if failures:
        sys.exit("\n".join(failures[:40]))
    print(f"ok: 21 bones, 2 actions, bone positions within {worst:.3g} m and vertices within "
          f"{worst_vertex:.3g} m (tolerance {tolerance:.3g} m, 1e-4 of the hero's height)")
    return 0


if __name__ == "__main__":
    if IN_BLENDER:
        arguments = sys.argv[sys.argv.index("--") + 1:]
        summarise_in_blender(*arguments)
    else:
        sys.exit(main())
