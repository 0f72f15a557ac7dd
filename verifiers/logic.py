"""Knights and Knaves (SPEC 8): the final statement of roles names every person's role.

Ground truth (the K&K dataset's fields): ``{"names": ["Grace", ...], "solution": [false, ...]}``
with ``true`` = knight.

What is graded. Models solve these puzzles by testing hypotheses ("suppose Grace is a knight ...
so Grace is a knave"), so only the final statement of roles counts:
- the last ``<answer>...</answer>`` block after ``</think>``, when there is one (the prompt asks for
  it): every role statement in it counts, and a person given two roles there is ``hedged``;
- else the last complete list in the text after ``</think>``: walking back from the end, the
  shortest run of role statements that names every person. A person stated twice inside that run
  with different roles is ``hedged``; statements before it are reasoning.

Role statements (any case; markdown bold, italics and backticks are ignored):
- ``Grace is a knave``, ``Grace is also a knight``, ``Grace is therefore/thus/indeed/... a knave``,
  ``Grace must be a knight``, ``Grace's a knave``, ``Grace is the knave``, ``..., Grace, who is a
  knave``; ``(1) Grace is a knave``; ``Grace: knave``, ``Grace - knave``, ``Grace — knave``,
  ``Grace = knave``, ``Grace (knave)``, ``Grace → knave``, JSON or a Python dict
  (``{"Grace": "knave", ...}``), a table row ``| Grace | Knave |`` or ``Grace & Knave \\\\``, a
  table whose header row holds the names and the row below it the roles;
- groups, in any order and together in one sentence: ``Penelope, Mia and Noah are (both/all)
  knights``, ``... are the knaves``; ``Knights: Penelope, Mia; knaves: Grace`` (also ``-``,
  ``=``); ``the knights are Penelope and Mia, and the knaves are Grace and Lily``; ``the only
  knights are Penelope and Mia`` (everyone else a knave); ``Neither Grace nor Lily is a knight``
  (both knaves);
- everyone, with a count or without (a stated count must be how many there are, else the
  statement names nobody: ``All five are knaves`` of four people): ``All four are knaves``,
  ``All four of them/inhabitants are knaves``, ``Everyone is a knight``, ``All of them are
  knights``, ``Every one/Each of them is a knave``, ``They are all knights``, ``Both of them are
  knights`` (two people); a conclusion without a verb at the start of a line or after a colon or
  "so"/"therefore"/"thus"/"hence" (``Answer: all knaves.``; not ``... for all knights``); the
  negative, everyone with the other role: ``None of them is a knight``, ``None of the four are
  knights``, ``No one is a knight``, ``There are no knights`` (all knaves), ``Nobody is a knave``
  (all knights), ``Neither of them is a knight`` (two people);
- exceptions to a statement about everyone: ``Everyone is a knave except Ava`` (also "except
  for", "apart from", "other than", "besides", "save", "but for"), ``Everyone except Ava is a
  knave``, ``All but Ava are knaves``: the exceptions have the other role;
- the rest: ``Grace and Lily are knaves; all the others are knights`` (also "the rest",
  "everyone else"), ``Only Mia is a knight``, ``Mia is the only knave`` (everyone else has the
  other role): a person the final statement does not name gets that role, and so do all when it
  names nobody else (``Everyone is a knight except Ethan, who is a knave``).
- ``Grace is not a knight`` is read as ``Grace is a knave`` (and "not a knave" as a knight): the
  puzzle says every inhabitant is one of the two, so the negation names the other role exactly
  as "knave" does.

Not role statements: an inhabitant's claim, restated. Text in quotes (``"..."``, ``“...”``,
``'...'``; but not a list of quoted statements, ``["Grace is a knave", ...]``) and a statement right after a verb of saying (``she claimed that Noah is a knave``,
``he says Mia is a knight``, ``Lily lied when saying ...``: said, says, claims, claimed, states,
statement, asserts, insists, declares, lied, lies, tells us) are what someone said, not the answer.

Cut off (``cut_off``): an unclosed ``<think>``; or a complete final statement after which the
text stops mid-sentence (its last word one like "the", "is", "and", or a comma or a colon), or runs
on for 200 characters or more without ending a sentence (:func:`.extract.unfinished_after`).

Not accepted: a person with no role in the final statement (``missing_person``); a hedged role
(``knight or knave``, ``knight/knave``, ``either ... or``, ``a knave and a knight``, and a hedge
right after the role: ``Lily is a knight (though she could also be a knave)``, ``..., or possibly
a knave``, ``... (maybe a knave)``: ``hedged``); a statement about everyone followed, in the same
clause, by doubt ("possibly", "maybe", "perhaps", "probably", "could/might/may (also) be":
``Everyone is a knave, except possibly Ava``, ``All four are knaves, though Ava might be a
knight``): the answer leaves someone undecided (``hedged``; "could not", "could never" are no
doubt); any wrong role (``not_equal``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from pac_verl.verifiers.extract import (
    after_think,
    stops_mid_sentence,
    tail,
    think_unclosed,
    unfinished_after,
)
from pac_verl.verifiers.verdict import OK, Verdict, fail

HEDGE = "hedge"  # a statement that gives a person both roles
_MARKDOWN = re.compile(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)|`")
_QUOTED = re.compile(
    r"\"[^\"\n]{0,300}\"|“[^”\n]{0,300}”|‘[^’\n]{0,300}’|(?<!\w)'[^'\n]{0,300}'(?!\w)"
)
# a list of quoted statements is the answer, not quotes: ["Grace is a knave", "Mia is a knight"]
_QUOTED_LIST = re.compile(
    r"\[\s*(?:([\"'])[^\"'\n\[\]]{0,300}\1\s*,\s*)*([\"'])[^\"'\n\[\]]{0,300}\2\s*\]"
)
_ADVERBS = (
    r"(?:(?:also|therefore|thus|hence|so|then|indeed|definitely|clearly|certainly|actually|"
    r"truly|really|surely|necessarily|both|all|either)\s+)*"
)
_ROLE = r"(knight|knave)s?"
# a second role in the same statement: "a knight or a knave", "knight/knave", "a knave and a
# knight" (but not "a knight and knaves always lie": "and" needs the article)
_OTHER_ROLE = r"(?:(?:\s*(?:or|/)\s*(?:an?\s+)?|\s+and\s+an?\s+)(knight|knave)s?\b)?"


_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)", re.IGNORECASE)
_PLURAL = re.compile(
    rf"(?<!\s)\s+are\s+{_ADVERBS}(not\s+)?(?:the\s+)?{_ROLE}\b{_OTHER_ROLE}", re.IGNORECASE
)
GROUP_WINDOW = 300  # characters before "are knights" searched for the group's names
REST = ""  # the name of a statement about everyone not named ("all the others are knights")
_REST = re.compile(
    r"\b(?:all\s+(?:of\s+)?the\s+others|all\s+others|the\s+others|the\s+rest(?:\s+of\s+them)?|"
    r"everyone\s+else|everybody\s+else|all\s+the\s+remaining\s+(?:people|inhabitants))\s+"
    rf"(?:are|is)\s+{_ADVERBS}(not\s+)?(?:an?\s+)?{_ROLE}\b{_OTHER_ROLE}",
    re.IGNORECASE,
)
_ONLY = re.compile(r"\bonly\s*$", re.IGNORECASE)
ALL = "\x00all"  # the name of a statement about everyone ("all four of them are knaves")
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_COUNT = r"(?P<count>\d{1,3}|" + "|".join(_NUMBER_WORDS) + ")"
_PEOPLE = r"(?:people|persons|inhabitants|islanders|characters|individuals|residents)"
# the role part of a statement about everyone, as named groups (a regex cannot repeat a name)
_ALL_ROLE = (
    rf"{_ADVERBS}(?P<neg>not\s+)?(?:an?\s+)?(?P<role>knight|knave)s?\b"
    r"(?:(?:\s*(?:or|/)\s*(?:an?\s+)?|\s+and\s+an?\s+)(?P<other>knight|knave)s?\b)?"
)
# "all four (of them) are knaves", "everyone is a knight", "they are all knights", "both are ..."
_ALL = re.compile(
    r"(?<!\bnot\s)\b(?:(?:all|each|every\s*one|(?P<both>both))\s+of\s+them|"
    rf"all\s+{_COUNT}(?:\s+of\s+them|\s+{_PEOPLE})?|all\s+(?:the\s+)?{_PEOPLE}|every(?:one|body)|"
    rf"(?P<both2>both)|all)\s+(?:are|is|were)\s+{_ALL_ROLE}",
    re.IGNORECASE,
)
_THEY_ALL = re.compile(
    r"\b(?:they\s+(?:are|were)|they['’]re)\s+(?:all|(?P<both>both))\s+(?!of\b)" + _ALL_ROLE,
    re.IGNORECASE,
)
# a person named as an exception to a statement about everyone ("everyone except Ava is ...")
_EXCEPTED = re.compile(
    r"\b(?:every(?:one|body)|all(?:\s+of\s+them)?)\s*,?\s+(?:except|apart\s+from|other\s+than|"
    r"besides|save|but)\s+(?:for\s+)?$|\bnor\s+$",  # and "neither Ava nor Leo is a knight"
    re.IGNORECASE,
)
# "none of them is a knight", "no one is a knave", "nobody is ...", "there are no knights":
# everyone has the other role
_NONE = re.compile(
    rf"\b(?:(?:none\s+of\s+(?:them|the\s+{_COUNT}(?:\s+{_PEOPLE})?|the\s+{_PEOPLE})|"
    r"no\s*-?\s*one|nobody|(?P<both>neither)(?:\s+of\s+them)?)\s+(?:is|are|was|were)|"
    rf"there\s+(?:are|is|were)\s+no)\s+{_ALL_ROLE}",
    re.IGNORECASE,
)
# a conclusion without a verb, at the start of a line or after a colon or "so": "All knaves."
_ALL_VERBLESS = re.compile(
    r"(?:^|[:\n]|\b(?:so|therefore|thus|hence)\b,?)[ \t]*(?:they\s+are\s+)?all\s+"
    rf"(?:{_COUNT}\s+)?(?:are\s+)?(?P<role>knight|knave)s\b(?P<neg>)(?P<other>)"
    r"(?=\s*(?:[.!;,)\n]|$|\(|except|apart|other\s+than|besides|save))",
    re.IGNORECASE,
)
# doubt anywhere in the clause after a statement about everyone: "except possibly Ava", "though
# Ava might be a knight"
_ALL_HEDGE = re.compile(
    r"[^\n.;]{0,80}?\b(?:possibly|maybe|perhaps|probably|"
    r"(?:could|might|may)\s+(?:also\s+|well\s+|equally\s+)?be)\b",
    re.IGNORECASE,
)
# a claim restated: "she claimed that Noah is a knave", "he says Mia is a knight"
_REPORTED = re.compile(
    r"\b(?:said|says|say|saying|claims?|claimed|claiming|states?|stated|stating|statements?|"
    r"asserts?|asserted|asserting|insists?|insisted|insisting|declares?|declared|lied|lies|lying|"
    r"tells?\s+us|told\s+us)(?:\s+that)?[\s:(]*$",  # not "as stated, Grace is a knave"
    re.IGNORECASE,
)
# a hedge right after a role: "(though she could also be a knave)", ", or possibly a knight"
_HEDGE_AFTER = re.compile(
    r"[^\n.;]{0,60}?\b(?:(?:she|he|they|it)\s+(?:could|might|may)\s+(?:also\s+|equally\s+|well\s+)?"
    r"be|or(?:\s+(?:possibly|perhaps|maybe))?|possibly|perhaps|maybe)\s+(?:also\s+)?(?:an?\s+)?"
    r"(knight|knave)s?\b",
    re.IGNORECASE,
)
_TABLE_SEPARATOR = re.compile(r"[\s|:\-]*")
_ROLE_CELL = re.compile(r"\s*(knight|knave)s?\s*", re.IGNORECASE)


def parse_truth(ground_truth: str) -> dict[str, bool]:
    truth = json.loads(ground_truth)
    names, solution = truth["names"], truth["solution"]
    if len(names) != len(solution) or not names:
        raise ValueError("names and solution differ in length")
    return {str(n): bool(s) for n, s in zip(names, solution, strict=True)}


def _patterns(names: list[str]) -> tuple[re.Pattern, ...]:
    name = "(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")"
    name_re = re.compile(rf"\b({name})\b", re.IGNORECASE)
    single = re.compile(
        rf"\b({name})\b\s*(?:is\s+|must\s+be\s+|['’]s\s+|,?\s*who\s+(?:is|must\s+be)\s+|:\s*|-\s*|"
        rf"–\s*|—\s*|=\s*|→\s*|->\s*|\(\s*|\|\s*|&\s*){_ADVERBS}(not\s+)?"
        rf"(?:an?\s+|the\s+(only\s+)?)?{_ROLE}\b{_OTHER_ROLE}",
        re.IGNORECASE,
    )
    names_list = rf"(\b{name}\b(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\b{name}\b)*)"
    # "Knights: Ava, Leo", "the knights are Ava and Leo", "the only knave is Zoe"
    labelled = re.compile(
        r"\b(?:the\s+)?(only\s+)?(knight|knave)s?(?:\s+(?:are|is|were|was)\b[ \t]*:?|"
        rf"[ \t]*[:\-–—=])\s*{names_list}",
        re.IGNORECASE,
    )
    # the exceptions after a statement about everyone: "..., except (for) Ava and Leo"
    except_after = re.compile(
        r"\s*[,(]?\s*(?:except|apart\s+from|other\s+than|besides|save|but\s+for)\s+(?:for\s+)?"
        + names_list,
        re.IGNORECASE,
    )
    # "everyone except Ava is a knave", "all but Ava are knaves"
    except_before = re.compile(
        r"\b(?:every(?:one|body)|all(?:\s+of\s+them)?)\s*,?\s+(?:except|apart\s+from|"
        rf"other\s+than|besides|save|but)\s+(?:for\s+)?{names_list}\s*,?\s+(?:is|are)\s+"
        + _ALL_ROLE,
        re.IGNORECASE,
    )
    # JSON or a Python dict: {"Grace": "knave"} -> Grace: knave (before quotes are skipped)
    quoted_pair = re.compile(
        rf"[\"'“‘]\s*({name})\s*[\"'”’]\s*:\s*[\"'“‘]\s*(knights?|knaves?)\s*[\"'”’]", re.IGNORECASE
    )
    # "neither Ava nor Leo is a knight": both are knaves
    neither = re.compile(
        rf"\bneither\s+({name})\s+nor\s+({name})\s+(?:is|are)\s+{_ADVERBS}(not\s+)?"
        rf"(?:an?\s+)?{_ROLE}\b{_OTHER_ROLE}",
        re.IGNORECASE,
    )
    return name_re, single, labelled, quoted_pair, except_after, except_before, neither


def _group_before(text: str, end: int, name_re: re.Pattern) -> list[re.Match]:
    """The names of a group that ends at ``end`` ("Grace, Mia and Noah" before " are knights"),
    read backwards name by name over a bounded window, so the cost is linear in the window."""
    start = max(0, end - GROUP_WINDOW)
    found = list(name_re.finditer(text, start, end))
    group: list[re.Match] = []
    limit = end
    for m in reversed(found):
        gap = text[m.end() : limit]
        joined = _SEPARATOR.fullmatch(gap) if group else not gap.strip()
        if not joined:
            break
        group.append(m)
        limit = m.start()
    return group if len(group) > 1 else []


def _role(word: str, negated: str | None, other: str | None) -> bool | str:
    knight = word.lower() == "knight"
    if other and other.lower() != word.lower():
        return HEDGE
    return (not knight) if negated else knight


def _reported(text: str, start: int) -> bool:
    """Whether the statement at ``start`` restates what someone said ("she claimed that ...")."""
    return bool(_REPORTED.search(text, max(0, start - 40), start))


def _excepted(text: str, start: int) -> bool:
    """Whether the statement at ``start`` names the exceptions of a statement about everyone
    ("everyone except Ava is a knave": not "Ava is a knave")."""
    return bool(_EXCEPTED.search(text, max(0, start - 40), start))


def _hedged_after(text: str, end: int, role: bool | str) -> bool:
    """Whether the clause after a role offers the other one ("(though she could be a knave)")."""
    m = _HEDGE_AFTER.match(text, end, min(len(text), end + 100))
    return bool(m) and role != HEDGE and (m.group(1).lower() == "knight") != role


def _transposed_tables(text: str, names: list[str]) -> list[tuple[int, str, bool]]:
    """Tables whose header row holds the names and the next row the roles."""
    canonical = {n.casefold(): n for n in names}
    found: list[tuple[int, str, bool]] = []
    header: list[str] | None = None
    position = 0
    for line in text.split("\n"):
        row = line.strip()
        cells = [c.strip() for c in row.strip("|").split("|")] if row.count("|") >= 2 else None
        if cells is None:
            header = None
        elif header is not None and _TABLE_SEPARATOR.fullmatch(row):
            pass  # the |---|---| line under the header
        elif header is not None and len(cells) == len(header):
            roles = [_ROLE_CELL.fullmatch(c) for c in cells]
            if all(roles):  # every row of roles under the header counts: two rows are a hedge
                found += [(position, canonical[n.casefold()], r.group(1).lower() == "knight")
                          for n, r in zip(header, roles)]  # fmt: skip
            else:
                header = None
        else:
            known = [c for c in cells if c.casefold() in canonical]
            header = cells if known and len(known) == len(cells) else None
        position += len(line) + 1
    return found


def role_statements(text: str, names: list[str]) -> list[tuple[int, str, bool | str]]:
    """``(position, name, role)`` for every role statement in ``text``, in order; ``role`` is
    True (knight), False (knave) or :data:`HEDGE`. Names come back as spelled in ``names``;
    :data:`REST` and :data:`ALL` name the people a statement does not name."""
    name_re, single, labelled, quoted_pair, except_after, except_before, neither = _patterns(names)
    text = _MARKDOWN.sub("", text)
    text = _QUOTED_LIST.sub(lambda m: re.sub("[\"']", " ", m.group(0)), text)
    text = _QUOTED.sub(" ", quoted_pair.sub(r"\1: \2", text))
    canonical = {n.casefold(): n for n in names}
    found: list[tuple[int, str, bool | str]] = list(_transposed_tables(text, names))

    def only(start: int, end: int, role: bool | str) -> None:
        """ "Only Mia is a knight": everyone not named has the other role."""
        if role != HEDGE and _ONLY.search(text, max(0, start - 12), start):
            found.append((end, REST, not role))

    for m in single.finditer(text):
        if _reported(text, m.start()) or _excepted(text, m.start()):
            continue
        role = _role(*m.group(4, 2, 5))
        if _hedged_after(text, m.end(), role):
            role = HEDGE
        found.append((m.start(), canonical[m.group(1).casefold()], role))
        only(m.start(), m.end(), role)
        if m.group(3) and role != HEDGE:  # "Mia is the only knave"
            found.append((m.end(), REST, not role))
    for m in _PLURAL.finditer(text):
        group = _group_before(text, m.start(), name_re)
        if not group or _reported(text, group[-1].start()) or _excepted(text, group[-1].start()):
            continue
        role = _role(*m.group(2, 1, 3))
        if _hedged_after(text, m.end(), role):
            role = HEDGE
        found.extend((n.start(), canonical[n.group(1).casefold()], role) for n in group)
        only(group[-1].start(), m.end(), role)
    for m in _REST.finditer(text):
        found.append((m.start(), REST, _role(*m.group(2, 1, 3))))

    def everyone(m: re.Match, negated_subject: bool, count_needed: int | None) -> None:
        """A statement about everyone (``m`` with the groups of :data:`_ALL_ROLE`), and the
        exceptions named right after it."""
        count = m.groupdict().get("count")
        if count is not None:
            count = count.lower()
            if _NUMBER_WORDS.get(count, int(count) if count.isdigit() else 0) != len(names):
                return
        if count_needed is not None and count_needed != len(names):  # "both", "neither": two
            return
        role = _role(m.group("role"), m.group("neg"), m.group("other"))
        if negated_subject and role != HEDGE:  # "no one is a knight": everyone is a knave
            role = not role
        if _hedged_after(text, m.end(), role) or _ALL_HEDGE.match(text, m.end()):
            role = HEDGE  # "everyone is a knave, except possibly Ava": someone is undecided
        found.append((m.start(), ALL, role))
        exceptions = except_after.match(text, m.end())
        if exceptions and role != HEDGE:  # "everyone is a knave except Ava": Ava is a knight
            found.extend((exceptions.start(1) + n.start(), canonical[n.group(1).casefold()],
                          not role) for n in name_re.finditer(exceptions.group(1)))  # fmt: skip

    def both(m: re.Match, *groups: str) -> int | None:
        return 2 if any(m.groupdict().get(g) for g in groups) else None

    for m in _ALL.finditer(text):
        everyone(m, False, both(m, "both", "both2"))
    for m in _THEY_ALL.finditer(text):
        everyone(m, False, both(m, "both"))
    for m in _NONE.finditer(text):
        everyone(m, True, both(m, "both"))
    for m in _ALL_VERBLESS.finditer(text):
        everyone(m, False, None)
    for m in except_before.finditer(text):
        role = _role(m.group("role"), m.group("neg"), m.group("other"))
        if _hedged_after(text, m.end(), role) or _ALL_HEDGE.match(text, m.end()):
            role = HEDGE
        found.append((m.start(), ALL, role))
        if role != HEDGE:
            found.extend((m.start(1) + n.start(), canonical[n.group(1).casefold()], not role)
                         for n in name_re.finditer(m.group(1)))  # fmt: skip
    for m in neither.finditer(text):
        if _reported(text, m.start()):
            continue
        role = _role(*m.group(4, 3, 5))
        role = role if role == HEDGE else not role
        if _hedged_after(text, m.end(), role):
            role = HEDGE
        found += [(m.start(i), canonical[m.group(i).casefold()], role) for i in (1, 2)]
    for m in labelled.finditer(text):
        if _reported(text, m.start()):
            continue
        role: bool | str = m.group(2).lower() == "knight"
        if _hedged_after(text, m.end(), role):
            role = HEDGE
        found.extend((m.start(3) + n.start(), canonical[n.group(1).casefold()], role)
                     for n in name_re.finditer(m.group(3)))  # fmt: skip
        if m.group(1) and role != HEDGE:  # "the only knights are Ava and Leo"
            found.append((m.end(), REST, not role))
    found.sort(key=lambda item: item[0])
    return found


def final_statement(text: str, names: list[str]) -> list[tuple[int, str, bool | str]] | None:
    """The statements of the final answer (see the module docstring); None if it is incomplete."""
    answer = _final_answer(after_think(text), names)
    return None if answer is None else answer[0]


def _final_answer(region: str, names: list[str]) -> tuple[list, str] | None:
    """The final statement and the text after it (None if it is incomplete)."""
    start = region.rfind("<answer>")
    if start >= 0:
        end = region.find("</answer>", start)
        block = region[start + len("<answer>") : end if end >= 0 else len(region)]
        after = region[end + len("</answer>") :] if end >= 0 else ""
        statements = _fill_rest(role_statements(block, names), names)
        return (statements, after) if statements else None
    statements = role_statements(region, names)
    seen: set[str] = set()
    for i in range(len(statements) - 1, -1, -1):
        position, name, _ = statements[i]
        if name == ALL:  # it names everyone by itself
            return _fill_rest(statements[i:], names), _after_line(region, statements[-1][0])
        if name == REST:  # the group it completes is stated just before it
            run = [s for s in statements[:i] if s[0] >= position - GROUP_WINDOW]
            return (_fill_rest(run + statements[i:], names),
                    _after_line(region, statements[-1][0]))  # fmt: skip
        seen.add(name)
        if len(seen) == len(names):
            return statements[i:], _after_line(region, statements[-1][0])
    return None


def _after_line(text: str, position: int) -> str:
    """The text after the line holding ``position`` (what follows the final statement)."""
    end = text.find("\n", position)
    return "" if end < 0 else text[end:]


def _fill_rest(statements, names: list[str]):
    """Give every person the final statement does not name the role of its "the rest" or
    "everyone" part."""
    rest = [s for s in statements if s[1] in (REST, ALL)]
    named = {s[1] for s in statements}
    filled = [s for s in statements if s[1] not in (REST, ALL)]
    for position, _, role in rest:
        filled += [(position, n, role) for n in names if n not in named]
    return filled


def judge_roles(statements, truth: Mapping[str, bool]) -> Verdict:
    roles: dict[str, set] = {}
    for _, name, role in statements or ():
        roles.setdefault(name, set()).add(role)
    if any(name not in roles for name in truth):
        return fail("missing_person")
    if any(HEDGE in r or len(r) > 1 for r in roles.values()):
        return fail("hedged")
    wrong = any(roles[name] != {is_knight} for name, is_knight in truth.items())
    return fail("not_equal") if wrong else OK


def score(solution_str: str, ground_truth: str) -> Verdict:
    try:
        truth = parse_truth(ground_truth)
    except (ValueError, KeyError, TypeError):
        return fail("bad_ground_truth")
    if isinstance(solution_str, str) and think_unclosed(solution_str):
        return fail("cut_off")
    region = after_think(tail(solution_str))
    answer = _final_answer(region, list(truth))
    if answer is None:
        return fail("missing_person")
    statements, after = answer
    if unfinished_after(after) or ("<answer>" not in region and stops_mid_sentence(region)):
        return fail("cut_off")
    return judge_roles(statements, truth)


def solution_text(ground_truth: str) -> str:
    """The paper's answer form: ``(1) Grace is a knave`` one line per person."""
    truth = parse_truth(ground_truth)
    return "\n".join(
        f"({i}) {name} is a {'knight' if k else 'knave'}"
        for i, (name, k) in enumerate(truth.items(), 1)
    )
