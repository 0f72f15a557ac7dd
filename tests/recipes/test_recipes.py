"""Recipes: one decision per run (launch / resume / skip / refuse), decided in Python from the
resolved config and what is on disk; every name they produce is a cell of the report's tables.

The recipes run for real (bash -> python -m pac_verl.launch) with DRY_RUN=1, in a scratch folder
that holds the run logs (runs/) and verl's checkpoints (checkpoints/pac-verl/NAME). A run is
complete when verl's latest_checkpointed_iteration.txt says setting.total_steps (500 multi-level,
400 multi-domain: docs/concepts/spec.md#settings). Sweeps are cut to seed 0 by an extra argument (a repeated key
keeps its last value), which keeps the test short and checks that overrides pass through.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hydra import compose, initialize_config_module

from pac_verl.launch import expand
from pac_verl.launch import main as launch_main
from pac_verl.naming import parse_experiment_name, single_label
from pac_verl.report.tables import SETTING_TABLES, TABLES
from pac_verl.resolvers import register_resolvers
from pac_verl.run_logs import ENV, prepare_run_logs

register_resolvers()  # this process composes configs with the experiment name

RECIPES = Path(__file__).resolve().parents[2] / "recipes"
HEADLINE_ML = "multi_level__qwen2.5-3b__pac__seed0"  # Table 1's PAC = Table 4's W=16
HEADLINE_MD = "multi_domain__qwen2.5-7b__pac__seed0"  # Table 2's PAC = Table 5's pac row


def recipe(home: Path, *args: str, cwd: Path | None = None,
           recipes: Path = RECIPES) -> subprocess.CompletedProcess:  # fmt: skip
    """``DRY_RUN=1 bash recipes/ARGS`` run from ``cwd`` (default ``home``) with ``PAC_HOME=home``
    (``home=None``: PAC_HOME unset, as a user without it)."""
    env = dict(os.environ, DRY_RUN="1", PYTHON=sys.executable)
    env.pop("PAC_HOME", None)
    if home is not None:
        env["PAC_HOME"] = str(home)
    return subprocess.run(["bash", str(recipes / args[0]), *args[1:]], capture_output=True,
                          text=True, cwd=cwd or home, env=env)  # fmt: skip


def finished(home: Path, overrides: list[str], step: int) -> str:
    """Record a run as the driver does (run.json), then leave verl's tracker at ``step``."""
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=overrides)
    saved = {k: os.environ.get(k) for k in (ENV, "PAC_HOME")}
    os.environ["PAC_HOME"] = str(home)  # the configs' paths (runs/, checkpoints/) are relative
    try:
        prepare_run_logs(cfg, argv=["main.py", *overrides])
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    ckpt = Path(cfg.trainer.default_local_dir)  # made absolute under the home by the driver
    assert ckpt.is_relative_to(home)
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
    return {line.split()[1].rstrip(":"): line for line in lines if not line.startswith("+ ")}


def where(home: Path, name: str, setting: str = "multi_level") -> str:
    """The absolute paths a launch or resume line ends with."""
    return (f"data {home}/data/{setting}/{{train.parquet,val.parquet}}, logs {home}/runs/{name}, "
            f"checkpoints {home}/checkpoints/pac-verl/{name}")  # fmt: skip


def test_window_sweep_skips_the_headline_run_and_resumes_a_stopped_one(node):
    home, out = node
    lines = out["window_sweep"]
    w4 = "multi_level__qwen2.5-3b__pac__w4__seed0"
    assert lines[:2] == [
        f"resume {w4} (step 120 of 500): {where(home, w4)}",
        f"+ PAC_HOME={home} python -m pac_verl.main setting=multi_level backbone=qwen2.5-3b "
        "curriculum=pac curriculum.window=4 curriculum.seed=0",
    ]
    assert lines[2] == f"skip {HEADLINE_ML} (complete)"  # W=16 is the headline run, not a new one
    w32 = "multi_level__qwen2.5-3b__pac__w32__seed0"
    assert lines[3] == f"launch {w32}: {where(home, w32)}"
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
    home, out = node
    got = decisions(out["ablations"])
    for variant in ("pac_no_adv", "pac_no_prog", "pac_no_ts"):
        name = f"multi_domain__qwen2.5-7b__{variant}__seed0"
        assert got[name] == f"launch {name}: {where(home, name, 'multi_domain')}"


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


