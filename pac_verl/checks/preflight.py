"""``pac-verl preflight [overrides]``: a dry run of a training config on any machine, no GPU.

It composes the same config ``python -m pac_verl.main`` would (same overrides, same checks:
:mod:`pac_verl.checks.config`), then, before verl is imported, checks the data
(:mod:`pac_verl.checks.data`): training rows by ``pac-verl prep check``'s rules and their
gold answers through the verifiers on a sample (``--sample-rows``), validation rows in full, and
every arm's pool against its share of a batch. Then it loads the training parquet through verl's
real ``RLHFDataset`` (with the prompt-length filter when the backbone's tokenizer is on local
disk: ``--tokenizer PATH`` or ``actor_rollout_ref.model.path`` as a folder; otherwise the filter is
skipped with a warning), builds the sampler the trainer builds (``build_sampler``), checks the pools
again after the filter, draws a few batches, and scores every validation row's gold answer through
the reward entry verl will call. Its summary names the verl line in use and what differs on it
(:func:`pac_verl.verl.compat.describe`). With a tokenizer it prints one prompt per training arm, decoded
from the tokens the rollout reads (the chat template of ``backbone.prompt_style``). Any
misconfiguration ends in one message that names what to fix. The closing line's time counts from
the start of the process (imports included).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import warnings
from collections import Counter
from pathlib import Path

from pac_verl.cli_args import HelpFormatter, positive_int
from pac_verl.compose import compose_config, compose_runs, expand
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, console, print_summary, process_seconds
from pac_verl.run_logs import prompt_record

SAMPLE_ROWS = 1000  # training rows put through prep check's per-row rules and the verifiers


def _tokenizer(cfg, path: str | None):
    candidate = path or cfg.actor_rollout_ref.model.path
    if candidate and Path(candidate).is_dir():
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(candidate)
    if path:
        raise UserError(f"--tokenizer {path}: no such folder")
    warnings.warn(f"tokenizer {candidate!r} is not a local folder: prompt-length filter skipped, "
                  "no prompt shown (pass --tokenizer DIR)", stacklevel=2)  # fmt: skip
    return None


def _settings(curriculum) -> str:
    """The controller's numbers as the run will use them (resolved from its dataclass)."""
    skip = ("name", "arm_fields")
    return ", ".join(f"{k}={v}" for k, v in curriculum.items() if k not in skip)


def draw(sampler, batches: int) -> list[list[int]]:
    """``batches`` batches of prompt positions, into the next epoch as the dataloader goes when a
    small training file holds fewer than ``batches`` batches."""
    drawn: list[list[int]] = []
    it = iter(sampler)
    while len(drawn) < batches:
        try:
            drawn.append([next(it) for _ in range(sampler.batch_size)])
        except StopIteration:
            it = iter(sampler)
    return drawn


def _files(data, key: str) -> list[str]:
    files = [data[key]] if isinstance(data[key], str) else list(data[key])
    for f in files:
        if not Path(f).is_file():
            raise UserError(f"data.{key}: no such file {f} (build it with pac-verl prep, or set "
                            f"setting.data_dir / data.{key})")  # fmt: skip
    return files


def check_data(cfg, sample_rows: int | None = SAMPLE_ROWS) -> dict:
    """The data checks that need no verl (:mod:`pac_verl.checks.data`): the training
    files on a sample, the validation files in full, and every drawable arm's pool."""
    from pac_verl.checks.data import (
        check_coverage,
        check_data_file,
        check_epochs,
        check_pools,
        drawable_arms,
        file_arms,
    )
    from pac_verl.data_prep.overlap import check_disjoint

    data = cfg.data
    train, val = _files(data, "train_files"), _files(data, "val_files")
    if data.dataloader_num_workers != 0:
        raise UserError("data.dataloader_num_workers must be 0 with a curriculum sampler")
    batch_size = int(data.get("gen_batch_size") or data.train_batch_size)
    if batch_size < 1:
        raise UserError(f"data.train_batch_size must be >= 1, got {batch_size}")
    stats = {"train": [_cached(check_data_file, f, sample_rows) for f in train],
             # validation golds are scored below, through the reward entry verl calls
             "val": [_cached(check_data_file, f, None, golds=False) for f in val]}  # fmt: skip
    fields = list(cfg.data.curriculum.arm_fields or [])
    arms, pools, source = file_arms(train, fields)
    setting = cfg.get("setting") or {}
    check_coverage(arms, list(setting.get("arms") or []), cfg.data.curriculum.name == "single",
                   str(setting.get("name")), source)  # fmt: skip
    check_pools(arms, pools, drawable_arms(cfg.data.curriculum, arms, batch_size), batch_size,
                source)  # fmt: skip
    check_epochs(sum(len(p) for p in pools), batch_size, int(cfg.trainer.total_epochs),
                 int(cfg.trainer.total_training_steps), source)  # fmt: skip
    stats["file_pools"] = {a: len(p) for a, p in zip(arms, pools, strict=True)}
    # no validation row may ask what a training row asks (a UserError naming the counts)
    stats["overlap"] = check_disjoint(train, val).as_dict()
    return stats


