"""Our reward inside verl 0.7.1's own reward loop.

verl's ``RewardLoopWorker`` (the class ``RewardLoopManager`` runs as a Ray actor, one per
``reward.num_workers``) is built here in-process from our composed Hydra config: verl's own loader
imports ``compute_score_async`` from ``pkg://pac_verl.verifiers.reward``, its ``naive`` manager decodes each
response with the tokenizer and awaits our coroutine, and ``compute_score_batch`` gathers a whole
chunk at once, as the actor does.

The Ray hop itself is the last test: ``RewardLoopManager`` with two reward actors, each running
its own pool, and no zygote or worker left after ``ray.shutdown`` (22 s on two idle cores).
"""

import asyncio
import json
import threading

import numpy as np
import pytest
import torch
from verl import DataProto
from verl_helpers import make_response_tokenizer

from pac_verl.verifiers import pool as pool_module
from pac_verl.verifiers.reward import close_executors

CD = json.dumps({"target": 35, "numbers": [3, 4, 5]})  # (3 + 4) * 5 = 35
ADD = json.dumps({"functional": "assert add(2, 3) == 5"})
# (response, ground truth, type, expected score, expected reason)
CASES = [
    ("<think>t = 24</think> \\boxed{204}", "204", "math", 1.0, "ok"),
    ("\\boxed{\\dfrac{\\sqrt{3}}{2}}", "\\frac{\\sqrt{3}}{2}", "math", 1.0, "ok"),
    ("\\boxed{205}", "204", "math", 0.0, "not_equal"),
    ("no box at all", "204", "math", 0.0, "no_boxed"),
    ("\\boxed{(3+4)*5}", CD, "countdown", 1.0, "ok"),
    ("\\boxed{3*4+5}", CD, "countdown", 0.0, "not_equal"),  # 17
    ("\\boxed{Arnold}", "arnold", "zebra", 1.0, "ok"),
    ("\\boxed{1 2 3}", "1 2 3", "arc", 1.0, "ok"),
    # hostile: settled by the guards
    ("\\boxed{10^{999999999}}", "5", "math", 0.0, "too_large"),
    ("\\boxed{9^{9^{9^{9}}}}", "5", "math", 0.0, "too_large"),
    ("\\boxed{(10^{10})!}", "5", "math", 0.0, "too_large"),
    ("\\boxed{(3+4)*5 = 1e999999999}", CD, "countdown", 0.0, "too_large"),
    # hostile: powers of long sums (expanding one has about 10^9 terms): refused by what they
    # contain, a verdict, before any worker sees them
    ("\\boxed{(a+b+c+d+e+f+g)^{90}}", "a+b+c+d+e+f+g", "math", 0.0, "too_complex"),
    ("\\boxed{(a+b+c+d+e+f+h)^{90}}", "a+b+c+d+e+f+h", "math", 0.0, "too_complex"),
    # code: run in the sandbox within the same 2 s (the sandbox's own limits are set to 600 s in
    # the test, so only the reward's bound can end the sleeper in time)
    ("```python\ndef add(a, b):\n    return a + b\n```", ADD, "code", 1.0, "ok"),
    ("```python\nimport time\ntime.sleep(10**6)\n```", ADD, "code", 0.0, "timeout"),
]


def reward_config(model_path):
    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf, open_dict
    from verl.experimental.reward_loop import migrate_legacy_reward_impl

    from pac_verl.resolvers import register_resolvers

    register_resolvers()

    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose(
            "pac_trainer",
            overrides=[
                f"actor_rollout_ref.model.path={model_path}",
                "reward.custom_reward_function.reward_kwargs.timeout_s=2",
                "reward.custom_reward_function.reward_kwargs.workers=2",
                # sandbox limits no test could wait for: only the reward's bound ends a sleeper
                # (training reads them from the config, not from PAC_SANDBOX_* variables)
                "reward.custom_reward_function.reward_kwargs.sandbox.wall_seconds=600",
                "reward.custom_reward_function.reward_kwargs.sandbox.cpu_seconds=600",
            ],
        )
    with open_dict(cfg):
        cfg = migrate_legacy_reward_impl(cfg)
    OmegaConf.resolve(cfg)
    return cfg


