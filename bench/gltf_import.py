"""glTF import against Cast (issue 19, item 6): `castkit info` and `castkit convert … out.cast`
of a ≥ 10 MB glb, each beside the same work on the equivalent Cast file, as whole processes,
interleaved round by round. Target: the glb within 3× of the Cast file (CPU time).

Appends a markdown section to BUILD/bench-results.md (run after run.py) and prints it.
  python3 bench/gltf_import.py BUILD [--megabytes 12] [--runs 5] [--before OLD_BUILD]"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from run import MIB, Samples, duration, run, settle

TARGET = 3.0


def measure(castkit, command, path, out, samples, name):
    """One run of `castkit info path` or `castkit convert path out`, into samples[name]."""
    settle(out)
    samples[name].add(*run([castkit, command, path] + ([out] if command == "convert" else []))[:2])
    settle(out)


def peak_rss_kib(castkit, command, path, out):
    """Peak RSS of one run, as GNU time reports it. A child of this script would report at
    least the script's own (Python's) size: the kernel carries the high-water mark across exec."""
    time = shutil.which("time") or "/usr/bin/time"
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.run([time, "-f", "%M", "-o", report.name, castkit, command, path] +
                       ([out] if command == "convert" else []), check=True,
                       stdout=subprocess.DEVNULL)
        settle(out)
        return int(report.read().split()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("build", type=Path)
    parser.add_argument("--megabytes", type=int, default=12, help="scene size in 10^6 bytes")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a build dir of an older revision to compare")
    args = parser.parse_args()

    build = args.build.resolve()
    castkit = build / "tools/castkit/castkit"
    data = build / "bench-data"
    data.mkdir(exist_ok=True)
    cast, glb = data / f"gltf-{args.megabytes}MB.cast", data / f"gltf-{args.megabytes}MB.glb"
    out = data / "gltf-out.cast"
    make_scene = build / "bench/castkit_make_scene"
    if not cast.exists() or cast.stat().st_mtime < make_scene.stat().st_mtime:
        print(f"bench: generating {cast.name}", file=sys.stderr)
        run([make_scene, cast, "--megabytes", str(args.megabytes)])
    if not glb.exists() or glb.stat().st_mtime < cast.stat().st_mtime:
        run([castkit, "convert", cast, glb])
    run(["cat", cast, glb])  # page-cache both

    kinds = [("info", "glb"), ("info", "cast"), ("convert", "glb"), ("convert", "cast")]
    if args.before:
        kinds += [("info", "before"), ("convert", "before")]
    s = {f"{c}_{k}": Samples() for c, k in kinds}
    tool = lambda kind: args.before.resolve() / "tools/castkit/castkit" if kind == "before" else castkit
    source = lambda kind: cast if kind == "cast" else glb
    peaks = {f"{c}_{k}": peak_rss_kib(tool(k), c, source(k), out) for c, k in kinds}
    for round_number in range(args.runs):
        print(f"bench: glTF round {round_number + 1} of {args.runs}", file=sys.stderr)
        for command, kind in kinds:
            measure(tool(kind), command, source(kind), out, s, f"{command}_{kind}")

    yes = lambda ok: "yes" if ok else "**no**"
    glb_size, cast_size = glb.stat().st_size, cast.stat().st_size

    def row(label, name, size, against=None):
        x = s[name]
        cells = [label, duration(x.median_cpu), duration(x.median_wall),
                 f"{size / x.median_cpu / 1e6:.0f} MB/s", f"{peaks[name] / 1024:.0f}"]
        if against:
            ratio = x.median_cpu / s[against].median_cpu
            cells += [f"{ratio:.1f}×", f"≤ {TARGET:.0f}×", yes(ratio <= TARGET)]
        else:
            cells += ["", "", ""]
        return "| " + " | ".join(cells) + " |"

    lines = [
        "",
        "### glTF import against Cast",
        "",
        f"The same scene as a glb ({glb_size:,} bytes) and as Cast ({cast_size:,} bytes): "
        f"`castkit_make_scene --megabytes {args.megabytes}`, converted by castkit. Whole "
        f"processes, median of {args.runs} interleaved rounds, page-cached; the ratio is the "
        f"glb's CPU time over the Cast file's (lower is better).",
        "",
        "| Command | CPU | Wall | Throughput (CPU) | Peak RSS MiB | glb / Cast (CPU) | Target "
        "| Met |",
        "|---|---|---|---|---|---|---|---|",
        row("`castkit info big.glb`", "info_glb", glb_size, "info_cast"),
        row("`castkit info big.cast`", "info_cast", cast_size),
        row("`castkit convert big.glb out.cast`", "convert_glb", glb_size, "convert_cast"),
        row("`castkit convert big.cast out.cast`", "convert_cast", cast_size),
    ]
    if args.before:
        lines += [row("*before:* `castkit info big.glb`", "info_before", glb_size, "info_cast"),
                  row("*before:* `castkit convert big.glb out.cast`", "convert_before", glb_size,
                      "convert_cast")]
    text = "\n".join(lines) + "\n"
    with open(build / "bench-results.md", "a") as report:
        report.write(text)
    print(text)


if __name__ == "__main__":
    main()
