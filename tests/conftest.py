"""Fixtures shared by test files, the shared helper modules beside this file (verl_helpers,
verl_standins, sampler_helpers, fusion_stub, command_helpers, prompt_text_helpers) importable from
every test folder, and how ``pytest -n 2`` spreads the tests over its workers
(docs/development/testing.md#how-long-ci-takes)."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Ray starts its workers at nice 15 unless told otherwise: on a machine where anything else runs at
# nice 0 (another test worker, another job) they get a few percent of a core and a test that
# trains for a minute takes ten. The tests' Ray clusters, those of the commands they start
# included (they inherit this), run their workers at the tests' own priority instead.
os.environ.setdefault("RAY_worker_niceness", "0")

# A test run started in the background by a non-interactive shell (`bash -c '... &'`) ignores
# SIGINT, and the commands it starts inherit that: the tests that interrupt `pac-verl simulate`
# and `pac-verl watch` would see them run on. Ctrl-C behaves as in a terminal instead.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@functools.cache
def _starts_ray(path: Path) -> bool:
    return "pytest.mark.ray" in path.read_text()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``pytest -n 2`` (pytest-xdist's default ``--dist load``): a file's tests run on one worker,
    so that its module fixtures (a training run, a built data set) are made once, and the files
    that hold a test marked ``ray`` run on one worker, one after another
    (docs/development/testing.md). The scheduler sees test ids only, so a file joins the Ray
    group by naming the mark."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "ray" if _starts_ray(config.rootpath / path) else path

    return ByFile(config, log)


_LOCKS: dict[str, int] = {}
_REPORTED_WAIT_S = 5.0  # a wait for the serial lock this long is listed at the end of the run
_WAITS: list[tuple[str, float]] = []
_HELD = {"serial": False}  # this process keeps the room from one serial test to the next


def _lock(config: pytest.Config, name: str) -> int:
    """A lock file shared by every test process of this checkout: ``pytest -n 2``'s workers and
    the lanes' pytest runs (scripts/ci/lanes.sh) that the test command starts beside them."""
    if name not in _LOCKS:
        checkout = hashlib.sha256(str(config.rootpath).encode()).hexdigest()[:16]
        path = Path(tempfile.gettempdir()) / f"pac-tests-{checkout}-{name}.lock"
        _LOCKS[name] = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    return _LOCKS[name]


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """A test marked ``serial`` (it counts processes or files machine-wide) runs while no other
    test process of this checkout runs a test: a readers-writer lock across ``pytest -n 2``'s
    workers and the lanes' pytest runs, with the waiting writer first (the turnstile), held from
    one ``serial`` test to the next. Outside pytest-timeout's timer: the wait is not the test's
    time. A test process alone takes it uncontended."""
    turnstile, room = _lock(item.config, "turnstile"), _lock(item.config, "room")
    serial = item.get_closest_marker("serial") is not None
    waited = time.monotonic()
    if not _HELD["serial"]:
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        if serial:
            fcntl.flock(room, fcntl.LOCK_EX)
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        else:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            fcntl.flock(room, fcntl.LOCK_SH)
    waited = time.monotonic() - waited
    if waited >= _REPORTED_WAIT_S:  # shown at the end of the run (pytest_terminal_summary)
        item.user_properties.append(("waited_for_the_room_s", round(waited, 1)))
    try:
        yield
    finally:
        keep = serial and nextitem is not None and nextitem.get_closest_marker("serial") is not None
        _HELD["serial"] = keep
        if not keep:
            fcntl.flock(room, fcntl.LOCK_UN)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "setup":  # every worker's reports reach the controlling process
        _WAITS.extend(
            (report.nodeid, s) for k, s in report.user_properties if k == "waited_for_the_room_s"
        )


def pytest_terminal_summary(terminalreporter) -> None:
    """The tests that waited for the serial lock (a ``serial`` test for the others to finish,
    or a test for a ``serial`` one): the time two workers and the lanes lose to it."""
    if _WAITS:
        terminalreporter.section("waits for the serial lock")
        for nodeid, seconds in sorted(_WAITS, key=lambda w: -w[1]):
            terminalreporter.write_line(f"{seconds:8.1f}s  {nodeid}")
        terminalreporter.write_line(f"{sum(s for _, s in _WAITS):8.1f}s  in all")


@pytest.fixture(autouse=True)
def project_home(tmp_path, monkeypatch):
    """Relative run paths (data/, runs/, checkpoints/) resolve under ``PAC_HOME``
    (:mod:`pac_verl.paths`), by default the checkout: every test gets its own ``tmp_path``
    instead, so that no test writes into the checkout (a test may set it again)."""
    monkeypatch.setenv("PAC_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="session")
def tiny_multi_level(tmp_path_factory):
    """A small multi-level build (2 rows per arm, 1 validation row per task and level), for tests
    whose driver fingerprints the data files into run.json but reads no rows. Read-only: copy it
    before changing a file."""
    from pac_verl.data_prep.multi_level import build_multi_level

    folder = tmp_path_factory.mktemp("tiny_multi_level")
    build_multi_level(folder, train_per_arm=2, val_per_level=1, seed=0, quiet=True, workers=1,
                      force=True)  # fmt: skip
    return folder


@pytest.fixture(scope="session")
def small_multi_level(tmp_path_factory):
    """The multi-level build the preflight's tests read: 8 rows per arm, 2 validation rows per task
    and level, seed 1 (9 arms of 8: a batch of 9 draws one prompt per arm). Read-only: copy it
    before changing a file."""
    from pac_verl.data_prep.multi_level import build_multi_level

    folder = tmp_path_factory.mktemp("small_multi_level")
    build_multi_level(folder, 8, 2, seed=1, quiet=True, workers=1)
    return folder


@pytest.fixture(scope="session")
def tiny_code_data(tmp_path_factory):
    """A multi-domain-like data set that holds code rows (so the sandbox is checked): 2 code and
    2 math rows to train on, 1 code row to validate, each code row testing ``add``."""
    from pac_verl.data_prep.rows import make_row, write_parquet

    add = {"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"}
    root = tmp_path_factory.mktemp("code-data")
    rows = [make_row(data_source="code", prompt=f"Write add ({i}).", task_type="code",
                     ground_truth=add, split="train", index=i) for i in range(2)]  # fmt: skip
    rows += [make_row(data_source="math", prompt=f"What is {i} + 1?", task_type="math",
                      ground_truth=str(i + 1), split="train", index=2 + i) for i in range(2)]  # fmt: skip
    write_parquet(rows, root / "train.parquet")
    write_parquet([make_row(data_source="bigcodebench", prompt="Write add.", task_type="code",
                            ground_truth=add, split="test", index=0)], root / "val.parquet")  # fmt: skip
    return root
