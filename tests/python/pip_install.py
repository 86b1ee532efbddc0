"""`pip install .` works offline: installs the package into a fresh virtual environment (with
the system's numpy) from the checkout, reusing the build's module (CASTKIT_BUILD_DIR), then
imports it from there. Run by CTest (Python.PipInstall):

    python3 pip_install.py SOURCE_DIR BUILD_DIR WORK_DIR

Exits 77 (skipped) when venv or pip is missing.
"""

import os
import shutil
import subprocess
import sys
import venv

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

before = subprocess.run(["git", "-C", source, "status", "--porcelain", "--ignored"],
                        capture_output=True, text=True).stdout
# pip's and setup.py's temporary folders inside the work folder, not in the system's.
scratch = os.path.join(work, "tmp")
os.makedirs(scratch)
subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
                "--quiet", source],
               check=True, env={**os.environ, "CASTKIT_BUILD_DIR": build, "TMPDIR": scratch})
after = subprocess.run(["git", "-C", source, "status", "--porcelain", "--ignored"],
                       capture_output=True, text=True).stdout
assert before == after, f"pip install wrote into the source tree:\n{after}"

check = f"""
import os, castkit
assert castkit.__file__.startswith({environment!r}), castkit.__file__
folder = os.path.dirname(castkit.__file__)
assert os.path.exists(os.path.join(folder, "py.typed"))
assert os.path.exists(os.path.join(folder, "__init__.pyi"))
doc = castkit.open({os.path.join(source, "examples", "data", "character.cast")!r})
assert doc.models[0].meshes[0].positions.shape == (4, 3)
print("installed:", castkit.__file__)
"""
# From the work folder, so that nothing from the checkout or the build is on the path.
subprocess.run([python, "-c", check], check=True, cwd=work,
               env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
