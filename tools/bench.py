#!/usr/bin/env python3
"""Run SeedKit's benchmarks (docs/Performance.md) side by side with their baselines.

Usage, from a clean clone (builds the release binaries and generates the data itself):
    python3 tools/bench.py                          # N = 1,000,000, 3 runs of everything
    python3 tools/bench.py --n 100000 --runs 5
    python3 tools/bench.py --only reader,import     # groups: reader import reimport copy layouts first-launch migrate
    python3 tools/bench.py --scale                  # the scale series: 100k, 1M, 5M (--large: 20M too)
    python3 tools/bench.py --scale 100000,200000 --floor path/to/floor   # any Ns, with a C reference

Each measurement runs `--runs` times (at least 3), interleaved with the others of its group
(readers, imports, re-import, copies, first launch: one run of each per round), so a slowdown of
a shared machine weighs on a command and its baseline alike; the table shows the median wall time, CPU
time (user + system of the measured process), records/s, MB/s (input bytes / median wall time,
MB = 10^6 bytes), the peak RSS of the measured process (largest of the runs; GNU time's %M, or
`os.wait4`'s ru_maxrss without it), the baseline's median time and the ratio, and each docs/Performance.md
target as MET or MISSED with its threshold. A command SeedKit does not have yet is reported as
NOT IMPLEMENTED.

The scale series runs, at each N, with the items in key order and shuffled: the CSV import into
a new store, the same import by the C reference program when `--floor` gives one (a compiled
importer run as `DEFER=1 FLOOR DATA_DIR STORE safe`, or its `.c` source, compiled here with `cc`),
the CSV re-import into the imported store (everything unchanged) and `seedkit copy` of it into an
empty store; it prints time, time per record and peak RSS per N, and plots them against N in
`.bench/scale.png` (matplotlib: `pip install matplotlib`).

Each run also notes how busy the rest of the machine was (`/proc/stat`: CPU time of all processes
but the measured one, as a share of all cores); runs with more than `--max-other-load` (0.25) are
marked overlapped and left out of the medians when clean runs remain.

Files: data in `.bench/data-N/` and `.bench/data-N-shuffled/` (kept, regenerated when the
generator or seed changes), stores in a temporary directory under `.bench/` (removed), results
in `.bench/results-N.json`, `.bench/scale.json` and `.bench/scale.png`. Every process is stopped
after `--timeout` seconds (default 600).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench"
GENERATOR = [ROOT / "Sources" / "seedkit-fuzz" / name for name in ("CatalogRecords.swift", "CatalogWriter.swift", "KeyedPermutation.swift")]
GROUPS = ("reader", "import", "reimport", "copy", "layouts", "first-launch", "migrate")
RSS_LIMIT_MB = 100.0  # fresh imports (docs/Performance.md, "Targets")
RSS_LIMIT_OTHER_MB = 200.0  # every other operation
MB = 1e6
SCALE_SIZES = (100_000, 1_000_000, 5_000_000)
LARGE_SIZE = 20_000_000
MAX_OTHER_LOAD = 0.25  # --max-other-load


@dataclass
class Sample:
    """One run of one command."""

    wall: float  # seconds
    cpu: float  # user + system seconds of the measured process (from os.wait4)
    rss_mb: float  # peak resident set size
    other_load: float = 0.0  # share of all cores other processes kept busy during the run

    @property
    def overlapped(self) -> bool:
        """Whether other load overlapped the run (see --max-other-load)."""
        return self.other_load > MAX_OTHER_LOAD


@dataclass
class Result:
    """All runs of one measurement and their summary."""

    key: str
    label: str
    records: int
    input_bytes: int
    ours: bool = False  # a SeedKit command (held to the memory target), not a baseline
    status: str = "ok"  # ok | failed | timeout | not implemented | skipped
    detail: str = ""
    samples: list[Sample] = field(default_factory=list)

    @property
    def clean(self) -> list[Sample]:
        """The runs no other load overlapped, or all of them when none is clean."""
        return [s for s in self.samples if not s.overlapped] or self.samples

    @property
    def wall(self) -> float:
        """Median wall time of the clean runs."""
        return statistics.median(s.wall for s in self.clean)

    @property
    def cpu(self) -> float:
        """Median CPU time of the clean runs."""
        return statistics.median(s.cpu for s in self.clean)

    @property
    def rss_mb(self) -> float:
        """Largest peak RSS of the runs."""
        return max(s.rss_mb for s in self.samples)

    def summary(self) -> dict[str, object]:
        """The JSON form: the samples plus medians and rates."""
        out: dict[str, object] = asdict(self)
        if self.status == "ok":
            out.update(wall=self.wall, cpu=self.cpu, rss_mb=self.rss_mb,
                       records_per_s=self.records / self.wall if self.records else None,
                       mb_per_s=self.input_bytes / MB / self.wall if self.input_bytes else None)
        return out


@dataclass
class Case:
    """One measured command: what to run, how to prepare each run, and what it reads."""

    key: str
    label: str
    command: list[str]
    records: int = 0
    input_bytes: int = 0
    prepare: Callable[[], None] | None = None  # runs before each run, untimed
    stdin: Path | None = None
    expect: str | None = None  # a regex stdout must match (e.g. the record count)
    ours: bool = False  # a SeedKit command, not a baseline
    reads: tuple[Path, ...] = ()  # input files read into the page cache before each run, untimed


@dataclass
class Target:
    """A docs/Performance.md target: ours / reference ≤ limit (wall-time medians)."""

    name: str
    ours: str
    reference: str
    limit: float
    threshold: str


TARGETS = [
    Target("CSV reader vs Python csv", "reader.csv", "reader.python-csv", 1 / 3, "≥ 3× faster"),
    Target("JSON reader vs Python json.load", "reader.json", "reader.python-json", 1 / 2, "≥ 2× faster"),
    Target("XML reader vs xmllint --stream", "reader.xml", "reader.xmllint", 1.3, "≤ 1.3×"),
    Target("CSV import vs sqlite3 .import", "import.csv", "import.sqlite3", 3.0, "≤ 3×"),
    Target("CSV import vs the C reference (--floor)", "import.csv", "import.floor", 1.0, "≤ 1.0×"),
    Target("JSON import vs our CSV import", "import.json", "import.csv", 1.1, "≤ 1.1×"),
    Target("XML import vs our CSV import", "import.xml", "import.csv", 1.2, "≤ 1.2×"),
    Target("Re-import (unchanged) vs fresh import", "reimport.csv", "import.csv", 1.5, "≤ 1.5×"),
    Target("Deep copy into empty vs sqlite3 INSERT…SELECT", "copy.empty", "copy.sqlite3-empty", 3.0, "≤ 3×"),
    Target("Deep copy into half-full vs sqlite3", "copy.half", "copy.sqlite3-half", 5.0, "≤ 5×"),
    Target("Deep copy into a new store: Core Data layout vs SeedKit layout", "copy.new-coredata", "copy.new", 1.1,
           "≤ 1.1×"),
    Target("CSV import into a new store (Xcode model): Core Data layout vs SeedKit layout", "layouts.import-coredata",
           "layouts.import-seedkit", 1.1, "≤ 1.1×"),
    Target("seedkit build (Xcode model): Core Data layout vs SeedKit layout", "layouts.build-coredata",
           "layouts.build-seedkit", 1.1, "≤ 1.1×"),
    Target("Deep copy of a store into a new store of its layout: Core Data vs SeedKit", "layouts.copy-coredata",
           "layouts.copy-seedkit", 1.1, "≤ 1.1×"),
    Target("First launch vs file copy", "first-launch", "first-launch.cp", 1.5, "≤ 1.5×"),
    Target("Migration (add attribute, rename entity) vs deep copy into empty", "migrate", "migrate.copy", 1.5,
           "≤ 1.5×"),
    # Not a docs/Performance.md target: the first launch syncs the copy to disk before renaming it into
    # place (docs/FirstLaunch.md), which `cp` does not; this compares like with like.
    Target("First launch vs durable file copy", "first-launch", "first-launch.dd", 1.5, "≤ 1.5×"),
    Target("First launch vs durable copy, cloning file system (--clone-dir)", "first-launch.clone",
           "first-launch.dd.clone", 1.0, "≤ 1.0×"),
]


def log(message: str) -> None:
    """Progress on stderr, so stdout holds only the report."""
    print(message, file=sys.stderr, flush=True)


def gnu_time() -> str | None:
    """GNU time, if installed: a forked child's `ru_maxrss` counts the forking Python process's
    pages (the high-water mark survives exec), so the command's own peak RSS comes from `time`,
    which forks from a ~2 MB process. Without it, RSS has a floor of this script's size."""
    path = shutil.which("time", path="/usr/bin:/bin")
    ok = path and subprocess.run([path, "-f", "%M", "-o", os.devnull, "true"], capture_output=True).returncode == 0
    return path if ok else None


