"""Benchmark: correct answers under a hostile load (load never turns a correct answer into 0).

One reward batch as a reward worker scores it in training: verl 0.7.1's own ``RewardLoopWorker``
(its ``naive`` manager decodes each response on the loop's default thread pool, then awaits our
``compute_score_async``; ``compute_score_batch`` gathers the whole chunk at once), built from the
project's Hydra config. The batch: ``--hostile`` code answers that never finish (a spin, a fork
bomb kept within the sandbox's process limit, a sleep, in turn), then ``--correct`` correct
answers of the other types (Zebra, math, Countdown, ARC, K&K in turn; each checked to score 1 on
an idle process before the load), while ``--hogs`` processes spin on the CPU. ``--hostile-text``
hostile text answers of the same types come with them (bracket soup, e-notation in an exponent,
gamma and binomials of huge arguments, sets nested 60 deep, a power of a sum against a polynomial
gold, 20 KB of repeated names before a K&K answer; docs/guides/rewards.md#bounded-grading): each
must get a verdict, and no correct answer of its type may be lost beside them. Each correct answer
ends as: scored 1 (right), scored 0 with a verdict (a false negative: the answer was right), or
unscored (no verdict: ``overloaded``, ``grader_timeout``, ``worker_crashed``, ...; counted, and the
trainer leaves its group out, see ``pac_verl.verl.trainer``). Code before a change has no
``scored`` key: every 0 it gave was a verdict.

``--baseline REV`` measures the same batch first with the project as it was at git revision REV
(extracted with ``git archive`` into a temporary folder and put first on the import path of a
separate process), so the two rows of each table come from one run on the same machine.

    python scripts/bench/reward_load.py [--correct 48] [--hostile 16] [--hostile-text 20] [--hogs 3]
        [--timeout-s 10] [--queue-s 60] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
RIGHT = "def add(a, b):\n    return a + b\n"
HOSTILE = {  # each would be right if it ever finished
    "spin": "while True:\n    pass\n",
    "fork bomb": "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n"
    "        pass\n",
    "sleep": "import time\ntime.sleep(10**6)\n",
}
MATH = [  # (response, gold): right answers written the way models write them
    ("<think>12 * 17 = 204</think> The answer is \\boxed{204}.", "204"),
    ("So the value is \\boxed{\\dfrac{\\sqrt{3}}{2}}.", "\\frac{\\sqrt{3}}{2}"),
    ("\\boxed{0.5}", "\\frac{1}{2}"),
    ("Simplifying, \\boxed{2\\sqrt{2}}", "\\sqrt{8}"),
    ("\\boxed{1+2x+x^2}", "x^2+2x+1"),  # the gold's form, terms in another order
    ("\\boxed{x = 3}", "3"),
]
TYPES = ("zebra", "math", "countdown", "arc", "logic")
_KK_NAMES = ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"]
_KK = json.dumps({"names": _KK_NAMES, "solution": [False, True, True, True, True, False]})
_KK_ANSWER = ("Grace is a knave, Penelope is a knight, Mia is a knight, Noah is a knight, "
              "Matthew is a knight, Lily is a knave.")  # fmt: skip
HOSTILE_TEXT = [  # (type, response, gold): each held a grader for seconds or to the kill
    ("math", "\\boxed{" + "((((((((((((((((((((((((((((((a" * 4 + "}", "2"),
    ("math", "\\boxed{2^{1e100}}", "2^{10}"),
    ("math", "\\boxed{\\Gamma(10^{8})}", "\\Gamma(5)"),
    ("math", "\\boxed{\\binom{10^9}{5*10^8}}", "\\binom{10}{5}"),
    ("math", "\\boxed{" + "\\{" * 60 + "1" + "\\}" * 60 + "}", "\\{1\\}"),
    ("math", "\\boxed{(x+1)^{999}}", "x^2+2x+1"),
    ("logic", ", ".join(_KK_NAMES * 500) + ". " + _KK_ANSWER, _KK),
]


def correct_items(n: int) -> list[tuple[str, str, str]]:
    """``n`` (type, response, ground truth) right answers, the five types in turn."""
    from pac_verl.data_prep import kk
    from pac_verl.data_prep.multi_level import Shard, build_shard
    from pac_verl.verifiers import gold_solution

    per = {t: -(-n // len(TYPES)) for t in TYPES}
    rows = {t: build_shard(Shard(t, 1, "train", per[t], seed=24))[0] for t in TYPES if t in
            ("zebra", "countdown", "arc")}  # fmt: skip
    rows["logic"] = kk.build(3, per["logic"], "train", seed=24)
    pools: dict[str, list[tuple[str, str]]] = {"math": MATH}
    for task, task_rows in rows.items():
        pools[task] = []
        for row in task_rows:
            truth = row["reward_model"]["ground_truth"]
            pools[task].append((gold_solution(task, truth, row["extra_info"]), truth))
    items = []
    for i in range(n):
        task = TYPES[i % len(TYPES)]
        response, truth = pools[task][(i // len(TYPES)) % len(pools[task])]
        items.append((task, response, truth))
    return items


def hostile_text_items(n: int) -> list[tuple[str, str, str]]:
    return [HOSTILE_TEXT[i % len(HOSTILE_TEXT)] for i in range(n)]


def hostile_items(n: int) -> list[tuple[str, str, str]]:
    names = sorted(HOSTILE)
    return [("code", f"```python\n{HOSTILE[names[i % 3]]}{RIGHT}```", ADD) for i in range(n)]


def reward_config(model_path: str, timeout_s: float, queue_s: float):
    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf, open_dict
    from verl.experimental.reward_loop import migrate_legacy_reward_impl

    from pac_verl.resolvers import register_resolvers

    register_resolvers()
    kwargs = "reward.custom_reward_function.reward_kwargs"
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=[
            f"actor_rollout_ref.model.path={model_path}",
            f"{kwargs}.timeout_s={timeout_s}", f"{kwargs}.queue_s={queue_s}",
        ])  # fmt: skip
    with open_dict(cfg):
        cfg = migrate_legacy_reward_impl(cfg)
    OmegaConf.resolve(cfg)
    return cfg


def make_tokenizer(folder: Path, texts: list[str]) -> dict[str, int]:
    """One token per whole response, so that the ids decode to the exact text."""
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    vocab = {w: i for i, w in enumerate(dict.fromkeys(["<unk>", "<pad>", "<|im_end|>", *texts]))}
    fast = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(models.WordLevel(vocab, unk_token="<unk>")),
        unk_token="<unk>", pad_token="<pad>", eos_token="<|im_end|>",
        clean_up_tokenization_spaces=False,
    )  # fmt: skip
    fast.save_pretrained(folder)
    return vocab


def verl_batch(items, vocab):
    import numpy as np
    import torch
    from verl import DataProto

    n = len(items)
    return DataProto.from_dict(
        tensors={"responses": torch.tensor([[vocab[r]] for _, r, _ in items]),
                 "attention_mask": torch.ones(n, 2, dtype=torch.long)},
        non_tensors={
            "data_source": np.array([t for t, _, _ in items], dtype=object),
            "reward_model": np.array([{"ground_truth": g} for _, _, g in items], dtype=object),
            "extra_info": np.array([{"type": t} for t, _, _ in items], dtype=object),
        },
    )  # fmt: skip


def measure(args) -> dict:
    """Score one batch under the load; returns what each answer got."""
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    from pac_verl.verifiers import score
    from pac_verl.verifiers.pool import close_shared_pool

    correct = correct_items(args.correct)
    for task, response, truth in correct:  # right on an idle process, or the bench is wrong
        verdict = score(task, response, truth)
        if not verdict.correct:
            raise SystemExit(f"not a right answer ({verdict.reason}): {task} {response[:60]!r}")
    hostile = hostile_items(args.hostile) + hostile_text_items(args.hostile_text)
    items = hostile + correct  # the hostile first: the order that would starve the others
    with tempfile.TemporaryDirectory() as tmp:
        vocab = make_tokenizer(Path(tmp), [r for _, r, _ in items])
        cfg = reward_config(tmp, args.timeout_s, args.queue_s)
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(args.hogs)]  # fmt: skip
        try:
            started = time.perf_counter()

            async def run():
                worker = RewardLoopWorker(cfg)
                return await worker.compute_score_batch(verl_batch(items, vocab))

            outputs = asyncio.run(run())
            wall = time.perf_counter() - started
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
            close_shared_pool()
    answers = []
    for i, ((task, _, _), out) in enumerate(zip(items, outputs)):
        info = out["reward_extra_info"]
        hostile_text = args.hostile <= i < len(hostile)
        answers.append({"type": f"{task} (hostile)" if hostile_text else task,
                        "score": float(out["reward_score"]),
                        "reason": str(info["reason"]), "latency_s": float(info["latency_s"]),
                        "scored": float(info.get("scored", 1.0))})  # fmt: skip
    return {"wall_s": wall, "answers": answers}


def _run_version(args, label: str, import_root: Path | None) -> dict:
    """``measure`` in a fresh process, with ``import_root`` first on its import path."""
    cmd = [sys.executable, __file__, "--measure", "--correct", str(args.correct),
           "--hostile", str(args.hostile), "--hostile-text", str(args.hostile_text),
           "--hogs", str(args.hogs),
           "--timeout-s", str(args.timeout_s), "--queue-s", str(args.queue_s)]  # fmt: skip
    env = dict(os.environ)
    if import_root is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(import_root), env.get("PYTHONPATH", "")])
    print(f"measuring {label} ...", flush=True)
    # run from outside the repository: a ``python -c`` child (the scoring pool's zygote) puts its
    # working directory first on its import path, where this tree's pac_verl would win
    cwd = import_root if import_root is not None else None
    out = subprocess.run(
        cmd, env=env, cwd=cwd, check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def _checkout(rev: str, folder: Path) -> Path:
    """The project at ``rev`` laid out as the installed package (``pac_verl`` with its
    ``verifiers``, ``data_prep`` and ``configs`` inside), for a process's import path."""
    src = folder / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             stdout=subprocess.PIPE).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    package = folder / "path" / "pac_verl"
    package.mkdir(parents=True)
    for entry in (src / "pac_verl").iterdir():
        (package / entry.name).symlink_to(entry)
    for name in ("verifiers", "data_prep", "configs"):
        (package / name).symlink_to(src / name)
    return folder / "path"


