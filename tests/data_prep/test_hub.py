"""``pac-verl prep multi-domain`` from local copies of the seven hub datasets (tests/fixtures).

The fixtures have the real repositories' layouts and columns (written by
scripts/make_multi_domain_fixtures.py); ``datasets.load_dataset`` reads them as it reads the hub.
Expected counts are the fixtures' by construction: DAPO holds 6 problems 3 times each, one with a
gold cut off mid-expression, one in Chinese and one that is a MATH-500 problem up to case and
spacing (3 are kept); Code-R1 holds 4 tasks, one without tests and one whose prompt is
120 x "Be careful with long inputs." (6 word-level tokens each: 720 tokens, over a cap of 200; the
others stay under 100); K&K 4 puzzles per training file and 3 with 6 people.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from verl_helpers import make_tokenizer

from pac_verl.data_prep import multi_domain, sources
from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.rows import read_rows, validate_row
from pac_verl.errors import UserError

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests/fixtures/multi_domain"
LOCAL = {
    "math": FIX / "BytedTsinghua-SIA/DAPO-Math-17k",
    "code": FIX / "ganler/code-r1-12k",
    "kk": FIX / "K-and-K/knights-and-knaves",
    "math500": FIX / "HuggingFaceH4/MATH-500",
    "amc23": FIX / "AI-MO/aimo-validation-amc",
    "aime24": FIX / "HuggingFaceH4/aime_2024",
    "bigcodebench": FIX / "bigcode/bigcodebench",
}


@pytest.fixture(scope="module")
def tok(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tok")
    make_tokenizer(folder)
    return folder


def build(out: Path, tok: Path | None, *extra: str, local=LOCAL, cache: Path | None = None):
    argv = ["--out", str(out), "--cache-dir", str(cache or out.parent / "hf-cache")]
    argv += ["--math-pool", "dapo"]  # these fixtures are the hub's; SEC's pool: test_data_prep_sec
    argv += [a for name, path in local.items() for a in ("--source", f"{name}={path}")]
    argv += ["--tokenizer", str(tok), "--max-code-prompt-tokens", "200"] if tok else []
    parser = argparse.ArgumentParser()
    multi_domain.add_arguments(parser)
    return multi_domain.run(parser.parse_args(argv + list(extra)))


@pytest.fixture(scope="module")
def built(tmp_path_factory, tok):
    out = tmp_path_factory.mktemp("md") / "out"
    assert build(out, tok) == 0
    return read_rows(out / "train.parquet"), read_rows(out / "val.parquet"), out


def by_source(rows):
    groups: dict[str, list] = {}
    for r in rows:
        groups.setdefault(r["data_source"], []).append(r)
    return groups


def user(row):
    return [m["content"] for m in row["prompt"] if m["role"] == "user"][-1]


def test_counts_per_data_source(built):
    train, val, _ = built
    counts = {k: len(v) for k, v in by_source(train + val).items()}
    assert counts == {"math": 3, "code": 2, "kk": 12, "math500": 3, "amc23": 3, "aime24": 2,
                      "bigcodebench": 2, "kk6": 3}  # fmt: skip
    assert {r["extra_info"]["split"] for r in train} == {"train"}
    assert {r["extra_info"]["split"] for r in val} == {"test"}
    for i, r in enumerate(train + val):
        validate_row(r, f"row {i}")
    for group in by_source(train + val).values():  # index is the position within data_source
        assert [r["extra_info"]["index"] for r in group] == list(range(len(group)))


def test_dapo_deduplicated_unframed_and_unreadable_gold_dropped(built):
    math = by_source(built[0])["math"]
    assert [r["reward_model"]["ground_truth"] for r in math] == ["1", "9", "96"]
    assert user(math[0]) == (
        "What is the remainder when $7^{4}$ is divided by $10$?\nPut the final answer within \\boxed{}."
    )
    assert all("Answer:" not in user(r) for r in math)
    assert {r["extra_info"]["type"] for r in math} == {"math"}


def test_code_r1_keeps_tests_and_drops_long_and_testless_prompts(built):
    code = by_source(built[0])["code"]
    src = pq.read_table(LOCAL["code"] / "data/train-00000-of-00001.parquet").to_pylist()
    assert [r["reward_model"]["ground_truth"] for r in code] == [
        src[0]["reward_model"]["ground_truth"], src[1]["reward_model"]["ground_truth"]]  # fmt: skip
    assert code[0]["prompt"][0] == {"role": "system", "content": sources.CODE_SYSTEM}
    assert user(code[1]) == src[1]["prompt"][1]["content"]
    assert [r["extra_info"]["dataset"] for r in code] == [
        "LeetCodeDataset",
        "likaixin/TACO-verified",
    ]


def test_kk_ground_truth_is_the_source_solution_and_question_is_asked_once(built):
    train, val, _ = built
    kk = by_source(train)["kk"]
    assert [r["extra_info"]["people"] for r in kk] == [3] * 4 + [4] * 4 + [5] * 4
    first = json.loads((LOCAL["kk"] / "train/people3_num1000.jsonl").read_text().splitlines()[0])
    assert json.loads(kk[0]["reward_model"]["ground_truth"]) == {
        "names": first["names"], "solution": first["solution"]}  # fmt: skip
    assert user(kk[0]).count("So who is a knight and who is a knave?") == 1
    assert {r["extra_info"]["people"] for r in by_source(val)["kk6"]} == {6}


def test_benchmarks_answers_and_bigcodebench_gold(built):
    val = by_source(built[1])
    assert [r["reward_model"]["ground_truth"] for r in val["amc23"]] == ["142", "0.75", "4"]
    assert [r["reward_model"]["ground_truth"] for r in val["aime24"]] == ["204", "024"]
    assert val["math500"][0]["extra_info"]["source_id"] == "test/prealgebra/1.json"
    bcb = val["bigcodebench"][0]
    truth = json.loads(bcb["reward_model"]["ground_truth"])
    assert truth["entry_point"] == "task_func" and "class TestCases" in truth["test"]
    assert bcb["extra_info"]["solution"].startswith("import itertools\ndef task_func(")
    assert bcb["extra_info"]["source_id"] == "BigCodeBench/0"


def test_every_gold_scores_one_in_prep_check(built):
    _, _, out = built
    train = check_file(out / "train.parquet", quiet=True)
    val = check_file(out / "val.parquet", quiet=True)  # runs BigCodeBench's tests in the sandbox
    assert train["no_gold"] == 2  # Code-R1 ships no verified solution
    assert val["no_gold"] == 0 and val["rows"] == 13


def test_same_sources_same_bytes(built, tmp_path, tok):
    assert build(tmp_path / "again", tok) == 0
    for name in ("train.parquet", "val.parquet"):
        assert (tmp_path / "again" / name).read_bytes() == (built[2] / name).read_bytes()


def test_bigcodebench_hard_subset(tmp_path):
    local = {"bigcodebench": FIX / "bigcode/bigcodebench-hard"}
    assert (
        build(tmp_path / "o", None, "--only", "bigcodebench", "--subset", "hard", local=local) == 0
    )
    rows = read_rows(tmp_path / "o/val.parquet")
    assert len(rows) == 1 and rows[0]["extra_info"]["subset"] == "hard"
    assert not (tmp_path / "o/train.parquet").exists()


def test_limit_counts_kept_rows_after_dedup(tmp_path):
    local = {k: LOCAL[k] for k in ("math", "kk")}
    assert build(tmp_path / "o", None, "--only", "math,kk", "--limit", "2", local=local) == 0
    rows = by_source(read_rows(tmp_path / "o/train.parquet"))
    assert len(rows["math"]) == 2 and len(rows["kk"]) == 3 * 2
    assert len(read_rows(tmp_path / "o/val.parquet")) == 2


def test_one_file_as_a_source(tmp_path):
    local = {"math500": FIX / "HuggingFaceH4/MATH-500/test.jsonl"}
    assert build(tmp_path / "o", None, "--only", "math500", local=local) == 0
    assert len(read_rows(tmp_path / "o/val.parquet")) == 3
    with pytest.raises(UserError, match="pass the dataset's folder"):
        build(tmp_path / "p", None, "--only", "kk",
              local={"kk": LOCAL["kk"] / "test/people6_num100.jsonl"})  # fmt: skip


def test_offline_logic_arm_needs_no_hub(tmp_path):
    assert build(tmp_path / "o", None, "--offline-logic-only", "--limit", "2", local={}) == 0
    rows = read_rows(tmp_path / "o/train.parquet") + read_rows(tmp_path / "o/val.parquet")
    assert {r["data_source"] for r in rows} == {"kk", "kk6"} and len(rows) == 4 * 2


# -- bad input: one clear message naming source, record and field; nothing written --------------


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_missing_field_names_source_record_and_field(tmp_path):
    bad = [
        {"problem": "1+1?", "answer": "2", "unique_id": "a"},
        {"problem": "2+2?", "unique_id": "b"},
    ]
    path = write_jsonl(tmp_path / "m500/test.jsonl", bad)
    out = tmp_path / "o"
    out.mkdir()
    (out / "val.parquet").write_bytes(b"earlier build")
    with pytest.raises(UserError, match=r"source math500 .* record 1: .*answer"):
        build(out, None, "--only", "math500", "--force", local={"math500": path})
    assert (out / "val.parquet").read_bytes() == b"earlier build"  # --force keeps it until the end


def test_malformed_code_ground_truth_is_an_error(tmp_path):
    src = pq.read_table(LOCAL["code"] / "data/train-00000-of-00001.parquet").to_pylist()
    src[1]["reward_model"]["ground_truth"] = "{not json"
    path = tmp_path / "code.jsonl"
    write_jsonl(path, src)
    with pytest.raises(
        UserError, match=r"source code .* record 1: reward_model.ground_truth is not JSON"
    ):
        build(tmp_path / "o", None, "--only", "code", "--max-code-prompt-tokens", "0",
              local={"code": path})  # fmt: skip
    assert not (tmp_path / "o").exists()


def test_unreadable_benchmark_gold_is_fatal_not_dropped(tmp_path):
    path = write_jsonl(
        tmp_path / "aime.jsonl", [{"id": 1, "problem": "p", "answer": "\\frac{1}{2"}]
    )
    with pytest.raises(UserError, match="a benchmark row cannot be dropped"):
        build(tmp_path / "o", None, "--only", "aime24", local={"aime24": path})


def test_empty_source_and_unknown_names(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    with pytest.raises(UserError, match="amc23"):
        build(tmp_path / "o", None, "--only", "amc23", local={"amc23": path})
    with pytest.raises(UserError, match="unknown source 'gsm8k'; choose from math, code, kk"):
        build(tmp_path / "o", None, local={"gsm8k": path})
    with pytest.raises(UserError, match="NAME=HUB_ID_OR_PATH"):
        build(tmp_path / "o", None, "--source", "math500", local={})
    with pytest.raises(UserError, match="only kk has an offline generator"):
        build(tmp_path / "o", None, local={"math": "generate"})


def test_code_filter_without_tokenizer_says_what_to_pass(tmp_path):
    with pytest.raises(UserError, match="--max-code-prompt-tokens 0"):
        build(tmp_path / "o", tmp_path / "no-such-tokenizer", "--only", "code",
              local={"code": LOCAL["code"]})  # fmt: skip


def test_unreachable_hub_says_how_to_download(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf")}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "pac_verl.cli", "prep", "multi-domain", "--out", str(tmp_path / "o"),
         "--only", "aime24"], capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "hf download --repo-type dataset HuggingFaceH4/aime_2024" in proc.stderr
    assert "--source aime24=DIR" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_fixtures_are_what_the_script_writes(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts/make_multi_domain_fixtures.py"),
                    str(tmp_path)], check=True, capture_output=True)  # fmt: skip
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(FIX) for p in FIX.rglob("*") if p.is_file())
    assert written == committed
    for rel in written:
        if rel.suffix == ".parquet":
            assert pq.read_table(tmp_path / rel).to_pylist() == pq.read_table(FIX / rel).to_pylist()
        else:
            assert (tmp_path / rel).read_text() == (FIX / rel).read_text()


def test_the_build_passes_the_multi_domain_preflight(built, tok, monkeypatch, tmp_path):
    """verl's RLHFDataset and our sampler on the built files: three arms (math, code, logic), and
    3 batches of 6 prompts drawn from 17 training rows (the draw crosses epochs). The paper's 256
    would need 86 prompts per arm, which the preflight refuses on these fixtures (code has 2)."""
    from pac_verl.checks.preflight import run
    from pac_verl.errors import UserError

    monkeypatch.chdir(tmp_path)
    setting = ["setting=multi_domain", f"setting.data_dir={built[2]}"]
    with pytest.raises(UserError, match=r"arm 'code' has 2 rows .*fewer than the 86 prompts"):
        run(setting, str(tok), batches=3)
    out = run([*setting, "data.train_batch_size=6"], str(tok), batches=3)
    assert set(out["arms"]) == {"math", "code", "logic"}
    assert sum(out["shares"].values()) == 3 * 6
    assert {ds for ds, _ in out["gold"]} == {"math500", "amc23", "aime24", "bigcodebench", "kk6"}
    assert {status for _, status in out["gold"]} == {"ok"}


def test_rows_hold_the_task_and_the_frame_is_no_build_option(tmp_path):
    """The paper's frame is the chat template of backbone.prompt_style=completion, applied at train
    time (tests/data_prep/test_prompt_style.py): a build asked to write it into the rows says so, and writes
    nothing."""
    local = {k: LOCAL[k] for k in ("math", "code")}
    with pytest.raises(
        UserError, match=r"applied at train time by backbone\.prompt_style=completion"
    ):
        build(tmp_path / "o", None, "--only", "math,code", "--prompt-style", "completion",
              "--max-code-prompt-tokens", "0", local=local)  # fmt: skip
    assert not (tmp_path / "o" / "train.parquet").exists()
    assert build(tmp_path / "o", None, "--only", "math,code", "--max-code-prompt-tokens", "0",
                 local=local) == 0  # fmt: skip
    rows = by_source(read_rows(tmp_path / "o/train.parquet"))
    for row in rows["math"] + rows["code"]:
        assert not user(row).startswith("A conversation between User and Assistant.")
    assert [m["role"] for m in rows["code"][0]["prompt"]] == ["system", "user"]
    assert rows["code"][0]["prompt"][0]["content"] == sources.CODE_SYSTEM
    assert len(rows["code"]) == 3  # no length cap: only the task without tests is dropped


def test_dapo_is_english_only_by_default_and_validation_questions_leave_training(tmp_path):
    only = ("--only", "math,math500")
    assert build(tmp_path / "en", None, *only) == 0
    assert build(tmp_path / "all", None, *only, "--all-languages") == 0
    en, everything = (
        by_source(read_rows(tmp_path / d / "train.parquet"))["math"] for d in ("en", "all")
    )
    assert [r["reward_model"]["ground_truth"] for r in en] == ["1", "9", "96"]
    assert [r["reward_model"]["ground_truth"] for r in everything] == ["1", "9", "96", "5"]
    manifest = json.loads((tmp_path / "en" / "data_manifest.json").read_text())
    assert manifest["math_pool"] == "dapo"
    # the sixth DAPO problem is MATH-500's "Solve $x^2 = 9$ for $x > 0$." up to case and spacing
    assert manifest["removed_from_training_as_validation"] == {"math train": 1}
