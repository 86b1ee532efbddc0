"""castkit.batch: `castkit convert DIR -o OUT --to FORMAT` from Python, on local processes or a
Dask cluster (docs/batch.md).

    import castkit.batch
    run = castkit.batch.convert("ripped", "converted", to="glb", recursive=True)
    print(run.exit_code, run.report["summary"])

    from dask.distributed import Client
    run = castkit.batch.convert("/share/ripped", "/share/glb", to="glb",
                                client=Client("tcp://scheduler:8786"))

What is converted, the output names, `anims` merging, textures, skipping what is up to date,
`force` and the report's fields are the library's (castkit/batch.hpp), the code `castkit convert`
runs: this module only decides where each task runs. Every input file is one task. Workers see
the same paths as the client (shared storage) and read and write the files themselves, or, with
`transfer="bytes"`, see none of them: the client sends each input's bytes and those of the files
it reads besides, and writes what the worker sends back.
"""

import concurrent.futures
import contextlib
import itertools
import json
import ntpath
import os
import posixpath
import re
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import warnings

from . import _castkit, _files

__all__ = ["Run", "convert", "options"]

# Exit codes, as the CLI's.
SUCCESS, FAILED, INTERRUPTED = 0, 1, 130


class Run:
    """What a conversion did: `report` (the dict `castkit convert DIR --report` writes),
    `exit_code` (0, 1 when a file failed, 130 when interrupted), and `report_text`, its JSON."""

    def __init__(self, report_text, exit_code):
        self.report_text = report_text
        self.report = json.loads(report_text)
        self.exit_code = exit_code

    def __repr__(self):
        return f"<castkit.batch.Run exit_code={self.exit_code} summary={self.report['summary']}>"


def options(input_dir, output_dir, to, *, from_format=None, anims=(), recursive=False,
            force=False, textures=(), texture_mode="automatic", allow_any_path=False,
            inline_instances=True, strict=False, gpu_instancing=False, up=None, units=None,
            scale=1.0, from_up=None, from_units=None, within=None, box=None, include=(),
            exclude=(), model=None, root_motion="keep", root_bone=None, events_beside=False):
    """The run's options as the library takes them (a dict that pickles), by the CLI's names:
    `anims` are folders whose animation files are merged into every model with a skeleton
    (--anims), `textures` folders searched for the files inputs name (--textures);
    `inline_instances=False` is --keep-instance-references, `gpu_instancing=True`
    --gpu-instancing; `up`, `units`, `scale`,
    `from_up` and `from_units` turn and scale every output (--up, --units, ...); `within`
    (x, y, z, radius), `box` (x0, y0, z0, x1, y1, z1), `include` and `exclude` (globs) keep a
    map's Instances (--within, --box, --include, --exclude); `model` is the file whose skeleton
    animation-only inputs play on (--model), `root_motion` ("keep", "strip", "extract") and
    `root_bone` move every output's root motion (--root-motion, --root-bone);
    `events_beside=True` writes each output's events beside it (--events-beside)."""
    animations = []
    for folder in anims:  # as --anims: every file castkit reads under the folder
        found, skipped = _castkit.batch_files(os.fspath(folder), True, allow_any_path)
        for diagnostic in skipped:
            sys.stderr.write(f"{diagnostic}\n")
        animations += found
    return {"input_dir": os.fspath(input_dir), "output_dir": os.fspath(output_dir), "to": to,
            "from": from_format, "animations": animations, "recursive": recursive,
            "force": force, "textures": [os.fspath(t) for t in textures],
            "texture_mode": texture_mode, "allow_any_path": allow_any_path,
            "inline_instances": inline_instances, "strict": strict,
            "gpu_instancing": gpu_instancing, "up": up, "units": units,
            "scale": scale, "from_up": from_up, "from_units": from_units,
            "within": None if within is None else tuple(within),
            "box": None if box is None else tuple(box),
            "include": list(include), "exclude": list(exclude),
            "model": None if model is None else os.fspath(model), "root_motion": root_motion,
            "root_bone": root_bone, "events_beside": events_beside}


