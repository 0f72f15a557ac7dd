"""The multi-domain setting's sources: where each lives and how its records become rows.

The rows they become: docs/concepts/spec.md#rows-on-disk.

A source is named after the ``data_source`` it writes (``kk`` also writes the ``kk6`` validation
rows). Each is read from its Hugging Face hub id through :func:`datasets.load_dataset`, or from a
local copy: a folder as ``hf download --repo-type dataset ID --local-dir DIR`` leaves
it (same files, same splits), or for a one-part source a single ``.parquet``/``.jsonl``/``.json``
file. Records are read in batches, so DAPO-Math-17k (each prompt about 100 times, 1.8M rows) never
sits in memory as Python objects.

Conversion keeps the source's own answer and tests and puts the paper's prompt around its problem
text (appendix "Prompt Examples"). A record that lacks a field or carries a malformed ground truth
is a :class:`~pac_verl.errors.UserError` naming the source, the record and the field. Filters that
are part of the recipe (duplicates, the 1,024-token code prompt cap, a gold answer the project's
verifier cannot read) reject the record and are counted by reason.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pac_verl.data_prep import kk
from pac_verl.data_prep.overlap import normalise
from pac_verl.data_prep.rows import json_text
from pac_verl.errors import UserError
from pac_verl.verifiers.code import job_for

# The paper's code system message (appendix "Prompt Examples", Code Prompt).
CODE_SYSTEM = (
    "You are a helpful programming assistant. The reasoning process and answer are enclosed within "
    "<think>...</think> and <answer>...</answer> tags, respectively."
)
MATH_SUFFIX = "\nPut the final answer within \\boxed{}."
# DAPO-Math-17k wraps every problem in its own "Answer:" instructions; the problem is in between.
_DAPO_HEAD = re.compile(r"^\s*Solve the following math problem step by step\..*?\n\n", re.DOTALL)
_DAPO_TAIL = re.compile(r"\n\nRemember to put your answer on its own line after \"Answer:\"\.?\s*$")
_KK_QUESTION = re.compile(r"\s*So who is a knight and who is a knave\?\s*$")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LOCAL_SUFFIXES = (".parquet", ".jsonl", ".json")
READ_BATCH = 4096


class Reject(str):
    """A recipe filter's verdict on a record: the reason it is not kept (counted, not fatal)."""


@dataclass(frozen=True)
class Part:
    """One slice of a source: a split (or a file of the repository) and the rows it becomes."""

    data_source: str
    split: str  # "train" or "test" (our row's extra_info.split)
    hub_split: str = "train"  # the datasets split to read
    data_files: str | None = None  # a file of the repository, when the split is not named
    cap: int | None = None  # keep at most this many (K&K: 900 of each 1,000-row file)
    extra: Mapping[str, Any] = field(default_factory=dict)  # added to every row's extra_info
    select: str | None = None  # read only the records whose data_source is this (SEC's math_test)


@dataclass(frozen=True)
class Source:
    name: str
    hub_id: str
    parts: tuple[Part, ...]
    convert: Callable[[Mapping[str, Any], Part, str], dict[str, Any] | Reject]
    paper_rows: int  # the paper's count (Appendix, data statistics), printed beside ours
    dedupe: Callable[[Mapping[str, Any]], str] | None = None


# ----------------------------------------------------------------------------------------------
# Field access with errors that name the field


