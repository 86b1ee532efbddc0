"""Folder conversion throughput (`castkit convert DIR -o OUT --to glb`): files per second with
one thread (-j 1) and with two (-j 2), beside `cp -r` of the same folder, interleaved round by
round so that all three see the same machine. The folder holds a mix of every format castkit
reads, made from one generated ~1 MB scene and the bundled examples.

Wall-clock time is what a thread pool improves, so the speed-up is judged on wall-clock
medians; run it on a quiet machine (the CPU time, reported beside, shows how busy it was).

    python3 bench/batch.py BUILD [--files 280] [--runs 5]

Writes a markdown report to stdout and to BUILD/bench-batch.md."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORMATS = ["cast", "semodel", "dmf", "dmf.json", "k3d", "glb", "gltf", "seanim"]


def timed(command):
    """Wall and CPU seconds of one run of `command` (which must succeed)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(map(str, command))} failed")
    return wall, usage.ru_utime + usage.ru_stime


def make_folder(build, castkit, work, files):
    """`files` inputs cycling through FORMATS, from a generated scene and the examples."""
    sources = work / "sources"
    sources.mkdir()
    scene = sources / "scene.cast"
    subprocess.run([build / "bench" / "castkit_make_scene", scene, "--megabytes", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    examples = Path(__file__).resolve().parent.parent / "examples" / "data"
    for fmt in FORMATS:
        # SEAnim holds animations only: the example's wave.
        source = examples / "wave.cast" if fmt == "seanim" else scene
        subprocess.run([castkit, "convert", source, sources / f"scene.{fmt}"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    folder = work / "assets"
    for i in range(files):
        fmt = FORMATS[i % len(FORMATS)]
        sub = folder / f"group{i % 4}"
        sub.mkdir(parents=True, exist_ok=True)
        shutil.copy(sources / f"scene.{fmt}", sub / f"file{i}.{fmt}")
        if fmt == "gltf":
            shutil.copy(sources / "scene.bin", sub / f"file{i}.bin")
            # Each .gltf names its buffer; keep the copy's name pointing at its own .bin.
            text = (sub / f"file{i}.gltf").read_text().replace('"scene.bin"', f'"file{i}.bin"')
            (sub / f"file{i}.gltf").write_text(text)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return folder, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--files", type=int, default=280)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    castkit = args.build / "tools" / "castkit" / "castkit"
    work = Path(tempfile.mkdtemp(prefix="castkit-batch-bench-", dir=args.build))
    try:
        folder, size = make_folder(args.build, castkit, work, args.files)
        commands = {
            "cp -r": ["cp", "-r", folder, work / "copy"],
            "-j 1": [castkit, "convert", folder, "-o", work / "out1", "--to", "glb", "-r",
                     "-j", "1", "--force", "-q"],
            "-j 2": [castkit, "convert", folder, "-o", work / "out2", "--to", "glb", "-r",
                     "-j", "2", "--force", "-q"],
        }
        samples = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                shutil.rmtree(work / "copy", ignore_errors=True)
                samples[name].append(timed(command))
        lines = [
            f"## Folder conversion to glb: {args.files} files, {size / 1e6:.1f} MB, "
            f"{os.cpu_count()} cores, median of {args.runs}",
            "",
            "| run | wall s | CPU s | files/s | MB/s |",
            "| --- | --- | --- | --- | --- |",
        ]
        medians = {}
        for name, runs in samples.items():
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            medians[name] = wall
            lines.append(f"| {name} | {wall:.3f} | {cpu:.3f} | {args.files / wall:.0f} | "
                         f"{size / 1e6 / wall:.1f} |")
        lines += ["", f"Speed-up of -j 2 over -j 1: {medians['-j 1'] / medians['-j 2']:.2f}x "
                      f"(target 1.7x on 2 cores)"]
        report = "\n".join(lines) + "\n"
        print(report)
        (args.build / "bench-batch.md").write_text(report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
