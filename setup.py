"""Builds the castkit Python module and the castkit CLI with CMake for `pip install .`
(pyproject.toml).

The extension is the CMake target castkit_python (python/CMakeLists.txt), built for the
interpreter running pip; the CLI, castkit_cli, goes into the package as castkit/bin/castkit,
which the `castkit` command (castkit/_cli.py) runs. Nothing is written into the source tree:
setuptools' build folders and the CMake build go to a temporary folder. CASTKIT_BUILD_DIR names a configured CMake build
folder to reuse instead (`make build`'s): its targets are built there as configured, and must be
for this interpreter's version. CMAKE_ARGS adds arguments to the CMake configuration (e.g.
-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.
"""

import hashlib
import importlib.machinery
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = pathlib.Path(__file__).resolve().parent
CLI_NAME = "castkit.exe" if os.name == "nt" else "castkit"
# A folder of its own per checkout and interpreter, outside the checkout.
SCRATCH = pathlib.Path(tempfile.gettempdir()) / (
    "castkit-pip-" + hashlib.sha1(f"{SOURCE}:{sys.executable}".encode()).hexdigest()[:12])


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        reuse = os.environ.get("CASTKIT_BUILD_DIR")
        build = pathlib.Path(reuse or SCRATCH / "cmake").resolve()
        if not reuse:
            configure = ["cmake", "-S", str(SOURCE), "-B", str(build),
                         "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
                         "-DCASTKIT_PYTHON=ON"]
            if not (build / "CMakeCache.txt").exists():
                if shutil.which("ninja"):
                    configure += ["-G", "Ninja"]
                # The module and the CLI only: no tests, benchmarks or examples.
                configure += ["-DCASTKIT_BUILD_TOOLS=ON", "-DCASTKIT_BUILD_TESTS=OFF",
                              "-DCASTKIT_BUILD_BENCH=OFF", "-DCASTKIT_BUILD_EXAMPLES=OFF",
                              "-DCASTKIT_INSTALL=OFF"]
            configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
        elif not (build / "CMakeCache.txt").exists():
            raise RuntimeError(f"CASTKIT_BUILD_DIR={reuse} is not a configured CMake build folder")
        command = ["cmake", "--build", str(build), "--target", "castkit_python", "castkit_cli"]
        if "CMAKE_BUILD_PARALLEL_LEVEL" not in os.environ:
            command += ["-j", str(os.cpu_count() or 1)]
        subprocess.run(command, check=True)
        # The module for this interpreter (its ABI tag is in the file name).
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        built = build / "python" / "castkit" / ("_castkit" + suffix)
        if not built.exists():
            raise RuntimeError(f"{build} holds no castkit module for this interpreter "
                               f"(_castkit{suffix}); configure it for {sys.executable}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # The CLI beside it, executable (the wheel keeps the mode).
        cli = target.parent / "bin" / CLI_NAME
        cli.parent.mkdir(exist_ok=True)
        shutil.copy2(build / "tools" / "castkit" / CLI_NAME, cli)


setup(
    packages=["castkit"],
    package_dir={"castkit": "python/castkit"},
    package_data={"castkit": ["py.typed", "__init__.pyi", "cast.pyi"]},
    ext_modules=[CMakeExtension("castkit._castkit")],
    cmdclass={"build_ext": CMakeBuild},
    options={
        "build": {"build_base": str(SCRATCH / "setuptools")},
        "egg_info": {"egg_base": str(SCRATCH)},
    },
    zip_safe=False,
)
