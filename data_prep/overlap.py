"""Training and validation overlap: what the policy is asked and must answer.

A validation row overlaps a training row when the policy would be asked the same thing with the
same answer. Two tests, both over the row itself (any builder's file, ours or an imported one):

- **same puzzle** (:func:`puzzle_key`): a canonical key per task type. Countdown: the multiset of
  numbers and the target. ARC: the test input and the answer grid (the demonstrations are left
  out: a training row with the same test input and answer teaches the answer whatever examples
  precede it). Zebra: the set of clues (numbering and order left out, reasoning-gym's typos
  corrected) and the answer. Math, code and K&K: the question's normalised text.
- **near-duplicate text** (:func:`question_text`): the question as the policy reads it, with the
  base-model conversation frame and the answer-format sentences (the ``\\boxed{}`` instruction)
  removed, then normalised (:func:`normalise`: Unicode NFKC, case folded, every run of
  non-alphanumeric characters one space). Two prompts that differ only in the frame, spacing,
  case, punctuation or the boxed instruction have the same text.

:func:`count_overlaps` counts validation rows that match a training row by either test, per
validation ``data_source``; :func:`check_disjoint` is the rule ``pac-verl prep check`` and the
preflight apply to the training and validation files. The builders key their own de-duplication
on :func:`puzzle_key` as well, so their files are disjoint by construction.

**Contamination by n-grams** (:func:`ngram_contamination`): for the multi-domain math and code
benchmarks, whose
problems may reappear in a training pool reworded or embedded in a longer text, a validation
question counts as *touched* when it shares at least one word ``n``-gram (default 13, the window
GPT-3's decontamination used) with the training questions of its domain, and as *contaminated*
when at least half of its ``n``-grams occur there (a question shorter than ``n`` words is one
gram). These are reported, not removed: a shared 13-gram is often a stock phrase.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pac_verl.data_prep.zebra import fix_typos
from pac_verl.errors import UserError

# The base-model frame (SEC, TinyZero, ``--prompt-style completion``): the task sits between
# "User: " and the final "Assistant: ..." cue.
_FRAME = re.compile(
    r"^\s*A conversation between User and Assistant\..*?\nUser:\s?(?P<task>.*)\nAssistant:[^\n]*$",
    re.DOTALL,
)
# The end of a sentence: a full stop before white space or the end, or a line break.
_SENTENCE_END = re.compile(r"\.(?=\s|$)|\n")
_NON_WORD = re.compile(r"[\W_]+")
_CLUE_LINE = re.compile(r"^\s*\d+\.\s+(?P<clue>.+?)\s*$", re.MULTILINE)
# n-gram contamination: the pools of free text (K&K's puzzles share a long instruction template,
# so every pair of K&K questions shares 13-grams)
NGRAM_TYPES = frozenset({"math", "code"})
NGRAM = 13
CONTAMINATED_SHARE = 0.5


def normalise(text: str) -> str:
    """NFKC, case folded, every run of non-alphanumeric characters one space, stripped."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def task_text(content: str) -> str:
    """The task inside the base-model conversation frame, or ``content`` if it has none."""
    m = _FRAME.match(content)
    return m.group("task") if m else content


def user_text(prompt: Sequence[Mapping[str, Any]] | str) -> str:
    """The text of the last user message (a system message is the same for every row)."""
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt if m.get("role") == "user"]
    return str((users or list(prompt))[-1]["content"]) if prompt else ""


def drop_boxed_sentences(text: str) -> str:
    """``text`` without the sentences that name ``\\boxed{`` (the answer-format instruction: "Put
    the final answer within \\boxed{}.", "Return the final answer in \\boxed{}, for example
    \\boxed{(1 + 2) / 3}.")."""
    kept, pos = [], 0
    while (i := text.find("\\boxed{", pos)) >= 0:
        start = max(text.rfind(".", pos, i), text.rfind("\n", pos, i)) + 1
        end = _SENTENCE_END.search(text, i)
        kept.append(text[pos : max(start, pos)])
        pos = end.end() if end else len(text)
    kept.append(text[pos:])
    return " ".join(kept)


def question_text(row: Mapping[str, Any]) -> str:
    """The question as the policy reads it, frame and answer-format sentences removed, normalised."""
    return normalise(drop_boxed_sentences(task_text(user_text(row["prompt"]))))


def _digits(text: str) -> str:
    return " ".join(re.findall(r"\d+", text))


def _countdown_truth(truth: Any) -> tuple[list[int], Any]:
    if isinstance(truth, str):
        truth = json.loads(truth)
    numbers = truth["numbers"]
    if isinstance(numbers, str):
        numbers = [int(n) for n in numbers.split(",") if n.strip()]
    return sorted(int(n) for n in numbers), truth["target"]


