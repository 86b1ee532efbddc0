"""castkit never loads a library from the folder it runs in: for each library the CLI loads, a
stand-in under its name (tests/project/planted_library.cpp, whose constructor writes
"planted-library-loaded" into the current folder) in an empty folder, and `castkit info` of a
bundled file run there, as a user runs it in a folder of downloaded assets. It must print the
file's summary, exit 0 and leave no marker. Run by CTest
(Package.CliLoadsNoLibraryFromTheCurrentFolder):

    python3 planted_library.py CLI PLANTED_LIBRARY INPUT WORK_DIR
"""

import os
import re
import shutil
import subprocess
import sys

cli, planted, input_file, work = sys.argv[1:5]
# glibc's own libraries, the compiler's runtime and the sanitizers': a stand-in under their names
# lacks the symbol versions they carry, which ends the program before anything is planted's.
RUNTIME = re.compile(r"(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|lib[alt]san|"
                     r"libubsan|ld-linux[^ ]*)\.so")

environment = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# Every library the CLI loads, its own and those they load (an RPATH applies to all of them),
# listed from a folder that holds nothing.
listed = subprocess.run(["ldd", cli], capture_output=True, text=True, check=True, cwd=work,
                        env=environment).stdout
names = sorted(line.split()[0] for line in listed.splitlines()
               if " => " in line and not RUNTIME.match(line.split()[0]))
assert names, f"ldd lists no library of castkit's own beyond the runtime's:\n{listed}"


def planted_run(name):
    """The problems of `castkit info` run in a folder holding the stand-in named `name`."""
    folder = os.path.join(work, name)
    os.makedirs(folder)
    shutil.copyfile(planted, os.path.join(folder, name))
    done = subprocess.run([cli, "info", input_file], capture_output=True, text=True,
                          cwd=folder, env=environment)
    problems = []
    if os.path.exists(os.path.join(folder, "planted-library-loaded")):
        problems.append(f"castkit loaded the {name} planted in its current folder")
    if done.returncode != 0:
        problems.append(f"castkit info beside a planted {name} exited {done.returncode}: "
                        f"{done.stderr.strip()}")
    elif os.path.basename(input_file) not in done.stdout:
        problems.append(f"castkit info beside a planted {name} printed:\n{done.stdout}")
    return problems


# One library at a time: castkit calls most of a library's functions only when it needs them,
# so it runs on beside a stand-in, as beside a planted copy that does its work too.
problems = [problem for name in names for problem in planted_run(name)]
print(f"{len(names)} libraries planted one at a time in {work}: {' '.join(names)}")
for problem in problems:
    print(problem, file=sys.stderr)
if not problems:
    shutil.rmtree(work)
sys.exit(1 if problems else 0)
