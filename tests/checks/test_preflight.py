"""`pac-verl preflight` end to end on generated data, and its clear errors."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pac_verl.checks.preflight import run
from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.errors import UserError


@pytest.fixture(scope="module")
def data_dir(small_multi_level):
    return small_multi_level


@pytest.mark.node_versions
def test_preflight_draws_batches_and_scores_every_gold(data_dir, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=9", "curriculum=random"],
                  batches=4)  # fmt: skip
    assert len(out["arms"]) == 9
    assert sum(out["shares"].values()) == 4 * 9
    assert sum(n for (ds, status), n in out["gold"].items() if status == "ok") == 3 * 4 * 2
    assert not any(status != "ok" for _, status in out["gold"])


def test_missing_data_file_names_the_key(tmp_path):
    with pytest.raises(UserError, match=r"data.train_files: no such file .*nowhere/train.parquet"):
        run([f"setting.data_dir={tmp_path / 'nowhere'}"])


def test_validation_rows_that_a_training_row_asks_are_refused(data_dir, tmp_path):
    # a validation file that holds the training file's rows: every validation row asks what a
    # training row asks (72 rows, 8 per arm)
    import shutil

    shutil.copy(data_dir / "train.parquet", tmp_path / "train.parquet")
    shutil.copy(data_dir / "train.parquet", tmp_path / "val.parquet")
    with pytest.raises(UserError, match=r"72 .*validation"):
        run([f"setting.data_dir={tmp_path}", "data.train_batch_size=9"])


def test_bad_override_is_one_clear_error(data_dir, tmp_path):
    res = subprocess.run(["pac-verl", "preflight", f"setting.data_dir={data_dir}", "curriculum=pcc"],
                         capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert res.returncode == 2
    assert "pac-verl preflight: error: config:" in res.stderr and "pcc" in res.stderr
    assert "Traceback" not in res.stderr


def test_preflight_draws_past_the_end_of_a_small_training_file(data_dir, monkeypatch, tmp_path):
    # 72 training rows hold one batch of 72 (8 prompts for each of 9 arms, as many as each arm
    # has): three batches go into the next epochs, as verl's loop does
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=72"], batches=3)
    assert sum(out["shares"].values()) == 3 * 72


def test_an_arm_smaller_than_its_share_of_a_batch_is_refused(data_dir):
    # B = 256 over 9 arms: 29 prompts per arm on average in the cold start, the pools hold 8
    with pytest.raises(UserError, match=r"arm 'arc/1' has 8 rows .*fewer than the 29 prompts"):
        run([f"setting.data_dir={data_dir}", "data.train_batch_size=256"])


def test_single_task_needs_only_its_own_arms_to_be_large_enough(data_dir, monkeypatch, tmp_path):
    # ST on countdown draws from 3 arms: B = 24 needs 8 prompts each, which they have; over all
    # 9 arms the same B would need 3, so the rule must count the drawable arms, not all of them
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=24", "curriculum=single",
                   "curriculum.train_arms=[countdown]"], batches=2)  # fmt: skip
    assert set(out["shares"]) == {"countdown/1", "countdown/2", "countdown/3"}
    with pytest.raises(
        UserError, match=r"fewer than the 9 prompts a batch of 27 gives each of its 3"
    ):
        run([f"setting.data_dir={data_dir}", "data.train_batch_size=27", "curriculum=single",
             "curriculum.train_arms=[countdown]"])  # fmt: skip


@pytest.mark.verl_line
def test_training_rows_are_checked_on_a_sample_that_the_summary_counts(data_dir, tmp_path, capsys,
                                                                        monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=9"], sample_rows=20)
    assert (out["train_checked"], out["train_rows"]) == (20, 72)
    printed = capsys.readouterr().out
    assert "train rows checked: 20 of 72" in printed
    # the summary names the verl line in use, and on 0.9.1 the trainer it runs
    import verl

    assert f"verl: verl {verl.__version__}" in printed
    assert ("trainer.use_v1=false" in printed) == (verl.__version__ == "0.9.1")


def test_the_config_composes_as_hydra_would_without_importing_verl():
    # the preflight reads verl's configs from their folder so that a bad config fails before
    # torch loads; it must be the very config of pkg://verl.trainer.config
    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf

    from pac_verl.compose import _compose

    mine = _compose(["curriculum=sec"])
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    with initialize_config_module("pac_verl.configs", version_base=None):
        hydras = compose("pac_trainer", overrides=["curriculum=sec"])
    assert OmegaConf.to_yaml(mine) == OmegaConf.to_yaml(hydras)
    # a key only verl's ppo_trainer.yaml sets (none of our groups does)
    assert OmegaConf.select(mine, "actor_rollout_ref.actor.clip_ratio_c") == 3.0


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("data.train_batch_size=abc", r"data.train_batch_size must be an integer .*got 'abc'"),
        ("data.train_batch_size=2.5", r"data.train_batch_size must be an integer .*got 2.5"),
        ("trainer.val_before_train=1", r"trainer.val_before_train must be a boolean .*got 1"),
        ("curriculum.window=abc", r"curriculum.window must be an integer .*got 'abc'"),
        ("curriculum.delta2=x", r"curriculum.delta2 must be a number .*got 'x'"),
        ("curriculum.alpha=0.3", r"curriculum.alpha is not a key of this run's config$"),
        ("+curriculum.alpha=0.3", r"\+curriculum.alpha adds a key that nothing .* reads;"),
        (
            "curriculum.windw=3",
            r"curriculum.windw is not a key .*\(did you mean "
            r"curriculum.window\?\)",
        ),
        (
            "+trainer.n_gpu_per_node=4",
            r"\+trainer.n_gpu_per_node adds a key that nothing in "
            r"verl or pac-verl reads \(did you mean "
            r"trainer.n_gpus_per_node\?\)",
        ),
        ("curriculum=single", r"curriculum=single needs curriculum.train_arms"),
    ],
)
def test_config_values_keep_their_defaults_type(override, message):
    from pac_verl.compose import compose_config

    with pytest.raises(UserError, match=message):
        compose_config([override])


@pytest.mark.parametrize(
    ("group", "message"),
    [
        ({"name": "pac", "window": "abc"}, r"curriculum.window must be an integer .*got 'abc'"),
        ({"name": "pac", "alpha": 0.3}, r"curriculum.alpha: curriculum 'pac' has no such setting"),
        ({"name": "nope"}, r"curriculum.name 'nope': choose one of"),
        ({"name": "single", "train_arms": "???"}, r"curriculum=single needs curriculum.train_arms"),
        # PACConfig's own range check: a 3-step window can never hold min_trend_points=5 points
        ({"name": "pac", "window": 3, "min_trend_points": 5}, r"window"),
    ],
)
def test_resolved_curriculum_group_gets_the_same_check(group, message):
    """The launcher and the driver check a resolved group (a plain dict) with the function the
    command-line check uses, so one bad value reads the same wherever it is caught."""
    from pac_verl.curriculum.registry import check_curriculum

    with pytest.raises(UserError, match=message):
        check_curriculum(group)


def test_config_accepts_what_verl_accepts():
    from pac_verl.compose import compose_config

    cfg = compose_config(["trainer.total_training_steps=null", "curriculum.delta2=1",
                          "actor_rollout_ref.rollout.gpu_memory_utilization=0.5",
                          "+actor_rollout_ref.model.override_config.attn_implementation=sdpa",
                          "+ray_kwargs.ray_init.runtime_env.env_vars.X=1"])  # fmt: skip
    assert cfg.trainer.total_training_steps is None and cfg.curriculum.delta2 == 1
    assert cfg.actor_rollout_ref.model.override_config.attn_implementation == "sdpa"


def _pad_prompts(path, picks, words: int) -> None:
    """Append ``words`` one-token words to the prompt of the rows ``picks`` chooses."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    rows = table.to_pylist()
    for row in picks(rows):
        row["prompt"][-1]["content"] += " w1" * words
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)