def puzzle_key(row: Mapping[str, Any]) -> str:
    """What the policy is asked and must answer, as one canonical string (module docstring).

    Works on rows of this project's schema (docs/concepts/spec.md#rows-on-disk); a row it cannot
    read raises ``ValueError``.
    """
    info, truth = row["extra_info"], row["reward_model"]["ground_truth"]
    kind = info.get("type")
    if kind == "countdown":
        numbers, target = _countdown_truth(truth)
        return f"countdown|{numbers}|{target}"
    task = task_text(user_text(row["prompt"]))
    if kind == "arc":
        if "Input:" not in task:
            raise ValueError("an ARC prompt without 'Input:'")
        return f"arc|{_digits(task.rsplit('Input:', 1)[1])}|{_digits(str(truth))}"
    if kind == "zebra":
        # SEC's puzzles keep reasoning-gym's typos, ours do not: the same clue either way
        clues = sorted(
            fix_typos(" ".join(m.group("clue").casefold().split()))
            for m in _CLUE_LINE.finditer(task)
        )
        return f"zebra|{clues}|{normalise(str(truth))}"
    return f"{kind}|{question_text(row)}"


def digest(text: str) -> bytes:
    """A 12-byte hash: sets of keys for 100,000 rows stay small."""
    return hashlib.blake2b(text.encode(), digest_size=12).digest()


def dedupe_keys(row: Mapping[str, Any]) -> tuple[str, str]:
    """The row's puzzle key and question-text key as short hex strings (``<type>:...`` and
    ``<type>-text:...``): a build de-duplicates on the first and skips a training row whose either
    key is a validation row's."""
    task = row["extra_info"]["type"]
    return (f"{task}:{digest(puzzle_key(row)).hex()}",
            f"{task}-text:{digest(question_text(row)).hex()}")  # fmt: skip


# ------------------------------------------------------------------------------------ counting


@dataclass
class Overlap:
    """Per validation ``data_source``: rows, and rows matching a training row by each test."""

    rows: Counter = field(default_factory=Counter)
    same_puzzle: Counter = field(default_factory=Counter)
    same_text: Counter = field(default_factory=Counter)
    either: Counter = field(default_factory=Counter)
    examples: list[tuple[str, int]] = field(default_factory=list)  # (data_source, row) of the first

    @property
    def total(self) -> int:
        return sum(self.either.values())

    def table(self) -> list[list[Any]]:
        return [[ds, self.rows[ds], self.same_puzzle[ds], self.same_text[ds], self.either[ds]]
                for ds in sorted(self.rows)]  # fmt: skip

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {ds: {"rows": n, "same_puzzle": p, "same_text": t, "overlapping": e}
                for ds, n, p, t, e in self.table()}  # fmt: skip


def row_digests(row: Mapping[str, Any]) -> tuple[bytes, bytes]:
    """The hashed puzzle key and question text of ``row``; a row whose question or answer cannot
    be read is a :class:`UserError` naming it (``row["_where"]`` if the reader set it)."""
    try:
        return digest(puzzle_key(row)), digest(question_text(row))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        where = row.get("_where", "a row") if isinstance(row, Mapping) else "a row"
        raise UserError(f"{where}: cannot read the question or answer for the overlap check "
                        f"({type(err).__name__}: {err})") from None  # fmt: skip


class TrainingIndex:
    """The puzzle keys and question texts of a set of training rows (hashed)."""

    def __init__(self) -> None:
        self.keys: set[bytes] = set()
        self.texts: set[bytes] = set()

    def add(self, row: Mapping[str, Any]) -> None:
        key, text = row_digests(row)
        self.keys.add(key)
        self.texts.add(text)

    def match(self, row: Mapping[str, Any]) -> tuple[bool, bool]:
        key, text = row_digests(row)
        return key in self.keys, text in self.texts


def count_overlaps(
    train_rows: Iterable[Mapping[str, Any]], val_rows: Iterable[Mapping[str, Any]]
) -> Overlap:
    """Validation rows that match a training row (same puzzle, same text, either), per source."""
    index = TrainingIndex()
    for row in train_rows:
        index.add(row)
    out = Overlap()
    for i, row in enumerate(val_rows):
        ds = row["data_source"]
        out.rows[ds] += 1
        puzzle, text = index.match(row)
        out.same_puzzle[ds] += puzzle
        out.same_text[ds] += text
        if puzzle or text:
            out.either[ds] += 1
            if len(out.examples) < 5:
                out.examples.append((ds, i))
    return out


# ------------------------------------------------------------------------------------ files

_COLUMNS = ["data_source", "prompt", "reward_model", "extra_info"]


def read_split_rows(paths: Sequence[str | Path]) -> tuple[list[dict], list[dict]]:
    """Training rows (``extra_info.split == "train"``) and validation rows (any other split) of
    ``paths``, each tagged with ``_where`` (file and row) for messages."""
    from pac_verl.data_prep.rows import read_table

    train, val = [], []
    for path in paths:
        rows = read_table(path, columns=_COLUMNS).to_pylist()
        for i, row in enumerate(rows):
            info = row.get("extra_info") or {}
            row["_where"] = f"{path} row {i}"
            (train if info.get("split") == "train" else val).append(row)
    return train, val