def convert_task(options, task):
    """Converts one task of the plan where it runs (a worker process or a Dask worker):
    the result dict of castkit/batch.hpp's convert()."""
    return _castkit.batch_convert(options, task)


def convert_bytes_task(run_options, task, files):
    """Converts one task where the client's folders are not (a Dask worker of a bytes-only run):
    `run_options` and `task` name paths relative to the run's folder, `files` ({relative path:
    bytes}) the input, the files it reads besides and the animations. They are laid out in a
    private temporary folder as on the client, converted there by the library, and removed.
    Returns (the result dict, [(relative path, bytes)] of every file written, the private
    folder's path, for the client to put its own in the findings' place)."""
    if task.get("refused") is not None:  # the client could not read what it had to send
        return ({"status": "failed", "warnings": ([], []), "errors": ([task["refused"]], []),
                 "output_bytes": 0, "milliseconds": 0.0}, [], "")
    _remove_orphans()
    root = os.path.realpath(tempfile.mkdtemp(prefix=f"{_PRIVATE}{os.getpid()}_"))
    try:
        def private(relative):
            relative = posixpath.normpath(relative)
            return root if relative == "." else os.path.join(root, *relative.split("/"))

        for relative, data in files.items():
            path = private(relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(data)
        options = _with_folders(run_options, private)
        # The folders the plan made on the client, and those the policy searches.
        for folder in (options["input_dir"], options["output_dir"], *options["textures"]):
            os.makedirs(folder, exist_ok=True)
        here = dict(task, input=private(task["input"]), output=private(task["output"]),
                    taken=[private(t) for t in task["taken"]])
        os.makedirs(os.path.dirname(here["output"]), exist_ok=True)
        result = _castkit.batch_convert(options, here)
        written = []
        for folder, _, names in os.walk(root):
            for name in names:
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root).replace(os.sep, "/")
                if relative not in files:
                    with open(path, "rb") as file:
                        written.append((relative, file.read()))
        return result, written, root
    finally:
        shutil.rmtree(root, ignore_errors=True)


# The start of the names of the private folders of bytes-only tasks on this machine, followed by
# the worker process's id: the machine's name (with no "_") keeps apart hosts that share a
# temporary folder.
_PRIVATE = "castkit-batch-" + re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) + "_"


_orphans_removed = False


def _remove_orphans():
    """Once per worker process: removes the private folders that worker processes of this
    machine no longer running left (one killed mid-task cannot remove its own). A folder whose
    process still runs, or runs as another user, stays; on Windows every folder stays."""
    global _orphans_removed
    if _orphans_removed or os.name == "nt":  # os.kill(pid, 0) would end the process there
        return
    _orphans_removed = True
    mine = re.compile(re.escape(_PRIVATE) + r"(\d+)_")
    with os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            found = mine.match(entry.name)
            if found and entry.is_dir(follow_symlinks=False) and not _running(int(found[1])):
                shutil.rmtree(entry.path, ignore_errors=True)


def _running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


def _unless_stopped(stop, function, *arguments):
    """`function(*arguments)` on a cluster worker, or None if the run was interrupted before this
    task began (the Dask Event named `stop` is set): after Ctrl-C no task begins, whichever the
    scheduler had already given its workers. One look at the scheduler, about 0.2 ms."""
    from dask.distributed import Event
    return None if Event(stop).is_set() else function(*arguments)


