"""The one lexicon of doubt every task reads; the rule and its examples are explained in
docs/guides/rewards.md#hedges-one-lexicon-of-doubt.

The word lists are data (tuples of regex alternatives, grouped by what they do to an answer);
the compiled patterns are built from them once, and three functions apply the rule:
:func:`lowers_commitment` and :func:`offers_other` judge one sentence, :func:`hedge_after` the
text after an answer; :func:`hedges` judges the answer itself. Every pattern is linear: bounded
or possessive repetitions only (tests/verifiers/test_regex_bounds.py checks them).
"""

from __future__ import annotations

import re

# ----- the word lists -----

# doubt about an answer, in English and the languages written in the Latin script a model
# switches to; "could not" and "could never" state a fact
DOUBT = (
    r"probably", r"possibly", r"perhaps", r"maybe", r"likely", r"unlikely", r"unsure",
    r"uncertain", r"not\s+(?:sure|certain|verified|confident)", r"(?:also|equally)\s+possible",
    r"(?:might|could)(?!\s+(?:not|never|only)\b)", r"may\s+(?:well\s+|also\s+)?(?:be|have)",
    r"guess\w*", r"tentative\w*", r"unverified", r"unconfirmed", r"doubt\w*",
    r"(?:don['’]t|do\s+not|doesn['’]t)\s+know", r"no\s+idea", r"kidding", r"joking",
    r"vielleicht", r"wahrscheinlich", r"vermutlich", r"eventuell", r"peut[\s-]?[eê]tre",
    r"probablement", r"quiz[aá]s?", r"tal\s+vez", r"talvez", r"probablemente", r"forse",
    r"probabilmente", r"misschien",
    r"может\s+быть", r"возможно", r"вероятно", r"наверное", r"не\s+уверен\w*",
)  # fmt: skip
DOUBT_CJK = (r"可能", r"也许", r"或许", r"大概", r"不确定", r"不一定")
# symbols of doubt: ❓ ❔ ⁉ ‽ ¿ 🤔 🤷
DOUBT_SYMBOLS = "\u2753\u2754\u2049\u203d\u00bf\U0001f914\U0001f937"
# the answer is not unique or cannot be found
NOT_UNIQUE = (
    r"(?:cannot|can['’]t|can\s+not|unable\s+to|impossible\s+to|not\s+possible\s+to)\s+"
    r"(?:be\s+)?(?:determined?|tell|decided?|known?|say|conclude)",
    r"undetermined", r"indeterminate", r"undecidable", r"not\s+(?:uniquely\s+)?determined",
    r"no\s+unique", r"not\s+unique", r"ambiguous", r"(?:insufficient|not\s+enough)\s+information",
    r"(?:two|several|multiple|many|more\s+than\s+one)\s+(?:consistent\s+|possible\s+|valid\s+)?"
    r"(?:assignments|possibilities)",
    r"(?:two|several|multiple|more\s+than\s+one)\s+(?:consistent|valid)\s+(?:solutions|answers)",
    r"one\s+of\s+(?:two|several|many|the)\s+(?:consistent|possible|valid)",
    r"both\s+(?:(?:assignments|solutions|answers|options|cases)\s+)?(?:are|seem|remain)\s+"
    r"(?:consistent|possible|valid)",
    r"vice\s+versa", r"other\s+way\s+a?round", r"or\s+(?:the\s+)?(?:reverse|opposite|inverse)",
    r"umgekehrt", r"l['’]inverse", r"inversement", r"al\s+rev[eé]s", r"viceversa", r"omgekeerd",
)  # fmt: skip
# an answer said to be wrong (the same words withdraw an earlier box, :mod:`.extract`)
CORRECTION = (
    r"wrong", r"incorrect", r"mistakes?", r"mistaken", r"errors?", r"erroneous", r"miscalculat\w*",
    r"correct(?:ing|ion|ions|ed)", r"not\s+(?:right|correct)", r"isn['’]?t\s+(?:right|correct)",
    r"scratch\s+that", r"take\s+(?:that|it)\s+back", r"retract\w*",
)  # fmt: skip
# the answer contradicts the question, or another value should stand
CONTRADICTION = (
    r"contradict\w*", r"no\s+solutions?", r"inconsistent", r"should\s+(?:be|have)",
    r"on\s+second\s+thought", r"reconsider\w*",
)  # fmt: skip
# a sentence that begins by reopening the answer just given
REOPENING = (
    r"oops", r"whoops", r"wait", r"actually", r"hmm+", r"hold\s+on", r"no,?\s+wait",
    r"on\s+second\s+thought",
)  # fmt: skip
# a condition on the answer (not "if you", "if needed": an offer, not a condition)
CONDITION = (
    r"if(?!\s+(?:you|any|needed|necessary)\b)", r"unless", r"assuming", r"depending",
    r"provided\s+that", r"otherwise", r"alternatively", r"wenn", r"sinon",
)  # fmt: skip
# a sentence that checks or restates the answer: its "if" substitutes, it conditions nothing
CHECK = (
    r"check\w*", r"verif\w*", r"substitut\w*", r"plug\w*", r"confirm\w*", r"as\s+required",
    r"as\s+expected", r"satisf\w*", r"holds", r"indeed",
)  # fmt: skip
CHECK_SYMBOLS = "\u2713\u2714\u2611\u2705"  # ✓ ✔ ☑ ✅
# words that offer another answer beside the one given ("A or B", "also B")
ALTERNATIVE = (
    r"or", r"either", r"also", r"alternatively", r"instead", r"as\s+well", r"too",
    r"oder", r"ou", r"oppure", r"или", r"либо",
)  # fmt: skip
ALTERNATIVE_CJK = (r"或者?", r"还是")
# inside one answer: the words that offer a second one ("7 (possibly 8)", "3 (also 4)")
ALTERNATIVE_INSIDE = (
    r"or", r"either", r"also", r"possibly", r"perhaps", r"maybe", r"alternatively",
    r"oder", r"ou", r"oppure", r"или", r"либо",
)  # fmt: skip
# the qualifiers that stand before another candidate ("except possibly Ava", "or maybe 8")
QUALIFIERS = (r"possibly", r"perhaps", r"maybe", r"probably")
MAY_BE = r"(?:could|might|may)\s+(?:also\s+|well\s+|equally\s+)?be"
# what is said of another answer: "8 also works", "8 is also a valid answer"
ANSWERHOOD = (
    r"works?", r"fits?", r"valid", r"possible", r"correct", r"acceptable", r"an?\s+answer",
    r"an?\s+solution", r"a\s+(?:valid|possible|correct)\s+(?:answer|solution)",
)  # fmt: skip
# the words that name the answer itself, not another one ("this also works")
PRONOUNS = ("this", "that", "it", "which", "answer", "result", "value", "solution", "above")
# words of the speaker's belief (an event's "chance" or "odds" is a value, not doubt)
CONFIDENCE_WORDS = (r"confiden\w*", r"sure", r"certain\w*")


