"""verl 0.7.1's real workers, end to end on the CPU, with PAC in the loop.

What ``pac-verl smoke`` runs (:mod:`pac_verl.cpu.stack`): ``pac_verl.train.train`` ->
verl's ``run_ppo`` -> ``PACTaskRunner`` as a Ray actor -> ``init_workers()`` / ``fit()`` with
verl's FSDP2 actor and reference workers, agent loop, reward loop and weight sync, the miniature
(``setting=toy backbone=tiny-cpu``: the tiny random Qwen2, the toy arms scored by the project's
reward entry) and the project's Hydra config (``curriculum=pac``, cold start 1 step). Nothing is
stood in. The toy's noise arm is left out: its coin is drawn afresh at every call, and the resume
check below needs every reward of step 3 to come out the same twice.

Run A trains 3 steps and checkpoints every step; run B starts from a copy of A's checkpoints up
to step 2 and trains step 3 again (verl's ``resume_mode=auto``). The training set has 5 prompts per
arm, 25 rows, 2 batches of 12: step 2 ends an epoch, and B's copy of it has no ``data.pt``, as
verl 0.9.1 restores none on an epoch boundary; B's curriculum resumes from the checkpoint's
``pac_state.json`` (docs/guides/resume.md#what-a-checkpoint-holds). Checked, on what the runs
leave behind (verl's metrics file, its checkpoints, the rollout's weight log):

* the rollout receives the actor's weights at every sync (their SHA-256 changes each step, and
  the first equals the model folder's: FSDP2's shards arrive whole);
* ``grad_norm > 0`` every step; the KL loss to the reference is 0 at step 1, > 0 after;
* every step's batch is what the controller allocates from the state saved at the step before;
* ``curriculum/`` metrics for every arm at every step, and the run log (``run.json``);
* the resumed step 3, the first of the second epoch, is the uninterrupted one: same batch, same
  rollout weights before it, same rewards, and the same controller and queue state and the same
  position in the epoch in its checkpoint (floats to float32 rounding:
  the order of a prompt's rollouts within the batch is not fixed, see :func:`assert_same_state`).

Where ``curriculum.seed`` reaches (the controller, the prompt queues, the seed keys and nothing
else) is checked on verl's trainer without Ray workers, in tests/verl/test_fit.py: the workers do
not read it.

On a GPU node the rollout would be vLLM and the weights would travel by CUDA IPC; what differs is
the rollout process, which the stand-in-free path here replaces by :mod:`pac_verl.cpu.hf_rollout`.
"""

import json
import shutil
from pathlib import Path

import pytest
import ray
import torch

from pac_verl.cpu.hf_rollout import weights_digest
from pac_verl.cpu.smoke import (
    ResourceMeter,
    build_assets,
    read_metrics,
    read_rollout_log,
    train_once,
)
from pac_verl.curriculum import make_controller

# a training run beside the suite and the other lanes on 2 cores: past 600 s only when loaded
pytestmark = [
    pytest.mark.slow,
    pytest.mark.node_versions,
    pytest.mark.ray,
    pytest.mark.once_per_line,  # the node's versions for this line, verl_line.sh for the other
    pytest.mark.timeout(1200),
]

