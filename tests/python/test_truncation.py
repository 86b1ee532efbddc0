"""A file that shrinks after castkit read it cannot kill the interpreter (docs/security.md, "Files
that change while castkit holds them"): on Linux the module maps files under a read lease and
copies the pages in before another program's write goes through; elsewhere it reads files into
memory. Either way arrays keep the values read, whatever happens to the file. Each case runs in
its own process: on failure the process dies of SIGBUS rather than the test run. On Linux each
first checks that the file is mapped (/proc/self/maps), so that the case tests the lease and not
a copy made up front."""

import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import castkit

# Opens the file, cuts it to 3 bytes (sys.argv[3] says how), then reads every array of every
# model and prints their sums, which must be those of an untouched copy.
WORKER = textwrap.dedent(
    """
    import os, subprocess, sys
    import numpy as np
    import castkit

    def sums(doc):
        out = []
        for model in doc.models:
            for mesh in model.meshes:
                for name in mesh.properties:
                    values = mesh[name]
                    if isinstance(values, np.ndarray):
                        out.append(float(values.astype(np.float64).sum()))
        return out

    def mapped(path):
        with open("/proc/self/maps") as maps:
            return any(line.rstrip().endswith(os.path.realpath(path)) for line in maps)

    # Whether the file system grants read leases (else castkit reads the file: what is kept
    # is still checked, not the mapping).
    def leases_granted(path):
        if not sys.platform.startswith("linux"):
            return False
        import fcntl
        with open(path, "rb") as file:
            try:
                fcntl.fcntl(file.fileno(), fcntl.F_SETLEASE, fcntl.F_RDLCK)
                return True
            except OSError:
                return False

    path, untouched, how = sys.argv[1], sys.argv[2], sys.argv[3]
    leased = leases_granted(path)
    doc = castkit.open(path)
    assert mapped(path) or not leased, "the file should be mapped under a lease"
    if how == "truncate":
        os.truncate(path, 3)
    elif how == "rewrite":  # as cast.py's Cast.save does: open("wb") and write
        with open(path, "wb") as f:
            f.write(b"abc")
    elif how == "other-process":
        # (not coreutils truncate: it opens without blocking, and so fails once on a lease)
        subprocess.run(["sh", "-c", 'printf abc > "$0"', path], check=True, timeout=60)
    elif how == "fork":  # a forked child reads after the parent's file was cut short
        reader, writer = os.pipe()
        child = os.fork()
        if child == 0:
            os.read(reader, 1)
            os._exit(0 if sums(doc) == sums(castkit.open(untouched)) else 1)
        os.truncate(path, 3)
        os.write(writer, b"x")
        assert os.waitpid(child, 0)[1] == 0, "the child's values changed"
    assert not (leased and mapped(path)), "the pages should have been copied in"
    assert os.path.getsize(path) == 3
    got = sums(doc)
    expected = sums(castkit.open(untouched))
    assert got == expected and got, (got, expected)
    print("ok", len(got))
    """
)


def large_model(path):
    """A Cast file of many pages: after truncation, touching a mapping of it faults (SIGBUS)."""
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    count = 100_000
    positions = np.arange(count * 3, dtype=np.float32).reshape(count, 3)
    mesh.set_positions(positions)
    mesh.set_faces(np.arange(count - count % 3, dtype=np.uint32).reshape(-1, 3))
    assert doc.write(path) == []


@pytest.mark.parametrize("how", ["truncate", "rewrite", "other-process", "fork"])
def test_an_open_document_survives_its_file_being_truncated(tmp_path, how):
    path = tmp_path / "large.cast"
    untouched = tmp_path / "untouched.cast"
    large_model(path)
    shutil.copyfile(path, untouched)
    assert path.stat().st_size > 1_000_000
    result = subprocess.run([sys.executable, "-c", WORKER, str(path), str(untouched), how],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.startswith("ok ")
