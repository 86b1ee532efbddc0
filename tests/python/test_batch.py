"""castkit.batch (issue 33): a folder tree of every format, with corrupt files, textures and an
animation folder, converted on local processes and on a Dask LocalCluster of two worker
processes gives the files and the report `castkit convert DIR` gives, byte for byte and entry for
entry; a worker killed while it converts loses nothing."""

import contextlib
import faulthandler
import json
import os
import pathlib
import pickle
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import castkit.batch
import castkit.cast as ck
from conftest import EXAMPLES, SOURCE, cli_path

HERO = EXAMPLES / "hero"

# A test still running after this many seconds has every thread's stack printed and ends the
# run (exit 1), well inside CTest's 900 s. CTest prints nothing of a test it times out while
# the test's worker processes still hold its output, so a hung cluster test otherwise says
# nothing; this turns a hang into a failure that shows where it hung. The stacks go to the real
# standard error, which CTest's Python.Batch leaves uncaptured (pytest -s).
HANG_SECONDS = 300


@pytest.fixture(autouse=True)
def end_a_hang():
    """Replaces pytest's faulthandler_timeout timer (which only prints) for each test."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


# The example character's files, by the folder of in/ each goes to. Three share a folder, so
# their outputs share a name (output.renamed); the files that unpack embedded images (glb, DMF)
# have folders of their own: two inputs putting different images under one name in one folder
# get the plain name in the order they finish, on threads as on a cluster (docs/batch.md).
HERO_FOLDERS = {"models": ["hero.cast", "hero.k3d", "hero.semodel", "hero_albedo.png"],
                "dmf": ["hero.dmf"], "json": ["hero.dmf.json"], "glb": ["hero.glb"],
                "gltf": ["hero.gltf", "hero.bin", "hero_albedo.png"]}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """in/: the example character in every format, its texture, the small examples in a
    sub-folder, and broken files; anims/: two animations, outside in/."""
    root = tmp_path_factory.mktemp("batch")
    for folder, names in HERO_FOLDERS.items():
        (root / "in" / folder).mkdir(parents=True)
        for name in names:
            shutil.copy(HERO / name, root / "in" / folder / name)
    shutil.copytree(EXAMPLES, root / "in" / "small", ignore=shutil.ignore_patterns("hero"))
    broken = root / "in" / "broken"
    broken.mkdir()
    (broken / "noise.cast").write_bytes(os.urandom(3000))
    (broken / "cut.glb").write_bytes((HERO / "hero.glb").read_bytes()[:5000])
    (broken / "empty.semodel").write_bytes(b"")
    anims = root / "anims"
    anims.mkdir()
    shutil.copy(HERO / "hero_walk.seanim", anims)
    shutil.copy(HERO / "hero_idle.cast", anims)
    return root


def run_cli(*args):
    path = cli_path()
    if path is None:
        pytest.skip("the castkit CLI is not built (set CASTKIT_CLI)")
    return subprocess.run([path, *map(str, args)], capture_output=True, text=True)


def files_under(folder):
    """{relative path: bytes} of every file under `folder`."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def entries(report, output):
    """The report's summary and entries without what differs between two runs: timings, the
    number of workers, and the output folder's name."""
    def plain(text):
        return text.replace(os.fspath(output), "OUT")
    files = [{**entry, "output": plain(entry["output"]), "milliseconds": None,
              "warnings": [plain(w) for w in entry["warnings"]],
              "errors": [plain(e) for e in entry["errors"]]} for entry in report["files"]]
    return report["summary"], files


def cli_run(tree, to, name):
    out = tree / name
    done = run_cli("convert", tree / "in", "-o", out, "--to", to, "-r", "--anims", tree / "anims",
                   "-q", "--report", tree / f"{name}.json")
    return out, done.returncode, json.loads((tree / f"{name}.json").read_text())


@pytest.mark.parametrize("to", ["glb", "semodel"])
def test_local_processes_match_the_cli(tree, to):
    cli_out, cli_code, cli_report = cli_run(tree, to, f"cli-{to}")
    out = tree / f"local-{to}"
    run = castkit.batch.convert(tree / "in", out, to, recursive=True, anims=[tree / "anims"],
                                jobs=2, quiet=True)
    assert run.exit_code == cli_code == 1  # the broken files fail
    assert files_under(out) == files_under(cli_out)
    assert entries(run.report, out) == entries(cli_report, cli_out)
    # 7 forms of the character, 3 small examples, 3 broken files; two of the examples hold no
    # model, which SEModel needs.
    assert run.report["summary"]["files"] == 13
    assert run.report["summary"]["failed"] == {"glb": 3, "semodel": 5}[to]


def test_a_second_run_skips_what_is_up_to_date_and_force_converts_it(tree):
    out = tree / "again"
    first = castkit.batch.convert(tree / "in", out, "glb", recursive=True, quiet=True)
    second = castkit.batch.convert(tree / "in", out, "glb", recursive=True, quiet=True)
    converted = first.report["summary"]["files"] - first.report["summary"]["failed"]
    assert second.report["summary"]["skipped"] == converted
    forced = castkit.batch.convert(tree / "in", out, "glb", recursive=True, quiet=True, force=True)
    assert forced.report["summary"]["skipped"] == 0


