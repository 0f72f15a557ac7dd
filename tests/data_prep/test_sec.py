"""Importing SEC's released files, on fixtures with the release's schema."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.countdown_solver import UNKNOWN, UNSOLVABLE, solve
from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.data_prep.overlap import check_disjoint
from pac_verl.data_prep.rows import read_rows
from pac_verl.errors import UserError
from pac_verl.verifiers import score

ROOT = Path(__file__).parents[2]
SEC = ROOT / "tests/fixtures/sec"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("sec")
    summary = build_multi_level(out, train_per_arm=5, val_per_level=200, seed=0, quiet=True,
                                sec_dir=SEC)  # fmt: skip
    return out, summary


def by_arm(summary):
    return {(r[0], r[1]): r for r in summary["rows"]}


def test_validation_is_secs_and_training_reads_secs_file_where_there_is_one(built):
    out, summary = built
    val = read_rows(out / "val.parquet")
    # the fixtures hold 2 rows per level for each task
    assert Counter(r["data_source"] for r in val) == {
        f"{t}/{lv}": 2 for t in ("countdown", "zebra", "arc") for lv in (1, 2, 3, 4)
    }
    arms = by_arm(summary)
    assert arms["val", "zebra/4"][5] == "SEC test_zebra.parquet"
    assert arms["train", "countdown/2"][5] == "SEC train_countdown.parquet"
    assert arms["train", "zebra/1"][5] == "generated"  # the fixtures have no train_zebra
    train = Counter(r["data_source"] for r in read_rows(out / "train.parquet"))
    # countdown: level 1 keeps 1 of its 4 rows (below), levels 2 and 3 their 3; the others 5 x 3
    assert train == {"countdown": 1 + 3 + 3, "zebra": 15, "arc": 15}


def test_training_skips_repeats_validation_puzzles_and_unsolvable_ones(built):
    _, summary = built
    level1 = by_arm(summary)["train", "countdown/1"]
    assert level1[2:5] == [1, 3, "duplicate=1, in_validation=1, unsolvable_countdown=1"]
    val4 = by_arm(summary)["val", "countdown/4"]
    assert val4[2] == 2 and val4[4] == "kept_without_gold=1"  # SEC's benchmark row stays


def test_rows_follow_spec_10_and_every_gold_scores_one(built):
    out, _ = built
    row = read_rows(out / "val.parquet")[0]
    sec = pq.read_table(SEC / "combined/test_countdown.parquet").to_pylist()[0]
    truth = json.loads(row["reward_model"]["ground_truth"])
    numbers = [int(n) for n in sec["reward_model"]["ground_truth"]["numbers"].split(",")]
    assert truth == {"numbers": numbers, "target": sec["reward_model"]["ground_truth"]["target"]}
    assert row["extra_info"]["sec_data_source"] == "countdown-easy-test"
    assert score("countdown", f"\\boxed{{{row['extra_info']['solution']}}}",
                 row["reward_model"]["ground_truth"]).correct  # fmt: skip
    assert check_file(out / "val.parquet", quiet=True)["no_gold"] == 1  # the unsolvable one
    assert check_file(out / "train.parquet", quiet=True)["no_gold"] == 0


def test_training_and_validation_are_disjoint(built):
    out, _ = built
    assert check_disjoint([out / "train.parquet"], [out / "val.parquet"]).total == 0


def test_the_frame_gives_back_secs_prompts_byte_for_byte(tmp_path):
    # rows hold the task text; backbone.prompt_style=completion's template renders prompts.frame
    from pac_verl.data_prep import prompts

    build_multi_level(tmp_path, 1, 200, tasks=("zebra", "arc"), quiet=True,
                      sec_dir=SEC / "combined")  # fmt: skip
    ours = [[{"role": "user", "content": prompts.frame(m["content"])} for m in r["prompt"]]
            for r in read_rows(tmp_path / "val.parquet")]  # fmt: skip
    theirs = [r["prompt"] for t in ("zebra", "arc")
              for r in pq.read_table(SEC / f"combined/test_{t}.parquet").to_pylist()]  # fmt: skip
    assert ours == theirs


def test_other_spellings_of_the_ground_truth_are_read(tmp_path):
    import pyarrow as pa

    rows = pq.read_table(SEC / "combined/test_countdown.parquet").to_pylist()
    for r in rows:  # the truth as a JSON string with numbers as a list
        gt = r["reward_model"]["ground_truth"]
        numbers = [int(n) for n in gt["numbers"].split(",")]
        r["reward_model"]["ground_truth"] = json.dumps({"numbers": numbers, "target": gt["target"]})
    (tmp_path / "sec").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "sec/test_countdown.parquet")
    build_multi_level(tmp_path / "o", 2, 200, tasks=("countdown",), quiet=True,
                      sec_dir=tmp_path / "sec")  # fmt: skip
    assert len(read_rows(tmp_path / "o/val.parquet")) == 8


def test_bad_input_is_one_line_naming_the_file_row_and_field(tmp_path):
    import pyarrow as pa

    with pytest.raises(UserError, match=r"no test_zebra.parquet in .*Vincent-La/cofa"):
        build_multi_level(tmp_path / "o", 1, 1, tasks=("zebra",), quiet=True,
                          sec_dir=SEC / "math")  # fmt: skip
    rows = pq.read_table(SEC / "combined/test_countdown.parquet").to_pylist()
    rows[3]["reward_model"]["ground_truth"]["numbers"] = "4,x,9"
    (tmp_path / "bad").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "bad/test_countdown.parquet")
    res = subprocess.run(["pac-verl", "prep", "multi-level", "--from", str(tmp_path / "bad"),
                          "--tasks", "countdown", "--out", str(tmp_path / "o")],
                         capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "test_countdown.parquet row 3: reward_model.ground_truth.numbers/target must be " \
           "integers" in res.stderr  # fmt: skip
    assert not (tmp_path / "o").exists()


def test_solver_finds_golds_proves_unsolvable_and_stops_at_its_budget():
    expr = solve([1, 2, 3], 6)
    assert score("countdown", f"\\boxed{{{expr}}}", '{"numbers":[1,2,3],"target":6}').correct
    # 5 x (5 - 1/5) = 24 needs a fraction on the way: the rational search finds it
    expr = solve([1, 5, 5, 5], 24)
    assert score("countdown", f"\\boxed{{{expr}}}", '{"numbers":[1,5,5,5],"target":24}').correct
    assert solve([1, 1, 1], 500) == UNSOLVABLE  # three 1s make at most (1+1)+1 = 3
    assert solve([1, 1, 1, 1, 1, 1], 997, budget=1) == UNKNOWN


def test_fixtures_are_what_the_script_writes(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts/make_sec_fixtures.py"), str(tmp_path)],
                   check=True, capture_output=True)  # fmt: skip
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.parquet"))
    committed = sorted(p.relative_to(SEC) for p in SEC.rglob("*.parquet"))
    assert written == committed
    for rel in written:
        assert pq.read_table(tmp_path / rel).equals(pq.read_table(SEC / rel))


# ----------------------------------------------------------------------------------- math pool


def md_build(out, *argv):
    import argparse

    from pac_verl.data_prep import multi_domain

    parser = argparse.ArgumentParser()
    multi_domain.add_arguments(parser)
    return multi_domain.run(parser.parse_args(["--out", str(out), *argv]))


MATH_ONLY = ("--only", "math,math500,amc23,aime24")


@pytest.fixture(scope="module")
def sec_math(tmp_path_factory):
    out = tmp_path_factory.mktemp("md") / "o"
    assert md_build(out, "--math-from", str(SEC), *MATH_ONLY) == 0
    return out


def test_secs_math_pool_and_benchmarks_from_its_files(sec_math):
    train, val = read_rows(sec_math / "train.parquet"), read_rows(sec_math / "val.parquet")
    # 7 training problems, one of them a MATH500 question up to case and spacing: removed
    assert len(train) == 6 and {r["data_source"] for r in train} == {"math"}
    assert Counter(r["data_source"] for r in val) == {"math500": 3, "amc23": 2, "aime24": 1}
    first = train[0]
    assert first["prompt"][0]["content"] == (
        "What is the value of $x$ if $3x + 5 = 20$?\nPut the final answer within \\boxed{}."
    )
    assert (first["extra_info"]["subject"], first["extra_info"]["level"]) == ("Algebra", 2)
    # what an answer may not copy (docs/guides/rewards.md#math-forms), on every math row
    assert first["extra_info"]["question_expressions"] == ["x", "3x + 5 = 20", "3x + 5", "20"]
    assert all("question_expressions" in r["extra_info"] for r in train + val)
    assert check_file(sec_math / "train.parquet", quiet=True)["no_gold"] == 0


def test_the_manifest_records_the_pool_removals_and_contamination(sec_math):
    manifest = json.loads((sec_math / "data_manifest.json").read_text())
    assert manifest["math_pool"] == "sec-math"
    assert manifest["removed_from_training_as_validation"] == {"math math_train.parquet": 1}
    counts = {c["validation"]: (c["questions"], c["same_text"], c["share_a_13_gram"],
                                c["half_of_13_grams"]) for c in manifest["contamination"]}  # fmt: skip
    # math500: the removed duplicate (7 words, one gram: all of it); aime24: the variant shares
    # 11 of the AIME question's 24 13-grams (those without "12"), under half
    assert counts == {"math500": (3, 1, 1, 1), "amc23": (2, 0, 0, 0), "aime24": (1, 0, 1, 0)}


def test_the_default_pool_needs_secs_files_and_says_where_to_get_them(tmp_path):
    with pytest.raises(UserError, match=r"--math-from DIR .*Vincent-La/cofa.*--math-pool dapo"):
        md_build(tmp_path / "o", "--only", "math")
    with pytest.raises(UserError, match=r"contradicts --math-pool dapo"):
        md_build(tmp_path / "o", "--math-pool", "dapo", "--math-from", str(SEC), "--only", "math")
    with pytest.raises(UserError, match=r"no math_train.parquet in"):
        md_build(tmp_path / "o", "--math-from", str(SEC / "combined"), "--only", "math")
    assert not (tmp_path / "o").exists()
