"""``pac-verl smoke --gpu``: the acceptance run of a GPU node.

Two real GRPO steps of verl 0.7.1 with PAC on one GPU, through ``python -m pac_verl.main``'s path
(:func:`pac_verl.train.train`): vLLM rollout, FSDP2 actor and reference with flash-attention and
remove-padding (the configs' defaults), the reward loop, the weight sync. The model is the
smallest Qwen2.5 on local disk (``--model DIR``, else the local Hugging Face cache; nothing is
downloaded); the data a small multi-level set built on the spot; the reward the CPU smoke's dense
one (:func:`pac_verl.cpu.stack.toy_reward`, so advantages are not zero). It makes the CPU smoke's
checks (``grad_norm > 0`` at every step, the KL to the reference > 0 after step 1, ``curriculum/``
metrics at every step) and prints, per phase of a step, the GPU memory measured at its peak beside
the planner's estimate (:mod:`pac_verl.plan.memory`).

Memory is read from NVML (the whole device, every process on it: vLLM's engine, the FSDP
worker, CUDA contexts) every :data:`SAMPLE_S` seconds by a thread of this process, which makes no
CUDA context itself; the phases' windows come from the trainer process, whose verl timer
(``marked_timer`` in ``verl.trainer.ppo.ray_trainer``) a Ray worker hook wraps to log each
phase's start and end (:func:`setup_worker`). The weight-sync digest of the CPU smoke is its
``hf`` rollout's; under vLLM the table shows verl's rollout-versus-actor log-prob gap instead.

Everything up to the point where CUDA is needed (model lookup, data, config, plan) runs on any
machine; there, without a CUDA GPU, it stops with one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from pac_verl.errors import UserError

PHASE_LOG_ENV = "PAC_PHASE_LOG"
SAMPLE_S = 0.05
# verl's timer names -> the planner's phases (pac_verl.plan.memory); "update_weights" (the sync of
# the actor's weights into vLLM) has no phase of its own in the plan
PHASES = {"gen": "rollout", "old_log_prob": "old log-prob", "ref": "ref log-prob",
          "update_actor": "update", "update_weights": "weight sync"}  # fmt: skip
QWEN25 = re.compile(r"^Qwen/Qwen2\.5-[\d.]+B(-Instruct)?$")


def _weights(folder: Path) -> bool:
    return any(folder.glob("*.safetensors")) or any(folder.glob("*.bin"))


def find_model(given: str | None) -> tuple[str, int]:
    """(folder, parameters) of ``given``, or of the smallest Qwen2.5 (base or instruct) whose
    config and weights are in the local Hugging Face cache."""
    from pac_verl.plan.model import load_shape

    if given:
        folder = Path(given).expanduser()
        if not (folder / "config.json").is_file() or not _weights(folder):
            raise UserError(f"--model {given}: not a model folder (config.json and *.safetensors "
                            "or *.bin weights)")  # fmt: skip
        return str(folder.resolve()), load_shape(str(folder)).params
    from huggingface_hub import constants, scan_cache_dir
    from huggingface_hub.errors import CacheNotFound

    try:  # the cache named explicitly: huggingface_hub 0.36 (the GPU node's) binds its default
        # at import, 1.x and later read the constant at each call
        repos = [r for r in scan_cache_dir(constants.HF_HUB_CACHE).repos
                 if r.repo_type == "model" and QWEN25.match(r.repo_id)]  # fmt: skip
    except CacheNotFound:
        repos = []
    found = []
    for repo in repos:
        for rev in repo.revisions:
            folder = Path(rev.snapshot_path)
            if (folder / "config.json").is_file() and _weights(folder):
                found.append((load_shape(str(folder)).params, str(folder)))
    if not found:
        raise UserError("no Qwen2.5 model (Qwen/Qwen2.5-<N>B[-Instruct]) with weights in the "
                        "local Hugging Face cache: `hf download Qwen/Qwen2.5-0.5B-Instruct` where "
                        "there is network, or pass --model DIR")  # fmt: skip
    params, folder = min(found)
    return folder, params


def overrides(model: str, data: Path, run: Path, steps: int) -> list[str]:
    """The project's config (``curriculum=pac``, the 3B backbone's strategy) shrunk to one GPU and
    a few prompts; the phase log and the hook through Ray's runtime env."""
    return [
        "setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac",
        f"setting.data_dir={data}", f"actor_rollout_ref.model.path={model}",
        "trainer.n_gpus_per_node=1", "trainer.nnodes=1",
        "data.train_batch_size=8", "data.max_prompt_length=1024", "data.max_response_length=256",
        "actor_rollout_ref.rollout.n=4", "actor_rollout_ref.actor.ppo_mini_batch_size=8",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=1",
        "actor_rollout_ref.rollout.gpu_memory_utilization=0.4",
        "actor_rollout_ref.rollout.calculate_log_probs=true",
        "actor_rollout_ref.actor.optim.lr=1e-5",
        "actor_rollout_ref.actor.use_kl_loss=true", "actor_rollout_ref.actor.kl_loss_coef=0.01",
        "reward.custom_reward_function.path=pkg://pac_verl.cpu.stack",
        "reward.custom_reward_function.name=toy_reward",
        "curriculum.cold_start=1", "pac.allow_short_run=true",  # a check of the node, not of PAC
        f"trainer.total_training_steps={steps}", "trainer.save_freq=-1",
        "trainer.val_before_train=false", "trainer.test_freq=-1", "trainer.logger=[file]",
        f"trainer.default_local_dir={run / 'ckpt'}", f"pac.log_root={run / 'runs'}",
        "+ray_kwargs.ray_init.runtime_env.worker_process_setup_hook="
        "pac_verl.cpu.gpu_smoke.setup_worker",
        f"+ray_kwargs.ray_init.runtime_env.env_vars.{PHASE_LOG_ENV}={run / 'phases.jsonl'}",
    ]  # fmt: skip