def _words(words: tuple[str, ...]) -> str:
    return "|".join(words)


# ----- the patterns built from them -----

# doubt that holds wherever it stands, inside an answer or after it
DOUBT_RE = re.compile(
    rf"\b(?:{_words(DOUBT)}|{_words(NOT_UNIQUE)})(?!\w)|{_words(DOUBT_CJK)}|[{DOUBT_SYMBOLS}]",
    re.IGNORECASE,
)
# alternatives inside one answer (:func:`.extract.has_alternatives`)
ALTERNATIVES_INSIDE = re.compile(
    rf"\b(?:{_words(ALTERNATIVE_INSIDE)})\b|\balt\.|(?-i:(?<![\w\\])o(?=\s+\S))|"
    rf"{_words(ALTERNATIVE_CJK)}|\\lor\b|\\vee\b",
    re.IGNORECASE,
)
# between two boxes: the earlier one is offered alongside the later one when the text between
# them starts with "or"/"either" or ends with one of these words shortly before the later box
OFFERED_AFTER = re.compile(r"^\W*+(?:or|either)\b", re.IGNORECASE)
OFFERED_BEFORE = re.compile(
    rf"\b(?:or|either|{_words(QUALIFIERS)}|alternatively|otherwise|{MAY_BE})\b[^.!?\n]{{0,30}}$",
    re.IGNORECASE,
)
CORRECTION_RE = re.compile(rf"\b(?:{_words(CORRECTION)})\b", re.IGNORECASE)
_PERCENT = r"(?<![\d.,])(?:\d{1,2}(?:[.,]\d+)?)\s*(?:\\?%|percent\b)"
# a confidence under 100%: "I'm about 70% confident", "Confidence: 50%", "(80% sure)"
CONFIDENCE_RE = re.compile(
    rf"\b(?:{_words(CONFIDENCE_WORDS)})\b[^.!?\n]{{0,40}}?{_PERCENT}|"
    rf"{_PERCENT}[^.!?\n]{{0,40}}?\b(?:{_words(CONFIDENCE_WORDS)})\b",
    re.IGNORECASE,
)
# a bare percentage in brackets after an answer, "(80%)": a confidence unless it is the answer
PERCENT_ASIDE = re.compile(rf"\(\s*(?:about|around|approx\.?|~)?\s*{_PERCENT}\s*\)", re.IGNORECASE)
# a statement of roles (Knights and Knaves) is read by a parser of English: a condition or an
# alternative in another language, or "unless", "alternatively", "... or not", is doubt there
_UNPARSED = ("unless", "alternatively", "oder", "ou", "oppure", "wenn", "sinon")
DOUBT_IN_STATEMENT = re.compile(
    rf"{DOUBT_RE.pattern}|{CONFIDENCE_RE.pattern}|{PERCENT_ASIDE.pattern}|"
    rf"\b(?:{_words(_UNPARSED)})\b|"
    r"\bor\s+not(?=\s*(?:[.!?;)\]]|$))",
    re.IGNORECASE,
)
_LOWERS = re.compile(rf"\b(?:{_words(CORRECTION)}|{_words(CONTRADICTION)})\b|[?？]", re.IGNORECASE)
REOPENING_RE = re.compile(rf"^[\W_]*+(?:{_words(REOPENING)})\b", re.IGNORECASE)
_CONDITION_RE = re.compile(rf"\b(?:{_words(CONDITION)})\b", re.IGNORECASE)
_CHECK_RE = re.compile(rf"\b(?:{_words(CHECK)})\b|[{CHECK_SYMBOLS}]", re.IGNORECASE)
ALTERNATIVE_RE = re.compile(
    rf"\b(?:{_words(ALTERNATIVE)})\b|{_words(ALTERNATIVE_CJK)}", re.IGNORECASE
)
_VALUE = r"-?\$?\d+(?:[.,/]\d+)*+"
_ALT_ANYWHERE = r"(?:or|alternatively|instead|oder|ou|oppure|или|либо)"
_ALT_LEADING = r"(?:also|either|as\s+well|too|equally)"
# another value offered: "or 8" anywhere, "Also 8." and "(also 8)" at the start of a sentence or
# a bracket, "8 also works" / "8 as well" with the value as the sentence's subject
_VALUE_OFFER = re.compile(
    rf"\b{_ALT_ANYWHERE}\b[\s:,]{{0,3}}(?P<after>{_VALUE})(?![\w.]\w)|"
    rf"(?:^|[(\[;])[^\w(\[;]{{0,3}}{_ALT_LEADING}\b[\s:,]{{0,3}}(?P<lead>{_VALUE})(?![\w.]\w)|"
    rf"^[^\w]{{0,3}}(?P<before>{_VALUE})\s{{0,3}}(?:is\s+|would\s+be\s+)?{_ALT_LEADING}\b|"
    rf"{_words(ALTERNATIVE_CJK)}",
    re.IGNORECASE,
)
_SAID_OFFER = re.compile(
    r"(?P<subject>[^\W_][\w.'’-]{0,40}?)\s+(?:is\s+|would\s+be\s+)?(?:also|equally|too)\s+"
    rf"(?:a\s+)?(?:{_words(ANSWERHOOD)})\b",
    re.IGNORECASE,
)
_ANOTHER = re.compile(
    r"\banother\s+(?:valid\s+|possible\s+|correct\s+)?(?:answer|solution|value|option)\b|"
    r"\b(?:answer|solution)s?\s+(?:could|would|might)\s+also\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s++|\n")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split at a sentence's end or a line), in one pass."""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def hedges(answer: str) -> bool:
    """Whether an answer qualifies itself with doubt: a word of :data:`DOUBT` or
    :data:`NOT_UNIQUE`, a question mark, a symbol of doubt, a confidence under 100%."""
    return bool(DOUBT_RE.search(answer) or CONFIDENCE_RE.search(answer)) or any(
        c in answer for c in "?？"
    )


