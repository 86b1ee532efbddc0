"""The `castkit` command that `pip install .` puts on the environment's PATH: the C++ CLI itself,
every subcommand (docs/cli.md), shipped inside the package as castkit/bin/castkit (castkit.exe
on Windows). This only hands over to it: on POSIX the Python process becomes the CLI (exec),
so exit codes, signals and standard streams are the CLI's own; on Windows, which has no exec,
the CLI runs as a child and its exit code is returned.
"""

import os
import subprocess
import sys


def executable():
    """The path of the CLI inside the installed package."""
    name = "castkit.exe" if os.name == "nt" else "castkit"
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", name)


def main(argv=None):
    arguments = sys.argv[1:] if argv is None else list(argv)
    program = executable()
    if not os.path.isfile(program):
        sys.stderr.write(f"castkit: the command-line program is missing from the package "
                         f"({program}); reinstall castkit (pip install .)\n")
        return 127
    if os.name == "nt":
        try:
            return subprocess.call([program, *arguments])
        except KeyboardInterrupt:
            return 130
    sys.stdout.flush()
    sys.stderr.flush()
    # argv[0] "castkit", so usage lines name the command as it was typed.
    os.execv(program, ["castkit", *arguments])


if __name__ == "__main__":
    sys.exit(main())
