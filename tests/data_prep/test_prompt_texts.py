"""The task texts are the paper's appendix "Prompt Examples" (docs/guides/data.md lists each
deliberate difference), and the frame template renders exactly the frame.

Expected texts are the appendix's examples written out by hand, as they render (LaTeX lines of one
paragraph joined by a space, paragraph breaks as blank lines, ``\\times`` as SEC's ``*``, list
items as ``" - "`` and ``"1."`` lines).
"""

from __future__ import annotations

import pytest
from prompt_text_helpers import CUE, PREAMBLE, QWEN_TOKENIZER

from pac_verl.data_prep import kk, prompts
from pac_verl.data_prep.zebra import Clue, categories, puzzle_text
from pac_verl.errors import UserError


def test_countdown_is_the_appendix_example():
    assert prompts.countdown([21, 95, 8, 2, 26, 2], 30) == (
        "Using the numbers 21, 95, 8, 2, 26, 2 and basic arithmetic operations (+, -, *, /), "
        "create an expression that equals 30. You need to use each number exactly once. Present "
        "the final expression that equals the target number within \\boxed{}. For example: "
        "\\boxed{46+68/(52-50)}."
    )


def test_arc_is_the_appendix_example():
    examples = [
        ([0, 0, 0, 9, 3, 6, 0, 0, 0, 0], [9, 3, 6, 0, 0, 0, 0, 0, 0, 0]),
        ([0, 0, 0, 0, 0, 0, 0, 0, 2, 8], [0, 0, 0, 0, 0, 2, 8, 0, 0, 0]),
        ([0, 0, 0, 0, 0, 0, 0, 9, 0, 0], [0, 0, 0, 0, 9, 0, 0, 0, 0, 0]),
    ]
    assert prompts.arc(examples, [1, 6, 7, 8, 9, 4, 0, 0, 0, 0]) == (
        "Find the common rule that maps an input grid to an output grid, given the examples "
        "below.\n\n"
        "Example 1:\nInput: 0 0 0 9 3 6 0 0 0 0\nOutput: 9 3 6 0 0 0 0 0 0 0\n\n"
        "Example 2:\nInput: 0 0 0 0 0 0 0 0 2 8\nOutput: 0 0 0 0 0 2 8 0 0 0\n\n"
        "Example 3:\nInput: 0 0 0 0 0 0 0 9 0 0\nOutput: 0 0 0 0 9 0 0 0 0 0\n\n"
        "Below is a test input grid. Predict the corresponding output grid by applying the rule "
        "you found. Describe how you derived the rule and your overall reasoning process before "
        "submitting the answer. The final answer must be placed in \\boxed{} and should be just "
        "the test output grid itself.\n\nInput:\n1 6 7 8 9 4 0 0 0 0"
    )


# The appendix's Zebra example, built from the generator's categories (reasoning-gym's, as SEC's
# puzzles are): attribute 0 is the name, then smoothie, flower, lunch; a value is its index in the
# category's values (SEC's order: alice, arnold, bob, carol, ...)
def _appendix_puzzle() -> str:
    every = {c.intro: c for c in categories()}
    cats = tuple(every[i] for i in ("Each person has a unique name", "Everyone has a favorite smoothie",
                                    "They all have a different favorite flower",
                                    "Everyone has something different for lunch"))  # fmt: skip

    def v(a: int, value: str) -> tuple[int, int]:
        return (a, cats[a].values.index(value))

    clues = (
        Clue("same", v(0, "bob"), v(3, "stir fry")),
        Clue("left_of", v(3, "grilled cheese"), v(2, "carnations")),
        Clue("next_to", v(2, "carnations"), v(2, "daffodils")),
        Clue("left_of", v(3, "soup"), v(1, "butterscotch")),
        Clue("left_of", v(1, "darkness"), v(1, "desert")),
        Clue("same", v(3, "soup"), v(1, "desert")),
        Clue("same", v(2, "carnations"), v(0, "bob")),
        Clue("same", v(2, "lilies"), v(1, "butterscotch")),
        Clue("same", v(1, "desert"), v(0, "carol")),
        Clue("same", v(2, "iris"), v(0, "arnold")),
    )
    listed = [["carol", "arnold", "alice", "bob"], ["butterscotch", "desert", "darkness", "dragonfruit"],
              ["iris", "daffodils", "lilies", "carnations"], ["grilled cheese", "stir fry", "pizza", "soup"]]  # fmt: skip
    return puzzle_text(4, cats, listed, clues)


def test_zebra_is_the_appendix_example():
    # word for word; reasoning-gym's phrase is "the boquet of lilies", which SEC's released
    # puzzles keep (823 times in combined/test_zebra.parquet); the appendix, and our generator
    # (pac_verl.data_prep.zebra.TYPOS), spell it "bouquet"
    assert prompts.zebra(_appendix_puzzle()) == (
        "This is a logic puzzle. There are 4 houses, numbered 1 on the left to 4 on the right, "
        "from the perspective of someone standing across the street from them. Each house has a "
        "different person, and each person has different characteristics:\n"
        " - Each person has a unique name: carol, arnold, alice, bob.\n"
        " - Everyone has a favorite smoothie: butterscotch, desert, darkness, dragonfruit.\n"
        " - They all have a different favorite flower: iris, daffodils, lilies, carnations.\n"
        " - Everyone has something different for lunch: grilled cheese, stir fry, pizza, soup.\n"
        "\n"
        "1. Bob is the person who loves stir fry.\n"
        "2. The person who loves eating grilled cheese is directly left of the person who loves a "
        "carnations arrangement.\n"
        "3. The person who loves a carnations arrangement and the person who loves a bouquet of "
        "daffodils are next to each other.\n"
        "4. The person who loves the soup is directly left of the Butterscotch smoothie drinker.\n"
        "5. The Darkness smoothie drinker is directly left of the Desert smoothie lover.\n"
        "6. The person who loves the soup is the Desert smoothie lover.\n"
        "7. The person who loves a carnations arrangement is Bob.\n"
        "8. The person who loves the bouquet of lilies is the Butterscotch smoothie drinker.\n"
        "9. The Desert smoothie lover is Carol.\n"
        "10. The person who loves the bouquet of iris is Arnold.\n"
        "\n"
        "What is the name of the person who lives in House 1? Provide only the name as the final "
        "answer and put it in \\boxed{}."
    )