def test_the_module_command_takes_the_clis_options_and_exit_codes(tree):
    env = dict(os.environ)
    out = tree / "module"
    done = subprocess.run([sys.executable, "-m", "castkit", "convert", tree / "in", "-o", out,
                           "--to", "glb", "-r", "--anims", tree / "anims", "--report",
                           tree / "module.json"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 1, done.stderr  # the broken files
    assert "3 failed" in done.stdout and "noise.cast" in done.stderr
    cli_out, _, _ = cli_run(tree, "glb", "cli-module")
    assert files_under(out) == files_under(cli_out)
    usage = subprocess.run([sys.executable, "-m", "castkit", "convert", tree / "in", "-o", out,
                            "--to", "3ds"], capture_output=True, text=True, env=env)
    assert usage.returncode == 2
    assert "unknown format '3ds' (one of: cast" in usage.stderr


def big_model(path, side):
    """A grid of side² vertices: slow enough to convert that a worker can be killed mid-task."""
    u, v = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32))
    quads = np.arange(side * side).reshape(side, side)[:-1, :-1].ravel()
    scene = ck.Cast()
    mesh = scene.CreateRoot().CreateModel().CreateMesh()
    mesh.SetVertexPositionBuffer(np.stack([u.ravel(), np.zeros(side * side), v.ravel()], axis=1))
    mesh.SetFaceBuffer(np.stack([quads, quads + side, quads + 1, quads + 1, quads + side,
                                 quads + side + 1], axis=1).ravel())
    scene.save(path)


@pytest.fixture(scope="module")
def grids(tmp_path_factory):
    """Four large models, and their outputs as the CLI writes them."""
    root = tmp_path_factory.mktemp("grids")
    inputs = root / "in"
    inputs.mkdir()
    for i in range(4):
        big_model(inputs / f"grid{i}.cast", 900)
    assert run_cli("convert", inputs, "-o", root / "cli", "--to", "glb", "-q").returncode == 0
    return inputs, root / "cli"


def interrupt_and_resume(tmp_path, grids, where):
    """`python3 -m castkit convert` (with the options `where`) interrupted once it writes its
    first file (as early as can be, so that some are not begun on any machine): exit 130, every
    file written whole, the rest not started; run again, the rest."""
    inputs, expected = grids
    out = tmp_path / "out"
    command = [sys.executable, "-m", "castkit", "convert", inputs, "-o", out, "--to", "glb",
               "-q", "--report", tmp_path / "first.json", *where]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(30000):  # once the first file is begun: its temporary, or itself, is there
        if out.is_dir() and any(name.startswith("grid0.glb") for name in os.listdir(out)):
            break
        time.sleep(0.001)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=120)
    assert process.returncode == 130
    statuses = [e["status"] for e in json.loads((tmp_path / "first.json").read_text())["files"]]
    assert statuses.count("converted") >= 1 and statuses.count("not-started") >= 1
    assert set(statuses) == {"converted", "not-started"}
    written, whole = files_under(out), files_under(expected)
    assert {name: whole[name] for name in written} == written  # every file written is whole
    # and reported converted: none the report calls not started is on the disk
    report = json.loads((tmp_path / "first.json").read_text())["files"]
    assert {os.path.basename(e["output"]) for e in report if e["status"] == "converted"} == set(written)
    second = castkit.batch.convert(inputs, out, "glb", quiet=True)
    assert second.report["summary"]["skipped"] == statuses.count("converted")
    assert files_under(out) == whole


def test_an_output_written_during_the_run_without_a_result_counts_as_converted(tmp_path):
    """A task a worker began as Ctrl-C cancelled it writes its output, and its result never
    reaches the client (2 of 22 interrupted cluster runs): the report counts that output
    converted, never not started. An output from before the run is left as it was."""
    old, new = tmp_path / "old.glb", tmp_path / "new.glb"
    old.write_bytes(b"old")
    time.sleep(0.1)  # file times come from a clock a tick behind time_ns()
    since = time.time_ns()
    new.write_bytes(b"written")
    tasks = [{"output": os.fspath(p), "warnings": ([], [])} for p in (old, new, tmp_path / "none.glb")]
    results = [None, None, None]
    castkit.batch._count_written(tasks, results, since)
    assert results[0] is None and results[2] is None
    assert results[1]["status"] == "converted" and results[1]["output_bytes"] == 7


def test_ctrl_c_keeps_what_is_finished_and_a_second_run_resumes(tmp_path, grids):
    interrupt_and_resume(tmp_path, grids, ["-j", "1"])


def die_at_a_write_past_one_mebibyte():
    """From now on the kernel ends this process at its first write past 1 MiB, as a crash or the
    out-of-memory killer would, whatever the machine's speed: the file size limit is lowered and
    SIGXFSZ's action (which Python ignores) is the default. No core file is written."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE,
                       (1 << 20, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@contextlib.contextmanager
def next_child_dies_writing():
    """The next process this process forks (a process pool's worker) inherits
    die_at_a_write_past_one_mebibyte(); this process gets its own limits back right after that
    fork."""
    limits = {which: resource.getrlimit(which)
              for which in (resource.RLIMIT_FSIZE, resource.RLIMIT_CORE)}
    action = signal.getsignal(signal.SIGXFSZ)
    pending = [True]  # until restored: after the fork, or on leaving when nothing forked

    def restore():
        if pending:
            pending.clear()
            for which, limit in limits.items():
                resource.setrlimit(which, limit)
            signal.signal(signal.SIGXFSZ, action)

    os.register_at_fork(after_in_parent=restore)
    die_at_a_write_past_one_mebibyte()
    try:
        yield
    finally:
        forked = not pending
        restore()
    assert forked, "nothing was forked"


def test_a_local_worker_process_killed_mid_task_loses_nothing(tmp_path, grids):
    inputs, expected = grids
    out = tmp_path / "out"
    with next_child_dies_writing():
        run = castkit.batch.convert(inputs, out, "glb", jobs=1, quiet=True)
    assert run.exit_code == 0
    assert files_under(out) == files_under(expected)  # complete, and no temporary left
    assert [e["status"] for e in run.report["files"]] == ["converted"] * 4


# ---- Dask ---------------------------------------------------------------------------------

def local_cluster(workers, temporary, saturation=1.0):
    """`workers` worker processes on 127.0.0.1, set up as docs/batch.md advises: a task whose
    worker dies twice is failed (allowed-failures: 1), and a worker is given only the task it
    runs (worker-saturation: 1.0), so that a worker's death counts against that task alone.
    Their temporary folder is `temporary`."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster
    with dask.config.set({"distributed.scheduler.allowed-failures": 1,
                          "distributed.scheduler.worker-saturation": saturation}):
        local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                             host="127.0.0.1", dashboard_address="127.0.0.1:0",
                             env={"TMPDIR": os.fspath(temporary)})
    return local, Client(local)