def setup_worker() -> None:
    """Ray's ``worker_process_setup_hook``: in the trainer's process, log each phase's window."""
    path = os.environ.get(PHASE_LOG_ENV)
    if not path:
        return
    import verl.trainer.ppo.ray_trainer as ray_trainer

    original = ray_trainer.marked_timer
    if getattr(original, "_pac_phases", False):
        return

    @contextlib.contextmanager
    def marked_timer(name, timing_raw, *args, **kwargs):
        start = time.time()
        try:
            with original(name, timing_raw, *args, **kwargs):
                yield
        finally:
            if name in PHASES:
                with open(path, "a") as f:
                    f.write(json.dumps({"phase": name, "start": start, "end": time.time()}) + "\n")

    marked_timer._pac_phases = True
    ray_trainer.marked_timer = marked_timer


@dataclass
class Sample:
    t: float
    used_gib: float


def phase_peaks(samples: list[Sample], windows: list[dict]) -> dict[str, float]:
    """The highest device memory sampled inside any window of each phase (GiB), by the planner's
    phase name; a phase without a sample inside its windows is left out."""
    peaks: dict[str, float] = {}
    for w in windows:
        inside = [s.used_gib for s in samples if w["start"] <= s.t <= w["end"]]
        if inside:
            name = PHASES[w["phase"]]
            peaks[name] = max(peaks.get(name, 0.0), max(inside))
    return peaks


class DeviceMemory:
    """NVML's used memory of one GPU, sampled by a thread (no CUDA context in this process)."""

    def __init__(self, index: int = 0):
        import pynvml

        pynvml.nvmlInit()
        self._nvml, self._handle = pynvml, pynvml.nvmlDeviceGetHandleByIndex(index)
        self.samples: list[Sample] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def read(self) -> float:
        return self._nvml.nvmlDeviceGetMemoryInfo(self._handle).used / 2**30

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            self.samples.append(Sample(time.time(), self.read()))

    def __enter__(self):
        self.baseline = self.read()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self._nvml.nvmlShutdown()


def physical_index() -> int:
    """NVML's index of the first GPU CUDA shows this process (``CUDA_VISIBLE_DEVICES``)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    return int(visible) if visible.isdigit() else 0


def require_cuda() -> str:
    """The first CUDA GPU's name, or one line saying why there is none."""
    import torch

    if torch.version.cuda is None:
        raise UserError(f"smoke --gpu needs a CUDA GPU: torch {torch.__version__} here is a CPU "
                        "build (docs/getting-started/gpu-node.md); everything before the training "
                        "ran (model, data, config, plan above)")  # fmt: skip
    if torch.cuda.device_count() == 0:
        raise UserError("smoke --gpu needs a CUDA GPU: none is visible to this process "
                        f"(CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '')!r}); "
                        "everything before the training ran (model, data, config, plan above)")  # fmt: skip
    return torch.cuda.get_device_name(0)