def test_kk_asks_the_appendix_question_then_for_the_answer_block():
    quiz = ('A very special island is inhabited only by knights and knaves. Knights always tell '
            'the truth, and knaves always lie. You meet 2 inhabitants: Grace, and Noah. Grace '
            'said, "Noah is a knave." Noah said that Grace is a knight.')  # fmt: skip
    text = kk.prompt(quiz, ["Grace", "Noah"])
    assert text.startswith(quiz + " So who is a knight and who is a knave?\n\n")
    assert text.endswith("<answer>\n(1) Grace is a ...\n(2) Noah is a ...\n</answer>")


def test_rows_are_never_framed_when_they_are_built(tmp_path):
    from pac_verl.data_prep.cli import main

    with pytest.raises(
        UserError, match=r"applied at train time by backbone\.prompt_style=completion"
    ):
        main(["multi-level", "--out", str(tmp_path / "o"), "--prompt-style", "completion"])
    assert not (tmp_path / "o").exists()
    assert not prompts.countdown([3, 4], 7).startswith(prompts.FRAME_PREAMBLE)


def test_prompt_style_names_the_choices():
    assert prompts.chat_template("chat") is None
    assert prompts.chat_template("completion") == prompts.FRAME_TEMPLATE
    with pytest.raises(
        UserError, match=r"backbone\.prompt_style=raw: choose completion .* or chat"
    ):
        prompts.chat_template("raw")


@pytest.fixture(scope="module")
def qwen():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(QWEN_TOKENIZER)


def _render(tok, messages, cue=True):
    return tok.apply_chat_template(messages, chat_template=prompts.FRAME_TEMPLATE,
                                   add_generation_prompt=cue, tokenize=False)  # fmt: skip


def test_the_frame_template_renders_the_frame_and_nothing_else(qwen):
    task = "Say 'hi' \\ then {{ stop }} {% raw %}\n  twice."  # quotes, backslash, Jinja-like text
    assert _render(qwen, [{"role": "user", "content": task}]) == (
        PREAMBLE + "\nUser: " + task + CUE
    )
    assert prompts.frame(task) == PREAMBLE + "\nUser: " + task + CUE


def test_a_system_message_takes_the_preambles_place(qwen):
    # the appendix's Code Prompt: the system text, then "User:" and the task
    system = ("You are a helpful programming assistant. The reasoning process and answer are "
              "enclosed within <think>...</think> and <answer>...</answer> tags, respectively.")  # fmt: skip
    messages = [{"role": "system", "content": system}, {"role": "user", "content": "Write f."}]
    assert _render(qwen, messages) == system + "\nUser: Write f." + CUE


def test_without_the_generation_prompt_the_cue_is_left_out(qwen):
    # verl renders [user ""] and [user "", user ""] without the cue to find a template's system
    # prompt (verl.utils.chat_template.initialize_system_prompt): they must render, not raise
    one = _render(qwen, [{"role": "user", "content": ""}], cue=False)
    two = _render(qwen, [{"role": "user", "content": ""}] * 2, cue=False)
    assert (one, two) == (PREAMBLE + "\nUser: ", PREAMBLE + "\nUser: \nUser: ")
    turns = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    assert _render(qwen, turns, cue=False) == PREAMBLE + "\nUser: q\nAssistant: a"


def test_what_the_frame_cannot_express_is_refused(qwen):
    from jinja2.exceptions import TemplateError

    with pytest.raises(TemplateError, match="got role tool"):
        _render(qwen, [{"role": "user", "content": "q"}, {"role": "tool", "content": "x"}])
    with pytest.raises(TemplateError, match="text content only"):
        _render(qwen, [{"role": "user", "content": [{"type": "text", "text": "q"}]}])


def test_a_row_built_with_the_frame_is_refused_before_it_is_framed_twice():
    from pac_verl.data_prep.rows import make_row, validate_row

    task = prompts.countdown([1, 2], 3)
    for content in (PREAMBLE + "\nUser: " + task + CUE, task + CUE):
        row = make_row(data_source="countdown", prompt=content, task_type="countdown",
                       ground_truth={"target": 3, "numbers": [1, 2]}, split="train", index=0)  # fmt: skip
        with pytest.raises(UserError, match=r"row 7: prompt\[0\] holds the conversation frame"):
            validate_row(row, "row 7")
    validate_row(make_row(data_source="countdown", prompt=task, task_type="countdown",
                          ground_truth={"target": 3, "numbers": [1, 2]}, split="train", index=0),
                 "row 7")  # fmt: skip