def need(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...] = str) -> Any:
    if key not in record or record[key] is None:
        raise KeyError(key)
    value = record[key]
    if not isinstance(value, kind):
        raise TypeError(f"{key} must be {_kind_name(kind)}, got {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def user_text(record: Mapping[str, Any]) -> str:
    """The last user message of a verl-style ``prompt`` column (DAPO-Math, Code-R1)."""
    messages = need(record, "prompt", (list, tuple))
    users = [m for m in messages if isinstance(m, Mapping) and m.get("role") == "user"]
    if not users or not isinstance(users[-1].get("content"), str):
        raise TypeError("prompt has no user message with text content")
    return users[-1]["content"]


def ground_truth(record: Mapping[str, Any]) -> str:
    rm = need(record, "reward_model", Mapping)
    truth = rm.get("ground_truth")
    if not isinstance(truth, str):
        raise TypeError("reward_model.ground_truth must be a string")
    return truth


def answer_text(value: Any) -> str:
    """An answer column as text: AMC's floats ``142.0`` become ``142``."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"answer must be text or a number, got {value!r}")
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str):
        raise TypeError(f"answer must be text or a number, got {type(value).__name__}")
    return value.strip()


def math_prompt(problem: str) -> str:
    return problem.strip() + MATH_SUFFIX


def code_prompt(task: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": CODE_SYSTEM}, {"role": "user", "content": task.strip()}]


def row_fields(part: Part, prompt, task_type: str, truth, **extra: Any) -> dict[str, Any]:
    """Row fields before ``make_row``; the builder numbers ``index`` once the rows are final.

    ``source_id`` (the record's id in its source) is text: sources number rows with ints or
    strings, and one parquet column cannot hold both.
    """
    if extra.get("source_id") is not None:
        extra["source_id"] = str(extra["source_id"])
    return {
        "data_source": part.data_source,
        "prompt": prompt,
        "task_type": task_type,
        "ground_truth": truth if isinstance(truth, str) else json_text(truth),
        "split": part.split,
        "extra": {**part.extra, **{k: v for k, v in extra.items() if v is not None}},
    }


# ----------------------------------------------------------------------------------------------
# Converters: record -> row fields, or a Reject


def dapo_problem(record: Mapping[str, Any]) -> str:
    text = _DAPO_TAIL.sub("", _DAPO_HEAD.sub("", user_text(record), count=1))
    return text.strip()


def dapo_key(record: Mapping[str, Any]) -> str:
    """What the policy is asked: the problem's normalised text (:func:`.overlap.normalise`)."""
    return normalise(dapo_problem(record))


def is_english(text: str) -> bool:
    """No CJK ideographs (DAPO-Math-17k holds about 3.3k Chinese problems among 17.4k)."""
    return _CJK.search(text) is None


def convert_dapo(record: Mapping[str, Any], part: Part):
    return _convert_dapo(record, part, english_only=False)


def convert_dapo_english(record: Mapping[str, Any], part: Part):
    return _convert_dapo(record, part, english_only=True)


def _convert_dapo(record: Mapping[str, Any], part: Part, english_only: bool):
    problem, answer = dapo_problem(record), ground_truth(record).strip()
    if english_only and not is_english(problem):
        return Reject("not_english")
    if not problem:
        raise ValueError("prompt: the problem text is empty")
    if not answer:
        raise ValueError("reward_model.ground_truth is empty")
    info = record.get("extra_info") if isinstance(record.get("extra_info"), Mapping) else {}
    return row_fields(part, math_prompt(problem), "math", answer, source_id=info.get("index"))


def sec_math_problem(record: Mapping[str, Any]) -> str:
    """The problem of a SEC math record: ``extra_info.question`` (``math_train``) or
    ``extra_info.problem`` (``math_test``), else the prompt's task without the frame and the
    "Put your final answer within \\boxed{}." sentence."""
    info = record.get("extra_info") if isinstance(record.get("extra_info"), Mapping) else {}
    for key in ("question", "problem"):
        if isinstance(info.get(key), str) and info[key].strip():
            return info[key].strip()
    from pac_verl.data_prep.overlap import drop_boxed_sentences, task_text

    return drop_boxed_sentences(task_text(user_text(record))).strip()


def sec_math_key(record: Mapping[str, Any]) -> str:
    return normalise(sec_math_problem(record))


def convert_sec_math(record: Mapping[str, Any], part: Part):
    """SEC's ``math_train``/``math_test`` record: the problem in the paper's math prompt, the
    answer string as ground truth; the MATH subject and level kept (``subject``, ``level``)."""
    problem, answer = sec_math_problem(record), ground_truth(record).strip()
    if not problem:
        raise ValueError("extra_info.question: the problem text is empty")
    if not answer:
        if part.split == "train":  # 2 of the 11,499 released rows have no answer
            return Reject("no_answer")
        raise ValueError("reward_model.ground_truth is empty")
    info = record.get("extra_info") if isinstance(record.get("extra_info"), Mapping) else {}
    subject = info.get("type") if isinstance(info.get("type"), str) else None
    level = info.get("difficulty")
    if isinstance(level, bool) or not isinstance(level, int | float):
        level = None
    if part.split == "train":  # the MATH level, an int as in MATH-500's own rows
        extra = {"subject": subject, "level": int(level) if level is not None else None}
    else:  # math_test's difficulty is SEC's own scale (1.5, 4.25, ...)
        extra = {"sec_difficulty": float(level) if level is not None else None}
    return row_fields(part, math_prompt(problem), "math", answer,
                      source_id=info.get("index"), **extra)  # fmt: skip


def code_key(record: Mapping[str, Any]) -> str:
    return normalise(user_text(record))


def kk_key(record: Mapping[str, Any]) -> str:
    return normalise(str(record.get("quiz", "")))


def convert_code_r1(record: Mapping[str, Any], part: Part):
    task, truth = user_text(record), ground_truth(record)
    try:
        json.loads(truth)  # only to name the JSON error; job_for parses it again
    except json.JSONDecodeError as err:
        raise ValueError(f"reward_model.ground_truth is not JSON ({err})") from None
    job = job_for("", truth)  # the code verifier decides which test sets it can run
    if job is None:
        raise ValueError(
            'reward_model.ground_truth must be a JSON object with "functional" tests or '
            '"inputs"/"outputs" of equal length'
        )
    has_tests = bool(job["inputs"]) if job["kind"] == "stdio" else bool(job["tests"].strip())
    if not has_tests:
        return Reject("no_tests")
    info = record.get("extra_info") if isinstance(record.get("extra_info"), Mapping) else {}
    return row_fields(part, code_prompt(task), "code", truth,
                      dataset=info.get("dataset"), source_id=info.get("index"))  # fmt: skip


def convert_kk(record: Mapping[str, Any], part: Part):
    quiz = need(record, "quiz")
    names = [str(n) for n in need(record, "names", (list, tuple))]
    solution = need(record, "solution", (list, tuple))
    if len(names) != len(solution) or not names:
        raise ValueError("names and solution must be non-empty lists of the same length")
    if not all(isinstance(s, bool) for s in solution):
        raise TypeError("solution must be a list of booleans (true = knight)")
    if len(names) != part.extra["people"]:
        raise ValueError(f"names: {len(names)} people in a {part.extra['people']}-people file")
    return row_fields(part, kk.prompt(_KK_QUESTION.sub("", quiz), names), "logic",
                      {"names": names, "solution": list(solution)}, source_id=record.get("index"))  # fmt: skip


def _convert_bench_math(id_field: str | None, extras: Sequence[str] = ()):
    def convert(record: Mapping[str, Any], part: Part):
        problem = need(record, "problem")
        answer = answer_text(record.get("answer"))
        if not problem.strip():
            raise ValueError("problem is empty")
        if not answer:
            raise ValueError("answer is empty")
        more = {k: record.get(k) for k in extras}
        source_id = record.get(id_field) if id_field else None
        return row_fields(part, math_prompt(problem), "math", answer, source_id=source_id, **more)

    return convert


def convert_bigcodebench(record: Mapping[str, Any], part: Part):
    task_id, prompt = need(record, "task_id"), need(record, "instruct_prompt")
    test, entry = need(record, "test"), need(record, "entry_point")
    solution = None
    if isinstance(record.get("code_prompt"), str) and isinstance(
        record.get("canonical_solution"), str
    ):
        solution = record["code_prompt"] + record["canonical_solution"]
    libs = record.get("libs")
    return row_fields(part, code_prompt(prompt), "code", {"test": test, "entry_point": entry},
                      source_id=task_id, solution=solution,
                      libs=libs if isinstance(libs, str) else None)  # fmt: skip


# ----------------------------------------------------------------------------------------------
# The registry

KK_TRAIN_PEOPLE = (3, 4, 5)
KK_TRAIN_PER_SIZE = 900
KK_VAL_PEOPLE = 6
KK_VAL_ROWS = 100
# The paper's logic arm: the first 900 puzzles of each 3/4/5-people training file; kk6 validation.
KK_PARTS = (
    *(Part("kk", "train", data_files=f"train/people{n}_num1000.jsonl", cap=KK_TRAIN_PER_SIZE,
           extra={"people": n}) for n in KK_TRAIN_PEOPLE),
    Part(f"kk{KK_VAL_PEOPLE}", "test", data_files=f"test/people{KK_VAL_PEOPLE}_num100.jsonl",
         cap=KK_VAL_ROWS, extra={"people": KK_VAL_PEOPLE}),
)  # fmt: skip

SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        Source("math", "BytedTsinghua-SIA/DAPO-Math-17k", (Part("math", "train"),),
               convert_dapo_english, 11_499, dedupe=dapo_key),
        Source("code", "ganler/code-r1-12k", (Part("code", "train"),), convert_code_r1, 12_458,
               dedupe=code_key),
        Source("kk", "K-and-K/knights-and-knaves", KK_PARTS, convert_kk, 2_700 + 100,
               dedupe=kk_key),
        Source("math500", "HuggingFaceH4/MATH-500", (Part("math500", "test", hub_split="test"),),
               _convert_bench_math("unique_id", ("level", "subject")), 500),
        Source("amc23", "AI-MO/aimo-validation-amc", (Part("amc23", "test"),),
               _convert_bench_math("id"), 83),
        Source("aime24", "HuggingFaceH4/aime_2024", (Part("aime24", "test"),),
               _convert_bench_math("id"), 30),
        Source("bigcodebench", "bigcode/bigcodebench",
               (Part("bigcodebench", "test", hub_split="v0.1.4"),), convert_bigcodebench, 1_140),
    )
}  # fmt: skip
BIGCODEBENCH_HARD = Source(
    "bigcodebench", "bigcode/bigcodebench-hard",
    (Part("bigcodebench", "test", hub_split="v0.1.4", extra={"subset": "hard"}),),
    convert_bigcodebench, 148,
)  # fmt: skip