def launch(home: Path, monkeypatch, capsys, *overrides: str) -> tuple[int, str, str]:
    """What ``bash recipes/multi_level.sh qwen2.5-3b pac OVERRIDES`` runs, in this process (the
    recipe subprocesses above already cover the bash side)."""
    monkeypatch.setenv("PAC_HOME", str(home))
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
    ("curriculum.windw=3", "curriculum.windw is not a key of this run's config (did you mean "
                           "curriculum.window?)"),
    ("+trainer.n_gpu_per_node=4", "(did you mean trainer.n_gpus_per_node?)"),
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


def test_a_recipe_decides_the_same_from_any_directory(tmp_path, tiny_multi_level):
    # a checkout of the project: its recipes and data; a run stopped at step 50. Without
    # PAC_HOME the recipes take the checkout they are in as the home, whatever the directory
    proj = tmp_path / "proj"
    shutil.copytree(RECIPES, proj / "recipes")
    shutil.copytree(tiny_multi_level, proj / "data" / "multi_level")
    ml = ["setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac"]
    name = finished(proj, ml, 50)
    outs = [recipe(None, "multi_level.sh", "qwen2.5-3b", "pac", cwd=cwd, recipes=proj / "recipes")
            for cwd in (proj, proj / "recipes", tmp_path)]  # fmt: skip
    for out in outs:
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines() == [
            f"resume {name} (step 50 of 500): {where(proj, name)}",
            f"+ PAC_HOME={proj} python -m pac_verl.main setting=multi_level backbone=qwen2.5-3b "
            "curriculum=pac",
        ]
    # PAC_HOME names another home: its (missing) data, from any directory
    other = tmp_path / "other"
    other.mkdir()
    for cwd in (proj, other):
        out = recipe(other, "multi_level.sh", "qwen2.5-3b", "pac", cwd=cwd,
                     recipes=proj / "recipes")  # fmt: skip
        assert out.returncode == 2 and f"{other}/data/multi_level/train.parquet" in out.stdout


def test_a_launch_without_its_data_is_refused_before_anything_starts(tmp_path):
    out = recipe(tmp_path, "seeds.sh", "multi_level", "qwen2.5-3b", "pac")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    data = tmp_path / "data" / "multi_level"
    assert out.stdout.splitlines() == [
        f"refuse multi_level__qwen2.5-3b__pac__seed{k} (no data file {data}/train.parquet, "
        f"{data}/val.parquet: build it with pac-verl prep (docs/guides/data.md), or set "
        "setting.data_dir)" for k in range(3)]  # fmt: skip
    assert "refused 3 run(s)" in out.stderr and "nothing started" in out.stderr
    assert not (tmp_path / "runs").exists() and not (tmp_path / "checkpoints").exists()


def test_a_resume_on_other_data_is_refused_by_the_launcher(tmp_path, tiny_multi_level):
    data = tmp_path / "data" / "multi_level"
    shutil.copytree(tiny_multi_level, data)
    name = finished(tmp_path, ["setting=multi_level", "curriculum.seed=0"], 50)
    table = pq.read_table(data / "val.parquet")  # a rebuild under the run: one row less
    pq.write_table(table.slice(1), data / "val.parquet")
    out = recipe(tmp_path, "multi_level.sh", "qwen2.5-3b", "pac")
    assert out.returncode == 2
    assert out.stdout.startswith(f"refuse {name} (data.val_files ({data}/val.parquet) changed")


def test_a_pac_home_that_does_not_exist_is_one_line(tmp_path):
    out = recipe(tmp_path / "nowhere", "multi_level.sh", "qwen2.5-3b", "pac", cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.strip() == (f"pac_verl.launch: error: PAC_HOME={tmp_path / 'nowhere'}: no "
                                  "such folder (it is the folder relative data, runs/ and "
                                  "checkpoints/ paths are taken from)")  # fmt: skip
