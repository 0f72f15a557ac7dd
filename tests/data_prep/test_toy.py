"""The miniature (docs/results/miniature.md): the toy verifier, ``pac-verl prep toy`` (data and the tiny model),
the ``toy`` setting and ``tiny-cpu`` backbone, and the report's toy table.

Training on it for real: ``tests/recipes/test_toy_pipeline.py`` (a recipe, then the report) and
``tests/verl/test_real_workers.py`` (verl's workers, resume).
"""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from pac_verl.data_prep.rows import read_rows
from pac_verl.data_prep.toy import ARMS, CHARS, build_toy
from pac_verl.errors import UserError
from pac_verl.verifiers import compute_score, compute_scores, gold_solution, score
from pac_verl.verifiers.toy import score as toy_score

HEX = json.dumps({"rule": "charset", "chars": "0123456789abcdef"})
ZERO = json.dumps({"rule": "charset", "chars": "0"})
COPY = json.dumps({"rule": "exact", "text": "kqzv"})
ANY = json.dumps({"rule": "nonempty"})


def coin(p):
    return json.dumps({"rule": "coin", "p": p})


# ------------------------------------------------------------------------------------- verifier


@pytest.mark.parametrize(
    ("response", "truth", "expected", "reason"),
    [
        ("7zz", HEX, 1.0, "ok"),  # the first character decides
        ("  \n f", HEX, 1.0, "ok"),  # leading whitespace is not a character of the answer
        ("g7", HEX, 0.0, "not_in_set"),
        ("F", HEX, 0.0, "not_in_set"),  # the set is what it says: no case folding
        ("", HEX, 0.0, "empty"),
        (" \n", ZERO, 0.0, "empty"),
        ("0", ZERO, 1.0, "ok"),
        ("1", ZERO, 0.0, "not_in_set"),
        ("kqzv", COPY, 1.0, "ok"),
        (" kqzv\n", COPY, 1.0, "ok"),
        ("kqz", COPY, 0.0, "not_equal"),
        ("kqzvx", COPY, 0.0, "not_equal"),
        ("x", ANY, 1.0, "ok"),
        ("  ", ANY, 0.0, "empty"),
        ("1", coin(1.0), 1.0, "ok"),
        ("1", coin(0), 0.0, "coin_tails"),
    ],
)
def test_each_toy_rule(response, truth, expected, reason):
    assert toy_score(response, truth).score == expected
    assert toy_score(response, truth).reason == reason
    assert score("toy", response, truth).score == expected  # through the dispatcher


@pytest.mark.parametrize(
    "truth",
    ["", "not json", "[]", '{"rule": "regex"}', '{"rule": "charset", "chars": " "}',
     '{"rule": "exact"}', '{"rule": "coin", "p": 1.5}', '{"rule": "coin", "p": true}',
     '{"rule": "coin"}', None, 3],
)  # fmt: skip
def test_a_bad_ground_truth_scores_0_and_never_raises(truth):
    assert toy_score("0", truth).reason == "bad_ground_truth"


@pytest.mark.parametrize("response", [None, 3, b"0", "0" * 1_000_000, "\x00\ud800"])
def test_hostile_responses_never_raise(response):
    assert toy_score(response, HEX).score in (0.0, 1.0)


def test_the_coin_is_independent_of_the_response():
    # one response 400 times: both outcomes, and a count of heads that a fair coin gives with
    # probability > 1 - 1e-8 (mean 200, sd 10: 6 sd either side)
    heads = sum(toy_score("0000", coin(0.5)).score for _ in range(400))
    assert 140 <= heads <= 260
    # every response, right or wrong for any other arm, gets the same chance
    for response in ("", "0", "kqzv", "anything"):
        outcomes = {toy_score(response, coin(0.5)).score for _ in range(60)}
        assert outcomes == {0.0, 1.0}  # fails with probability 2 * 2**-60 per response