@contextlib.contextmanager
def _bytes_in_tasks():
    """Quiets Dask's warning of large objects in a task: a bytes-only run puts the bytes there
    on purpose, so that a task whose worker dies is run again from what the scheduler holds (a
    copy scattered to a worker would die with it)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Large object of size")
        yield


def _same(data):
    """A shared file's bytes, as a task's result (_Sender.share)."""
    return data


class _Sender:
    """The client's half of a bytes-only run: what it sends for a task (paths relative to the
    folder holding the input, output, texture and animation folders, and the bytes of every file
    the task reads), and what it makes of the worker's answer (its files written in place, its
    findings naming the client's paths)."""

    def __init__(self, run_options, run, limits):
        self.options = run_options
        self.limits = limits  # (files, bytes or None) a task's answer may hold: convert()
        self.sent_bytes = {}  # a task's input: the bytes sent for it (its answer's bound)
        self.anchor = os.path.commonpath(list(map(os.path.abspath, _folders(run_options))))
        self.sent_options = _with_folders(run_options, self.relative)
        self.animations = {self.relative(a): a for a in run_options["animations"]}
        self.shared = {}  # relative path: [its future, the tasks in flight that name it]
        self.naming = {}  # a task's key: the relative paths of the shared files it names
        self.run = run  # the run's part of the keys
        self.shares = itertools.count()  # a key once let go may still name its bytes: never reused

    def relative(self, path):
        """`path` relative to the run's folder, with '/'."""
        return os.path.relpath(os.path.abspath(path), self.anchor).replace(os.sep, "/")

    def payload(self, client, task, key):
        """(the task as sent, {relative path: bytes, or the future of a shared file's bytes}): its
        input, the files side_files lists and the animations. No path of the client's is in
        either."""
        input_name = self.relative(task["input"])
        shared = {}  # relative path: path, in the order met
        for path in _castkit.batch_side_files(self.options, task):
            relative = self.relative(path)
            if not relative.startswith("../"):
                shared.setdefault(relative, path)
        for relative, path in self.animations.items():
            shared.setdefault(relative, path)
        shared.pop(input_name, None)
        sent = {"input": input_name, "output": self.relative(task["output"]),
                "bytes": task["bytes"], "fresh": False, "warnings": ([], []),
                "taken": [self.relative(t) for t in task.get("taken", [])]}
        self.naming[key] = []
        try:
            files = {input_name: _castkit.batch_read(self.options, task["input"])}
            for relative, path in shared.items():
                files[relative] = self.share(client, relative, path)
                self.naming[key].append(relative)
        except _castkit.Error as error:  # a link out of the folders, a file gone: this task fails
            return dict(sent, refused=error.diagnostic), {}
        self.sent_bytes[task["input"]] = len(files[input_name]) + sum(
            self.shared[relative][2] for relative in self.naming[key])
        return sent, files

    def share(self, client, relative, path):
        """The future of the bytes of the file a task names besides its input (a texture, a
        buffer, an animation): sent once while tasks in flight name it, however many do, and
        fetched by each worker once. It is a task's result, not data scattered to a worker, so
        that the scheduler, which holds the bytes in the task, makes it again when the workers
        holding it die."""
        entry = self.shared.get(relative)
        if entry is None:
            key = f"castkit-file-{posixpath.basename(relative)}-{next(self.shares)}-{self.run}"
            data = _castkit.batch_read(self.options, path)
            with _bytes_in_tasks():
                future = client.submit(_same, data, key=key, pure=False)
            entry = self.shared[relative] = [future, 0, len(data)]
        entry[1] += 1
        return entry[0]

    def finished(self, key):
        """The task `key` is done (or will be sent again): the shared files no task in flight
        names any more are let go, but for the animations, which every task names."""
        for relative in self.naming.pop(key, []):
            entry = self.shared[relative]
            entry[1] -= 1
            if entry[1] == 0 and relative not in self.animations:
                del self.shared[relative]

    @staticmethod
    def window(client):
        """The tasks sent ahead: a few more than the workers run at a time, so that the client
        holds the bytes of those alone."""
        return 2 * max(1, sum(client.nthreads().values())) + 2

    def sent(self, client, tasks, keys):
        """(the function workers run, its arguments for each task): the input's bytes go in the
        task itself (_bytes_in_tasks)."""
        payloads = [self.payload(client, task, key) for task, key in zip(tasks, keys)]
        return convert_bytes_task, ([self.sent_options] * len(tasks),
                                    [sent for sent, _ in payloads],
                                    [files for _, files in payloads])

    def receive(self, task, answer):
        """The worker's answer placed: (the result, with the client's paths; the side-output
        names other files hold, [] when every file was written). An answer that is not what a
        worker sends fails its task alone, with nothing written."""
        max_files, max_bytes = self.limits
        if max_bytes is None:
            max_bytes = 8 * self.sent_bytes.get(task["input"], 0) + _ANSWER_SLACK
        self.sent_bytes.pop(task["input"], None)
        problem = _malformed(answer, max_files, max_bytes)
        try:
            result = None if problem else self.relocated(task, *answer)
            placed = None if problem else _castkit.batch_place(self.options, task, [
                (os.path.join(self.anchor, *relative.split("/")), data)
                for relative, data in answer[1]])
        except (TypeError, ValueError, RuntimeError) as failure:
            problem = f"it is malformed ({failure})"
        if problem:
            return _failed(task, f"the worker's answer was refused: {problem}"), []
        taken, error = placed
        if error is not None:
            kept, more = result["errors"]
            result = dict(result, status="failed", errors=([*kept, error], more))
        return result, taken

    def relocated(self, task, result, written, root):
        """The worker's `result`, its findings naming the client's paths instead of those of
        its private folder `root`."""
        def private(path):
            relative = posixpath.normpath(self.relative(path))
            return root if relative == "." else os.path.join(root, *relative.split("/"))

        prefixes = [(private(path), path) for path in
                    (task["input"], task["output"], *_folders(self.options))]
        folder = (root + os.sep, self.anchor.rstrip(os.sep) + os.sep)
        return _castkit.batch_relocated(result, task, prefixes, [folder])


