#!/usr/bin/python3
"""The OBJ files castkit writes, opened by Blender's own OBJ importer (Debian's Blender 3.4,
headless, `bpy.ops.wm.obj_import`):

1. The example character (examples/data/hero/hero.cast): its vertices and triangles, as many as
   `castkit info` counts (less the vertices in no triangle, which castkit's obj.loose-vertices
   warning counts: OBJ importers make no vertex of them), and its material with the albedo texture bound (an image node whose
   image is loaded from the file castkit copied beside the OBJ).
2. A generated map (castkit_make_map: 200 instances of 5 textured models, Z up, converted with
   `--up y` as OBJ importers expect): one object per instance, the vertices and triangles of
   every model file times its instances, as `castkit info` counts them, and each model's
   texture bound.

Usage: blender_obj_import.py CASTKIT MAKE_MAP BLENDER WORK_DIR
Exits 77 (skipped) when Blender is not installed. Run by Blender itself
(`blender -b --python THIS -- FILE`) it imports FILE into an empty scene and prints one
`RESULT {json}` line.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

INSTANCES = 200
MODELS = 5

try:
    import bpy  # noqa: F401 (only Blender's own Python has it)
    IN_BLENDER = True
except ImportError:
    IN_BLENDER = False


def bound_images(material):
    """The images of `material`'s image nodes linked into its shader whose pixels were read
    from their file (reading the size loads them)."""
    if material is None or not material.use_nodes:
        return []
    return [node.image.filepath for node in material.node_tree.nodes
            if node.type == "TEX_IMAGE" and node.image is not None
            and node.outputs["Color"].is_linked and node.image.size[0] > 0]


def summarise_in_blender(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.wm.obj_import(filepath=path)
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    materials = {slot.material.name: slot.material for o in meshes for slot in o.material_slots
                 if slot.material is not None}
    print("RESULT " + json.dumps({
        "finished": "FINISHED" in result,
        "objects": len(meshes),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "faces": sum(len(o.data.polygons) for o in meshes),
        "triangles": all(len(p.vertices) == 3 for o in meshes for p in o.data.polygons),
        "materials": len(materials),
        "textured": sorted(name for name, m in materials.items() if bound_images(m)),
    }), flush=True)


def blender_summary(blender, path):
    run = subprocess.run([blender, "-b", "--factory-startup", "--python", __file__, "--",
                          str(path)], capture_output=True, text=True, timeout=600)
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    sys.exit(f"Blender did not import {path}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")


def info(castkit, path):
    run = subprocess.run([castkit, "info", str(path)], capture_output=True, text=True,
                         check=True)
    return run.stdout


def counts(castkit, path):
    """The vertices and triangles `castkit info` counts in a model file."""
    text = info(castkit, path).replace(",", "")
    vertices = sum(int(v) for v in re.findall(r"(\d+) vertices", text))
    faces = sum(int(f) for f in re.findall(r"(\d+) (?:faces|triangles)", text))
    check(vertices > 0 and faces > 0, f"castkit info counted nothing in {path}:\n{text}")
    return vertices, faces


LOOSE = re.compile(r"^(.*?): root\[\d+\]/model\[\d+\]/mesh\[\d+\]: warning: (\d+) of the \d+ "
                   r"vertices are in no triangle", re.MULTILINE)


def convert(castkit, source, output, *extra):
    """Converts; per file named in castkit's obj.loose-vertices warnings, the vertices no
    triangle uses, which OBJ importers make no vertex of."""
    run = subprocess.run([castkit, "convert", str(source), str(output), *extra],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"castkit convert {source} failed:\n{run.stderr}")
    check("not found" not in run.stderr, f"a texture was not found:\n{run.stderr[-2000:]}")
    loose = {}
    for match in LOOSE.finditer(run.stderr):
        name = Path(match[1]).name
        loose[name] = loose.get(name, 0) + int(match[2])
    return loose


def hero(castkit, blender, examples, work):
    source = examples / "hero" / "hero.cast"
    out = work / "hero" / "hero.obj"
    loose = convert(castkit, source, out)
    summary = blender_summary(blender, out)
    print(json.dumps(summary))
    vertices, faces = counts(castkit, source)
    vertices -= loose.get(out.name, 0)  # the warnings about the top document name the output
    check(summary["finished"], f"the hero's import did not finish: {summary}")
    check(summary["objects"] == 1, f"hero objects: {summary['objects']}")
    check((summary["vertices"], summary["faces"]) == (vertices, faces),
          f"Blender has {summary['vertices']} vertices, {summary['faces']} faces; castkit info "
          f"{vertices}, {faces}")
    check(summary["triangles"], "a face is not a triangle")
    check(summary["materials"] == 1 and len(summary["textured"]) == 1,
          f"the hero's texture is not bound: {summary}")


def world_map(castkit, make_map, blender, work):
    folder = work / "map"
    subprocess.run([make_map, str(folder), "--instances", str(INSTANCES), "--models",
                    str(MODELS), "--min-triangles", "100", "--max-triangles", "400",
                    "--texture-size", "16"], check=True, stdout=subprocess.DEVNULL)
    out = folder / "map.obj"
    loose = convert(castkit, folder / "map.cast", out, "--up", "y")
    summary = blender_summary(blender, out)
    print(json.dumps(summary))
    placed = {m[1]: int(m[2]) for m in re.finditer(r"file '(models/model_\d+\.cast)': (\d+) "
                                                   r"instances", info(castkit, folder / "map.cast"))}
    check(sum(placed.values()) == INSTANCES, f"castkit info places {placed}")
    vertices = faces = 0
    for model, instances in placed.items():
        v, f = counts(castkit, folder / model)
        v -= loose.get(Path(model).name, 0)
        vertices, faces = vertices + v * instances, faces + f * instances
    check(summary["finished"], f"the map's import did not finish: {summary}")
    check(summary["objects"] == INSTANCES, f"objects: {summary['objects']}, not one per instance")
    check((summary["vertices"], summary["faces"]) == (vertices, faces),
          f"Blender has {summary['vertices']} vertices, {summary['faces']} faces; the instances "
          f"place {vertices}, {faces}")
    check(summary["materials"] == MODELS and len(summary["textured"]) == MODELS,
          f"the models' textures are not all bound: {summary}")


def main():
    castkit, make_map, blender, work = sys.argv[1:5]
    if shutil.which(blender) is None:
        print(f"SKIP: {blender} is not installed (scripts/setup.sh installs Blender)")
        sys.exit(77)
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    examples = Path(__file__).resolve().parents[2] / "examples" / "data"
    hero(castkit, blender, examples, work)
    world_map(castkit, make_map, blender, work)
    print("PASS: Blender's OBJ importer opens castkit's OBJ of the hero and of a map")


if __name__ == "__main__":
    if IN_BLENDER:
        summarise_in_blender(sys.argv[sys.argv.index("--") + 1])
    else:
        main()
