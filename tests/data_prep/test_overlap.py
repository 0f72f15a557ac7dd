"""Train/validation overlap: keyed on what the policy is asked and must answer."""

import pytest

from pac_verl.data_prep import prompts
from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.data_prep.overlap import (
    check_disjoint,
    count_overlaps,
    ngram_contamination,
    normalise,
    puzzle_key,
    question_text,
)
from pac_verl.data_prep.rows import make_row, read_rows, write_parquet
from pac_verl.errors import UserError


def arc_row(examples, test_in, answer, split="train", source="arc"):
    return make_row(data_source=source, prompt=prompts.arc(examples, test_in),
                    task_type="arc", ground_truth=answer, split=split, index=0, difficulty=1)  # fmt: skip


def countdown_row(numbers, target, split="train", source="countdown"):
    return make_row(data_source=source, prompt=prompts.countdown(numbers, target),
                    task_type="countdown", ground_truth={"target": target, "numbers": numbers},
                    split=split, index=0, difficulty=1)  # fmt: skip


def math_row(text, answer, split="train", source="math"):
    return make_row(data_source=source, prompt=text, task_type="math", ground_truth=answer,
                    split=split, index=0)  # fmt: skip


def test_normalise_folds_case_spacing_punctuation_and_unicode():
    assert normalise("  What is  2+2?\n") == "what is 2 2"
    assert normalise("ＡＢＣ—def") == "abc def"  # full-width letters (NFKC), a dash


def test_arc_key_ignores_the_demonstrations():
    a = arc_row([([1, 0], [0, 1])], [3, 0, 0], "0 0 3")
    b = arc_row([([2, 2, 0], [0, 2, 2])], [3, 0, 0], "0 0 3", split="val")
    c = arc_row([([1, 0], [0, 1])], [3, 0, 0], "0 3 0", split="val")  # another answer
    assert puzzle_key(a) == puzzle_key(b) == "arc|3 0 0|0 0 3"
    assert puzzle_key(c) != puzzle_key(a)


def test_countdown_key_is_the_multiset_of_numbers_and_the_target():
    assert puzzle_key(countdown_row([5, 17, 91], 113)) == "countdown|[5, 17, 91]|113"
    assert puzzle_key(countdown_row([91, 5, 17], 113)) == "countdown|[5, 17, 91]|113"
    # SEC's schema: numbers as a comma string, the truth as a mapping
    sec = {"extra_info": {"type": "countdown"}, "prompt": [],
           "reward_model": {"ground_truth": {"numbers": "91,5,17", "target": 113}}}  # fmt: skip
    assert puzzle_key(sec) == "countdown|[5, 17, 91]|113"


def test_zebra_key_is_the_clue_set_and_the_answer():
    text = "This is a logic puzzle.\n - Each person has a unique name: bob, alice\n\n"
    one = text + "1. Bob is in the first house.\n2. Alice is directly left of Bob."
    two = text + "1. Alice is directly left of Bob.\n2. Bob is in the first house."
    rows = [make_row(data_source="zebra", prompt=prompts.zebra(t), task_type="zebra",
                     ground_truth="bob", split="train", index=0) for t in (one, two)]  # fmt: skip
    assert puzzle_key(rows[0]) == puzzle_key(rows[1])


def test_question_text_drops_the_frame_and_the_boxed_instruction():
    chat = math_row("Find x if 2x = 4.\nPut the final answer within \\boxed{}.", "2")
    sec = math_row(prompts.frame("Find  x if 2x=4. Put your final answer within \\boxed{}. "), "2")  # fmt: skip
    assert question_text(chat) == question_text(sec) == "find x if 2x 4"


def test_count_overlaps_counts_per_validation_source_by_either_test():
    train = [
        arc_row([([1], [1])], [3, 0, 0], "0 0 3"),
        countdown_row([1, 2, 3], 6),
        math_row("What is 1+1?", "2"),
    ]
    val = [
        arc_row([([4], [4])], [3, 0, 0], "0 0 3", split="val", source="arc/1"),  # same puzzle
        arc_row([([4], [4])], [0, 3, 0], "0 0 3", split="val", source="arc/1"),  # new input
        countdown_row([3, 2, 1], 6, split="val", source="countdown/1"),  # same multiset
        countdown_row([3, 2, 1], 5, split="val", source="countdown/1"),
        math_row("what is 1 + 1 ?", "2", split="test", source="math500"),  # same text
    ]
    result = count_overlaps(train, val)
    assert result.as_dict() == {
        "arc/1": {"rows": 2, "same_puzzle": 1, "same_text": 0, "overlapping": 1},
        "countdown/1": {"rows": 2, "same_puzzle": 1, "same_text": 0, "overlapping": 1},
        "math500": {"rows": 1, "same_puzzle": 1, "same_text": 1, "overlapping": 1},
    }
    assert result.total == 3


def test_check_disjoint_names_the_first_overlapping_row(tmp_path):
    write_parquet([countdown_row([1, 2, 3], 6), countdown_row([4, 5, 6], 15)],
                  tmp_path / "train.parquet")  # fmt: skip
    write_parquet([countdown_row([7, 8, 9], 24, "val", "countdown/1"),
                   countdown_row([6, 5, 4], 15, "val", "countdown/1")], tmp_path / "val.parquet")  # fmt: skip
    with pytest.raises(
        UserError, match=r"1 validation row\(s\) .*countdown/1 1.*val.parquet row 1"
    ):
        check_disjoint([tmp_path / "train.parquet"], [tmp_path / "val.parquet"])


def test_ngram_contamination_counts_touched_and_contaminated_questions():
    # n = 3 words: "a b c d e" has grams abc, bcd, cde.
    train = ["a b c x y z", "q r s"]
    val = {"bench": ["a b c d e", "b c d e f", "q r s", "m n o p"]}
    (row,) = ngram_contamination(train, val, pool="math", n=3)
    # "a b c d e": abc hit (1 of 3) -> touched, not contaminated; "b c d e f": no hit;
    # "q r s": same text, its one gram hit -> touched and contaminated; "m n o p": nothing.
    assert (row.questions, row.same_text, row.touched, row.contaminated) == (4, 1, 2, 1)


@pytest.fixture(scope="module")
def small_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("ml")
    build_multi_level(out, train_per_arm=400, val_per_level=50, seed=0, tasks=("arc",), quiet=True)
    return out


def test_a_build_is_disjoint_by_construction(small_build):
    result = check_disjoint([small_build / "train.parquet"], [small_build / "val.parquet"])
    assert result.total == 0 and sum(result.rows.values()) == 4 * 50
    train = read_rows(small_build / "train.parquet")
    assert len({r["extra_info"]["key"] for r in train}) == len(train)  # no duplicate puzzle


def test_prep_check_of_train_and_val_files_applies_the_overlap_rule(tmp_path):
    import subprocess

    good = [countdown_row([1, 2, 3], 6), countdown_row([4, 5, 6], 15)]
    for row, solution in zip(good, ("1+2+3", "4+5+6"), strict=True):
        row["extra_info"]["solution"] = solution
    write_parquet(good, tmp_path / "train.parquet")
    val = countdown_row([3, 1, 2], 6, "val", "countdown/1")
    val["extra_info"]["solution"] = "3+1+2"
    write_parquet([val], tmp_path / "val.parquet")
    res = subprocess.run(["pac-verl", "prep", "check", str(tmp_path / "train.parquet"),
                          str(tmp_path / "val.parquet")], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "1 validation row(s) ask what a training row asks (countdown/1 1)" in res.stderr
