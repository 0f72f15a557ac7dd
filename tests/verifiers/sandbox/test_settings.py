"""The code sandbox's settings live in the training config, and the active level is a metric
(``verifiers/sandbox/settings.py``, docs/guides/sandbox.md).

In training the settings come from ``reward.custom_reward_function.reward_kwargs.sandbox`` (passed
by verl to ``compute_score(_async)`` in each reward worker), never from the ``PAC_SANDBOX_*``
variables; outside training (no ``sandbox`` kwarg) the variables apply. Which level a program
really ran under is read from what it can see: a file of the host, visible under ``none`` only.
"""

import asyncio
import json
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
import torch
from verl import DataProto

from pac_verl.compose import compose_config
from pac_verl.errors import UserError
from pac_verl.verifiers import compute_score, compute_score_async
from pac_verl.verifiers import pool as pool_module
from pac_verl.verifiers.code import default_limits
from pac_verl.verifiers.sandbox import Limits
from pac_verl.verifiers.sandbox.settings import (
    SandboxSettings,
    from_config,
    from_env,
    settings_for,
)
from pac_verl.verl.reward_metrics import reward_metrics

sys.path.insert(0, str(Path(__file__).parents[2]))
from verl_helpers import make_response_tokenizer

KEY = "reward.custom_reward_function.reward_kwargs.sandbox"
CODE = {"type": "code"}


def probe(marker: Path) -> tuple[str, str]:
    """(response, ground truth): correct only when the program sees ``marker``, a host file that
    the sandbox's private root hides under ``strict`` and ``namespaces``."""
    program = f"def sees():\n    import os\n    return os.path.exists({str(marker)!r})\n"
    return f"```python\n{program}```", json.dumps({"functional": "assert sees() == True"})


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "host-file"
    path.write_text("on the host only")
    return path


def test_defaults_come_from_the_dataclass_and_null_means_the_default():
    # docs/concepts/spec.md#code-sandbox: strict by default; Code-R1 limits 10 s CPU, 30 s wall, 2048 MB;
    # BigCodeBench 60 s CPU, 8192 MB
    assert SandboxSettings() == SandboxSettings("strict", "local", None, None, 0, 10, 30, 2048,
                                                60, 8192)  # fmt: skip
    nulls = {"isolation": None, "backend": None, "fusion_url": None, "python": None,
             "concurrency": None}  # fmt: skip
    assert from_config(nulls) == SandboxSettings()
    assert from_env({}) == SandboxSettings()
    fusion = from_config({"backend": "sandbox_fusion", "fusion_url": "http://s:8080/run_code"})
    assert fusion.level == "remote" and fusion.fusion_url == "http://s:8080/run_code"
    assert from_config({"isolation": "namespaces", "concurrency": 3}).level == "namespaces"
    env = {"PAC_SANDBOX_ISOLATION": "none", "PAC_SANDBOX_CONCURRENCY": "4",
           "PAC_SANDBOX_PYTHON": "/opt/bcb/bin/python"}  # fmt: skip
    assert from_env(env) == SandboxSettings("none", "local", None, "/opt/bcb/bin/python", 4)
    # the config's group has one key per setting, so each can be overridden on the command line
    group = compose_config([]).reward.custom_reward_function.reward_kwargs.sandbox
    assert set(group) == {f.name for f in fields(SandboxSettings)}
    assert all(v is None for v in group.values())  # the dataclass is the one source of defaults


def test_limits_come_from_the_settings():
    settings = from_config({"cpu_seconds": 3, "wall_seconds": 12, "memory_mb": 512,
                            "bcb_cpu_seconds": 20, "bcb_memory_mb": 4096})  # fmt: skip
    assert default_limits("functional", settings) == Limits(wall_seconds=12, cpu_seconds=3,
                                                            memory_mb=512)  # fmt: skip
    # BigCodeBench: its own CPU and memory, a wall clock of at least 3 x 20 s
    assert default_limits("unittest", settings) == Limits(wall_seconds=60, cpu_seconds=20,
                                                          memory_mb=4096)  # fmt: skip
    env = from_env({"PAC_SANDBOX_CPU_SECONDS": "2.5", "PAC_SANDBOX_BCB_MEMORY_MB": "1024"})
    assert (env.cpu_seconds, env.bcb_memory_mb) == (2.5, 1024)


# a correct program that needs 1 s of CPU on any machine (a fixed loop count ran in 0.16 s on a
# fast machine, under the 0.2 s limit below)
BURN = (
    "import time\n\ndef add(a, b):\n    while time.process_time() < 1.0:\n        pass\n"
    "    return a + b\n"
)


def test_the_limits_of_training_come_from_the_config_not_the_environment(monkeypatch):
    """A correct program that needs 1 s of CPU: a 0.2 s limit in the environment times it out in
    a tool's call, not in a training call (whose config keeps the 10 s default)."""
    truth = json.dumps({"functional": "assert add(2, 3) == 5"})
    response = f"```python\n{BURN}```"
    monkeypatch.setenv("PAC_SANDBOX_CPU_SECONDS", "0.2")
    assert compute_score("c", response, truth, CODE)["reason"] == "timeout"
    assert compute_score("c", response, truth, CODE, sandbox={})["reason"] == "ok"
    out = compute_score("c", response, truth, CODE, sandbox={"cpu_seconds": 0.2})
    assert out["reason"] == "timeout"


