"""World maps (issue 59): a generated map of 1k, 10k and 100k instances (bench/make_map.cpp: 50
textured models of 2k-20k triangles) converted by castkit, beside the floor (`cat` of every input
byte), gltfpack `-mi -noq` on castkit's glb, and the two ways into Blender: the official Cast
add-on's File > Import > Cast on map.cast, and Blender's own glTF importer on castkit's glb. Every
measurement of one size is made once per round, in turn, so that the machine's load falls on all
alike; medians of the rounds. CPU seconds (user + system) with peak memory; Blender's figures are
the import operator's own CPU time, measured inside Blender (its start-up excluded).

The add-on is the user's to fetch (`git clone https://github.com/dtzxporter/cast`); without
--addon its rows are left out.

    python3 bench/map_bench.py BUILD [--instances 1000,10000,100000] [--runs 3]
        [--addon cast/plugins/blender --cast-py cast/libraries/python/cast.py]
        [--blender-timeout 3000] [--no-blender]

Writes a markdown report to stdout and to BUILD/bench-map.md."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MIB = 1024 * 1024

# Run inside Blender: imports one file with the add-on (`cast`) or Blender's glTF importer
# (`gltf`) into an empty scene; prints the operator's CPU and wall time and what it made.
DRIVER = r'''
import json, sys, time
import bpy
kind, path = sys.argv[sys.argv.index("--") + 1:]
import numpy
# Debian 12's Blender 3.4 glTF importer still uses numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool
if kind == "cast":
    import importlib
    import io_scene_cast
    io_scene_cast.register()
    importlib.import_module("io_scene_cast.import_cast")
for leftover in list(bpy.data.objects):
    bpy.data.objects.remove(leftover)
cpu, wall = time.process_time(), time.perf_counter()
if kind == "cast":
    result = bpy.ops.import_scene.cast(filepath=path)
else:
    result = bpy.ops.import_scene.gltf(filepath=path)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print("MAP-BENCH " + json.dumps({
    "cpu": cpu, "wall": wall, "finished": "FINISHED" in result,
    "objects": len(bpy.data.objects), "meshes": len(bpy.data.meshes),
    "images": len(bpy.data.images)}), flush=True)
'''


def timed(command, timeout=None):
    """(CPU s, peak RSS KiB) of `command` as GNU time reports them; None past `timeout`."""
    with tempfile.NamedTemporaryFile("r") as report:
        try:
            subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", report.name] + command,
                           check=True, stdout=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        user, system, peak = report.read().split()[-3:]
        return float(user) + float(system), int(peak)


def settle(*paths):
    """Removes earlier outputs and flushes dirty pages, so no run pays for another's writeback."""
    for path in paths:
        Path(path).unlink(missing_ok=True)
    os.sync()


