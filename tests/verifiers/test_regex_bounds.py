"""No regular expression of the verifiers backtracks exponentially (docs/guides/rewards.md#bounded-grading).

A static check, not a clock: every module-level pattern of ``pac_verl.verifiers`` (and the K&K
patterns built for a row's names) is parsed with ``re``'s own parser, and flagged where two
unbounded backtracking repeats of one sequence can share the characters between them (an
optional item between does not separate them: ``\\s*,?\\s+``), and where a repetition that may
run without bound has a body that holds

- another unbounded repetition, unless every pass of the outer one must match a character the
  inner ones cannot (``(?:,\\s*\\w+)*``: the comma splits the passes one way only), or
- an alternation whose branches can start with the same character (``(?:a|ab)*``).

Possessive repetitions (``*+``) and atomic groups (``(?>...)``) never backtrack and are not
flagged. A repetition over the names of a K&K row is bounded by the number of people, so a list of
names repeated thousands of times is read once.
"""

import importlib
import pkgutil
import re
import string
from re import _constants as C
from re import _parser

import pytest

import pac_verl.verifiers
from pac_verl.verifiers.knights_knaves import grade as logic

UNIVERSE = string.printable + "é中\u2009\u00a0−×·π…’“”"
_CATEGORY = {
    C.CATEGORY_DIGIT: re.compile(r"\d"),
    C.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    C.CATEGORY_SPACE: re.compile(r"\s"),
    C.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    C.CATEGORY_WORD: re.compile(r"\w"),
    C.CATEGORY_NOT_WORD: re.compile(r"\W"),
}
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT)  # the backtracking ones


def module_patterns() -> dict[str, re.Pattern]:
    found = {}
    package = pac_verl.verifiers
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value if isinstance(value, (list, tuple)) else [value]
            for i, item in enumerate(values):
                for j, part in enumerate(item if isinstance(item, tuple) else [item]):
                    if isinstance(part, re.Pattern):
                        found[f"{info.name}.{name}[{i}][{j}]"] = part
    for i, pattern in enumerate(logic._patterns(["Ava", "Leo", "Mia"])):
        found[f"{logic.__name__}._patterns[{i}]"] = pattern
    return found


