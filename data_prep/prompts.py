"""Prompt texts: the paper's appendix "Prompt Examples", in two styles.

- ``chat`` (default): one user message holding the task text; verl applies the tokenizer's chat
  template.
- ``completion``: the plain "A conversation between User and Assistant ..." frame that SEC and
  TinyZero used with base models, ending in the assistant cue, also as one message so that the
  row schema stays the same (run it with a chat template that passes text through).
"""

from __future__ import annotations

from collections.abc import Sequence

STYLES = ("chat", "completion")
COMPLETION_FRAME = (
    "A conversation between User and Assistant. The user asks a question, and the Assistant "
    "solves it. The assistant first thinks about the reasoning process in the mind and then "
    "provides the user with the answer.\nUser: {task}\nAssistant: Let me solve this step by step."
)


def styled(task: str, style: str) -> str:
    return COMPLETION_FRAME.format(task=task) if style == "completion" else task


def countdown(numbers: Sequence[int], target: int, style: str = "chat") -> str:
    nums = ", ".join(map(str, numbers))
    task = (
        f"Using the numbers {nums} and basic arithmetic operations (+, -, ×, /), create an "
        f"expression that equals {target}.\nYou need to use each number exactly once.\n"
        "Present the final expression that equals the target number within \\boxed{}.\n"
        "For example: \\boxed{46+68/(52-50)}."
    )
    return styled(task, style)


def zebra(puzzle: str, style: str = "chat") -> str:
    """The puzzle (houses, attributes, numbered clues) followed by the paper's question."""
    task = (
        f"{puzzle.strip()}\n\nWhat is the name of the person who lives in House 1?\n"
        "Provide only the name as the final answer and put it in \\boxed{}."
    )
    return styled(task, style)


def arc(
    examples: Sequence[tuple[Sequence[int], Sequence[int]]],
    test_input: Sequence[int],
    style: str = "chat",
) -> str:
    parts = [
        "Find the common rule that maps an input grid to an output grid, given the examples below.\n"
    ]
    for i, (inp, out) in enumerate(examples, 1):
        parts.append(
            f"Example {i}:\nInput: {' '.join(map(str, inp))}\nOutput: {' '.join(map(str, out))}\n"
        )
    parts.append(
        "Below is a test input grid. Predict the corresponding output grid by applying the rule you "
        "found. Describe how you derived the rule and your overall reasoning process before "
        "submitting the answer. The final answer must be placed in \\boxed{} and should be just "
        f"the test output grid itself.\n\nInput:\n{' '.join(map(str, test_input))}"
    )
    return styled("\n".join(parts), style)
