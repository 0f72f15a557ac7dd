"""`pac-verl preflight` end to end on generated data, and its clear errors."""

import subprocess

import pytest

from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.errors import UserError
from pac_verl.verl.preflight import run


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("pf")
    build_multi_level(out, 8, 2, seed=1, quiet=True, workers=1)
    return out


def test_preflight_draws_batches_and_scores_every_gold(data_dir, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=9", "curriculum=random"],
                  batches=4)  # fmt: skip
    assert len(out["arms"]) == 9
    assert sum(out["shares"].values()) == 4 * 9
    assert sum(n for (ds, status), n in out["gold"].items() if status == "ok") == 3 * 4 * 2
    assert not any(status != "ok" for _, status in out["gold"])


def test_missing_data_file_names_the_key(tmp_path):
    with pytest.raises(UserError, match=r"data.train_files: no such file .*nowhere/train.parquet"):
        run([f"setting.data_dir={tmp_path / 'nowhere'}"])


def test_bad_override_is_one_clear_error(data_dir, tmp_path):
    res = subprocess.run(["pac-verl", "preflight", f"setting.data_dir={data_dir}", "curriculum=pcc"],
                         capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert res.returncode == 2
    assert "pac-verl preflight: error: config:" in res.stderr and "pcc" in res.stderr
    assert "Traceback" not in res.stderr


def test_preflight_draws_past_the_end_of_a_small_training_file(data_dir, monkeypatch, tmp_path):
    # 72 training rows hold no whole batch of 256: each draw starts a new epoch, as verl's loop does
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match="prompt-length filter skipped"):
        out = run([f"setting.data_dir={data_dir}", "data.train_batch_size=256"], batches=3)
    assert sum(out["shares"].values()) == 3 * 256
