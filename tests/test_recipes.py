"""Recipes: one decision per run (launch / resume / skip / refuse), decided in Python from the
resolved config and what is on disk; every name they produce is a cell of the report's tables.

The recipes run for real (bash -> python -m pac_verl.launch) with DRY_RUN=1, in a scratch folder
that holds the run logs (runs/) and verl's checkpoints (checkpoints/pac-verl/NAME). A run is
complete when verl's latest_checkpointed_iteration.txt says setting.total_steps (500 multi-level,
400 multi-domain: SPEC section 7). Sweeps are cut to seed 0 by an extra argument (a repeated key
keeps its last value), which keeps the test short and checks that overrides pass through.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_module

from pac_verl.launch import expand
from pac_verl.launch import main as launch_main
from pac_verl.naming import parse_experiment_name, single_label
from pac_verl.report.tables import SETTING_TABLES, TABLES
from pac_verl.resolvers import register_resolvers
from pac_verl.run_logs import ENV, prepare_run_logs

register_resolvers()  # this process composes configs with the experiment name

RECIPES = Path(__file__).resolve().parents[1] / "recipes"
HEADLINE_ML = "multi_level__qwen2.5-3b__pac__seed0"  # Table 1's PAC = Table 4's W=16
HEADLINE_MD = "multi_domain__qwen2.5-7b__pac__seed0"  # Table 2's PAC = Table 5's pac row


def recipe(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(RECIPES / args[0]), *args[1:]], capture_output=True,
                          text=True, cwd=cwd,
                          env=dict(os.environ, DRY_RUN="1", PYTHON=sys.executable))  # fmt: skip


def finished(cwd: Path, overrides: list[str], step: int) -> str:
    """Record a run as the driver does (run.json), then leave verl's tracker at ``step``."""
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=overrides)
    old, env = Path.cwd(), os.environ.get(ENV)
    os.chdir(cwd)  # the configs' paths (runs/, checkpoints/) are relative, as on a node
    try:
        prepare_run_logs(cfg, argv=["main.py", *overrides])
    finally:
        os.chdir(old)
        if env is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = env
    ckpt = cwd / cfg.trainer.default_local_dir
    ckpt.mkdir(parents=True, exist_ok=True)
    (ckpt / "latest_checkpointed_iteration.txt").write_text(str(step))
    return str(cfg.trainer.experiment_name)


@pytest.fixture(scope="module")
def node(tmp_path_factory, tiny_multi_level):
    """A node where both headline runs (seed 0) are complete and the W=4 run stopped at step 120."""
    cwd = tmp_path_factory.mktemp("node")
    # the settings' data folders (the driver fingerprints them into run.json; no row is read here)
    for setting in ("multi_level", "multi_domain"):
        shutil.copytree(tiny_multi_level, cwd / "data" / setting)
    ml = ["setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac", "curriculum.seed=0"]
    md = ["setting=multi_domain", "backbone=qwen2.5-7b", "curriculum=pac", "curriculum.seed=0"]
    assert finished(cwd, ml, 500) == HEADLINE_ML
    assert finished(cwd, md, 400) == HEADLINE_MD
    finished(cwd, [*ml, "curriculum.window=4"], 120)
    outputs = {
        "window_sweep": recipe(cwd, "window_sweep.sh", "curriculum.seed=0"),
        "ablations": recipe(cwd, "ablations.sh", "curriculum.seed=0"),
        "tables_ml": recipe(cwd, "main_tables.sh", "multi_level", "qwen2.5-3b", "curriculum.seed=0"),
        "tables_md": recipe(cwd, "main_tables.sh", "multi_domain", "qwen2.5-7b", "curriculum.seed=0"),
    }  # fmt: skip
    for out in outputs.values():
        assert out.returncode == 0, out.stderr
    return cwd, {k: v.stdout.splitlines() for k, v in outputs.items()}


def decisions(lines: list[str]) -> dict[str, str]:
    return {line.split()[1]: line for line in lines if not line.startswith("+ ")}


def test_window_sweep_skips_the_headline_run_and_resumes_a_stopped_one(node):
    _, out = node
    lines = out["window_sweep"]
    assert lines[:2] == [
        "resume multi_level__qwen2.5-3b__pac__w4__seed0 (step 120 of 500)",
        "+ python -m pac_verl.main setting=multi_level backbone=qwen2.5-3b curriculum=pac "
        "curriculum.window=4 curriculum.seed=0",
    ]
    assert lines[2] == f"skip {HEADLINE_ML} (complete)"  # W=16 is the headline run, not a new one
    assert lines[3] == "launch multi_level__qwen2.5-3b__pac__w32__seed0"
    names = list(decisions(lines))
    assert names == [
        f"multi_level__qwen2.5-3b__pac__{w}seed0" for w in ("w4__", "", "w32__", "w64__",
                                                           "w128__", "w256__")
    ]  # fmt: skip
    assert len(lines) == 6 + 5  # one line per run, a command after each but the skipped one


