"""Answer extraction shared by the scorers: the final answers of a response and their clean form.

Model output is hostile input: everything here is linear in the text, never raises on any string,
and caps what it looks at (``MAX_CHARS`` from the end: answers live at the end of a response).

Which answers count (docs/concepts/spec.md#rewards), one rule for every boxed-answer task
(:func:`final_answers`; docs/guides/rewards.md has the examples):

- The final answers are the boxes (``\\boxed{}``, ``\\fbox{}``) that close, in the text after the
  last ``</think>`` when there is one: a box inside the reasoning is a step of the reasoning.
  A box nested in another box is part of the outer one; an empty box is the instruction quoted.
- Cut off: a response that opened ``<think>`` and never closed it, or that opened a box after its
  last closed one (with no closed box at all it has no answer: ``no_boxed``), or whose text after
  the last box stops mid-sentence or mid-formula (its last word is one like "the", "is", "and",
  or it ends in an operator, an open bracket, a comma or a colon), or runs on for
  ``MAX_REMARK_CHARS`` or more without ending a sentence, or leaves a formula or a brace open, or
  begins a sentence after the answer's and stops it after ``MIN_CUT_WORDS`` words or more, has
  no answer (``cut_off``). A short remark after the box, finished or not ("\\boxed{204}
  minutes"), is fine.
- Text after the final answer that hedges it (:func:`doubts_after`, by the rule of
  :func:`.lexicon.uncommits`: a sentence that states a confidence below certainty or offers
  another candidate of the answer's type), or the sentence that leads into the first of the
  final answers (:func:`.lexicon.lead_in`: "It's probably \\boxed{7}."), makes it no committed
  answer (``hedged``). A box named only to be rejected (``\\boxed{7}, not
  \\boxed{8}``, "The answer is not ``\\boxed{8}``; it is ...", ``\\boxed{8}? No.``,
  ``\\boxed{8}... wait, no.``) or as a mistake ("a common mistake would be to answer
  ``\\boxed{8}``") is no answer.
- Walking back from the last box, each earlier box is, by the text between it and the next box:
  withdrawn when that text says it was wrong (:data:`.lexicon.CORRECTION`); else offered
  alongside the next one when it starts or ends with an alternative (:data:`.lexicon.OFFERED_AFTER`,
  :data:`.lexicon.OFFERED_BEFORE`), speaks of another reading or another candidate ("under the
  other reading we get", :data:`.lexicon.OFFERED_BETWEEN`), names another condition or way
  ("if", "while", "otherwise", "one way": ``_PARALLEL``) unless it states the next box as the
  answer, or is bare (fewer than four words and no arithmetic on a
  number: ``\\boxed{5}, wait, \\boxed{6}``); else it is a step of the reasoning, like every box
  before it, unless it holds a whole answer of the task (a name of the Zebra puzzle, an ARC
  grid, a Countdown expression over every given number, a Knights-and-Knaves block: none is a
  step of anything), which then counts alongside unless the text rejects it
  (:func:`.lexicon.rejects`: "Wait, Leo's statement doesn't fit that."). The boxes that count
  are the last box and those offered alongside it.
- :func:`clean_answer` removes what a human reads past: ``$``, surrounding markdown bold or
  italics, ``\\text{}``/``\\textbf{}``/``\\textsc{}``/``\\underline{}``/``\\mathrm{}`` and
  similar wrappers, LaTeX and unicode spacing (``\\,`` ``\\;`` ``\\:`` ``\\!`` ``\\ `` ``~``
  ``\\quad``, thin and no-break spaces), an "Answer:" or "Final answer:" label and trailing
  sentence punctuation (a ``!`` after a number or a bracket is a factorial, not punctuation).
- :func:`unicode_to_latex` reads the unicode operators and symbols a model types
  (− × · ∗ ÷ ½ √ ° ∞ π ≤ ≥ ≠) as their LaTeX spelling.
- :func:`clean_answer`'s label is "Answer:", "Final answer:", "The (final) answer is" (also
  inside ``\\text{}``): a label before the one answer that follows, in every boxed task (ARC also
  reads "Output:" and "Output grid:" as its label, :mod:`.arc`).
- Inside one box, a parenthetical or a trailing clause is decoration only when it restates or
  explains (``Peter (House 1)``). :func:`has_alternatives` flags an answer that offers
  alternatives and :func:`split_alternatives` gives the parts; :func:`hedges` flags doubt. Both
  read :mod:`.lexicon`, so a box that doubts its own answer is ``hedged`` in every task.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from pac_verl.verifiers import lexicon

MAX_CHARS = 20_000  # only the last 20k characters of a response are read
# what a reader does not see (docs/guides/rewards.md#what-a-reader-does-not-see): format
# characters (zero-width spaces and joiners, the byte-order mark, the soft hyphen, direction
# marks), runs of blank lines and of spaces, whitespace at the end
_INVISIBLE = dict.fromkeys(
    c for c in (*range(0x10000), *range(0xE0000, 0xE0080)) if unicodedata.category(chr(c)) == "Cf"
)
# every question mark of Unicode reads as "?": a punctuation mark or symbol named for a question
# or an interrobang ("⁈", "؟", "¿", the Greek ";", "❓"), so a question or doubt in any script is
# one ("7⁈" after a box doubts it as "7?" does)
QUESTION_MARKS = {
    c: "?"
    for c in range(0x80, 0x20000)
    if unicodedata.category(chr(c)) in ("Po", "So")
    and any(word in unicodedata.name(chr(c), "") for word in ("QUESTION", "INTERROBANG"))
    and not unicodedata.name(chr(c)).startswith("APL")
}
# letters of another script that look like Latin ones (Unicode's confusables for Cyrillic and
# Greek): inside a word that also holds Latin letters they are read as the Latin letter they
# show ("prоbably" with a Cyrillic o is "probably"); a word all in one script is left alone
LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁһԛԝӏАВЕКМНОРСТХУІЈЅοαενρτυχιΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhqwlABEKMHOPCTXYIJSoaevptuxiABEZHIKMNOPTYX",
)
_LOOKALIKE_CHARS = frozenset("аеорсухіјѕԁһԛԝӏАВЕКМНОРСТХУІЈЅοαενρτυχιΑΒΕΖΗΙΚΜΝΟΡΤΥΧ")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_WORD_RUN = re.compile(r"[^\W\d_]++")
_BLANK_LINES = re.compile(r"\n(?:[ \t\r\f\v]*+\n){2,}+")
_LONG_SPACE = re.compile(r"(?<![ \t])[ \t]{200,}+")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")
_BARE_BOX_RE = re.compile(r"\\(?:boxed|fbox)[ \t]*(-?\d+(?:\.\d+)?)(?![\d.]\d)")
_WRAP_RE = re.compile(
    r"\\(?:text|textbf|textit|texttt|textrm|textsf|mathrm|mathbf|mathit|mathsf|mathtt|mbox|"
    r"boldsymbol|emph|boxed|fbox|textsc|textup|textnormal|textmd|underline|uline|hbox)\s*"
    r"\{([^{}]*)\}"
)
_SPACING_RE = re.compile(r"(?<!\\)\\(?:[,;:! ]|quad|qquad|thinspace|medspace|thickspace|enspace)|~")
_UNICODE_SPACES = str.maketrans({c: " " for c in "\u00a0\u2009\u202f\u2002\u2003\u2005\u200a"})
# what a reader does not see as part of the answer: a colour, invisible space
_COSMETIC_RE = re.compile(
    r"\\(?:color\s*\{[^{}]*\}|[hv]?phantom\s*\{[^{}]*\})|\\textcolor\s*\{[^{}]*\}"
)
_MARKDOWN_WRAP_RE = re.compile(r"^(\*\*|__|\*|_|`)(.+)\1$", re.DOTALL)
_TRAILING_PUNCT = ".,;:。"  # "?" is doubt, not punctuation (:func:`hedges`)
# "Answer: 7", "\\text{Answer: } 7", "\\textbf{The final answer is} 7": a label, not the answer
_LABEL_RE = re.compile(
    r"^(?:\\(?:text|textbf|textit|mathrm|mathbf)\s*\{\s*(?:the\s+)?(?:final\s+)?answer"
    r"(?:\s++is)?+\s*+(?::\s*+)?+\}|(?:the\s+)?(?:final\s+)?answer(?:\s+is\b|\s*+:))\s*+(?=\S)",
    re.IGNORECASE,
)
_UNICODE_LATEX = (
    ("−", "-"), ("–", "-"), ("×", "\\times "), ("·", "\\cdot "), ("⋅", "\\cdot "), ("∗", "*"),
    ("÷", "\\div "), ("½", "\\frac{1}{2}"), ("⅓", "\\frac{1}{3}"), ("⅔", "\\frac{2}{3}"),
    ("¼", "\\frac{1}{4}"), ("¾", "\\frac{3}{4}"), ("°", "^\\circ"), ("∞", "\\infty "),
    ("π", "\\pi "), ("≤", "\\le "), ("≥", "\\ge "), ("≠", "\\ne "), ("≈", "\\approx "),
    ("⇒", "\\Rightarrow "), ("→", "\\to "), ("≡", "\\equiv "),
)  # fmt: skip
_SQRT_RE = re.compile(r"√\s*(\([^()]*\)|\{[^{}]*\}|[0-9.]+|[A-Za-z])")
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ]++")


def tail(text: object) -> str:
    """The part of ``text`` a scorer reads (non-strings become empty): the last ``MAX_CHARS``
    characters once whitespace at the end is dropped, so no amount of it pushes the answer out of
    the window. Code reads its program so, as written, but for a byte-order mark at a line's
    start, which Python reads past at the start of a source file."""
    if not isinstance(text, str):
        return ""
    return _LINE_BOM.sub("", text.rstrip()[-MAX_CHARS:])


_LINE_BOM = re.compile("(?m)^\ufeff++")


def reading(text: object) -> str:
    """:func:`tail` of the text a reader sees (docs/guides/rewards.md#what-a-reader-does-not-see):
    format characters (U+200B, U+200D, U+2060, U+FEFF, U+00AD, ...) gone, every question mark
    of Unicode (:data:`QUESTION_MARKS`) a "?", a run of 200 spaces or
    more one space, a run of blank lines one blank line, and a word that mixes Latin letters with
    look-alikes of another script (:data:`LOOKALIKES`) in Latin letters. Every scorer but code's
    reads this."""
    if not isinstance(text, str):
        return ""
    text = _LONG_SPACE.sub(" ", text.translate(_INVISIBLE).translate(QUESTION_MARKS))
    return tail(_WORD_RUN.sub(_latin, _BLANK_LINES.sub("\n\n", text)))


def _latin(word: re.Match) -> str:
    """A word that mixes Latin letters with look-alikes of another script, in Latin letters."""
    text = word.group()
    if not _LOOKALIKE_CHARS.intersection(text) or not _ASCII_LETTER.search(text):
        return text
    return text.translate(LOOKALIKES)


def after_think(text: str) -> str:
    """DeepScaleR-style: the text after the last ``</think>`` when there is one."""
    idx = text.rfind("</think>")
    return text[idx + len("</think>") :] if idx >= 0 else text


def answer_region(text: str) -> str:
    """The last ``<answer>`` content and what follows its ``</answer>`` (text after the answer
    is still after it: a second program or a doubt there counts), else the text after
    ``</think>``."""
    text = after_think(text)
    start = text.rfind("<answer>")
    if start >= 0:
        end = text.find("</answer>", start)
        if end < 0:
            return text[start + len("<answer>") :]
        return text[start + len("<answer>") : end] + "\n\n" + text[end + len("</answer>") :]
    return text


def box_spans(text: str) -> tuple[list[tuple[int, int, int]], bool]:
    """Every outermost closed ``\\boxed{...}`` / ``\\fbox{...}`` as ``(command start, content
    start, content end)``, in order, and whether a box never closes.
    ``\\boxed 7`` (no braces: TeX boxes the one token after it) is a box of the number after it.

    One pass over the text with a stack of open boxes, so a response of many unclosed boxes costs
    linear time. A box whose braces never close is ignored (``\\boxed{1} ... \\boxed{2`` gives
    the first box, and True); a closed box inside an unclosed one is read (``\\boxed{\\boxed{4}``
    gives 4), and the unclosed one around it is a box that never closes (True).
    """
    starts = {m.end(): m.start() for m in _BOX_RE.finditer(text)}
    if not starts and "\\boxed" not in text and "\\fbox" not in text:
        return [], False
    open_boxes: list[tuple[int, int]] = []  # (content start, brace depth outside the box)
    closed: list[tuple[int, int]] = []
    depth = 0
    for i, ch in enumerate(text):
        if i in starts:
            open_boxes.append((i, depth))
            depth += 1  # the box's own "{" is text[i - 1]
        if ch == "{" and i + 1 not in starts:
            depth += 1
        elif ch == "}":
            depth -= 1
            if open_boxes and open_boxes[-1][1] == depth:
                closed.append((open_boxes.pop()[0], i))
            depth = max(depth, 0)
    closed.sort()
    outer: list[tuple[int, int, int]] = []
    for start, end in closed:
        if not outer or start > outer[-1][2]:  # not inside the previous outermost box
            outer.append((starts[start], start, end))
    # "\\boxed 7": TeX boxes the one token that follows; a reader reads the number
    outer += [
        (m.start(), m.start(1), m.end(1))
        for m in _BARE_BOX_RE.finditer(text)
        if not any(s <= m.start() < e for _, s, e in outer)
    ]
    outer.sort()
    return outer, bool(open_boxes)


def boxes(text: str) -> list[str]:
    """Contents of every outermost closed box, in order (:func:`box_spans`)."""
    return [text[s:e] for _, s, e in box_spans(text)[0]]


# ----- which boxes count: cut-off responses, corrections, alternatives, steps -----

MAX_REMARK_CHARS = 200  # text after the last box this long must end a sentence (else cut off)
BARE_WORDS = 4  # text between two boxes with fewer words (and no arithmetic) is bare
# the ends of a finished sentence or line: punctuation, a closing bracket or quote, and a check
# mark or an end of proof ("... true ✓", a verification list's last line)
_FINISHED = frozenset(".!?)]}$*\"'`”’>|。…✓✔✅☑∎□■")
_MID_SENTENCE = re.compile(
    r"(?:(?<![\w\\])(?:a|an|the|is|are|was|were|be|been|and|or|but|of|to|in|on|at|for|with|"
    r"by|from|that|which|so|then|if|since|because|as|we|it|not|this|than|into|its|let|thus|"
    r"hence|therefore|where|when|while|except)|[-+/=^(\[{,:;&<\\]|"
    r"\\(?:times|cdot|div|pm|mp|frac|sqrt|left|implies|Rightarrow|to))$",
    re.IGNORECASE,
)
_MARKDOWN_END = re.compile(r"(?:[-*_=]{3,}|[*_`~]+)?\s*$")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_ARITHMETIC = re.compile(
    r"\d\s*(?:[-+*/^=×÷·]|\\(?:cdot|times|div)\b)|(?:[-+*/^=×÷·]|\\(?:cdot|times|div)\b)\s*\d"
)


# a box named only to be rejected: "\\boxed{7}, not \\boxed{8}", "rather than", "instead of"
# a box named as a wrong answer: "a common mistake would be to answer \\boxed{7}"
_NAMED_WRONG = re.compile(
    rf"\b(?:{'|'.join(lexicon.WRONG_ANSWER)})\b"
    r"(?:\s++(?:here|people\s+make|students\s+make|made))?+\s++(?:would\s+be|is|was)\s*+(?:to\s+(?:answer|say|write|give|get|put|box)\s*+)?"
    r"[$(\s]*+$",
    re.IGNORECASE,
)
# a gap that puts the next box beside the last under another condition or way: "If we exclude
# the ends we get \\boxed{7} and if we include them we get \\boxed{8}", "... one way, while ..."
_PARALLEL = re.compile(rf"\b(?:{'|'.join(lexicon.PARALLEL)})\b", re.IGNORECASE)
_STATES_ANSWER = re.compile(
    r"\b(?:final\s+|correct\s+|real\s+)?answer\s*+(?:is|:)[\s$*(]*+$", re.IGNORECASE
)
# a doubt raised only as a question, and the bare affirmation that answers it after a check
_AFFIRMS = re.compile(rf"(?:{'|'.join(lexicon.AFFIRMATIONS)})[\s.!✓]*+", re.IGNORECASE)
# a negation right before the last box: the box is what the answer is not
_NEGATED_BOX = re.compile(
    rf"(?:{'|'.join(lexicon.NOT_THIS)})[ \t]*+(?:the\s+|an?\s+)?[$*(\[\\ \t]*+$",  # "\\(" too
    re.IGNORECASE,
)
# a denial right after a box: "\\boxed{8}? No.", "\\boxed{8}... wait, no.", "\\boxed{8}? Not quite."
_NO_AFTER = re.compile(
    rf"(?:[ \t$]|\\[)\]])*+(?:\?|\.{{3}}|…)?[ \t]*+(?:(?:wait|hmm+|oh)[ \t,.!]*+)?{lexicon.DENIAL}",
    re.IGNORECASE,
)
# a gap that ends by denying the box before it: "is my first guess... no."
_DENIED_AT_END = re.compile(rf"(?:^|[\s.…,;:!—–-]){lexicon.DENIAL}[\s.…,;:!—–-]*+$", re.IGNORECASE)
_REJECTS = re.compile(r"^[\W_]*(?:(?:and|but)\s+)?(?:not|rather\s+than|instead\s+of)[\W_]*$", re.I)
# "the answer is 8", "Final answer: 8" after the box
MIN_CUT_WORDS = 5  # a sentence begun after the final answer, unfinished, this long: cut off
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\n")
# a "\\)" or "\\]" right after the box closes the answer's formula (a "$" closes one only where the
# box stands in a "$" formula: ``in_formula``)
_MATH_CLOSER = re.compile(r"^\s*(?:\\\)|\\\])")
_DOLLAR = re.compile(r"(?<!\\)\$\$?")


@dataclass(frozen=True, slots=True)
class FinalAnswers:
    """The boxes of a response that count, in order, or ``cut_off`` (then no answer counts), or
    ``hedged`` (the text after them retracts or doubts them: no committed answer)."""

    answers: tuple[str, ...] = ()
    cut_off: bool = False
    hedged: bool = False


def think_unclosed(text: str) -> bool:
    """Whether the last ``<think>`` is never closed: the response never left its reasoning."""
    return text.rfind("<think>") > text.rfind("</think>")


def stops_mid_sentence(text: str) -> bool:
    """Whether ``text`` visibly stops mid-sentence or mid-formula (see the module docstring).
    Markdown that closes a response (``**``, a ``---`` rule) is read past."""
    end = text[-200:]
    for _ in range(3):
        end = _MARKDOWN_END.sub("", end)
    return bool(_MID_SENTENCE.search(end[-40:]))


def unfinished_after(rest: str, in_formula: bool = False) -> bool:
    """The cut-off rule for the text after a final answer: it stops mid-sentence or
    mid-formula, or it runs on for ``MAX_REMARK_CHARS`` or more without ending a sentence, or it
    leaves a formula or a brace open (:func:`open_formula`), or a sentence it begins after the
    answer's own stops unfinished after ``MIN_CUT_WORDS`` words or more (``\\boxed{7}. Let me
    check this by substituting``: a short remark, ``\\boxed{204} minutes``, is fine).
    ``in_formula``: the answer sits inside a ``$`` formula, which the text's first ``$`` closes
    (``$\\boxed{\\frac{14}{3}} \\approx 4.67$.``)."""
    rest = rest.strip()
    if not rest:
        return False
    if stops_mid_sentence(rest) or (len(rest) >= MAX_REMARK_CHARS and rest[-1] not in _FINISHED):
        return True
    return open_formula(rest, in_formula) or _unfinished_sentence(rest)


def open_formula(rest: str, in_formula: bool = False) -> bool:
    """Whether the text after a final answer ends inside a formula: a ``$``, ``\\(`` or ``\\[``
    it opens never closes, or a ``{`` (a ``$`` or ``\\)`` that closes the answer's own formula
    first is read past; ``\\$12`` is a dollar sign)."""
    closer = _MATH_CLOSER.match(rest) or (_DOLLAR.search(rest) if in_formula else None)
    text = rest[closer.end() :] if closer else rest
    dollars = list(_DOLLAR.finditer(text))
    if len(dollars) % 2 and text[dollars[-1].end() :][:1].strip():  # "$3 \\cdot 7 = 2"
        return True
    if text.count("\\(") > text.count("\\)") or text.count("\\[") > text.count("\\]"):
        return True
    depth = 0
    for i, ch in enumerate(text):
        if (ch == "{" or ch == "}") and i and text[i - 1] == "\\":
            continue
        depth += 1 if ch == "{" else -1 if ch == "}" else 0
        depth = max(depth, 0)
    return depth > 0


def _unfinished_sentence(rest: str) -> bool:
    end = rest
    for _ in range(3):
        end = _MARKDOWN_END.sub("", end)
    if not end or end[-1] in _FINISHED:
        return False
    parts = _SENTENCE_END.split(end)
    return len(parts) > 1 and len(_WORD.findall(parts[-1])) >= MIN_CUT_WORDS


def doubts_after(rest: str, answer: str, kind: str = "value") -> bool:
    """Whether the text after the final answer hedges it: one of its sentences un-commits it
    (:func:`.lexicon.hedge_after`, ``kind`` the answer's type;
    docs/guides/rewards.md#hedges-one-lexicon-of-doubt; a later label stating another candidate,
    "Final answer: 8" after ``\\boxed{7}``, is one) and the response does not settle it."""
    boxed = clean_answer(answer)
    return lexicon.hedge_after(rest, boxed, kind) and not _settled(rest, boxed, kind)


def _settled(rest: str, boxed: str, kind: str = "value") -> bool:
    """Whether the response settles its doubt: its last sentence doubts nothing and commits to
    the boxed answer again explicitly ("Hmm, should the endpoints be included? ... Since it is
    strict, the answer stays (-2, 8).", "Is it 8? No: 3 + 4 = 7, so the answer is 7.") or
    rejects every other value offered before it ("Could it be 8? No, 8 fails clue 2.", "Could
    it be 8? No, 8 gives 17.": :func:`.lexicon.denies_by_result`; "Could it be 54? No, 54 = 6
    \\times 9.": :func:`.lexicon.denies_by_computation`), or
    answers a question that offered no other value with a bare affirmation after a check ("Wait,
    that's 46? 50-4=46. Yes."), as a
    grader reads a doubt raised and answered (:func:`.lexicon.recommits`). A last sentence that
    only mentions the answer ("I checked all 7 cases", "Arnold drinks coffee") settles nothing."""
    sentences = lexicon.sentences(lexicon.names_read(rest.strip(), kind))  # "bob" is Bob
    if not sentences or not boxed:
        return False
    last = " ".join(sentences[-1].split())
    offered = set()
    for sentence in sentences[:-1]:
        if lexicon.uncommits(sentence, boxed, kind) or lexicon.states_other(sentence, boxed, kind):
            offered |= lexicon.offered_values(sentence, boxed, kind)
    if lexicon.denies_by_result(last, offered) or lexicon.denies_by_computation(last, offered):
        return True  # "Could it be 16? No, 16 gives 33.", "Could it be 54? No, 54 = 6 \\times 9."
    if lexicon.hedge_after(sentences[-1], boxed, kind):
        return False
    if lexicon.recommits(last, boxed, kind):
        return True
    if _AFFIRMS.fullmatch(last) and _checked_question(sentences[:-1], boxed, kind):
        return True  # "Wait, that's 46? 50-4=46. Yes.": a question answered by a check
    return lexicon.rejects_all(last, boxed, offered, kind)


def _checked_question(sentences: list[str], boxed: str, kind: str) -> bool:
    """Whether the doubt before a bare affirmation is only a question of the answer's own value,
    checked: the sentences that un-commit doubt by their question mark alone, name no number
    but what a later sentence computes ("= 46"), and a later sentence computes."""
    computed = " ".join(s for s in sentences if "=" in s)
    if not computed:
        return False
    for sentence in sentences:
        if not lexicon.uncommits(sentence, boxed, kind):
            continue
        plain = sentence.replace("?", ".").replace("？", ".")
        if lexicon.uncommits(plain, boxed, kind) or lexicon.states_other(plain, boxed, kind):
            return False  # doubt in words, or another value offered
        numbers = re.findall(r"\d+(?:\.\d+)?", sentence)
        if any(not re.search(rf"=\s*{re.escape(n)}(?![\d.])", computed) for n in numbers):
            return False
    return True


# a gap made only of words that correct what came before ("Wait, no:", "No wait, it's", "Oops, I
# mean"), one of them a correction ("wait" alone leaves both boxes standing: ``_bare``)
_GAP_MARKS = r"[\s.,;:!?…—–-]*+"
_CORRECTED = re.compile(
    rf"{_GAP_MARKS}(?:(?:{'|'.join(lexicon.GAP_CORRECTION_WORDS)}){_GAP_MARKS}){{1,4}}+"
    rf"(?:(?:{'|'.join(lexicon.GAP_CORRECTION_LEADS)})[ \t:]*+)?+",
    re.IGNORECASE,
)
_CORRECTING = re.compile(rf"\b(?:{'|'.join(lexicon.GAP_CORRECTIONS)})\b", re.IGNORECASE)


def _bare(gap: str) -> bool:
    if _ARITHMETIC.search(gap):
        return False
    return all(count < BARE_WORDS for count, _ in enumerate(_WORD.finditer(gap), 1))


def _relation(gap: str) -> str:
    """How the box before ``gap`` relates to the box after it: ``withdrawn``, ``alongside`` or
    ``step`` (see the module docstring)."""
    if lexicon.CORRECTION_RE.search(gap) and not _NAMED_WRONG.search(gap):
        return "withdrawn"
    if _CORRECTED.fullmatch(gap) and _CORRECTING.search(gap):
        return (
            "withdrawn"  # "\\boxed{8}. Wait, no: \\boxed{7}", "\\boxed{8}. Oops, I mean \\boxed{7}"
        )
    offered = lexicon.OFFERED_AFTER.search(gap[:40]) or lexicon.OFFERED_BEFORE.search(gap[-80:])
    if offered or _bare(gap) or lexicon.OFFERED_BETWEEN.search(gap):
        return "alongside"
    if _PARALLEL.search(gap) and not _STATES_ANSWER.search(gap):
        return "alongside"  # another condition or way, unless the next box is stated as the answer
    return "step"


# an answer that combines variables and states the result: "m+n=7", "a \\cdot b = 12"
_OPERATION = re.compile(r"[-+*/^]|\\(?:cdot|times)\b")
_LETTER_VARIABLE = re.compile(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])")


def final_answers(
    solution_str: object,
    ignore: Callable[[str], bool] | None = None,
    kind: str = "value",
    whole: Callable[[str], bool] | None = None,
) -> FinalAnswers:
    """The final answers of a response by the rules of the module docstring. ``ignore(box)``:
    boxes that are no answer of their own (Countdown's target boxed beside the expression);
    ``kind``: the answer's type (:data:`.lexicon.KINDS`), which says what another candidate is;
    ``whole(box)``: boxes that hold a whole answer of the task (a name of the puzzle, a grid,
    an expression over every given number, a block of roles), which are never a step of the
    reasoning: such a box before the last counts beside it unless it is withdrawn."""
    if not isinstance(solution_str, str):
        return FinalAnswers()
    if think_unclosed(solution_str):
        return FinalAnswers(cut_off=True)
    region = after_think(reading(solution_str))
    spans, unclosed = box_spans(region)
    in_formula = spans and len(_DOLLAR.findall(region[: spans[-1][0]])) % 2 == 1
    rest = region[_after(region, spans[-1][2]) :] if spans else ""
    if spans and (unclosed or unfinished_after(rest, in_formula)):
        return FinalAnswers(cut_off=True)
    kept = [
        (start, s, e)
        for start, s, e in spans
        if region[s:e].strip() and not (ignore is not None and ignore(region[s:e]))
    ]
    while len(kept) > 1 and _rejected(region[_after(region, kept[-2][2]) : kept[-1][0]]):
        kept.pop()  # "\\boxed{7}, not \\boxed{8}": 8 is named to be rejected
    kept = [box for i, box in enumerate(kept) if i == len(kept) - 1 or not _withdrawn(region, box)]
    if kept and _NEGATED_BOX.search(region[max(0, kept[-1][0] - 40) : kept[-1][0]]):
        return FinalAnswers(hedged=True)  # "The answer is not \\boxed{7}.": no answer given
    if not kept:
        return FinalAnswers()
    first = len(kept) - 1
    while first > 0:
        gap = region[_after(region, kept[first - 1][2]) : kept[first][0]]
        relation = _relation(gap)
        if relation == "step" and whole is not None and whole(region[slice(*kept[first - 1][1:])]):
            # a whole answer is no step: withdrawn where the words between reject it ("Wait,
            # Leo's statement doesn't fit that."), else offered beside the next ("\\boxed{Bob}.
            # Two names fit the clues, the other being \\boxed{Arnold}")
            rejected = (  # "... doesn't fit that", "is my first guess... no."
                lexicon.rejects(gap) or _DENIED_AT_END.search(gap)
            )
            relation = "withdrawn" if rejected else "alongside"
        if relation != "alongside":
            break
        first -= 1
    answers = tuple(region[s:e] for _, s, e in kept[first:])
    before = region[_after(region, kept[first - 1][2]) if first else 0 : kept[first][0]]
    boxed = clean_answer(answers[-1])
    if lexicon.uncommits(_operands_known(lexicon.lead_in(before), boxed), boxed, kind, lead=True):
        return FinalAnswers(answers, hedged=True)  # "I'm 60% sure; 8 is the other candidate."
    if doubts_after(region[_after(region, kept[-1][2]) :], answers[-1], kind):
        return FinalAnswers(answers, hedged=True)
    return FinalAnswers(answers)


def _operands_known(lead: str, boxed: str) -> str:
    """The lead-in without the values it gives the variables the boxed equation combines ("So
    $m = 2$, $n = 5$." before ``\\boxed{m+n=7}``): operands of the answer, not candidates."""
    combined, equals, value = boxed.partition("=")
    if not equals or "=" in value or not _OPERATION.search(combined):
        return lead
    names = "".join(sorted(set(_LETTER_VARIABLE.findall(combined))))
    return (
        re.sub(rf"(?<![A-Za-z\\])([{names}])\s*=\s*-?\d+(?:\.\d+)?", r"\1", lead) if names else lead
    )


def _withdrawn(region: str, box: tuple[int, int, int]) -> bool:
    """Whether a box before the last is named to be rejected: a negation before it ("The answer
    is not \\boxed{8}; it is \\boxed{7}", "Not \\boxed{8}.") or a no after it ("\\boxed{8}? No.",
    "\\boxed{8}... wait, no.")."""
    start, _, end = box
    if _NEGATED_BOX.search(region[max(0, start - 40) : start]):
        return True
    return bool(_NO_AFTER.match(region, _after(region, end)))


def _rejected(gap: str) -> bool:
    """Whether the text before a box names that box to reject it ("not", "rather than", "a
    common mistake would be to answer")."""
    return bool(_REJECTS.match(gap) or _NAMED_WRONG.search(gap))


def _after(text: str, end: int) -> int:
    """Where the text after a box whose content ends at ``end`` begins."""
    return end + 1 if text[end : end + 1] == "}" else end


def final_boxes(solution_str: object) -> list[str]:
    """The boxes that count (:func:`final_answers`); none for a cut-off response."""
    return list(final_answers(solution_str).answers)


def last_boxed(text: str) -> str | None:
    """Content of the last closed outermost box, else None."""
    found = boxes(text)
    return found[-1] if found else None


def unwrap_text(s: str) -> str:
    """Strip LaTeX text wrappers (``\\text{arnold}`` -> ``arnold``), innermost first."""
    for _ in range(8):
        new = _WRAP_RE.sub(r"\1", s)
        if new == s:
            break
        s = new
    return s


def clean_answer(s: str, unwrap: bool = True) -> str:
    """An answer as a human reads it: wrappers, markdown, spacing and trailing punctuation gone.

    ``unwrap=False`` keeps ``\\text{}``-style wrappers (math-verify reads ``\\text{ cm}`` as a
    unit and ``\\text{ or }`` as a separator, which unwrapped text would lose)."""
    s = s.translate(_INVISIBLE).translate(_UNICODE_SPACES).translate(lexicon.FULL_WIDTH)
    s = _COSMETIC_RE.sub("", s)
    s = _SPACING_RE.sub(" ", s)
    for _ in range(4):
        before = s
        s = (unwrap_text(s) if unwrap else s).strip().strip("$").strip()
        match = _MARKDOWN_WRAP_RE.match(s)
        if match:
            s = match.group(2).strip()
        s = _LABEL_RE.sub("", s, count=1)
        s = _strip_trailing_punctuation(s)
        if s == before:
            break
    return " ".join(s.split())


def _strip_trailing_punctuation(s: str) -> str:
    """``204.`` -> ``204``, ``Arnold!`` -> ``Arnold``; but ``5!`` and ``3!!`` are factorials, and
    ``0.3636...`` keeps its ellipsis."""
    end = len(s)
    while end:
        if s[:end].endswith("...") and s[: end - 3][-1:].isdigit():
            break  # "0.3636...": a repeating decimal's ellipsis, not a full stop
        ch = s[end - 1]
        factorial = ch == "!" and end > 1 and s[end - 2] in "0123456789)}]!"
        if not (ch.isspace() or ch in _TRAILING_PUNCT or (ch == "!" and not factorial)):
            break
        end -= 1
    return s[:end]


def unicode_to_latex(s: str) -> str:
    """Unicode operators and symbols in their LaTeX spelling (``√2`` -> ``\\sqrt{2}``, ``x²``
    -> ``x^{2}``)."""
    s = _SQRT_RE.sub(lambda m: "\\sqrt{" + m.group(1).strip("(){}") + "}", s)
    s = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group(0).translate(_SUPERSCRIPT) + "}", s)
    for old, new in _UNICODE_LATEX:
        s = s.replace(old, new)
    return s.replace("√", "\\sqrt")


def has_alternatives(s: str) -> bool:
    """Whether an answer offers alternatives (:data:`.lexicon.ALTERNATIVES_INSIDE`)."""
    return bool(lexicon.ALTERNATIVES_INSIDE.search(s))


def hedges(s: str) -> bool:
    """Whether an answer qualifies itself with doubt (:func:`.lexicon.hedges`): such a box is no
    committed answer, whether or not it names the other candidate, so every scorer grades it
    ``hedged``."""
    return lexicon.hedges(s)


def split_alternatives(s: str) -> list[str]:
    """The parts of an answer that offers alternatives (``7 (possibly 8)`` -> ``["7", "8"]``),
    brackets and commas at their edges gone; ``[s]`` when it offers none."""
    parts = [p.strip(" \t\n,;()[]") for p in lexicon.ALTERNATIVES_INSIDE.split(s)]
    parts = [p for p in parts if p]
    return parts if len(parts) > 1 else [s]