GNU_TIME = gnu_time()


def measure(case: Case, timeout: float) -> Sample:
    """Run `case` once, returning wall time, CPU time and peak RSS of its process.

    Raises RuntimeError with the tail of stderr when the command fails or stops early.
    """
    if case.prepare:
        case.prepare()
    for path in case.reads:
        warm(path)
    busy_before = busy_cpu_seconds()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as rss_file:
        command = [GNU_TIME, "-f", "%M", "-o", rss_file.name, *case.command] if GNU_TIME else case.command
        stdin = open(case.stdin, "rb") if case.stdin else subprocess.DEVNULL
        try:
            start = time.perf_counter()
            process = subprocess.Popen(command, stdin=stdin, stdout=out, stderr=err, start_new_session=True)
            timer = threading.Timer(timeout, os.killpg, (process.pid, signal.SIGKILL))
            timer.start()
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            timer.cancel()
        finally:
            if case.stdin:
                stdin.close()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        rss_kb = int(rss_file.read().split()[-1]) if GNU_TIME and process.returncode == 0 else usage.ru_maxrss
    cpu = usage.ru_utime + usage.ru_stime
    busy_after = busy_cpu_seconds()
    other = (busy_after - busy_before - cpu) / (wall * (os.cpu_count() or 1)) if busy_before is not None \
        and busy_after is not None and wall > 0 else 0.0
    if wall >= timeout:
        raise TimeoutError(f"stopped after {timeout:.0f} s")
    if process.returncode != 0:
        raise RuntimeError(f"exit {process.returncode}: {stderr.strip()[-400:]}")
    if case.expect and not re.search(case.expect, stdout):
        raise RuntimeError(f"unexpected output {stdout.strip()[:200]!r} (wanted /{case.expect}/)")
    return Sample(wall, cpu, rss_kb * 1024 / MB, max(0.0, other))


def warm(path: Path) -> None:
    """Read `path` once so that a run measures its command, not the disk: every command of a
    group then starts with its input in the page cache, whichever ran before it."""
    with open(path, "rb") as file:
        while file.read(8 << 20):
            pass


