"""The official Blender add-on importing through cast.py and through castkit.cast, side by side in
one run (issue 32). Not part of `make bench`: it needs the add-on, which a user fetches and which
is not in this repository:

    git clone https://github.com/dtzxporter/cast
    PYTHONPATH=build/python /usr/bin/python3 bench/blender_addon.py \\
        --addon cast/plugins/blender --cast-py cast/libraries/python/cast.py [--runs 3]

Two measurements, each reported as CPU time (user + system: the machine is shared) with the
wall-clock time beside:

1. The add-on's import in Blender (Debian's `blender`, headless, factory settings): a generated
   skinned model (a grid of --vertices vertices, 64 bones, 4 weights per vertex, normals, UVs and
   colours) and its animation (every bone keyed on 300 frames: rotation and translation), the
   armature selected between the two as a user does. Once with the add-on's own cast.py, once
   with it replaced by `from castkit.cast import *`, each in a fresh Blender, `--runs` times in
   turn; the scene each builds is summarised and must be the same.
2. `Cast.load` and touching every property's values (the last element of each) on a file of
   about 32 MiB, cast.py against castkit.cast, in this process; and the touch loop alone (over
   a scene already loaded), the floor of any library's time here.

Writes a markdown report to stdout and to BUILD/bench-blender-addon.md."""
import argparse
import gc
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import castkit.cast as ck

MIB = 1024 * 1024
BONES = 64
FRAMES = 300
INFLUENCES = 4

# Run inside Blender: registers the add-on copy on sys.path, imports the model, selects its
# armature, imports the animation, prints the times and a summary of the scene as one JSON line.
DRIVER = r'''
import json, sys, time
import bpy
import io_scene_cast
io_scene_cast.register()
model, animation = sys.argv[sys.argv.index("--") + 1:]

def timed(call):
    cpu, wall = time.process_time(), time.perf_counter()
    call()
    return time.process_time() - cpu, time.perf_counter() - wall

# The add-on imports its importer (and so cast.py, or castkit and numpy) on the first import a
# user makes in a session: timed apart, once.
import importlib
modules_time = timed(lambda: importlib.import_module("io_scene_cast.import_cast"))

model_time = timed(lambda: bpy.ops.import_scene.cast(filepath=model))
armature = next(o for o in bpy.data.objects if o.type == "ARMATURE")
bpy.ops.object.select_all(action="DESELECT")
armature.select_set(True)
bpy.context.view_layer.objects.active = armature
animation_time = timed(lambda: bpy.ops.import_scene.cast(filepath=animation))
mesh = next(o for o in bpy.data.objects if o.type == "MESH" and o.name != "Cube")
keys = sum(len(c.keyframe_points) for a in bpy.data.actions for c in a.fcurves)
data = mesh.data
co = [0.0] * (len(data.vertices) * 3)
data.vertices.foreach_get("co", co)
uv = [0.0] * (len(data.loops) * 2)
data.uv_layers[0].data.foreach_get("uv", uv)
weights = sum(g.weight for v in data.vertices[:1000] for g in v.groups)
print("CASTKIT-BENCH " + json.dumps({
    "modules": modules_time, "model": model_time, "animation": animation_time,
    "scene": {"vertices": len(data.vertices), "polygons": len(data.polygons),
              "groups": len(mesh.vertex_groups), "bones": len(armature.data.bones),
              "keys": keys, "co": round(sum(co), 3), "uv": round(sum(uv), 3),
              "weights": round(weights, 4)}}))
'''