def summarise(label: str, result: dict) -> list[list[object]]:
    rows = []
    by_type = collections.defaultdict(list)
    for a in result["answers"]:
        by_type[a["type"]].append(a)
    hostile_types = sorted({t for t in by_type if t.endswith("(hostile)")})
    for task in (*TYPES, "code", *hostile_types):
        got = by_type.get(task, [])
        if not got:
            continue
        right = sum(a["score"] >= 1.0 for a in got)
        unscored = [a for a in got if a["scored"] < 1.0]
        zero = [a for a in got if a["score"] < 1.0 and a["scored"] >= 1.0]
        reasons = collections.Counter(a["reason"] for a in got if a["score"] < 1.0)
        latency = sorted(a["latency_s"] for a in got)
        rows.append([label, task, len(got), right if task != "code" else "-",
                     len(zero) if task != "code" else "-", len(unscored),
                     " ".join(f"{r}x{n}" for r, n in sorted(reasons.items())) or "-",
                     f"{latency[len(latency) // 2]:.2f}", f"{latency[-1]:.2f}"])  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correct", type=int, default=48)
    parser.add_argument("--hostile", type=int, default=16)
    parser.add_argument("--hostile-text", type=int, default=20)
    parser.add_argument("--hogs", type=int, default=3)
    parser.add_argument("--timeout-s", type=float, default=10.0)
    parser.add_argument("--queue-s", type=float, default=60.0)
    parser.add_argument("--baseline", metavar="REV", help="also measure the project at git REV")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args)))
        return

    from pac_verl.progress import print_summary

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            label = f"before ({args.baseline})"
            results[label] = _run_version(args, label, _checkout(args.baseline, Path(tmp)))
        results["this tree"] = _run_version(args, "this tree", None)
    rows = [row for label, result in results.items() for row in summarise(label, result)]
    footer = {f"wall time of the batch, {label}": f"{r['wall_s']:.1f} s"
              for label, r in results.items()}  # fmt: skip
    for label, r in results.items():
        correct = [a for a in r["answers"] if a["type"] in TYPES]
        wrong = sum(a["score"] < 1.0 and a["scored"] >= 1.0 for a in correct)
        lost = sum(a["score"] < 1.0 for a in correct)
        footer[f"false negatives, {label}"] = f"{wrong} of {args.correct}"
        footer[f"correct lost (not scored 1), {label}"] = f"{lost} of {args.correct}"
        hostile = [a for a in r["answers"] if a["type"].endswith("(hostile)")]
        if hostile:
            unscored = sum(a["scored"] < 1.0 for a in hostile)
            worst = max(a["latency_s"] for a in hostile)
            footer[f"hostile text answers, {label}"] = (
                f"{len(hostile) - unscored} of {len(hostile)} with a verdict, slowest {worst:.2f} s"
            )
    footer["load"] = (f"{args.hostile} endless code answers + {args.hostile_text} hostile text "
                      f"answers + {args.hogs} CPU hogs on "
                      f"{len(os.sched_getaffinity(0))} CPUs; timeout_s {args.timeout_s:g}, "
                      f"queue_s {args.queue_s:g}")  # fmt: skip
    print_summary(
        "Correct answers under load (one reward worker, verl's RewardLoopWorker)",
        ["version", "type", "n", "scored 1", "scored 0 (verdict)", "unscored", "reasons (not 1)",
         "latency p50 s", "max s"],
        rows,
        footer,
    )  # fmt: skip


if __name__ == "__main__":
    main()
