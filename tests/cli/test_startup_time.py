"""The "with start-up" seconds of ``pac-verl quickstart`` and ``preflight`` count this command's
start-up, not what ran in the process before it exec'd the command (``uv run`` installs the
project, then execs it: the process's creation time is the install's)."""

from __future__ import annotations

import subprocess
import sys


def test_start_up_time_does_not_count_what_ran_before_an_exec():
    # a shell that spends 3 s (the install) and then execs Python in the same process
    code = "from pac_verl.progress import process_seconds; print(process_seconds())"
    res = subprocess.run(["bash", "-c", f'sleep 3; exec "{sys.executable}" -c "{code}"'],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert 0 < float(res.stdout) < 2.5, res.stdout
