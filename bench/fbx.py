"""FBX export of a ripped folder (`castkit convert DIR -o OUT --to fbx --anims ANIMS`) against
the glTF export of the same folder (`--to glb`): the bundled hero (hero.cast and its albedo) and
50 SEAnims (the walk and the idle, 25 copies each), every model with every animation. Runs the
two commands in turn, round by round, so both see the same machine, and reports the medians of
wall and CPU seconds, the output sizes and the FBX/glb ratio.

    python3 bench/fbx.py BUILD [--anims 50] [--runs 5]

Under farm-bench, time one command against the other instead (its report prints the paired
ratio): `python3 bench/fbx.py BUILD --make-only` prints the two commands it would run.

Writes a markdown report to stdout and to BUILD/bench-fbx.md."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(command):
    """Wall and CPU seconds of one run of `command` (which must succeed)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(map(str, command))} failed")
    return wall, usage.ru_utime + usage.ru_stime


def make_folder(work, anims):
    hero = Path(__file__).resolve().parent.parent / "examples" / "data" / "hero"
    (work / "model").mkdir()
    (work / "anims").mkdir()
    shutil.copy(hero / "hero.cast", work / "model")
    shutil.copy(hero / "hero_albedo.png", work / "model")
    for i in range(anims):
        source = hero / ("hero_walk.seanim" if i % 2 == 0 else "hero_idle.seanim")
        shutil.copy(source, work / "anims" / f"move{i:02}.seanim")


def command(castkit, work, to):
    return [str(castkit), "convert", str(work / "model"), "-o", str(work / f"out_{to}"),
            "--to", to, "--anims", str(work / "anims"), "--jobs", "1"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", type=Path)
    parser.add_argument("--anims", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--make-only", action="store_true",
                        help="make the folder in a temporary directory and print the commands")
    args = parser.parse_args()
    castkit = args.build.resolve() / "tools" / "castkit" / "castkit"
    work = Path(tempfile.mkdtemp(prefix="castkit-bench-fbx-"))
    make_folder(work, args.anims)
    commands = {to: command(castkit, work, to) for to in ("fbx", "glb")}
    if args.make_only:
        for to, cmd in commands.items():
            print(f"{to}: {' '.join(cmd)}")
        return
    times = {to: [] for to in commands}
    for _ in range(args.runs):
        for to, cmd in commands.items():
            shutil.rmtree(work / f"out_{to}", ignore_errors=True)
            times[to].append(timed(cmd))
    sizes = {to: (work / f"out_{to}" / f"hero.{to}").stat().st_size for to in commands}
    lines = [f"# FBX against glb: a model and {args.anims} SEAnims, {args.runs} runs, -j 1", "",
             "| output | wall s (median) | CPU s (median) | bytes |", "|---|---|---|---|"]
    medians = {}
    for to in commands:
        wall = statistics.median(w for w, _ in times[to])
        cpu = statistics.median(c for _, c in times[to])
        medians[to] = wall
        lines.append(f"| {to} | {wall:.3f} | {cpu:.3f} | {sizes[to]:,} |")
    lines += ["", f"FBX / glb wall time: {medians['fbx'] / medians['glb']:.2f}"]
    report = "\n".join(lines) + "\n"
    print(report)
    (args.build / "bench-fbx.md").write_text(report)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
