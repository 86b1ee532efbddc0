"""Finding castkit and running it: the CLI carried in the add-on, else one on PATH, unless the
preferences name one."""

import os
import re
import shutil
import stat
import subprocess
import sys

EXECUTABLE = "castkit.exe" if sys.platform == "win32" else "castkit"
# Blender on Windows would open a console window for every castkit run.
NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)


class CastkitError(Exception):
    """castkit exited with an error; the message is castkit's own."""


def bundled():
    """The castkit the add-on's zip carries for this platform, if any."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", EXECUTABLE)
    return path if os.path.isfile(path) else None


def locate(explicit=""):
    """(path, where it came from) of the castkit to run, or (None, None)."""
    if explicit:
        return absolute_path(explicit), "preferences"
    path = bundled()
    if path:
        return path, "bundled with the add-on"
    path = shutil.which("castkit")
    if path:
        return path, "PATH"
    return None, None


def absolute_path(path):
    """A path from the preferences, '//' (relative to the .blend) resolved."""
    try:
        import bpy
        return bpy.path.abspath(path)
    except ImportError:
        return path


def make_runnable(path):
    """Python's zipfile, which installs add-ons and extensions, drops the executable bit."""
    if sys.platform != "win32" and not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def run(path, args):
    """Runs castkit; returns its warning lines, raises CastkitError with its message."""
    if not path:
        raise CastkitError("castkit was not found: none is bundled with the add-on, none is on "
                           "PATH, and the add-on's preferences name none")
    if not os.path.isfile(path):
        raise CastkitError(f"{path}: no castkit program there (the add-on's preferences say "
                           "which castkit it runs)")
    make_runnable(path)
    try:
        done = subprocess.run([path] + [str(a) for a in args], capture_output=True, text=True,
                              errors="replace", creationflags=NO_WINDOW)
    except OSError as error:
        raise CastkitError(f"{path}: {error}") from error
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if done.returncode != 0:
        raise CastkitError("\n".join(lines) or f"castkit exited with {done.returncode}")
    return lines, done.stdout


def version(path):
    """`castkit --version`'s line, or why there is none."""
    try:
        return run(path, ["--version"])[1].strip()
    except CastkitError as error:
        return f"not runnable: {error}"


COUNTS = re.compile(r"^root \d+: (\d+) models?, (\d+) animations?, (\d+) instances?", re.M)


def contents(path, file):
    """(models, animations, instances) in `file`, summed over its roots (`castkit info`)."""
    totals = [0, 0, 0]
    for match in COUNTS.finditer(run(path, ["info", file])[1]):
        totals = [t + int(n) for t, n in zip(totals, match.groups())]
    return tuple(totals)
