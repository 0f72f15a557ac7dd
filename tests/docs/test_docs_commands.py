"""The docs build's command check (docs/_ext/command_check.py): what it reads as a command, and
that a documented command which does not exist fails it. The build itself (sphinx-build -W in the
README's test command) runs the check on every page."""

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]'")
ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "command_check", ROOT / "docs" / "_ext" / "command_check.py"
)
command_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(command_check)


def test_a_shown_line_is_cut_at_its_subcommand():
    key = command_check.command_key
    assert key("pac-verl smoke --out s curriculum=sec") == ("pac-verl", "smoke")
    assert key("pac-verl prep multi-level --out data/ml  # 90,000 rows") == (
        "pac-verl", "prep", "multi-level"
    )  # fmt: skip
    assert key("pac-verl preflight setting=multi_level [overrides]") == ("pac-verl", "preflight")
    assert key("pac-verl watch runs/x --once") == ("pac-verl", "watch")
    assert key("DRY_RUN=1 bash recipes/window_sweep.sh curriculum.seed=1") == (
        "bash", "recipes/window_sweep.sh"
    )  # fmt: skip
    assert key("python -m pac_verl.main setting=toy --cfg job") == ("python", "-m", "pac_verl.main")
    assert key("python scripts/bench/sandbox.py --n 200") == ("python", "scripts/bench/sandbox.py")
    assert key("ray start --head --port=6379") is None
    assert key("pip install -e .") is None


def test_commands_that_exist_pass():
    check = command_check.check
    assert check(("pac-verl", "prep", "check")) is None
    assert check(("bash", "recipes/multi_level.sh")) is None
    assert check(("python", "scripts/bench/sandbox.py")) is None


def test_a_documented_command_that_does_not_exist_fails():
    check = command_check.check
    assert "exited 2" in check(("pac-verl", "no-such-command"))
    assert "invalid choice" in check(("pac-verl", "prep", "no-such-builder"))
    assert "does not exist" in check(("bash", "recipes/no_such_recipe.sh"))
    assert "does not exist" in check(("python", "scripts/bench/no_such_bench.py"))
    assert "exited" in check(("python", "-m", "pac_verl.no_such_module"))