@pytest.fixture
def cluster(tmp_path_factory):
    """A cluster of two worker processes of its own for each test. One shared by the module's
    tests hung CI runs: after a test had a worker killed, a nanny now and then never put a new
    worker in its place, and Client.wait_for_workers then waited past its own timeout (seen with
    gdb in a stuck run: the fixture blocked in wait_for_workers, one worker process left).
    LocalCluster returns once both workers have started."""
    local, client = local_cluster(2, tmp_path_factory.mktemp("workers-tmp"))
    with local, client:
        yield client


@pytest.fixture
def one_worker(tmp_path_factory):
    """One worker process: while it converts one file, the others wait on the scheduler, so
    killing it counts against that file alone."""
    local, client = local_cluster(1, tmp_path_factory.mktemp("worker-tmp"))
    with local, client:
        yield client


def test_a_dask_cluster_with_shared_paths_matches_the_cli(tree, cluster):
    cli_out, cli_code, cli_report = cli_run(tree, "glb", "cli-dask")
    out = tree / "dask"
    run = castkit.batch.convert(tree / "in", out, "glb", recursive=True, anims=[tree / "anims"],
                                client=cluster, quiet=True)
    assert run.exit_code == cli_code
    assert files_under(out) == files_under(cli_out)
    assert entries(run.report, out) == entries(cli_report, cli_out)
    assert run.report["jobs"] == 2


class DiesWritingGrid0:
    """A worker plugin that has the worker process beginning grid0 killed while it writes
    (die_at_a_write_past_one_mebibyte), the first `kills` times (counted in the file `tally`,
    shared by the worker processes)."""

    name = "castkit-dies-writing-grid0"

    def __init__(self, tally, kills):
        self.tally, self.kills = os.fspath(tally), kills

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or "grid0" not in str(key):
            return
        with open(self.tally, "a+") as tally:
            tally.seek(0)
            if len(tally.read()) >= self.kills:
                return
            tally.write("x")
        die_at_a_write_past_one_mebibyte()


class TasksBegun:
    """A worker plugin that writes the key of every task a worker begins to the file `log`."""

    name = "castkit-tasks-begun"

    def __init__(self, log):
        self.log = os.fspath(log)

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            with open(self.log, "a") as log:
                log.write(f"{key}\n")


@contextlib.contextmanager
def worker_plugin(client, plugin):
    """`plugin` on every worker of `client`'s cluster (new ones too) while in the block."""
    client.register_worker_plugin(plugin, name=plugin.name)
    try:
        yield
    finally:
        client.unregister_worker_plugin(plugin.name)


def convert_killing(client, inputs, out, kills, transfer="paths", **options):
    """castkit.batch.convert on the cluster while the worker converting grid0 is killed
    mid-write `kills` times."""
    tally = out.parent / f"{out.name}-kills"
    with worker_plugin(client, DiesWritingGrid0(tally, kills)):
        run = castkit.batch.convert(inputs, out, "glb", client=client, quiet=True,
                                    transfer=transfer, **options)
    assert tally.read_text() == "x" * kills
    for _ in range(3000):  # until the nannies have put new workers in place of the killed
        if len(client.scheduler_info()["workers"]) == len(client.cluster.workers):
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the killed workers were not replaced")
    return run


@pytest.mark.parametrize("transfer", ["paths", "bytes"])
def test_a_worker_killed_mid_task_loses_nothing(tmp_path, cluster, grids, transfer):
    inputs, expected = grids
    out = tmp_path / "out"
    run = convert_killing(cluster, inputs, out, 1, transfer)
    assert run.exit_code == 0
    assert files_under(out) == files_under(expected)  # complete, and no temporary left
    assert sorted(entry["input"] for entry in run.report["files"]) == \
        sorted((inputs / f"grid{i}.cast").as_posix() for i in range(4))
    assert all(entry["status"] == "converted" for entry in run.report["files"])


@pytest.mark.parametrize("transfer", ["paths", "bytes"])
def test_a_second_cluster_run_skips_what_is_up_to_date_and_sends_none_of_it(tmp_path, cluster,
                                                                           grids, transfer):
    inputs, expected = grids
    out = tmp_path / "out"
    first = castkit.batch.convert(inputs, out, "glb", client=cluster, quiet=True,
                                  transfer=transfer)
    assert first.report["summary"]["converted"] == 4
    written = {path: path.stat().st_mtime_ns for path in out.iterdir()}
    with worker_plugin(cluster, TasksBegun(tmp_path / "begun")):
        second = castkit.batch.convert(inputs, out, "glb", client=cluster, quiet=True,
                                       transfer=transfer)
    assert [e["status"] for e in second.report["files"]] == ["skipped"] * 4
    assert {path: path.stat().st_mtime_ns for path in out.iterdir()} == written
    assert not (tmp_path / "begun").exists()  # no worker began a task