# What a task's answer may hold past 8 bytes per byte sent for it (docs/security.md's bound).
_ANSWER_SLACK = 64 << 20


def _malformed(answer, max_files, max_bytes):
    """Why a bytes-only worker's answer cannot be taken, or None. The answer comes from another
    machine, so it is checked as data before anything is written: the shape convert_bytes_task
    gives, plain relative paths, and at most `max_files` files of `max_bytes` bytes in all."""
    if not isinstance(answer, tuple) or len(answer) != 3:
        return "it is not a (result, files, folder) triple"
    result, written, root = answer
    if not isinstance(result, dict) or not isinstance(root, str) or "\0" in root:
        return "its result or its folder is not what a worker sends"
    if not isinstance(written, list):
        return "its files are not a list"
    if len(written) > max_files:
        return f"{len(written)} files, more than the {max_files} a task may write"
    total = 0
    for item in written:
        if (not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str)
                or not isinstance(item[1], bytes)):
            return "a file is not a (relative path, bytes) pair"
        relative, data = item
        parts = relative.split("/")
        if ("\0" in relative or not relative or posixpath.isabs(relative)
                or ntpath.isabs(relative) or ntpath.splitdrive(relative)[0] or ".." in parts):
            return f"the path {relative!r} is not a relative path inside the run's folder"
        total += len(data)
        if total > max_bytes:
            return f"more than the {max_bytes} bytes a task may write"
    return None


def _folders(run_options):
    """Every folder the run's options name: input, output, textures, animations."""
    return [run_options["input_dir"], run_options["output_dir"], *run_options["textures"],
            *run_options["animations"]]


def _with_folders(run_options, convert):
    """`run_options` with each folder of _folders() passed through `convert`: the same run seen
    from where a worker stands."""
    return dict(run_options, input_dir=convert(run_options["input_dir"]),
                output_dir=convert(run_options["output_dir"]),
                textures=[convert(t) for t in run_options["textures"]],
                animations=[convert(a) for a in run_options["animations"]])


