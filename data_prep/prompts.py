"""Prompt texts: the paper's appendix "Prompt Examples", and the frame the appendix omits.

Rows hold the task text only, as chat messages (docs/concepts/spec.md#rows-on-disk): one user
message, and for code tasks a system message before it. How the policy sees them is a config choice,
``backbone.prompt_style``, applied at train time by the chat template verl applies to every prompt:

- ``completion`` (the default of the base Qwen2.5 backbones, docs/concepts/spec.md#settings):
  :data:`FRAME_TEMPLATE`, the "A conversation between User and Assistant ..." frame that SEC and
  TinyZero gave base models as raw text, ending in the assistant cue. The tokens are exactly
  :func:`frame`'s text: no special tokens, no default system prompt. A system message takes the
  preamble's place (the appendix's Code Prompt shows the system text, then ``User:``).
- ``chat`` (for instruct models): the tokenizer's own chat template (Qwen's adds its default
  system prompt when a row has none).

So one data build serves both styles, and the config (recorded in ``run.json``) is the one source
of what the model reads. Where the task texts differ from the appendix, docs/guides/data.md lists
each difference and its reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from pac_verl.errors import UserError

STYLES = ("completion", "chat")
FRAME_PREAMBLE = (
    "A conversation between User and Assistant. The user asks a question, and the Assistant "
    "solves it. The assistant first thinks about the reasoning process in the mind and then "
    "provides the user with the answer."
)
FRAME_USER = "\nUser: "
FRAME_ASSISTANT = "\nAssistant: "
FRAME_CUE = "\nAssistant: Let me solve this step by step."


def frame(task: str, system: str | None = None) -> str:
    """The text :data:`FRAME_TEMPLATE` renders for one task (what a base model reads)."""
    return (FRAME_PREAMBLE if system is None else system) + FRAME_USER + task + FRAME_CUE


def _literal(text: str) -> str:
    """``text`` as a Jinja string literal (Jinja decodes ``\\n``, ``\\'`` and ``\\\\``)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


# The frame as a chat template (Jinja, as Hugging Face tokenizers render it). verl 0.7.1 always
# applies a chat template; this one adds nothing but the frame. Roles other than system (first
# message only), user and assistant, or content that is not text, are refused: a conversation the
# frame cannot express must not be flattened silently. With add_generation_prompt false (verl asks
# for that only to find a template's system-prompt tokens) the cue is left out.
FRAME_TEMPLATE = (
    "{%- if messages and messages[0]['role'] == 'system' -%}"
    "{%- set turns = messages[1:] -%}{{- messages[0]['content'] -}}"
    "{%- else -%}"
    "{%- set turns = messages -%}{{- " + _literal(FRAME_PREAMBLE) + " -}}"
    "{%- endif -%}"
    "{%- for message in turns -%}"
    "{%- if message['content'] is not string -%}"
    "{{- raise_exception('the frame template takes text content only') -}}"
    "{%- elif message['role'] == 'user' -%}"
    "{{- " + _literal(FRAME_USER) + " + message['content'] -}}"
    "{%- elif message['role'] == 'assistant' -%}"
    "{{- " + _literal(FRAME_ASSISTANT) + " + message['content'] -}}"
    "{%- else -%}"
    "{{- raise_exception('the frame template takes a first system message, then user and "
    "assistant messages; got role ' + message['role']) -}}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- " + _literal(FRAME_CUE) + " -}}{%- endif -%}"
)


def chat_template(style: str) -> str | None:
    """The chat template a prompt style forces (``None``: the tokenizer's own)."""
    if style == "completion":
        return FRAME_TEMPLATE
    if style == "chat":
        return None
    raise UserError(
        f"backbone.prompt_style={style}: choose completion (the paper's frame, for base models) "
        "or chat (the tokenizer's chat template, for instruct models)"
    )


def refuse_build_style(style: str | None) -> None:
    """``prep``'s former ``--prompt-style``: rows hold the task text, the frame is a train-time
    choice (:func:`chat_template`), so a build asked to write it is refused with the reason."""
    if style is not None:
        raise UserError(f"--prompt-style {style}: rows hold the task text only; the frame is "
                        "applied at train time by backbone.prompt_style=completion (the default of "
                        "the base Qwen2.5 backbones) or chat")  # fmt: skip


def countdown(numbers: Sequence[int], target: int) -> str:
    nums = ", ".join(map(str, numbers))
    return (
        f"Using the numbers {nums} and basic arithmetic operations (+, -, *, /), create an "
        f"expression that equals {target}. You need to use each number exactly once. "
        "Present the final expression that equals the target number within \\boxed{}. "
        "For example: \\boxed{46+68/(52-50)}."
    )


def zebra(puzzle: str) -> str:
    """The puzzle (houses, attributes, numbered clues) followed by the paper's question."""
    return (
        f"{puzzle.strip()}\n\nWhat is the name of the person who lives in House 1? "
        "Provide only the name as the final answer and put it in \\boxed{}."
    )


def arc(examples: Sequence[tuple[Sequence[int], Sequence[int]]], test_input: Sequence[int]) -> str:
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
    return "\n".join(parts)
