"""castkit.batch on Dask against `castkit convert DIR -j 2` (issue 33): the folder of
bench/batch.py (280 files of every format, from a generated ~1 MB scene) converted to glb by the
CLI on two threads, by castkit.batch on two local processes, and by castkit.batch on a Dask
LocalCluster of two single-threaded worker processes (workers that see the paths, and workers
sent the bytes: transfer="bytes"), interleaved round by round; medians of the wall-clock time
(what a cluster improves). Also Dask's own per-task overhead (tasks that do nothing, through the
cluster) and the time of a re-run whose outputs are all up to date.

    PYTHONPATH=build/python /usr/bin/python3 bench/batch_dask.py BUILD [--files 280] [--runs 5]

Writes a markdown report to stdout and to BUILD/bench-batch-dask.md. Target: the Dask run within
1.3x the CLI's wall-clock time on this 2-core machine."""
import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import castkit.batch
from batch import make_folder


def wall(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--files", type=int, default=280)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--saturation", type=float, default=1.1,
                        help="the scheduler's worker-saturation (Dask's default: 1.1)")
    args = parser.parse_args()
    import dask
    from dask.distributed import Client, LocalCluster
    castkit_cli = args.build / "tools" / "castkit" / "castkit"
    work = Path(tempfile.mkdtemp(prefix="castkit-bench-dask-"))
    try:
        folder, size = make_folder(args.build, castkit_cli, work, args.files)
        samples = {"cli": [], "local": [], "dask": [], "bytes": []}
        with dask.config.set({"distributed.scheduler.worker-saturation": args.saturation}), \
                LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                             host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster, \
                Client(cluster) as client:
            for run in range(args.runs):
                for name in samples:
                    out = work / f"out-{name}-{run}"
                    if name == "cli":
                        call = lambda: subprocess.run(  # noqa: E731
                            [castkit_cli, "convert", folder, "-o", out, "--to", "glb", "-r",
                             "-j", "2", "-q"], check=False, stderr=subprocess.DEVNULL)
                    else:
                        call = lambda: castkit.batch.convert(  # noqa: E731
                            folder, out, "glb", recursive=True, quiet=True, jobs=2,
                            client=client if name in ("dask", "bytes") else None,
                            transfer="bytes" if name == "bytes" else "paths")
                    samples[name].append(wall(call))
            # Overhead: Dask's own per task (one that does nothing, through the cluster), and a
            # re-run with every output up to date (skipped on the client: nothing is sent).
            overhead = [wall(lambda: client.gather(client.map(len, [b""] * args.files,
                                                                pure=False)))
                        for _ in range(args.runs)]
            skipped = work / "out-dask-0"
            rerun = [wall(lambda: castkit.batch.convert(folder, skipped, "glb", recursive=True,
                                                        quiet=True, client=client))
                     for _ in range(args.runs)]
        cli = statistics.median(samples["cli"])
        lines = [f"# castkit.batch on Dask: {args.files} files, {size / 1e6:.1f} MB, to glb",
                 "", f"Median of {args.runs} interleaved rounds, wall-clock; the scheduler's "
                 f"worker-saturation {args.saturation}.", "",
                 "| run | wall | against `castkit convert -j 2` |", "|---|---|---|"]
        names = {"cli": "`castkit convert DIR -j 2` (threads)",
                 "local": "`castkit.batch.convert(jobs=2)` (local processes)",
                 "dask": "`castkit.batch.convert(client=...)` (LocalCluster, 2 workers)",
                 "bytes": "the same, `transfer=\"bytes\"` (workers sent the bytes)"}
        for name, label in names.items():
            median = statistics.median(samples[name])
            lines.append(f"| {label} | {median:.2f} s | {median / cli:.2f}x |")
        per_task = statistics.median(overhead) / args.files * 1000
        lines += ["", f"Dask's per-task overhead: {per_task:.2f} ms ({args.files} tasks that "
                  f"do nothing: {statistics.median(overhead):.2f} s). A re-run with every output "
                  f"up to date: {statistics.median(rerun):.2f} s (skipped on the client). "
                  "Target: Dask within 1.30x of the CLI."]
        report = "\n".join(lines) + "\n"
        print(report)
        (args.build / "bench-batch-dask.md").write_text(report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
