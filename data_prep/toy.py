"""``pac-verl prep toy``: the miniature's data and its model, for CPU runs of the whole pipeline.

The toy setting (``setting=toy``, ``configs/setting/toy.yaml``) tests the paper's claim with real
gradient updates on a CPU: six arms that a tiny random model either can learn within tens of steps,
at graded difficulty, or by design cannot (rules: :mod:`pac_verl.verifiers.toy`):

============== ================================================= ===========================
arm            reward (first character of the response ...)      a random policy earns
============== ================================================= ===========================
toy/learn/1    ... is a hex digit ``0-9a-f``                     ~0.16
toy/learn/2    ... is one of ``0123``                            ~0.04
toy/learn/3    ... is ``0``                                      ~0.01
toy/saturated  any non-blank response                            ~0.99 (no advantage)
toy/unreachable the response is exactly the 4 letters shown     ~1e-8 (no advantage)
toy/noise      a fair coin, whatever the response                0.5 (|advantage| ~0.8, no progress)
============== ================================================= ===========================

The three learnable arms are one skill at three precisions (nested sets), like a task's levels:
training on ``learn/3`` helps ``learn/1`` and ``learn/2``, not the other way round. Every prompt
ends with random letters (six; the unreachable arm's four are the answer), so greedy validation varies from prompt to prompt and a validation
score moves by fractions instead of jumping between 0 and 1 for a whole arm.

Rows follow docs/concepts/spec.md#rows-on-disk: training rows have ``data_source`` ``toy``,
validation rows the arm's name (``toy/learn/1``, ...), so verl logs
``val-core/toy/learn/1/acc/mean@1`` per arm and the report reads it. ``extra_info`` holds
``type: toy`` (the verifier) and ``arm`` (``learn/1``, ...); the setting's arm fields are
``[type, arm]``. A validation prompt never appears in training.

The model (``--model-out``, default ``data/tiny-cpu``: the ``tiny-cpu`` backbone's
``actor_rollout_ref.model.path``) is a randomly initialised Qwen2 (hidden 64, 2 layers, seed 0) with
a character-level tokenizer over printable ASCII (99 tokens with ``<pad>``, ``<unk>``, ``<eos>``)
and a pass-through chat template (the prompt is the user text, as the paper gives base models
raw text). Nothing is downloaded; the same command writes the same files.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

from pac_verl.data_prep.publish import BuildFolder, utc_now
from pac_verl.data_prep.rows import make_row
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, print_summary

# arm -> (ground truth rule, prompt label); the learnable sets are nested (graded precision)
ARMS: dict[str, dict[str, Any]] = {
    "learn/1": {"rule": "charset", "chars": "0123456789abcdef"},
    "learn/2": {"rule": "charset", "chars": "0123"},
    "learn/3": {"rule": "charset", "chars": "0"},
    "saturated": {"rule": "nonempty"},
    "unreachable": {"rule": "exact"},  # text: the 4 letters the prompt shows
    "noise": {"rule": "coin", "p": 0.5},
}
LEARNABLE = ("learn/1", "learn/2", "learn/3")
TAIL_LETTERS = 6  # random letters that end every prompt
COPY_LETTERS = 4  # letters the unreachable arm must copy exactly

# the tokenizer: one token per printable ASCII character, plus three special tokens
SPECIAL = ("<pad>", "<unk>", "<eos>")
CHARS = tuple(c for c in string.printable if c not in "\t\r\x0b\x0c")
CHAT_TEMPLATE = "{% for m in messages %}{{ m['content'] }}{% endfor %}"


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(n))


def make_prompt(arm: str, rng: random.Random) -> tuple[str, str]:
    """(prompt text, ground truth JSON) of one row of ``arm``."""
    truth = dict(ARMS[arm])
    if arm == "unreachable":
        text = _letters(rng, COPY_LETTERS)
        truth["text"] = text
        return f"copy: {text}", json.dumps(truth, sort_keys=True)
    return f"{arm}: {_letters(rng, TAIL_LETTERS)}", json.dumps(truth, sort_keys=True)


def toy_rows(
    train_per_arm: int, val_per_arm: int, seed: int, arms: tuple[str, ...] = tuple(ARMS)
) -> tuple[list[dict], list[dict]]:
    """Training and validation rows of ``arms``; validation prompts are drawn first and never
    reused."""
    rng = random.Random(seed)
    train, val, seen = [], [], set()
    for split, per_arm, out in (("val", val_per_arm, val), ("train", train_per_arm, train)):
        for arm in arms:
            made = 0
            while made < per_arm:
                prompt, truth = make_prompt(arm, rng)
                if prompt in seen:
                    continue
                seen.add(prompt)
                source = f"toy/{arm}" if split == "val" else "toy"
                out.append(make_row(data_source=source, prompt=prompt, task_type="toy",
                                    ground_truth=truth, split=split, index=len(out), arm=arm))  # fmt: skip
                made += 1
    return train, val


def build_tokenizer(folder: Path):
    """The character-level tokenizer (:data:`CHARS`), saved as a Hugging Face folder.

    Its symbols are the byte-level ones (space ``Ġ``, newline ``Ċ``, the rest themselves) and it
    pre-tokenizes and decodes byte-level, without merges: loaded as ``Qwen2Tokenizer`` (what
    ``AutoTokenizer``, and so verl, makes of a folder whose ``config.json`` says ``qwen2``, with
    Qwen2's byte-level pipeline) it still reads one character per token, whitespace included."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    symbols = [byte_level.pre_tokenize_str(c)[0][0] for c in CHARS]
    vocab = {t: i for i, t in enumerate((*SPECIAL, *symbols))}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token="<unk>"))  # no merges: chars
    tok.add_special_tokens(list(SPECIAL))
    tok.pre_tokenizer = byte_level
    tok.decoder = decoders.ByteLevel()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(folder)
    return fast


