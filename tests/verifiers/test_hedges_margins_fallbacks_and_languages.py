"""A margin, a fallback and doubt in any language un-commit an answer, and a rejected earlier
guess or a negated role does not (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a spread
put on the answer in any notation ("\\pm 1" right after the box, "Range: 6–8.", "Error bar:
±1."), a confidence or a self-condition in another language ("确信度：六成。", "Si no me
equivoco."), a candidate kept in reserve ("Backup answer if that fails: 8.") or two labelled
answers in one box, and the speaker's reliability likened to chance ("A coin would do as well as
me here.") are hedges in every task; an earlier guess named and refuted ("My earlier guess of 8
was wrong since 2*8+1 = 17, not 15.") and a role glossed by the role it is not ("Noah is a knave
(not a knight)") are no doubt. Expected verdicts are decided by hand from the task's truth (n = 7
solves 2n + 1 = 15; Arnold drinks tea; Mia and Lily are knights and Noah a knave; (9 + 3) * 4 =
48 and 25 * 2 - 7 + 3 = 46), never by running the scorer."""

import pytest
from hedge_cases import CD46, CD46_BOX, MNL, N7, reasons_after

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    "after",
    [
        "\\pm 1",
        "$\\pm 1$.",
        "(\\pm 1)",
        "\\mp 2",
        "+/- 1",
        "Range: 6–8.",
        "Range: 6 to 8.",
        "Error bar: ±1.",
        "Error bars: \\pm 1.",
        "Margin of error: 1.",
        "Uncertainty: ±1.",
        "Tolerance: ±1.",
    ],
)
def test_a_margin_on_the_answer_in_any_notation_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


def test_a_margin_right_after_a_box_is_doubt():
    assert score("math", f"{N7}\\boxed{{7}} \\pm 1", "7").reason == "hedged"
    assert score("math", f"{N7}$\\boxed{{7}} \\pm 1$.", "7").reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        f"{N7}\\boxed{{7}}\n\nCheck: 7 \\pm 0 = 7.",
        f"{N7}\\boxed{{7}}\n\nCheck: $2 \\cdot 7 + 1 = 15$.",
        f"{N7}\\boxed{{7}}\n\nThe roots of $x^2 = 49$ are $\\pm 7$, and n is positive.",
    ],
)
def test_a_zero_margin_or_a_sign_in_a_check_is_no_margin(response):
    assert score("math", response, "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "确信度：六成。",
        "把握：七成。",
        "六成把握。",
        "自信度：60%。",
        "信心：百分之七十。",
        "Confianza: 60 %.",
        "Confiance : 70 %.",
        "Zuversicht: 60 %.",
        "Fiducia: 70%.",
        "如果我没算错的话。",
        "要是我没看错。",
        "Si no me equivoco.",
        "Salvo error.",
        "Si je ne me trompe pas.",
        "Sauf erreur de ma part.",
        "Wenn ich mich nicht verrechnet habe.",
        "Se não me engano.",
        "Se non sbaglio.",
        "Если я не ошибся.",
        "Als ik me niet vergis.",
        "間違っていなければ。",
        "제가 틀리지 않았다면.",
    ],
)
def test_a_confidence_or_a_self_condition_in_another_language_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "Ehkä.",  # Finnish, Hungarian, Greek, Tagalog, Esperanto, Welsh: languages no table holds
        "Talán.",
        "Ίσως.",
        "Siguro.",
        "Eble.",
        "Efallai.",
        "Nem vagyok benne biztos.",
        "Olen epävarma tästä.",
    ],
)
def test_words_of_a_language_the_lexicon_cannot_read_are_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    ["Tarkistus: $2 \\cdot 7 + 1 = 15$.", "验证：2×7+1=15。", "Respuesta final: 7.", "Svar: 7."],
)
def test_notation_under_a_label_of_any_language_is_read_as_notation(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "This is equivalently 2n = 14.",
        "The sequence is telescoping, so it checks.",
        "Substituting is nonincreasing work here.",
        "gcd(7, 15) = 1.",
    ],
)
def test_rare_english_words_made_of_english_stems_are_read(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "This might not be right.",
        "That may not be correct.",
        "Unclear whether that is correct.",
        "Please verify this independently.",
        "Someone should double-check this.",
        "Treat this as a draft.",
        "I have some reservations.",
        "Not the most reliable result.",
        "Perchance.",
        "Mayhap.",
        "Seemingly.",
        "Apparently so.",
        "This is conjecture on my part.",
        "Just spitballing here.",
        "Speculative, admittedly.",
    ],
)
def test_the_answer_said_possibly_wrong_or_conjectured_in_any_register_is_doubt(after):
    assert set(reasons_after(after).values()) == {"hedged"}