def batch(vocab):
    n = len(CASES)
    ids = torch.tensor([[vocab[c[0]]] for c in CASES])
    return DataProto.from_dict(
        tensors={"responses": ids, "attention_mask": torch.ones(n, 2, dtype=torch.long)},
        non_tensors={
            "data_source": np.array([c[2] for c in CASES], dtype=object),
            "reward_model": np.array([{"ground_truth": c[1]} for c in CASES], dtype=object),
            "extra_info": np.array([{"type": c[2]} for c in CASES], dtype=object),
        },
    )


@pytest.mark.timeout(300, method="thread")
@pytest.mark.node_versions
def test_verl_reward_loop_worker_scores_a_mixed_chunk_within_the_bound(tmp_path):
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    vocab = make_response_tokenizer(tmp_path / "tok", [c[0] for c in CASES])
    cfg = reward_config(str(tmp_path / "tok"))
    assert cfg.reward.custom_reward_function.name == "compute_score_async"
    close_executors()  # a fresh pool with this config's limits
    threads_before = set(threading.enumerate())

    async def run():
        worker = RewardLoopWorker(cfg)  # verl's loader + naive manager, in this loop
        assert worker.reward_manager.is_async_reward_score  # verl awaits us: no thread per call
        # the whole chunk at once, as the actor's compute_score_batch does; 120 s is only a net
        return await asyncio.wait_for(worker.compute_score_batch(batch(vocab)), 120)

    outputs = asyncio.run(run())
    got = [(o["reward_score"], o["reward_extra_info"]["reason"]) for o in outputs]
    assert got == [(c[3], c[4]) for c in CASES]
    assert all(o["reward_extra_info"]["latency_s"] > 0 for o in outputs)
    # every one was judged: the polynomials are too complex, the sleeping program too slow
    assert [o["reward_extra_info"]["scored"] for o in outputs] == [1.0] * len(CASES)
    pool = pool_module.shared_pool()
    assert (
        pool.stats.timeouts == 0
    )  # nothing reached a deadline; the code timeout is not the pool's
    pids = [*pool.worker_pids(), pool.zygote_pid()]
    close_executors()  # the pool, its threads and the code threads
    assert not any(pool_alive(p) for p in pids)
    assert set(threading.enumerate()) <= threads_before  # asyncio.run joined its executor


def pool_alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def zygotes(own: bool = True):
    """Pids of every scoring zygote and worker on the machine (their command line); ``own``: only
    this interpreter's, since other checkouts' and the other CI lane's runs come and go beside
    this one."""
    import sys
    from pathlib import Path

    found = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmd = (proc / "cmdline").read_bytes()
            if b"pool import _zygote" in cmd and (not own or f"{sys.prefix}/bin/".encode() in cmd):
                found.add(int(proc.name))
        except OSError:
            pass
    return found


@pytest.mark.slow  # starts a Ray cluster
@pytest.mark.ray
@pytest.mark.serial  # counts the scoring zygotes on the machine
@pytest.mark.timeout(600, method="thread")
def test_verl_reward_loop_manager_over_ray(tmp_path):
    """verl's RewardLoopManager with two Ray reward actors: our pool runs inside each actor."""
    import os
    import time

    import ray
    from omegaconf import open_dict
    from verl.experimental.reward_loop import RewardLoopManager

    vocab = make_response_tokenizer(tmp_path / "tok", [c[0] for c in CASES])
    cfg = reward_config(str(tmp_path / "tok"))
    with open_dict(cfg):
        cfg.reward.num_workers = 2
    before, before_any = zygotes(), zygotes(own=False)
    ray.init(num_cpus=2, include_dashboard=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.getcwd()}})  # fmt: skip
    try:
        data = batch(vocab)
        data.batch["prompts"] = torch.zeros(len(CASES), 1, dtype=torch.long)
        out = RewardLoopManager(cfg).compute_rm_score(data)
        assert out.non_tensor_batch["reason"].tolist() == [c[4] for c in CASES]
        assert out.batch["rm_scores"].sum(-1).tolist() == [c[3] for c in CASES]
        # the actors scored through their own pools (counted on the whole machine: an actor's
        # interpreter path is Ray's to choose)
        assert zygotes(own=False) - before_any
    finally:
        ray.shutdown()
    for _ in range(600):  # actors are killed asynchronously; their zygotes see EOF and exit
        if not zygotes() - before:
            break
        time.sleep(0.1)
    assert not zygotes() - before
