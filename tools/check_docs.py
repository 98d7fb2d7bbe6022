#!/usr/bin/env python3
"""Runs the shell examples of README.md and docs/*.md and checks their output.

Usage:
    python3 tools/check_docs.py [--seedkit PATH | --build] [--timeout S] [--keep] [-v] [FILE.md ...]

What counts as an example (issue 7: "each example in the README and docs/ runs as shown"):

* Fenced blocks whose info string is ``sh`` (or ``shell``). In a block, a line starting with
  ``$ `` is a command and the lines after it, up to the next ``$ `` line or the end of the
  block, are its expected output. A command line ending in ``\\`` continues on the next line,
  and lines starting with ``> `` right after a command continue it, as the shell's
  continuation prompt shows them (a here-document: ``$ cat > plan.yaml <<'EOF'``, ``> …``,
  ``> EOF``).
* A block without ``$ `` lines is a list of commands: each non-blank, non-comment line is run
  and must exit 0; its output is not checked.
* An HTML comment ``<!-- check-docs: skip … -->`` on the last non-blank line before the fence
  skips the block (for ``swift test``, release builds, long benchmarks). Write the reason after
  ``skip``.
* A command's expected exit status is 0, or N when its line carries a comment ``# exit N``
  (``seedkit diff A B   # exit 1: they differ``).

How a file's examples run:

* In a fresh temporary directory holding a copy of the repository's ``SeedData/`` (without any
  ``*.sqlite*`` files a local run left there), so nothing is written into the repository. The
  blocks of one Markdown file run in order in the same directory, as a reader following the
  page would; each Markdown file starts from a fresh copy. ``cd`` carries over between the
  commands of a file.
* ``swift run seedkit`` is replaced by the prebuilt binary given by ``--seedkit`` (default
  ``.build/debug/seedkit``, built with ``swift build --product seedkit`` when missing or when
  ``--build`` is given).
* Under a pseudo-terminal, as a reader at a terminal runs them: standard output and standard
  error interleave as they would on screen, and a progress bar redrawn with carriage returns
  is rendered the way the terminal shows it (the last drawing of each line, over what earlier
  drawings left unless it erased them with ``ESC [ K``).

Plan snippets (issue 18: "every plan snippet in docs/ is validated by that tool"):

* Fenced ``yaml`` blocks holding a plan (a top-level ``sources:``) or a fragment of one (a block
  whose first key is ``attributes:`` or ``relationships:``, wrapped into a source of ``Item``) are
  validated by seedkit itself: ``seedkit import PLAN --dry-run`` in a temporary folder holding
  the catalog's files and ``DOCS_MODEL`` (the catalog model plus the few properties the docs'
  examples name), which replaces the plan's ``model:``. The plan passes when seedkit reports no
  problem with it: a plan problem (``plan.yaml:LINE:COLUMN (key path): …``) other than a data file
  the snippet names but the folder lacks fails the check; a later error about the data (a
  fragment's field the sample file has no column for) does not, as the plan was valid.
  Here-documents writing a plan in a shell example are checked by running the example.
* A fragment holding ``nested:`` is wrapped into a JSON source (``catalog.json``), any other into
  a CSV one (``items.csv``).
* ``<!-- check-docs: skip … -->`` before a ``yaml`` block skips it too.

Comparing: trailing spaces and trailing blank lines are ignored; ``…`` in the expected text
matches any text (a line holding only ``…`` matches any number of whole lines, none
included); timings (``0.02 s``, ``ETA 3s``, ``"seconds" : 0.013``) and rates (``1234/s``) are
masked on both sides. Each example prints PASS, FAIL (with a diff) or SKIP; the exit status is
0 only when every example that ran passed.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
import difflib
import errno
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ELLIPSIS = "…"
SKIP_MARKER = re.compile(r"<!--\s*check-docs:\s*skip\b(.*?)-->")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
SHELL_LANGUAGES = {"sh", "shell"}
EXIT_COMMENT = re.compile(r"#.*\bexit (\d+)\b")
# Pages whose shell blocks are skipped without a marker in the page, with the reason: pages this
# script's authors may not edit. Their owners can put `<!-- check-docs: skip -->` markers in
# instead and remove the entry.
UNMARKED_SKIPS = {
    "docs/Performance.md": "benchmarks that run for minutes to hours (tools/bench.py)",
}


# The model plan snippets are validated against: the sample catalog (SeedData/Catalog/Catalog.yaml)
# plus what the docs' examples name beyond it (a constant `source`, a binary `photo`, a `shelf`
# holding nested records).
DOCS_MODEL = """\
name: DocsCatalog
entities:
  Unit:
    attributes: {name: {type: string, optional: false}}
    relationships: {items: {destination: Item, inverse: unit, toMany: true}}
    unique: [[name]]
  Location:
    attributes: {aisle: {type: string, optional: false}}
    relationships: {items: {destination: Item, inverse: location, toMany: true}}
    unique: [[aisle]]
  Tag:
    attributes: {name: {type: string, optional: false}}
    relationships: {items: {destination: Item, inverse: tags, toMany: true}}
    unique: [[name]]
  Shelf:
    attributes: {code: {type: string, optional: false}}
    relationships: {items: {destination: Item, inverse: shelf, toMany: true}}
    unique: [[code]]
  Item:
    attributes:
      sku: {type: string, optional: false}
      name: {type: string, optional: false}
      price: {type: double, default: 0}
      quantity: {type: integer32, default: 0}
      listed: {type: boolean, default: true}
      added: date
      notes: string
      source: string
      photo: binary
    relationships:
      unit: {destination: Unit, inverse: items}
      location: {destination: Location, inverse: items}
      shelf: {destination: Shelf, inverse: items}
      tags: {destination: Tag, inverse: items, toMany: true}
      lists: {destination: ShoppingList, inverse: items, toMany: true}
    unique: [[sku]]
  ShoppingList:
    attributes: {code: {type: string, optional: false}, title: string, created: date}
    relationships: {items: {destination: Item, inverse: lists, toMany: true, ordered: true}}
    unique: [[code]]