def test_the_coin_through_the_scoring_pool_is_not_the_same_draw_in_every_worker():
    # scoring workers are forked from one zygote: a coin from an inherited RNG would repeat
    verdicts = compute_scores([("toy", "0", coin(0.5))] * 64, workers=2)
    assert {v.score for v in verdicts} == {0.0, 1.0}
    assert 8 <= sum(v.score for v in verdicts) <= 56  # mean 32, sd 4: 6 sd either side


def test_compute_score_gives_the_toy_verdict_and_counts_an_empty_answer_as_no_answer():
    info = {"type": "toy", "arm": "learn/3"}
    right = compute_score("toy/learn/3", "0", ZERO, info)
    assert (right["score"], right["acc"], right["reason"]) == (1.0, 1.0, "ok")
    empty = compute_score("toy/learn/3", " ", ZERO, info)
    assert (empty["score"], empty["has_answer"], empty["reason"]) == (0.0, 0.0, "empty")


def test_gold_solutions_score_1_and_the_coin_has_none():
    for truth in (HEX, ZERO, COPY, ANY):
        gold = gold_solution("toy", truth, {})
        assert gold is not None and toy_score(gold, truth).score == 1.0
    assert gold_solution("toy", coin(0.5), {}) is None


# -------------------------------------------------------------------------------------- builder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("toy")
    build_toy(root / "data", root / "model", train_per_arm=20, val_per_arm=5, seed=3, quiet=True)
    return root


def test_rows_per_arm_with_the_names_the_report_reads(built):
    train, val = (
        read_rows(built / "data" / "train.parquet"),
        read_rows(built / "data" / "val.parquet"),
    )
    assert len(train) == 20 * len(ARMS) and len(val) == 5 * len(ARMS)
    assert {r["data_source"] for r in train} == {"toy"}
    assert {r["data_source"] for r in val} == {f"toy/{a}" for a in ARMS}
    for r in train + val:
        info = r["extra_info"]
        assert info["type"] == "toy" and r["ability"] == "toy"
        assert r["data_source"] in ("toy", f"toy/{info['arm']}")
        truth = json.loads(r["reward_model"]["ground_truth"])
        assert truth["rule"] == ARMS[info["arm"]]["rule"]
    prompts = {r["prompt"][0]["content"] for r in train}
    assert not prompts & {r["prompt"][0]["content"] for r in val}  # held out
    for r in train:  # the unreachable arm's answer is the 4 letters its prompt shows
        if r["extra_info"]["arm"] == "unreachable":
            text = json.loads(r["reward_model"]["ground_truth"])["text"]
            assert r["prompt"][0]["content"] == f"copy: {text}" and len(text) == 4


def test_the_same_seed_writes_the_same_rows_and_prep_check_passes(built, tmp_path):
    from pac_verl.data_prep.check import check_file

    build_toy(tmp_path, None, train_per_arm=20, val_per_arm=5, seed=3, quiet=True)
    for name in ("train.parquet", "val.parquet"):
        assert pq.read_table(tmp_path / name).equals(pq.read_table(built / "data" / name))
        check_file(built / "data" / name, quiet=True)  # raises on a bad row or a failed gold


def test_the_tiny_model_reads_characters_with_a_pass_through_template(built):
    import torch
    from transformers import AutoModelForCausalLM
    from verl.utils import hf_tokenizer

    tok = hf_tokenizer(str(built / "model"))  # as verl loads it: transformers' Qwen2Tokenizer
    assert len(tok) == 3 + len(CHARS) == 99  # <pad> <unk> <eos> + printable ASCII (96)
    text = "learn/1: abc\nX ~"
    ids = tok(text).input_ids
    assert len(ids) == len(text) and tok.decode(ids) == text  # one token per character
    assert tok.decode([*tok(" 0").input_ids, tok.eos_token_id], skip_special_tokens=True) == " 0"
    chat = tok.apply_chat_template([{"role": "user", "content": text}], tokenize=False,
                                   add_generation_prompt=True)  # fmt: skip
    assert chat == text  # the prompt is the user text, as the paper gives base models raw text
    model = AutoModelForCausalLM.from_pretrained(built / "model", dtype=torch.float32)
    assert model.config.vocab_size == len(tok)
    assert model.config.eos_token_id == tok.eos_token_id == tok.convert_tokens_to_ids("<eos>")


