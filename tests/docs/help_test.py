#!/usr/bin/env python3
"""Runs every example that `castkit COMMAND --help` ends with, exactly as written.

Each command's help ends with "Examples (from the top of castkit's source folder, after mkdir -p
scratch):" and one command a line. Every command castkit lists in `castkit --help` must have at least one, and each
runs as doc_test.py runs a shell block of the docs: from a scratch copy of the repository's
tracked files, with the built `castkit` on PATH, and must exit 0 (`castkit view` opens its page,
which must answer, and is stopped). The outputs the examples name go into scratch/, which
.gitignore ignores and the heading says to make. The last line is "N passed, N failed".

Usage: help_test.py SOURCE_DIR BUILD_DIR WORK_DIR
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_test import Block, Runner  # noqa: E402  (the doc test's runner, shared)

HEADING = "Examples (from the top of castkit's source folder, after mkdir -p scratch):"


def commands_of(castkit: Path) -> list[str]:
    """The commands `castkit --help` lists under SUBCOMMANDS."""
    text = subprocess.run([str(castkit), "--help"], capture_output=True, text=True,
                          check=True).stdout
    parts = re.split(r"^Subcommands:$", text, maxsplit=1, flags=re.MULTILINE | re.IGNORECASE)
    listed = parts[1].split(HEADING, 1)[0] if len(parts) == 2 else ""
    return re.findall(r"^\s{2}(\w+)\s", listed, re.MULTILINE)


def examples_of(castkit: Path, command: str) -> list[str]:
    """The lines under the help's examples heading (of `castkit --help` for ""): each a
    command."""
    arguments = [command, "--help"] if command else ["--help"]
    text = subprocess.run([str(castkit), *arguments], capture_output=True, text=True,
                          check=True).stdout
    if HEADING not in text:
        return []
    return [line.strip() for line in text.split(HEADING, 1)[1].splitlines() if line.strip()]


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    source, build, work = (Path(p).resolve() for p in sys.argv[1:])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    castkit = build / "tools" / "castkit" / "castkit"
    runner = Runner(source, build, work)
    runner.fresh_copy()
    (runner.copy / "scratch").mkdir(exist_ok=True)
    commands = commands_of(castkit)
    if not commands:
        print("FAIL castkit --help lists no commands")
        return 1
    helps = ["", *commands]  # castkit --help, then each command's
    missing = []
    for command in helps:
        where = " ".join(["castkit", command, "--help"]).replace("  ", " ")
        examples = examples_of(castkit, command)
        if not examples:
            missing.append(where)
            continue
        print(f"{where}: {len(examples)} examples", flush=True)
        runner.run_shell(Block(where, 1, "sh", examples))
    for where in missing:
        print(f"FAIL {where}: no examples", flush=True)
    failed = len(runner.failed_blocks) + len(missing)
    print(f"help test: castkit and {len(commands)} commands ({', '.join(commands)})")
    print(f"{len(helps) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