def filter_drops(file_pools: dict[str, int], kept_pools: dict[str, int], val_files, tok, data):
    """Rows verl's prompt-length filter drops without a word: per training arm (its
    pool in the file minus its pool after the filter) and per validation ``data_source`` (verl's
    own ``RLHFDataset`` over the validation files, as the trainer builds it)."""
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from pac_verl.data_prep.rows import read_table

    train = {a: (n, n - kept_pools.get(a, 0)) for a, n in file_pools.items()}
    in_file = Counter(
        ds for f in _files(data, "val_files") for ds in read_table(f, columns=["data_source"])
        ["data_source"].to_pylist()
    )  # fmt: skip
    kept = Counter(RLHFDataset(val_files, tok, data).dataframe["data_source"])
    val = {ds: (n, n - kept[ds]) for ds, n in sorted(in_file.items())}
    return {"train": train, "val": val}


def arm_prompts(dataset, sampler, tok, data) -> dict[str, dict]:
    """One prompt per training arm (its pool's first row), as the rollout reads it: the messages
    verl's dataset returns, through verl's ``apply_chat_template`` as its agent loop calls it
    (generation cue on, ``data.apply_chat_template_kwargs``: the chat template of
    ``backbone.prompt_style``), tokenized and decoded back."""
    from omegaconf import OmegaConf
    from verl.utils.tokenizer import normalize_token_ids

    from pac_verl.verl.compat import chat_template_fn

    apply_chat_template = chat_template_fn()

    kwargs = data.get("apply_chat_template_kwargs") or {}
    kwargs = OmegaConf.to_container(kwargs) if OmegaConf.is_config(kwargs) else dict(kwargs)
    shown = {}
    for arm, pool in zip(sampler.arms, sampler.queues.pools, strict=True):
        if len(pool) == 0:
            continue
        row = int(pool[0])
        messages = list(dataset[row]["raw_prompt"])
        ids = normalize_token_ids(apply_chat_template(tok, messages, add_generation_prompt=True,
                                                      tokenize=True, **kwargs))  # fmt: skip
        text = tok.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False)
        shown[arm] = {"row": row, "tokens": len(ids), "text": text}
    return shown


def print_prompts(shown: dict[str, dict], style: str) -> None:
    for arm, p in shown.items():
        console.print(f"preflight: arm {arm}, training row {p['row']}: {p['tokens']} tokens as the "
                      f"rollout reads them (backbone.prompt_style={style})",
                      markup=False, style="bold", soft_wrap=True)  # fmt: skip
        console.print(p["text"], markup=False, highlight=False, soft_wrap=True)
        console.print()


_CACHE: dict = {}


def _cached(fn, path, *args, **kwargs):
    """``fn(path, ...)`` once per file version in this process: a sweep's runs share their data."""
    st = Path(path).stat()
    key = (fn.__name__, str(Path(path).resolve()), st.st_mtime_ns, st.st_size, args,
           tuple(sorted(kwargs.items())))  # fmt: skip
    if key not in _CACHE:
        _CACHE[key] = fn(path, *args, **kwargs)
    return _CACHE[key]


