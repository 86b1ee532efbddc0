#!/usr/bin/python3
"""`assimp info` (Debian's assimp-utils, Assimp 5.2.5) on castkit's FBX of the hero with its walk
and idle reports the counts the Cast files hold: meshes, bones, materials (the hero's, read with
castkit's Python module) and animations (the two files), and no error.

Usage: assimp_info.py CASTKIT SOURCE_DIR WORK_DIR (exit 77: no assimp).
"""
import os
import re
import shutil
import subprocess
import sys


def cast_counts(hero):
    import castkit  # the build's Python module (PYTHONPATH=build/python)
    document = castkit.open(os.path.join(hero, "hero.cast"))
    models = document.models
    return {
        "Meshes": sum(len(m.meshes) for m in models),
        "Bones": sum(len(m.skeleton.bones) for m in models if m.skeleton is not None),
        "Materials": sum(len(m.materials) for m in models),
        "Animations": 2,
    }


def assimp_counts(text):
    counts = {}
    for name in ("Meshes", "Bones", "Materials", "Animations"):
        match = re.search(rf"^{name}:\s+(\d+)", text, re.MULTILINE)
        counts[name] = int(match.group(1)) if match else None
    return counts


def main():
    castkit, source, work = (os.path.abspath(p) if os.sep in p else p for p in sys.argv[1:4])
    if not shutil.which("assimp"):
        print("skipped: no assimp (Debian's assimp-utils)")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    hero = os.path.join(source, "examples", "data", "hero")
    fbx = os.path.join(work, "hero.fbx")
    subprocess.run([castkit, "convert", os.path.join(hero, "hero.cast"),
                    os.path.join(hero, "hero_walk.cast"), os.path.join(hero, "hero_idle.cast"),
                    "-o", fbx], check=True, capture_output=True)
    run = subprocess.run(["assimp", "info", fbx], capture_output=True, text=True, timeout=300)
    text = run.stdout + run.stderr
    failures = []
    if run.returncode != 0 or re.search(r"\berror\b", text, re.IGNORECASE):
        failures.append(f"assimp info failed ({run.returncode}):\n{text[-3000:]}")
    expected = cast_counts(hero)
    got = assimp_counts(run.stdout)
    if got != expected:
        failures.append(f"assimp counts {got}, the Cast files {expected}")
    if failures:
        sys.exit("\n".join(failures))
    print(f"ok: assimp info counts {got}, as the Cast files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
