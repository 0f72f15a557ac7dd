"""A recipe run with an interpreter that lacks the project (no virtual environment active) ends in
one line naming what to activate, not in ``No module named 'hydra'`` from inside the launcher."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def recipe(env_extra: dict[str, str], home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": "/usr/bin:/bin", "PAC_HOME": str(home), **env_extra}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(["bash", str(ROOT / "recipes" / "multi_level.sh"), "qwen2.5-3b", "pac"],
                          cwd=home, env=env, capture_output=True, text=True, timeout=60)  # fmt: skip


def system_python() -> str | None:
    for name in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if Path(name).is_file():
            probe = subprocess.run([name, "-c", "import hydra"], capture_output=True)
            if probe.returncode != 0:
                return name
    return None


@pytest.mark.skipif(system_python() is None, reason="no interpreter without hydra on this machine")
def test_a_python_without_the_project_names_what_to_activate(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(system_python(), tmp_path / ".venv" / "bin" / "python")  # a checkout's venv
    res = recipe({"PYTHON": system_python()}, tmp_path)
    err = res.stderr.strip()
    assert res.returncode == 2 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "has no pac-verl (no module hydra or pac_verl)" in err
    assert f"activate the project's environment (. {tmp_path}/.venv/bin/activate)" in err


def test_no_python_on_the_path_is_one_line(tmp_path):
    res = recipe({"PYTHON": "python-that-is-not-there"}, tmp_path)
    err = res.stderr.strip()
    assert res.returncode == 2 and len(err.splitlines()) == 1, err
    assert "no 'python-that-is-not-there' on PATH" in err and "pip install -e ." in err