def check_disjoint(
    train_files: Sequence[str | Path], val_files: Sequence[str | Path], quiet: bool = True
) -> Overlap:
    """The overlap rule: no validation row of ``val_files`` may ask what a training row of
    ``train_files`` asks (same puzzle or same normalised text). Returns the counts; raises a
    :class:`UserError` naming the counts per source and the first rows when any overlap."""
    from pac_verl.data_prep.rows import read_table

    train_rows = [r for p in train_files for r in _tagged(read_table(p, columns=_COLUMNS), p)]
    val_rows = [r for p in val_files for r in _tagged(read_table(p, columns=_COLUMNS), p)]
    return disjoint_rows(train_rows, val_rows, quiet)


def _tagged(table, path) -> list[dict]:
    rows = table.to_pylist()
    for i, row in enumerate(rows):
        row["_where"] = f"{path} row {i}"
    return rows


def disjoint_rows(train_rows: list[dict], val_rows: list[dict], quiet: bool = True) -> Overlap:
    """:func:`check_disjoint` on rows already read (each with ``_where`` for the message)."""
    result = count_overlaps(train_rows, val_rows)
    if not quiet:
        from pac_verl.progress import print_summary

        print_summary("training / validation overlap (same puzzle or same normalised question)",
                      ["validation data_source", "rows", "same puzzle", "same text", "overlapping"],
                      result.table())  # fmt: skip
    if result.total:
        per = ", ".join(f"{ds} {n}" for ds, n in sorted(result.either.items()) if n)
        first = val_rows[result.examples[0][1]]["_where"]
        raise UserError(f"{result.total} validation row(s) ask what a training row asks ({per}); "
                        f"first: {first}. Rebuild the training file so that it skips the "
                        "validation puzzles (pac-verl prep does)")  # fmt: skip
    return result


# ------------------------------------------------------------------------------------ n-grams


def _grams(text: str, n: int) -> set[int]:
    words = text.split()
    if not words:
        return set()
    if len(words) <= n:
        return {hash(tuple(words))}
    return {hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1)}


@dataclass
class Contamination:
    """Per validation source: questions, exact (normalised-text) matches, n-gram touched and
    contaminated counts, against one training pool."""

    pool: str
    source: str
    questions: int
    same_text: int
    touched: int
    contaminated: int

    def row(self) -> list[Any]:
        return [self.pool, self.source, self.questions, self.same_text, self.touched,
                self.contaminated]  # fmt: skip


def ngram_contamination(
    train_texts: Iterable[str],
    val_texts: Mapping[str, Sequence[str]],
    pool: str,
    n: int = NGRAM,
    share: float = CONTAMINATED_SHARE,
) -> list[Contamination]:
    """Exact and n-gram overlap of each validation source's questions with a training pool.

    ``train_texts`` and ``val_texts`` are normalised question texts (:func:`question_text`). The
    training texts are streamed once; only the validation grams are held.
    """
    val_grams = {src: [_grams(t, n) for t in texts] for src, texts in val_texts.items()}
    wanted = set().union(*(g for grams in val_grams.values() for g in grams))
    wanted_text = {t for texts in val_texts.values() for t in texts}
    hit: set[int] = set()
    same: set[str] = set()
    for text in train_texts:
        if text in wanted_text:
            same.add(text)
        hit.update(_grams(text, n) & wanted)
    out = []
    for src, texts in val_texts.items():
        grams = val_grams[src]
        touched = sum(1 for g in grams if g & hit)
        contaminated = sum(1 for g in grams if g and len(g & hit) >= share * len(g))
        out.append(Contamination(pool, src, len(texts), sum(t in same for t in texts), touched,
                                 contaminated))  # fmt: skip
    return out


def contamination_by_type(
    train_rows: Iterable[Mapping[str, Any]],
    val_rows: Iterable[Mapping[str, Any]],
    n: int = NGRAM,
    pool_names: Mapping[str, str] | None = None,
) -> list[Contamination]:
    """:func:`ngram_contamination` for math and code: each training pool against the validation
    sources of its type (the pool named by ``pool_names[type]``)."""
    train: defaultdict[str, list[str]] = defaultdict(list)
    for row in train_rows:
        kind = row["extra_info"].get("type")
        if kind in NGRAM_TYPES:
            train[kind].append(question_text(row))
    val: defaultdict[str, defaultdict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in val_rows:
        kind = row["extra_info"].get("type")
        if kind in NGRAM_TYPES:
            val[kind][row["data_source"]].append(question_text(row))
    out = []
    for kind in sorted(set(train) & set(val)):
        name = (pool_names or {}).get(kind, kind)
        out += ngram_contamination(train[kind], dict(sorted(val[kind].items())), name, n)
    return out


CONTAMINATION_COLUMNS = ["training pool", "validation", "questions", "same text",
                         f"share a {NGRAM}-gram", f">= {CONTAMINATED_SHARE:.0%} of {NGRAM}-grams"]  # fmt: skip