@pytest.mark.parametrize(
    ("group", "message"),
    [
        ({"isolation": "fallback"}, f"{KEY}.isolation='fallback' is not a sandbox isolation level: "
                                    "use one of strict, namespaces, none"),
        ({"backend": "docker"}, f"{KEY}.backend='docker' is not a sandbox backend: use one of "
                                "local, sandbox_fusion"),
        ({"backend": "sandbox_fusion"}, f"{KEY}.backend=sandbox_fusion needs {KEY}.fusion_url"),
        ({"concurrency": -1}, f"{KEY}.concurrency must be an integer >= 0"),
        ({"concurrency": "many"}, f"{KEY}.concurrency must be an integer >= 0"),
        ({"cpu_seconds": 0}, f"{KEY}.cpu_seconds must be a number > 0, got 0"),
        ({"wall_seconds": "soon"}, f"{KEY}.wall_seconds must be a number > 0, got 'soon'"),
        ({"memory_mb": 1.5}, f"{KEY}.memory_mb must be an integer > 0, got 1.5"),
        ({"bcb_memory_mb": True}, f"{KEY}.bcb_memory_mb must be an integer > 0, got True"),
        ({"isolaton": "none"}, f"{KEY}.isolaton: the sandbox has no such setting; valid: "
                               "isolation, backend, fusion_url, python, concurrency, cpu_seconds, "
                               "wall_seconds, memory_mb, bcb_cpu_seconds, bcb_memory_mb"),
    ],
)  # fmt: skip
def test_a_bad_config_value_names_its_key_and_what_is_allowed(group, message):
    with pytest.raises(UserError) as err:
        from_config(group)
    assert str(err.value).startswith(message)


def test_a_bad_variable_names_the_variable():
    with pytest.raises(UserError, match=r"^PAC_SANDBOX_ISOLATION='fallback' is not"):
        from_env({"PAC_SANDBOX_ISOLATION": "fallback"})


def test_in_training_the_config_wins_and_outside_it_the_environment_applies(marker, monkeypatch):
    response, truth = probe(marker)
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "none")
    # a tool outside training (no sandbox kwarg): the variable applies, the host file is seen
    out = compute_score("c", response, truth, CODE)
    assert (out["score"], out["sandbox_level"]) == (1.0, "none")
    # training: the config's group (here all null: the defaults) wins over the variable
    nulls = {"isolation": None, "backend": None}
    assert settings_for(nulls).isolation == "strict"
    out = compute_score("c", response, truth, CODE, sandbox=nulls)
    assert (out["score"], out["reason"], out["sandbox_level"]) == (0.0, "tests_failed", "strict")
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "strict")
    out = asyncio.run(
        compute_score_async("c", response, truth, CODE, sandbox={"isolation": "none"})
    )
    assert (out["score"], out["sandbox_level"]) == (1.0, "none")


def test_a_bad_environment_does_not_reach_a_training_call(marker, monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "fallback")
    monkeypatch.setenv("PAC_SANDBOX_BACKEND", "nowhere")
    response, truth = probe(marker)
    out = compute_score("c", response, truth, CODE, sandbox={"isolation": "namespaces"})
    assert (out["reason"], out["sandbox_level"]) == ("tests_failed", "namespaces")
    assert compute_score("m", "\\boxed{1}", "1", {"type": "math"})["sandbox_level"] == ""


def test_the_driver_checks_the_group_and_names_a_variable_it_ignores(monkeypatch):
    monkeypatch.delenv("PAC_SANDBOX_ISOLATION", raising=False)
    cfg = compose_config([f"{KEY}.isolation=namespaces", f"{KEY}.concurrency=2"])
    assert cfg.reward.custom_reward_function.reward_kwargs.sandbox.isolation == "namespaces"
    with pytest.raises(UserError, match=rf"^{KEY}\.isolation='fallback' is not a sandbox"):
        compose_config([f"{KEY}.isolation=fallback"])
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "none")
    with pytest.warns(UserWarning, match=rf"PAC_SANDBOX_ISOLATION is set .* {KEY}\.isolation="):
        compose_config([])