@pytest.mark.node_versions
def test_preflight_reports_what_the_prompt_length_filter_drops(
    small_multi_level, tmp_path, monkeypatch
):
    """verl drops over-long prompts without a word: the preflight counts them per
    training arm and per validation source. The test tokenizer is word-level (one token per word
    or punctuation run), so 2,100 added words put a prompt over data.max_prompt_length=2,048."""
    import re
    import sys
    from pathlib import Path

    import pyarrow.parquet as pq

    sys.path.insert(0, str(Path(__file__).parents[1]))
    from verl_helpers import CHAT_TEMPLATE, make_tokenizer

    data = tmp_path / "d"
    shutil.copytree(small_multi_level, data)  # the prompts are padded below
    for split in ("train", "val"):  # every generated prompt is far below the limit
        for row in pq.read_table(data / f"{split}.parquet").to_pylist():
            text = CHAT_TEMPLATE + " ".join(m["content"] for m in row["prompt"])
            assert len(re.findall(r"\w+|[^\w\s]+", text)) < 1000
    arm = lambda r: (r["extra_info"]["type"], r["extra_info"]["difficulty"])  # noqa: E731
    _pad_prompts(data / "train.parquet",
                 lambda rows: [r for r in rows if arm(r) == ("countdown", 1)][:2], 2100)  # fmt: skip
    _pad_prompts(data / "val.parquet",
                 lambda rows: [r for r in rows if r["data_source"] == "zebra/4"][:1], 2100)  # fmt: skip
    make_tokenizer(tmp_path / "tok")
    monkeypatch.chdir(tmp_path)
    out = run([f"setting.data_dir={data}", "data.train_batch_size=9", "curriculum=random",
               "data.max_prompt_length=2048"], tokenizer_path=str(tmp_path / "tok"), batches=1)  # fmt: skip
    drops = out["filter_drops"]
    assert drops["train"]["countdown/1"] == (8, 2)
    assert all(d == (8, 0) for a, d in drops["train"].items() if a != "countdown/1")
    assert drops["val"]["zebra/4"] == (2, 1)
    assert all(d == (2, 0) for ds, d in drops["val"].items() if ds != "zebra/4")


