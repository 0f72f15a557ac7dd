"""The prompt texts the spec fixes (docs/guides/data.md#the-prompt-the-policy-sees), as the
data-prep tests expect them,
and the Qwen2.5 tokenizer fixture their chat-template tests render with."""

from __future__ import annotations

from pathlib import Path

QWEN_TOKENIZER = Path(__file__).parent / "fixtures" / "qwen2.5_tokenizer"
PREAMBLE = (
    "A conversation between User and Assistant. The user asks a question, and the Assistant "
    "solves it. The assistant first thinks about the reasoning process in the mind and then "
    "provides the user with the answer."
)
CUE = "\nAssistant: Let me solve this step by step."