class _Progress:
    """The CLI's progress line on stderr: files, MB/s, ETA and failures, redrawn at most every
    100 ms while stderr is a terminal (or when asked)."""

    def __init__(self, tasks, shown):
        self.total = len(tasks)
        self.total_bytes = sum(task["bytes"] for task in tasks)
        self.done = self.done_bytes = self.failed = 0
        self.start = time.monotonic()
        self.drawn = 0.0
        self.shown = shown

    def add(self, task, result):
        self.done += 1
        self.done_bytes += task["bytes"]
        self.failed += result["status"] == "failed"
        now = time.monotonic()
        if self.shown and (now - self.drawn > 0.1 or self.done == self.total):
            self.drawn = now
            elapsed = now - self.start
            rate = self.done_bytes / elapsed if elapsed > 0 else 0
            left = int((self.total_bytes - self.done_bytes) / rate) if rate > 0 else 0
            sys.stderr.write(f"\r\033[K{self.done}/{self.total} files, {rate / 1e6:.1f} MB/s, "
                             f"ETA {left // 60}:{left % 60:02}, {self.failed} failed")
            sys.stderr.flush()

    def finish(self):
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _print_failure(result):
    for error in _castkit.batch_shown(result["errors"]):
        sys.stderr.write(f"{error}\n")


# A task that was running in a worker process that died this many times is reported failed,
# not run again: the file itself kills workers (as Dask's scheduler decides with its
# allowed-failures setting).
_STRIKES = 2


class _Interrupt:
    """Ctrl-C during a run, as the CLI takes it: the first sets `requested` (the runner finishes
    the files being written and begins no more), a second stops at once (KeyboardInterrupt).
    A flag rather than an exception at whatever line is running, so no result is lost between
    a task's end and its entry in the report. Only the main thread receives signals; elsewhere
    nothing is installed."""

    def __init__(self):
        self.requested = False
        self.previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum, frame):
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


# How often a runner waiting for results looks at the interrupt flag.
_POLL_SECONDS = 0.1


def _run_local(run_options, tasks, jobs, on_result, interrupt):
    """Every task on `jobs` worker processes of this machine, `jobs` at a time (so that the
    tasks in flight are the ones running). A worker that dies breaks the pool: a new one takes
    the tasks not finished, and those that were running get a strike (_STRIKES of them and the
    task is reported failed)."""
    queue = list(range(len(tasks)))
    strikes = {}
    while queue and not interrupt.requested:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs,
                                                    initializer=_ignore_interrupts) as pool:
            running = {}
            try:
                while (queue and not interrupt.requested) or running:
                    while queue and len(running) < jobs and not interrupt.requested:
                        i = queue.pop(0)
                        running[pool.submit(convert_task, run_options, tasks[i])] = i
                    done, _ = concurrent.futures.wait(running, timeout=_POLL_SECONDS,
                                                      return_when=concurrent.futures.FIRST_COMPLETED)
                    for future in done:
                        result = future.result()  # raises when the pool broke: still running
                        on_result(running.pop(future), result)
            except concurrent.futures.process.BrokenProcessPool:
                for future, i in running.items():
                    if future.done() and future.exception() is None:
                        on_result(i, future.result())  # finished before the pool broke
                        continue
                    strikes[i] = strikes.get(i, 0) + 1
                    if strikes[i] < _STRIKES:
                        queue.insert(0, i)
                    else:
                        on_result(i, _failed(tasks[i], "its worker process died "
                                             f"{_STRIKES} times while converting it"))