def test_every_recipe_that_covers_a_complete_run_skips_it(node):
    _, out = node
    for recipe_name, headline in (("window_sweep", HEADLINE_ML), ("tables_ml", HEADLINE_ML),
                                  ("ablations", HEADLINE_MD), ("tables_md", HEADLINE_MD)):  # fmt: skip
        assert decisions(out[recipe_name])[headline] == f"skip {headline} (complete)", recipe_name
        assert not any(headline in line for line in out[recipe_name] if line.startswith("+ "))


def test_ablations_launch_the_three_variants(node):
    _, out = node
    got = decisions(out["ablations"])
    for variant in ("pac_no_adv", "pac_no_prog", "pac_no_ts"):
        name = f"multi_domain__qwen2.5-7b__{variant}__seed0"
        assert got[name] == f"launch {name}"


def test_every_name_the_recipes_produce_is_a_table_cell(node):
    _, out = node
    cells: dict[str, set[int]] = {}
    for lines in out.values():
        for name in decisions(lines):
            key = parse_experiment_name(name)
            for number in SETTING_TABLES[key.setting]:
                spec = TABLES[number]
                st = {single_label([c.task]) for c in spec.columns if c.task}
                if key.method in spec.rows or ("single" in spec.rows and key.curriculum in st):
                    cells.setdefault(name, set()).add(number)
            assert name in cells, f"{name} fills no table"
    assert cells[HEADLINE_ML] == {1, 3, 4} and cells[HEADLINE_MD] == {2, 5}
    assert cells["multi_level__qwen2.5-3b__pac__w64__seed0"] == {4}
    assert cells["multi_level__qwen2.5-3b__single-zebra__seed0"] == {1}
    assert cells["multi_domain__qwen2.5-7b__single-logic__seed0"] == {2}
    assert cells["multi_level__qwen2.5-3b__dump__seed0"] == {1, 3}  # DUMP's own W=300: no tag
    assert cells["multi_domain__qwen2.5-7b__pac_no_ts__seed0"] == {5}
    # Table 1's rows x seeds and every ST column are covered by main_tables.sh
    methods = {parse_experiment_name(n).curriculum for n in decisions(out["tables_ml"])}
    assert methods == {"random", "sec", "dump", "pac", *(f"single-{t}" for t in ("countdown",
                                                                                "zebra", "arc"))}  # fmt: skip


def launch(cwd: Path, monkeypatch, capsys, *overrides: str) -> tuple[int, str, str]:
    """What ``bash recipes/multi_level.sh qwen2.5-3b pac OVERRIDES`` runs, in this process (the
    recipe subprocesses above already cover the bash side)."""
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("DRY_RUN", "1")
    rc = launch_main(["setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac", *overrides])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_finished_run_with_another_config_is_refused_with_the_differing_keys(
    node, monkeypatch, capsys
):
    rc, out, err = launch(node[0], monkeypatch, capsys, "actor_rollout_ref.actor.optim.lr=2e-6")
    assert rc == 2
    [line] = out.splitlines()  # no command: nothing is started
    assert line.startswith(f"refuse {HEADLINE_ML} (config differs from ")
    assert "actor_rollout_ref.actor.optim.lr: 1e-06 -> 2e-06" in line
    assert "nothing started" in err


def test_the_same_config_spelled_differently_is_the_same_run(node, monkeypatch, capsys):
    # curriculum.window=16 is PAC's default: same resolved config, same hash -> skip, not refuse
    rc, out, _ = launch(node[0], monkeypatch, capsys, "curriculum.window=16")
    assert rc == 0 and out.splitlines() == [f"skip {HEADLINE_ML} (complete)"]


@pytest.mark.parametrize(("override", "named"), [
    ("curriculum.windw=3", "curriculum.windw"),
    ("curriculum.window=2", "window W=2 is shorter than min_trend_points=3"),
])  # fmt: skip
def test_a_bad_override_is_one_line_before_anything_starts(
    tmp_path, monkeypatch, capsys, override, named
):
    rc, out, err = launch(tmp_path, monkeypatch, capsys, override)
    assert rc == 2 and "Traceback" not in err and out == ""
    assert named in err and len(err.strip().splitlines()) == 1


def test_sweeps_expand_in_order_and_a_repeated_key_keeps_its_last_value():
    runs = expand(["curriculum=pac,sec", "curriculum.seed=0,1,2", "x=1", "curriculum.seed=5,6"])
    assert runs == [
        ["curriculum=pac", "x=1", "curriculum.seed=5"],
        ["curriculum=pac", "x=1", "curriculum.seed=6"],
        ["curriculum=sec", "x=1", "curriculum.seed=5"],
        ["curriculum=sec", "x=1", "curriculum.seed=6"],
    ]
    assert expand(["trainer.logger=[console,file]"]) == [["trainer.logger=[console,file]"]]


def test_missing_arguments_are_a_usage_error():
    res = subprocess.run(["bash", str(RECIPES / "multi_level.sh")], capture_output=True, text=True)
    assert res.returncode != 0 and "usage:" in res.stderr
