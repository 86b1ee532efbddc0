"""DMF JSON read and write, timed as whole processes beside their references in the same run
(bench/run.sh calls this after run.py): reading `castkit convert big.dmf.json out.cast` against a
one-shot simdjson On-Demand walk of every value of the same file (bench/simdjson_walk), writing
`castkit convert big.cast out.dmf.json` against `cp` of a file of the output's size. Median of
interleaved rounds; wall, CPU (user + system) and peak RSS of each process (wait4).

Both targets are judged on wall time, what "takes no longer" means for a user waiting on a whole
process: castkit reads the faces on two threads and formats on two, so it spends more CPU than
wall, and both ratios are reported for each (the read's CPU ratio says how the one-thread work
compares with the walk).

Writes a markdown section to stdout and to BUILD/bench-json.md; with --append, also to the end of
BUILD/bench-results.md."""
import argparse
import os
import statistics
import sys
from pathlib import Path

from run import MIB, Samples, duration, machine, run, settle


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("build", type=Path)
    parser.add_argument("--triangles", type=int, default=400_000,
                        help="triangles of the model (400,000 make about 165 MB of DMF JSON)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="an older castkit executable to compare")
    parser.add_argument("--append", action="store_true", help="also append to bench-results.md")
    args = parser.parse_args()

    build = args.build.resolve()
    castkit = build / "tools/castkit/castkit"
    walk = build / "bench/simdjson_walk"
    make_scene = build / "bench/castkit_make_scene"
    data = build / "bench-data"
    data.mkdir(exist_ok=True)
    model = data / f"dmf-{args.triangles}.cast"
    text = data / f"dmf-{args.triangles}.dmf.json"
    if not text.exists() or text.stat().st_mtime < make_scene.stat().st_mtime:
        print(f"bench: generating {model.name} and {text.name}", file=sys.stderr)
        run([make_scene, model, "--dmf-triangles", str(args.triangles)])
        run([castkit, "convert", model, text])
    size, model_size = text.stat().st_size, model.stat().st_size
    read_out, write_out, copy = data / "json-read.cast", data / "json-written.dmf.json", data / "json-copy"
    load_at_start = os.getloadavg()[0]
    print(f"bench: {text.name}, {size / MIB:.0f} MiB, {args.runs} rounds", file=sys.stderr)

    s = {name: Samples() for name in ("walk", "read", "cp", "write", "before_read", "before_write")}
    rss = {name: [] for name in s}

    def measure(name, command, *outputs):
        settle(*outputs)
        wall, cpu, peak, _ = run(command)
        s[name].add(wall, cpu)
        rss[name].append(peak)

    run(["cat", text])  # page-cache the inputs
    run(["cat", model])
    for round_number in range(args.runs):
        print(f"bench: round {round_number + 1} of {args.runs}", file=sys.stderr)
        measure("walk", [walk, text])
        measure("read", [castkit, "convert", text, read_out], read_out)
        measure("cp", ["cp", text, copy], copy)
        measure("write", [castkit, "convert", model, write_out], write_out, copy)
        if args.before:
            measure("before_read", [args.before, "convert", text, read_out], read_out, write_out)
            measure("before_write", [args.before, "convert", model, write_out], read_out, write_out)
    settle(read_out, write_out, copy)

    yes = lambda ok: "yes" if ok else "**no**"

    def row(label, name, against=None, target=None, judged="wall"):
        x = s[name]
        cells = [label, duration(x.median_cpu), duration(x.median_wall),
                 f"{size / x.median_cpu / 1e6:.0f} MB/s", f"{statistics.median(rss[name]) / 1024:.0f}"]
        if against:
            ref = s[against]
            ratio_cpu, ratio_wall = ref.median_cpu / x.median_cpu, ref.median_wall / x.median_wall
            ratio = ratio_wall if judged == "wall" else ratio_cpu
            cells += [against, f"{ratio_cpu:.2f}×", f"{ratio_wall:.2f}×",
                      f"≥ {target}× ({judged})", yes(ratio >= target)]
        else:
            cells += [""] * 5
        return "| " + " | ".join(cells) + " |"

    read_rss = statistics.median(rss["read"]) * 1024
    lines = [
        "## DMF JSON",
        "",
        f"Machine: {machine()}; load average {load_at_start:.1f} when the run started "
        f"(the machine is shared).",
        f"Model: `castkit_make_scene --dmf-triangles {args.triangles}`, one skinned mesh (positions, "
        f"normals, UVs, colours, 4 weights per vertex), 64 bones, a 120-frame animation of every "
        f"bone: {model_size:,} bytes as Cast, {size:,} bytes ({size / MIB:.0f} MiB) as DMF JSON.",
        f"Median of {args.runs} interleaved rounds, each a whole process; the inputs are "
        f"page-cached; outputs are deleted and `sync`ed before each run. Throughput is the JSON "
        f"size (read or written) over CPU time. Ratios are the reference's time over castkit's; "
        f"both targets are judged on wall time (castkit reads the faces on two threads and "
        f"formats on two; the CPU ratio shows the work against a one-thread reference).",
        "",
        "| Measurement | CPU | Wall | Throughput (CPU) | Peak RSS (MiB) | Against | Ratio (CPU) "
        "| Ratio (wall) | Target | Met |",
        "|---|---|---|---|---|---|---|---|---|---|",
        row("`simdjson_walk big.dmf.json` (load into a padded string, On-Demand walk of every "
            "value)", "walk"),
        row("`castkit convert big.dmf.json out.cast` (read)", "read", "walk", 1, "wall"),
        row("`cp big.dmf.json copy`", "cp"),
        row("`castkit convert big.cast out.dmf.json` (write)", "write", "cp", 0.5, "wall"),
    ]
    if args.before:
        lines += [row("*before:* read", "before_read", "walk", 1, "wall"),
                  row("*before:* write", "before_write", "cp", 0.5, "wall")]
    lines += [
        "",
        f"Peak memory of the read: {read_rss / size:.2f}× the file (target ≤ 2×: "
        f"{yes(read_rss <= 2 * size)}).",
    ]
    section = "\n".join(lines) + "\n"
    (build / "bench-json.md").write_text(section)
    if args.append:
        with open(build / "bench-results.md", "a") as report:
            report.write("\n" + section)
    print(section)


if __name__ == "__main__":
    main()
