"""Rebuilds that never lose work: refuse, lock, stage, publish; fingerprints."""

import hashlib
import json
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pac_verl.data_prep.fingerprint import data_record, file_fingerprint
from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.data_prep.publish import LOCK, BuildFolder
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError

FAST = ("countdown",)


def build(out, train=4, force=False):
    return build_multi_level(out, train_per_arm=train, val_per_level=2, seed=1, tasks=FAST,
                             quiet=True, force=force)  # fmt: skip


def row(source, split="train"):
    return make_row(data_source=source, prompt="p", task_type="math", ground_truth="1",
                    split=split, index=0)  # fmt: skip


def test_a_second_build_into_a_full_folder_is_refused_and_changes_nothing(tmp_path):
    build(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(UserError, match=r"is not empty .*pass --force"):
        build(tmp_path, train=2)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    build(tmp_path, train=2, force=True)
    assert pq.read_metadata(tmp_path / "train.parquet").num_rows == 3 * 2  # 3 levels x 2


def test_force_never_removes_files_it_did_not_write(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match=r"did not write \(notes.txt\)"):
        build(tmp_path, force=True)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_second_build_while_one_is_writing_fails_at_once(tmp_path):
    with BuildFolder(tmp_path / "o"):
        res = subprocess.run(["pac-verl", "prep", "multi-level", "--out", str(tmp_path / "o"),
                              "--tasks", "countdown", "--train-per-arm", "2", "--val-per-level",
                              "1"], capture_output=True, text=True)  # fmt: skip
    assert res.returncode == 2 and "Traceback" not in res.stderr
    import os

    assert f"another pac-verl prep (pid {os.getpid()}) is writing this folder now" in res.stderr
    assert not (tmp_path / "o" / "train.parquet").exists()


def test_a_full_disk_is_one_line_and_the_earlier_build_stays(tmp_path, monkeypatch):
    build(tmp_path)
    before = (tmp_path / "train.parquet").read_bytes()

    def full(table, where, **kw):  # what pyarrow raises on a full file system
        raise OSError(28, "Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(
        UserError, match=r"no space left on device while writing train.parquet"
    ) as e:
        build(tmp_path, train=2, force=True)
    assert "\n" not in str(e.value)
    assert (tmp_path / "train.parquet").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [LOCK, "data_manifest.json", "train.parquet", "val.parquet"]
    )  # no staging folder left behind


def test_a_failed_build_into_a_new_folder_leaves_no_folder(tmp_path):
    with pytest.raises(RuntimeError), BuildFolder(tmp_path / "new" / "o"):
        raise RuntimeError("the build failed")
    assert not (tmp_path / "new").exists()


def test_the_manifest_fingerprints_the_published_files(tmp_path):
    build(tmp_path)
    manifest = json.loads((tmp_path / "data_manifest.json").read_text())
    assert manifest["setting"] == "multi-level" and manifest["options"]["train_per_arm"] == 4
    train = manifest["files"]["train.parquet"]
    assert train["sha256"] == hashlib.sha256((tmp_path / "train.parquet").read_bytes()).hexdigest()
    assert train["rows"] == 3 * 4 and train["rows_per_source"] == {"countdown": 12}
    assert manifest["files"]["val.parquet"]["rows_per_source"] == {
        f"countdown/{lv}": 2 for lv in (1, 2, 3, 4)
    }


def test_file_fingerprint_counts_rows_per_source(tmp_path):
    write_parquet([row("math"), row("math"), row("code")], tmp_path / "t.parquet")
    fp = file_fingerprint(tmp_path / "t.parquet")
    assert fp["rows"] == 3 and fp["rows_per_source"] == {"code": 1, "math": 2}
    assert fp["bytes"] == (tmp_path / "t.parquet").stat().st_size
    with pytest.raises(UserError, match="no such parquet file"):
        file_fingerprint(tmp_path / "missing.parquet")


def test_data_record_says_whether_each_file_is_the_one_its_build_wrote(tmp_path):
    build(tmp_path / "ml")
    write_parquet([row("math500", "test")], tmp_path / "other" / "val.parquet")
    record = data_record(str(tmp_path / "ml" / "train.parquet"),
                         [tmp_path / "ml" / "val.parquet", tmp_path / "other" / "val.parquet"])  # fmt: skip
    assert [fp["rows"] for fp in record["train"]] == [12]
    assert [fp["matches_manifest"] for fp in record["val"]] == [True, None]
    assert record["manifests"][str((tmp_path / "ml").resolve())]["setting"] == "multi-level"
    assert record["math_pool"] is None
    write_parquet([row("countdown")], tmp_path / "ml" / "train.parquet")  # replaced by hand
    assert (
        data_record(tmp_path / "ml" / "train.parquet", [])["train"][0]["matches_manifest"] is False
    )


def test_a_file_the_writer_left_short_is_caught_before_it_is_published(tmp_path, monkeypatch):
    real = pq.write_table

    # a writer that returns without raising but leaves the file short (what an older pyarrow did
    # on a full disk): the first half of the parquet bytes, so its footer is missing
    def short(table, where, **kw):
        real(table, where, **kw)
        data = Path(where).read_bytes()
        Path(where).write_bytes(data[: len(data) // 2])

    monkeypatch.setattr(pq, "write_table", short)
    with pytest.raises(UserError, match=r"train.parquet was not written whole .*disk full"):
        build(tmp_path / "o")
    assert not (tmp_path / "o").exists()