# The math pools (--math-pool): SEC's released MATH pool, the 11,499 rows the paper's count
# implies (GitHub only: read from a local copy), or DAPO-Math-17k as the paper's text says.
SEC_RELEASE = "GitHub Vincent-La/cofa sec/data/math"
MATH_POOLS = ("sec-math", "dapo")
SEC_MATH = Source("math", SEC_RELEASE, (Part("math", "train", data_files="math_train.parquet"),),
                  convert_sec_math, 11_499, dedupe=sec_math_key)  # fmt: skip
DAPO_ALL_LANGUAGES = dataclasses.replace(SOURCES["math"], convert=convert_dapo)
# SEC's math_test.parquet is the paper's math validation: MATH500, AMC (83) and AIME24 (30).
SEC_TESTS = {
    name: Source(name, SEC_RELEASE, (Part(name, "test", data_files="math_test.parquet",
                                          select=select),), convert_sec_math, rows)
    for name, select, rows in (("math500", "test_math", 500), ("amc23", "test_amc", 83),
                               ("aime24", "test_aime", 30))
}  # fmt: skip


def registry(
    subset: str = "full",
    math_pool: str = "dapo",
    all_languages: bool = False,
    sec_tests: bool = False,
) -> dict[str, Source]:
    """The seven sources as a build's options choose them: BigCodeBench's subset, the math pool
    (DAPO English-only unless ``all_languages``), and the math benchmarks from SEC's
    ``math_test.parquet`` when ``sec_tests``."""
    chosen = dict(SOURCES)
    if subset == "hard":
        chosen["bigcodebench"] = BIGCODEBENCH_HARD
    if math_pool == "sec-math":
        chosen["math"] = SEC_MATH
    elif all_languages:
        chosen["math"] = DAPO_ALL_LANGUAGES
    if sec_tests:
        chosen.update(SEC_TESTS)
    return chosen