STEPS, B, N = 3, 12, 8  # the toy setting's batch: 12 prompts x 8 responses
PER_ARM = 5  # 5 arms x 5 prompts = 25 rows: 2 batches per epoch, step 2 ends the first epoch
BUILT = ("learn/1", "learn/2", "learn/3", "saturated", "unreachable")  # no noise arm (docstring)
ARMS = sorted(f"toy/{arm}" for arm in BUILT)
EXP = "toy__tiny-cpu__pac__seed0"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = build_assets(tmp_path_factory.mktemp("real"), train_per_arm=PER_ARM, arms=BUILT)
    a, b = root / "a", root / "b"
    ray.shutdown()  # run_ppo starts Ray with the CPU stack's resources and setup hook itself
    with ResourceMeter() as meter:
        try:
            train_once(root, a, STEPS)
            ray.shutdown()  # B is a new attempt: a new Ray session, as a new job would get
            (b / "ckpt" / EXP).mkdir(parents=True)
            for step in (1, 2):
                shutil.copytree(
                    a / "ckpt" / EXP / f"global_step_{step}",
                    b / "ckpt" / EXP / f"global_step_{step}",
                )
            (b / "ckpt" / EXP / "global_step_2" / "data.pt").unlink()  # verl 0.9.1 skips it
            (b / "ckpt" / EXP / "latest_checkpointed_iteration.txt").write_text("2")
            train_once(root, b, STEPS)
        finally:
            ray.shutdown()
    print(f"\nreal-worker runs A (3 steps) + B (resume, 1 step): wall {meter.wall:.0f} s, "
          f"CPU user+sys {meter.cpu_seconds:.0f} s, peak RSS of all processes "
          f"{meter.peak_rss / 2**30:.2f} GB")  # fmt: skip
    return root, a, b


def sampler_state(run: Path, step: int, exp: str = EXP) -> dict:
    data = torch.load(run / "ckpt" / exp / f"global_step_{step}" / "data.pt", weights_only=False)
    return data["_sampler_iter_state"]["sampler_state"]


def shares(metrics: dict, step: int) -> dict[str, float]:
    return {a: metrics[step][f"curriculum/{a}/share"] for a in ARMS}


def test_the_rollout_gets_the_actors_weights_at_every_sync(runs):
    from transformers import AutoModelForCausalLM

    root, a, _ = runs
    loads = read_rollout_log(a)
    # fit() syncs before step 1 and after each step; each training step generates B x N
    assert len(loads) == STEPS + 1
    assert [x["requests_before"] for x in loads[1:]] == [B * N] * STEPS
    digests = [x["weights_sha256"] for x in loads]
    assert len(set(digests)) == len(digests)
    initial = AutoModelForCausalLM.from_pretrained(root / "model", dtype=torch.float32)
    assert digests[0] == weights_digest(initial.state_dict())


def test_the_policy_trains_and_moves_away_from_the_reference(runs):
    _, a, _ = runs
    metrics = read_metrics(a / "runs")
    for step in range(1, STEPS + 1):
        assert metrics[step]["actor/grad_norm"] > 0
        assert metrics[step]["critic/advantages/max"] > 0  # some group's rewards differ
    assert metrics[1]["actor/kl_loss"] == 0.0  # the actor is the reference before its first update
    assert all(metrics[s]["actor/kl_loss"] > 0 for s in range(2, STEPS + 1))


def assert_batches_are_the_controllers(metrics: dict, state) -> None:
    """Every step's batch is what the controller allocates from the state saved at the step
    before (``state(step)``: the curriculum's saved state after ``step``)."""
    for step in range(1, STEPS + 1):
        controller = make_controller("pac", ARMS, B, seed=0, cold_start=1)
        if step > 1:
            controller.load_state_dict(state(step - 1)["controller"])
        slots = controller.allocate()
        assert shares(metrics, step) == {x: list(slots).count(i) / B for i, x in enumerate(ARMS)}
        assert state(step)["controller"]["step"] == step


def test_every_batch_is_the_controllers_allocation(runs):
    _, a, _ = runs
    assert_batches_are_the_controllers(read_metrics(a / "runs"), lambda s: sampler_state(a, s))


def test_curriculum_metrics_and_run_log_are_written(runs):
    _, a, _ = runs
    metrics = read_metrics(a / "runs")
    keys = ("share", "s_adv", "s_prog", "utility", "posterior_mean", "posterior_std")
    for step in range(1, STEPS + 1):
        assert {f"curriculum/{x}/{k}" for x in ARMS for k in keys} <= set(metrics[step])
        assert metrics[step]["curriculum/entropy"] >= 0
    (run_dir,) = (a / "runs").iterdir()
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["setting"], info["backbone"], info["curriculum"]) == ("toy", "tiny-cpu", "pac")
    # validated once, at the last step, every arm built (val-core/<data_source>/acc/mean@1)
    assert {f"val-core/{x}/acc/mean@1" for x in ARMS} <= set(metrics[STEPS])
    assert not any(k.startswith("val-core/") for s in range(1, STEPS) for k in metrics[s])


