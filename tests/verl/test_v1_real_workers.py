"""verl 0.9.1's V1 sync trainer (``trainer.use_v1=true``) with verl's real workers on the CPU,
and a resume: what ``tests/verl/test_real_workers.py`` checks of the legacy trainer.

``pac_verl.train.train`` -> verl's ``run_ppo`` -> ``PACTaskRunner`` -> TransferQueue,
``PACTrainerV1.init()``, verl's V1 agent-loop manager, ``fit()``, with verl's FSDP2 actor and
reference workers and the CPU rollout (:mod:`pac_verl.cpu.hf_rollout`), on the miniature without
its noise arm (every reward of step 3 must come out the same twice). Run A trains 3 steps and
checkpoints every step; run B starts from A's checkpoints up to step 2 without ``data.pt`` and
trains step 3 again: its curriculum comes from ``pac_state.json``. Checked: the rollout gets the
actor's weights at every sync; ``grad_norm > 0``; every step's batch is the controller's
allocation from the state saved the step before; ``curriculum/`` metrics for every arm and the
validation of every arm at the last step; the resumed step 3 is the uninterrupted one (same
batch, same rollout weights, same rewards, same controller and queue state). And a run of 2 steps
with dynamic sampling (the noise arm included): whole extra generation batches, every generated
group trained, surplus, dropped or left out, the dropped ones in the controller's feedback.

Skipped where verl 0.9.1 or TransferQueue is not installed.
"""

import shutil
import sys
from pathlib import Path

import pytest

from pac_verl.verl import compat

if compat.installed() != "0.9.1":
    pytest.skip("verl 0.9.1's V1 trainer: not on this verl line", allow_module_level=True)
pytest.importorskip("transfer_queue", reason="verl 0.9.1's V1 trainer needs TransferQueue")

import ray

from pac_verl.cpu.smoke import (
    TOY_ARMS,
    ResourceMeter,
    build_assets,
    read_metrics,
    read_rollout_log,
    train_once,
)
from pac_verl.curriculum import make_controller

sys.path.insert(0, str(Path(__file__).parent))
from test_real_workers import (
    ARMS,
    BUILT,
    EXP,
    PER_ARM,
    STEPS,
    B,
    N,
    assert_batches_are_the_controllers,
    assert_same_state,
    shares,
)
from test_real_workers import sampler_state as data_pt_state

# a training run beside the suite and the other lanes on 2 cores: past 600 s only when loaded
pytestmark = [pytest.mark.slow, pytest.mark.verl_line, pytest.mark.ray, pytest.mark.timeout(1200)]
V1 = ["trainer.use_v1=true"]


def sampler_state(run: Path, step: int) -> dict:
    """The curriculum's state after ``step``: V1 saves it in ``pac_state.json`` and ``data.pt``."""
    import json

    folder = run / "ckpt" / EXP / f"global_step_{step}"
    state = json.loads((folder / "pac_state.json").read_text())["sampler"]
    if (folder / "data.pt").exists():  # the same state twice (NaN metrics: compared as text)
        text = json.dumps(data_pt_state(run, step), sort_keys=True)
        assert json.dumps(state, sort_keys=True) == text
    return state


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = build_assets(tmp_path_factory.mktemp("v1"), train_per_arm=PER_ARM, arms=BUILT)
    a, b = root / "a", root / "b"
    ray.shutdown()
    with ResourceMeter() as meter:
        try:
            train_once(root, a, STEPS, V1)
            ray.shutdown()
            (b / "ckpt" / EXP).mkdir(parents=True)
            for step in (1, 2):
                shutil.copytree(
                    a / "ckpt" / EXP / f"global_step_{step}",
                    b / "ckpt" / EXP / f"global_step_{step}",
                )
            (b / "ckpt" / EXP / "global_step_2" / "data.pt").unlink()  # pac_state.json only
            (b / "ckpt" / EXP / "latest_checkpointed_iteration.txt").write_text("2")
            train_once(root, b, STEPS, V1)
        finally:
            ray.shutdown()
    print(f"\nV1 real-worker runs A (3 steps) + B (resume, 1 step): wall {meter.wall:.0f} s, "
          f"CPU user+sys {meter.cpu_seconds:.0f} s, peak RSS of all processes "
          f"{meter.peak_rss / 2**30:.2f} GB")  # fmt: skip
    return root, a, b


def test_v1_trains_with_the_actors_weights_synced_every_step(runs):
    _, a, _ = runs
    loads = read_rollout_log(a)
    assert len(loads) == STEPS + 1  # before step 1 and after each step
    assert [x["requests_before"] for x in loads[1:]] == [B * N] * STEPS
    assert len({x["weights_sha256"] for x in loads}) == STEPS + 1
    metrics = read_metrics(a / "runs")
    for step in range(1, STEPS + 1):
        assert metrics[step]["actor/grad_norm"] > 0
    assert all(metrics[s]["actor/kl_loss"] > 0 for s in range(2, STEPS + 1))


