"""Running the project's commands from tests: where the venv's console scripts are, and the check
that a refusal is one line naming the fix (docs/guides/shorten-clean-retry.md)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent  # the venv's bin: pac-verl and the interpreter the tests run on
PAC_VERL = shutil.which("pac-verl", path=str(BIN)) or "pac-verl"


def assert_one_line(res: subprocess.CompletedProcess, *named: str) -> None:
    """Exit status 2 and one line on stderr, no traceback, holding every text in ``named``."""
    err = res.stderr.strip()
    assert res.returncode == 2, (res.returncode, res.stdout[-2000:], err[-2000:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for text in named:
        assert text in err, err
