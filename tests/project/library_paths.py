"""No ELF file castkit builds looks for libraries anywhere but fixed folders and its own: every
entry of each one's RPATH and RUNPATH (readelf -d) is an absolute path or starts with $ORIGIN.
The loader reads an empty entry (as CMake's padding of a build RPATH, '::::', has) or a relative
one against the current folder, so a library planted where the program runs would be loaded.

    python3 library_paths.py PATH...

Each PATH is an ELF file or a folder, whose ELF files are all checked. Exits 1, naming each file
and entry, when one is empty or relative, or when no ELF file was found at all. Run by CTest
(Project.NoLibraryFromTheCurrentFolder, on every executable and shared object the build defines)
and by tests/python/pip_install.py (on the installed package).
"""

import os
import re
import subprocess
import sys

# readelf -d:  0x000000000000000f (RPATH)   Library rpath: [$ORIGIN/../lib/castkit]
SEARCH_PATH = re.compile(r"\((RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[(.*)\]")
ANCHORED = re.compile(r"/|\$ORIGIN(/|$)|\$\{ORIGIN\}(/|$)")


def elf_files(path):
    """`path` if it is an ELF file, or the ELF files under it if it is a folder."""
    candidates = [path]
    if os.path.isdir(path):
        candidates = [os.path.join(folder, name)
                      for folder, _, names in os.walk(path) for name in sorted(names)]
    for candidate in candidates:
        if os.path.isfile(candidate) and not os.path.islink(candidate):
            with open(candidate, "rb") as file:
                if file.read(4) == b"\x7fELF":
                    yield candidate


def unanchored_entries(path):
    """[(RPATH or RUNPATH, entry)] of `path` that the loader would read against the current
    folder: empty or not starting with / or $ORIGIN."""
    dynamic = subprocess.run(["readelf", "-d", "-W", path], capture_output=True, text=True,
                             check=True).stdout
    found = [(kind, entry) for kind, entries in SEARCH_PATH.findall(dynamic)
             for entry in entries.split(":") if not ANCHORED.match(entry)]
    return list(dict.fromkeys(found))  # each once: CMake's padding is many empty entries


def main(paths):
    checked, problems = 0, []
    for path in paths:
        if not os.path.exists(path):
            problems.append(f"{path}: not there")
        for file in elf_files(path):
            checked += 1
            problems += [f"{file}: {kind} entry '{entry}' is read against the current folder"
                         for kind, entry in unanchored_entries(file)]
    if checked == 0:
        problems.append(f"no ELF file in {' '.join(paths)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} ELF files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