def test_a_file_whose_worker_dies_twice_is_reported_failed_and_the_run_goes_on(tmp_path,
                                                                             one_worker, grids):
    """One large file, whose worker is killed twice, among small ones, on one worker."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(grids[0] / "grid0.cast", inputs)
    for name in ("character.cast", "wave.cast", "scene.cast"):
        shutil.copy(EXAMPLES / name, inputs)
    expected = tmp_path / "cli"
    run_cli("convert", inputs, "-o", expected, "--to", "glb", "-q", "--report", tmp_path / "r.json")
    cli_statuses = {os.path.basename(e["input"]): e["status"]
                    for e in json.loads((tmp_path / "r.json").read_text())["files"]}
    out = tmp_path / "out"
    run = convert_killing(one_worker, inputs, out, 2)
    assert run.exit_code == 1
    statuses = {os.path.basename(e["input"]): (e["status"], e["errors"]) for e in run.report["files"]}
    status, errors = statuses.pop("grid0.cast")
    assert status == "failed" and len(errors) == 1
    assert "[io.worker-failed]" in errors[0] and "KilledWorker" in errors[0]
    assert {name: status for name, (status, _) in statuses.items()} == \
        {name: status for name, status in cli_statuses.items() if name != "grid0.cast"}
    written = files_under(out)
    assert "grid0.glb" not in written  # no partial file
    assert written == {name: data for name, data in files_under(expected).items()
                       if name != "grid0.glb"}


def test_the_private_folder_of_a_worker_killed_mid_task_is_removed(tmp_path, one_worker, grids):
    """Bytes only: the worker taking the task of the one killed removes the folder it left."""
    inputs, expected = grids
    out = tmp_path / "out"
    run = convert_killing(one_worker, inputs, out, 1, "bytes")
    assert run.exit_code == 0
    assert files_under(out) == files_under(expected)
    [temporary] = set(one_worker.run(tempfile.gettempdir).values())
    assert [p.name for p in pathlib.Path(temporary).iterdir()
            if p.name.startswith("castkit-batch-")] == []


def test_a_worker_removes_only_private_folders_of_processes_gone_from_its_machine(tmp_path,
                                                                                 one_worker):
    [temporary] = map(pathlib.Path, set(one_worker.run(tempfile.gettempdir).values()))
    host = castkit.batch._PRIVATE
    gone = subprocess.Popen(["true"])
    gone.wait()
    folders = {"gone": f"{host}{gone.pid}_a", "running": f"{host}{os.getpid()}_b",
               "other host": f"castkit-batch-elsewhere_{gone.pid}_c",
               "host name sharing a start": f"{host[:-1]}-2_{gone.pid}_d"}
    for name in folders.values():
        (temporary / name).mkdir()
        (temporary / name / "partial.cast").write_bytes(b"CAST")
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(EXAMPLES / "wave.cast", inputs)
    run = castkit.batch.convert(inputs, tmp_path / "out", "glb", client=one_worker, quiet=True,
                                transfer="bytes")
    assert run.exit_code == 0
    assert sorted(p.name for p in temporary.iterdir()) == \
        sorted(name for kind, name in folders.items() if kind != "gone")


def test_files_shared_between_tasks_outlive_the_worker_holding_them(tmp_path, one_worker, tree,
                                                                    grids):
    """Bytes only: the animations and a texture, sent once for every task naming them, are on
    the one worker when it is killed; the tasks run again get them all the same."""
    inputs = tmp_path / "in"
    shutil.copytree(tree / "in" / "models", inputs)
    shutil.copy(grids[0] / "grid0.cast", inputs)
    expected = tmp_path / "cli"
    run_cli("convert", inputs, "-o", expected, "--to", "glb", "--anims", tree / "anims", "-q",
            "--report", tmp_path / "cli.json")
    out = tmp_path / "out"
    run = convert_killing(one_worker, inputs, out, 1, "bytes", anims=[tree / "anims"])
    assert files_under(out) == files_under(expected)
    assert entries(run.report, out) == \
        entries(json.loads((tmp_path / "cli.json").read_text()), expected)


def test_ctrl_c_on_a_cluster_run_cancels_what_no_worker_began(tmp_path, grids, one_worker):
    interrupt_and_resume(tmp_path, grids, ["--scheduler", one_worker.scheduler.address])


def wait_for(name):
    """A task that holds its worker until the Dask Event `name` is set."""
    from distributed import Event
    Event(name).wait()


def stop_events(dask_scheduler):
    """The names of the castkit runs' stop events the scheduler holds set."""
    events = dask_scheduler.extensions["events"]._events
    return [name for name, event in events.items()
            if str(name).startswith("castkit-stop-") and event.is_set()]


