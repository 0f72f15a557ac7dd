"""``pac-verl smoke``: a few real GRPO steps of verl 0.7.1 with PAC, on the CPU, in about a minute.

Before booking GPUs, check that an installation trains end to end: verl's own ``run_ppo`` ->
``PACTaskRunner`` -> ``init_workers()`` / ``fit()`` with its real FSDP2 actor and reference
workers, agent loop, reward loop and weight sync (:mod:`pac_verl.cpu.stack`), the project's
Hydra config with ``curriculum=pac``, a small multi-level dataset, and a tiny randomly
initialised Qwen2 (hidden 64, 2 layers) with a byte-level BPE tokenizer trained on the spot
(nothing is downloaded). The reward is dense (:func:`~pac_verl.cpu.stack.toy_reward`), so
advantages are not zero and the policy moves. At the end it checks what only a real run shows
(weights reach the rollout every step, ``grad_norm > 0``, the KL to the reference grows, the
``curriculum/`` metrics and run log are written) and prints one table.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

from pac_verl.cpu.run_checks import check_run, compose, read_metrics
from pac_verl.errors import UserError
from pac_verl.progress import console, print_summary

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL = ["<pad>", "<|im_start|>", "<|im_end|>"]


def build_tokenizer(folder: Path, texts: list[str], vocab_size: int = 2048):
    """A byte-level BPE tokenizer trained on ``texts``, saved as a Hugging Face folder."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())  # fmt: skip
    tok.train_from_iterator(texts, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<|im_end|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(folder)
    return fast


def build_model(folder: Path, tokenizer, seed: int = 0) -> None:
    """A randomly initialised Qwen2 of about 0.1 M parameters (plus embeddings) in ``folder``."""
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096,
        tie_word_embeddings=False, pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id, bos_token_id=None,
    )  # fmt: skip
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id
    )
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


def build_assets(root: Path, train_per_arm: int = 4, val_per_level: int = 1) -> Path:
    """Data (``root/data``) and model with tokenizer (``root/model``); returns ``root``."""
    from pac_verl.data_prep.multi_level import build_multi_level
    from pac_verl.data_prep.rows import read_rows

    build_multi_level(root / "data", train_per_arm, val_per_level, seed=0, quiet=True, workers=1,
                      force=True)  # fmt: skip
    texts = [m["content"] for r in read_rows(root / "data" / "train.parquet") for m in r["prompt"]]
    tok = build_tokenizer(root / "model", texts)
    build_model(root / "model", tok)
    return root


def overrides(root: Path, run: Path, steps: int = 3, batch: int = 6, n: int = 4) -> list[str]:
    """The project's config (``curriculum=pac``) on the tiny assets under ``root``, plus the CPU
    stack; checkpoints, run logs and the rollout's weight log go under ``run``."""
    from pac_verl.cpu.hf_rollout import LOG_KEY
    from pac_verl.cpu.stack import OVERRIDES

    return [
        "setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac",
        f"setting.data_dir={root / 'data'}", f"actor_rollout_ref.model.path={root / 'model'}",
        f"data.train_batch_size={batch}", "data.max_prompt_length=1024",
        "data.max_response_length=24", "data.filter_overlong_prompts_workers=1",
        f"actor_rollout_ref.rollout.n={n}", f"actor_rollout_ref.actor.ppo_mini_batch_size={batch}",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8",
        "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8",
        "actor_rollout_ref.actor.optim.lr=1e-3",
        "actor_rollout_ref.actor.use_kl_loss=true", "actor_rollout_ref.actor.kl_loss_coef=0.01",
        "reward.custom_reward_function.path=pkg://pac_verl.cpu.stack",
        "reward.custom_reward_function.name=toy_reward",
        "reward.custom_reward_function.reward_kwargs.workers=1",
        "curriculum.cold_start=1",
        f"trainer.total_training_steps={steps}", "trainer.save_freq=1",
        "trainer.val_before_train=false", "trainer.test_freq=-1",
        "trainer.logger=[file]", "trainer.resume_mode=auto",
        f"trainer.default_local_dir={run / 'ckpt'}", f"pac.log_root={run / 'runs'}",
        f"+actor_rollout_ref.rollout.custom.{LOG_KEY}={run / 'rollout.jsonl'}",
        *OVERRIDES,
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


def train_once(root: Path, run: Path, steps: int) -> None:
    """One attempt of ``python -m pac_verl.main`` on the tiny assets (Ray started if needed)."""
    from pac_verl.cpu.stack import check_verl
    from pac_verl.train import train

    check_verl()
    train(compose(overrides(root, run, steps)))


def read_rollout_log(run: Path) -> list[dict]:
    """One line per weight load of the rollout: ``weights_sha256``, ``requests_before``."""
    path = run / "rollout.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="pac-verl smoke", description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=None, help="GRPO steps (default 3; 2 with --gpu)")
    ap.add_argument("--out", help="keep the run's files here (default: a temporary folder)")
    ap.add_argument("--gpu", action="store_true",
                    help="the GPU node's acceptance run: vLLM, flash-attention, the smallest local "
                         "Qwen2.5, measured GPU memory per phase beside the plan")  # fmt: skip
    ap.add_argument("--model", help="with --gpu: a local model folder (default: the smallest "
                    "Qwen2.5 in the local Hugging Face cache)")  # fmt: skip
    args = ap.parse_args(argv)
    if args.steps is None:
        args.steps = 2 if args.gpu else 3
    if args.steps < 2:
        raise UserError("--steps must be at least 2 (the KL check needs a second step)")
    if args.model and not args.gpu:
        raise UserError("--model is for --gpu (the CPU smoke builds its own tiny model)")
    if args.gpu:
        from pac_verl.cpu import gpu_smoke

        return gpu_smoke.main(args)
    import ray

    with tempfile.TemporaryDirectory(prefix="pac-verl-smoke-") as tmp:
        root = Path(args.out or tmp).resolve()
        root.mkdir(parents=True, exist_ok=True)
        console.print(f"building the tiny model and data in {root}")
        build_assets(root)
        run = root / f"run-{time.strftime('%Y%m%dT%H%M%S')}"
        with ResourceMeter() as meter:
            try:
                train_once(root, run, args.steps)
            finally:
                ray.shutdown()
        metrics = read_metrics(run / "runs")
        rollout = read_rollout_log(run)
        problems = check_run(metrics, rollout, args.steps)
        rows = [[s, metrics[s].get("critic/score/mean", float("nan")),
                 metrics[s].get("actor/grad_norm", float("nan")),
                 metrics[s].get("actor/kl_loss", float("nan")),
                 metrics[s].get("curriculum/entropy", float("nan")),
                 rollout[s]["weights_sha256"][:12]] for s in range(1, args.steps + 1)]  # fmt: skip
        print_summary(
            "smoke: verl's real GRPO loop with PAC on the CPU",
            ["step", "score", "grad_norm", "kl_loss", "curriculum entropy", "rollout weights"],
            rows,
            {"wall seconds": round(meter.wall, 1), "CPU seconds (user+sys)":
             round(meter.cpu_seconds, 1), "peak RSS, all processes (GB)":
             round(meter.peak_rss / 2**30, 2), "files": root if args.out else "(removed)"},
        )  # fmt: skip
    if problems:
        raise UserError("smoke run finished but: " + "; ".join(problems))
    console.print("smoke passed: verl's real workers train with PAC on this installation")
    return 0
