"""Python read speed (`make bench`, bench/run.sh): one generated Cast file of about 64 MiB, opened
and every array touched, four ways in the same run, round by round so that all see the same
machine:

  C++      castkit_perf read: castkit::cast::open + walk + touch every payload byte
  castkit  castkit.open + walk every node + touch every array (numpy views of the mapping)
  cast.py  castkit.cast.Cast.load (the cast.py drop-in) + touch every property's values
  numpy    numpy.fromfile of the whole file + touch it

"Touch" reads every payload byte (the C++ reader sums them as 64-bit words; from Python, the
OR of each array's bytes, see touch()). What a row reads stays alive until its timer stops,
as castkit_perf destroys its document after timing. Targets:
castkit and castkit.cast within 2x of C++, and at least half numpy.fromfile's speed. Judged on
CPU time (user + system), as bench/run.py, because the machine is shared; wall-clock medians are
reported beside. Run with Debian's python3 (numpy) and the build's package on PYTHONPATH:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py build [--runs 5]

Writes a markdown report to stdout and to BUILD/bench-python.md."""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import castkit
import castkit.cast

MIB = 1024 * 1024
CPP = "C++ castkit::cast::open (castkit_perf read)"


def touch(array):
    """Reads every byte of a contiguous array: an OR of all its bytes, a SIMD reduction over a
    uint8 view (one byte per element, so no alignment to respect: Cast payloads are unaligned)."""
    return int(np.bitwise_or.reduce(array.reshape(-1).view(np.uint8)))


def touch_node(node):
    """castkit.open's nodes: touches every numeric property of `node` and its subtree."""
    total = 0
    for name in node.properties:
        values = node.property(name).values
        if isinstance(values, np.ndarray):
            total += touch(values)
    return total + sum(touch_node(child) for child in node.children)


def touch_cast_node(node):
    """castkit.cast's nodes: touches every numeric property of `node` and its subtree, through
    the buffer protocol as foreach_set takes them (an unaligned payload is copied once there)."""
    total = 0
    for prop in node.properties.values():
        if isinstance(prop.values, castkit.cast.CastValues):
            total += touch(np.asarray(prop.values))
    return total + sum(touch_cast_node(child) for child in node.childNodes)


def read_castkit(path):
    """castkit.open + touch; returns the document (freed after timing)."""
    document = castkit.open(path)
    for root in document.roots:
        touch_node(root)
    return document


def read_cast_py(path):
    """castkit.cast.Cast.load + touch; returns the scene (freed after timing)."""
    scene = castkit.cast.Cast.load(path)
    for root in scene.Roots():
        touch_cast_node(root)
    return scene


def read_numpy(path):
    """numpy.fromfile + touch; returns the array (freed after timing)."""
    data = np.fromfile(path, dtype=np.uint8)
    touch(data)
    return data


def timed(function, path):
    """(wall s, CPU s) of one call; what it returns is freed after the timer stops."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    del result
    return wall, cpu


def time_cpp(perf, path):
    """(wall s, CPU s) of one castkit_perf read, as it reports them."""
    out = subprocess.run([perf, "--runs", "1", "read", path], check=True, capture_output=True,
                         text=True).stdout
    report = json.loads(out)
    return report["seconds"][0], report["seconds_cpu"][0]


def scene(build, megabytes):
    """The generated scene (kept in BUILD/bench for the next run)."""
    path = build / "bench" / f"python-{megabytes}mb.cast"
    if not path.exists():
        subprocess.run([build / "bench" / "castkit_make_scene", "--megabytes", str(megabytes), path],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def report(path, samples, runs):
    """The markdown table: medians and the targets."""
    size = path.stat().st_size
    cpp = statistics.median(samples[CPP]["cpu"])
    fromfile = statistics.median(samples["numpy.fromfile"]["cpu"])
    lines = [f"Python read: {path.name}, {size / MIB:.1f} MiB, median of {runs} rounds "
             f"(CPU time; wall-clock beside)", "",
             "| Open + touch every array | CPU | MiB/s (CPU) | wall | vs C++ | vs numpy.fromfile |",
             "|---|---|---|---|---|---|"]
    for name, sample in samples.items():
        cpu, wall = statistics.median(sample["cpu"]), statistics.median(sample["wall"])
        lines.append(f"| {name} | {cpu * 1000:.1f} ms | {size / MIB / cpu:,.0f} | {wall * 1000:.1f} ms "
                     f"| {cpu / cpp:.2f}x | {fromfile / cpu:.2f}x speed |")
    lines += ["", "Targets: Python rows at most 2.00x C++'s time, and at least 0.50x numpy.fromfile's "
              "speed."]
    return "\n".join(lines) + "\n"


def per_element(values, rounds=3):
    """The best of `rounds` times of reading every element by index, in ns per element."""
    indices = range(len(values))
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for i in indices:
            values[i]
        best = min(best, time.perf_counter() - start)
    return best / len(values) * 1e9


def element_costs(path):
    """The Blender add-on's access pattern, one element at a time by index: castkit.cast's
    CastValues against the tuple cast.py would hand out for the same values, for the largest
    float buffer (positions) and the largest index buffer (faces) of the file."""
    scene = castkit.cast.Cast.load(str(path))
    buffers = {}
    def visit(node):
        for prop in node.properties.values():
            kind = "float" if prop.type.identifier in ("f", "2v", "3v", "4v") else "index"
            if prop.type.identifier != "s" and len(prop.values) > len(buffers.get(kind, ())):
                buffers[kind] = prop.values
        for child in node.childNodes:
            visit(child)
    for root in scene.Roots():
        visit(root)
    lines = ["", "Element access, `values[i]` for every i (best of 3):", "",
             "| buffer | elements | cast.py's tuple | castkit.cast CastValues | ratio |",
             "|---|---|---|---|---|"]
    for kind, values in sorted(buffers.items()):
        values = values[0:min(len(values), 2_000_000)]
        as_tuple = tuple(values.tolist())
        ours, theirs = per_element(values), per_element(as_tuple)
        lines.append(f"| {kind} ({values.dtype}) | {len(values):,} | {theirs:.1f} ns | {ours:.1f} ns "
                     f"| {ours / theirs:.2f}x |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--megabytes", type=int, default=68, help="scene size (68 MB = 64.8 MiB)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    path = scene(args.build, args.megabytes)
    perf = args.build / "bench" / "castkit_perf"
    ways = {CPP: lambda p: time_cpp(perf, p),
            "castkit.open": lambda p: timed(read_castkit, p),
            "castkit.cast.Cast.load": lambda p: timed(read_cast_py, p),
            "numpy.fromfile": lambda p: timed(read_numpy, p)}
    samples = {name: {"wall": [], "cpu": []} for name in ways}
    for way in ways.values():  # one warm-up round: page cache, imports, first-touch
        way(str(path))
    for _ in range(args.runs):
        for name, way in ways.items():
            wall, cpu = way(str(path))
            samples[name]["wall"].append(wall)
            samples[name]["cpu"].append(cpu)
    text = report(path, samples, args.runs) + element_costs(path)
    (args.build / "bench-python.md").write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