def test_a_second_build_into_the_folder_needs_force_and_leaves_a_manifest(tmp_path):
    import json

    build_toy(tmp_path, None, train_per_arm=4, val_per_arm=2, seed=0, quiet=True)
    manifest = json.loads((tmp_path / "data_manifest.json").read_text())
    # six arms: 6 x 4 training rows and 6 x 2 validation rows
    assert (
        manifest["files"]["train.parquet"]["rows"],
        manifest["files"]["val.parquet"]["rows"],
    ) == (24, 12)
    with pytest.raises(UserError, match="--force"):
        build_toy(tmp_path, None, train_per_arm=8, val_per_arm=2, seed=0, quiet=True)
    build_toy(tmp_path, None, train_per_arm=8, val_per_arm=2, seed=0, quiet=True, force=True)
    assert (
        json.loads((tmp_path / "data_manifest.json").read_text())["options"]["train_per_arm"] == 8
    )


def test_an_unknown_arm_is_one_user_error(tmp_path):
    with pytest.raises(UserError, match="toy arms"):
        build_toy(tmp_path, None, arms=("learn/1", "learn/9"), quiet=True)


# --------------------------------------------------------------------------------------- config


def _compose(*overrides):
    from hydra import compose, initialize_config_module

    from pac_verl.resolvers import register_resolvers

    register_resolvers()
    with initialize_config_module("pac_verl.configs", version_base=None):
        return compose("pac_trainer", overrides=list(overrides))


def test_the_toy_setting_and_tiny_cpu_backbone_replace_the_base_values():
    cfg = _compose("setting=toy", "backbone=tiny-cpu", "curriculum=pac")
    assert str(cfg.trainer.experiment_name) == "toy__tiny-cpu__pac__seed0"
    assert (cfg.data.train_batch_size, cfg.actor_rollout_ref.rollout.n) == (12, 8)
    assert (cfg.data.max_prompt_length, cfg.data.max_response_length) == (24, 4)
    assert cfg.actor_rollout_ref.actor.optim.lr == 1e-2
    assert (cfg.trainer.total_training_steps, cfg.trainer.test_freq) == (30, 5)
    assert list(cfg.data.curriculum.arm_fields) == ["type", "arm"]
    assert cfg.data.curriculum.cold_start == 3  # the setting's, not PAC's 50
    assert cfg.actor_rollout_ref.model.path == "data/tiny-cpu"
    assert (cfg.trainer.device, cfg.actor_rollout_ref.rollout.name) == ("cpu", "hf")


def test_the_paper_settings_keep_the_base_values():
    cfg = _compose("setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac")
    assert (cfg.data.train_batch_size, cfg.actor_rollout_ref.actor.optim.lr) == (256, 1e-6)
    assert cfg.data.curriculum.cold_start == 50
    assert cfg.trainer.device == "cuda"


def test_a_controller_without_a_cold_start_gets_none_from_the_toy_setting():
    from pac_verl.curriculum.registry import check_curriculum

    cfg = _compose("setting=toy", "backbone=tiny-cpu", "curriculum=random")
    assert "cold_start" not in cfg.data.curriculum
    check_curriculum(dict(cfg.data.curriculum))  # no unknown key
    st = _compose("setting=toy", "backbone=tiny-cpu", "curriculum=single",
                  "curriculum.train_arms=[toy/learn]")  # fmt: skip
    assert str(st.trainer.experiment_name) == "toy__tiny-cpu__single-toy_learn__seed0"


# --------------------------------------------------------------------------------------- report