def busy_cpu_seconds() -> float | None:
    """CPU seconds all processes have spent busy since boot (/proc/stat), or None off Linux."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return None
    ticks = [int(f) for f in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def run_cases(cases: list[Case], runs: int, timeout: float) -> dict[str, Result]:
    """Measure each of `cases` `runs` times, in rounds: every case once per round, so a change in
    the machine's speed during the group (a busy neighbour on a shared host) weighs on the
    commands compared with each other alike. A failure or timeout drops a case from later rounds."""
    results = {case.key: Result(case.key, case.label, case.records, case.input_bytes, case.ours) for case in cases}
    for run in range(runs):
        for case in cases:
            result = results[case.key]
            if result.status != "ok":
                continue
            try:
                result.samples.append(measure(case, timeout))
            except TimeoutError as error:
                result.status, result.detail = "timeout", str(error)
            except RuntimeError as error:
                result.status, result.detail = "failed", str(error)
            if result.status != "ok":
                log(f"  {case.label}: {result.status.upper()} {result.detail}")
            else:
                sample = result.samples[-1]
                note = f" (overlapped: other load {sample.other_load:.0%})" if sample.overlapped else ""
                log(f"  {case.label}: run {run + 1}/{runs} {sample.wall:.2f} s{note}")
    return results


def not_run(key: str, label: str, status: str, detail: str) -> Result:
    """A measurement that was not possible (e.g. the command does not exist yet)."""
    log(f"  {label}: {status.upper()} {detail}")
    return Result(key, label, 0, 0, True, status, detail)


def run(command: list[str]) -> str:
    """Run a setup command in the repository and return its stdout; exit with its output when it
    fails."""
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@dataclass
class Tools:
    """The binaries under test and the baseline tools."""

    seedkit: Path
    bench: Path
    subcommands: set[str]  # of seedkit
    bench_commands: set[str]  # of seedkit-bench
    xmllint: str | None


def build(skip: bool, build_path: str | None = None) -> Tools:
    """Build the release binaries (unless `skip`; into `build_path` when given, else SwiftPM's
    default `.build`) and find what each tool can do."""
    scratch = ["--scratch-path", build_path] if build_path else []
    if not skip:
        for product in ("seedkit", "seedkit-bench"):
            log(f"building {product} (release)…")
            run(["swift", "build", "-c", "release", *scratch, "--product", product])
    bin_dir = Path(run(["swift", "build", "-c", "release", *scratch, "--show-bin-path"]).strip())
    seedkit, bench = bin_dir / "seedkit", bin_dir / "seedkit-bench"
    for binary in (seedkit, bench):
        if not binary.exists():
            sys.exit(f"bench: {binary} is missing; run without --no-build")
    help_text = run([str(seedkit), "--help"])
    subcommands = set(re.findall(r"^  (\w[\w-]*)\s", help_text.split("SUBCOMMANDS:")[-1], re.M))
    usage = subprocess.run([str(bench)], capture_output=True, text=True).stdout
    bench_commands = set(re.findall(r"\b([a-z]+(?:-[a-z]+)+)\b", usage))
    return Tools(seedkit, bench, subcommands, bench_commands, find_xmllint())


def find_xmllint() -> str | None:
    """`xmllint`, installing libxml2-utils with apt-get when missing and running as root."""
    if shutil.which("xmllint") is None and shutil.which("apt-get") and os.geteuid() == 0:
        log("installing libxml2-utils for xmllint…")
        environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-qq", "libxml2-utils"]
        if subprocess.run(install, capture_output=True, env=environment).returncode != 0:
            # A fresh machine may have no package lists yet.
            subprocess.run(["apt-get", "update", "-qq"], capture_output=True, env=environment)
            subprocess.run(install, capture_output=True, env=environment)
    path = shutil.which("xmllint")
    if path is None:
        log("xmllint not found: install libxml2-utils for the XML reader baseline")
    return path


def ensure_data(n: int, seed: int, shuffled: bool = False, formats: str | None = None) -> Path:
    """The catalog of `n` items in `.bench/data-n` (`-shuffled`: items in a random order of their
    skus) in `formats` (default all), generated unless already there."""
    out = BENCH / (f"data-{n}-shuffled" if shuffled else f"data-{n}")
    stamp = {"n": n, "seed": seed, "generator": hashlib.sha256(b"".join(p.read_bytes() for p in GENERATOR)).hexdigest(),
             "formats": formats or "all"}
    stamp_file = out / "stamp.json"
    if stamp_file.exists():
        old = json.loads(stamp_file.read_text())
        # Data generated with every format serves a request for fewer.
        if old == stamp or (old.get("formats", "all") == "all" and old | {"formats": stamp["formats"]} == stamp):
            return out
    if out.exists():
        shutil.rmtree(out)
    log(f"generating the catalog of {n} items into {out.relative_to(ROOT)}…")
    command = ["swift", "run", "-c", "release", "seedkit-fuzz", "generate", str(n), "--seed", str(seed),
               "--out", str(out)]
    if shuffled:
        command.append("--shuffle")
    if formats:
        command += ["--formats", formats]
    run(command)
    stamp_file.write_text(json.dumps(stamp))
    return out


def floor_program(path: str | None) -> Path | None:
    """The C reference importer: `path` itself, or compiled from `path` when it is C source."""
    if path is None:
        return None
    source = Path(path).resolve()
    if source.suffix != ".c":
        return source
    binary = BENCH / "floor"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        BENCH.mkdir(exist_ok=True)
        log(f"compiling {source} into {binary.relative_to(ROOT)}…")
        run(["cc", "-O2", "-o", str(binary), str(source), "-lsqlite3"])
    return binary


def remove_store(path: Path) -> None:
    """Delete a store and its WAL/SHM/journal files."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def copy_store(source: Path, target: Path) -> None:
    """Copy a closed store (and a leftover WAL, if any) over `target`."""
    remove_store(target)
    for suffix in ("", "-wal"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")


def sizes(data: Path, *names: str) -> int:
    """Total size of files in `data`."""
    return sum((data / name).stat().st_size for name in names)


class Suite:
    """The measurements at one N: builds cases, runs them and keeps the results."""

    def __init__(self, tools: Tools, data: Path, n: int, runs: int, timeout: float, work: Path,
                 floor: Path | None = None) -> None:
        """Prepare a suite over the catalog in `data`, with scratch files in `work` and the C
        reference importer `floor` (if any) beside the CSV import."""
        self.tools, self.data, self.n, self.runs, self.timeout, self.work = tools, data, n, runs, timeout, work
        self.floor = floor
        self.records = n + n // 100
        self.results: dict[str, Result] = {}
        self.filled: Path | None = None  # a store holding the whole catalog, imported from CSV
        self.pending: list[Case] = []

    def add(self, case: Case) -> None:
        """Queue `case` to run with the rest of its group (see `run_group`)."""
        self.pending.append(case)

    def run_group(self) -> None:
        """Run the queued cases, interleaved round by round, and keep their results."""
        self.results.update(run_cases(self.pending, self.runs, self.timeout))
        self.pending = []

    def skip(self, key: str, label: str, status: str, detail: str) -> None:
        """Record a measurement that could not run."""
        self.results[key] = not_run(key, label, status, detail)

    def readers(self) -> None:
        """`seedkit check` on each format vs Python's csv and json modules and xmllint."""
        log("readers")
        d, items, seedkit, py = self.data, self.n, str(self.tools.seedkit), sys.executable
        checks = [("csv", "CSV", "items.csv", []), ("json", "JSON", "catalog.json", ["--records", "items[*]"]),
                  ("ndjson", "NDJSON", "items.ndjson", []), ("xml", "XML", "catalog.xml", ["--records", "catalog/item"])]
        for key, name, file, extra in checks:
            if "check" not in self.tools.subcommands:
                self.skip(f"reader.{key}", f"{name} reader", "not implemented", "no `seedkit check`")
                continue
            self.add(Case(f"reader.{key}", f"{name} reader (seedkit check)", [seedkit, "check", str(d / file), *extra],
                          items, sizes(d, file), expect=rf": {items} records", ours=True, reads=(d / file,)))
        count_rows = ("import csv, sys\nwith open(sys.argv[1], newline='', encoding='utf-8') as f:\n"
                      "    print(sum(1 for _ in csv.reader(f)) - 1, 'records')")
        self.add(Case("reader.python-csv", "Python csv.reader", [py, "-c", count_rows, str(d / "items.csv")],
                      items, sizes(d, "items.csv"), expect=rf"^{items} records", reads=(d / "items.csv",)))
        load = ("import json, sys\nwith open(sys.argv[1], encoding='utf-8') as f:\n"
                "    print(len(json.load(f)['items']), 'records')")
        self.add(Case("reader.python-json", "Python json.load", [py, "-c", load, str(d / "catalog.json")],
                      items, sizes(d, "catalog.json"), expect=rf"^{items} records", reads=(d / "catalog.json",)))
        if self.tools.xmllint:
            self.add(Case("reader.xmllint", "xmllint --stream --noout", [self.tools.xmllint, "--stream", "--noout",
                          str(d / "catalog.xml")], items, sizes(d, "catalog.xml"), reads=(d / "catalog.xml",)))
        else:
            self.skip("reader.xmllint", "xmllint --stream --noout", "skipped", "xmllint not installed")
        self.run_group()

    def imports(self, formats: tuple[str, ...] = ("csv", "json", "ndjson", "xml")) -> None:
        """`seedkit import` of each plan in `formats` into a fresh store vs `sqlite3 .import` of items.csv."""
        log("fresh imports")
        stores = {key: self.work / f"import-{key}.sqlite"
                  for key in ("csv", "json", "ndjson", "xml", "sqlite3", "floor")}
        plans = [("csv", "CSV", ("items.csv", "lists.csv")), ("json", "JSON", ("catalog.json",)),
                 ("ndjson", "NDJSON", ("items.ndjson", "lists.ndjson")), ("xml", "XML", ("catalog.xml",))]
        for key, name, files in plans:
            if key not in formats:
                continue
            if "import" not in self.tools.subcommands:
                self.skip(f"import.{key}", f"{name} import", "not implemented", "no `seedkit import`")
                continue
            store = stores[key]
            self.add(self.import_case(f"import.{key}", f"{name} import (seedkit import)", f"catalog-{key}.yaml",
                                      store, files, lambda store=store: remove_store(store)))
        if self.floor:
            self.add(self.floor_case(stores["floor"]))
        script = self.work / "sqlite-import.sql"
        script.write_text(f".import --csv '{self.data / 'items.csv'}' Item\n")
        self.add(Case("import.sqlite3", "sqlite3 .import --csv items.csv", ["sqlite3", str(stores["sqlite3"])],
                      self.n, sizes(self.data, "items.csv"), prepare=lambda: remove_store(stores["sqlite3"]),
                      stdin=script, reads=(self.data / "items.csv",)))
        self.run_group()
        csv = self.results.get("import.csv")
        if csv is not None and csv.status == "ok":
            self.filled = self.work / "filled.sqlite"
            copy_store(stores["csv"], self.filled)
        for store in stores.values():
            remove_store(store)

    def floor_case(self, store: Path) -> Case:
        """The C reference importer on items.csv and lists.csv, crash-safe, indexes after the load."""
        return Case("import.floor", "C reference (DEFER=1 floor … safe)",
                    ["env", "DEFER=1", str(self.floor), str(self.data), str(store), "safe"], self.records,
                    sizes(self.data, "items.csv", "lists.csv"), prepare=lambda: remove_store(store),
                    reads=(self.data / "items.csv", self.data / "lists.csv"))

    def scale_cases(self) -> None:
        """The scale series at this N: the CSV import beside the C reference, then the re-import
        into the imported store and `seedkit copy` of it into an empty store."""
        import_store, floor_store = self.work / "scale-import.sqlite", self.work / "scale-floor.sqlite"
        self.add(self.import_case("import.csv", "CSV import (seedkit import)", "catalog-csv.yaml", import_store,
                                  ("items.csv", "lists.csv"), lambda: remove_store(import_store)))
        if self.floor:
            self.add(self.floor_case(floor_store))
        self.run_group()
        remove_store(floor_store)
        if self.results["import.csv"].status != "ok":
            return
        self.filled = self.work / "filled.sqlite"
        copy_store(import_store, self.filled)
        remove_store(import_store)
        reimport, empty, target = (self.work / f"scale-{name}.sqlite" for name in ("reimport", "empty", "copy"))
        self.add(self.import_case("reimport.csv", "CSV re-import, all unchanged", "catalog-csv.yaml", reimport,
                                  ("items.csv", "lists.csv"), lambda: copy_store(self.filled, reimport)))
        make_partial_store(self.filled, empty, 0.0)
        self.add(Case("copy.empty", "Deep copy into empty (seedkit copy)",
                      [str(self.tools.seedkit), "copy", "--from", str(self.filled), "--to", str(target)],
                      self.records, self.filled.stat().st_size, prepare=lambda: copy_store(empty, target), ours=True))
        self.run_group()
        for store in (reimport, empty, target, self.filled):
            remove_store(store)

    def import_case(self, key: str, label: str, plan: str, store: Path, files: tuple[str, ...],
                    prepare: Callable[[], None]) -> Case:
        """A `seedkit import PLAN --store STORE --quiet` case."""
        return Case(key, label, [str(self.tools.seedkit), "import", str(self.data / plan), "--store", str(store),
                                 "--quiet"], self.records, sizes(self.data, *files), prepare=prepare, ours=True,
                    reads=tuple(self.data / name for name in files))

    def filled_store(self) -> Path | None:
        """A store holding the whole catalog (imported from CSV once, untimed, if needed)."""
        if self.filled is None and "import" in self.tools.subcommands:
            log("  importing the CSV catalog once (untimed) for the re-import/copy measurements")
            self.filled = self.work / "filled.sqlite"
            remove_store(self.filled)
            run([str(self.tools.seedkit), "import", str(self.data / "catalog-csv.yaml"), "--store",
                 str(self.filled), "--quiet"])
        return self.filled

    def built_seed(self) -> Path | None:
        """A seed store as apps ship it: `seedkit build` of the CSV catalog (once, untimed), which
        carries its seed record, so first launch only copies it."""
        seed = self.work / "seed.sqlite"
        if not seed.exists() and "build" in self.tools.subcommands:
            log("  building the CSV catalog's seed once (untimed) for the first-launch measurements")
            run([str(self.tools.seedkit), "build", str(self.data / "catalog-csv.yaml"), "-o", str(seed), "--quiet"])
        return seed if seed.exists() else None

    def reimport(self) -> None:
        """The CSV import again into a store that already holds it all (everything unchanged)."""
        log("re-import")
        filled = self.filled_store()
        if filled is None:
            self.skip("reimport.csv", "CSV re-import", "not implemented", "no `seedkit import`")
            return
        store = self.work / "reimport.sqlite"
        self.add(self.import_case("reimport.csv", "CSV re-import, all unchanged", "catalog-csv.yaml", store,
                                  ("items.csv", "lists.csv"), lambda: copy_store(filled, store)))
        self.run_group()
        remove_store(store)

    def copies(self) -> None:
        """`seedkit copy` of the filled store into an empty and a half-full store vs sqlite3, and into a
        new store in each layout."""
        log("deep copy")
        filled = self.filled_store()
        if filled is None:
            self.skip("copy.sqlite3-empty", "sqlite3 ATTACH + INSERT…SELECT", "skipped", "no source store")
            return
        empty, half = self.work / "empty.sqlite", self.work / "half.sqlite"
        make_partial_store(filled, empty, 0.0)
        make_partial_store(filled, half, 0.5)
        target = self.work / "copy-target.sqlite"
        for key, name, start in (("empty", "empty", empty), ("half", "half-full", half)):
            script = self.work / f"copy-{key}.sql"
            script.write_text(copy_script(filled, or_ignore=key == "half"))
            self.add(Case(f"copy.sqlite3-{key}", f"sqlite3 ATTACH + INSERT…SELECT into {name}",
                          ["sqlite3", str(target)], self.records, filled.stat().st_size,
                          prepare=lambda start=start: copy_store(start, target), stdin=script))
            if "copy" not in self.tools.subcommands:
                self.skip(f"copy.{key}", f"Deep copy into {name}", "not implemented", "no `seedkit copy`")
                continue
            self.add(Case(f"copy.{key}", f"Deep copy into {name} (seedkit copy)",
                          [str(self.tools.seedkit), "copy", "--from", str(filled), "--to", str(target)],
                          self.records, filled.stat().st_size, prepare=lambda start=start: copy_store(start, target),
                          ours=True))
        if "copy" in self.tools.subcommands:
            # A new target in each layout (docs/CoreDataStores.md): the same copy, Core Data's tables.
            for key, layout in (("new", "seedkit"), ("new-coredata", "core-data")):
                self.add(Case(f"copy.{key}", f"Deep copy into a new {layout}-layout store (seedkit copy)",
                              [str(self.tools.seedkit), "copy", "--from", str(filled), "--to", str(target),
                               "--layout", layout], self.records, filled.stat().st_size,
                              prepare=lambda: remove_store(target), ours=True))
        self.run_group()
        remove_store(target)

    def layouts(self) -> None:
        """The same work in each store layout, with the catalog's Xcode model (a Core Data–layout store
        is written for one): the CSV import into a new store, `seedkit build`, and a copy of a store
        into a new store of its own layout."""
        log("store layouts")
        needed = {"import", "build", "copy"} - self.tools.subcommands
        if needed:
            self.skip("layouts.import-coredata", "Core Data layout", "not implemented",
                      "no `seedkit " + ", ".join(sorted(needed)) + "`")
            return
        plan = write_catalog_xcode_plan(self.data)
        seedkit, size = str(self.tools.seedkit), sizes(self.data, "items.csv", "lists.csv")
        layouts = (("seedkit", "seedkit", "SeedKit"), ("core-data", "coredata", "Core Data"))
        stores = {layout: self.work / f"layout-{layout}.sqlite" for layout, _, _ in layouts}
        sources = {layout: self.work / f"layout-source-{layout}.sqlite" for layout, _, _ in layouts}

        def add(step: str, key: str, label: str, layout: str, arguments: list[str], input_bytes: int) -> None:
            store = stores[layout]
            self.add(Case(f"layouts.{step}-{key}", label, [seedkit, *arguments, str(store), "--layout", layout,
                                                           "--quiet"], self.records, input_bytes,
                          prepare=lambda: remove_store(store), ours=True))

        for layout, key, name in layouts:
            add("import", key, f"CSV import into a new {name}-layout store", layout,
                ["import", str(plan), "--store"], size)
        self.run_group()
        for layout, key, name in layouts:
            if self.results[f"layouts.import-{key}"].status == "ok":
                copy_store(stores[layout], sources[layout])
            add("build", key, f"seedkit build, {name} layout", layout, ["build", str(plan), "-o"], size)
            if sources[layout].exists():
                add("copy", key, f"Deep copy of a {name}-layout store into a new one", layout,
                    ["copy", "--from", str(sources[layout]), "--model", str(plan.parent / "Catalog.xcdatamodel"),
                     "--to"], sources[layout].stat().st_size)
        self.run_group()
        for store in (*stores.values(), *sources.values()):
            remove_store(store)

    def first_launch(self, clone_dir: Path | None = None) -> None:
        """`seedkit-bench first-launch SEED STORE` vs `cp SEED STORE` and a durable copy; with
        `clone_dir` (a directory on a file system that clones files: Btrfs, XFS, APFS), the same
        there, where first launch shares the seed's blocks instead of copying them."""
        log("first launch")
        seed = self.built_seed()
        if seed is None:
            self.skip("first-launch.cp", "cp of the seed store", "skipped", "no seed store")
            return
        places = [("", "", seed, self.work)]
        if clone_dir is not None:
            clone_seed = clone_dir / "bench-seed.sqlite"
            shutil.copyfile(seed, clone_seed)
            places.append((".clone", " on a cloning file system", clone_seed, clone_dir))
        for suffix, where, source, directory in places:
            target = directory / "bench-launch.sqlite"
            size = source.stat().st_size
            self.add(Case(f"first-launch.cp{suffix}", f"cp of the seed store{where}", ["cp", str(source), str(target)],
                          self.records, size, prepare=lambda target=target: remove_store(target)))
            self.add(Case(f"first-launch.dd{suffix}", f"durable copy (dd conv=fsync){where}",
                          ["dd", f"if={source}", f"of={target}", "bs=8M", "conv=fsync", "status=none"],
                          self.records, size, prepare=lambda target=target: remove_store(target)))
            if "first-launch" not in self.tools.bench_commands:
                self.skip(f"first-launch{suffix}", "First launch", "not implemented", "no `seedkit-bench first-launch`")
                continue
            self.add(Case(f"first-launch{suffix}", f"First launch (seedkit-bench first-launch){where}",
                          [str(self.tools.bench), "first-launch", str(source), str(target)], self.records, size,
                          prepare=lambda target=target: remove_store(target), ours=True))
        self.run_group()
        for _, _, source, directory in places:
            remove_store(directory / "bench-launch.sqlite")
        if clone_dir is not None:
            remove_store(clone_dir / "bench-seed.sqlite")


    def migration(self) -> None:
        """`seedkit migrate` of the filled store to a version adding an attribute and renaming Item
        (through its renaming identifier) vs `seedkit copy` of the same store into an empty one."""
        log("migration")
        filled = self.filled_store()
        if filled is None:
            self.skip("migrate.copy", "Deep copy into empty", "skipped", "no source store")
            return
        versions = write_catalog_versions(self.data, self.work)
        empty, copied, migrated = (self.work / name for name in ("empty.sqlite", "copied.sqlite", "migrated.sqlite"))
        make_partial_store(filled, empty, 0.0)
        size = filled.stat().st_size
        self.add(Case("migrate.copy", "Deep copy into empty (seedkit copy)",
                      [str(self.tools.seedkit), "copy", "--from", str(filled), "--to", str(copied)], self.records,
                      size, prepare=lambda: copy_store(empty, copied)))
        if "migrate" not in self.tools.subcommands:
            self.skip("migrate", "Migration", "not implemented", "no `seedkit migrate`")
        else:
            self.add(Case("migrate", "Migration: +Item.rating, Item → Product (seedkit migrate)",
                          [str(self.tools.seedkit), "migrate", str(migrated), "--model", str(versions), "--quiet"],
                          self.records, size, prepare=lambda: copy_store(filled, migrated), ours=True))
        self.run_group()
        for store in (empty, copied, migrated):
            remove_store(store)


def write_catalog_versions(data: Path, work: Path) -> Path:
    """A versions file in `work`: the catalog's model as v1, and v2 = v1 with `Item` renamed
    `Product` (renaming identifier `Item`) and a new attribute `rating` (default 3)."""
    v1 = (data / "Catalog.yaml").read_text()
    (work / "Catalog.v1.yaml").write_text(v1)
    v2 = v1.replace("destination: Item,", "destination: Product,").replace(
        "  Item:\n    attributes:\n",
        "  Product:\n    renamedFrom: Item\n    attributes:\n      rating: {type: integer16, default: 3}\n")
    if v2.count("Product") < 2:
        raise SystemExit("the catalog model changed shape: update write_catalog_versions")
    (work / "Catalog.v2.yaml").write_text(v2)
    versions = work / "Catalog.versions.yaml"
    versions.write_text("versions:\n  - {name: v1, file: Catalog.v1.yaml}\n  - {name: v2, file: Catalog.v2.yaml}\n"
                        "current: v2\n")
    return versions


def xcode_entity(name: str, unique: str, attributes: list[tuple[str, str]],
                 relationships: list[tuple[str, str, str, str]]) -> str:
    """An `<entity>` of an Xcode model: `attributes` as (name, XML attributes), `relationships` as
    (name, destination, inverse, XML attributes), and a uniqueness constraint on `unique`."""
    lines = [f'    <entity name="{name}" representedClassName="{name}" syncable="YES">']
    lines += [f'        <attribute name="{attribute}" {spec}/>' for attribute, spec in attributes]
    lines += [f'        <relationship name="{relationship}" {spec} destinationEntity="{destination}" '
              f'inverseName="{inverse}" inverseEntity="{destination}"/>'
              for relationship, destination, inverse, spec in relationships]
    lines += [f'        <uniquenessConstraints><uniquenessConstraint><constraint value="{unique}"/>'
              '</uniquenessConstraint></uniquenessConstraints>', '    </entity>']
    return "\n".join(lines) + "\n"


TO_ONE, TO_MANY = 'optional="YES" maxCount="1" deletionRule="Nullify"', 'optional="YES" toMany="YES" deletionRule="Nullify"'
STRING, OPTIONAL_STRING, DATE = 'attributeType="String"', 'optional="YES" attributeType="String"', \
    'optional="YES" attributeType="Date" usesScalarValueType="NO"'
# The catalog's model (Catalog.yaml) as an Xcode model: the same entities, attributes,
# relationships, defaults and uniqueness constraints.
CATALOG_XCODE_MODEL = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">\n'
    + xcode_entity("Item", "sku", [
        ("added", DATE),
        ("listed", 'optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"'),
        ("name", STRING), ("notes", OPTIONAL_STRING),
        ("price", 'optional="YES" attributeType="Double" minValueString="0" defaultValueString="0" '
                  'usesScalarValueType="YES"'),
        ("quantity", 'optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"'),
        ("sku", STRING)], [
        ("lists", "ShoppingList", "items", TO_MANY), ("location", "Location", "items", TO_ONE),
        ("tags", "Tag", "items", TO_MANY), ("unit", "Unit", "items", TO_ONE)])
    + xcode_entity("Location", "aisle", [("aisle", STRING)], [("items", "Item", "location", TO_MANY)])
    + xcode_entity("ShoppingList", "code", [("code", STRING), ("created", DATE), ("title", OPTIONAL_STRING)],
                   [("items", "Item", "lists", 'optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify"')])
    + xcode_entity("Tag", "name", [("name", STRING)], [("items", "Item", "tags", TO_MANY)])
    + xcode_entity("Unit", "name", [("name", STRING)],
                   [("items", "Item", "unit", 'optional="YES" toMany="YES" deletionRule="Deny"')])
    + "</model>\n")