def blender_import(kind, path, addons, driver, timeout):
    """The import's own figures (the DRIVER's JSON), or None when it did not finish in time."""
    env = dict(os.environ, PYTHONPATH=str(addons)) if addons else None
    try:
        done = subprocess.run(["blender", "-b", "--factory-startup", "--python-exit-code", "1",
                               "--python", str(driver), "--", kind, str(path)],
                              env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    for line in done.stdout.splitlines():
        if line.startswith("MAP-BENCH "):
            return json.loads(line[len("MAP-BENCH "):])
    sys.exit(f"blender failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def addon_copy(addon, cast_py, folder):
    """The add-on as package `io_scene_cast` in `folder`, with the reference cast.py."""
    package = folder / "io_scene_cast"
    shutil.copytree(addon, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(cast_py, package / "cast.py")
    return folder


def input_files(map_folder):
    return [map_folder / "map.cast"] + sorted((map_folder / "models").iterdir())


class Row:
    """The rounds of one measurement: CPU seconds, peak KiB, output bytes, Blender's counts."""

    def __init__(self):
        self.cpu, self.peak, self.size, self.counts, self.unfinished = [], [], [], None, 0

    def add(self, result, size=None, counts=None):
        if result is None:
            self.unfinished += 1
            return
        self.cpu.append(result[0])
        self.peak.append(result[1])
        if size is not None:
            self.size.append(size)
        if counts is not None:
            self.counts = counts

    def cpu_text(self, timeout):
        if not self.cpu:
            return f"did not finish in {timeout:.0f} s" if self.unfinished else "—"
        return f"{statistics.median(self.cpu):.2f} s"

    def peak_text(self):
        return f"{statistics.median(self.peak) / 1024:.0f} MiB" if any(self.peak) else ""

    def size_text(self):
        return f"{statistics.median(self.size) / 1e6:.1f} MB" if self.size else ""


def measure_size(args, castkit, instances, folder, addons, driver):
    """Every row for one map size, `args.runs` rounds in turn."""
    maps = folder / f"map{instances}"
    if not (maps / "map.cast").exists():
        subprocess.run([str(args.build / "bench/castkit_make_map"), str(maps),
                        "--instances", str(instances)], check=True, stdout=subprocess.DEVNULL)
    glb, gpu, packed = maps / "castkit.glb", maps / "castkit-gpu.glb", maps / "gltfpack.glb"
    rows = {name: Row() for name in ("floor", "convert", "gpu", "gltfpack", "gltf", "cast")}
    files = [str(f) for f in input_files(maps)]
    for _ in range(args.runs):
        settle()
        rows["floor"].add(timed(["cat"] + files))
        settle(glb)
        rows["convert"].add(timed([castkit, "convert", "-q", str(maps / "map.cast"), str(glb)]),
                            glb.stat().st_size)
        if args.gpu_instancing:
            settle(gpu)
            rows["gpu"].add(timed([castkit, "convert", "-q", "--gpu-instancing",
                                   str(maps / "map.cast"), str(gpu)]), gpu.stat().st_size)
        settle(packed)
        rows["gltfpack"].add(timed(["gltfpack", "-mi", "-noq", "-i", str(glb), "-o", str(packed)]),
                             packed.stat().st_size)
        if args.no_blender:
            continue
        for kind, path in (("gltf", glb), ("cast", maps / "map.cast")):
            if kind == "cast" and addons is None:
                continue
            done = blender_import(kind, path, addons if kind == "cast" else None, driver,
                                  args.blender_timeout)
            rows[kind].add(None if done is None else (done["cpu"], 0), counts=done)
    return rows


def report(args, results):
    lines = ["## World maps (bench/map_bench.py)", "",
             f"Medians of {args.runs} rounds, CPU seconds; a generated map of 50 textured models "
             "(2k-20k triangles); Blender 3.4 (Debian's), the import operator's own CPU.", "",
             "| work | " + " | ".join(f"{n:,} instances" for n in results) + " |",
             "|---|" + "---|" * len(results)]
    labels = [("floor", "`cat` of every input byte (the floor)"),
              ("convert", "`castkit convert map.cast map.glb`"),
              ("gpu", "`castkit convert --gpu-instancing`"),
              ("gltfpack", "`gltfpack -mi -noq` on castkit's glb"),
              ("gltf", "Blender's glTF importer on castkit's glb"),
              ("cast", "official add-on, File > Import > Cast")]
    for name, label in labels:
        cells = []
        for rows in results.values():
            row = rows[name]
            cell = " ".join(t for t in (row.cpu_text(args.blender_timeout), row.peak_text(),
                                        row.size_text()) if t)
            if row.counts:
                cell += f" ({row.counts['objects']:,} objects, {row.counts['meshes']} meshes)"
            cells.append(cell)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    sizes = list(results)
    if len(sizes) >= 2 and results[sizes[0]]["convert"].cpu and results[sizes[-1]]["convert"].cpu:
        first, last = results[sizes[0]]["convert"], results[sizes[-1]]["convert"]
        span = sizes[-1] - sizes[0]
        cpu = (statistics.median(last.cpu) - statistics.median(first.cpu)) / span * 1e6
        peak = (statistics.median(last.peak) - statistics.median(first.peak)) * 1024 / span
        lines += ["", f"convert's cost per instance past the models' own, from {sizes[0]:,} to "
                  f"{sizes[-1]:,} instances: {cpu:.1f} µs CPU and {peak:.0f} bytes of peak "
                  "memory (targets: 10 µs, 1 KB)."]
    for size, rows in results.items():
        ours, addon = rows["gltf"], rows["cast"]
        if ours.cpu and addon.cpu:
            ratio = statistics.median(ours.cpu) / statistics.median(addon.cpu)
            lines.append(f"- {size:,} instances: Blender's glTF import of castkit's glb takes "
                         f"{ratio:.2f}x the add-on's CPU.")
        gpu, packed = rows["gpu"], rows["gltfpack"]
        if gpu.size and packed.size:
            lines.append(f"- {size:,} instances: `--gpu-instancing` glb is "
                         f"{statistics.median(gpu.size) / statistics.median(packed.size):.2f}x "
                         "gltfpack -mi's size.")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", type=Path)
    parser.add_argument("--instances", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--addon", type=Path, help="plugins/blender of a dtzxporter/cast clone")
    parser.add_argument("--cast-py", type=Path, help="libraries/python/cast.py of the same clone")
    parser.add_argument("--blender-timeout", type=float, default=3000.0)
    parser.add_argument("--no-blender", action="store_true")
    args = parser.parse_args()
    args.build = args.build.resolve()
    castkit = str(args.build / "tools/castkit/castkit")
    # A build from before `--gpu-instancing` (to compare with) leaves its row out.
    args.gpu_instancing = "--gpu-instancing" in subprocess.run(
        [castkit, "convert", "--help"], capture_output=True, text=True).stdout
    folder = args.build / "bench-maps"
    folder.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary:
        temporary = Path(temporary)
        driver = temporary / "driver.py"
        driver.write_text(DRIVER)
        addons = None
        if args.addon:
            addons = addon_copy(args.addon, args.cast_py or args.addon / "cast.py",
                                temporary / "addons")
        results = {}
        for instances in (int(n) for n in args.instances.split(",")):
            print(f"bench: map of {instances:,} instances", file=sys.stderr)
            results[instances] = measure_size(args, castkit, instances, folder, addons, driver)
    text = report(args, results)
    (args.build / "bench-map.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
