"""reasoning-gym's misspelt Zebra phrases ("the person who loves the boquet of" iris, lilies and
orchid; "the person who loves the spaghetti eater") never reach a generated puzzle: not its prompt,
not its ground truth, not its key; the ground truth still scores 1 with the Zebra verifier, and a
puzzle of SEC's release, which keeps the typos, is still the same puzzle as ours."""

import pandas as pd
import pytest

from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.data_prep.overlap import puzzle_key, user_text
from pac_verl.data_prep.zebra import categories, fix_typos
from pac_verl.verifiers import gold_solution, score

TYPOS = ("boquet", "loves the spaghetti eater")
FIXED = ("the bouquet of iris", "the bouquet of lilies", "the bouquet of orchid",
         "the spaghetti eater")  # fmt: skip


def test_no_category_phrase_keeps_a_typo():
    phrases = [p for cat in categories() for p in cat.phrases]
    assert not [p for p in phrases if any(t in p for t in TYPOS)]
    for fixed in FIXED:  # reasoning-gym's values are all still there, spelt right
        assert sum(fixed in p for p in phrases) == 1, fixed


@pytest.mark.slow
def test_generated_prompts_and_truths_have_no_typo_and_still_verify(tmp_path):
    # the multi-level build's own path; 5x5 (training level 3) draws all seven lunches and flowers
    build_multi_level(tmp_path, train_per_arm=150, val_per_level=40, seed=3, workers=1,
                      tasks=("zebra",), quiet=True, force=True)  # fmt: skip
    rows = [r for split in ("train", "val")
            for r in pd.read_parquet(tmp_path / f"{split}.parquet").to_dict("records")]  # fmt: skip
    assert len(rows) == 3 * 150 + 4 * 40
    prompts = [user_text(r["prompt"]) for r in rows]
    # the sample holds the phrases that used to be misspelt, many times each
    for fixed in FIXED:
        assert sum(fixed in p.lower() for p in prompts) >= 10, fixed
    assert [p for p in prompts if any(t in p.lower() for t in TYPOS)] == []
    for row in rows:
        truth = row["reward_model"]["ground_truth"]
        assert not any(t in str(truth).lower() for t in TYPOS)
        gold = gold_solution("zebra", truth, row["extra_info"])
        assert score("zebra", gold, truth).correct, truth


def test_a_puzzle_with_the_typos_is_the_same_puzzle_without_them():
    def row(clues):
        text = "This is a logic puzzle.\n" + "\n".join(f"{i}. {c}" for i, c in enumerate(clues, 1))
        return {"prompt": [{"role": "user", "content": text}],
                "reward_model": {"ground_truth": "bob"}, "extra_info": {"type": "zebra"}}  # fmt: skip

    sec = ["The person who loves the boquet of iris is Bob.",
           "The person who loves the spaghetti eater is directly left of Alice."]  # fmt: skip
    ours = ["The person who loves the bouquet of iris is Bob.",
            "The spaghetti eater is directly left of Alice."]  # fmt: skip
    assert [fix_typos(c) for c in sec] == ours
    assert puzzle_key(row(sec)) == puzzle_key(row(ours))
    assert puzzle_key(row(sec)) != puzzle_key(
        row(["The person who loves the rose bouquet is Bob."])
    )