"""
PLAN_FILES = ["items.csv", "lists.csv", "catalog.json", "catalog.xml"]
PLAN_PROBLEM = re.compile(r"plan\.yaml:\d+:\d+ \([^)]*\): ")
YAML_LANGUAGES = {"yaml", "yml"}


@dataclass
class PlanSnippet:
    path: Path
    line: int  # 1-based line of the opening fence
    text: str  # the plan, fragments wrapped into a source
    skip: str | None = None


@dataclass
class Command:
    line: int  # 1-based line of the command in the Markdown file
    text: str  # the command as written, without the "$ " prompt
    expected: list[str] | None  # expected output lines; None: not checked
    status: int = 0  # expected exit status


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    commands: list[Command] = field(default_factory=list)
    skip: str | None = None  # the reason, when the block is skipped


# ---------------------------------------------------------------------------------------------
# Extracting examples


def expected_status(command: str) -> int:
    match = EXIT_COMMENT.search(command)
    return int(match.group(1)) if match else 0


def relative_name(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def fenced_blocks(lines: list[str]) -> Iterator[tuple[int, str, list[str]]]:
    """Each fenced block of a Markdown file's `lines`: its opening line's index, its language and
    its body (the fence's indentation removed)."""
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, language = opening.groups()
        body: list[str] = []
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            body.append(lines[end][len(indent):] if lines[end].startswith(indent) else lines[end])
            end += 1
        yield index, language, body
        index = end + 1


def skip_reason(lines: list[str], index: int) -> str | None:
    """Why the block opening at `index` is skipped, from a skip marker on the last non-blank line
    before it (None: not marked)."""
    previous = index - 1
    while previous >= 0 and not lines[previous].strip():
        previous -= 1
    if previous >= 0 and (marker := SKIP_MARKER.search(lines[previous])):
        return marker.group(1).strip(" :—-()") or "marked skip"
    return None


def parse_markdown(path: Path) -> list[Block]:
    """The ``sh`` blocks of a Markdown file, with their commands."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    for index, language, body in fenced_blocks(lines):
        if language.lower() in SHELL_LANGUAGES:
            block = Block(path=path, line=index + 1)
            block.skip = skip_reason(lines, index) or UNMARKED_SKIPS.get(relative_name(path))
            block.commands = parse_block(body, first_line=index + 2)
            blocks.append(block)
    return blocks


def parse_block(body: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    if any(line.startswith("$ ") or line == "$" for line in body):
        current: Command | None = None
        continuing = False
        for offset, line in enumerate(body):
            if continuing and current is not None:
                current.text += "\n" + line  # bash joins a backslash-newline itself
                continuing = line.endswith("\\")
                if not continuing:
                    current.status = expected_status(current.text)
                continue
            if current is not None and not current.expected and (line.startswith("> ") or line == ">"):
                current.text += "\n" + line[2:]  # the shell's continuation prompt: a here-document
                continue
            if line.startswith("$ ") or line == "$":
                current = Command(line=first_line + offset, text=line[2:], expected=[])
                commands.append(current)
                continuing = current.text.endswith("\\")
                current.status = expected_status(current.text)
            elif current is not None:
                current.expected.append(line)
        return commands
    pending = ""
    for offset, line in enumerate(body):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        pending += line
        if pending.endswith("\\"):
            pending += "\n"
            continue
        commands.append(Command(line=first_line + offset, text=pending, expected=None,
                                status=expected_status(pending)))
        pending = ""
    return commands


def plan_snippets(path: Path) -> list[PlanSnippet]:
    """The plans and plan fragments of a Markdown file's ``yaml`` blocks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    snippets: list[PlanSnippet] = []
    for index, language, body in fenced_blocks(lines):
        if language.lower() not in YAML_LANGUAGES:
            continue
        keys = [line.split(":", 1)[0] for line in body
                if line and not line[0].isspace() and not line.startswith("#") and ":" in line]
        text = None
        if "sources" in keys:
            text = "\n".join(line for line in body if not line.startswith("model:"))
        elif keys and keys[0] in ("attributes", "relationships"):
            source = "catalog.json" if any("nested:" in line for line in body) else "items.csv"
            text = f"sources:\n  - file: {source}\n    entity: Item\n" + "\n".join(
                "    " + line for line in body)
        if text is not None:
            snippets.append(PlanSnippet(path=path, line=index + 1, text="model: docs-model.yaml\n" + text,
                                        skip=skip_reason(lines, index)))
    return snippets


def plan_problems(output: str) -> list[str]:
    """The plan problems seedkit printed (all on its one error line), missing data files left out."""
    problems: list[str] = []
    for line in output.splitlines():
        starts = [match.start() for match in PLAN_PROBLEM.finditer(line)]
        for begin, finish in zip(starts, starts[1:] + [len(line)]):
            problem = line[begin:finish].strip()
            if ": file not found: " not in problem:
                problems.append(problem)
    return problems


def check_plans(path: Path, seedkit: Path, timeout: float) -> tuple[int, int, int]:
    """Validates the plan snippets of one Markdown file; returns (passed, failed, skipped)."""
    passed = failed = skipped = 0
    relative = relative_name(path)
    for snippet in plan_snippets(path):
        where = f"{relative}:{snippet.line}"
        if snippet.skip is not None:
            skipped += 1
            print(f"SKIP {where} ({snippet.skip}): plan snippet")
            continue
        folder = Path(tempfile.mkdtemp(prefix="seedkit-docs-plan-"))
        try:
            for name in PLAN_FILES:
                shutil.copy(REPO / "SeedData" / "Catalog" / name, folder / name)
            (folder / "docs-model.yaml").write_text(DOCS_MODEL, encoding="utf-8")
            (folder / "plan.yaml").write_text(snippet.text + "\n", encoding="utf-8")
            result = subprocess.run(
                [str(seedkit), "import", "plan.yaml", "--dry-run", "--quiet", "--store", "scratch.sqlite"],
                cwd=folder, capture_output=True, text=True, timeout=timeout)
            problems = plan_problems(result.stderr) if result.returncode != 0 else []
            if result.returncode != 0 and not problems and "plan.yaml" in result.stderr.split(":", 2)[1:2]:
                problems = [result.stderr.strip()]  # a problem without a position (a YAML syntax error)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if problems:
            failed += 1
            print(f"FAIL {where}: plan snippet")
            for problem in problems:
                print("    " + problem)
            print("    the plan checked (the snippet with its model, fragments wrapped into a source):")
            for number, line in enumerate(snippet.text.splitlines(), start=1):
                print(f"    {number:3} | {line}")
        else:
            passed += 1
            print(f"PASS {where}: plan snippet")
    return passed, failed, skipped


# ---------------------------------------------------------------------------------------------
# Running


CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def render_terminal(raw: bytes) -> str:
    """What a terminal shows for `raw`: a carriage return goes back to column 0, and later text
    overwrites earlier text on the same line; a backspace steps back; `ESC [ K` erases to the end
    of the line (`ESC [ 1 K` to its start, `ESC [ 2 K` all of it). Other escape sequences
    (colours, cursor moves) are dropped."""
    text = raw.decode("utf-8", errors="replace")
    out: list[str] = []
    line: list[str] = []
    column = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\x1b" and (escape := CSI.match(text, index)):
            index = escape.end()
            if escape.group(2) == "K":
                mode = escape.group(1) or "0"
                if mode == "0":
                    del line[column:]
                elif mode == "1":
                    line[:column] = [" "] * min(column, len(line))
                elif mode == "2":
                    line = [" "] * column
            continue
        index += 1
        if char == "\n":
            out.append("".join(line).rstrip())
            line, column = [], 0
        elif char == "\r":
            column = 0
        elif char == "\b":
            column = max(0, column - 1)
        else:
            if column < len(line):
                line[column] = char
            else:
                line.extend(" " * (column - len(line)))
                line.append(char)
            column += 1
    if line:
        out.append("".join(line).rstrip())
    return "\n".join(out)


def run_in_terminal(command: str, cwd: Path, timeout: float) -> tuple[int, str]:
    """Runs `command` with bash under a pseudo-terminal; returns its status and screen text."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="dumb", COLUMNS="200", LC_ALL=os.environ.get("LC_ALL", "C.UTF-8"))
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, stdin=slave, stdout=slave, stderr=slave,
                               env=env, start_new_session=True)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            break
        ready, _, _ = select.select([master], [], [], min(remaining, 1.0))
        if not ready:
            if process.poll() is not None:
                # The child ended; drain what is left without blocking.
                ready, _, _ = select.select([master], [], [], 0.2)
                if not ready:
                    break
            else:
                continue
        try:
            chunk = os.read(master, 65536)
        except OSError as error:
            if error.errno == errno.EIO:  # every writer closed the terminal
                break
            raise
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    status = process.wait()
    screen = render_terminal(b"".join(chunks))
    if timed_out:
        screen += f"\n[check-docs: killed after {timeout:.0f} s]"
        status = -9
    return status, screen


TIMING_PATTERNS = [
    (re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?s\b"), "<T> s"),  # 0.02 s, 3s
    (re.compile(r"\b\d+(?:\.\d+)?/s\b"), "<N>/s"),  # 1234/s
    (re.compile(r'("seconds"\s*:\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'), r"\1<T>"),
]


def mask(line: str) -> str:
    for pattern, replacement in TIMING_PATTERNS:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def normalise(lines: list[str]) -> list[str]:
    lines = [mask(line) for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def expectation_regex(expected: list[str]) -> re.Pattern[str]:
    """`…` matches any text; a line that is only `…` matches any number of whole lines."""
    parts: list[str] = []
    for line in expected:
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = [re.escape(piece) for piece in line.split(ELLIPSIS)]
            parts.append("(?s:.*?)".join(pieces) + r"\n")
    return re.compile("".join(parts))


def output_matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    pattern = expectation_regex(expected)
    return pattern.fullmatch("".join(line + "\n" for line in actual)) is not None


def seedkit_binary(given: str | None, build: bool) -> Path:
    if given:
        path = Path(given).resolve()
        if not os.access(path, os.X_OK):
            sys.exit(f"check_docs: no executable seedkit at {path}")
        return path
    path = REPO / ".build" / "debug" / "seedkit"
    if build or not os.access(path, os.X_OK):
        print("check_docs: building seedkit (swift build --product seedkit)…", flush=True)
        subprocess.run(["swift", "build", "--product", "seedkit"], cwd=REPO, check=True)
    return path


def fresh_copy() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="seedkit-docs-"))
    shutil.copytree(REPO / "SeedData", folder / "SeedData",
                    ignore=shutil.ignore_patterns("*.sqlite", "*.sqlite-*", "*.building", ".build*"))
    return folder


def substitute(command: str, seedkit: Path) -> str:
    return re.sub(r"\bswift run seedkit\b", shlex.quote(str(seedkit)), command)


def check_file(path: Path, seedkit: Path, timeout: float, verbose: bool, keep: bool) -> tuple[int, int, int]:
    """Runs the examples of one Markdown file; returns (passed, failed, skipped)."""
    passed = failed = skipped = 0
    blocks = parse_markdown(path)
    if not blocks:
        return 0, 0, 0
    relative = relative_name(path)
    folder = fresh_copy()
    cwd_file = folder / ".check-docs-cwd"
    cwd = folder
    try:
        for block in blocks:
            if block.skip is not None:
                skipped += 1
                first = block.commands[0].text.split("\n")[0] if block.commands else ""
                print(f"SKIP {relative}:{block.line} ({block.skip}): {first} …")
                continue
            for command in block.commands:
                where = f"{relative}:{command.line}"
                script = (f"{substitute(command.text, seedkit)}\n"
                          f"__status=$?; pwd > {shlex.quote(str(cwd_file))}; exit $__status")
                started = time.monotonic()
                status, screen = run_in_terminal(script, cwd, timeout)
                elapsed = time.monotonic() - started
                if cwd_file.exists():
                    cwd = Path(cwd_file.read_text().strip() or cwd)
                actual = screen.split("\n") if screen else []
                problems: list[str] = []
                if status != command.status:
                    problems.append(f"exit status {status}, expected {command.status}")
                if command.expected is not None:
                    expected_lines = normalise(command.expected)
                    actual_lines = normalise(actual)
                    if not output_matches(expected_lines, actual_lines):
                        problems.append("output differs:")
                        problems.extend(difflib.unified_diff(
                            expected_lines, actual_lines,
                            fromfile="expected (the docs)", tofile="actual", lineterm=""))
                label = "PASS" if not problems else "FAIL"
                first = command.text.split("\n")[0]
                print(f"{label} {where}: $ {first}" + (f"  ({elapsed:.1f} s)" if verbose else ""))
                if problems:
                    failed += 1
                    for problem in problems:
                        print("    " + problem)
                    if command.expected is None and actual:
                        print("    output:")
                        for line in actual[-20:]:
                            print("    | " + line)
                else:
                    passed += 1
                    if verbose and command.expected is None:
                        for line in actual[-5:]:
                            print("    | " + line)
    finally:
        if keep:
            print(f"    (kept {folder})")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return passed, failed, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="Markdown files (default: README.md and docs/*.md)")
    parser.add_argument("--seedkit", metavar="PATH",
                        help="the seedkit binary (default .build/debug/seedkit, built when missing)")
    parser.add_argument("--build", action="store_true",
                        help="run swift build --product seedkit first (the default binary is not rebuilt otherwise)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per command (default 600)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument("-v", "--verbose", action="store_true", help="print timings and unchecked output")
    arguments = parser.parse_args()

    files = [Path(name).resolve() for name in arguments.files] or (
        [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md")))
    seedkit = seedkit_binary(arguments.seedkit, arguments.build)
    totals = [0, 0, 0]
    for path in files:
        for index, count in enumerate(check_file(path, seedkit, arguments.timeout, arguments.verbose,
                                                 arguments.keep)):
            totals[index] += count
        for index, count in enumerate(check_plans(path, seedkit, arguments.timeout)):
            totals[index] += count
    passed, failed, skipped = totals
    print(f"\n{passed} commands and plan snippets passed, {failed} failed; {skipped} blocks skipped")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