def main(args) -> int:
    """``pac-verl smoke --gpu`` (arguments parsed by :mod:`pac_verl.cpu.smoke`)."""
    import tempfile

    from pac_verl.cpu.run_checks import compose, read_metrics
    from pac_verl.data_prep.multi_level import build_multi_level
    from pac_verl.plan.memory import Hardware, plan_memory
    from pac_verl.plan.model import load_shape
    from pac_verl.progress import console, print_summary

    model, params = find_model(args.model)
    console.print(f"model: {model} ({params:,} parameters)")
    with tempfile.TemporaryDirectory(prefix="pac-verl-smoke-gpu-") as tmp:
        root = Path(args.out or tmp).resolve()
        root.mkdir(parents=True, exist_ok=True)
        build_multi_level(root / "data", 8, 1, seed=0, quiet=True, workers=1)
        run = root / f"run-{time.strftime('%Y%m%dT%H%M%S')}"
        cfg = compose(overrides(model, root / "data", run, args.steps))
        size = gpu_gib(physical_index())
        hw = Hardware() if size is None else Hardware(gpu_gib=size)
        plan = plan_memory(cfg, load_shape(model), hw)
        estimate = {p.name: p.gib for p in plan.phases}
        # verl's update_actor timer spans the mini-batch's backward passes and AdamW's step
        estimate["update"] = max(estimate["update"], estimate.pop("optimizer step"))
        print_summary(f"smoke --gpu: the planner's estimate per phase (GiB per GPU of "
                      f"{hw.gpu_gib:.1f}{'' if size else ', no GPU seen: the default'})",
                      ["phase", "estimate"], [[k, round(v, 1)] for k, v in estimate.items()])  # fmt: skip
        gpu = require_cuda()  # the first thing that needs CUDA
        import ray

        from pac_verl.train import train

        with DeviceMemory(physical_index()) as memory:
            try:
                train(cfg)
            finally:
                ray.shutdown()
        metrics = read_metrics(run / "runs")
        log = run / "phases.jsonl"
        windows = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
        peaks = phase_peaks(memory.samples, windows)
        problems = check_steps(metrics, args.steps)
        if not windows:
            problems.append("no phase was logged by the trainer (the Ray worker hook did not run)")
        print_summary(
            f"smoke --gpu: verl's real GRPO loop with PAC and vLLM on {gpu}",
            ["step", "score", "grad_norm", "kl_loss", "curriculum entropy",
             "rollout-actor log-prob gap (max)"],
            [[s, metrics.get(s, {}).get("critic/score/mean", float("nan")),
              metrics.get(s, {}).get("actor/grad_norm", float("nan")),
              metrics.get(s, {}).get("actor/kl_loss", float("nan")),
              metrics.get(s, {}).get("curriculum/entropy", float("nan")),
              metrics.get(s, {}).get("training/rollout_probs_diff_max", float("nan"))]
             for s in range(1, args.steps + 1)],
        )  # fmt: skip
        rows = [[name, round(peaks[name], 1) if name in peaks else "-",
                 round(estimate[name], 1) if name in estimate else "-"]
                for name in dict.fromkeys([*estimate, *peaks])]  # fmt: skip
        print_summary("smoke --gpu: GPU memory per phase (GiB, the whole device)",
                      ["phase", "measured peak", "planner's estimate"], rows,
                      {"before the run": round(memory.baseline, 1),
                       "files": root if args.out else "(removed)"})  # fmt: skip
    if problems:
        raise UserError("smoke --gpu finished but: " + "; ".join(problems))
    console.print("smoke --gpu passed: verl's real GPU path trains with PAC on this node")
    return 0


def check_steps(metrics: dict[int, dict], steps: int) -> list[str]:
    """The CPU smoke's checks that do not need its ``hf`` rollout's weight log."""
    from pac_verl.cpu.run_checks import check_run

    return check_run(metrics, None, steps)


def gpu_gib(index: int) -> float | None:
    """The GPU's memory from NVML (no CUDA context), or None where NVML is not there."""
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            return (
                pynvml.nvmlDeviceGetMemoryInfo(pynvml.nvmlDeviceGetHandleByIndex(index)).total
                / 2**30
            )
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # no NVML library, no driver, no such device: all mean "not known here"
        return None
