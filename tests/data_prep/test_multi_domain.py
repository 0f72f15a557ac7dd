import argparse

from pac_verl.data_prep import multi_domain
from pac_verl.data_prep.rows import read_rows, validate_row


def _args(*argv):
    p = argparse.ArgumentParser()
    multi_domain.add_arguments(p)
    return p.parse_args(list(argv))


def test_offline_logic_only_builds_kk_train_and_kk6_val(tmp_path):
    assert (
        multi_domain.run(_args("--out", str(tmp_path), "--offline-logic-only", "--limit", "3")) == 0
    )
    train, val = read_rows(tmp_path / "train.parquet"), read_rows(tmp_path / "val.parquet")
    assert len(train) == 3 * 3 and len(val) == 3  # 3 sizes x limit 3; validation capped at 3
    assert {r["data_source"] for r in train} == {"kk"} and {r["data_source"] for r in val} == {
        "kk6"
    }
    for i, r in enumerate(train + val):
        validate_row(r, f"row {i}")