def source(name: str, subset: str = "full", chosen: Mapping[str, Source] | None = None) -> Source:
    chosen = chosen if chosen is not None else registry(subset)
    if name not in chosen:
        raise UserError(f"unknown source {name!r}; choose from {', '.join(chosen)}")
    return chosen[name]


# ----------------------------------------------------------------------------------------------
# Reading


def is_hub_id(name: str) -> bool:
    """``owner/name`` and not a path: what to send to the hub rather than look for on disk."""
    return name.count("/") == 1 and not name.startswith((".", "/", "~"))


def describe(src: Source, location: str | None) -> str:
    return location if location else f"hub:{src.hub_id}"


def open_part(src: Source, part: Part, location: str | None, cache_dir: str | None):
    """The part as a :class:`datasets.Dataset` (hub id, local repository folder or one file)."""
    import datasets

    datasets.disable_progress_bars()  # ours counts records; the hub's download bars stay
    where = describe(src, location)
    kwargs: dict[str, Any] = {"cache_dir": cache_dir}
    if location is not None and Path(location).is_file():
        if len(src.parts) > 1:
            raise UserError(
                f"source {src.name}: {location} is one file, but this source reads "
                f"{len(src.parts)} files ({', '.join(p.data_files or p.hub_split for p in src.parts)}); "
                f"pass the dataset's folder"
            )
        if Path(location).stat().st_size == 0:
            raise UserError(f"source {src.name}: {location} is empty")
        suffix = Path(location).suffix
        if suffix not in LOCAL_SUFFIXES:
            raise UserError(
                f"source {src.name}: {location}: expected one of {', '.join(LOCAL_SUFFIXES)}"
            )
        builder = {"jsonl": "json"}.get(suffix[1:], suffix[1:])
        args, kwargs["data_files"], kwargs["split"] = (builder,), location, "train"
    else:
        if location is not None and not Path(location).is_dir() and not is_hub_id(location):
            raise UserError(
                f"source {src.name}: {location} is neither a file, a folder nor a hub id"
            )
        args = (location or src.hub_id,)
        if part.data_files:
            kwargs["data_files"], kwargs["split"] = part.data_files, "train"
        else:
            kwargs["split"] = part.hub_split
    try:
        return datasets.load_dataset(*args, **kwargs)
    except Exception as err:
        hint = ""
        if location is None or not Path(location).exists():
            hint = (
                f"; where there is network, `hf download --repo-type dataset "
                f"{src.hub_id} --local-dir DIR`, then pass --source {src.name}=DIR"
            )
        what = part_label(part, location)
        cause = err.__cause__ or err  # datasets wraps a parse error in DatasetGenerationError
        raise UserError(f"source {src.name}: cannot read {what} from {where}: "
                        f"{type(cause).__name__}: {_first_line(cause)}{hint}") from None  # fmt: skip


def part_label(part: Part, location: str | None) -> str:
    """How messages name a part: its file in the repository, its split, or nothing for one file."""
    if location is not None and Path(location).is_file():
        return "the file"
    return part.data_files or f"split {part.hub_split}"


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else "(no message)"


def records(dataset) -> Iterator[dict[str, Any]]:
    """The rows of a :class:`datasets.Dataset` one at a time, read in batches."""
    for batch in dataset.iter(batch_size=READ_BATCH):
        columns = list(batch)
        for values in zip(*(batch[c] for c in columns)):
            yield dict(zip(columns, values))
