"""Builds the castkit Python module and the castkit CLI with CMake for `pip install .`
(pyproject.toml; python/backend/castkit_build_backend.py checks the build's requirements first).

The extension is the CMake target castkit_python (python/CMakeLists.txt), built for the
interpreter running pip; the CLI, castkit_cli, goes into the package as castkit/bin/castkit,
which the `castkit` command (castkit/_cli.py) runs. Only those two targets and the library are
built (no tests, benchmarks or examples), as unity builds at -O2, with Ninja on every core and
through ccache where it is installed.

Nothing is written into the source tree and nothing is left behind: the CMake build and
setuptools' folders go to one temporary folder, removed when setup.py ends. CASTKIT_BUILD_DIR
names a configured CMake build folder to reuse instead (`make build`'s): its targets are built
there as configured, and its module must be for this interpreter's version. CMAKE_ARGS adds
arguments to the CMake configuration; CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.
"""

import atexit
import importlib.machinery
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = pathlib.Path(__file__).resolve().parent
# One temporary folder per run of setup.py (pip runs it once for the metadata and once for the
# wheel), removed at its end, whatever happens.
SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="castkit-pip-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)
CLI_NAME = "castkit.exe" if os.name == "nt" else "castkit"


def say(message):
    """Progress on standard error (pip shows it with -v, and the whole of it when a build fails)."""
    print(f"castkit: {message}", file=sys.stderr, flush=True)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        reuse = os.environ.get("CASTKIT_BUILD_DIR")
        build = pathlib.Path(reuse or SCRATCH / "cmake").resolve()
        environment = dict(os.environ)
        started = time.monotonic()
        if not reuse:
            configure = ["cmake", "-S", str(SOURCE), "-B", str(build), "-G", "Ninja",
                         "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
                         "-DCASTKIT_PYTHON=ON",
                         # The module and the CLI only: no tests, benchmarks or examples.
                         "-DCASTKIT_BUILD_TOOLS=ON", "-DCASTKIT_BUILD_TESTS=OFF",
                         "-DCASTKIT_BUILD_BENCH=OFF", "-DCASTKIT_BUILD_EXAMPLES=OFF",
                         "-DCASTKIT_INSTALL=OFF",
                         # Every target compiled a batch of sources at a time (the library, the
                         # module, the CLI), at -O2: a third less compile time than file by
                         # file at -O3, for the same speed on the example character's
                         # conversions and bakes (within the noise).
                         "-DCMAKE_UNITY_BUILD=ON", "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"]
            try:
                import pybind11  # pip's pybind11, where Debian's CMake package is not installed
                configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
            except ImportError:
                pass
            extra = shlex.split(os.environ.get("CMAKE_ARGS", ""))
            if shutil.which("ccache") and not any("COMPILER_LAUNCHER" in a for a in extra):
                configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
                # Paths relative to a folder above both the checkout and the build, so that the
                # next pip build (another temporary folder at the same depth) hits the cache.
                environment.setdefault("CCACHE_BASEDIR",
                                       os.path.commonpath([str(SOURCE), str(SCRATCH)]))
                environment.setdefault("CCACHE_NOHASHDIR", "true")
            configure += extra
            say(f"configuring with CMake in {build}")
            if subprocess.run(configure, env=environment).returncode != 0:
                raise SystemExit(
                    "castkit: CMake could not configure the build (its message is above). The C++ "
                    "libraries castkit needs (fmt, glm, simdjson, nlohmann-json, tinygltf, CLI11, "
                    "...) come from Debian's packages: `bash scripts/setup.sh --run` installs "
                    "them (docs/python.md).")
        elif not (build / "CMakeCache.txt").exists():
            raise RuntimeError(f"CASTKIT_BUILD_DIR={reuse} is not a configured CMake build folder")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        say(f"building the module and the CLI on {jobs} jobs (about 3 minutes on 2 "
            "idle cores, under a minute when ccache has them)")
        command = ["cmake", "--build", str(build), "-j", jobs,
                   "--target", "castkit_python", "castkit_python_stubs", "castkit_cli"]
        subprocess.run(command, check=True, env=environment)
        say(f"built in {time.monotonic() - started:.0f} s")

        # The module for this interpreter (its ABI tag is in the file name).
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        built = build / "python" / "castkit" / ("_castkit" + suffix)
        if not built.exists():
            raise RuntimeError(f"{build} holds no castkit module for this interpreter "
                               f"(_castkit{suffix}); configure it for {sys.executable}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # The type stubs the build wrote from the module (python/backend/generate_stub.py).
        for stub in ("_castkit.pyi", "cast.pyi"):
            shutil.copyfile(built.with_name(stub), target.with_name(stub))
        # The CLI beside it, executable (the wheel keeps the mode).
        cli = target.parent / "bin" / CLI_NAME
        cli.parent.mkdir(exist_ok=True)
        shutil.copy2(build / "tools" / "castkit" / CLI_NAME, cli)


setup(
    packages=["castkit"],
    package_dir={"castkit": "python/castkit"},
    package_data={"castkit": ["py.typed"]},
    ext_modules=[CMakeExtension("castkit._castkit")],
    cmdclass={"build_ext": CMakeBuild},
    options={
        "build": {"build_base": str(SCRATCH / "setuptools")},
        "egg_info": {"egg_base": str(SCRATCH)},
    },
    zip_safe=False,
)