def grid_model(path, vertices):
    """A skinned grid of about `vertices` vertices on a chain of BONES bones, written with
    castkit.cast."""
    side = max(2, int(round(vertices ** 0.5)))
    u, v = np.meshgrid(np.linspace(0, 1, side, dtype=np.float32),
                       np.linspace(0, 1, side, dtype=np.float32))
    positions = np.stack([u.ravel() * 10, np.sin(u.ravel() * 6) * 0.5, v.ravel() * 10], axis=1)
    normals = np.tile(np.array([0, 1, 0], dtype=np.float32), (side * side, 1))
    quads = np.arange(side * side).reshape(side, side)[:-1, :-1].ravel()
    faces = np.stack([quads, quads + side, quads + 1, quads + 1, quads + side, quads + side + 1],
                     axis=1).ravel()
    rng = np.random.default_rng(1)
    bones = rng.integers(0, BONES, size=(side * side, INFLUENCES))
    weights = rng.random((side * side, INFLUENCES), dtype=np.float32)
    weights /= weights.sum(axis=1, keepdims=True)
    scene = ck.Cast()
    model = scene.CreateRoot().CreateModel()
    model.SetName("grid")
    skeleton = model.CreateSkeleton()
    for i in range(BONES):
        bone = skeleton.CreateBone()
        bone.SetName(f"bone{i}")
        bone.SetParentIndex(i - 1)
        bone.SetLocalPosition((0.0, 0.1 if i else 0.0, 0.0))
        bone.SetLocalRotation((0.0, 0.0, 0.0, 1.0))
    mesh = model.CreateMesh()
    mesh.SetName("grid")
    mesh.SetVertexPositionBuffer(positions)
    mesh.SetVertexNormalBuffer(normals)
    mesh.SetVertexUVLayerBuffer(0, np.stack([u.ravel(), v.ravel()], axis=1))
    mesh.SetUVLayerCount(1)
    mesh.SetVertexColorBuffer(0, np.full(side * side, 0xFF8040C0, dtype=np.uint32))
    mesh.SetColorLayerCount(1)
    mesh.SetFaceBuffer(faces)
    mesh.SetMaximumWeightInfluence(INFLUENCES)
    mesh.SetVertexWeightBoneBuffer(bones.ravel())
    mesh.SetVertexWeightValueBuffer(weights.ravel())
    scene.save(path)


def animation(path, bones=BONES):
    """Every bone keyed on FRAMES frames: rq and tx, ty, tz."""
    scene = ck.Cast()
    anim = scene.CreateRoot().CreateAnimation()
    anim.SetName("wave")
    anim.SetFramerate(30.0)
    frames = np.arange(FRAMES)
    for i in range(bones):
        angle = np.sin(frames / 20.0 + i) * 0.3
        rotation = np.stack([np.zeros(FRAMES), np.sin(angle), np.zeros(FRAMES), np.cos(angle)],
                            axis=1)
        curve = anim.CreateCurve()
        curve.SetNodeName(f"bone{i}")
        curve.SetKeyPropertyName("rq")
        curve.SetMode("absolute")
        curve.SetKeyFrameBuffer(frames)
        curve.SetVec4KeyValueBuffer(rotation)
        for axis, offset in zip("xyz", (0.0, 0.1 if i else 0.0, 0.0)):
            curve = anim.CreateCurve()
            curve.SetNodeName(f"bone{i}")
            curve.SetKeyPropertyName("t" + axis)
            curve.SetMode("absolute")
            curve.SetKeyFrameBuffer(frames)
            curve.SetFloatKeyValueBuffer(offset + np.cos(frames / 30.0 + i) * 0.01)
    scene.save(path)


def addon_copy(addon, cast_py, folder, shim):
    """The add-on as package `io_scene_cast` in `folder`, its cast.py the reference or a shim."""
    package = folder / "io_scene_cast"
    shutil.copytree(addon, package, ignore=shutil.ignore_patterns("__pycache__", "cast.py"))
    if shim:
        (package / "cast.py").write_text("from castkit.cast import *  # noqa: F401,F403\n")
    else:
        shutil.copy(cast_py, package / "cast.py")
    return folder


