#!/usr/bin/python3
"""A world map of 10,000 instances (castkit_make_map: 50 textured models), converted by castkit
to glb, opened by Blender's own glTF importer (Debian's blender, headless): one object per
instance at the scene's root, where the map placed it (Blender is Z up, as the map is), the 50
meshes shared by them rather than copied, and the 50 textures, each once. With `--gpu-instancing` (EXT_mesh_gpu_instancing,
which Blender 3.4's importer cannot draw), the importer is refused by the extension being
required, instead of showing one copy per model.

Usage: blender_map_import.py CASTKIT MAKE_MAP BLENDER WORK_DIR
Run by Blender itself (`blender -b --python THIS -- FILE`) it imports FILE into an empty scene
and prints one `RESULT {json}` line.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

INSTANCES = 10000
MODELS = 50

try:
    import bpy  # noqa: F401 (only Blender's own Python has it)
    IN_BLENDER = True
except ImportError:
    IN_BLENDER = False


def summarise_in_blender(path):
    import numpy

    # Debian 12's Blender 3.4 importer still uses numpy.bool, which numpy 1.24 removed.
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        result = bpy.ops.import_scene.gltf(filepath=path)
        finished, error = "FINISHED" in result, ""
    except RuntimeError as refused:
        finished, error = False, str(refused)
    objects = list(bpy.data.objects)
    print("RESULT " + json.dumps({
        "finished": finished,
        "error": error,
        "objects": len(objects),
        "mesh_objects": sum(1 for o in objects if o.type == "MESH"),
        "meshes": len(bpy.data.meshes),
        "users_per_mesh": sorted({m.users for m in bpy.data.meshes}),
        "images": len(bpy.data.images),
        "names_unique": len({o.name for o in objects}) == len(objects),
        "named_after_models": sum(1 for o in objects if o.name.startswith("model_")),
        "roots": sum(1 for o in objects if o.parent is None),
        "bounds": bounds_by_model(objects),
    }), flush=True)


def bounds_by_model(objects):
    """Per model ("model_07"), the lowest and highest world position of its objects."""
    bounds = {}
    for o in objects:
        model = o.name.split(".")[0]
        low, high = bounds.setdefault(model, [[float("inf")] * 3, [float("-inf")] * 3])
        for axis, value in enumerate(o.matrix_world.translation):
            low[axis], high[axis] = min(low[axis], value), max(high[axis], value)
    return bounds


def map_bounds(castkit, path):
    """Per model file, the lowest and highest Instance position, as `castkit info` gives them."""
    run = subprocess.run([castkit, "info", str(path)], capture_output=True, text=True, check=True)
    number = r"(-?[0-9.e+-]+)"
    triple = rf"\({number}, {number}, {number}\)"
    pattern = re.compile(rf"file 'models/(model_\d+)\.cast': \d+ instances, positions {triple} "
                         rf"to {triple}")
    return {m[1]: [[float(v) for v in m.groups()[1:4]], [float(v) for v in m.groups()[4:7]]]
            for m in pattern.finditer(run.stdout)}


def blender_summary(blender, path):
    run = subprocess.run([blender, "-b", "--factory-startup", "--python", __file__, "--",
                          str(path)], capture_output=True, text=True, timeout=900)
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    sys.exit(f"Blender did not import {path}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def main():
    castkit, make_map, blender, work = sys.argv[1:5]
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run([make_map, str(work), "--instances", str(INSTANCES), "--models", str(MODELS),
                    "--min-triangles", "200", "--max-triangles", "2000", "--texture-size", "16"],
                   check=True, stdout=subprocess.DEVNULL)
    glb, gpu = work / "map.glb", work / "map-gpu.glb"
    for out, extra in ((glb, []), (gpu, ["--gpu-instancing"])):
        run = subprocess.run([castkit, "convert", str(work / "map.cast"), str(out)] + extra,
                             capture_output=True, text=True)
        check(run.returncode == 0, f"castkit convert {' '.join(extra)} failed:\n{run.stderr}")
        check("not found" not in run.stderr,
              f"the models' textures were not found beside them:\n{run.stderr[-2000:]}")

    summary = blender_summary(blender, glb)
    print(json.dumps(summary))
    check(summary["finished"], f"the import did not finish: {summary}")
    # One object per instance, each at the scene's root (no node turning the Z-up map to Y up
    # above them), where the map placed it.
    check(summary["objects"] == INSTANCES, f"objects: {summary['objects']}")
    check(summary["roots"] == INSTANCES, f"objects at the root: {summary['roots']}")
    expected = map_bounds(castkit, work / "map.cast")
    check(sorted(expected) == sorted(summary["bounds"]), "the models' objects are not all there")
    for model, (low, high) in expected.items():
        for want, got in zip(low + high, sum(summary["bounds"][model], [])):
            check(abs(want - got) <= 1e-3 * max(1.0, abs(want)),
                  f"{model}: Blender places its instances within {summary['bounds'][model]}, "
                  f"the map within {[low, high]}")
    check(summary["mesh_objects"] == INSTANCES, f"mesh objects: {summary['mesh_objects']}")
    check(summary["meshes"] == MODELS, f"meshes {summary['meshes']}, not one per model")
    check(min(summary["users_per_mesh"]) > 1, "a mesh is not shared by its instances")
    check(summary["images"] == MODELS, f"images: {summary['images']}")
    check(summary["names_unique"], "two objects have one name")
    check(summary["named_after_models"] == INSTANCES, "objects not named after their models")

    refused = blender_summary(blender, gpu)
    print(json.dumps(refused))
    check(not refused["finished"] and "EXT_mesh_gpu_instancing" in refused["error"],
          f"Blender 3.4 was not refused the required extension: {refused}")
    print("PASS: Blender's glTF importer takes castkit's map glb")


if __name__ == "__main__":
    if IN_BLENDER:
        summarise_in_blender(sys.argv[sys.argv.index("--") + 1])
    else:
        main()