def test_preflight_and_run_json_use_the_configured_level(tmp_path, monkeypatch, tiny_code_data):
    from pac_verl.checks.node import check_sandbox
    from pac_verl.run_logs import ENV, prepare_run_logs

    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "fallback")  # would fail if it were read
    # data with code rows: the preflight checks the sandbox only when code rewards will run
    folders = ["setting=multi_domain", f"pac.log_root={tmp_path}",
               f"trainer.default_local_dir={tmp_path}/ckpt", f"setting.data_dir={tiny_code_data}"]  # fmt: skip
    with pytest.warns(UserWarning, match="PAC_SANDBOX_ISOLATION"):
        cfg = compose_config([*folders, f"{KEY}.isolation=namespaces"])
    found = check_sandbox(cfg)
    assert found.status == "warn" and "isolation 'namespaces'" in found.detail
    metrics = prepare_run_logs(cfg, now=0)
    metrics.write_text('{"step": 1, "data": {}}\n')  # it trained a step (else it blocks nothing)
    run = json.loads(metrics.with_name("run.json").read_text())
    assert run["attempts"][-1]["sandbox"]["isolation"] == "namespaces"
    group = run["config"]["reward"]["custom_reward_function"]["reward_kwargs"]["sandbox"]
    assert group["isolation"] == "namespaces"
    assert {k for k, v in group.items() if v is not None} == {"isolation"}  # the rest: defaults
    # the level is part of the run's config: another level is another run
    with pytest.warns(UserWarning), pytest.raises(UserError, match=rf"{KEY}\.isolation"):
        prepare_run_logs(compose_config([*folders, f"{KEY}.isolation=strict"]), now=1)


def test_the_level_metric_by_hand():
    def batch(rows):  # (type, reason, sandbox)
        return DataProto.from_dict(
            tensors={"responses": torch.zeros(len(rows), 1, dtype=torch.long)},
            non_tensors={
                "extra_info": np.array([{"type": t} for t, _, _ in rows]),
                "reason": np.array([r for _, r, _ in rows]),
                "sandbox_level": np.array([s for *_, s in rows]),
            },
        )

    strict = [("code", "ok", "strict"), ("code", "tests_failed", "strict"), ("math", "ok", "")]
    m = reward_metrics(batch(strict))
    assert m["reward/code/sandbox_isolation"] == 2.0  # strict
    assert not any("math/sandbox" in k for k in m)  # no program ran for math
    # one response scored under a weaker level shows: the lowest code of the step
    assert reward_metrics(batch([*strict, ("code", "ok", "none")]))[
        "reward/code/sandbox_isolation"
    ] == 0.0  # fmt: skip
    assert reward_metrics(batch([("code", "ok", "remote")]))["reward/code/sandbox_isolation"] == 3
    assert reward_metrics(batch([("code", "ok", "namespaces")]))[
        "reward/code/sandbox_isolation"
    ] == 1.0  # fmt: skip
    assert "reward/code/sandbox_isolation" not in reward_metrics(batch([("math", "ok", "")]))


@pytest.mark.timeout(300, method="thread")
def test_verl_reward_loop_worker_runs_the_configured_level_and_reports_it(
    tmp_path, marker, monkeypatch
):
    """verl's own RewardLoopWorker, built from the composed config with the level overridden
    on the command line, while the environment asks for strict: the worker's programs see the
    host file (so they ran under ``none``), and the step's metric says 0."""
    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf, open_dict
    from verl.experimental.reward_loop import migrate_legacy_reward_impl
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    from pac_verl.resolvers import register_resolvers

    response, truth = probe(marker)
    cases = [(response, truth, "code"), ("\\boxed{204}", "204", "math")]
    vocab = make_response_tokenizer(tmp_path / "tok", [c[0] for c in cases])
    register_resolvers()
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=[f"actor_rollout_ref.model.path={tmp_path / 'tok'}",
                                                "reward.custom_reward_function.reward_kwargs.workers=1",
                                                f"{KEY}.isolation=none"])  # fmt: skip
    with open_dict(cfg):
        cfg = migrate_legacy_reward_impl(cfg)
    OmegaConf.resolve(cfg)
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "strict")
    infos = np.array([{"type": c[2]} for c in cases], dtype=object)
    data = DataProto.from_dict(
        tensors={"responses": torch.tensor([[vocab[c[0]]] for c in cases]),
                 "attention_mask": torch.ones(len(cases), 2, dtype=torch.long)},
        non_tensors={"data_source": np.array([c[2] for c in cases], dtype=object),
                     "reward_model": np.array([{"ground_truth": c[1]} for c in cases], dtype=object),
                     "extra_info": infos},
    )  # fmt: skip
    pool_module.close_shared_pool()

    async def run():
        worker = RewardLoopWorker(cfg)
        return await asyncio.wait_for(worker.compute_score_batch(data), 120)

    try:
        outputs = asyncio.run(run())
    finally:
        pool_module.close_shared_pool()
    extra = [o["reward_extra_info"] for o in outputs]
    assert [o["reward_score"] for o in outputs] == [1.0, 1.0]
    assert [e["sandbox_level"] for e in extra] == ["none", ""]
    # the step batch as verl builds it from the worker's reward_extra_info
    step = DataProto.from_dict(
        tensors={"responses": torch.zeros(len(cases), 1, dtype=torch.long)},
        non_tensors={"extra_info": infos, **{k: np.array([e[k] for e in extra], dtype=object)
                                             for k in ("reason", "latency_s", "sandbox_level")}},
    )  # fmt: skip
    assert reward_metrics(step)["reward/code/sandbox_isolation"] == 0.0  # none