def test_data_without_one_of_the_settings_tasks_is_refused(tmp_path, monkeypatch):
    # a build without Zebra is not the multi-level setting's data; it is a countdown-only ST's
    out = tmp_path / "no_zebra"
    build_multi_level(out, 8, 2, seed=1, quiet=True, workers=1, tasks=("countdown", "arc"))
    with pytest.raises(UserError, match=r"no training rows for the arm\(s\) zebra/1, zebra/2, "
                                        r"zebra/3 of setting=multi_level"):  # fmt: skip
        run([f"setting.data_dir={out}", "data.train_batch_size=6"])
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        got = run([f"setting.data_dir={out}", "data.train_batch_size=6", "curriculum=single",
                   "curriculum.train_arms=[countdown]"], batches=1)  # fmt: skip
    assert set(got["shares"]) == {"countdown/1", "countdown/2", "countdown/3"}


def test_data_that_end_the_run_before_its_last_step_are_refused(data_dir):
    # 72 rows make 8 batches of 9 per epoch; verl stops after trainer.total_epochs of them:
    # 2 epochs = 16 steps of the run's 500
    with pytest.raises(UserError, match=r"72 rows make 8 batch\(es\) of 9 per epoch, and "
                                        r"trainer.total_epochs=2 gives 16 steps, fewer than the "
                                        r"run's 500 .* raise trainer.total_epochs to at least 63"):  # fmt: skip
        run([f"setting.data_dir={data_dir}", "data.train_batch_size=9", "trainer.total_epochs=2"])


def test_a_sweep_is_checked_run_by_run_and_model_config_is_accepted(data_dir, tmp_path):
    shipped = Path(__file__).resolve().parents[2] / "configs/models/Qwen/Qwen2.5-3B/config.json"
    args = [f"setting.data_dir={data_dir}", "data.train_batch_size=9", "curriculum.seed=0,1",
            "backbone.name=mine", "actor_rollout_ref.model.path=someone/mine",
            f"trainer.default_local_dir={tmp_path}/ckpt", "trainer.save_freq=-1"]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    res = subprocess.run(["pac-verl", "preflight", "--model-config", str(shipped), *args],
                         capture_output=True, text=True, cwd=tmp_path, env=env)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "== run 1 of 2: multi_level__mine__pac__seed0" in res.stdout
    assert "== run 2 of 2: multi_level__mine__pac__seed1" in res.stdout
    assert "preflight passed for all 2 runs" in res.stdout
    # a bad run of the sweep is named before any data is read
    res = subprocess.run(["pac-verl", "preflight", *args, "curriculum.window=16,2"],
                         capture_output=True, text=True, cwd=tmp_path, env=env)  # fmt: skip
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "window W=2 is shorter than min_trend_points=3" in res.stderr
    assert "curriculum.window=2" in res.stderr and "== run" not in res.stdout