def assert_same_state(a, b, path="state"):
    """Equal structure, equal integers and strings (RNG state, queues, step counter); floats equal
    to float32 rounding (1e-6 relative): the order of one prompt's N rollouts in the batch is not
    fixed (verl's agent loop tokenizes in a thread pool), so verl's float32 sums over them (GRPO's
    group mean and std) may round differently. Seen: 0.7114814871 vs 0.7114815132."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), path
        for k in a:
            assert_same_state(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list | tuple):
        assert isinstance(b, list | tuple) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same_state(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert b == pytest.approx(a, rel=1e-6, abs=1e-9), path
    else:
        assert a == b, path


def test_a_run_resumed_on_an_epoch_boundary_without_data_pt_redoes_step_3(runs):
    _, a, b = runs
    ma, mb = read_metrics(a / "runs"), read_metrics(b / "runs")
    assert sorted(mb) == [3]  # B trained step 3 only
    assert shares(mb, 3) == shares(ma, 3)  # the same batch
    # B's actor restored step 2's weights bit for bit and synced them to its rollout
    la, lb = read_rollout_log(a), read_rollout_log(b)
    assert lb[0]["weights_sha256"] == la[2]["weights_sha256"] and len(lb) == 2
    # the same weights and prompts sample the same responses: same rewards, same lengths
    for key in ("critic/score/mean", "response_length/mean", "critic/advantages/max"):
        assert mb[3][key] == pytest.approx(ma[3][key], rel=1e-6), key
    sa, sb = sampler_state(a, 3), sampler_state(b, 3)
    assert sb["batches_this_epoch"] == sa["batches_this_epoch"] == 1  # the epoch's first batch
    assert sb["queues"] == sa["queues"]
    assert_same_state(sa["controller"], sb["controller"])


def test_a_checkpoint_holds_the_bytes_per_parameter_the_planner_plans(runs):
    """verl 0.7.1's save on the tiny model, against pac_verl.plan.disk: the fp32 shards (4 bytes
    per parameter), AdamW's two fp32 states (8) and the Hugging Face copy written from the fp32
    full state dict (4, not bf16's 2). On top come file headers, a fixed cost per stored array
    (pickle and DTensor metadata, safetensors' JSON header: about 600 bytes per tensor measured
    here), bounded by 1 KiB per array: one per tensor for the weights, two for AdamW's states."""
    from safetensors import safe_open

    from pac_verl.cpu.smoke import compose, overrides
    from pac_verl.plan.disk import bytes_per_param
    from pac_verl.plan.model import load_shape

    root, a, _ = runs
    n = load_shape(str(root / "model")).params
    actor = a / "ckpt" / EXP / f"global_step_{STEPS}" / "actor"  # keep_checkpoints=2: 2 and 3
    measured = {
        "model": sum(f.stat().st_size for f in actor.glob("model_world_size_*_rank_*.pt")) / n,
        "optimizer": sum(f.stat().st_size for f in actor.glob("optim_world_size_*_rank_*.pt")) / n,
        "hf_model": sum(f.stat().st_size for f in (actor / "huggingface").glob("*.safetensors"))
        / n,
    }
    planned = bytes_per_param(compose(overrides(root, a, STEPS)))
    assert {k: v for k, v in planned.items() if v} == {"model": 4, "optimizer": 8, "hf_model": 4}
    with safe_open(actor / "huggingface" / "model.safetensors", "pt") as f:
        names = f.keys()  # a safetensors handle is not iterable
        assert {str(f.get_slice(k).get_dtype()) for k in names} == {"F32"}
    arrays = {"model": 1, "optimizer": 2, "hf_model": 1}  # stored arrays per tensor
    for part, bytes_ in planned.items():
        if bytes_:
            headers = arrays[part] * len(names) * 1024 / n  # bytes per parameter
            assert bytes_ <= measured[part] <= bytes_ + headers, (part, measured[part], headers)