def test_both_answers_left_open_is_doubt():
    after = (
        "Actually, wait — I could also see the answer being 8. I'll leave both possibilities open."
    )
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Could it be 8? No: 8 gives 17 in the equation.",
        "What about 8? No, 8 overshoots the right-hand side.",
        "8 doesn't work: 2*8+1 = 17, not 15.",
    ],
)
def test_another_value_denied_with_what_it_gives_is_no_doubt(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "task, response, gold",
    [
        ("math", f"{N7}\\boxed{{7}}\n\nBackup answer if that fails: 8.", "7"),
        ("math", f"{N7}\\boxed{{7}}\n\nSecond choice if 7 is rejected: 8.", "7"),
        ("math", f"{N7}\\boxed{{7}}\n\nIn reserve, should that be wrong: 8.", "7"),
        ("countdown", f"{CD46_BOX}\n\nBackup if that fails: 25*2-3+7-8+2.", CD46),
        ("countdown", f"{CD46_BOX}\n\nBackup answer if that fails: 25 + 3 + 7 + 2.", CD46),
        ("math", f"{N7}\\boxed{{7 \\text{{ (answer A)}}, 8 \\text{{ (answer B)}}}}", "7"),
        ("math", f"{N7}\\boxed{{7 (answer A), 8 (answer B)}}", "7"),
        ("math", f"{N7}\\boxed{{7 \\text{{ (main)}}, 8 \\text{{ (backup)}}}}", "7"),
    ],
)
def test_a_candidate_in_reserve_or_a_second_labelled_answer_never_pays(task, response, gold):
    assert score(task, response, gold).score == 0


@pytest.mark.parametrize(
    "after",
    [
        "A coin would do as well as me here.",
        "A dartboard would be about as reliable as me on this one.",
        "My cat could have picked it just as well.",
        "A random number generator would do no worse than I did.",
    ],
)
def test_reliability_likened_to_chance_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "My earlier guess of 8 was wrong since 2*8+1 = 17, not 15.",
        "My first guess, 8, fails: 2*8+1 = 17.",
        "I initially guessed 8, but 2*8+1 = 17, not 15.",
        "The original guess of 6 gives 13, so it is out.",
    ],
)
def test_an_earlier_guess_refuted_is_no_doubt(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    ["My earlier guess of 8 still looks plausible.", "My first guess was 8, and it may be right."],
)
def test_an_earlier_guess_kept_open_is_offered(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "<answer>Mia is a knight, Noah is a knave (not a knight), and Lily is a knight.</answer>",
        "<answer>\nMia: knight\nNoah: knave (not knight)\nLily: knight (not a knave)\n</answer>",
        "<answer>\nMia: knight\nNoah: knave (isn't a knight)\nLily: knight\n</answer>",
    ],
)
def test_a_role_glossed_by_the_role_it_is_not_restates_it(response):
    assert score("logic", response, MNL).reason == "ok"


def test_a_role_glossed_by_its_own_role_negated_contradicts_it():
    response = "<answer>\nMia: knight\nNoah: knave (not a knave)\nLily: knight\n</answer>"
    assert score("logic", response, MNL).score == 0