def write_catalog_xcode_plan(data: Path) -> Path:
    """The catalog's model as an Xcode model (`Catalog.xcdatamodel`, the same entities, attributes,
    relationships and uniqueness constraints as Catalog.yaml) and the CSV plan over it
    (`catalog-csv-xcode.yaml`), in `data`; returns the plan."""
    plan = (data / "catalog-csv.yaml").read_text()
    if "model: Catalog.yaml\n" not in plan or "  ShoppingList:\n" not in (data / "Catalog.yaml").read_text():
        raise SystemExit("the catalog model changed shape: update CATALOG_XCODE_MODEL")
    (data / "Catalog.xcdatamodel").mkdir(exist_ok=True)
    (data / "Catalog.xcdatamodel" / "contents").write_text(CATALOG_XCODE_MODEL)
    xcode_plan = data / "catalog-csv-xcode.yaml"
    xcode_plan.write_text(plan.replace("model: Catalog.yaml\n", "model: Catalog.xcdatamodel\n")
                          .replace("store: Catalog.sqlite\n", "store: CatalogXcode.sqlite\n"))
    return xcode_plan


def data_tables(connection: sqlite3.Connection) -> list[str]:
    """The entity and join tables of a store (everything but SeedKit's and SQLite's own)."""
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                              "AND name NOT LIKE 'seedkit\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                              "ORDER BY name")
    return [name for (name,) in rows]


