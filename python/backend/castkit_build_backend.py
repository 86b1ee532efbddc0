"""pip's build backend for castkit (pyproject.toml): setuptools' own (setup.py builds with CMake),
after a check, before anything is configured or compiled, that this environment has every
build requirement. `pip install --no-build-isolation .` builds with the packages of the
environment pip runs in, and without this check a missing one shows only minutes into the
build, or as setuptools' "invalid command 'bdist_wheel'" (no `wheel` package beside a
setuptools older than 70.1, as in a virtual environment without Debian's packages or one of
pyenv's). The message names each missing package and how to get it, for Debian's python3 and
for any other interpreter.
"""

import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig

CMAKE_MINIMUM = (3, 21)


def _debian_python():
    return sys.base_prefix == "/usr" and os.path.exists("/etc/debian_version")


def _venv_without_system_packages():
    if sys.prefix == sys.base_prefix:
        return False
    try:
        with open(os.path.join(sys.prefix, "pyvenv.cfg")) as config:
            text = config.read()
    except OSError:
        return False
    return not re.search(r"^\s*include-system-site-packages\s*=\s*true\s*$", text,
                         re.IGNORECASE | re.MULTILINE)


def _python_package(module, debian, pip_name):
    """(what, how) when the Python module is missing from this environment, else None."""
    if importlib.util.find_spec(module) is not None:
        return None
    if _debian_python():
        how = f"apt-get install {debian}"
        if _venv_without_system_packages():
            how += " (then a virtual environment that sees it, below)"
    else:
        how = f"pip install {pip_name} (from PyPI), or build with Debian's /usr/bin/python3"
    return pip_name, how


def _program(names, debian, pip_name=None):
    if any(shutil.which(name) for name in names):
        return None
    how = f"apt-get install {debian}"
    if pip_name:
        how += f", or pip install {pip_name}"
    return names[0], how


def _setuptools_missing():
    missing = []
    problem = _python_package("setuptools", "python3-setuptools", "setuptools")
    if problem:
        return [problem]
    # setuptools before 70.1 makes wheels with the `wheel` package's bdist_wheel.
    if importlib.util.find_spec("setuptools.command.bdist_wheel") is None:
        problem = _python_package("wheel", "python3-wheel", "wheel")
        if problem:
            missing.append(problem)
    return missing


def _pybind11_found():
    if importlib.util.find_spec("pybind11") is not None:
        return True
    if "pybind11_DIR" in os.environ.get("CMAKE_ARGS", ""):
        return True
    prefixes = [sys.prefix, "/usr/local", "/usr"]
    prefixes += [p for p in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep) if p]
    for prefix in prefixes:
        for pattern in ("lib/cmake/pybind11*", "lib/*/cmake/pybind11*", "share/cmake/pybind11*",
                        "share/pybind11*"):
            if glob.glob(os.path.join(prefix, pattern, "pybind11Config.cmake")):
                return True
    return False


def _build_missing():
    missing = _setuptools_missing()
    problem = _python_package("numpy", "python3-numpy", "numpy")
    if problem:
        missing.append(problem)
    else:
        try:
            import numpy
            if not os.path.exists(os.path.join(numpy.get_include(), "numpy", "arrayobject.h")):
                missing.append(("numpy's C headers", "apt-get install python3-numpy, "
                                "or pip install numpy"))
        except Exception as error:  # numpy there but broken
            missing.append((f"a working numpy ({error})", "pip install numpy, or apt-get "
                            "install python3-numpy"))
    include = sysconfig.get_path("include") or ""
    if not os.path.exists(os.path.join(include, "Python.h")):
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        missing.append((f"Python {version}'s C headers (Python.h in {include})",
                        f"apt-get install python3-dev (python{version}-dev)"))
    if not _pybind11_found():
        missing.append(("pybind11", "apt-get install pybind11-dev, or pip install pybind11"))
    cmake = _program(["cmake"], "cmake", "cmake")
    if cmake:
        missing.append(cmake)
    else:
        output = subprocess.run(["cmake", "--version"], capture_output=True, text=True).stdout
        found = re.search(r"(\d+)\.(\d+)", output)
        if not found or tuple(map(int, found.groups())) < CMAKE_MINIMUM:
            missing.append((f"CMake {CMAKE_MINIMUM[0]}.{CMAKE_MINIMUM[1]} or newer (found "
                            f"{found.group(0) if found else 'none'})",
                            "apt-get install cmake, or pip install cmake"))
    for problem in (_program(["ninja"], "ninja-build", "ninja"),
                    _program([os.environ.get("CXX", "c++"), "g++", "clang++"], "g++")):
        if problem:
            missing.append(problem)
    return missing


def _require(missing):
    if not missing:
        return
    lines = [f"castkit cannot be built by {sys.executable}: it lacks"]
    lines += [f"  - {what}: {how}" for what, how in missing]
    if any("virtual environment" in how for _, how in missing):
        lines += [f"This virtual environment ({sys.prefix}) does not see Debian's Python packages: "
                  "make it with `/usr/bin/python3 -m venv --system-site-packages DIR`."]
    lines += ["(`pip install --no-build-isolation --no-index .` builds with this environment's "
              "packages; docs/python.md)"]
    raise SystemExit("\n".join(lines))


def _setuptools():
    from setuptools import build_meta
    return build_meta


def _setuptools_only():
    problem = _python_package("setuptools", "python3-setuptools", "setuptools")
    return [problem] if problem else []


# The hooks of PEP 517, and of PEP 660 where this setuptools has them (64 and newer). Those that
# build or describe a wheel check everything the build needs; the sdist and get_requires hooks
# only setuptools (with build isolation, pip installs what get_requires names before the other
# hooks run).
def _checked(name, check):
    def hook(*args, **kwargs):
        _require(check())
        return getattr(_setuptools(), name)(*args, **kwargs)
    hook.__name__ = name
    return hook


for _name in ("get_requires_for_build_wheel", "get_requires_for_build_sdist", "build_sdist"):
    globals()[_name] = _checked(_name, _setuptools_only)
for _name in ("prepare_metadata_for_build_wheel", "build_wheel"):
    globals()[_name] = _checked(_name, _build_missing)
_EDITABLE = {"get_requires_for_build_editable": _setuptools_only,
             "prepare_metadata_for_build_editable": _build_missing,
             "build_editable": _build_missing}


def __getattr__(name):
    """The editable hooks, only where setuptools has them (pip asks with getattr)."""
    if name in _EDITABLE:
        try:
            present = hasattr(_setuptools(), name)
        except ImportError:  # the hook's check names setuptools
            present = True
        if present:
            return _checked(name, _EDITABLE[name])
    raise AttributeError(name)
