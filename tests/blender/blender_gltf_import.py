#!/usr/bin/python3
"""The glb files castkit writes, opened by Blender's own glTF importer (Debian's blender).

1. A character merged with two animations (`castkit convert hero.semodel walk.seanim
   run.seanim -o hero.glb`, textures beside the model) imports as one armature with its three
   bones, one mesh, one action per animation, and both textures packed inside the file.
2. Every glTF fixture converted to Cast and back to glb imports with the same number of meshes,
   armatures and actions as the original file.

Usage: blender_gltf_import.py CASTKIT BLENDER EXAMPLES_DIR FIXTURES_DIR WORK_DIR
Run by Blender itself (`blender -b --python THIS -- FILE...`) it imports each FILE into an empty
scene and prints one `RESULT {json}` line per file.
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


def summarise_in_blender(paths):
    import numpy

    # Debian 12's Blender 3.4 importer still uses numpy.bool, which numpy 1.24 removed.
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    for path in paths:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        result = bpy.ops.import_scene.gltf(filepath=path)
        armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
        summary = {
            "path": path,
            "imported": "FINISHED" in result,
            "meshes": sum(1 for o in bpy.data.objects if o.type == "MESH"),
            "armatures": len(armatures),
            "bones": sorted(b.name for a in armatures for b in a.data.bones),
            "actions": sorted(a.name for a in bpy.data.actions),
            "packed_images": sorted([i.name, list(i.size)] for i in bpy.data.images
                                    if i.packed_file is not None),
        }
        print("RESULT " + json.dumps(summary), flush=True)


def blender_summaries(blender, paths):
    run = subprocess.run([blender, "-b", "--factory-startup", "--python", __file__, "--"] + paths,
                         capture_output=True, text=True, timeout=600)
    results = {}
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            summary = json.loads(line[len("RESULT "):])
            results[summary["path"]] = summary
    missing = [p for p in paths if p not in results]
    if missing:
        sys.exit(f"Blender did not import {missing}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
    return results


def castkit(tool, *args):
    run = subprocess.run([tool] + [str(a) for a in args], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"castkit {' '.join(map(str, args))} failed ({run.returncode}):\n{run.stderr}")


EXTRA_ARMATURES = {"rigid.glb": 1}
# docs/gltf.md: each EXT_mesh_gpu_instancing instance comes back as a mesh of its own; Debian 12's
# Blender 3.4 importer does not read the extension and makes one object per instanced node.
EXTRA_MESHES = {"instancing.glb": 5}


def animations(summary):
    """The glTF animations behind Blender's actions, which it names ANIMATION_OBJECT."""
    return sorted({action.rsplit("_", 1)[0] for action in summary["actions"]})


def expect(condition, message, failures):
    if not condition:
        failures.append(message)


def main():
    tool, blender, examples, fixtures, work = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "textures"))
    for name in ("skin_albedo.png", "skin_normal.png"):
        shutil.copy(os.path.join(examples, "textures", name), os.path.join(work, "textures"))
    hero = os.path.join(work, "hero.glb")
    castkit(tool, "convert", os.path.join(examples, "character.cast"),
            os.path.join(work, "hero.semodel"))
    for move in ("walk", "run"):
        castkit(tool, "convert", os.path.join(examples, "wave.cast"),
                os.path.join(work, move + ".seanim"))
    castkit(tool, "convert", os.path.join(work, "hero.semodel"), os.path.join(work, "walk.seanim"),
            os.path.join(work, "run.seanim"), "-o", hero)

    pairs = []
    for name in sorted(os.listdir(fixtures)):
        if not name.endswith((".glb", ".gltf")) or name.startswith("required_unknown"):
            continue
        stem = os.path.splitext(name)[0]
        cast = os.path.join(work, stem + ".cast")
        again = os.path.join(work, stem + ".again.glb")
        castkit(tool, "convert", os.path.join(fixtures, name), cast)
        castkit(tool, "convert", cast, again)
        pairs.append((os.path.join(fixtures, name), again))

    results = blender_summaries(blender, [hero] + [p for pair in pairs for p in pair])
    failures = []
    got = results[hero]
    expect(got["imported"], "hero.glb: the importer did not finish", failures)
    expect(got["armatures"] == 1 and got["meshes"] == 1,
           f"hero.glb: {got['armatures']} armatures and {got['meshes']} meshes, expected 1 and 1",
           failures)
    expect(got["bones"] == ["head", "pelvis", "spine"], f"hero.glb: bones {got['bones']}", failures)
    expect([a.split("_")[0] for a in got["actions"]] == ["run", "walk"],
           f"hero.glb: actions {got['actions']}, expected one per animation", failures)
    expect([size for _, size in got["packed_images"]] == [[64, 64], [64, 64]],
           f"hero.glb: packed images {got['packed_images']}, expected the two 64x64 textures",
           failures)
    for source, again in pairs:
        name = os.path.basename(source)
        before, after = results[source], results[again]
        # docs/gltf.md: rigidly animated meshes come back skinned, one armature more.
        before["armatures"] += EXTRA_ARMATURES.get(name, 0)
        before["meshes"] += EXTRA_MESHES.get(name, 0)
        for key in ("imported", "meshes", "armatures"):
            expect(before[key] == after[key],
                   f"{name}: {key} {before[key]} in the source, {after[key]} after castkit",
                   failures)
        expect(animations(before) == animations(after),
               f"{name}: actions {before['actions']} in the source, {after['actions']} after "
               f"castkit", failures)
    for failure in failures:
        print("FAIL " + failure)
    print(f"{len(results)} files imported into Blender, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if IN_BLENDER:
        summarise_in_blender(sys.argv[sys.argv.index("--") + 1:])
    else:
        sys.exit(main())
