#!/usr/bin/python3
"""docs/events.md's Blender snippet, run as written in Blender headless (Debian's blender).

The hero with its walk and idle is converted to `scratch/hero.glb` with its events sidecar
(`castkit convert ... --events scratch/hero.events.json`); Blender's own glTF importer opens the
glb, the snippet's block (the Python block after the docs' "In Blender" heading) runs, and the
walk's action must carry the two `footstep` pose markers at their times in the scene's frames
(0 and 0.5 s: frames 0 and 12 at Blender's default 24 fps), the idle's none.

Usage: blender_events.py CASTKIT BLENDER SOURCE_DIR WORK_DIR (exits 77, a skip, without Blender)
Run by Blender itself (`blender -b --python THIS -- GLB SNIPPET`), from WORK_DIR, it imports GLB,
runs SNIPPET and prints one `RESULT {json}` line: each action's markers.
"""
import json
import os
import re
import shutil
import subprocess
import sys

try:
    import bpy
    IN_BLENDER = True
except ImportError:
    IN_BLENDER = False


def markers_in_blender(glb, snippet):
    import numpy

    # Debian 12's Blender 3.4 importer still uses numpy.bool, which numpy 1.24 removed.
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    with open(snippet, encoding="utf-8") as file:
        exec(compile(file.read(), snippet, "exec"), {"__name__": "__main__"})
    scene = bpy.context.scene
    result = {
        "fps": scene.render.fps / scene.render.fps_base,
        "actions": {action.name: sorted([m.name, m.frame] for m in action.pose_markers)
                    for action in bpy.data.actions},
    }
    print("RESULT " + json.dumps(result), flush=True)


def blender_snippet(source):
    """The Python block under "## In Blender" of docs/events.md, as written."""
    text = open(os.path.join(source, "docs", "events.md"), encoding="utf-8").read()
    section = text.split("\n## In Blender", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"\n```python\n(.*?)\n```\n", section, re.S)
    if not found:
        sys.exit("docs/events.md: no Python block under '## In Blender'")
    return found.group(1) + "\n"


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-3])
    castkit, blender, source, work = (os.path.abspath(p) if os.sep in p else p for p in sys.argv[1:])
    if not shutil.which(blender):
        print(f"skipped: no Blender at {blender}")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "scratch"))
    hero = os.path.join(source, "examples", "data", "hero")
    subprocess.run([castkit, "convert", os.path.join(hero, "hero.cast"),
                    os.path.join(hero, "hero_walk.cast"), os.path.join(hero, "hero_idle.cast"),
                    "-o", "scratch/hero.glb", "--events", "scratch/hero.events.json"],
                   cwd=work, check=True)
    snippet = os.path.join(work, "snippet.py")
    with open(snippet, "w", encoding="utf-8") as file:
        file.write(blender_snippet(source))
    run = subprocess.run([blender, "-b", "--factory-startup", "--python", os.path.abspath(__file__),
                          "--", "scratch/hero.glb", snippet],
                         cwd=work, capture_output=True, text=True, timeout=300)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        sys.exit(f"Blender ran no snippet:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
    result = json.loads(lines[-1][len("RESULT "):])
    fps = result["fps"]
    walk = [name for name in result["actions"] if name.startswith("walk")]
    idle = [name for name in result["actions"] if name.startswith("idle")]
    expected = [["footstep", round(0.0 * fps)], ["footstep", round(0.5 * fps)]]
    failures = []
    if not walk or any(result["actions"][name] != expected for name in walk):
        failures.append(f"the walk's markers are not {expected}")
    if not idle or any(result["actions"][name] for name in idle):
        failures.append("the idle has markers, or no action")
    print(json.dumps(result, indent=1))
    if failures:
        sys.exit("; ".join(failures))
    print(f"ok: {len(walk)} walk action(s) with 2 footstep markers at frames "
          f"{expected[0][1]} and {expected[1][1]} ({fps:g} fps), the idle none")
    return 0


if __name__ == "__main__":
    if IN_BLENDER:
        arguments = sys.argv[sys.argv.index("--") + 1:]
        markers_in_blender(*arguments)
    else:
        sys.exit(main())
