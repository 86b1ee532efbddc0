"""`pip install .` and `pip wheel .` work offline: installs the package into a fresh virtual
environment (with the system's numpy) from the checkout, reusing the build's module and CLI
(CASTKIT_BUILD_DIR), imports it from there and runs the `castkit` command pip put in the
environment's bin (the C++ CLI: --help lists every subcommand, info reads a bundled file); then
builds a wheel, installs the wheel into a second fresh environment and does the same from that
one. No binary of either package looks for libraries in the folder it runs in. Each pip call
gets a fresh, empty TMPDIR, which must be empty again afterwards (no build folder left behind). Run by CTest (Python.PipInstall):

    python3 pip_install.py SOURCE_DIR BUILD_DIR WORK_DIR

Exits 77 (skipped) when venv or pip is missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile

source, build, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
environment = os.path.join(work, "venv")
try:
    venv.create(environment, system_site_packages=True, with_pip=True)
except Exception as error:  # ensurepip missing (python3-venv not installed)
    print(f"skipped: cannot make a virtual environment with pip: {error}")
    sys.exit(77)
python = os.path.join(environment, "bin", "python")


def make_environment(name):
    folder = os.path.join(work, name)
    venv.create(folder, system_site_packages=True, with_pip=True)
    return folder, os.path.join(folder, "bin", "python")


def pip(python, *args):
    """pip offline, with its and setup.py's temporary folders in a fresh folder of the work
    folder, which must be empty again when pip is done."""
    scratch = tempfile.mkdtemp(prefix="tmp-", dir=work)
    subprocess.run([python, "-m", "pip", *args, "--no-build-isolation", "--no-index", "--no-deps",
                    "--quiet"],
                   check=True, env={**os.environ, "CASTKIT_BUILD_DIR": build, "TMPDIR": scratch})
    left = os.listdir(scratch)
    assert not left, f"pip {args[0]} left {left} in its TMPDIR"
    os.rmdir(scratch)


def check_import(environment, python):
    """Imports castkit and castkit.cast from `environment` only, and reads the example with both."""
    check = f"""
import os, castkit, castkit.cast
from importlib import metadata
assert castkit.__file__.startswith({environment!r}), castkit.__file__
# Installed as the distribution castkit-toolkit, imported as castkit.
distribution = metadata.distribution("castkit-toolkit")
assert distribution.metadata["Name"] == "castkit-toolkit", distribution.metadata["Name"]
assert any(str(f).startswith("castkit/") for f in distribution.files), "castkit-toolkit has no castkit/"
try:
    metadata.distribution("castkit")
    raise AssertionError("a distribution named castkit is installed: that name is another project's")
except metadata.PackageNotFoundError:
    pass
folder = os.path.dirname(castkit.__file__)
for stub in ("py.typed", "_castkit.pyi", "cast.pyi"):
    assert os.path.exists(os.path.join(folder, stub)), stub
path = {os.path.join(source, "examples", "data", "character.cast")!r}
doc = castkit.open(path)
assert doc.models[0].meshes[0].positions.shape == (4, 3)
mesh = castkit.cast.Cast.load(path).Roots()[0].ChildrenOfType(castkit.cast.Model)[0].Meshes()[0]
assert len(mesh.VertexPositionBuffer()) == 12
print("installed:", castkit.__file__)
"""
    # From the work folder, so that nothing from the checkout or the build is on the path.
    subprocess.run([python, "-c", check], check=True, cwd=work,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})


def check_command(environment):
    """The `castkit` command in the environment's bin is the C++ CLI, every subcommand."""
    castkit = os.path.join(environment, "bin", "castkit")
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def run(*args):
        done = subprocess.run([castkit, *args], cwd=work, env=environ, capture_output=True,
                              text=True)
        assert done.returncode == 0, f"castkit {args} exited {done.returncode}:\n{done.stderr}"
        return done.stdout

    usage = run("--help")
    for command in ("info", "dump", "convert", "validate", "pose", "bake"):
        assert f"\n  {command} " in usage, f"castkit --help lists no {command}:\n{usage}"
    hero = os.path.join(source, "examples", "data", "hero", "hero.glb")
    summary = run("info", hero)
    assert "hero.glb" in summary and "walk" in summary, summary
    # Exit codes come through: 2 for a usage error.
    wrong = subprocess.run([castkit, "no-such-command"], cwd=work, env=environ,
                           capture_output=True)
    assert wrong.returncode == 2, f"castkit no-such-command exited {wrong.returncode}"
    print("installed:", castkit)


def check_library_paths(python):
    """The installed package's module and CLI look for libraries in fixed folders only, never
    in the folder they run in (tests/project/library_paths.py)."""
    where = "import castkit, os; print(os.path.dirname(castkit.__file__))"
    package = subprocess.run([python, "-c", where], check=True, cwd=work, capture_output=True,
                             text=True).stdout.strip()
    subprocess.run([sys.executable, os.path.join(source, "tests", "project", "library_paths.py"),
                    package], check=True)


def source_state():
    return subprocess.run(["git", "-C", source, "status", "--porcelain", "--ignored"],
                          capture_output=True, text=True).stdout


before = source_state()
pip(python, "install", source)
check_import(environment, python)
check_command(environment)
check_library_paths(python)

wheels = os.path.join(work, "wheels")
pip(python, "wheel", "--wheel-dir", wheels, source)
# The distribution is castkit-toolkit (a wheel's name spells it castkit_toolkit); the import name
# castkit (docs/python.md, "Building and installing").
built = [name for name in os.listdir(wheels)
         if name.startswith("castkit_toolkit-") and name.endswith(".whl")]
assert len(built) == 1, f"pip wheel made {os.listdir(wheels)}"
with zipfile.ZipFile(os.path.join(wheels, built[0])) as wheel:
    cli = wheel.getinfo("castkit/bin/castkit")
    assert (cli.external_attr >> 16) & 0o111, "the wheel's castkit/bin/castkit is not executable"
wheel_environment, wheel_python = make_environment("wheel-venv")
pip(wheel_python, "install", os.path.join(wheels, built[0]))
check_import(wheel_environment, wheel_python)
check_command(wheel_environment)
check_library_paths(wheel_python)

after = source_state()
assert before == after, f"pip wrote into the source tree:\n{after}"
