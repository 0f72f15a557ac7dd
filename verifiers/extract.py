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

    "Last" is the box that starts last among those whose braces close; a box whose braces never
    close is ignored, so ``\\boxed{1} ... \\boxed{2`` yields ``1``. One pass over the text (a
    stack of open boxes), so a response of many unclosed boxes costs linear time, not quadratic.
    """
    starts = {m.end(): m.end() for m in _BOX_RE.finditer(text)}
    if not starts:
        return None
    open_boxes: list[tuple[int, int]] = []  # (content start, brace depth outside the box)
    depth, best = 0, None
    for i, ch in enumerate(text):
        if i in starts:
            open_boxes.append((i, depth))
            depth += 1  # the box's own "{" is text[i - 1]
        if ch == "{" and i + 1 not in starts:
            depth += 1
        elif ch == "}":
            depth -= 1
            if open_boxes and open_boxes[-1][1] == depth:
                start, _ = open_boxes.pop()
                if best is None or start > best[0]:
                    best = (start, i)
            depth = max(depth, 0)
    return text[best[0] : best[1]] if best else None


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