def _ignore_interrupts():
    """Worker processes leave Ctrl-C to the parent, which lets them finish their file."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_dask(run_options, tasks, client, on_result, interrupt, transfer, limits):
    """Every task on the cluster `client` reaches, one Dask task per input, results taken as
    they finish; `transfer` ("paths" or "bytes") says how a task reaches a worker (_SharedPaths,
    _Sender). A task up to date is skipped here. A task whose worker dies runs again elsewhere
    (Dask's own retry); one that kills workers more often than the scheduler allows is reported
    failed with the reason. A task whose side output meets another file under its name is
    converted again with that name taken, as converting where the files are would have named
    it. After Ctrl-C no task begins (_unless_stopped) and those not given to a worker are
    cancelled; those running finish."""
    from dask.distributed import Event, as_completed
    # Each key names its input, for the dashboard; the random part keeps runs apart.
    run = os.urandom(4).hex()
    way = _SharedPaths(run_options) if transfer == "paths" else _Sender(run_options, run, limits)
    queue = []
    for i, task in enumerate(tasks):
        if task["fresh"]:
            on_result(i, convert_task(run_options, task))  # skipped: nothing is read
        else:
            queue.append(i)
    window = way.window(client) or len(queue)
    stop = Event(f"castkit-stop-{run}", client=client)
    futures = {}
    # Results come with the futures, a batch at a time (asking each future for its result was
    # one more round trip per file).
    finished = as_completed([], with_results=True, raise_errors=False)
    renames = {}
    cancelled = False
    while queue or futures:
        if interrupt.requested and not cancelled:
            cancelled = True
            queue.clear()
            # Once `stop` is set no task begins: one the scheduler gives a worker after the
            # look at what workers hold below does nothing, so cancelling it is exact (a task
            # cancelled while it converts would write its output and be reported not started).
            stop.set()
            given = {key for keys in client.processing().values() for key in keys}
            client.cancel([f for f in futures if not f.done() and f.key not in given])
        if queue and len(futures) < window:
            chosen = queue[:window - len(futures)]
            del queue[:len(chosen)]
            keys = [f"castkit-{transfer}-{os.path.basename(tasks[i]['input'])}-{i}-"
                    f"{renames.get(i, 0)}-{run}" for i in chosen]
            function, arguments = way.sent(client, [tasks[i] for i in chosen], keys)
            with _bytes_in_tasks():
                submitted = client.map(_unless_stopped, [stop.name] * len(chosen),
                                       [function] * len(chosen), *arguments, key=keys, pure=False)
            for future, i in zip(submitted, chosen):
                futures[future] = i
                finished.add(future)
        batch = finished.next_batch(block=False) if futures else []
        if not batch:
            time.sleep(_POLL_SECONDS / 10)
        for future, answer in batch:
            i = futures.pop(future)
            way.finished(future.key)
            if future.status == "cancelled" or (future.status == "finished" and answer is None):
                continue  # not started: the report says so
            if future.status != "finished":  # KilledWorker, or the task raised
                error = future.exception()
                on_result(i, _failed(tasks[i], f"the task failed on the cluster: {error!r}"))
                continue
            result, taken = way.receive(tasks[i], answer)
            if taken and not interrupt.requested and renames.get(i, 0) < _RENAMES:
                renames[i] = renames.get(i, 0) + 1
                tasks[i] = dict(tasks[i], taken=[*tasks[i].get("taken", []), *taken])
                queue.insert(0, i)
                continue
            if taken:
                result = _failed(tasks[i], "its side outputs' names hold other files: "
                                 + ", ".join(taken))
            on_result(i, result)
    if cancelled:
        stop.clear()  # the scheduler forgets it


class _SharedPaths:
    """How a task reaches workers that see the client's paths: the run's paths absolute, since
    each worker has a working folder of its own (a `dask worker` started elsewhere), and their
    findings put back in the client's spelling, so that the report is the CLI's whatever the
    folders were given as. Tasks go without the plan's warnings, which the client adds back."""

    def __init__(self, run_options):
        self.pairs = []  # (absolute, as given) for each folder given relative
        self.options = _with_folders(run_options, self.absolute)

    def absolute(self, path):
        full = os.path.abspath(path)
        if full != os.fspath(path):
            self.pairs.append((full, os.fspath(path)))
        return full

    @staticmethod
    def window(client):
        """None: every task is sent at once, in one message (one by one cost the client and the
        scheduler a few milliseconds each). A task that depends on nothing is queued on the
        scheduler until a worker is free (with the worker-saturation docs/batch.md advises), so
        that a worker holds only what it runs and its death counts against that alone."""
        return None

    def sent(self, client, tasks, keys):
        """(the function workers run, its arguments for each task)."""
        return convert_task, ([self.options] * len(tasks),
                              [dict(task, input=os.path.abspath(task["input"]),
                                    output=os.path.abspath(task["output"]), warnings=([], []))
                               for task in tasks])

    @staticmethod
    def finished(key):
        """Nothing to let go: workers read the files themselves."""

    def receive(self, task, result):
        """(the result with the client's paths, [] : the worker wrote its side outputs itself)."""
        files = [(os.path.abspath(task["input"]), task["input"]),
                 (os.path.abspath(task["output"]), task["output"]), *self.pairs]
        folders = [(full.rstrip(os.sep) + os.sep, given.rstrip(os.sep) + os.sep)
                   for full, given in self.pairs]
        return _castkit.batch_relocated(result, task, files, folders), []


# A task whose side outputs keep meeting other files under their names on the client is converted
# again at most this many times (each time with those names taken), then failed.
_RENAMES = 8


def _failed(task, reason):
    diagnostic = _castkit.batch_failure(task["input"], reason)
    return {"status": "failed", "warnings": task["warnings"], "errors": ([diagnostic], []),
            "output_bytes": 0, "milliseconds": 0.0}


def convert(input_dir, output_dir, to, *, jobs=None, client=None, scheduler=None, security=None,
            report=None, quiet=False, progress=None, transfer="paths", max_answer_files=4096,
            max_answer_bytes=None, **option_names):
    """Converts every file castkit reads under `input_dir` to `to` into the same relative tree
    under `output_dir`, as `castkit convert DIR -o OUT --to FORMAT` does (`recursive`, `force`,
    `anims`, `textures`, `texture_mode`, `allow_any_path`, `inline_instances`, `strict`,
    `gpu_instancing`, `from_format`, `up`, `units`, `scale`, `from_up`, `from_units`, `within`,
    `box`, `include`, `exclude`, `model`, `root_motion`, `root_bone`, `events_beside` as
    there). Runs on `jobs` local processes (default: one per core), or with
    `client` (a dask.distributed.Client) or `scheduler` (its address; `security`, a
    distributed.security.Security, for a tls:// one) on that cluster, one task per input.
    Failures are printed to stderr as they come, with a progress line when stderr is
    a terminal (`progress=True` forces it) and a summary unless `quiet`; `report` also writes
    the JSON report there. Ctrl-C stops the run, keeps what is finished and reports the rest not
    started; run again to resume (up-to-date files are skipped). `transfer` says how a cluster's
    workers reach the files: "paths" (they see the client's paths) or "bytes" (they see none:
    the client sends each input with the files it reads, and writes what comes back; not with
    `allow_any_path`). A bytes-only worker's answer is checked before anything is written: at
    most `max_answer_files` files and `max_answer_bytes` bytes (default: 8 per byte sent for the
    task, plus 64 MiB), plain relative paths, nothing led out of the output folder by a link; a
    refused answer fails its file alone. Returns a Run."""
    if transfer not in ("paths", "bytes"):
        raise ValueError(f"transfer must be 'paths' or 'bytes', not {transfer!r}")
    if transfer == "bytes" and client is None and scheduler is None:
        raise ValueError("transfer='bytes' is for a cluster: give client or scheduler")
    if transfer == "bytes" and option_names.get("model") is not None:
        raise ValueError("transfer='bytes' does not send --model's file yet: give the workers the "
                         "paths (transfer='paths')")
    if transfer == "bytes" and option_names.get("allow_any_path"):
        raise ValueError("transfer='bytes' cannot send the files --allow-any-path lets inputs "
                         "name anywhere: give the workers the paths (transfer='paths')")
    run_options = options(input_dir, output_dir, to, **option_names)
    # The mark on this run's temporaries: the only ones it removes when its workers are done.
    run_options["temporary_tag"] = secrets.token_hex(8)
    tasks, skipped = _castkit.batch_plan(run_options)
    for diagnostic in skipped:
        sys.stderr.write(f"{diagnostic}\n")
    results = [None] * len(tasks)
    shown = (sys.stderr.isatty() if progress is None else progress) and not quiet
    meter = _Progress(tasks, shown)

    def on_result(i, result):
        results[i] = result
        if result["status"] == "failed":
            if shown:
                sys.stderr.write("\r\033[K")
            _print_failure(result)
        meter.add(tasks[i], result)

    start = time.monotonic()
    started_ns = time.time_ns()
    workers = jobs or os.cpu_count() or 1
    own_client = None
    if client is None and scheduler is not None:
        from dask.distributed import Client
        client = own_client = Client(scheduler, security=security)
    try:
        with _Interrupt() as interrupt:
            if client is not None:
                workers = sum(client.nthreads().values()) or workers
                _run_dask(run_options, tasks, client, on_result, interrupt, transfer,
                          (max_answer_files, max_answer_bytes))
            elif tasks:
                _run_local(run_options, tasks, min(workers, len(tasks)), on_result, interrupt)
    finally:
        if own_client is not None:
            own_client.close()
    interrupted = interrupt.requested
    meter.finish()
    _remove_temporaries(tasks, run_options["temporary_tag"])
    _count_written(tasks, results, started_ns)
    seconds = time.monotonic() - start
    text = _castkit.batch_report(run_options, tasks, results, workers, seconds)
    failed = any(r is not None and r["status"] == "failed" for r in results)
    exit_code = INTERRUPTED if interrupted else FAILED if failed else SUCCESS
    run = Run(text, exit_code)
    if not quiet:
        _print_summary(run, interrupted)
    if report is not None:
        _files.replace(report, lambda file: file.write(text.encode("utf-8")))
    return run


# The temporary name castkit writes a file under before renaming it into place
# (platform_posix.cpp, platform_windows.cpp), with the run's tag (platform::TemporaryTag):
# `<name>.castkit-<tag>-<random>`.
def _temporary_of_run(tag):
    return re.compile(r".+\.castkit-" + re.escape(tag) + r"-[A-Za-z0-9-]+")


def _remove_temporaries(tasks, tag):
    """Removes the temporary files of this run's writes that a worker killed mid-write left in
    the output folders (a killed process cannot clean up after itself): files named with this
    run's tag, which its workers gave every temporary they made. Any other file, whoever made
    it, is left alone, however much it looks like a castkit temporary. The finished outputs were
    renamed into place whole, so no partial file remains."""
    ours = _temporary_of_run(tag)
    for folder in {os.path.dirname(task["output"]) or "." for task in tasks}:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if ours.fullmatch(name):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))


