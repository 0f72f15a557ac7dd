"""Answer extraction shared by the scorers: the last ``\\boxed{...}`` and the answer region.

Model output is hostile input: everything here is linear in the text, never raises on any string,
and caps what it looks at (``MAX_CHARS`` from the end: answers live at the end of a response).
"""

from __future__ import annotations

import re

MAX_CHARS = 20_000  # only the last 20k characters of a response are read
_BOX_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")
_WRAP_RE = re.compile(r"\\(?:text|textbf|mathrm|mathbf|texttt|textit)\s*\{([^{}]*)\}")


def tail(text: object) -> str:
    """The part of ``text`` a scorer reads (non-strings become empty)."""
    if not isinstance(text, str):
        return ""
    return text[-MAX_CHARS:]


def after_think(text: str) -> str:
    """DeepScaleR-style: the text after the last ``</think>`` when there is one."""
    idx = text.rfind("</think>")
    return text[idx + len("</think>") :] if idx >= 0 else text


def answer_region(text: str) -> str:
    """The last ``<answer>...</answer>`` content if present, else the text after ``</think>``."""
    text = after_think(text)
    start = text.rfind("<answer>")
    if start >= 0:
        end = text.find("</answer>", start)
        return text[start + len("<answer>") : end if end >= 0 else len(text)]
    return text


def last_boxed(text: str) -> str | None:
    """Content of the last ``\\boxed{...}`` (or ``\\fbox{...}``) with balanced braces, else None.

    A box whose braces never close is ignored, so ``\\boxed{1} ... \\boxed{2`` yields ``1``.
    """
    for match in reversed(list(_BOX_RE.finditer(text))):
        depth, i = 1, match.end()
        while i < len(text):
            ch = text[i]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return text[match.end() : i]
            i += 1
    return None


def unwrap_text(s: str) -> str:
    """Strip LaTeX text wrappers (``\\text{arnold}`` -> ``arnold``), innermost first."""
    for _ in range(8):
        new = _WRAP_RE.sub(r"\1", s)
        if new == s:
            break
        s = new
    return s


def normalise_words(s: str) -> str:
    """Case-folded, whitespace-collapsed, text wrappers and ``$`` removed."""
    s = unwrap_text(s).replace("$", "")
    return " ".join(s.split()).casefold()