def make_partial_store(source: Path, target: Path, share: float) -> None:
    """Copy `source` to `target` keeping the first `share` of each entity's objects (by pk) and the
    join rows among kept objects. With `share` > 0, entities some to-one relationship points at
    are kept whole, so no to-one dangles; `share` 0 gives an empty store with the same model."""
    copy_store(source, target)
    with sqlite3.connect(target) as db:
        (model_json,) = db.execute("SELECT value FROM seedkit_metadata WHERE key = 'model.json'").fetchone()
        entities: dict[str, dict] = json.loads(model_json)["entities"]
        relationships = {(name, rel): spec for name, entity in entities.items()
                         for rel, spec in entity.get("relationships", {}).items()}
        whole = set() if share == 0 else {s["destination"] for s in relationships.values() if not s.get("toMany")}
        tables = set(data_tables(db))
        for name in entities.keys() & tables - whole:
            db.execute(f'DELETE FROM "{name}" WHERE pk > (SELECT CAST(max(pk) * ? AS INTEGER) FROM "{name}")',
                       (share,))
        for (name, rel), spec in relationships.items():
            join = f"{name}_{rel}"
            if join in tables:
                db.execute(f'DELETE FROM "{join}" WHERE src NOT IN (SELECT pk FROM "{name}") '
                           f'OR dst NOT IN (SELECT pk FROM "{spec["destination"]}")')
    with sqlite3.connect(target) as db:
        db.execute("VACUUM")