def lowers_commitment(sentence: str, answer: str = "") -> bool:
    """Whether a sentence lowers the commitment to ``answer`` (see the module docstring). A
    reopening ("Wait", "Actually") in a sentence that checks or restates the answer, and a
    percentage in brackets that is the answer itself (``\\frac12`` then "(50%)"), lower
    nothing."""
    if DOUBT_RE.search(sentence) or _LOWERS.search(sentence):
        return True
    if REOPENING_RE.search(sentence) and not (
        _CHECK_RE.search(sentence) or restates(sentence, answer)
    ):
        return True
    if CONFIDENCE_RE.search(sentence):
        return True
    for m in PERCENT_ASIDE.finditer(sentence):
        percent = _PERCENT_VALUE.search(m.group())
        value = float(percent.group().replace(",", ".")) if percent else None
        if value is None or not (same(str(value / 100), answer) or same(str(value), answer)):
            return True
    return bool(_CONDITION_RE.search(sentence)) and not _CHECK_RE.search(sentence)


def offers_other(sentence: str, answer: str) -> bool:
    """Whether a sentence offers a value beside ``answer`` (a value that is the answer itself
    restates it, and offers nothing)."""
    if _ANOTHER.search(sentence):
        return True
    for m in _VALUE_OFFER.finditer(sentence.strip()):
        value = m.group("after") or m.group("lead") or m.group("before")
        if value is None or not same(value.replace("$", ""), answer):
            return True
    for m in _SAID_OFFER.finditer(sentence):
        subject = m.group("subject").casefold()
        if subject not in PRONOUNS and not same(m.group("subject"), answer):
            return True
    return False


