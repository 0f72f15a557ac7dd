"""``pac-verl smoke``: a few real GRPO steps of verl 0.7.1 on the CPU, validated, in about two minutes.

Before booking GPUs, check that an installation trains end to end: verl's own ``run_ppo`` ->
``PACTaskRunner`` -> ``init_workers()`` / ``fit()`` with its real FSDP2 actor and reference
workers, agent loop, reward loop and weight sync (:mod:`pac_verl.cpu.stack`), the project's Hydra
config with the curriculum you name (default ``curriculum=pac``) on the miniature:
``setting=toy backbone=tiny-cpu``, whose data and tiny random Qwen2 (character tokenizer, nothing
downloaded) it builds in its folder (:mod:`pac_verl.data_prep.toy`), scored by the project's
reward entry (``compute_score``, the toy verifier). It validates every toy arm at its last step,
and turns the KL loss on so that the reference worker runs too. At the end it checks what only a
real run shows (weights reach the rollout every step, ``grad_norm > 0``, the KL to the reference
grows, the ``curriculum/`` metrics, the validation and the run log are written) and prints one
table.

    pac-verl smoke                                   # 3 steps of PAC in a temporary folder
    pac-verl smoke --out s curriculum=sec            # keep the files; any Hydra override
    pac-verl smoke --out s curriculum=random curriculum.seed=1
    pac-verl report s/runs                           # the runs of one folder report together

The runs of one ``--out`` folder share the data, the model and the log root, so they differ only
where their curriculum or seed makes them differ (``toy__tiny-cpu__<curriculum>__seed<k>``); a
run already complete there is refused, not trained again.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

from pac_verl.cpu.keys import HF_ROLLOUT_LOG_KEY as LOG_KEY
from pac_verl.cpu.run_checks import check_run, compose, read_metrics, val_score
from pac_verl.errors import UserError
from pac_verl.progress import console, print_summary

TOY_ARMS = ("learn/1", "learn/2", "learn/3", "saturated", "unreachable", "noise")


def build_assets(
    root: Path, train_per_arm: int = 64, val_per_arm: int = 8, arms: tuple[str, ...] = TOY_ARMS
) -> Path:
    """The toy data (``root/data``) and the tiny model with its tokenizer (``root/model``)."""
    from pac_verl.data_prep.toy import build_toy

    build_toy(root / "data", root / "model", train_per_arm, val_per_arm, seed=0, quiet=True,
              arms=arms, force=True)  # fmt: skip
    return root


def overrides(root: Path, run: Path, steps: int = 3, extra: list[str] | None = None) -> list[str]:
    """The project's config on the miniature built under ``root`` (``setting=toy
    backbone=tiny-cpu``, default ``curriculum=pac``), ``steps`` steps validated at the last, the
    KL loss on; run logs, checkpoints and the rollout's weight log under ``run``. ``extra``
    (Hydra overrides) come last and win."""
    return [
        "setting=toy", "backbone=tiny-cpu", "curriculum=pac",
        f"setting.data_dir={root / 'data'}", f"actor_rollout_ref.model.path={root / 'model'}",
        "setting.cold_start=1",  # PAC and its ablations leave the cold start after one step
        "pac.allow_short_run=true",  # a check of the stack, not of PAC: the report marks it short
        f"trainer.total_training_steps={steps}", f"trainer.test_freq={steps}",
        "trainer.val_before_train=false", "trainer.save_freq=1",
        "actor_rollout_ref.actor.use_kl_loss=true", "actor_rollout_ref.actor.kl_loss_coef=0.01",
        "trainer.logger=[file]", "trainer.resume_mode=auto",
        f"trainer.default_local_dir={run / 'ckpt'}/${{trainer.experiment_name}}",
        f"pac.log_root={run / 'runs'}",
        f"+actor_rollout_ref.rollout.custom.{LOG_KEY}={run / 'rollout.jsonl'}",
        *(extra or []),
    ]  # fmt: skip


class ResourceMeter:
    """Peak RSS summed over this process and all its descendants (Ray's included), and their CPU
    time (user + sys, each process's last reading), sampled every ``interval`` seconds."""

    def __init__(self, interval: float = 0.5):
        import psutil

        self.interval, self.peak_rss, self.cpu = interval, 0, {}
        self._me = psutil.Process()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        import psutil

        rss = 0
        for p in [self._me, *self._me.children(recursive=True)]:
            try:
                with p.oneshot():
                    rss += p.memory_info().rss
                    t = p.cpu_times()
                    self.cpu[p.pid] = t.user + t.system
            except psutil.Error:
                continue
        self.peak_rss = max(self.peak_rss, rss)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def __enter__(self):
        self.start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._sample()
        self._stop.set()
        self._thread.join()
        self.wall = time.perf_counter() - self.start

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu.values())


def train_once(root: Path, run: Path, steps: int, extra: list[str] | None = None) -> str:
    """One attempt of ``python -m pac_verl.main`` on the tiny assets (Ray started if needed);
    returns the experiment name."""
    from pac_verl.cpu.stack import prepare_driver
    from pac_verl.train import train

    prepare_driver()  # the pins (one line if this verl is not supported), the CPU platform
    config = compose(overrides(root, run, steps, extra))
    train(config)
    return str(config.trainer.experiment_name)


def read_rollout_log(run: Path, skip: int = 0) -> list[dict]:
    """One line per weight load of the rollout (``weights_sha256``, ``requests_before``), the
    first ``skip`` lines (earlier runs' loads) left out."""
    path = run / "rollout.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(x) for x in lines[skip:]]


def _check_toy_arms(root: Path, args) -> None:
    """Compose the run's config (every check of ``plan`` and the recipes), and check that
    ``curriculum=single`` names toy arms (the smoke trains the miniature): an arm of another
    setting is one line now, not an error inside the task runner after the model is built."""
    from pac_verl.curriculum.baselines import resolve_train_arms

    example = "the smoke trains the toy setting, e.g. curriculum.train_arms=[toy/learn/1]"
    try:
        cfg = compose(overrides(root, root, args.steps, args.overrides))
    except UserError as err:
        if "curriculum.train_arms" not in str(err):
            raise
        raise UserError(f"curriculum=single needs curriculum.train_arms=[...]: {example}") from None
    if str(cfg.curriculum.name) == "single":
        try:
            resolve_train_arms(list(cfg.curriculum.train_arms), [f"toy/{a}" for a in TOY_ARMS])
        except UserError as err:
            raise UserError(f"{err}; {example}") from None


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="pac-verl smoke", description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=None, help="GRPO steps (default 3; 2 with --gpu)")
    ap.add_argument("--out", help="keep the run's files here (default: a temporary folder)")
    ap.add_argument("--gpu", action="store_true",
                    help="the GPU node's acceptance run: vLLM, flash-attention, the smallest local "
                         "Qwen2.5, measured GPU memory per phase beside the plan")  # fmt: skip
    ap.add_argument("--model", help="with --gpu: a local model folder (default: the smallest "
                    "Qwen2.5 in the local Hugging Face cache)")  # fmt: skip
    ap.add_argument("overrides", nargs="*", metavar="KEY=VALUE",
                    help="Hydra overrides, e.g. curriculum=sec curriculum.seed=1")  # fmt: skip
    args = ap.parse_intermixed_args(argv)  # options may sit between the overrides
    if args.steps is None:
        args.steps = 2 if args.gpu else 3
    if args.steps < 2:
        raise UserError("--steps must be at least 2 (the KL check needs a second step)")
    if args.model and not args.gpu:
        raise UserError("--model is for --gpu (the CPU smoke builds its own tiny model)")
    if args.gpu:
        from pac_verl.cpu import gpu_smoke

        if args.overrides:
            raise UserError(
                "smoke --gpu takes no Hydra overrides (it runs PAC on the smallest "
                "local Qwen2.5); drop " + " ".join(args.overrides)
            )
        return gpu_smoke.main(args)
    bad = [o for o in args.overrides if "=" not in o]
    if bad:
        raise UserError(f"{bad[0]!r} is not a Hydra override KEY=VALUE (e.g. curriculum=sec)")
    import ray

    with tempfile.TemporaryDirectory(prefix="pac-verl-smoke-") as tmp:
        root = Path(args.out or tmp).resolve()
        _check_toy_arms(root, args)  # a bad override: one line, before anything is built
        root.mkdir(parents=True, exist_ok=True)
        console.print(f"building the toy data and the tiny model in {root}")
        build_assets(root)
        before = len(read_rollout_log(root))
        with ResourceMeter() as meter:
            try:
                name = train_once(root, root, args.steps, args.overrides)
            finally:
                ray.shutdown()
        metrics = read_metrics(root / "runs", name)
        rollout = read_rollout_log(root, skip=before)
        problems = check_run(metrics, rollout, args.steps, tuple(f"toy/{a}" for a in TOY_ARMS))
        rows = [[s, metrics[s].get("critic/score/mean", float("nan")),
                 metrics[s].get("actor/grad_norm", float("nan")),
                 metrics[s].get("actor/kl_loss", float("nan")),
                 metrics[s].get("curriculum/entropy", float("nan")),
                 rollout[s]["weights_sha256"][:12] if s < len(rollout) else "-"]
                for s in range(1, args.steps + 1)]  # fmt: skip
        last = metrics.get(args.steps, {})
        val = ", ".join(
            f"{a} {v:.2f}" for a in TOY_ARMS if (v := val_score(last, f"toy/{a}")) is not None
        )
        print_summary(
            f"smoke: verl's real GRPO loop on the CPU, {name}",
            ["step", "score", "grad_norm", "kl_loss", "curriculum entropy", "rollout weights"],
            rows,
            {f"validation at step {args.steps}": val or "none", "wall seconds":
             round(meter.wall, 1), "CPU seconds (user+sys)": round(meter.cpu_seconds, 1),
             "peak RSS, all processes (GB)": round(meter.peak_rss / 2**30, 2),
             "files": root if args.out else "(removed)"},
        )  # fmt: skip
    if problems:
        raise UserError("smoke run finished but: " + "; ".join(problems))
    console.print("smoke passed: verl's real workers train and validate on this installation")
    return 0