# File times come from the kernel's coarse clock, up to a tick (10 ms at most) behind time_ns().
_COARSE_CLOCK_NS = 20_000_000


def _count_written(tasks, results, since_ns):
    """Gives a result to each task without one whose output was written during the run: a task a
    worker began as Ctrl-C cancelled it writes its output whole, and the client never hears of
    it (2 of 22 interrupted cluster runs). The report must not call a written file not started;
    its output is there, renamed into place whole, so it counts as converted."""
    for i, task in enumerate(tasks):
        if results[i] is not None:
            continue
        try:
            written = os.stat(task["output"])
        except OSError:
            continue
        if written.st_mtime_ns >= since_ns - _COARSE_CLOCK_NS:
            results[i] = {"status": "converted", "warnings": task["warnings"],
                          "errors": ([], []), "output_bytes": written.st_size,
                          "milliseconds": 0.0}


def _print_summary(run, interrupted):
    summary = run.report["summary"]
    not_started = sum(1 for f in run.report["files"] if f["status"] == "not-started")
    sys.stdout.write(f"{summary['files']} files: {summary['converted']} converted, "
                     f"{summary['warned']} with warnings, {summary['failed']} failed, "
                     f"{summary['skipped']} skipped"
                     + (f", {not_started} not started (interrupted)" if interrupted else "") + "\n")
    megabytes = sum(f["bytes"] for f in run.report["files"] if f["status"] != "not-started") / 1e6
    seconds = run.report["seconds"]
    sys.stdout.write(f"{megabytes:.1f} MB in {seconds:.2f} s on {run.report['jobs']} workers "
                     f"({megabytes / seconds if seconds > 0 else 0:.1f} MB/s)\n")