def copy_script(source: Path, or_ignore: bool) -> str:
    """The sqlite3 shell script copying every data table of `source` into the main database."""
    with sqlite3.connect(source) as db:
        tables = data_tables(db)
    verb = "INSERT OR IGNORE" if or_ignore else "INSERT"
    inserts = "".join(f'{verb} INTO main."{t}" SELECT * FROM src."{t}";\n' for t in tables)
    return f"ATTACH '{source}' AS src;\nBEGIN;\n{inserts}COMMIT;\n"
def evaluate(results: dict[str, Result], n: int) -> list[dict[str, object]]:
    """Each docs/Performance.md target as MET / MISSED (with the ratios) or why it could not be judged."""
    verdicts: list[dict[str, object]] = []
    for target in TARGETS:
        ours, reference = results.get(target.ours), results.get(target.reference)
        verdict: dict[str, object] = {"target": target.name, "threshold": target.threshold, "limit": target.limit}
        if ours is None or reference is None:
            verdict["status"] = "NOT RUN"
        elif ours.status != "ok" or reference.status != "ok":
            bad = ours if ours.status != "ok" else reference
            verdict["status"] = bad.status.upper()
        else:
            ratio, cpu_ratio = ours.wall / reference.wall, ours.cpu / reference.cpu
            verdict.update(ratio=ratio, cpu_ratio=cpu_ratio, status="MET" if ratio <= target.limit else "MISSED",
                           by=ratio / target.limit - 1)
        verdicts.append(verdict)
    for result in results.values():
        if result.status == "ok" and result.ours:
            rss = result.rss_mb
            limit = RSS_LIMIT_MB if result.key.startswith(("import.", "layouts.import")) else RSS_LIMIT_OTHER_MB
            verdicts.append({"target": f"Peak RSS: {result.label}", "threshold": f"≤ {limit:.0f} MB"
                             + ("" if n >= 1_000_000 else " (at 1M)"), "limit": limit, "rss_mb": rss,
                             "status": "MET" if rss <= limit else "MISSED", "by": rss / limit - 1})
    return verdicts


