"""Knights and Knaves: the final statement of every inhabitant's role scores 1 in any wording a
careful grader reads as complete and committed: lists, JSON, tables, group statements naming both
roles, statements about everyone (with a count, "none", an exception), truth-teller and liar,
verb ellipsis, "and so is Mia", "was", "has to be"; a claim an inhabitant made, restated, is
not the answer. The same phrasings stay graded: a wrong role is ``not_equal``, a person left out
``missing_person``, two roles for one person ``hedged``.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest
from knights_knaves_helpers import (
    BOTH,
    KK,
    KK_LIST,
    KK_WRONG,
    KNAVES,
    KNIGHTS,
    ONE_KNIGHT,
    RIGHT,
    ROLES,
    SK_MK,
    block,
    role,
)

from pac_verl.verifiers import score

HYPOTHESES = (
    "Suppose Grace is a knight. Then Noah is a knave, so Mia is a knight and Matthew is a knave,"
    " and Lily is a knight... that contradicts Mia's statement. So Grace is a knave.\n"
)


FIVE = json.dumps(
    {"names": ["Ava", "Leo", "Mia", "Noah", "Zoe"], "solution": [True, True, True, False, False]}
)
THREE = ["Emma", "Liam", "Ava"]
ALL_KNIGHTS = json.dumps({"names": THREE, "solution": [True] * 3})
ALL_KNAVES = json.dumps({"names": THREE, "solution": [False] * 3})
MIXED = json.dumps({"names": THREE, "solution": [True, False, True]})
NOAH_RUBY_OWEN = ["Noah", "Ruby", "Owen"]
NRO = json.dumps({"names": NOAH_RUBY_OWEN, "solution": [True, False, True]})
ZOEY_OWEN_AVA_LEO = ["Zoey", "Owen", "Ava", "Leo"]
TWO_KNIGHTS_TWO_KNAVES = json.dumps(
    {"names": ZOEY_OWEN_AVA_LEO, "solution": [True, False, True, False]}
)


@pytest.mark.parametrize(
    ("names", "solution", "response"),
    [
        (["Zoey", "Ethan", "Liam", "Ava"], [False] * 4, "All four of them are knaves."),
        (["Zoey", "Ethan", "Liam", "Ava"], [False] * 4, "<answer>All of them are knaves.</answer>"),
        (["Zoey", "Ethan", "Liam"], [True] * 3, "Everyone is a knight."),
        (["Zoey", "Ethan", "Liam"], [True] * 3, "<answer>Every one of them is a knight</answer>"),
        (["Zoey", "Ethan"], [True, True], "Both of them are knights."),
        (["Mia", "Noah"], [False, True], "Mia is the knave and Noah is the knight."),
        (["Mia", "Noah", "Ava"], [False, True, True], "Mia is the only knave."),
        (["Samuel", "Ella"], [True, False], "Samuel — knight\nElla — knave"),
        (["Samuel", "Ella"], [True, False], "Samuel's a knight and Ella's a knave."),
        (["Samuel", "Ella"], [True, False], "Samuel’s a knight, Ella’s a knave."),
        (["Zoey", "Ethan"], [True, False], "Everyone is a knight except Ethan, who is a knave."),
    ],
)
def test_kk_complete_answers_in_other_words(names, solution, response):
    truth = json.dumps({"names": names, "solution": solution})
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        json.dumps({n: role(k) for n, k in ROLES}),
        "<answer>\n" + json.dumps({n: role(k).title() for n, k in ROLES}, indent=2) + "\n</answer>",
        "```json\n" + str({n: role(k) for n, k in ROLES}) + "\n```",  # a Python dict's quotes
        json.dumps([f"{n} is a {role(k)}" for n, k in ROLES]),  # a list of quoted statements
        str([f"{n} is a {role(k)}" for n, k in ROLES]),
        # a table with the names as its header row
        "| "
        + " | ".join(n for n, _ in ROLES)
        + " |\n|"
        + "---|" * 6
        + "\n| "
        + " | ".join(role(k).title() for _, k in ROLES)
        + " |",
        # a LaTeX table
        "\\begin{tabular}{ll}\n"
        + "\n".join(f"{n} & {role(k).title()} \\\\" for n, k in ROLES)
        + "\n\\end{tabular}",
        # a table with more columns
        "| # | Name | Role |\n|---|---|---|\n"
        + "\n".join(f"| {i} | {n} | **{role(k)}** |" for i, (n, k) in enumerate(ROLES, 1)),
    ],
)
def test_kk_json_and_tables(response):
    assert score("logic", response, KK).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        # a claim restated inside an explanation is the inhabitant's, not the answer
        KK_LIST.replace(
            "(1) Grace is a knave", "(1) Grace is a knave: she claimed that Noah is a knave"
        ),
        KK_LIST.replace(
            "(6) Lily is a knave", "(6) Lily is a knave, since she says Mia is a knave"
        ),
        "As stated, Grace is a knave. Penelope, Mia, Noah and Matthew are knights. Lily is a knave.",
        KK_LIST.replace(
            "(6) Lily is a knave", "(6) Lily is a knave (her statement 'Mia is a knave' is false)"
        ),
        "<answer>\n"
        + KK_LIST.replace(
            "(3) Mia is a knight", "(3) Mia is a knight; Lily lied when saying Mia is a knave"
        )
        + "\n</answer>",
    ],
)
def test_kk_restated_claims_are_not_hedges(response):
    assert score("logic", response, KK).reason == "ok"


def test_kk_a_second_row_of_roles_is_the_last_complete_list():
    # like a second list after a first one, the last row is the final statement
    header = "| Grace | Penelope | Mia | Noah | Matthew | Lily |\n|---|---|---|---|---|---|\n"
    right, wrong = (
        "| Knave | Knight | Knight | Knight | Knight | Knave |",
        "| " + " | ".join(["Knight"] * 6) + " |",
    )
    assert score("logic", header + right + "\n" + wrong, KK).reason == "not_equal"
    assert score("logic", header + wrong + "\n" + right, KK).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        "The knights are Ava, Leo and Mia, and the knaves are Noah and Zoe.",
        "The knaves are Noah and Zoe, and the knights are Ava, Leo and Mia.",
        "So the knights are Ava, Leo, and Mia, and the knaves are Noah and Zoe.",
        "In summary, the knights are Ava, Leo and Mia; the knaves are Noah and Zoe.",
        "Therefore the knaves are Noah and Zoe while the knights are Ava, Leo and Mia.",
        "Ava, Leo and Mia are knights while Noah and Zoe are knaves.",
        "Noah and Zoe are knaves, while Ava, Leo and Mia are knights.",
        "Knights: Ava, Leo, Mia; knaves: Noah, Zoe",
        "In summary, knights: Ava, Leo and Mia; knaves: Noah and Zoe.",
        "So: Knights - Ava, Leo, Mia. Knaves - Noah, Zoe.",
        "<answer>The knights are Ava, Leo and Mia, and the knaves are Noah and Zoe.</answer>",
        # "the only knights are ...": everyone else is a knave
        "The only knights are Ava, Leo and Mia.",
    ],
)
def test_kk_group_statements_naming_both_roles(response):
    assert score("logic", response, FIVE).reason == "ok"


def test_kk_group_statements_with_a_wrong_role():
    # Mia and Noah swapped: Mia is a knight, Noah a knave (FIVE's truth)
    wrong = "The knights are Ava, Leo and Noah, and the knaves are Mia and Zoe."
    assert score("logic", wrong, FIVE).reason == "not_equal"
    # a person in both groups is given two roles
    both = "The knights are Ava, Leo and Mia, and the knaves are Mia, Noah and Zoe."
    assert score("logic", both, FIVE).reason == "hedged"


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        ("All four are knaves.", KNAVES),
        ("All 4 are knaves.", KNAVES),
        ("All of them are knights", KNIGHTS),
        ("All four inhabitants are knaves", KNAVES),
        ("They are all knaves.", KNAVES),
        ("So they are all knights.", KNIGHTS),
        ("None of them is a knight.", KNAVES),  # nobody is a knight: all four are knaves
        ("None of them are knights.", KNAVES),
        ("No one is a knight.", KNAVES),
        ("Nobody is a knave.", KNIGHTS),  # nobody is a knave: all four are knights
        ("None of the four is a knave.", KNIGHTS),
        ("There are no knights.", KNAVES),
        ("Every one of them is a knave.", KNAVES),
        ("Each of them is a knight.", KNIGHTS),
        ("<answer>No one is a knave.</answer>", KNIGHTS),
        ("Answer: all knaves.", KNAVES),  # a verbless conclusion
        ("So, all knights.", KNIGHTS),
        ("All knaves.", KNAVES),
    ],
)
def test_kk_statements_about_everyone(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        ("All four are knaves.", KNIGHTS, "not_equal"),
        ("No one is a knight.", KNIGHTS, "not_equal"),
        ("Nobody is a knave.", KNAVES, "not_equal"),
        # a stated count other than the number of people (4) names nobody for sure
        ("All five inhabitants are knaves", KNAVES, "missing_person"),
        ("All three are knaves.", KNAVES, "missing_person"),
        ("None of the three is a knight.", KNAVES, "missing_person"),
        ("Both of them are knaves.", KNAVES, "missing_person"),  # "both" is two people
        ("Neither is a knight.", KNAVES, "missing_person"),
    ],
)
def test_kk_statements_about_everyone_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason


@pytest.mark.parametrize(
    "response",
    [
        "Everyone is a knave except Ava.",  # the exception has the other role
        "Everyone is a knave, except Ava.",
        "All of them are knaves except for Ava.",
        "All four are knaves apart from Ava, who is a knight.",
        "Everyone except Ava is a knave.",
        "Everyone is a knave except Ava, who is a knight.",
        "All but Ava are knaves.",
        "Everybody but Ava is a knave.",
        "The only knight is Ava.",
        "Ava is the only knight.",
    ],
)
def test_kk_everyone_with_an_exception(response):
    assert score("logic", response, ONE_KNIGHT).reason == "ok"


def test_kk_an_exception_with_the_wrong_person():
    # Ava is the knight (ONE_KNIGHT); Leo named as the exception is wrong for both
    assert score("logic", "Everyone is a knave except Leo.", ONE_KNIGHT).reason == "not_equal"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("Ava is a knight. Neither Leo nor Mia is a knight, and Noah is a knave.", "ok"),
        ("Ava is a knight. Neither Leo nor Mia are knights; Noah is a knave.", "ok"),
        # "neither ... is a knave": both are knights, and Leo and Mia are knaves (ONE_KNIGHT)
        ("Ava is a knight. Neither Leo nor Mia is a knave, and Noah is a knave.", "not_equal"),
        ("The knight is Ava; Leo, Mia and Noah are the knaves.", "ok"),
    ],
)
def test_kk_neither_nor_and_the_role(response, reason):
    assert score("logic", response, ONE_KNIGHT).reason == reason


@pytest.mark.parametrize(
    "response",
    [
        "Ava is a knight, Leo is a knave, Mia is a knave, Noah is a knave. So not all of them "
        "are knaves.",
        "Ava is a knight, Leo is a knave, Mia is a knave, Noah is a knave. They are not all "
        "knaves.",
        "Ava is a knight; Leo, Mia and Noah are knaves. Thus, all knights and knaves are known.",
        "Ava is a knight; Leo, Mia and Noah are knaves.\nAll knights tell the truth.",
    ],
)
def test_kk_a_remark_about_all_after_the_list(response):
    # none of these remarks says that everyone has one role: the list before them is the answer
    assert score("logic", response, ONE_KNIGHT).reason == "ok"


def test_kk_two_people():
    two = json.dumps({"names": ["Ava", "Leo"], "solution": [False, False]})
    assert score("logic", "Neither of them is a knight.", two).reason == "ok"
    assert score("logic", "Both are knaves.", two).reason == "ok"
    assert score("logic", "They are both knaves.", two).reason == "ok"
    assert score("logic", "Neither of them is a knave.", two).reason == "not_equal"


def test_kk_all_in_passing_is_not_the_final_statement():
    # "all knaves" inside a sentence is no conclusion: the list before it is the answer
    listed = "Ava is a knight. Leo, Mia and Noah are knaves. This holds for all knaves."
    assert score("logic", listed, ONE_KNIGHT).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        "All four are knaves, as a knight could never say that.",
        "All four are knaves. Ava could not be a knight, since her claim is false.",
    ],
)
def test_kk_not_a_hedge_after_everyone(response):
    assert score("logic", response, KNAVES).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        ("Emma is a truth-teller, Liam is a liar and Ava is a truth-teller.", MIXED),
        ("(1) Emma is a truth teller\n(2) Liam is a liar\n(3) Ava is a truthteller", MIXED),
        ("Emma and Ava are truth-tellers; Liam is a liar.", MIXED),
        ("All three — Emma, Liam and Ava — are knights.", ALL_KNIGHTS),
        ("All three (Emma, Liam and Ava) are knaves.", ALL_KNAVES),
        ("All three, Emma, Liam and Ava, are knights.", ALL_KNIGHTS),
        ("None of them is a knight: Emma, Liam and Ava are all knaves.", ALL_KNAVES),
        ("There are no knaves: Emma, Liam and Ava are all knights.", ALL_KNIGHTS),
    ],
)
def test_truth_tellers_and_named_groups_are_complete_answers(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        # the same phrasings stay graded: a wrong role is wrong, a missing person is missing
        (
            "Emma is a truth-teller, Liam is a truth-teller and Ava is a truth-teller.",
            MIXED,
            "not_equal",
        ),
        ("Emma is a truth-teller and Ava is a truth-teller.", MIXED, "missing_person"),
        ("All three — Emma, Liam and Ava — are knights.", MIXED, "not_equal"),
        ("None of them is a knight: Emma, Liam and Ava are all knaves.", ALL_KNIGHTS, "not_equal"),
        # a liar and a truth-teller in one statement is a hedge, as with knight and knave
        (
            "Emma is a truth-teller or a liar; Liam is a liar; Ava is a truth-teller.",
            MIXED,
            "hedged",
        ),
        # "Emma says Liam is a liar" restates a claim
        ("Emma says Liam is a liar. Ava is a truth-teller.", MIXED, "missing_person"),
    ],
)
def test_truth_tellers_and_named_groups_stay_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        (block("Samuel is a knight and Mia a knave."), SK_MK),  # verb ellipsis
        ("So Samuel is a knight and Mia a knave.", SK_MK),
        (block("Noah is a knight, Ruby a knave, Owen a knight."), NRO),
        (block("Noah and Owen are knights, and Ruby a knave."), NRO),
        (block("Samuel is a knight, and so is Mia."), BOTH),
        (block("Samuel is a knight; Mia is too."), BOTH),
        (block("Samuel is a knight; Mia isn't."), SK_MK),
        (block("Samuel is a knight, but Mia is not."), SK_MK),
        (block("There are no knaves: Samuel and Mia are knights."), BOTH),
        (block("Samuel tells the truth (knight); Mia lies (knave)."), SK_MK),
        (block("Samuel always tells the truth and Mia always lies."), SK_MK),
        (block("Samuel was a knight and Mia was a knave."), SK_MK),
        (block("Samuel turns out to be a knight, and Mia turned out to be a knave."), SK_MK),
        (block("Samuel has to be a knight, and Mia has to be a knave."), SK_MK),
        (block("Samuel is an honest knight, Mia is a lying knave."), SK_MK),
        (block("Samuel is a knight and Mia is one of the knaves."), SK_MK),
        (block("Samuel is a knave? No: Samuel is a knight. Mia is a knave."), SK_MK),
        (block("Samuel is a knight ∧ Mia is a knave"), SK_MK),  # a conjunction asserts both
        # "whether" sets no condition: the role holds either way
        (block("Samuel is a knight (regardless of whether Mia lies), Mia is a knave."), SK_MK),
        (block("Samuel is a knight whether or not Mia lies; Mia is a knave."), SK_MK),
        # a justification is no condition: a counterfactual "if ... were"
        (block(RIGHT + " (if Samuel were a knave, his claim would be true)."), SK_MK),
        ("If Samuel is a knave, his claim is true, a contradiction, so " + RIGHT + ".", SK_MK),
        (block("Samuel → knight\nMia → knave"), SK_MK),
    ],
)
def test_committed_phrasings_score_one(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        # the new phrasings are read, not defaulted: a wrong role is wrong
        (block("Samuel is a knight and Mia a knight."), SK_MK, "not_equal"),
        (block("Samuel is a knight, and so is Mia."), SK_MK, "not_equal"),
        (block("Samuel is a knight; Mia isn't."), BOTH, "not_equal"),
        (block("Samuel always tells the truth and Mia always lies."), BOTH, "not_equal"),
        (block("Samuel was a knight."), SK_MK, "missing_person"),
        # a restated claim stays a claim
        (block('Mia said "Samuel is a knight and Mia a knave."'), SK_MK, "missing_person"),
    ],
)
def test_committed_phrasings_stay_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason


@pytest.mark.parametrize(
    "response",
    [
        "<answer>Zoey and Ava are knights, Owen and Leo knaves.</answer>",
        "<answer>Owen and Leo are knaves, and Zoey and Ava knights.</answer>",
        "<answer>Owen and Leo are knaves; everyone else (Zoey and Ava) is a knight.</answer>",
        "<answer>Zoey, Ava: knights. Owen, Leo: knaves.</answer>",
        "<answer>Zoey and Ava: knights\nOwen and Leo: knaves</answer>",
        "<answer>\nZoey: tells the truth (knight)\nOwen: lies (knave)\nAva: tells the truth "
        "(knight)\nLeo: lies (knave)\n</answer>",
    ],
)
def test_committed_group_forms(response):
    assert score("logic", response, TWO_KNIGHTS_TWO_KNAVES).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("<answer>Zoey and Ava are knights, Owen and Leo knights.</answer>", "not_equal"),
        ("<answer>Zoey and Owen are knights, Ava and Leo knaves.</answer>", "not_equal"),
        ("<answer>Zoey, Ava: knights. Owen, Leo: knights.</answer>", "not_equal"),
        ("<answer>Zoey, Ava: knights.</answer>", "missing_person"),
        # one person given both roles stays a hedge
        (
            "<answer>Zoey: tells the truth (knave)\nOwen: lies (knave)\nAva: knight\nLeo: knave"
            "</answer>",
            "hedged",
        ),
    ],
)
def test_committed_group_forms_stay_graded(response, reason):
    assert score("logic", response, TWO_KNIGHTS_TWO_KNAVES).reason == reason


@pytest.mark.parametrize(
    "response",
    [
        HYPOTHESES + "Final answer:\n" + KK_LIST,  # reasoning tests hypotheses, no answer block
        f"<think>{HYPOTHESES}</think>\n{KK_LIST}",
        f"{HYPOTHESES}<answer>\n{KK_LIST}\n</answer>",
        f"<answer>{KK_WRONG}</answer> is my first guess... no.\n<answer>\n{KK_LIST}\n</answer>",
        KK_WRONG + "\nWait, that fails Mia's statement. Correcting:\n" + KK_LIST,  # last list
        KK_LIST.replace("Grace", "**Grace**").replace("Lily", "**Lily**"),  # bold names
        "- **Grace**: Knave\n- **Penelope**: Knight\n- **Mia**: Knight\n- **Noah**: Knight\n"
        "- **Matthew**: Knight\n- **Lily**: Knave",
        "Grace is a knave. Penelope is a knight. Mia is also a knight. Noah is also a knight. "
        "Matthew is therefore a knight, and Lily is a knave.",
        "Penelope, Mia, Noah and Matthew are knights; Grace and Lily are knaves.",
        "Grace and Lily are both knaves, while Penelope, Mia, Noah, and Matthew are all knights.",
        # "is not a knight" names the other role: everyone on the island is one of the two
        KK_LIST.replace("Grace is a knave", "Grace is not a knight"),
        KK_LIST.replace("Mia is a knight", "Mia is not a knave"),
        # the inhabitants' quoted statements are theirs, not the answer
        KK_LIST + '\n(Lily lied when she said "Mia is not a knight".)',
        KK_LIST.upper(),
        KK_LIST.replace("Penelope is a knight", "Penelope is a knight and knaves always lie"),
        "| Person | Role |\n|---|---|\n"
        + "\n".join(
            f"| {n} | {r} |"
            for n, r in [
                ("Grace", "Knave"),
                ("Penelope", "Knight"),
                ("Mia", "Knight"),
                ("Noah", "Knight"),
                ("Matthew", "Knight"),
                ("Lily", "Knave"),
            ]
        ),
        # the rest named as a group: everyone the statement does not name gets that role
        "Grace and Lily are knaves. All the others are knights.",
        "Only Penelope, Mia, Noah and Matthew are knights; everyone else is a knave.",
        "Only Grace and Lily are knaves.",
        "<answer>Grace and Lily are knaves; the rest are knights.</answer>",
    ],
)
def test_kk_the_final_statement_of_roles_is_graded(response):
    assert score("logic", response, KK).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (KK_LIST.replace("Grace is a knave", "Grace is a knight or a knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is a knight/knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is either a knight or a knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is a knave and a knight"), "hedged"),
        (f"<answer>{KK_LIST}\nGrace is a knight</answer>", "hedged"),  # one block, two roles
        (f"<answer>{KK_LIST}</answer>".replace("Mia is a knight", "Mia is a knight"), "ok"),
        (f"<answer>{KK_WRONG}</answer>", "not_equal"),
        (f"{KK_LIST}\n<answer>{KK_WRONG}</answer>", "not_equal"),  # the block is the answer
        (f"<answer>{KK_LIST.replace('(6) Lily is a knave', '')}</answer>", "missing_person"),
        (f"<think>{KK_LIST}</think> I am not sure.", "missing_person"),
        ("Grace and Lily are knaves. The rest are knights or knaves.", "hedged"),
        ("Only Mia is a knight; everyone else is a knight.", "hedged"),
        ("Grace is a knave. Everyone else is a knight.", "not_equal"),  # Lily is a knave
        ("Only Penelope is a knight.", "not_equal"),
    ],
)
def test_kk_hedged_wrong_or_incomplete_final_statements(response, reason):
    assert score("logic", response, KK).reason == reason


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        # Mia and Noah knights, Ava (not the role just named) a knave: the row's truth
        ("Mia and Noah are knights; Ava isn't.", "ok"),
        ("Mia and Noah are knights, and Ava is not.", "ok"),
        # Noah named a knave, which he is not; Mia "isn't" a knave: a knight
        ("Ava and Noah are knaves; Mia isn't.", "not_equal"),
    ],
)
def test_a_group_statement_continued_by_a_negation(response, reason):
    truth = json.dumps({"names": ["Mia", "Noah", "Ava"], "solution": [True, True, False]})
    assert score("logic", response, truth).reason == reason


def test_every_phrasing_of_the_table_names_a_pattern():
    # each row of the table is read by one function; its pattern is a row pattern or a module one
    from pac_verl.verifiers.knights_knaves import grade

    row = grade._patterns(["Ava", "Leo"])
    for phrasing in grade.PHRASINGS:
        pattern = getattr(row, phrasing.pattern, None) or getattr(grade, phrasing.pattern)
        assert hasattr(pattern, "finditer"), phrasing.pattern
