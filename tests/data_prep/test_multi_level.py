"""Multi-level data prep (docs/concepts/spec.md#settings, docs/concepts/spec.md#rows-on-disk) and `pac-verl prep check`."""

import json
import random
import subprocess

import pyarrow.parquet as pq
import pytest

from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.multi_level import Shard, build_multi_level, build_shard, countdown_puzzle
from pac_verl.data_prep.rows import read_rows, validate_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.verifiers import score
from pac_verl.verifiers.reward import compute_score

FAST = ("countdown", "arc")  # reasoning-gym's Zebra generator is slow; it has its own test below


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("ml")
    summary = build_multi_level(
        out, train_per_arm=30, val_per_level=10, seed=3, tasks=FAST, quiet=True
    )
    return out, summary


def test_counts_and_data_sources_follow_spec_10(built):
    out, _ = built
    train, val = read_rows(out / "train.parquet"), read_rows(out / "val.parquet")
    assert (len(train), len(val)) == (2 * 3 * 30, 2 * 4 * 10)
    assert {r["data_source"] for r in train} == {"countdown", "arc"}
    assert {r["data_source"] for r in val} == {f"{t}/{lv}" for t in FAST for lv in (1, 2, 3, 4)}
    arms = {(r["extra_info"]["type"], r["extra_info"]["difficulty"]) for r in train}
    assert arms == {(t, lv) for t in FAST for lv in (1, 2, 3)}
    for i, row in enumerate(train + val):
        validate_row(row, f"row {i}")
    assert [r["extra_info"]["index"] for r in train] == list(range(len(train)))


def test_validation_is_disjoint_from_training_by_puzzle_key(built):
    out, _ = built
    train_keys = {r["extra_info"]["key"] for r in read_rows(out / "train.parquet")}
    val_keys = {r["extra_info"]["key"] for r in read_rows(out / "val.parquet")}
    assert train_keys.isdisjoint(val_keys)


def test_levels_match_the_recipe(built):
    out, _ = built
    for row in read_rows(out / "val.parquet"):
        info, truth = row["extra_info"], row["reward_model"]["ground_truth"]
        if info["type"] == "countdown":
            numbers = json.loads(truth)["numbers"]
            assert len(numbers) == info["difficulty"] + 2  # 3/4/5/6 numbers
            assert all(1 <= n <= 100 for n in numbers) and 1 <= json.loads(truth)["target"] <= 1000
        else:  # ARC-1D grids of length 10/20/30/40
            assert len(truth.split()) == 10 * info["difficulty"]


def test_every_gold_scores_one_and_prompts_are_the_papers(built):
    out, _ = built
    assert check_file(out / "train.parquet", quiet=True)["no_gold"] == 0
    row = read_rows(out / "train.parquet")[0]
    text = row["prompt"][0]["content"]
    assert (
        text.startswith("Using the numbers ")
        and "You need to use each number exactly once." in text
    )
    assert "within \\boxed{}" in text


def test_same_seed_writes_the_same_bytes(tmp_path):
    for name in ("a", "b"):
        build_multi_level(tmp_path / name, 8, 4, seed=11, tasks=FAST, quiet=True)
    for f in ("train.parquet", "val.parquet"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    build_multi_level(tmp_path / "c", 8, 4, seed=12, tasks=FAST, quiet=True)
    assert (tmp_path / "a" / "train.parquet").read_bytes() != (
        tmp_path / "c" / "train.parquet"
    ).read_bytes()


def test_countdown_puzzles_are_solvable_by_their_own_solution():
    rng = random.Random(0)
    for n in (3, 4, 5, 6):
        for _ in range(50):
            numbers, target, expr = countdown_puzzle(rng, n)
            truth = json.dumps({"target": target, "numbers": numbers})
            assert len(numbers) == n and 1 <= target <= 1000
            assert score("countdown", f"\\boxed{{{expr}}}", truth).correct


def test_zebra_shard_rows_are_gold_checked():
    rows, rejects = build_shard(Shard("zebra", 1, "train", 3, seed=5))
    assert len(rows) == 3 and not any(k.startswith("gold_rejected") for k in rejects)
    text = rows[0]["prompt"][0]["content"]
    assert "There are 3 houses" in text and text.endswith("put it in \\boxed{}.")
    # the puzzle's names travel with the row: another of them in the box is a hedge
    for row in rows:
        assert sorted(row["extra_info"]["names"]) == ["alice", "arnold", "bob"]  # SEC's first 3
        assert row["reward_model"]["ground_truth"] in row["extra_info"]["names"]
        # carol is no person of a 3-house puzzle: read past as a note
        box = f"\\boxed{{{row['reward_model']['ground_truth']} (carol)}}"
        assert compute_score("zebra", box, row["reward_model"]["ground_truth"],
                             row["extra_info"])["score"] == 1.0  # fmt: skip
        other = next(
            n for n in row["extra_info"]["names"] if n != row["reward_model"]["ground_truth"]
        )
        box = f"\\boxed{{{row['reward_model']['ground_truth']} ({other})}}"
        assert compute_score("zebra", box, row["reward_model"]["ground_truth"],
                             row["extra_info"])["reason"] == "hedged"  # fmt: skip


def test_check_names_the_row_with_a_wrong_gold(built, tmp_path):
    out, _ = built
    rows = read_rows(out / "val.parquet")
    rows[5]["reward_model"]["ground_truth"] = (
        "9 9 9"
        if rows[5]["extra_info"]["type"] == "arc"
        else (json.dumps({"target": 1001, "numbers": [1, 2, 3]}))
    )
    write_parquet(rows, tmp_path / "bad.parquet")
    with pytest.raises(UserError, match=r"1 gold answer\(s\) do not score 1: row 5"):
        check_file(tmp_path / "bad.parquet", quiet=True)


def test_check_of_a_malformed_file_is_one_clear_error(tmp_path):
    import pyarrow as pa

    pq.write_table(pa.table({"data_source": ["x"], "prompt": ["hi"]}), tmp_path / "m.parquet")
    res = subprocess.run(["pac-verl", "prep", "check", str(tmp_path / "m.parquet")],
                         capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 2
    assert "m.parquet: missing column 'ability'" in res.stderr
    assert "Traceback" not in res.stderr


def test_prep_multi_domain_subcommand_builds_the_offline_logic_arm(tmp_path):
    res = subprocess.run(["pac-verl", "prep", "multi-domain", "--out", str(tmp_path), "--offline-logic-only",
                          "--limit", "2"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "simple statements only, NOT the paper's data" in " ".join(res.stdout.split())
    assert {r["data_source"] for r in read_rows(tmp_path / "val.parquet")} == {"kk6"}
    assert check_file(tmp_path / "train.parquet", quiet=True)["no_gold"] == 0


def test_files_do_not_depend_on_the_number_of_workers(tmp_path):
    # 2 tasks x 3 levels x 400 rows is above the serial threshold, so workers=2 uses the pool.
    for name, workers in (("serial", 1), ("pool", 2)):
        build_multi_level(tmp_path / name, 400, 4, seed=5, tasks=FAST, workers=workers, quiet=True)
    for f in ("train.parquet", "val.parquet"):
        assert (tmp_path / "serial" / f).read_bytes() == (tmp_path / "pool" / f).read_bytes()