def test_every_v1_batch_is_the_controllers_allocation(runs):
    _, a, _ = runs
    metrics = read_metrics(a / "runs")
    assert_batches_are_the_controllers(metrics, lambda s: sampler_state(a, s))
    assert all(metrics[s]["curriculum/unscored_groups"] == 0.0 for s in range(1, STEPS + 1))
    assert {f"val-core/{x}/acc/mean@1" for x in ARMS} <= set(metrics[STEPS])


def test_a_v1_run_resumed_from_pac_state_redoes_step_3(runs):
    _, a, b = runs
    ma, mb = read_metrics(a / "runs"), read_metrics(b / "runs")
    assert sorted(mb) == [3]
    assert shares(mb, 3) == shares(ma, 3)
    la, lb = read_rollout_log(a), read_rollout_log(b)
    assert lb[0]["weights_sha256"] == la[2]["weights_sha256"] and len(lb) == 2
    for key in ("critic/score/mean", "response_length/mean", "critic/advantages/max"):
        assert mb[3][key] == pytest.approx(ma[3][key], rel=1e-6), key
    sa, sb = sampler_state(a, 3), sampler_state(b, 3)
    assert sb["batches_this_epoch"] == sa["batches_this_epoch"] == 1
    assert sb["queues"] == sa["queues"]
    assert_same_state(sa["controller"], sb["controller"])


# ----- dynamic sampling ---------------------------------------------------------------------------
DS_STEPS = 2
DS_ARMS = sorted(f"toy/{arm}" for arm in TOY_ARMS)  # the noise arm gives most groups a spread


@pytest.fixture(scope="module")
def ds_run(tmp_path_factory):
    """Two V1 steps with dynamic sampling on acc (each step's extra generation batches drawn
    from the controller), no checkpoints."""
    root = build_assets(tmp_path_factory.mktemp("v1ds"), train_per_arm=8, val_per_arm=2)
    extra = [*V1, "algorithm.filter_groups.enable=true", "algorithm.filter_groups.metric=acc",
             "algorithm.filter_groups.max_num_gen_batches=8", "trainer.save_freq=-1"]  # fmt: skip
    ray.shutdown()
    with ResourceMeter() as meter:
        try:
            train_once(root, root / "run", DS_STEPS, extra)
        finally:
            ray.shutdown()
    print(f"\nV1 real-worker run with dynamic sampling ({DS_STEPS} steps): wall "
          f"{meter.wall:.0f} s, CPU user+sys {meter.cpu_seconds:.0f} s, peak RSS of all "
          f"processes {meter.peak_rss / 2**30:.2f} GB")  # fmt: skip
    return read_metrics(root / "run" / "runs")


def test_v1_dynamic_sampling_trains_whole_batches_and_feeds_dropped_groups_back(ds_run):
    metrics = ds_run
    assert sorted(metrics) == list(range(1, DS_STEPS + 1))
    for step in range(1, DS_STEPS + 1):
        m = {k.rsplit("/", 1)[-1]: v for k, v in metrics[step].items()
             if k.startswith("curriculum/dynamic/")}  # fmt: skip
        assert m["gen_batches"] <= 8 and metrics[step]["actor/grad_norm"] > 0
        # every generation batch is a whole allocation of B groups, each trained, surplus,
        # dropped (no spread) or left out (unscored)
        generated = m["gen_batches"] * B
        assert generated == B + m["surplus_groups"] + m["dropped_groups"] + m["unscored_groups"]
        # the controller's prompt layer saw the B trained groups (all with spread) and the
        # dropped ones (none)
        dropped = m["dropped_groups"]
        assert metrics[step]["curriculum/zero_var_frac"] == pytest.approx(dropped / (B + dropped))
    # step 1's allocation (the controller's prior) holds saturated or unreachable groups, whose
    # rewards never spread: they are dropped and refilled
    first = make_controller("pac", DS_ARMS, B, seed=0, cold_start=1).allocate()
    assert any(DS_ARMS[i].endswith(("saturated", "unreachable")) for i in first)
    step1 = metrics[1]
    assert step1["curriculum/dynamic/dropped_groups"] >= 1
    assert step1["curriculum/dynamic/gen_batches"] >= 2
    # an unreachable group (success ~1e-8 per response) reaches the controller only as dropped
    assert step1.get("curriculum/toy/unreachable/zero_var_frac", 1.0) == 1.0
