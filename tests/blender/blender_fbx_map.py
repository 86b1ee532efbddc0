#!/usr/bin/python3
"""A map's FBX, opened by Blender's own FBX importer (Debian's blender, headless).

examples/data/scene.cast places character.cast twice, at x = -2 and x = 2 (metres, +Y up).
`castkit convert scene.cast -o scene.fbx` writes one Mesh Model per Instance and mesh, sharing
the character's Geometry: Blender makes an object per Instance and mesh, and as many distinct
mesh datablocks as the character has meshes (`castkit info --json` counts them), the objects
standing at x = -2 and x = 2.

Usage: blender_fbx_map.py CASTKIT BLENDER SOURCE_DIR WORK_DIR (exit 77: no Blender).
Run by Blender itself (`blender -b --python THIS -- FILE.fbx OUT.json`) it imports FILE.fbx into an
empty scene and writes what it found to OUT.json.
"""
import json
import shutil
import subprocess
import sys

try:
    import bpy  # noqa: F401 (only Blender's own Python has it)
    IN_BLENDER = True
except ImportError:
    IN_BLENDER = False


def summarise_in_blender(path, out):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.fbx(filepath=path)
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    summary = {
        "imported": "FINISHED" in result,
        "objects": len(meshes),
        "datablocks": len({o.data.name for o in meshes}),
        "x": sorted(round(o.matrix_world.translation.x, 4) for o in meshes),
    }
    with open(out, "w") as f:
        json.dump(summary, f)


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def main():
    castkit, blender, source, work = sys.argv[1:5]
    blender = shutil.which(blender)
    if blender is None:
        print("skipped: Blender is not installed")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run(["mkdir", "-p", work], check=True)
    data = f"{source}/examples/data"
    fbx, out = f"{work}/scene.fbx", f"{work}/scene.json"
    subprocess.run([castkit, "convert", f"{data}/scene.cast", "-o", fbx], check=True)
    character = json.loads(subprocess.run([castkit, "info", "--json", f"{data}/character.cast"],
                                          capture_output=True, text=True, check=True).stdout)
    meshes = sum(len(model["meshes"]) for root in character["files"][0]["roots"] for model in root["models"])
    run = subprocess.run([blender, "-b", "--factory-startup", "--python", __file__, "--", fbx,
                          out], capture_output=True, text=True, timeout=600)
    try:
        with open(out) as f:
            summary = json.load(f)
    except OSError:
        sys.exit(f"Blender did not import {fbx}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
    check(summary["imported"], "the import did not finish")
    check(meshes > 0, "the character has no mesh")
    check(summary["objects"] == 2 * meshes,
          f"{summary['objects']} mesh objects, not 2 Instances x {meshes} meshes")
    check(summary["datablocks"] == meshes,
          f"{summary['datablocks']} mesh datablocks, not one per character mesh ({meshes})")
    want = [-2.0] * meshes + [2.0] * meshes
    check(all(abs(x - w) < 1e-3 for x, w in zip(summary["x"], want)),
          f"objects at x = {summary['x']}, not {want}")
    print(f"ok: {summary['objects']} objects sharing {summary['datablocks']} mesh datablocks")
    return 0


if __name__ == "__main__":
    if IN_BLENDER:
        arguments = sys.argv[sys.argv.index("--") + 1:]
        summarise_in_blender(*arguments)
    else:
        sys.exit(main())