def machine() -> dict[str, object]:
    """The machine and tool versions, for the results file."""
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M)
    memory = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, re.M)
    sqlite_version = subprocess.run(["sqlite3", "--version"], capture_output=True, text=True).stdout.split()
    return {"cpu": model.group(1) if model else platform.processor(), "cores": os.cpu_count(),
            "memory_gb": round(int(memory.group(1)) / 1024 / 1024, 1) if memory else None,
            "kernel": platform.release(), "python": platform.python_version(),
            "sqlite3": sqlite_version[0] if sqlite_version else None, "load_average": os.getloadavg()}


def fmt_rate(value: float) -> str:
    """A rate with thousands separators, or a dash."""
    return f"{value:,.0f}" if value else "—"


def print_report(n: int, runs: int, results: dict[str, Result], verdicts: list[dict[str, object]],
                 load: tuple[float, float]) -> None:
    """The measurement table and the target table on stdout."""
    print(f"\nSeedKit benchmarks: N = {n:,} items + {n // 100:,} lists, median of {runs} runs, "
          f"load average {load[0]:.1f} before / {load[1]:.1f} after ({os.cpu_count()} cores)\n")
    width = max([48] + [len(r.label) for r in results.values()])
    print(f"{'measurement':<{width}} {'wall s':>8} {'CPU s':>8} {'records/s':>11} {'MB/s':>7} {'RSS MB':>7}")
    for r in results.values():
        if r.status != "ok":
            print(f"{r.label:<{width}} {r.status.upper()}: {r.detail}")
            continue
        rate = r.records / r.wall if r.records else 0
        mbs = f"{r.input_bytes / MB / r.wall:7.1f}" if r.input_bytes else f"{'—':>7}"
        print(f"{r.label:<{width}} {r.wall:8.2f} {r.cpu:8.2f} {fmt_rate(rate):>11} {mbs} {r.rss_mb:7.1f}")
    width = max([52] + [len(str(v["target"])) for v in verdicts])
    print(f"\n{'target':<{width}} {'ours s':>8} {'base s':>8} {'ratio':>7} {'CPU':>7}  {'threshold':<20} status")
    for v in verdicts:
        status = str(v["status"])
        if status == "MISSED":
            status += f" by {float(v['by']):.0%}"
        if "ratio" in v:
            target = next(t for t in TARGETS if t.name == v["target"])
            ours, base = results[target.ours], results[target.reference]
            print(f"{v['target']:<{width}} {ours.wall:8.2f} {base.wall:8.2f} {float(v['ratio']):6.2f}× "
                  f"{float(v['cpu_ratio']):6.2f}×  {v['threshold']:<20} {status}")
        elif "rss_mb" in v:
            print(f"{v['target']:<{width}} {float(v['rss_mb']):8.1f} MB{'':<23} {v['threshold']:<20} {status}")
        else:
            print(f"{v['target']:<{width}} {'':<35} {v['threshold']:<20} {status}")


def bar_chart(title: str, unit: str, points: list[tuple[int, float | None]], width: int = 40) -> str:
    """An ASCII bar chart of one value per N."""
    values = [v for _, v in points if v is not None]
    top = max(values, default=0) or 1
    lines = [title]
    for n, value in points:
        if value is None:
            lines.append(f"  {n:>10,} | (not measured)")
        else:
            lines.append(f"  {n:>10,} | {'#' * max(1, round(value / top * width)):<{width}} {value:,.2f} {unit}")
    return "\n".join(lines)


SCALE_KEYS = (("import.csv", "CSV import"), ("import.floor", "C reference"), ("reimport.csv", "re-import"),
              ("copy.empty", "copy into empty"))


def scale(tools: Tools, sizes_n: list[int], seed: int, runs: int, timeout: float, work: Path,
          floor: Path | None) -> None:
    """The scale series: at each N, in key order and shuffled, the CSV import (beside the C
    reference), the re-import and the copy; tables, charts and `.bench/scale.png`."""
    table: dict[str, dict[int, dict[str, Result]]] = {"key order": {}, "shuffled": {}}
    for n in sizes_n:
        for order in table:
            log(f"\n== N = {n:,}, items in {order}")
            data = ensure_data(n, seed, shuffled=order == "shuffled", formats="csv")
            suite = Suite(tools, data, n, runs, timeout, work, floor)
            suite.scale_cases()
            table[order][n] = suite.results
            (BENCH / "scale.json").write_text(json.dumps(
                {"machine": machine(), "seed": seed, "runs": runs, "sizes": sizes_n,
                 "results": {o: {str(k): {key: r.summary() for key, r in v.items()} for k, v in by_n.items()}
                             for o, by_n in table.items()}}, indent=2))
    print_scale(table, sizes_n)
    plot_scale(table, sizes_n, BENCH / "scale.png")
    log(f"\nresults: {(BENCH / 'scale.json').relative_to(ROOT)}")