def score_golds(val_file, reward_kwargs_json: str) -> Counter:
    """Every validation row's gold answer through the reward entry verl calls, with the config's
    reward kwargs (the sandbox's settings among them): counts by (data_source, status)."""
    from pac_verl.data_prep.rows import read_rows
    from pac_verl.verifiers import compute_score, gold_solution

    reward_kwargs = json.loads(reward_kwargs_json)
    gold: Counter = Counter()
    for row in read_rows(val_file):  # rows checked by check_data
        info = row["extra_info"]
        sol = gold_solution(info["type"], row["reward_model"]["ground_truth"], info)
        if sol is None:
            gold[(row["data_source"], "no_gold")] += 1
            continue
        out = compute_score(row["data_source"], sol, row["reward_model"]["ground_truth"], info,
                            **reward_kwargs)  # fmt: skip
        status = ("ok" if out["acc"] == 1.0 else
                  "missing_library" if out["missing_library"] else "FAILED")  # fmt: skip
        gold[(row["data_source"], status)] += 1
    return gold


def run(overrides: list[str], tokenizer_path: str | None = None, batches: int = 3,
        sample_rows: int | None = SAMPLE_ROWS, model_config: str | None = None,
        cfg=None) -> dict:  # fmt: skip
    """The preflight of one run (``cfg``: its config, composed from ``overrides`` if not given)."""
    if batches < 1:
        raise UserError(f"batches must be >= 1, got {batches}")
    cfg = compose_config(overrides) if cfg is None else cfg
    from pac_verl.checks.node import check_node

    # GPUs, memory plan, disk, model, writable folders: before any data is read
    check_node(cfg, model_config)
    data = cfg.data
    stats = check_data(cfg, sample_rows)

    from omegaconf import OmegaConf, open_dict
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from pac_verl.checks.data import check_epochs, check_pools
    from pac_verl.verl.arms import arm_name
    from pac_verl.verl.compat import describe
    from pac_verl.verl.sampler import build_sampler

    tok = _tokenizer(cfg, tokenizer_path)
    with open_dict(data):
        data.cache_dir = str(Path(tempfile.gettempdir(), "pac-verl-preflight-cache"))
        data.filter_overlong_prompts_workers = 1
        if tok is None:
            data.filter_overlong_prompts = False
    with Stopwatch() as sw:
        dataset = RLHFDataset(data.train_files, tok, data)
        sampler = build_sampler(data, dataset)
        # after verl's overlong-prompt filter the pools may be smaller than in the file
        drawable = [int(i) for i in getattr(sampler.controller, "train_idx",
                                            range(len(sampler.arms)))]  # fmt: skip
        after = f"{data.train_files} after the prompt-length filter"
        check_pools(sampler.arms, sampler.queues.pools, drawable, sampler.batch_size, after)
        check_epochs(len(dataset), sampler.batch_size, int(cfg.trainer.total_epochs),
                     int(cfg.trainer.total_training_steps), after)  # fmt: skip
        drawn = draw(sampler, batches)
        infos = dataset.dataframe["extra_info"]
        shares = Counter(
            arm_name(infos[i], sampler.arm_fields, f"row {i}") for b in drawn for i in b
        )
        gold = Counter()
        # the config's reward kwargs (the sandbox's settings among them), as verl passes them
        given = OmegaConf.select(cfg, "reward.custom_reward_function.reward_kwargs", default=None)
        reward_kwargs = OmegaConf.to_container(given) if given is not None else {}
        for val_file in [data.val_files] if isinstance(data.val_files, str) else data.val_files:
            gold.update(_cached(score_golds, val_file, json.dumps(reward_kwargs, sort_keys=True)))
    pools = dict(zip(sampler.arms, sampler.queues.sizes.tolist(), strict=True))
    drops, shown = None, None
    record = prompt_record(cfg)
    if tok is not None:
        shown = arm_prompts(dataset, sampler, tok, data)
        print_prompts(shown, record["style"])
        drops = filter_drops(stats["file_pools"], pools, data.val_files, tok, data)
        print_summary(f"preflight: rows verl's prompt-length filter drops (data.max_prompt_length="
                      f"{data.max_prompt_length}, tokenizer {getattr(tok, 'name_or_path', '')})",
                      ["split", "arm / data_source", "rows", "dropped"],
                      [[split, name, n, d] for split in ("train", "val")
                       for name, (n, d) in drops[split].items()])  # fmt: skip
    total = sum(shares.values())
    print_summary("preflight: arms", ["arm", "pool", f"share of {batches} batches"],
                  [[a, pools[a], shares[a] / total] for a in sampler.arms])  # fmt: skip
    sources = sorted({ds for ds, _ in gold})
    checked = sum(s["checked"] for s in stats["train"])
    rows = sum(s["rows"] for s in stats["train"])
    print_summary("preflight: validation gold answers through compute_score",
                  ["data_source", "ok", "FAILED", "missing_library", "no_gold"],
                  [[ds, gold[(ds, "ok")], gold[(ds, "FAILED")], gold[(ds, "missing_library")],
                    gold[(ds, "no_gold")]] for ds in sources],
                  {"experiment": cfg.trainer.experiment_name, "verl": describe(),
                   "curriculum": cfg.data.curriculum.name,
                   "curriculum settings": _settings(cfg.data.curriculum),
                   "prompt style": f"{record['style']} (chat template: {record['chat_template']}"
                   + (f", sha256 {record['chat_template_sha256'][:16]})"
                      if record["chat_template_sha256"] else ")"),
                   "train rows": len(dataset),
                   "train rows checked": f"{checked:,} of {rows:,} (schema and gold answers"
                   + (", a sample; pac-verl prep check FILE checks every row)" if checked < rows
                      else ")"),
                   "seconds": round(sw.seconds, 1)})  # fmt: skip
    missing = sum(gold[(ds, "missing_library")] for ds in sources)
    if missing:
        warnings.warn(f"{missing} code task(s) need libraries the sandbox interpreter lacks: build "
                      "the BigCodeBench environment and set reward.custom_reward_function."
                      "reward_kwargs.sandbox.python (docs/guides/sandbox.md)",
                      stacklevel=2)  # fmt: skip
    failed = {ds: gold[(ds, "FAILED")] for ds in sources if gold[(ds, "FAILED")]}
    if failed:
        raise UserError(f"gold answers that do not score 1 through the reward entry: {failed}")
    return {"arms": sampler.arms, "shares": dict(shares), "gold": dict(gold),
            "train_checked": checked, "train_rows": rows, "filter_drops": drops,
            "prompts": shown, "prompt": record}  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pac-verl preflight",
                                 description="A dry run of a training config on any machine, no GPU.",
                                 formatter_class=HelpFormatter)  # fmt: skip
    ap.add_argument("overrides", nargs="*", help="Hydra overrides, as for python -m pac_verl.main "
                    "(a sweep, key=a,b,c, checks every run)")  # fmt: skip
    ap.add_argument("--model-config", metavar="PATH", default=None,
                    help="the model's config.json for the memory plan (default: found from "
                         "actor_rollout_ref.model.path, else the backbone's shipped copy)")  # fmt: skip
    ap.add_argument("--tokenizer", default=None,
                    help="local tokenizer folder for the prompt-length filter and the prompts "
                         "shown (default: "
                         "actor_rollout_ref.model.path when it is a local folder)")  # fmt: skip
    ap.add_argument("--batches", type=positive_int, default=3, help="batches to draw")
    ap.add_argument("--sample-rows", type=positive_int, default=SAMPLE_ROWS,
                    help="training rows checked like pac-verl prep check (schema and gold answers "
                         "through the verifiers); a smaller file is checked in full")  # fmt: skip
    return ap


def main(argv: list[str]) -> int:
    args = build_parser().parse_intermixed_args(argv)  # options may sit between the overrides
    jobs = expand(args.overrides)
    runs = compose_runs(args.overrides)  # every run's config is checked before any data is read
    for k, (job, cfg) in enumerate(zip(jobs, runs, strict=True), 1):
        if len(runs) > 1:
            console.print(f"\n== run {k} of {len(runs)}: {cfg.trainer.experiment_name} "
                          f"({' '.join(job)})", soft_wrap=True)  # fmt: skip
        try:
            run(job, args.tokenizer, args.batches, args.sample_rows, args.model_config, cfg)
        except UserError as err:
            if len(runs) == 1:
                raise
            raise UserError(f"{cfg.trainer.experiment_name}: {err}") from None
    what = "preflight passed" if len(runs) == 1 else f"preflight passed for all {len(runs)} runs"
    console.print(f"{what} in {process_seconds():.1f} s (start-up included)")
    return 0