def build_model(folder: Path, seed: int = 0) -> int:
    """The tiny random Qwen2 and its tokenizer in ``folder``; returns its parameter count.

    Written into a staging folder beside ``folder`` first, then moved in file by file, weights
    first and ``config.json`` last (its old one removed before), so an interrupted build never
    leaves a folder that a later command takes for a model. A full disk is one line naming the
    folder; nothing half-written is kept."""
    import shutil
    import tempfile

    from pac_verl.data_prep.publish import is_disk_full
    from pac_verl.outputs import apply_umask

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.staging-", dir=folder.parent))
    try:
        params = _write_model(staging, seed)
        (folder / "config.json").unlink(missing_ok=True)  # the folder is no model until the end
        files = sorted(staging.iterdir(), key=lambda f: (f.name == "config.json", f.name))
        for file in files:
            apply_umask(file)  # the modes a direct write gives, not the staging folder's
            file.replace(folder / file.name)
    except Exception as err:
        if not is_disk_full(err):
            raise
        free = shutil.disk_usage(folder).free / 2**20
        raise UserError(f"{folder}: the disk is full while writing the tiny model ({free:.0f} "
                        "MiB free); nothing half-written was kept: free space, or give "
                        "--model-out on a larger disk, and run pac-verl prep toy again") from None  # fmt: skip
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return params


def _write_model(folder: Path, seed: int) -> int:
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    tokenizer = build_tokenizer(folder)
    config = Qwen2Config(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
        tie_word_embeddings=False, pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id, bos_token_id=None,
    )  # fmt: skip
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id
    )
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # one tiny shard: the build's summary says it is written
    try:
        model.save_pretrained(folder)
    finally:
        hf_logging.enable_progress_bar()
    return sum(p.numel() for p in model.parameters())


def check_golds(rows: list[dict]) -> list[str]:
    """Every gold answer through the verifier (the coin has none); the arms whose golds fail."""
    from pac_verl.verifiers import compute_scores, gold_solution

    items, arms = [], []
    for r in rows:
        truth, info = r["reward_model"]["ground_truth"], r["extra_info"]
        gold = gold_solution("toy", truth, info)
        if gold is not None:
            items.append(("toy", gold, truth))
            arms.append(info["arm"])
    verdicts = compute_scores(items, workers=1)
    return sorted({a for a, v in zip(arms, verdicts) if not v.correct})


def build_toy(
    out_dir: str | Path,
    model_dir: str | Path | None = None,
    train_per_arm: int = 256,
    val_per_arm: int = 32,
    seed: int = 0,
    quiet: bool = False,
    arms: tuple[str, ...] = tuple(ARMS),
    force: bool = False,
) -> dict[str, Any]:
    """Write ``train.parquet``, ``val.parquet`` and ``data_manifest.json`` under ``out_dir`` (a
    folder that holds an earlier build only with ``force``, as every ``prep`` build:
    :mod:`.publish`) and, unless ``model_dir`` is None, the tiny model there; returns the
    summary. ``arms``: a subset of :data:`ARMS` (a test that needs every reward reproducible
    leaves the noise arm out)."""
    if train_per_arm < 1 or val_per_arm < 1:
        raise UserError("--train-per-arm and --val-per-arm must be >= 1")
    unknown = sorted(set(arms) - set(ARMS))
    if unknown or not arms:
        raise UserError(f"toy arms {unknown or '[]'}: choose among {', '.join(ARMS)}")
    limit = 26**COPY_LETTERS // 2  # distinct prompts are drawn at random: leave room
    if (train_per_arm + val_per_arm) > limit:
        raise UserError(f"--train-per-arm + --val-per-arm must be <= {limit} (distinct prompts)")
    with Stopwatch() as sw, BuildFolder(out_dir, force) as folder:
        train, val = toy_rows(train_per_arm, val_per_arm, seed, tuple(arms))
        failed = check_golds(train + val)
        if failed:
            raise UserError(f"the toy verifier rejected gold answers of {failed}: a bug")
        folder.write_parquet("train.parquet", train)
        folder.write_parquet("val.parquet", val)
        options = {"train_per_arm": train_per_arm, "val_per_arm": val_per_arm, "seed": seed,
                   "arms": list(arms)}  # fmt: skip
        published = folder.publish({"setting": "toy", "builder": "pac-verl prep toy",
                                    "built_utc": utc_now(), "options": options})  # fmt: skip
        paths = {"train": published["train.parquet"], "val": published["val.parquet"]}
        params = None
        if model_dir is not None:
            params = build_model(Path(model_dir))
    table = [[arm, train_per_arm, val_per_arm, json.dumps(ARMS[arm])] for arm in arms]
    extra = {"train": paths["train"], "val": paths["val"]}
    if model_dir is not None:
        extra.update({"model": Path(model_dir), "model parameters": f"{params:,}"})
    extra["seconds"] = round(sw.seconds, 1)
    if not quiet:
        print_summary("pac-verl prep toy", ["arm", "train", "val", "rule"], table, extra)
    return {"paths": {k: str(v) for k, v in paths.items()}, "params": params,
            "seconds": sw.seconds}  # fmt: skip