def _write_run(root, curriculum, seed, val, shares, steps=(0, 5, 10), train_arms=None):
    """A run folder as python -m pac_verl.main writes it: run.json and one metrics file."""
    from pac_verl.naming import experiment_name, single_label

    label = single_label(train_arms) if train_arms else curriculum
    name = experiment_name("toy", "tiny-cpu", label, seed)
    folder = root / name
    folder.mkdir(parents=True)
    info = {"experiment_name": name, "setting": "toy", "backbone": "tiny-cpu",
            "curriculum": label, "seed": seed, "window": 16, "total_steps": steps[-1]}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(info))
    lines = []
    for step in range(steps[-1] + 1):
        data = {f"curriculum/toy/{a}/share": s for a, s in shares.items()} if step else {}
        if step in steps:
            data |= {f"val-core/toy/{a}/acc/mean@1": v(step) for a, v in val.items()}
        lines.append(json.dumps({"step": step, "data": data}))
    (folder / "metrics-20260101T000000Z.jsonl").write_text("\n".join(lines) + "\n")


def _val(l1, l2, l3, sat=1.0, unreach=0.0, noise=0.5):
    """Validation that reaches the given learnable values at step 10, half of them at step 5."""
    final = {"learn/1": l1, "learn/2": l2, "learn/3": l3,
             "saturated": sat, "unreachable": unreach, "noise": noise}  # fmt: skip
    return {a: (lambda step, v=v: v * min(step, 10) / 10) for a, v in final.items()}


def test_the_toy_table_averages_the_learnable_arms_and_reports_the_budget(tmp_path):
    from pac_verl.report.cli import build_parser, report

    even = {a: 1 / 6 for a in ARMS}
    noisy = {"learn/1": 0.1, "learn/2": 0.1, "learn/3": 0.1, "saturated": 0.1,
             "unreachable": 0.1, "noise": 0.5}  # fmt: skip
    for seed, (a, b) in enumerate(((0.9, 0.6), (0.7, 0.4))):
        _write_run(tmp_path, "random", seed, _val(a, b, 0.0), even)
        _write_run(tmp_path, "sec", seed, _val(b, b, 0.0), noisy)
    _write_run(tmp_path, "single", 0, _val(1.0, 1.0, 1.0), {"learn/1": 0.5, "learn/2": 0.5},
               train_arms=["toy/learn"])  # fmt: skip
    text, _ = report(build_parser().parse_args([str(tmp_path)]))
    table = text[: text.index("Sample efficiency")]
    rows = {
        line.split(" | ")[0].lstrip("| "): line.replace("**", "") for line in table.splitlines()
    }
    # Random: learn/1 (0.9, 0.7) -> 0.8 +- 0.141; Avg. per seed (0.9+0.6+0)/3 = 0.5,
    # (0.7+0.4+0)/3 = 0.3667 -> 0.433 +- 0.094; the saturated and noise arms are not averaged
    assert "0.800 ± 0.141" in rows["Random"] and rows["Random"].endswith("0.433 ± 0.094 |")
    assert rows["SEC"].endswith("0.333 ± 0.094 |")  # (0.6+0.6)/3, (0.4+0.4)/3
    assert rows["ST"].split(" | ")[1:4] == ["1.000 (n=1)"] * 3  # single-toy_learn, one seed
    # budget: each method's mean share of the batch per arm, over its steps 1..10
    budget = text[text.index("Budget") :]
    sec_row = next(r for r in budget.splitlines() if r.startswith("| SEC"))
    assert sec_row.split(" | ")[1:] == ["0.100 ± 0.000"] * 5 + ["0.500 ± 0.000 |"]
    # sample efficiency: the reference is the best baseline (Random: final 0.433, first reached
    # at step 10); SEC's curve ends at 0.333 and never reaches it
    eff = text[text.index("Sample efficiency") : text.index("Budget")]
    assert "reach Random's final average 0.433" in eff
    assert "| SEC | 0.333 | not reached | - |" in eff