def test_tasks_a_worker_holds_but_has_not_begun_at_ctrl_c_convert_nothing(tmp_path,
                                                                          tmp_path_factory,
                                                                          grids):
    """Every task given to the one worker at once (worker-saturation inf), while it is held by
    another task: after Ctrl-C, none of them converts, although the scheduler had given them."""
    from distributed import Event
    inputs, _ = grids
    local, client = local_cluster(1, tmp_path_factory.mktemp("worker-tmp"), saturation="inf")
    with local, client:
        holder = client.submit(wait_for, "castkit-test-go", pure=False)
        out = tmp_path / "out"
        process = subprocess.Popen(
            [sys.executable, "-m", "castkit", "convert", inputs, "-o", out, "--to", "glb", "-q",
             "--report", tmp_path / "r.json", "--scheduler", client.scheduler.address],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(6000):  # until the worker holds the four
            held = [key for keys in client.processing().values() for key in keys]
            if sum("grid" in str(key) for key in held) == 4:
                break
            time.sleep(0.01)
        else:
            raise AssertionError(f"the worker was not given the tasks: {held}")
        process.send_signal(signal.SIGINT)
        for _ in range(3000):  # until the run has taken Ctrl-C (set its stop event), or 30 s
            if client.run_on_scheduler(stop_events):
                break
            time.sleep(0.01)
        Event("castkit-test-go", client=client).set()
        holder.result()
        _, err = process.communicate(timeout=120)
        assert process.returncode == 130, err
        statuses = [e["status"] for e in json.loads((tmp_path / "r.json").read_text())["files"]]
        assert statuses == ["not-started"] * 4
        assert not out.exists() or files_under(out) == {}
        assert client.run_on_scheduler(stop_events) == []  # let go once the run ended


# ---- Bytes only: workers that do not see the client's folders ------------------------------

@pytest.mark.parametrize("to", ["glb", "semodel"])
def test_a_dask_cluster_sent_bytes_only_matches_the_cli(tree, cluster, to):
    """SEModel outputs get their textures copied beside them: side outputs that come back."""
    cli_out, cli_code, cli_report = cli_run(tree, to, f"cli-bytes-{to}")
    out = tree / f"bytes-{to}"
    run = castkit.batch.convert(tree / "in", out, to, recursive=True, anims=[tree / "anims"],
                                client=cluster, quiet=True, transfer="bytes")
    assert run.exit_code == cli_code
    assert files_under(out) == files_under(cli_out)
    assert entries(run.report, out) == entries(cli_report, cli_out)
    assert run.report["jobs"] == 2


def test_relative_folders_reach_workers_whose_working_folder_is_another(tmp_path, cluster,
                                                                      monkeypatch):
    """`python3 -m castkit convert in -o out --scheduler ...` from the folder holding in/: the
    workers were started elsewhere (here: before the client moved), so they are sent absolute
    paths, and the report names the files as the CLI run from the same folder does."""
    if cli_path() is None:
        pytest.skip("the castkit CLI is not built (set CASTKIT_CLI)")
    cli = os.path.abspath(cli_path())  # before the working folder changes
    shutil.copytree(HERO, tmp_path / "in", ignore=shutil.ignore_patterns("*walk*", "*idle*"))
    monkeypatch.chdir(tmp_path)
    done = subprocess.run([cli, "convert", "in", "-o", "cli", "--to", "glb", "-q", "--report",
                           "cli.json"], capture_output=True, text=True)
    cli_report = json.loads(pathlib.Path("cli.json").read_text())
    run = castkit.batch.convert("in", "out", "glb", client=cluster, quiet=True)
    assert run.exit_code == done.returncode == 0
    assert files_under(tmp_path / "out") == files_under(tmp_path / "cli")
    assert entries(run.report, "out/") == entries(cli_report, "cli/")
    assert run.report["files"][0]["input"].startswith("in/")


def test_bytes_only_reports_a_file_warned_only_by_the_plan_as_the_cli_does(tmp_path, cluster):
    """hero.k3d and hero.semodel beside hero.cast are written as hero.k3d.glb and
    hero.semodel.glb with the plan's output.renamed warning and no other: 'warned' in the
    CLI's report, and so here, although the worker converting them saw no plan."""
    for name in HERO_FOLDERS["models"]:
        (tmp_path / "in").mkdir(exist_ok=True)
        shutil.copy(HERO / name, tmp_path / "in" / name)
    done = run_cli("convert", tmp_path / "in", "-o", tmp_path / "cli", "--to", "glb", "-q",
                   "--report", tmp_path / "cli.json")
    cli_report = json.loads((tmp_path / "cli.json").read_text())
    run = castkit.batch.convert(tmp_path / "in", tmp_path / "bytes", "glb", client=cluster,
                                quiet=True, transfer="bytes")
    assert run.exit_code == done.returncode == 0
    assert files_under(tmp_path / "bytes") == files_under(tmp_path / "cli")
    assert entries(run.report, tmp_path / "bytes") == entries(cli_report, tmp_path / "cli")
    renamed = [e for e in run.report["files"] if e["output"].endswith((".k3d.glb", ".semodel.glb"))]
    assert [e["status"] for e in renamed] == ["warned", "warned"]


def test_a_side_output_whose_name_holds_another_file_is_named_as_where_the_files_are(tmp_path,
                                                                                 cluster):
    """The output folder holds another image under the name a texture copied beside an SEModel
    takes: the CLI writes hero_albedo-2.png and names it in the SEModel; so does a bytes-only
    run, whose worker saw no such file (the client finds the name taken, and the task is
    converted again with it taken)."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in HERO_FOLDERS["models"]:
        shutil.copy(HERO / name, inputs)
    outs = {}
    for how in ("cli", "bytes"):
        outs[how] = tmp_path / how
        outs[how].mkdir()
        (outs[how] / "hero_albedo.png").write_bytes(b"another image")
    assert run_cli("convert", inputs, "-o", outs["cli"], "--to", "semodel", "-q").returncode == 0
    run = castkit.batch.convert(inputs, outs["bytes"], "semodel", client=cluster, quiet=True,
                                transfer="bytes")
    assert run.exit_code == 0
    written = files_under(outs["bytes"])
    assert written == files_under(outs["cli"])
    assert written["hero_albedo.png"] == b"another image"
    assert "hero_albedo-2.png" in written


def test_workers_sent_bytes_get_no_client_path_and_need_no_client_file(tmp_path, cluster):
    """Every task sent to the cluster is captured: no path of the client's is in any (pickled),
    and once the client's folder is moved away, each captured task converted again where it
    is gives the same files as the run wrote."""
    client_dir = tmp_path / "client"
    shutil.copytree(HERO, client_dir / "in" / "hero",
                    ignore=shutil.ignore_patterns("*.glb", "*.dmf*", "*walk*", "*idle*"))
    shutil.copy(EXAMPLES / "scene.cast", client_dir / "in")
    shutil.copy(EXAMPLES / "character.cast", client_dir / "in")
    (client_dir / "anims").mkdir()
    shutil.copy(HERO / "hero_walk.seanim", client_dir / "anims")
    sent, shared = [], []  # the tasks (files shared between tasks resolved), the shared files
    real_map, real_submit = cluster.map, cluster.submit

    def capturing_map(function, stops, functions, options, tasks, files, **kwargs):
        sent.extend((options, task, {name: data if isinstance(data, bytes) else data.result()
                                     for name, data in names.items()})
                    for options, task, names in zip(options, tasks, files))
        return real_map(function, stops, functions, options, tasks, files, **kwargs)

    def capturing_submit(function, *arguments, **kwargs):
        shared.append((kwargs["key"], arguments))
        return real_submit(function, *arguments, **kwargs)

    cluster.map, cluster.submit = capturing_map, capturing_submit
    try:
        run = castkit.batch.convert(client_dir / "in", client_dir / "out", "semodel",
                                    recursive=True, anims=[client_dir / "anims"], client=cluster,
                                    quiet=True, transfer="bytes")
    finally:
        del cluster.map, cluster.submit
    converted = [e for e in run.report["files"] if e["status"] in ("converted", "warned")]
    assert len(sent) == run.report["summary"]["files"] and converted
    for root in {os.fspath(tmp_path), os.path.realpath(tmp_path)}:
        assert all(root.encode() not in pickle.dumps((options, task)) for options, task, _ in sent)
        assert all(root.encode() not in pickle.dumps(key) for key, _ in shared)
    # The animation every task merges is sent once, not with each task.
    assert len([key for key, _ in shared if "hero_walk" in key]) == 1
    assert len(sent) > 1 and all("anims/hero_walk.seanim" in files for _, _, files in sent)
    written = files_under(client_dir / "out")
    moved = tmp_path / "elsewhere"
    client_dir.rename(moved)
    again, statuses = {}, {}
    for options, task, files in sent:
        result, files_written, _ = castkit.batch.convert_bytes_task(options, task, files)
        statuses[task["input"]] = result["status"]
        again.update({path.removeprefix("out/"): data for path, data in files_written})
    assert again == written
    # The worker's own status: the plan's output.renamed warnings are the client's to add.
    def worker_status(entry):
        plan_only = entry["warnings"] and all("[output.renamed]" in w for w in entry["warnings"])
        return "converted" if entry["status"] == "warned" and plan_only else entry["status"]
    assert statuses == {os.path.relpath(e["input"], client_dir): worker_status(e)
                        for e in run.report["files"]}


def test_a_bytes_only_workers_answer_is_checked_before_anything_is_written(tmp_path):
    """A worker's answer is data from another machine. One not shaped as a worker's, naming a
    path that leaves the run's folder, holding more files or bytes than a task may write, or led
    out of the output folder by a link, fails its own file with the reason and writes nothing
    (a malformed one stopped the whole run with "Unable to cast Python instance"); the worker's
    real answer for the same task is placed."""
    (tmp_path / "in").mkdir()
    shutil.copy(EXAMPLES / "character.cast", tmp_path / "in")
    run_options = castkit.batch.options(tmp_path / "in", tmp_path / "out", "semodel")
    task = castkit._castkit.batch_plan(run_options)[0][0]
    sender = castkit.batch._Sender(run_options, "test", (2, None))
    sent, files = sender.payload(None, task, "key")
    result, written, root = castkit.batch.convert_bytes_task(sender.sent_options, sent, files)
    output, data = written[0]
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir(exist_ok=True)  # the plan made it
    os.symlink(tmp_path / "elsewhere", tmp_path / "out" / "textures")
    refused = {
        "not a (result, files, folder) triple": ("junk",),
        "is not a relative path inside": (result, [("out/a\0b.png", b"x")], root),
        "'../outside.png' is not a relative path": (result, [("../outside.png", b"x")], root),
        "'/tmp/outside.png' is not a relative path": (result, [("/tmp/outside.png", b"x")], root),
        "not a (relative path, bytes) pair": (result, [(output, "text")], root),
        "3 files, more than the 2": (result, [(f"out/{n}.png", b"x") for n in range(3)], root),
        "it is malformed": ({"status": 3}, written, root),
        "a link inside the output folder": (result, [("out/textures/skin.png", b"x"),
                                                     (output, data)], root),
    }
    for reason, answer in refused.items():
        got, taken = sender.receive(task, answer)
        assert got["status"] == "failed" and taken == []
        assert any(reason in str(e) for e in got["errors"][0]), (reason, got["errors"])
    assert files_under(tmp_path / "out") == {} and not os.listdir(tmp_path / "elsewhere")
    small = castkit.batch._Sender(run_options, "test", (2, len(data) - 1))
    small.payload(None, task, "key")
    got, _ = small.receive(task, (result, written, root))
    assert got["status"] == "failed" and f"more than the {len(data) - 1} bytes" in str(got["errors"])
    got, taken = sender.receive(task, (result, written, root))
    assert got["status"] == result["status"] != "failed" and taken == []
    assert (tmp_path / "out" / "character.semodel").read_bytes() == data


def test_a_tls_cluster_takes_only_clients_with_its_certificates(tmp_path):
    """docs/batch.md's cluster for several machines: TLS with certificates, so that an account
    without them can neither send the workers code nor read what they convert. The module's
    command reaches it with --tls-ca-file, --tls-cert and --tls-key; without them it cannot."""
    pytest.importorskip("distributed")
    from distributed import LocalCluster
    from distributed.security import Security
    security = Security.temporary()
    pems = {name: tmp_path / f"{name}.pem" for name in ("ca", "cert", "key")}
    for name, text in zip(pems, (security.tls_ca_file, security.tls_client_cert,
                                 security.tls_client_key)):
        pems[name].write_text(text)
    (tmp_path / "in").mkdir()
    shutil.copy(EXAMPLES / "character.cast", tmp_path / "in")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, host="127.0.0.1",
                      protocol="tls", security=security, dashboard_address="127.0.0.1:0") as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        command = [sys.executable, "-m", "castkit", "convert", tmp_path / "in", "-o",
                   tmp_path / "out", "--to", "glb", "-q", "--scheduler", address]
        done = subprocess.run(command + ["--tls-ca-file", pems["ca"], "--tls-cert",
                                         pems["cert"], "--tls-key", pems["key"]],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "out" / "character.glb").is_file()
        # No certificate, no run: the handshake fails before any task is sent.
        shutil.rmtree(tmp_path / "out")
        refused = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                 env=dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="5s"))
        assert refused.returncode != 0 and not (tmp_path / "out" / "character.glb").exists()
    usage = subprocess.run(command + ["--tls-cert", pems["cert"]], capture_output=True, text=True)
    assert usage.returncode == 2 and "go together" in usage.stderr


def glb_meshes(path):
    """The number of meshes in a .glb's JSON chunk."""
    data = path.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    return len(json.loads(data[20:20 + length]).get("meshes", []))


def test_instances_are_inlined_unless_kept_as_references(tmp_path):
    # As `castkit convert`: a glTF cannot name a Cast file, so a scene of Instances is merged.
    from castkit.__main__ import main
    (tmp_path / "in").mkdir()
    for name in ("scene.cast", "character.cast"):
        shutil.copy(EXAMPLES / name, tmp_path / "in")
    common = [os.fspath(tmp_path / "in"), "--to", "glb", "-q", "-j", "1"]
    assert main(["convert", *common, "-o", os.fspath(tmp_path / "inline")]) == 0
    assert main(["convert", *common, "-o", os.fspath(tmp_path / "refs"),
                 "--keep-instance-references"]) == 0
    assert glb_meshes(tmp_path / "inline" / "scene.glb") > 0
    assert glb_meshes(tmp_path / "refs" / "scene.glb") == 0


@pytest.mark.parametrize("transfer", ["local", "paths", "bytes"])
def test_files_swapped_for_links_outside_after_the_plan_are_never_read(tmp_path, monkeypatch,
                                                                       request, transfer):
    """Issue 45 item 2: an input, or a texture, replaced by a link to a file outside the folder
    after the plan listed it was read through the link, and the outside file landed in the
    output (CLI and both Dask transfers). Each file is now opened once and judged by what was
    opened: the input fails with io.link-outside, the texture is refused as the conversion
    refuses such a link, and nothing from outside reaches an output."""
    marker = b"SECRET-OUTSIDE-THE-FOLDER"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes((HERO / "hero_albedo.png").read_bytes() + marker)
    secret = ck.Cast()
    secret.CreateRoot().CreateModel().Name = marker.decode()
    secret.save(str(outside / "secret.cast"))
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("hero.cast", "hero_albedo.png"):
        shutil.copy(HERO / name, inputs / name)
    shutil.copy(EXAMPLES / "character.cast", inputs / "other.cast")
    shutil.copy(EXAMPLES / "character.cast", inputs / "plain.cast")
    def swap(name, target):
        if (inputs / name).is_symlink():
            return
        (inputs / name).unlink()
        (inputs / name).symlink_to(outside / target)

    def then_swap(function, names):
        def swapping(*arguments):
            found = function(*arguments)
            for name, target in names:
                swap(name, target)
            return found
        return swapping

    # The texture is swapped once the plan is made, or for a bytes-only run once the client has
    # listed what it sends (its listing refuses a link outside already).
    texture = [("hero_albedo.png", "secret.png")]
    late = transfer == "bytes"
    monkeypatch.setattr(castkit.batch._castkit, "batch_plan", then_swap(
        castkit.batch._castkit.batch_plan, [("other.cast", "secret.cast")] + texture * (not late)))
    monkeypatch.setattr(castkit.batch._castkit, "batch_side_files", then_swap(
        castkit.batch._castkit.batch_side_files, texture * late))
    client = None if transfer == "local" else request.getfixturevalue("cluster")
    run = castkit.batch.convert(inputs, tmp_path / "out", "glb", client=client, quiet=True,
                                transfer="bytes" if transfer == "bytes" else "paths")
    entries = {pathlib.Path(e["input"]).name: e for e in run.report["files"]}
    assert entries["other.cast"]["status"] == "failed"
    assert "[io.link-outside]" in " ".join(entries["other.cast"]["errors"])
    hero = entries["hero.cast"]
    if transfer == "bytes":  # the client refuses to send it: the task fails
        assert hero["status"] == "failed"
        assert "[io.link-outside]" in " ".join(hero["errors"])
    else:  # the conversion reads side files on a checked descriptor already
        assert hero["status"] == "warned"
    assert entries["plain.cast"]["status"] in ("converted", "warned")
    written = files_under(tmp_path / "out")
    assert "plain.glb" in written and all(marker not in data for data in written.values())


def one_machine_recipe():
    """The commands of docs/batch.md's one-machine cluster, as written there: the lines of the
    fenced block that begins "# One machine", continuation lines joined."""
    text = (SOURCE / "docs" / "batch.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    recipe = [block for block in blocks if block.startswith("# One machine")]
    assert len(recipe) == 1, "docs/batch.md has no one-machine recipe (# One machine...)"
    joined = recipe[0].replace("\\\n", " ")
    return [shlex.split(line) for line in joined.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def listening_sockets(process):
    """(pid, address, port) of every TCP socket listening in `process` and its children."""
    import psutil
    found = []
    for each in [process, *process.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            found += [(each.pid, c.laddr.ip, c.laddr.port) for c in each.connections(kind="tcp")
                      if c.status == psutil.CONN_LISTEN]
    return found


def test_the_one_machine_recipe_listens_on_loopback_only(tmp_path):
    """docs/batch.md's one-machine cluster, started as written there: once its workers have
    joined, every socket its processes listen on (the scheduler's, its dashboard's, each
    worker's, its nanny's and its dashboard's) is on 127.0.0.1. A worker's own port runs any
    function sent to it, so one on every interface lets any machine that reaches it run code."""
    pytest.importorskip("distributed")
    psutil = pytest.importorskip("psutil")
    from distributed import Client
    commands = one_machine_recipe()
    assert [c[:2] for c in commands] == [["dask", "scheduler"], ["dask", "worker"]], commands
    if shutil.which("dask") is None:
        pytest.skip("no dask command (python3-distributed)")
    scheduler = commands[1][2]  # dask worker ADDRESS ...
    workers = int(commands[1][commands[1].index("--nworkers") + 1])
    started = []
    try:
        for command in commands:
            with open(tmp_path / f"{command[1]}.log", "wb") as log:
                started.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                                cwd=tmp_path, start_new_session=True))
        with Client(scheduler, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
            sockets = [s for p in started for s in listening_sockets(psutil.Process(p.pid))]
        # The scheduler and its dashboard; each worker, its nanny and its dashboard.
        assert len(sockets) >= 2 + 3 * workers, sockets
        outside = [s for s in sockets if s[1] not in ("127.0.0.1", "::1")]
        assert outside == [], f"{len(outside)} of {len(sockets)} sockets on every interface"
    finally:
        for process in reversed(started):  # the workers first: they leave the scheduler
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_a_run_removes_only_the_temporaries_its_own_workers_made(tmp_path):
    """Files in an output folder named as castkit names its temporaries, made by someone else
    just before the run (another program, another castkit run), outlive it: a run removes only
    the temporaries carrying its own tag, which its workers give every temporary they write
    (those a killed worker leaves: test_a_local_worker_process_killed_mid_task_loses_nothing)."""
    (tmp_path / "in").mkdir()
    shutil.copy(EXAMPLES / "character.cast", tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    planted = [out / name for name in ("character.glb.castkit-Ab12Cd", "notes.txt.castkit-x1-y2",
                                       "character.glb.castkit-0123456789abcdef-Ab12Cd")]
    for path in planted:
        path.write_bytes(b"someone else's")
    run = castkit.batch.convert(tmp_path / "in", out, "glb", jobs=1, quiet=True)
    assert run.exit_code == 0 and (out / "character.glb").is_file()
    assert [path.read_bytes() if path.exists() else None for path in planted] == \
        [b"someone else's"] * len(planted)
    # What the run's own workers left is removed: the same names with the run's tag.
    ours = out / "character.glb.castkit-feedc0de12345678-Ab12Cd"
    ours.write_bytes(b"left by a killed worker")
    castkit.batch._remove_temporaries([{"output": os.fspath(out / "character.glb")}],
                                      "feedc0de12345678")
    assert not ours.exists() and all(path.exists() for path in planted)


@pytest.mark.parametrize("transfer", ["local", "paths", "bytes"])
def test_events_beside_gives_every_output_its_events_on_every_runner(tmp_path, request,
                                                                     transfer):
    """--events-beside (issue 60 #2) in a folder: the sidecar is a side output, so a bytes-only
    worker sends it back with the output, and a cluster writes what local processes write."""
    (tmp_path / "in").mkdir()
    (tmp_path / "anims").mkdir()
    shutil.copy(EXAMPLES / "hero" / "hero.cast", tmp_path / "in")
    shutil.copy(EXAMPLES / "hero" / "hero_walk.cast", tmp_path / "anims")
    client = None if transfer == "local" else request.getfixturevalue("cluster")
    run = castkit.batch.convert(tmp_path / "in", tmp_path / "out", "glb",
                                anims=[tmp_path / "anims"], events_beside=True, client=client,
                                quiet=True, transfer="bytes" if transfer == "bytes" else "paths")
    assert run.exit_code == 0, run.report
    clips = json.loads((tmp_path / "out" / "hero.events.json").read_text())["clips"]
    assert [clip["name"] for clip in clips] == ["walk"]
    assert clips[0]["events"] == [{"name": "footstep", "frame": 0, "time": 0},
                                  {"name": "footstep", "frame": 15, "time": 0.5}]