def print_scale(table: dict[str, dict[int, dict[str, Result]]], sizes_n: list[int]) -> None:
    """The series as a table (seconds, µs per record, peak RSS; the import against the C
    reference) and ASCII charts."""
    print(f"\n{'order':<10} {'N':>11} {'measurement':<18} {'wall s':>8} {'CPU s':>8} {'µs/rec':>7} "
          f"{'RSS MB':>7}  runs")
    for order, by_n in table.items():
        for n in sizes_n:
            for key, name in SCALE_KEYS:
                r = by_n.get(n, {}).get(key)
                if r is None:
                    continue
                if r.status != "ok":
                    print(f"{order:<10} {n:>11,} {name:<18} {r.status.upper()}: {r.detail}")
                    continue
                runs = f"{len(r.clean)}/{len(r.samples)} clean"
                print(f"{order:<10} {n:>11,} {name:<18} {r.wall:8.2f} {r.cpu:8.2f} "
                      f"{r.wall / r.records * 1e6:7.2f} {r.rss_mb:7.1f}  {runs}")
            ours, floor = by_n.get(n, {}).get("import.csv"), by_n.get(n, {}).get("import.floor")
            if ours and floor and ours.status == floor.status == "ok":
                print(f"{order:<10} {n:>11,} {'import / C':<18} {ours.wall / floor.wall:7.2f}× "
                      f"(CPU {ours.cpu / floor.cpu:.2f}×)")
    charts = []
    for order, by_n in table.items():
        for key, name in SCALE_KEYS:
            def pick(n: int, value: Callable[[Result], float]) -> float | None:
                result = by_n.get(n, {}).get(key)
                return value(result) if result and result.status == "ok" else None

            if all(pick(n, lambda r: r.wall) is None for n in sizes_n):
                continue
            charts.append(bar_chart(f"{name} ({order}): time per record", "µs",
                                    [(n, pick(n, lambda r: r.wall / r.records * 1e6)) for n in sizes_n]))
            charts.append(bar_chart(f"{name} ({order}): peak RSS", "MB", [(n, pick(n, lambda r: r.rss_mb))
                                                                          for n in sizes_n]))
    print("\n" + "\n\n".join(charts))


def plot_scale(table: dict[str, dict[int, dict[str, Result]]], sizes_n: list[int], path: Path) -> None:
    """Time and peak RSS against N, one line per measurement and key order, in a PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is not installed (pip install matplotlib): no plot")
        return
    figure, (time_axis, rss_axis) = plt.subplots(1, 2, figsize=(12, 4.8))
    for order, by_n in table.items():
        style = "-" if order == "key order" else "--"
        for index, (key, name) in enumerate(SCALE_KEYS):
            points = [(n, by_n[n][key]) for n in sizes_n if key in by_n.get(n, {}) and by_n[n][key].status == "ok"]
            if not points:
                continue
            label = f"{name} ({order})"
            color = f"C{index}"
            time_axis.plot([n for n, _ in points], [r.wall for _, r in points], style, color=color, marker="o",
                           label=label)
            rss_axis.plot([n for n, _ in points], [r.rss_mb for _, r in points], style, color=color, marker="o",
                          label=label)
    for axis, title, unit in ((time_axis, "wall time", "s"), (rss_axis, "peak RSS", "MB")):
        axis.set_xscale("log")
        axis.set_xlabel("items (N)")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    time_axis.set_yscale("log")
    rss_axis.set_ylim(bottom=0)
    rss_axis.legend(fontsize=7)
    figure.suptitle(f"seedkit scale series ({machine()['cpu']}, {os.cpu_count()} cores)", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    log(f"plot: {path.relative_to(ROOT)}")


def main() -> None:
    """Parse the command line, build, generate, measure and report."""
    global MAX_OTHER_LOAD
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000, help="items in the catalog (default 1,000,000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement, at least 3 (default 3)")
    parser.add_argument("--only", default=",".join(GROUPS), help=f"comma-separated groups: {','.join(GROUPS)}")
    parser.add_argument("--scale", nargs="?", const="default",
                        help="the scale series (at 100k, 1M, 5M; or at the comma-separated Ns given)")
    parser.add_argument("--large", action="store_true", help="with --scale: 20M items too")
    parser.add_argument("--floor", help="the C reference importer (a binary, or its .c source to compile)")
    parser.add_argument("--clone-dir", type=Path,
                        help="a directory on a file system that clones files (Btrfs, XFS, APFS): first launch "
                             "measured there too")
    parser.add_argument("--max-other-load", type=float, default=MAX_OTHER_LOAD,
                        help="runs during which other processes used more than this share of the cores "
                             "are left out of the medians (default 0.25)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run is stopped (default 600)")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already built")
    parser.add_argument("--build-path", help="SwiftPM scratch path to build into / take the binaries from "
                        "(default: .build)")
    args = parser.parse_args()
    groups = [g.strip() for g in args.only.split(",") if g.strip()]
    if args.runs < 3 or not set(groups) <= set(GROUPS):
        parser.error(f"--runs must be at least 3; --only takes {','.join(GROUPS)}")
    MAX_OTHER_LOAD = args.max_other_load
    tools = build(args.no_build, args.build_path)
    floor = floor_program(args.floor)
    BENCH.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=BENCH, prefix="work-") as scratch:
        work = Path(scratch)
        if args.scale:
            sizes_n = list(SCALE_SIZES) if args.scale == "default" else [int(n) for n in args.scale.split(",")]
            if args.large:
                sizes_n.append(LARGE_SIZE)
            scale(tools, sizes_n, args.seed, args.runs, args.timeout, work, floor)
            return
        load_before = os.getloadavg()[0]
        suite = Suite(tools, ensure_data(args.n, args.seed), args.n, args.runs, args.timeout, work, floor)
        steps = {"reader": suite.readers, "import": suite.imports, "reimport": suite.reimport,
                 "copy": suite.copies, "layouts": suite.layouts, "first-launch": lambda: suite.first_launch(args.clone_dir),
                 "migrate": suite.migration}
        for group in GROUPS:
            if group in groups:
                steps[group]()
        verdicts = evaluate(suite.results, args.n)
        load = (load_before, os.getloadavg()[0])
        print_report(args.n, args.runs, suite.results, verdicts, load)
        out = BENCH / f"results-{args.n}.json"
        out.write_text(json.dumps({"n": args.n, "lists": args.n // 100, "seed": args.seed, "runs": args.runs,
                                   "machine": machine(), "load_average_before_after": load,
                                   "results": {k: r.summary() for k, r in suite.results.items()},
                                   "targets": verdicts}, indent=2))
        log(f"\nresults: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
