import json

from pac_verl.data_prep import kk
from pac_verl.data_prep.rows import validate_row
from pac_verl.verifiers import score
from pac_verl.verifiers.knights_knaves import solution_text


def test_hand_checked_unique_solution():
    # A says "B is a knave", B says "A and B are the same type".
    # A=knight,B=knave: A true ok; B's claim (same) false, B knave ok -> consistent.
    # A=knave,B=knight: A's claim true but A knave -> no. A,B knights: A's claim false -> no.
    # A,B knaves: A's claim (B knave) true but A knave -> no.  So exactly one solution.
    stmts = [("knave", 1, 0), ("same", 0, 1)]
    assert kk.solutions(stmts, 2) == [(True, False)]


def test_rows_unique_deterministic_and_gold_scores_one():
    rows = kk.build(4, 5, "train", seed=0)
    assert rows == kk.build(4, 5, "train", seed=0)
    for i, row in enumerate(rows):
        validate_row(row, f"kk row {i}")
        assert row["data_source"] == "kk" and row["extra_info"]["type"] == "logic"
        gt = row["reward_model"]["ground_truth"]
        assert score("logic", solution_text(gt), gt).score == 1.0
        assert len(json.loads(gt)["names"]) == 4
    val = kk.build(6, 2, "test", seed=0)
    assert val[0]["data_source"] == "kk6"


def test_prompt_says_where_the_final_answer_goes_and_that_form_is_graded():
    row = kk.build(4, 1, "train", seed=0)[0]
    text = row["prompt"][0]["content"]
    truth = json.loads(row["reward_model"]["ground_truth"])
    assert "<answer>" in text and "</answer>" in text
    assert "knight/knave" not in text  # a placeholder that reads as a hedge
    # a response that fills the prompt's own answer template with the true roles scores 1
    template = text[text.rindex("<answer>") :]
    filled = template
    for name, knight in zip(truth["names"], truth["solution"]):
        filled = filled.replace(
            f"{name} is a ...", f"{name} is a {'knight' if knight else 'knave'}"
        )
    gt = row["reward_model"]["ground_truth"]
    response = "Suppose everyone is a knight... no.\n" + filled
    assert score("logic", response, gt).reason == "ok"
    assert score("logic", template, gt).reason == "missing_person"  # the template left unfilled