def blender_import(addons, driver, model, anim, build):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(addons), str(build / "python")]))
    done = subprocess.run(["blender", "-b", "--factory-startup", "--python-exit-code", "1",
                           "--python", str(driver), "--", str(model), str(anim)],
                          env=env, capture_output=True, text=True, check=False)
    for line in done.stdout.splitlines():
        if line.startswith("CASTKIT-BENCH "):
            return json.loads(line[len("CASTKIT-BENCH "):])
    sys.exit(f"blender failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def load_reference(cast_py):
    spec = importlib.util.spec_from_file_location("cast_reference", cast_py)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def touch(node):
    """Reads the last value of every property of `node` and its subtree."""
    total = 0
    for prop in node.properties.values():
        values = prop.values
        if len(values):
            total += hash(values[len(values) - 1])
    return total + sum(touch(child) for child in node.childNodes)


def load_and_touch(module, path):
    # The last run's nodes are cyclic garbage (parents and children): freed here, not charged
    # to this run (freeing cast.py's millions of tuple elements takes 100 ms).
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    scene = module.Cast.load(str(path))
    for root in scene.Roots():
        touch(root)
    return time.process_time() - cpu, time.perf_counter() - wall


def touch_only(module, path):
    """CPU seconds of the touch loop alone, over a scene already loaded: the part of
    load_and_touch that is this script's Python, whatever the library."""
    scene = module.Cast.load(str(path))
    roots = scene.Roots()
    for root in roots:  # the first pass makes CastValues' elements
        touch(root)
    cpu = time.process_time()
    for root in roots:
        touch(root)
    return time.process_time() - cpu


def count_nodes(node):
    return 1 + sum(count_nodes(child) for child in node.childNodes)


def median_pair(samples):
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addon", required=True, type=Path, help="dtzxporter/cast plugins/blender")
    parser.add_argument("--cast-py", type=Path, help="the reference cast.py "
                        "(default: ADDON/cast.py, else ADDON/../../libraries/python/cast.py)")
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--vertices", type=int, nargs="+", default=[360_000, 40_000])
    args = parser.parse_args()
    cast_py = args.cast_py or next(p for p in (args.addon / "cast.py",
                                               args.addon / "../../libraries/python/cast.py")
                                   if p.exists())
    work = Path(tempfile.mkdtemp(prefix="castkit-blender-bench-"))
    lines = ["# The Blender add-on through cast.py and castkit.cast", "",
             f"Blender: {subprocess.run(['blender', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}; "
             f"runs: {args.runs} each, alternating; medians. CPU = user + system seconds.", "",
             "| import (model, then its animation) | MiB | cast.py CPU (wall) | castkit.cast CPU "
             "(wall) | castkit / cast.py | loading the add-on's modules, once per session: "
             "cast.py / castkit.cast |",
             "|---|---|---|---|---|---|"]
    try:
        driver = work / "driver.py"
        driver.write_text(DRIVER)
        addons = {name: addon_copy(args.addon, cast_py, work / name, name == "castkit.cast")
                  for name in ("cast.py", "castkit.cast")}
        anim = work / "wave.cast"
        animation(anim)
        for vertices in args.vertices:
            model = work / f"grid{vertices}.cast"
            grid_model(model, vertices)
            mib = (model.stat().st_size + anim.stat().st_size) / MIB
            samples = {name: [] for name in addons}
            modules = {name: [] for name in addons}
            scenes = {}
            for _ in range(args.runs):
                for name, folder in addons.items():
                    result = blender_import(folder, driver, model, anim, args.build)
                    samples[name].append([sum(t) for t in zip(result["model"], result["animation"])])
                    modules[name].append(result["modules"])
                    scenes.setdefault(name, result["scene"])
            if scenes["cast.py"] != scenes["castkit.cast"]:
                sys.exit(f"the scenes differ: {scenes}")
            (a_cpu, a_wall), (b_cpu, b_wall) = (median_pair(samples[n]) for n in addons)
            (a_mod, _), (b_mod, _) = (median_pair(modules[n]) for n in addons)
            lines.append(f"| grid of {vertices:,} vertices + wave | {mib:.1f} | {a_cpu:.2f} s "
                         f"({a_wall:.2f} s) | {b_cpu:.2f} s ({b_wall:.2f} s) | {b_cpu / a_cpu:.2f}x "
                         f"| {a_mod * 1000:.0f} ms / {b_mod * 1000:.0f} ms |")
        lines += ["", f"Scene (the same under both): {json.dumps(scenes['castkit.cast'])}", ""]
        big_files = {"mesh": work / "grid.cast", "animation": work / "curves.cast"}
        grid_model(big_files["mesh"], 430_000)
        animation(big_files["animation"], 3_000)
        reference = load_reference(cast_py)
        lines += ["| Cast.load + touch every property's values | MiB | nodes | cast.py CPU (wall) | "
                  "castkit.cast CPU (wall) | speed-up | the touch loop alone |",
                  "|---|---|---|---|---|---|---|"]
        for kind, big in big_files.items():
            samples = {"cast.py": [], "castkit.cast": []}
            for _ in range(args.runs):
                samples["cast.py"].append(load_and_touch(reference, big))
                samples["castkit.cast"].append(load_and_touch(ck, big))
            (a_cpu, a_wall), (b_cpu, b_wall) = median_pair(samples["cast.py"]), \
                median_pair(samples["castkit.cast"])
            nodes = sum(count_nodes(root) for root in ck.Cast.load(big).Roots())
            loop = statistics.median(touch_only(ck, big) for _ in range(args.runs))
            lines.append(f"| {kind}: {big.name} | {big.stat().st_size / MIB:.1f} | {nodes:,} | "
                         f"{a_cpu:.3f} s ({a_wall:.3f} s) | {b_cpu:.4f} s ({b_wall:.4f} s) | "
                         f"{a_cpu / b_cpu:.0f}x | {loop * 1000:.1f} ms |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report = "\n".join(lines) + "\n"
    print(report)
    (args.build / "bench-blender-addon.md").write_text(report)


if __name__ == "__main__":
    main()