def hedge_after(text: str, answer: str) -> bool:
    """Whether text after the committed ``answer`` hedges it: one of its sentences lowers the
    commitment or offers another value (a check or a restatement does neither)."""
    return any(lowers_commitment(s, answer) or offers_other(s, answer) for s in sentences(text))


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_FRACTION = re.compile(r"(-?)\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}|(-?\d+)\s*/\s*(\d+)")
_PERCENT_VALUE = re.compile(r"\d{1,2}(?:[.,]\d+)?")


def _number(text: str) -> float | None:
    """The number ``text`` is, when it is one (``12``, ``-0.5``, ``\\frac{1}{2}``, ``3/4``)."""
    text = text.strip().rstrip(".,").replace("$", "").replace(",", "")
    if _NUMBER.fullmatch(text):
        return float(text)
    m = _FRACTION.fullmatch(text)
    if m and m.group(2):
        return (-1 if m.group(1) else 1) * int(m.group(2)) / max(int(m.group(3)), 1)
    if m:
        return int(m.group(4)) / max(int(m.group(5)), 1)
    return None


def same(value: str, answer: str) -> bool:
    """Whether a value named beside ``answer`` is the answer itself: the same number, or words
    the answer holds."""
    number = _number(answer)
    value = value.strip().rstrip(".,")
    if number is not None and _number(value) is not None:
        return abs(_number(value) - number) < 1e-9
    return bool(value) and value.casefold() in " ".join(answer.casefold().split())


def restates(sentence: str, answer: str) -> bool:
    """Whether a sentence names ``answer`` itself (its number, or its words)."""
    if not answer:
        return False
    if _number(answer) is not None:
        return any(same(m.group(), answer) for m in _NUMBER.finditer(sentence))
    return " ".join(answer.casefold().split()) in " ".join(sentence.casefold().split())
