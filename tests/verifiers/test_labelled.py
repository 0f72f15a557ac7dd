"""The hand-labelled responses of scripts/bench/labelled_responses.jsonl:
our scorers agree with a careful human grader on at least 97% of them and accept no hedge.
The labels were written by hand from each task's truth; scripts/bench/agreement.py compares the
same rows with the scorers researchers use."""

import json
from collections import Counter
from pathlib import Path

import pytest

from pac_verl.verifiers import score

LABELLED = Path(__file__).parents[2] / "scripts" / "bench" / "labelled_responses.jsonl"
TASKS = {"countdown", "zebra", "arc", "math", "logic", "code"}
KINDS = {"plain", "form", "reasoning", "wrong", "hedge", "hostile"}


@pytest.fixture(scope="module")
def rows():
    return [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]


def test_the_labelled_set_is_well_formed_and_covers_every_task(rows):
    assert len(rows) >= 300
    for i, row in enumerate(rows):
        assert set(row) == {"task", "ground_truth", "response", "label", "kind", "note"}, i
        assert row["task"] in TASKS and row["kind"] in KINDS and row["label"] in (0, 1), i
        # right forms are labelled 1; wrong answers and hedges 0
        assert row["label"] == (row["kind"] in {"plain", "form", "reasoning"}), i
    per_task = Counter((r["task"], r["kind"]) for r in rows)
    for task in TASKS:
        for kind in ("plain", "form", "wrong", "hedge"):
            assert per_task[task, kind] >= 1, (task, kind)


def test_our_scorers_agree_with_the_hand_labels(rows):
    verdicts = [score(r["task"], r["response"], r["ground_truth"]) for r in rows]
    agree = [v.correct == bool(r["label"]) for r, v in zip(rows, verdicts)]
    assert sum(agree) / len(rows) >= 0.97
    assert not [r for r, v in zip(rows, verdicts) if r["kind"] == "hedge" and v.correct]
    assert not [r for r, v in zip(rows, verdicts) if r["label"] == 0 and v.correct]
    for task in TASKS:  # and no task far behind
        mine = [a for r, a in zip(rows, agree) if r["task"] == task]
        assert sum(mine) / len(mine) >= 0.95, task