class Checker:
    def __init__(self, pattern: re.Pattern) -> None:
        self.fold = bool(pattern.flags & re.IGNORECASE)
        self.tree = _parser.parse(pattern.pattern, pattern.flags)
        self.flagged: list[str] = []

    # ----- the characters an item can match -----
    def _in(self, items, ch: str) -> bool:
        negate, hit = False, False
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                hit |= ch == chr(av) or (self.fold and ch.lower() == chr(av).lower())
            elif op is C.RANGE:
                hit |= av[0] <= ord(ch) <= av[1] or (
                    self.fold and any(av[0] <= ord(c) <= av[1] for c in (ch.lower(), ch.upper()))
                )
            elif op is C.CATEGORY:
                hit |= bool(_CATEGORY[av].match(ch))
        return hit != negate

    def leaf(self, op, av) -> frozenset | None:
        if op is C.LITERAL:
            c = chr(av)
            return frozenset({c, c.lower(), c.upper()} if self.fold else {c})
        if op is C.NOT_LITERAL:
            return frozenset(UNIVERSE) - {chr(av)}
        if op is C.ANY:
            return frozenset(UNIVERSE)
        if op is C.IN:
            return frozenset(ch for ch in UNIVERSE if self._in(av, ch))
        return None

    def chars(self, sub) -> frozenset:
        out = frozenset()
        for op, av in sub:
            leaf = self.leaf(op, av)
            if leaf is not None:
                out |= leaf
            else:
                for child in self.children(op, av, lookaround=False):
                    out |= self.chars(child)
        return out

    @staticmethod
    def children(op, av, lookaround=True):
        if op is C.BRANCH:
            return list(av[1])
        if op is C.SUBPATTERN:
            return [av[3]]
        if op in _REPEATS or op is C.POSSESSIVE_REPEAT:
            return [av[2]]
        if op is C.ATOMIC_GROUP:
            return [av]
        if op in (C.ASSERT, C.ASSERT_NOT):
            return [av[1]] if lookaround else []
        if op is C.GROUPREF_EXISTS:
            return [s for s in av[1:] if s is not None]
        return []

    def nullable(self, sub) -> bool:
        for op, av in sub:
            if self.leaf(op, av) is not None:
                return False
            if op is C.BRANCH and not any(self.nullable(b) for b in av[1]):
                return False
            if op is C.SUBPATTERN and not self.nullable(av[3]):
                return False
            if op is C.ATOMIC_GROUP and not self.nullable(av):
                return False
            repeat = op in _REPEATS or op is C.POSSESSIVE_REPEAT
            if repeat and av[0] > 0 and not self.nullable(av[2]):
                return False
        return True

    def first(self, sub) -> frozenset:
        """The characters a match of ``sub`` can start with."""
        return self._edge(list(sub), backwards=False)

    def last(self, sub) -> frozenset:
        """The characters a match of ``sub`` can end with."""
        return self._edge(list(reversed(list(sub))), backwards=True)

    def _edge(self, items, backwards: bool) -> frozenset:
        """The characters at one end of a match of the sequence ``items`` (in reading order from
        that end): each item's, until one that must match something."""
        out = frozenset()
        for op, av in items:
            leaf = self.leaf(op, av)
            if leaf is not None:
                return out | leaf
            if op in (C.ASSERT, C.ASSERT_NOT, C.AT, C.GROUPREF):
                continue
            kids = self.children(op, av, lookaround=False)
            for child in kids:
                out |= self.last(child) if backwards else self.first(child)
            optional = (op in _REPEATS or op is C.POSSESSIVE_REPEAT) and av[0] == 0
            mandatory = kids and not any(self.nullable(child) for child in kids)
            if mandatory and op is not C.BRANCH and not optional:
                return out
            if op is C.BRANCH and not any(self.nullable(b) for b in av[1]):
                return out
        return out

    # ----- the rule -----
    def inner_repeats(self, sub) -> list[frozenset]:
        """The char sets of the unbounded backtracking repeats inside ``sub``."""
        found = []
        for op, av in sub:
            if op in (C.ATOMIC_GROUP, C.POSSESSIVE_REPEAT, C.ASSERT, C.ASSERT_NOT):
                continue
            if op in _REPEATS and av[1] == C.MAXREPEAT:
                found.append(self.chars(av[2]))
            for child in self.children(op, av, lookaround=False):
                found += self.inner_repeats(child)
        return found

    def overlapping_branches(self, sub) -> bool:
        for op, av in sub:
            if op in (C.ATOMIC_GROUP, C.POSSESSIVE_REPEAT, C.ASSERT, C.ASSERT_NOT):
                continue
            if op is C.BRANCH:
                firsts = [self.first(b) for b in av[1]]
                for i, a in enumerate(firsts):
                    if any(a & b for b in firsts[i + 1 :]):
                        return True
            if any(self.overlapping_branches(c) for c in self.children(op, av, False)):
                return True
        return False

    def anchors(self, sub) -> list[frozenset]:
        """Char sets of single characters every match of ``sub`` must contain."""
        out = []
        for op, av in sub:
            leaf = self.leaf(op, av)
            if leaf is not None:
                out.append(leaf)
            elif op is C.SUBPATTERN:
                out += self.anchors(av[3])
            elif (op in _REPEATS or op is C.POSSESSIVE_REPEAT) and av[0] > 0:
                out += self.anchors(av[2])
            elif op is C.BRANCH and not any(self.nullable(b) for b in av[1]):
                out.append(frozenset().union(*(self.first(b) for b in av[1])))
        return out

    def ambiguous(self, sub) -> bool:
        """Whether two unbounded backtracking repeats of one sequence can share the characters
        between them (``\\s*\\s*``, ``\\s*\\s\\s*``, ``\\s*,?\\s+``: an optional item between
        does not separate them): a run of those characters splits between the two in as many
        ways as it is long, and a search from every position of it makes that cubic."""
        prev = frozenset()  # what the runs before can still take at this point
        for op, av in sub:
            leaf = self.leaf(op, av)
            if op in _REPEATS and av[1] == C.MAXREPEAT:
                if prev & self.first(av[2]):
                    return True
                optional = av[0] == 0 or self.nullable(av[2])
                prev = self.last(av[2]) | (prev if optional else frozenset())
            elif leaf is not None:
                prev = prev if leaf <= prev else frozenset()
            elif op in (C.ASSERT, C.ASSERT_NOT, C.AT):
                continue
            elif not self.nullable([(op, av)]):
                prev = frozenset()
            opaque = op in (C.ATOMIC_GROUP, C.POSSESSIVE_REPEAT, C.ASSERT, C.ASSERT_NOT)
            if not opaque and any(self.ambiguous(c) for c in self.children(op, av, False)):
                return True
        return False

    def walk(self, sub, where="") -> None:
        for op, av in sub:
            if op in _REPEATS and av[1] == C.MAXREPEAT:
                body = av[2]
                inner = self.inner_repeats(body)
                if inner:
                    consumed = frozenset().union(*inner)
                    anchored = any(a and not (a & consumed) for a in self.anchors(body))
                    if not anchored or self.ambiguous(body):
                        self.flagged.append(f"nested unbounded repeats at {where}{op}")
                if self.overlapping_branches(body):
                    self.flagged.append(f"overlapping alternatives under a repeat at {where}{op}")
            for child in self.children(op, av):
                self.walk(child, where)


