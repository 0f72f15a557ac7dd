"""``pac-verl prep multi-domain``: the multi-domain setting's data (paper Sec. 4).

Training rows (``train.parquet``): ``math`` from DAPO-Math-17k (deduplicated: the file holds each
prompt about 100 times), ``code`` from Code-R1-12k (prompts over 1,024 tokens with the backbone's
tokenizer dropped, as Omni-Thinker did), ``kk`` from K&K (3/4/5 people, the first 900 of each
file). Validation rows (``val.parquet``): ``math500``, ``amc23``, ``aime24``, ``bigcodebench``
(v0.1.4, or its hard subset) and ``kk6`` (K&K 6 people, 100). Where each source is read from is in
:mod:`pac_verl.data_prep.sources`; ``--source NAME=HUB_ID_OR_PATH`` points one elsewhere, and
``--source kk=generate`` (or ``--offline-logic-only``) builds the logic arm with the offline
generator of :mod:`pac_verl.data_prep.kk`.

Every math and logic row's gold answer is scored by the project's verifier before it is written: a
training row whose gold does not score 1 is dropped and counted (``gold_unreadable``); on a
benchmark it is an error, because a dropped row would change the benchmark. Code rows keep the
source's tests; BigCodeBench rows carry the canonical solution as their gold, which
``pac-verl prep check`` runs in the sandbox (Code-R1 ships no verified solution: ``no gold``).
Nothing is written until every selected source has been read and converted; then both files are
written atomically.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pac_verl.data_prep import kk, prompts, sources
from pac_verl.data_prep.overlap import (
    CONTAMINATION_COLUMNS,
    NGRAM,
    contamination_by_type,
    dedupe_keys,
)
from pac_verl.data_prep.publish import BuildFolder, utc_now
from pac_verl.data_prep.rows import make_row, messages
from pac_verl.data_prep.sources import Reject, Source
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, print_summary, progress

GENERATE = "generate"
GENERATED_KK = "the offline K&K generator"
DEFAULT_TOKENIZER = "Qwen/Qwen2.5-7B"  # Qwen2.5 3B, 7B and 32B share one tokenizer
MAX_CODE_PROMPT_TOKENS = 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help="output folder for train.parquet/val.parquet "
                        "(a relative path is taken from the project home, as training reads it)")  # fmt: skip
    parser.add_argument(
        "--source",
        action="append",
        default=[],
        metavar="NAME=HUB_ID_OR_PATH",
        help=f"read source NAME ({', '.join(sources.SOURCES)}) from a hub id, a local copy of "
        "the dataset's repository, or one file; kk=generate uses the offline K&K generator",
    )
    parser.add_argument(
        "--only", default=None, help="comma list of sources to build (default: all seven)"
    )
    parser.add_argument(
        "--offline-logic-only",
        action="store_true",
        help="build only the K&K logic arm and kk6 from the offline generator (no hub)",
    )
    parser.add_argument("--subset", choices=("full", "hard"), default="full",
                        help="BigCodeBench: all 1,140 tasks or the 148 of bigcodebench-hard")  # fmt: skip
    parser.add_argument("--tokenizer", default=DEFAULT_TOKENIZER,
                        help="tokenizer for the code prompt-length filter (hub id or local folder)")  # fmt: skip
    parser.add_argument("--max-code-prompt-tokens", type=int, default=MAX_CODE_PROMPT_TOKENS,
                        help="drop Code-R1 prompts longer than this (0: no filter)")  # fmt: skip
    parser.add_argument("--limit", type=int, default=None, help="at most N rows kept per part")
    parser.add_argument("--seed", type=int, default=0, help="seed of the offline K&K generator")
    # a former option, refused with the reason (prompts.refuse_build_style)
    parser.add_argument("--prompt-style", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--cache-dir", default=None, help="datasets cache folder")
    parser.add_argument("--force", action="store_true",
                        help="replace the build already in --out (kept until the new one is written)")  # fmt: skip
    parser.add_argument("--math-pool", choices=sources.MATH_POOLS, default="sec-math",
                        help="the math arm: SEC's released MATH pool (11,499 rows, the paper's "
                        "count; needs --math-from) or DAPO-Math-17k from the hub (the paper's text)")  # fmt: skip
    parser.add_argument("--math-from", metavar="DIR", default=None,
                        help="SEC's released sec/data (or its math/ folder) from GitHub "
                        "Vincent-La/cofa: math_train.parquet is the math pool, and math_test.parquet "
                        "(if there) gives math500, amc23 and aime24")  # fmt: skip
    parser.add_argument("--all-languages", action="store_true",
                        help="DAPO-Math-17k: keep its Chinese problems too (default: English only)")  # fmt: skip


@dataclass
class PartStats:
    source: str
    part: str
    data_source: str
    location: str
    read: int = 0
    duplicates: int = 0
    rejected: Counter = field(default_factory=Counter)
    kept: int = 0


@dataclass
class Pending:
    """A converted record waiting for the gold check and the length filter."""

    fields: dict[str, Any]
    stats: PartStats
    where: str


def parse_sources(specs: list[str]) -> dict[str, str]:
    locations: dict[str, str] = {}
    for spec in specs:
        name, sep, location = spec.partition("=")
        if not sep or not location:
            raise UserError(f"--source {spec!r}: expected NAME=HUB_ID_OR_PATH")
        sources.source(name)  # unknown name: UserError listing the known ones
        if location == GENERATE and name != "kk":
            raise UserError(f"--source {spec}: only kk has an offline generator")
        locations[name] = location
    return locations


def selected(args: argparse.Namespace, locations: dict[str, str]) -> list[str]:
    if args.offline_logic_only:
        locations["kk"] = GENERATE
        return ["kk"]
    if args.only is None:
        return list(sources.SOURCES)
    names = [n for n in args.only.split(",") if n]
    for n in names:
        sources.source(n)
    if not names:
        raise UserError("--only: name at least one source")
    return names


def choose_sources(
    args: argparse.Namespace, names: list[str], locations: dict[str, str]
) -> dict[str, Source]:
    """The sources this build reads (:func:`.sources.registry`): the math pool of
    ``--math-pool``, read from ``--math-from`` (which also gives the three math benchmarks from
    SEC's ``math_test.parquet`` unless ``--source`` names another place for one)."""
    from pac_verl.data_prep.sec import math_folder

    pool = args.math_pool
    sec_tests: list[str] = []
    if args.math_from is not None:
        if pool != "sec-math":
            raise UserError(f"--math-from reads SEC's MATH pool; it contradicts --math-pool {pool} "
                            "(drop one of them)")  # fmt: skip
        if "math" in locations:
            raise UserError(f"--math-from and --source math={locations['math']} both name the math "
                            "pool; drop one of them")  # fmt: skip
        folder = math_folder(args.math_from)
        locations["math"] = str(folder)
        if (folder / "math_test.parquet").is_file():
            sec_tests = [n for n in sources.SEC_TESTS if n not in locations]
            locations.update({n: str(folder) for n in sec_tests})
    if pool == "sec-math" and "math" in names and "math" not in locations:
        raise UserError("the default math pool (--math-pool sec-math) is SEC's 11,499-row MATH "
                        "pool, released only on GitHub: pass --math-from DIR (DIR: sec/data of a "
                        "clone of https://github.com/Vincent-La/cofa), or --math-pool dapo to build "
                        "DAPO-Math-17k from the hub")  # fmt: skip
    chosen = sources.registry(args.subset, pool, args.all_languages)
    chosen.update({n: sources.SEC_TESTS[n] for n in sec_tests})
    return chosen


def run(args: argparse.Namespace) -> int:
    prompts.refuse_build_style(args.prompt_style)
    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit must be >= 1, got {args.limit}")
    locations = parse_sources(args.source)
    names = selected(args, locations)
    chosen = choose_sources(args, names, locations)
    tokenizer = None
    if "code" in names and args.max_code_prompt_tokens > 0:
        tokenizer = load_tokenizer(args.tokenizer)
    require_hub(names, chosen, locations)
    out = Path(args.out)
    with Stopwatch() as sw, BuildFolder(out, args.force) as folder:
        pending: list[Pending] = []
        stats: list[PartStats] = []
        for name in names:
            src = chosen[name]
            location = locations.get(name)
            if location == GENERATE:
                pending += generate_kk(args, stats)
            else:
                pending += read_source(src, location, args, stats)
        pending = check_golds(pending)
        if tokenizer is not None:
            pending = filter_code_length(pending, tokenizer, args.max_code_prompt_tokens)
        contamination = measure_contamination(pending, chosen)
        pending = decontaminate(pending)
        train, val = to_rows(pending)
        kept = Counter(id(p.stats) for p in pending)
        for s in stats:
            s.kept = kept[id(s)]
        if train:
            folder.write_parquet("train.parquet", train)
        if val:
            folder.write_parquet("val.parquet", val)
        manifest = {"setting": "multi-domain", "builder": "pac-verl prep multi-domain",
                    "built_utc": utc_now(), "options": _options(args),
                    "math_pool": args.math_pool if "math" in names else None,
                    "sources": {n: {"read": _what(chosen[n], locations.get(n)),
                                    "from": _location(stats, n)} for n in names},
                    "removed_from_training_as_validation": {
                        f"{s.source} {s.part}": s.rejected["in_validation"]
                        for s in stats if s.rejected["in_validation"]},
                    "contamination": [dict(zip(CONTAMINATION_KEYS, c.row(), strict=True))
                                      for c in contamination]}  # fmt: skip
        published = folder.publish(manifest)
        train_path, val_path = published.get("train.parquet"), published.get("val.parquet")
    summarize(stats, names, chosen, train, val, train_path, val_path, sw.seconds, args.math_pool)
    if contamination:
        print_summary("contamination: each training pool against the validation sources of its "
                      "domain (normalised text: removed from training; n-grams: reported only)",
                      CONTAMINATION_COLUMNS, [c.row() for c in contamination])  # fmt: skip
    return 0


CONTAMINATION_KEYS = ("training_pool", "validation", "questions", "same_text",
                      f"share_a_{NGRAM}_gram", f"half_of_{NGRAM}_grams")  # fmt: skip


def _what(src: Source, location: str | None) -> str:
    if location == GENERATE:
        return "generated: simple statements only, not the paper's data"
    return src.hub_id


def _location(stats: list[PartStats], name: str) -> str:
    return next(s.location for s in stats if s.source == name)


def _row(p: Pending) -> dict[str, Any]:
    f = p.fields
    return make_row(data_source=f["data_source"], prompt=f["prompt"], task_type=f["task_type"],
                    ground_truth=f["ground_truth"], split=f["split"], index=0)  # fmt: skip


def measure_contamination(pending: list[Pending], chosen: dict[str, Source]) -> list:
    """Each training pool (as read, before :func:`decontaminate`) against the validation sources
    of its type: exact normalised-text and n-gram overlap (:mod:`.overlap`)."""
    rows = [_row(p) for p in pending]
    pools = {"math": chosen["math"].hub_id, "code": chosen["code"].hub_id}
    train = [r for r in rows if r["extra_info"]["split"] == "train"]
    val = [r for r in rows if r["extra_info"]["split"] != "train"]
    return contamination_by_type(train, val, pool_names=pools)


def decontaminate(pending: list[Pending]) -> list[Pending]:
    """Training rows that ask what a validation row asks (same puzzle key or normalised question
    text, :func:`.overlap.dedupe_keys`) are removed and counted (``in_validation``): training and
    validation are disjoint by construction."""
    keys = {id(p): dedupe_keys(_row(p)) for p in pending}
    val_keys = {k for p in pending if p.fields["split"] != "train" for k in keys[id(p)]}
    kept = []
    for p in pending:
        if p.fields["split"] == "train" and any(k in val_keys for k in keys[id(p)]):
            p.stats.rejected["in_validation"] += 1
            continue
        kept.append(p)
    return kept


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The options that shape the files, for the manifest."""
    keys = ("only", "offline_logic_only", "subset", "tokenizer", "max_code_prompt_tokens", "limit",
            "seed", "math_pool", "math_from", "all_languages")  # fmt: skip
    return {k: getattr(args, k) for k in keys}


HUB_PROBE_S = 10  # one request to the hub before a download that would retry for a minute


def hub_problem(repo_id: str, repo_type: str = "model") -> str | None:
    """Why the Hugging Face hub cannot give ``repo_id`` from here (None: it can): offline by
    ``HF_HUB_OFFLINE``, unreachable (one request, :data:`HUB_PROBE_S` seconds), or no such repo."""
    import os

    if os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}:
        return "HF_HUB_OFFLINE is set"
    from huggingface_hub import HfApi

    try:
        HfApi(endpoint=os.environ.get("HF_ENDPOINT")).repo_info(
            repo_id, repo_type=repo_type, timeout=HUB_PROBE_S
        )
    except Exception as err:  # the hub's client raises many kinds; each one means "not usable"
        kind = type(err).__name__
        if "NotFound" in kind or "GatedRepo" in kind:
            return f"the hub has no {repo_type} {repo_id} this machine may download ({kind})"
        first = (str(err).splitlines() or [""])[0][:100]
        return f"the network: the Hugging Face hub is unreachable from here ({kind}: {first})"
    return None


def require_hub(names, chosen, locations) -> None:
    """Sources read from the hub need the network: one request first, so that an offline machine
    hears it is the network in seconds, not after a minute of the hub's retries per file (with
    ``HF_HUB_OFFLINE`` set, datasets reads its local cache and nothing is asked)."""
    import os

    from_hub = [n for n in names if locations.get(n) is None or (
        locations.get(n) != GENERATE and sources.is_hub_id(str(locations.get(n)))
        and not Path(str(locations.get(n))).exists())]  # fmt: skip
    if not from_hub or os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}:
        return
    first = chosen[from_hub[0]]
    problem = hub_problem(locations.get(from_hub[0]) or first.hub_id, "dataset")
    if problem and problem.startswith("the network"):
        raise UserError(f"the sources {', '.join(from_hub)} come from the Hugging Face hub, and "
                        f"{problem}: pass --source NAME=DIR with local copies, set "
                        "HF_HUB_OFFLINE=1 to read the local cache, or build K&K alone with "
                        "--offline-logic-only")  # fmt: skip


def load_tokenizer(name: str):
    if not sources.is_hub_id(name) and not Path(name).expanduser().is_dir():
        raise UserError(
            f"--tokenizer {name}: no such folder; pass a local copy of the backbone's tokenizer, "
            "or --max-code-prompt-tokens 0 to keep every code prompt (the code pool then differs "
            "from the paper's)"
        )
    from transformers import AutoTokenizer

    if sources.is_hub_id(name):
        try:  # in the local cache: no request to the hub (which retries for a minute offline)
            return AutoTokenizer.from_pretrained(name, local_files_only=True)
        except Exception:
            pass
        problem = hub_problem(name)
        if problem:
            raise UserError(
                f"--tokenizer {name} is not in the local Hugging Face cache, and {problem}: run "
                f"`hf download {name}` where there is network, pass --tokenizer with a local "
                "folder, or --max-code-prompt-tokens 0 to keep every code prompt (the code pool "
                "then differs from the paper's)"
            )
    try:
        return AutoTokenizer.from_pretrained(name)
    except Exception as err:
        raise UserError(
            f"--tokenizer {name}: cannot load it ({type(err).__name__}); the code arm's "
            f"{MAX_CODE_PROMPT_TOKENS}-token prompt filter needs the backbone's tokenizer: pass "
            "--tokenizer with a local folder, or --max-code-prompt-tokens 0 to keep every prompt "
            "(the code pool then differs from the paper's)"
        ) from None


def read_source(
    src: Source, location: str | None, args: argparse.Namespace, stats: list[PartStats]
) -> list[Pending]:
    seen: set[tuple[str, str]] = set()
    pending: list[Pending] = []
    for part in src.parts:
        where = sources.describe(src, location)
        st = PartStats(src.name, part.data_files or part.hub_split, part.data_source, where)
        stats.append(st)
        dataset = sources.open_part(src, part, location, args.cache_dir)
        label = sources.part_label(part, location)
        if len(dataset) == 0:
            raise UserError(f"source {src.name}: {label} of {where} has no records")
        cap = min(c for c in (part.cap, args.limit, len(dataset)) if c is not None)
        kept = 0
        for i, record in enumerate(
            progress(sources.records(dataset), f"{src.name} {label}", len(dataset), "row")
        ):
            if kept >= cap:
                break
            if part.select is not None and record.get("data_source") != part.select:
                continue  # another benchmark of the same file (SEC's math_test)
            st.read += 1
            here = f"source {src.name} ({where}, {label}) record {i}"
            try:
                if src.dedupe is not None:
                    key = (part.split, src.dedupe(record))  # validation vs training: decontaminate
                    if key in seen:
                        st.duplicates += 1
                        continue
                    seen.add(key)
                fields = src.convert(record, part)
            except KeyError as err:
                raise UserError(f"{here}: missing field {err.args[0]!r}") from None
            except (TypeError, ValueError) as err:
                raise UserError(f"{here}: {err}") from None
            if isinstance(fields, Reject):
                st.rejected[str(fields)] += 1
                continue
            pending.append(Pending(fields, st, here))
            kept += 1
    return pending


def generate_kk(args: argparse.Namespace, stats: list[PartStats]) -> list[Pending]:
    """The logic arm and kk6 from the offline generator, as pending rows with the same parts."""
    src = sources.SOURCES["kk"]
    pending = []
    for part in progress(src.parts, "K&K (offline generator)", len(src.parts)):
        count = min(c for c in (part.cap, args.limit) if c is not None)
        st = PartStats(
            "kk",
            f"{part.extra['people']} people",
            part.data_source,
            f"{GENERATED_KK} (seed {args.seed})",
        )
        stats.append(st)
        people = part.extra["people"]
        for i, row in enumerate(kk.build(people, count, part.split, args.seed)):
            st.read += 1
            fields = sources.row_fields(
                part, row["prompt"], "logic", row["reward_model"]["ground_truth"]
            )
            pending.append(Pending(fields, st, f"generated K&K ({people} people) puzzle {i}"))
    return pending


def check_golds(pending: list[Pending]) -> list[Pending]:
    """Score every math and logic gold with the verifier: drop on training parts, fail on benchmarks."""
    from pac_verl.verifiers import compute_scores, gold_solution

    todo = [p for p in pending if p.fields["task_type"] in ("math", "logic")]
    items = []
    for p in todo:
        truth = p.fields["ground_truth"]
        items.append((p.fields["task_type"], gold_solution(p.fields["task_type"], truth), truth))
    verdicts = compute_scores(items) if items else []
    bad = set()
    for p, verdict in zip(todo, verdicts, strict=True):
        if verdict.correct:
            continue
        if p.fields["split"] == "test":
            raise UserError(
                f"{p.where}: its gold answer {p.fields['ground_truth']!r} does not score 1 with the "
                f"{p.fields['task_type']} verifier ({verdict.reason}); a benchmark row cannot be dropped"
            )
        p.stats.rejected["gold_unreadable"] += 1
        bad.add(id(p))
    return [p for p in pending if id(p) not in bad]


def prompt_tokens(tokenizer, messages_list: list[list[dict[str, str]]]) -> list[int]:
    """Prompt lengths as verl's RLHFDataset counts them for the base backbones: the paper's frame
    (``backbone.prompt_style=completion``'s chat template) with the generation cue."""
    template = prompts.chat_template("completion")
    texts = [tokenizer.apply_chat_template(m, chat_template=template, add_generation_prompt=True,
                                           tokenize=False) for m in messages_list]  # fmt: skip
    return [len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]


def filter_code_length(pending: list[Pending], tokenizer, max_tokens: int) -> list[Pending]:
    code = [p for p in pending if p.fields["data_source"] == "code"]
    if not code:
        return pending
    lengths = prompt_tokens(tokenizer, [messages(p.fields["prompt"]) for p in code])
    drop = set()
    for p, n in zip(code, lengths, strict=True):
        if n > max_tokens:
            p.stats.rejected[f"prompt_over_{max_tokens}_tokens"] += 1
            drop.add(id(p))
    return [p for p in pending if id(p) not in drop]


def to_rows(pending: list[Pending]) -> tuple[list[dict], list[dict]]:
    index: defaultdict[str, int] = defaultdict(int)
    train, val = [], []
    for p in pending:
        f = p.fields
        row = make_row(data_source=f["data_source"], prompt=f["prompt"], task_type=f["task_type"],
                       ground_truth=f["ground_truth"], split=f["split"],
                       index=index[f["data_source"]], **f["extra"])  # fmt: skip
        index[f["data_source"]] += 1
        (train if f["split"] == "train" else val).append(row)
    return train, val


def summarize(stats, names, chosen, train, val, train_path, val_path, seconds, math_pool) -> None:
    table = []
    for s in stats:
        rejected = ", ".join(f"{r} {n:,}" for r, n in sorted(s.rejected.items())) or "0"
        table.append([s.source, s.part, s.data_source, s.read, s.duplicates, rejected, s.kept])
    per_source = Counter(r["data_source"] for r in train + val)
    footer: dict[str, object] = {
        "train": f"{train_path} ({len(train):,} rows)" if train_path else "not written (no training source selected)",
        "val": f"{val_path} ({len(val):,} rows)" if val_path else "not written (no validation source selected)",
    }  # fmt: skip
    for name in names:
        src = chosen[name]
        ours = sum(per_source[ds] for ds in dict.fromkeys(p.data_source for p in src.parts))
        where = _location(stats, name)
        if name == "kk" and where.startswith(GENERATED_KK):
            footer[f"{name} rows"] = (
                f"{ours:,} from {where}: simple statements only, NOT the paper's data (the paper "
                f"uses {src.hub_id}, {src.paper_rows:,} rows)"
            )
            continue
        pool = f", pool {math_pool}" if name == "math" else ""
        footer[f"{name} rows"] = f"{ours:,} (paper: {src.paper_rows:,}), from {where}{pool}"
    footer["seconds"] = round(seconds, 2)
    print_summary("pac-verl prep multi-domain",
                  ["source", "part", "data_source", "read", "duplicates", "rejected", "kept"],
                  table, footer)  # fmt: skip
