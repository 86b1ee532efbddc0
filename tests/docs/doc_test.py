#!/usr/bin/env python3
"""Runs every shell, C++ and Python block of README.md and docs/*.md exactly as written.

A user meets the docs before the code, so each block is run the way a user would run it: from a
scratch copy of the repository (its tracked files), with the built `castkit` on PATH and the
built Python module importable, and it must succeed without a compiler warning:

- ```sh blocks: each command (lines joined at a trailing backslash) runs in bash from the copy's
  root and must exit 0, or N where its comment says "exits N". A block with a loop, a
  condition or a here-document runs as one script under `set -euo pipefail`. `castkit view`
  runs as a user runs it: the browser it opens is a stand-in that fetches the page it was given
  (which must answer 200), then the server is stopped.
- transcripts (a block whose lines start with "$ "): each command runs, and what it prints
  (standard output and error together) must be the lines that follow it.
- ```cpp blocks: each is a whole program, built against the installed package
  (`find_package(castkit)`) with -Wall -Wextra -Werror, then run from the copy's root.
- ```python blocks: run with the interpreter the module was built for.
- ```json blocks must parse.
- README.md's commands must leave the copy as `git status` in a fresh clone would call clean:
  every file they write is one .gitignore ignores (its examples write into `scratch/`), and no
  tracked file changed.

A block that must not run carries `<!-- doc-test: skip: REASON -->` on the line before its
fence; the test counts them and prints each reason. Any other block (no language, yaml, cmake)
is text and is counted as such. The last line is "N passed, N failed".

Usage: doc_test.py SOURCE_DIR BUILD_DIR WORK_DIR
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
MARK = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
EXITS = re.compile(r"#.*\bexits (\d+)")
COMPOUND = re.compile(r"^\s*(for|while|until|if|case|function)\b|<<")
SHELL = {"sh", "bash", "shell"}
COMMAND_TIMEOUT = 300


@dataclass
class Block:
    document: str
    line: int  # of the opening fence, 1-based
    language: str
    lines: list[str]
    marks: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.document}:{self.line}"

    def skip_reason(self) -> str | None:
        for mark in self.marks:
            if mark.startswith("skip:"):
                return mark[len("skip:"):].strip()
        return None


def blocks_of(path: Path, name: str) -> list[Block]:
    """The fenced blocks of one Markdown file, with the doc-test marks just above each."""
    found: list[Block] = []
    marks: list[str] = []
    current: Block | None = None
    indent = ""
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(text)
        if current is not None:
            if fence and fence.group(1) == indent and not fence.group(2):
                found.append(current)
                current = None
            else:
                current.lines.append(text[len(indent):] if text.startswith(indent) else text)
            continue
        if fence:
            indent = fence.group(1)
            current = Block(name, number, fence.group(2).lower(), [], marks)
            marks = []
            continue
        mark = MARK.match(text)
        if mark:
            marks.append(mark.group(1))
        elif text.strip():
            marks = []
    if current is not None:
        raise SystemExit(f"{name}:{current.line}: a code block is never closed")
    return found


def is_transcript(block: Block) -> bool:
    first = next((line for line in block.lines if line.strip()), "")
    return first.startswith("$ ")


class Runner:
    def __init__(self, source: Path, build: Path, work: Path):
        self.source, self.build, self.work = source, build, work
        self.copy = work / "repo"
        self.failures: list[str] = []
        self.failed_blocks: set[str] = set()
        self.ran: dict[str, int] = {}
        self.skipped: list[str] = []
        self.text_blocks = 0
        self.env = self._environment()
        self.prefix: Path | None = None
        # Each tracked file of the copy: its size and modification time when it was copied.
        self.copied: dict[str, tuple[int, int]] = {}

    def _environment(self) -> dict[str, str]:
        env = dict(os.environ)
        tools = self.work / "tools"
        tools.mkdir(parents=True, exist_ok=True)
        # The browser `castkit view` opens: records the address, so the test can fetch it.
        opener = tools / "xdg-open"
        opener.write_text('#!/bin/sh\nprintf "%s\\n" "$1" >> "$DOC_TEST_OPENED"\n')
        opener.chmod(0o755)
        # `python3` is the interpreter castkit's module was built for, as for a user who
        # installed castkit for the Python they run.
        (tools / "python3").symlink_to(sys.executable)
        env["PATH"] = os.pathsep.join(
            [str(tools), str(self.build / "tools" / "castkit"), env.get("PATH", "")])
        env["PYTHONPATH"] = str(self.build / "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["DOC_TEST_OPENED"] = str(self.work / "opened.txt")
        env.pop("CASTKIT_CLI", None)
        env.pop("BROWSER", None)  # which castkit view would run instead of the opener above
        return env

    def fresh_copy(self) -> None:
        """The repository's tracked files, as a fresh clone has them."""
        if self.copy.exists():
            shutil.rmtree(self.copy)
        self.copied = {}
        listed = subprocess.run(["git", "-C", str(self.source), "ls-files", "-z"],
                                capture_output=True, check=False)
        if listed.returncode == 0 and listed.stdout:
            for name in listed.stdout.decode().split("\0"):
                if not name:
                    continue
                source = self.source / name
                if source.is_file():
                    target = self.copy / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, target)
                    stat = target.stat()
                    self.copied[name] = (stat.st_size, stat.st_mtime_ns)
        else:
            shutil.copytree(self.source, self.copy, ignore=shutil.ignore_patterns(
                ".git", "build*", "node_modules", "__pycache__"))
        # The build folder the docs name (build/tools/castkit/castkit, build/python) is the
        # test's own build.
        (self.copy / "build").symlink_to(self.build, target_is_directory=True)

    def unclean(self) -> list[str]:
        """What `git status` in a clone would show after the blocks ran in the copy: files the
        repository neither tracks nor ignores, and tracked files that changed or went away."""
        if not self.copied:
            return []  # not copied from a git checkout: nothing to compare with
        changed = [name for name, (size, mtime) in self.copied.items()
                   if not (self.copy / name).is_file()
                   or ((self.copy / name).stat().st_size,
                       (self.copy / name).stat().st_mtime_ns) != (size, mtime)]
        untracked = []
        for folder, folders, files in os.walk(self.copy):
            if Path(folder) == self.copy:
                folders[:] = [f for f in folders if f != "build"]  # the test's own build
            for file in files:
                name = (Path(folder) / file).relative_to(self.copy).as_posix()
                if name not in self.copied:
                    untracked.append(name)
        ignored = set(subprocess.run(
            ["git", "-C", str(self.source), "check-ignore", "--no-index", "--stdin"],
            input="\n".join(untracked), capture_output=True, text=True).stdout.splitlines())
        return sorted(changed) + sorted(f"{name} (not ignored)" for name in untracked
                                        if name not in ignored)

    def fail(self, block: Block, message: str) -> None:
        self.failures.append(f"{block.where}: {message}")
        self.failed_blocks.add(block.where)
        print(f"FAIL {block.where}: {message}", flush=True)

    def count(self, kind: str) -> None:
        self.ran[kind] = self.ran.get(kind, 0) + 1

    # --- shell -----------------------------------------------------------------------------

    @staticmethod
    def commands(block: Block) -> list[str]:
        """The block's commands: comment-only and blank lines dropped, continuations joined."""
        commands, pending = [], ""
        for line in block.lines:
            if not pending and (not line.strip() or line.lstrip().startswith("#")):
                continue
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            commands.append(pending + line)
            pending = ""
        if pending:
            commands.append(pending)
        return commands

    def run_shell(self, block: Block) -> None:
        self.count("sh")
        if any(COMPOUND.search(line) for line in block.lines):
            self.run_command(block, "set -euo pipefail\n" + "\n".join(block.lines), 0)
            return
        for command in self.commands(block):
            expected = EXITS.search(command)
            if re.match(r"\s*castkit view\b", command):
                self.run_view(block, command)
            else:
                self.run_command(block, command, int(expected.group(1)) if expected else 0)

    def run_command(self, block: Block, command: str, expected: int | None) -> str:
        """Runs `command` from the copy's root; fails unless it exits `expected` (None: any)."""
        try:
            # One stream, as a terminal shows them: in the order they were written.
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=self.copy,
                                  env=self.env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.fail(block, f"`{command.strip()}` did not end within {COMMAND_TIMEOUT} s")
            return ""
        output = done.stdout.decode("utf-8", "replace")
        if expected is not None and done.returncode != expected:
            self.fail(block, f"`{command.strip()}` exited {done.returncode}, expected "
                      f"{expected}:\n{output}")
        return output

    def run_view(self, block: Block, command: str) -> None:
        """`castkit view` as a user runs it: it opens the browser, the page answers, Ctrl-C."""
        opened = Path(self.env["DOC_TEST_OPENED"])
        opened.unlink(missing_ok=True)
        process = subprocess.Popen(["bash", "-c", "exec " + command], cwd=self.copy,
                                   env=self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while not (opened.exists() and opened.read_text().strip()):
                if process.poll() is not None or time.monotonic() > deadline:
                    output = process.stdout.read().decode("utf-8", "replace") \
                        if process.poll() is not None else ""
                    self.fail(block, f"`{command}` opened no browser:\n{output}")
                    return
                time.sleep(0.05)
            url = opened.read_text().split()[0]
            if not url.startswith("http://"):  # a private page that leads to the address
                leads = re.search(r'url=(http://[^"]+)"', Path(url).read_text())
                url = leads.group(1) if leads else url
            with urllib.request.urlopen(url, timeout=30) as page:
                if page.status != 200 or b"<html" not in page.read(4096).lower():
                    self.fail(block, f"`{command}`: {url} answered {page.status}")
        except OSError as error:
            self.fail(block, f"`{command}`: the page did not answer: {error}")
        finally:
            process.terminate()
            process.wait(timeout=30)

    def run_transcript(self, block: Block) -> None:
        self.count("transcript")
        steps: list[tuple[str, list[str]]] = []
        for line in block.lines:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        for command, expected in steps:
            # A transcript shows what a command prints; its exit status shows only when the
            # transcript prints it too (`; echo $?`).
            output = self.run_command(block, command, None)
            want = "\n".join(expected).rstrip()
            if output.rstrip() != want:
                self.fail(block, f"`{command}` printed:\n{output.rstrip()}\nthe doc says:\n{want}")

    # --- C++ and Python --------------------------------------------------------------------

    def install_prefix(self) -> Path:
        if self.prefix is None:
            self.prefix = self.work / "prefix"
            subprocess.run(["cmake", "--install", str(self.build), "--prefix", str(self.prefix)],
                           check=True, capture_output=True)
        return self.prefix

    def run_cpp(self, blocks: list[Block]) -> None:
        if not blocks:
            return
        project = self.work / "cpp"
        shutil.rmtree(project, ignore_errors=True)
        project.mkdir()
        lines = ["cmake_minimum_required(VERSION 3.21)", "project(doc_snippets CXX)",
                 "set(CMAKE_CXX_STANDARD 20)", "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
                 "find_package(castkit REQUIRED)"]
        for index, block in enumerate(blocks):
            (project / f"snippet{index}.cpp").write_text("\n".join(block.lines) + "\n")
            lines += [f"add_executable(snippet{index} snippet{index}.cpp)",
                      f"target_link_libraries(snippet{index} PRIVATE castkit::castkit)",
                      f"target_compile_options(snippet{index} PRIVATE -Wall -Wextra -Werror)"]
        (project / "CMakeLists.txt").write_text("\n".join(lines) + "\n")
        configure = subprocess.run(
            ["cmake", "-S", str(project), "-B", str(project / "build"), "-G", "Ninja",
             f"-DCMAKE_PREFIX_PATH={self.install_prefix()}", "-DCMAKE_BUILD_TYPE=Release",
             "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"],
            capture_output=True, text=True, env=self.env)
        if configure.returncode != 0:
            self.fail(blocks[0], f"configuring the C++ snippets failed:\n{configure.stderr}")
            return
        for index, block in enumerate(blocks):
            self.count("cpp")
            built = subprocess.run(
                ["cmake", "--build", str(project / "build"), "--target", f"snippet{index}"],
                capture_output=True, text=True, env=self.env)
            if built.returncode != 0:
                self.fail(block, f"does not compile without warnings:\n{built.stdout[-4000:]}")
                continue
            self.run_command(block, str(project / "build" / f"snippet{index}"), 0)

    def run_python(self, block: Block) -> None:
        self.count("python")
        script = self.work / "snippet.py"
        script.write_text("\n".join(block.lines) + "\n")
        self.run_command(block, f"{sys.executable} {script}", 0)

    def check_json(self, block: Block) -> None:
        self.count("json")
        try:
            json.loads("\n".join(block.lines))
        except json.JSONDecodeError as error:
            self.fail(block, f"not valid JSON: {error}")


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    source, build, work = (Path(p).resolve() for p in sys.argv[1:])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    runner = Runner(source, build, work)
    documents = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    for document in documents:
        name = str(document.relative_to(source))
        blocks = blocks_of(document, name)
        runner.fresh_copy()
        cpp: list[Block] = []
        for block in blocks:
            reason = block.skip_reason()
            if reason is not None:
                runner.skipped.append(f"{block.where} ({block.language or 'text'}): {reason}")
            elif is_transcript(block):
                runner.run_transcript(block)
            elif block.language in SHELL:
                runner.run_shell(block)
            elif block.language == "cpp":
                cpp.append(block)
            elif block.language == "python":
                runner.run_python(block)
            elif block.language == "json":
                runner.check_json(block)
            else:
                runner.text_blocks += 1
        runner.run_cpp(cpp)
        if name == "README.md" and blocks:
            left = runner.unclean()
            if left:
                runner.fail(blocks[0], "the README's commands leave the clone unclean "
                            "(write into scratch/, which .gitignore ignores): " + ", ".join(left))
    ran = sum(runner.ran.values())
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(runner.ran.items()))
    print(f"doc test: {len(documents)} documents; ran {ran} blocks ({kinds}); "
          f"{len(runner.skipped)} marked not to run; {runner.text_blocks} text blocks")
    for skipped in runner.skipped:
        print(f"  not run: {skipped}")
    failed = len(runner.failed_blocks)
    print(f"{ran - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
