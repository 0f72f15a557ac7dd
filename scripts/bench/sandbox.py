"""Benchmark: code verifications per second per core under strict isolation.

Simple functional tests (Code-R1 format), half correct and half wrong, scored by ``code.score``
from as many threads as there are cores, next to the physical limit on the same machine (the
spawn rate of a bare ``python -c pass``, same interpreter, same concurrency) and verl 0.7.1's own
``prime_code`` path (no isolation: it forks the calling process and ``exec``s the program there;
imported with a bench-only stand-in for ``pyext``, see ``reference_scorers.py``), on the same
two asserts written as its call-based test. verl's ``sandbox_fusion`` path needs a service.
Target: >= 20 verifications/s/core and >= 1/3 of the bare spawn rate.
``scripts/bench/rewards.py`` calls :func:`code_section`.

Rates need idle cores, and the concurrency slots are node-wide: other sandbox users on the machine
lower ours. So where it can (root, cgroup v1), the bench also counts CPU time: it runs inside a
cpuacct cgroup of its own, below which the sandbox makes its run groups, so the CPU of every
process of a verification is counted (bubblewrap's pid 1, which outlives the launcher, included;
the kernel's deferred work, such as tearing a network namespace down, is not), and the same for the
bare spawns: ms of CPU per verification against ms per bare spawn, which shared load barely moves.

    python scripts/bench/sandbox.py [--n 200]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import reference_scorers  # scripts/bench/reference_scorers.py, beside this script

from pac_verl.progress import print_summary
from pac_verl.verifiers import code
from pac_verl.verifiers.sandbox import cgroup as sandbox_cgroup
from pac_verl.verifiers.sandbox import isolation_report

TRUTH = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
ANSWERS = [("def add(a, b):\n    return a + b", True), ("def add(a, b):\n    return a - b", False)]


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


@contextlib.contextmanager
def _cpu_meter():
    """Yields a function giving the CPU seconds of this process and everything it started since
    entering (a v1 cpuacct cgroup of its own, the sandbox's run groups made below it), or None
    where that cannot be had: cgroup v2 (a cgroup with processes cannot have controlled
    children), no permission, or this process's sandbox cgroup layout already fixed elsewhere."""
    usage = CPUACCT / "cpuacct.usage"
    if sandbox_cgroup.layout.cache_info().currsize or not usage.exists():
        yield None
        return
    own = next(ln.split(":", 2)[2] for ln in Path("/proc/self/cgroup").read_text().splitlines()
               if "cpuacct" in ln.split(":", 2)[1].split(","))  # fmt: skip
    home = CPUACCT / own.lstrip("/")
    meter = home / f"pac-bench-{os.getpid()}"
    try:
        meter.mkdir()
        (meter / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        with contextlib.suppress(OSError):
            meter.rmdir()
        yield None
        return
    try:
        yield lambda: int((meter / "cpuacct.usage").read_text()) / 1e9
    finally:
        (home / "cgroup.procs").write_text(str(os.getpid()))
        sandbox_cgroup.layout.cache_clear()  # its parents lay below the meter
        for d in (meter / "pac-sandbox", meter):
            with contextlib.suppress(OSError):
                d.rmdir()


def _rate(fn, n: int, workers: int, cpu=None) -> tuple[float, float, float | None]:
    """(runs per second per worker, share of right verdicts, ms of CPU per run or None)."""
    c0 = cpu() if cpu else 0.0
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        ok = sum(pool.map(fn, range(n)))
    dt = time.perf_counter() - t0
    return n / dt / workers, ok / n, (1000 * (cpu() - c0) / n if cpu else None)


def code_section(n: int = 200) -> list[list[object]]:
    cores = len(os.sched_getaffinity(0))

    def ours(i: int) -> bool:
        src, right = ANSWERS[i % 2]
        return code.score(f"```python\n{src}\n```", TRUTH).correct == right

    def bare(i: int) -> bool:
        return subprocess.run([sys.executable, "-c", "pass"]).returncode == 0

    rows = []
    with _cpu_meter() as cpu:
        code.score(f"```python\n{ANSWERS[0][0]}\n```", TRUTH)  # once: the checks of a first run
        per_core, agree, our_ms = _rate(ours, n, cores, cpu)
        bare_rate, _, bare_ms = _rate(bare, n, cores, cpu)
        level = isolation_report()["isolation"]
        references = reference_rows(n, cores, cpu)
    rows.append([f"pac-verl code ({level})", n, round(per_core, 1), agree])
    rows.append(["bare `python -c pass` spawn", n, round(bare_rate, 1), "-"])
    rows.append(["ours / bare spawn", "", round(per_core / bare_rate, 2), "-"])
    if our_ms is not None:
        rows.append(["  ms of CPU per verification", n, round(our_ms, 1), "all its processes"])
        rows.append(["  ms of CPU per bare spawn", n, round(bare_ms, 1), "-"])
        rows.append(["  bare / ours, by CPU", "", round(bare_ms / our_ms, 2), "-"])
    rows += references
    return rows


# the same two asserts as an APPS call-based test for prime_code (one JSON argument per line)
PRIME_TRUTH = json.dumps({"fn_name": "add", "inputs": ["2\n3", "-1\n1"], "outputs": ["5", "0"]})


def reference_rows(n: int, cores: int, cpu=None) -> list[list[object]]:
    """verl 0.7.1's own code paths on the same programs and tests, same concurrency."""
    rows: list[list[object]] = []
    try:  # pyext (verl's `prime` extra) does not build on 3.11: a bench-only shim stands in
        prime_code, how = reference_scorers.prime_code()
    except ImportError as err:
        rows.append(["verl prime_code (no sandbox)", 0, "n/a", f"does not import here: {err}"])
    else:

        def theirs(i: int) -> bool:
            src, right = ANSWERS[i % 2]
            response = f"```python\n{src}\n```"
            return reference_scorers.prime_code_accepts(prime_code, response, PRIME_TRUTH) == right

        rate, agree, ms = _rate(theirs, n, cores, cpu)
        shim = ", pyext shim" if how == "shim" else ""
        rows.append([f"verl prime_code (no sandbox{shim})", n, round(rate, 1), agree])
        if ms is not None:
            rows.append(["  ms of CPU per prime_code verification", n, round(ms, 1), "-"])
    rows.append(["verl sandbox_fusion", 0, "n/a", "needs a SandboxFusion service (none here; "
                 "the tests' stub server runs no program, so its rate would mean nothing)"])  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()
    print_summary(
        f"Code verifications per second per core ({len(os.sched_getaffinity(0))} cores)",
        ["scorer", "runs", "per s per core", "agreement"],
        code_section(args.n),
    )


if __name__ == "__main__":
    main()