def problems(pattern: re.Pattern) -> list[str]:
    checker = Checker(pattern)
    checker.walk(checker.tree)
    if checker.ambiguous(checker.tree):
        checker.flagged.append("adjacent unbounded repeats over shared characters")
    return checker.flagged


PATTERNS = module_patterns()


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_no_pattern_backtracks_exponentially(name):
    assert problems(PATTERNS[name]) == []


@pytest.mark.parametrize(
    "bad",
    [r"(a+)+$", r"(?:\w+\s?)*x", r"(?:ab|\wb)*c", r"(\d*\.?\d*)*", r"(?:x\s*\s*)*y",
     r"\s*,?\s+except", r"\d+\d+x", r"\w*\s?\w*=", r"\(\s*([^()]*?)\s*\)"],
)  # fmt: skip
def test_the_check_flags_the_classic_catastrophic_shapes(bad):
    assert problems(re.compile(bad))


@pytest.mark.parametrize(
    "good",
    [r"(?:,\s*\w+)*", r"(?:a++)+", r"(?>\w+\s?)*x", r"\d+(?:\.\d+)?", r"(?:ab|cd)*",
     r"(?:\s*+,)?+\s++except", r"^-?\d+(?: -?\d+)*$", r"\d\s*+[eE]\s*+(?:[+-]\s*+)?+\d"],
)  # fmt: skip
def test_the_check_passes_linear_shapes(good):
    assert problems(re.compile(good)) == []


def test_a_repeat_over_kk_names_is_bounded_by_the_number_of_people():
    name = "Ava|Leo|Mia"
    for pattern in logic._patterns(["Ava", "Leo", "Mia"]):
        stack = [_parser.parse(pattern.pattern, pattern.flags)]
        while stack:
            for op, av in stack.pop():
                if op in _REPEATS or op is C.POSSESSIVE_REPEAT:
                    body = str(av[2])
                    if all(f"LITERAL, {ord(n[0])}" in body for n in name.split("|")):
                        assert av[1] <= 3, pattern.pattern
                stack += Checker.children(op, av)


def test_the_lexicon_and_the_reading_patterns_are_checked():
    # the lexicon of doubt builds every pattern the tasks read doubt with, and the reading of a
    # response drops invisible characters and whitespace runs: all of them are in the check
    names = {name.rsplit("[", 2)[0] for name in PATTERNS}
    expected = {
        "pac_verl.verifiers.lexicon.DOUBT_RE",
        "pac_verl.verifiers.lexicon.CONFIDENCE_RE",
        "pac_verl.verifiers.lexicon.DOUBT_IN_STATEMENT",
        "pac_verl.verifiers.lexicon.REOPENING_RE",
        "pac_verl.verifiers.lexicon.ALTERNATIVES_INSIDE",
        "pac_verl.verifiers.lexicon._VALUE_OFFER",
        "pac_verl.verifiers.lexicon._SAID_OFFER",
        "pac_verl.verifiers.lexicon._SENTENCE_END",
        "pac_verl.verifiers.extract._BLANK_LINES",
        "pac_verl.verifiers.extract._LONG_SPACE",
        "pac_verl.verifiers.math.grade._CONJUNCTION",
    }
    assert expected <= names


@pytest.mark.parametrize(
    "text",
    [
        "also " * 4000,
        "8 also " * 3000,
        "Confidence " * 3000 + "50%",
        "(" + "9" * 2000 + "%" * 2000,
        "Check: if " * 3000,
        "Oops " * 4000,
        ("Eric " * 40 + "also works. ") * 100,
        "x" * 20000 + " is also a valid answer",
        "or the the the the " * 3000 + "8",
        "gives " * 4000,
        "Or (" + "9 + " * 3000,
        "Eric Eric " * 3000 + "fits",
    ],
)
def test_the_lexicon_reads_adversarial_text_without_raising(text):
    from pac_verl.verifiers import lexicon

    # a verdict, whichever it is, on text built to make a backtracking pattern explode
    assert lexicon.hedge_after(text, "3") in (True, False)
    assert lexicon.hedges(text) in (True, False)
    for kind, answer in (("expression", "(9+3)*4"), ("name", "Peter"), ("grid", "8 9 4")):
        assert lexicon.hedge_after(text, answer, kind) in (True, False)
