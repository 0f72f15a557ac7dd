"""Fixtures shared by test files, and the shared helper modules beside this file (verl_helpers,
verl_standins, sampler_helpers, fusion_stub) importable from every test folder."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# A test run started in the background by a non-interactive shell (`bash -c '... &'`) ignores
# SIGINT, and the commands it starts inherit that: the tests that interrupt `pac-verl simulate`
# and `pac-verl watch` would see them run on. Ctrl-C behaves as in a terminal instead.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
