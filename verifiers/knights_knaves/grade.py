"""Knights and Knaves: the final statement of roles names every person's role.

Grading rules: docs/concepts/spec.md#rewards; examples: docs/guides/rewards.md.

Ground truth (the K&K dataset's fields): ``{"names": ["Grace", ...], "solution": [false, ...]}``
with ``true`` = knight.

What is graded. Models solve these puzzles by testing hypotheses ("suppose Grace is a knight ...
so Grace is a knave"), so only the final statement of roles counts:
- the ``<answer>...</answer>`` blocks after ``</think>``, when there are any (the prompt asks for
  one), chosen by the rule every boxed task follows (:func:`..extract.final_answers`, each block
  standing in for a box): the last block counts, with the blocks offered beside it (a bare gap,
  "or", "maybe", ...: two different answers are then ``hedged``); a block withdrawn by an
  explicit correction ("wrong", "mistake", "correction", ...) or followed by a derivation is
  left out. Every role statement in the blocks that count counts, and a person given two roles
  there is ``hedged``. A different role stated after the last block is a second answer: it
  replaces the block's after an explicit correction ("Correction: Mia is a knight") and is
  ``hedged`` otherwise ("Hmm, actually Mia is a knight");
- else the last complete list in the text after ``</think>``: walking back from the end, the
  shortest run of role statements that names every person. A person stated twice inside that run
  with different roles is ``hedged``; statements before it are reasoning.

Role statements (any case; markdown bold, italics and backticks are ignored): the phrasings of
docs/guides/rewards.md#per-task-what-is-accepted ("Grace is a knave", "Grace: knave", JSON,
tables, groups, statements about everyone with their exceptions, "the rest", "only"), each a row
of :data:`PHRASINGS` that :func:`role_statements` reads with one function.

Not asserted (a statement of the reasoning, or no answer when it is all the final statement
says): a sentence that ends in a question mark (``Samuel is a knave? No: Samuel is a knight.``
asserts only the knight); a clause under a condition ("if", "only if", "iff", "unless",
"provided", "whenever", "when" between two statements, "assume", "suppose", "hypothesis", "in
case"; a sentence that goes on with "then"; and what follows "whether", an embedded question, up to a comma or a closing
bracket), holding a logical operator (``→`` ``⟹`` ``⇔`` ``∨`` ``¬`` XOR between statements,
"or"/"either" joining two statements) or negated as a whole ("it is false that", "not the case
that"). A clause ends at a sentence's end or at a conclusion ("so", "therefore", ...). In a
block such a statement is a ``hedged`` answer; in free text it is reasoning. A counterfactual is
no condition (``Samuel is a knight (if he were a knave, his claim would be true)``), nor is
"whether" (``Samuel is a knight whether or not Mia lies``), and ``∧`` asserts both sides as
"and" does.

Not role statements: an inhabitant's claim, restated. Text in quotes (``"..."``, ``“...”``,
``'...'``; but not a list of quoted statements, ``["Grace is a knave", ...]``) and a statement right after a verb of saying (``she claimed that Noah is a knave``,
``he says Mia is a knight``, ``Lily lied when saying ...``: said, says, claims, claimed, states,
statement, asserts, insists, declares, lied, lies, tells us) are what someone said, not the answer.

Cut off (``cut_off``): an unclosed ``<think>``; or a complete final statement after which the
text stops mid-sentence (its last word one like "the", "is", "and", or a comma or a colon), or runs
on for 200 characters or more without ending a sentence (:func:`..extract.unfinished_after`).

Not accepted: a person with no role in the final statement (``missing_person``); a hedged role
(``knight or knave``, ``knight/knave``, ``knave ~ knight``, ``either ... or``, ``a knave and a
knight``, and a hedge right after the role: ``Noah: knave (also consistent: knight)``, ``Lily is a knight (though she could also be a knave)``, ``..., or possibly
a knave``, ``... (maybe a knave)``: ``hedged``); a statement about everyone followed, in the same
clause, by doubt ("possibly", "maybe", "perhaps", "probably", "could/might/may (also) be":
``Everyone is a knave, except possibly Ava``, ``All four are knaves, though Ava might be a
knight``): the answer leaves someone undecided (``hedged``; "could not", "could never" are no
doubt); doubt anywhere in the final answer, in the sentence that leads into an answer block
("Probably:") or after it, or another assignment offered after it
(:func:`doubts`, :func:`reopens`: the rule of :mod:`..lexicon`,
docs/guides/rewards.md#hedges-one-lexicon-of-doubt; words in a script other than the Latin one,
which the grader cannot read; a question about a person or a role that no statement after it
answers): ``hedged``. A role statement in a block qualified by anything but punctuation, a gloss
of the same role, a confirmation or a reason (``Noah is a knave-ish``, ``..., I reckon``,
``(Schrödinger's)``: :func:`uncommitted_statement`), and a sentence after the final answer about
another assignment than the answer's, unless it rejects it (``if Noah were a knight, all
statements would still hold``, ``the opposite roles``, ``Noah was my weakest call``:
:func:`about_another`): ``hedged``. A condition is read with the lexicon's words
(:data:`..lexicon.CONDITION`). Any wrong role: ``not_equal``.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from pac_verl.verifiers import lexicon
from pac_verl.verifiers.extract import (
    after_think,
    final_answers,
    reading,
    stops_mid_sentence,
    think_unclosed,
    unfinished_after,
)
from pac_verl.verifiers.verdict import OK, Verdict, fail

HEDGE = "hedge"  # a statement that gives a person both roles
CONDITIONAL = "conditional"  # a statement under a condition, in a formula or negated: not asserted
QUESTION = "question"  # a statement that ends in a question mark: not asserted
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
    r"truly|really|surely|necessarily|both|all|either)\s+)*+"  # possessive: no word is taken back
)
_ROLE = r"(knight|knave)s?"
# a second role in the same statement: "a knight or a knave", "knight/knave", "a knave and a
# knight" (but not "a knight and knaves always lie": "and" needs the article); a list of roles
# ending the entry: "knave, knight", "knave|knight", "knave \/ knight", a second role cell
# "| knave | knight |" (but not "knave, knaves always lie": the list ends the entry)
_ROLE_LIST_JOIN = r"\s*(?:,|;|&|\||\\/|\+|~)\s*(?:an?\s+)?"
_ENTRY_END = r"(?=\s*(?:$|[\n|.;,)]))"
_OTHER_ROLE = (
    r"(?:(?:\s*(?:or|/)\s*(?:an?\s+)?|\s+and\s+an?\s+|"
    rf"(?={_ROLE_LIST_JOIN}(?:knight|knave)s?\b{_ENTRY_END}){_ROLE_LIST_JOIN})"
    r"(knight|knave)s?\b)?"
)


# the verb of a role statement: "is", "was", "must be", "has to be", "turns out to be", ...
_VERB = (
    r"(?:is|was|must\s+be|(?:has|had)\s+to\s+be|(?:turns|turned)\s+out\s+to\s+be|"
    r"(?:proves|proved)\s+to\s+be|can\s+only\s+be)"
)
_PLURAL_VERB = (
    r"(?:are|were|must\s+be|(?:have|had)\s+to\s+be|turn(?:ed)?\s+out\s+to\s+be|"
    r"can\s+only\s+be)"
)
# the words between a person and a role in a loose pairing ("Noah were a knight", "Mia would
# not be a knave"): verbs, articles, modal and negation (:func:`_roles_named` reads the negation)
_FILLER = (
    r"(?:is|was|were|be|being|been|as|a|an|the|one|of|also|too|then|would|will|could|might|must|"
    r"should|can|may|not|now|still|instead|really|actually|indeed|definitely|truly|turns?|turned|"
    r"out|to|remains?|remained|becomes?|became|(?:is|was|were|would|could|can|wo)n['’]t)"
)
# a transformation of the whole assignment and what it applies to (with the row's names)
_TRANSFORM = rf"(?:{'|'.join(lexicon.TRANSFORM)})"
_ROLE_NOUN = rf"(?:{'|'.join(lexicon.ROLE_NOUNS)})"
_NEAR = r"(?:[ \t]+[\w'’-]{1,20}+){0,3}?[ \t]+"  # at most three words between
# an adjective that describes the role it stands before: "an honest knight", "a lying knave"
_ADJECTIVE = (
    r"(?:(?:honest|truthful|truth-telling|lying|dishonest|deceitful|genuine|true|real)\s+)?"
)
_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)", re.IGNORECASE)
_PLURAL = re.compile(
    rf"(?<!\s)\s+{_PLURAL_VERB}\s+{_ADVERBS}(not\s+)?(?:the\s+)?{_ADJECTIVE}{_ROLE}\b"
    + _OTHER_ROLE,
    re.IGNORECASE,
)
GROUP_WINDOW = 300  # characters before "are knights" searched for the group's names
REST = ""  # the name of a statement about everyone not named ("all the others are knights")
_REST = re.compile(
    r"\b(?:all\s+(?:of\s+)?the\s+others|all\s+others|the\s+others|the\s+rest(?:\s+of\s+them)?|"
    r"everyone\s+else|everybody\s+else|all\s+the\s+remaining\s+(?:people|inhabitants))"
    r"(?:\s*\([^()\n]{0,200}\))?\s+"  # "everyone else (Zoey and Ava) is a knight"
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
    r"(?:(?:\s*(?:or|/)\s*(?:an?\s+)?|\s+and\s+an?\s+|"
    rf"(?={_ROLE_LIST_JOIN}(?:knight|knave)s?\b{_ENTRY_END}){_ROLE_LIST_JOIN})"
    r"(?P<other>knight|knave)s?\b)?"
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
    r"\b(?:every(?:one|body)|all(?:\s+of\s+them)?)(?:\s*+,)?+\s++(?:except|apart\s+from|other\s+than|"
    r"besides|save|but)\s+(?:for\s+)?$|\bnor\s+$",  # and "neither Ava nor Leo is a knight"
    re.IGNORECASE,
)
# "none of them is a knight", "no one is a knave", "nobody is ...", "there are no knights":
# everyone has the other role
_NONE = re.compile(
    rf"\b(?:(?:none\s+of\s+(?:them|the\s+{_COUNT}(?:\s+{_PEOPLE})?|the\s+{_PEOPLE})|"
    r"no\s*+(?:-\s*+)?+one|nobody|(?P<both>neither)(?:\s+of\s+them)?)\s+(?:is|are|was|were)|"
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
    rf"[^\n.;]{{0,80}}?\b(?:{'|'.join(lexicon.QUALIFIERS)}|{lexicon.MAY_BE})\b",
    re.IGNORECASE,
)
# a claim restated: "she claimed that Noah is a knave", "he says Mia is a knight"
_REPORTED = re.compile(
    r"\b(?:said|says|say|saying|claims?|claimed|claiming|states?|stated|stating|statements?|"
    r"asserts?|asserted|asserting|insists?|insisted|insisting|declares?|declared|lied|lies|lying|"
    r"calls?|called|calling|accuses?|accused|accusing|names?|named|labels?|labell?ed|"
    r"tells?\s+us|told\s+us)(?:\s+that)?[\s:(]*$",  # not "as stated, Grace is a knave"
    re.IGNORECASE,
)
# who may say what a report restates: a person (by a pronoun or a word for one; by name, the
# row's names) or a part of the puzzle ("statement 2 says", "as the clue says"); "Let's say"
# supposes
_INHABITANT_SAYER = re.compile(
    rf"\b(?:he|she|they|who|which|that|each|both|all|everyone|everybody|someone|anyone|one|"
    rf"his|her|their|person|people|speaker|inhabitant|islander|resident|character|as|let['’]s|"
    rf"let\s+us|"
    rf"{'|'.join(lexicon.PUZZLE_NOUNS)})\b",
    re.IGNORECASE,
)
# a check's speaker label, then the claim it evaluates (up to the verdict's dash)
_CLAIM_OF = re.compile(r"\((?:knight|knave|truth-teller|liar)\)[ \t]*+:[^\n—–]*+$", re.IGNORECASE)
_CLAIM_CONTENT = re.compile(r"(\((?:knight|knave|truth-teller|liar)\)[ \t]*+:)[^\n—–]*+", re.I)
# a hedge right after a role: "(though she could also be a knave)", ", or possibly a knight"
_HEDGE_AFTER = re.compile(
    rf"[^\n.;]{{0,60}}?\b(?:(?:she|he|they|it)\s+{lexicon.MAY_BE}|"
    rf"or(?:\s+(?:{'|'.join(lexicon.QUALIFIERS)}))?|{'|'.join(lexicon.QUALIFIERS)})\s+(?:also\s+)?"
    r"(?:an?\s+)?(knight|knave)s?\b|"
    # the other role offered in a bracket or after a comma: "(also consistent: knight)"
    r"\s*+[(,]\s*+also\s+(?:(?:consistent|possible|valid|plausible)\s*+(?::\s*+)?+)?(?:as\s+)?"
    r"(?:an?\s+)?(knight|knave)s?\b",
    re.IGNORECASE,
)
# truth-teller / liar are the puzzle's own words for knight / knave (the statements then read
# the same): "Ava is a truth-teller", "Leo and Mia are liars"
_SYNONYMS = (
    (re.compile(r"\btruth[\s-]?teller(s?)\b", re.IGNORECASE), r"knight\1"),
    (re.compile(r"\bliar(s?)\b", re.IGNORECASE), r"knave\1"),
    # "Mia always tells the truth", "Mia is honest": a knight; "Mia lies", "Mia is lying": a knave
    (
        re.compile(
            r"\b(?:(?:is|was)\s+(?:always\s+)?(?:telling\s+the\s+truth|honest|truthful)|"
            r"(?:always\s+)?(?:tells|told)\s+the\s+truth)\b(?!\s+(?:knight|knave|person))",
            re.IGNORECASE,
        ),
        "is a knight",
    ),
    (
        re.compile(
            r"\b(?:(?:is|was)\s+(?:always\s+)?(?:lying|dishonest)|(?:always\s+)?(?:lies|lied))"
            r"\b(?!\s+(?:knight|knave|person))",
            re.IGNORECASE,
        ),
        "is a knave",
    ),
)
# where a sentence ends; a clause also ends at a conclusion ("so", "therefore", ...; not "so is")
_BOUNDARY = re.compile(r"[.!?;\n？。！；]+")
_CONCLUSION = re.compile(
    r"\b(?:so|therefore|thus|hence|consequently|which\s+means|meaning)\b"
    r"(?!\s+(?:is|are|was|were)\b)",
    re.IGNORECASE,
)
# a sentence that goes on from a condition: "Suppose Ava is a knight. Then Leo is a knave."
_THEN = re.compile(r"\s*(?:then|in\s+(?:that|this)\s+case)\b", re.IGNORECASE)
# an embedded question: what follows "whether" (up to a comma or a closing bracket) is asked,
# not said
_WHETHER = re.compile(r"\bwhether\b[^),]*", re.IGNORECASE)
# "if he were a knave, ...": a counterfactual argues for the answer, it sets no condition on it
_COUNTERFACTUAL = re.compile(r"\s+(?:[\w'’-]+\s+){0,3}?(?:were|had)\b", re.IGNORECASE)
_NEGATED_CLAUSE = re.compile(
    r"\b(?:false|untrue|not\s+true|not\s+the\s+case|wrong|incorrect)\s+that\b", re.IGNORECASE
)
# a formula: or, not, xor, equivalence ("∧" alone asserts both sides and is read as "and")
_LOGIC = re.compile(r"[∨¬⊕⊻⇔⟺↔⟷]|<->|<=>|\bxor\b|\bimplies\b", re.IGNORECASE)
# a letter of a script other than the Latin one: words the grader cannot read
_FOREIGN_SCRIPT = re.compile(r"[^\W\d_A-Za-z\u00c0-\u024f\u1e00-\u1eff]")
_ROLE_WORD = re.compile(r"\b(?:knight|knave)s?\b", re.IGNORECASE)
# a share given with a role: "Leo: 60% knave.", "Mia: knight (p=0.6).", "Leo knave @ 0.55", a
# role "with 70% probability" (a split of a hundred, "60/40", is :mod:`..lexicon`'s odds)
_SHARE = re.compile(
    r"(?<![\d.])(?:(?!100(?:\.0+)?\s*%)\d{1,3}(?:\.\d+)?\s*(?:%|percent\b)|0?\.\d+|1\.0*[1-9])"
    r"(?![\d.]*\s*(?:\)|\.)?\s*(?:is|are)\b)",
    re.IGNORECASE,
)
# a role in brackets right after a role: "tells the truth (knight)" restates, "(knave)" contradicts
_ROLE_ASIDE = re.compile(r"\s*\(\s*(?:an?\s+)?(knight|knave)s?\s*\)", re.IGNORECASE)
_TABLE_SEPARATOR = re.compile(r"[\s|:\-]*")
_ROLE_CELL = re.compile(r"\s*(knight|knave)s?\s*", re.IGNORECASE)


def parse_truth(ground_truth: str) -> dict[str, bool]:
    truth = json.loads(ground_truth)
    names, solution = truth["names"], truth["solution"]
    if len(names) != len(solution) or not names:
        raise ValueError("names and solution differ in length")
    return {str(n): bool(s) for n, s in zip(names, solution, strict=True)}


class _RowPatterns(NamedTuple):
    """The patterns built for a row's names (a repeat over names is bounded by their number)."""

    name_re: re.Pattern
    single: re.Pattern
    labelled: re.Pattern
    quoted_pair: re.Pattern
    except_after: re.Pattern
    except_before: re.Pattern
    neither: re.Pattern
    continued: re.Pattern
    implication: re.Pattern
    group_label: re.Pattern
    group_start: re.Pattern
    stem: re.Pattern
    paired: re.Pattern
    transformed: re.Pattern


def _patterns(names: list[str]) -> _RowPatterns:
    name = "(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")"
    name_re = re.compile(rf"\b({name})\b", re.IGNORECASE)
    single = re.compile(
        rf"\b({name})\b\s*(?:{_VERB}\s+|['’]s\s+|,?\s*who\s+{_VERB}\s+|:\s*(?:is\s+)?|-\s*|"
        rf"–\s*|—\s*|=\s*|→\s*|->\s*|\(\s*|\|\s*|&\s*){_ADVERBS}(not\s+)?"
        rf"(?:an?\s+|the\s+(only\s+)?|one\s+of\s+the\s+)?{_ADJECTIVE}{_ROLE}\b{_OTHER_ROLE}",
        re.IGNORECASE,
    )
    # a group names each person once at most: bounded, so a list of names repeated thousands of
    # times is read in time linear in its length, not once from every name in it
    names_list = (
        rf"(\b{name}\b(?:\s*+(?:,\s*+(?:and\s+)?+|and\s+|&\s*+)\b{name}\b)"
        rf"{{0,{len(names)}}})"
    )
    # "Knights: Ava, Leo", "the knights are Ava and Leo", "the only knave is Zoe"; the list
    # ends before a name with its own verb ("the knights are Mia and Lily, and Noah is the knave")
    labelled = re.compile(
        r"(?<!\ba\s)(?<!\ban\s)(?<!\bno\s)"  # "is a knight: Ava, ..." is no label
        r"\b(?:the\s+)?(only\s+)?(knight|knave)s?(?:\s+(?:are|is|were|was)\b[ \t]*:?|"
        rf"[ \t]*[:\-–—=])\s*{names_list}(?!\s+{_VERB}\b)",
        re.IGNORECASE,
    )
    # the exceptions after a statement about everyone: "..., except (for) Ava and Leo"
    except_after = re.compile(
        r"\s*+[,(]?+\s*+(?:except|apart\s+from|other\s+than|besides|save|but\s+for)\s+(?:for\s+)?"
        + names_list,
        re.IGNORECASE,
    )
    # "everyone except Ava is a knave", "all but Ava are knaves"
    except_before = re.compile(
        r"\b(?:every(?:one|body)|all(?:\s+of\s+them)?)(?:\s*+,)?+\s++(?:except|apart\s+from|"
        rf"other\s+than|besides|save|but)\s+(?:for\s+)?{names_list}(?:\s*+,)?+\s++(?:is|are)\s+"
        + _ALL_ROLE,
        re.IGNORECASE,
    )
    # "Zoey, Ava: knights", "Owen and Leo - knaves": a group named before its role
    group_label = re.compile(rf"{names_list}\s*[:\-–—=]\s*(knight|knave)s\b", re.IGNORECASE)
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
    # what may follow a role statement and name more people (``_continued``): "... and Mia a
    # knave" (the verb left out), "..., and so is Mia", "...; Mia is too", "...; Mia isn't"
    continued = re.compile(
        r"\s*(?:[,;]\s*(?:and\s+|but\s+|while\s+|whereas\s+)?|\s(?:and|but|while|whereas)\s+)"
        rf"(?:(?P<el>{names_list})\s+{_ADVERBS}(?P<neg>not\s+)?(?:an?\s+|the\s+|one\s+of\s+the\s+)?"
        rf"{_ADJECTIVE}(?P<role>knight|knave)s?\b(?:(?:\s*(?:or|/)\s*(?:an?\s+)?|\s+and\s+an?\s+|"
        rf"(?={_ROLE_LIST_JOIN}(?:knight|knave)s?\b{_ENTRY_END}){_ROLE_LIST_JOIN})"
        rf"(?P<other>knight|knave)s?\b)?|"
        rf"(?:so|as)\s+(?:is|was|are|were)\s+(?P<so>{names_list})\b|"
        rf"(?P<too>{names_list})\s+(?:is|was|are|were)\s+(?:too|also|as\s+well)\b"
        r"(?!\s+(?:an?\s+|the\s+)?(?:knight|knave))|"
        rf"(?P<isnt>{name})\s+(?:isn['’]t|is\s+not|wasn['’]t|was\s+not)(?=\s*(?:[.;,!)\n]|$)))",
        re.IGNORECASE,
    )
    # an implication or a disjunction between two statements: "Ava is a knight → Leo is a
    # knave", "Ava is a knight when Leo is a knave", "Ava is a knight or Leo is a knave", "either Ava is a knight ..." (but "Ava →
    # knight" names a role, and "Ava is a knight → her claim holds" explains it)
    someone = rf"(?:\b{name}\b|every(?:one|body)\b|all\b|none\b|nobody\b|no\s+one\b)"
    implication = re.compile(
        r"(?:knight|knave)s?[\s)\]]*(?:(?:→|->|⟶|⇒|=>|⟹|⊃)[\s(\[]*|,?\s*\b(?:or|otherwise|when)\s+"
        rf"(?:else\s+)?){someone}|\beither\s+{someone}",
        re.IGNORECASE,
    )
    # a group before its plural verb: "Mia and Lily are knights" (:data:`_PLURAL` reads the rest)
    group_start = re.compile(rf"{names_list}(?=\s+{_PLURAL_VERB}\s)", re.IGNORECASE)
    # a role word glued to a suffix: "Noah is knavish", "Noah: knave-leaning"
    stem = re.compile(
        rf"\b({name})\b\s*(?:{_VERB}\s+|:\s*(?:is\s+)?|-\s*|–\s*|—\s*|=\s*|→\s*|->\s*)"
        rf"{_ADVERBS}(?:not\s+)?(?:an?\s+)?{_ADJECTIVE}(?:knav|knight)[\w-]*+",
        re.IGNORECASE,
    )
    # a person and a role, stated or supposed, with or without a verb: "if Noah were a knight",
    # "Mia knave, Noah knight", "had Mia been a knave", "with Noah a knight"
    paired = re.compile(
        rf"\b({name})\b[ \t]*+(?:[:=(]|->|→|[-–—])?[ \t]*+(?:{_FILLER}[ \t]++){{0,5}}+"
        r"(knight|knave)s?\b",
        re.IGNORECASE,
    )
    # a transformation of the whole assignment: "the opposite roles", "symmetric in Mia and Lily"
    whom = rf"(?:{_ROLE_NOUN}|{name})"
    transformed = re.compile(
        rf"\b{_TRANSFORM}\b(?:[ \t]+of)?{_NEAR}{whom}\b|\b{whom}{_NEAR}{_TRANSFORM}\b|"
        rf"\b{_TRANSFORM}[ \t]+(?:it|this|that|them|everything|everyone|everybody|all)\b",
        re.IGNORECASE,
    )
    return _RowPatterns(name_re, single, labelled, quoted_pair, except_after, except_before,
                        neither, continued, implication, group_label, group_start, stem,
                        paired, transformed)  # fmt: skip


def _group_before(text: str, end: int, name_re: re.Pattern) -> list[re.Match]:
    """The names of a group that ends at ``end`` ("Grace, Mia and Noah" before " are knights"),
    read backwards name by name over a bounded window, so the cost is linear in the window."""
    start = max(0, end - GROUP_WINDOW)
    found = list(name_re.finditer(text, start, end))
    group: list[re.Match] = []
    limit = end
    for m in reversed(found):
        gap = text[m.end() : limit]
        # the group may close an appositive: "All three (Emma, Liam and Ava) are knights"
        joined = _SEPARATOR.fullmatch(gap) if group else not gap.strip(" \t,)—–")
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


def _reported(text: str, start: int, name_re: re.Pattern) -> bool:
    """Whether the statement at ``start`` restates what someone of the puzzle said ("she claimed
    that ...", "Mia says Noah is a knave", "statement 2 says ...", or a check's line "Riley
    (knight): Carter knave or Amelia knave — true", up to its verdict). What anything else
    says ("A nagging voice says Noah is a knight.", "Part of me says ...") is no report: the
    role is offered."""
    report = _REPORTED.search(text, max(0, start - 40), start)
    if report:
        sayer = re.split(r"[.;:!?\n]", text[max(0, report.start() - 60) : report.start()])[-1]
        return not sayer.strip() or bool(name_re.search(sayer) or _INHABITANT_SAYER.search(sayer))
    line = max(text.rfind("\n", 0, start) + 1, start - 300)
    return bool(_CLAIM_OF.search(text, line, start))


def _excepted(text: str, start: int) -> bool:
    """Whether the statement at ``start`` names the exceptions of a statement about everyone
    ("everyone except Ava is a knave": not "Ava is a knave")."""
    return bool(_EXCEPTED.search(text, max(0, start - 40), start))


def _hedged_after(text: str, end: int, role: bool | str) -> bool:
    """Whether the clause after a role offers the other one ("(though she could be a knave)")."""
    m = _HEDGE_AFTER.match(text, end, min(len(text), end + 100)) or _ROLE_ASIDE.match(text, end)
    offered = m and (m.group(1) or m.group(m.lastindex))
    return bool(offered) and role != HEDGE and (offered.lower() == "knight") != role


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


@dataclass(frozen=True)
class Phrasing:
    """One family of role statements (docs/guides/rewards.md#per-task-what-is-accepted): the
    pattern that finds it and how a match names people and their role. ``who``: ``name`` (the
    group ``people``), ``names`` (every name inside the group ``people``), ``group_before`` (the
    names listed right before the match: "Mia and Noah are knights"), ``pair`` (groups 1 and 2),
    ``rest`` (everyone not named), ``everyone``. ``role``: the groups of the role word, its
    negation and a second role (a hedge)."""

    pattern: str  # a field of :class:`_RowPatterns`, else a module-level pattern
    who: str
    role: tuple[int | str, int | str | None, int | str | None]
    people: int | str | None = None
    flip: bool = False  # the match names the other role ("neither ... nor", "no one is")
    # no statement where it restates a claim ("she said that ...") or names an exception
    # ("everyone except Mia is ..."): the checks this row makes
    skip: tuple[str, ...] = ("reported", "excepted")
    hedge_after: bool = True  # the clause after it may offer the other role
    only: bool = False  # "Only Mia is a knight": the others have the other role
    the_only: int | str | None = None  # "Mia is the only knave": the others have the other role
    more: bool = False  # names may follow it ("..., and so is Noah", "... and Mia a knave")
    pair_of: tuple[str, ...] = ()  # groups that say the statement is about two people ("both")
    exceptions: str | None = None  # "after": "..., except Ava"; "before": "everyone except Ava"


_NAMED_ROLE = ("role", "neg", "other")  # the groups of :data:`_ALL_ROLE`
# The phrasings of role statements, read by :func:`role_statements` one row at a time.
PHRASINGS = (
    Phrasing("single", "name", (4, 2, 5), people=1, only=True, the_only=3, more=True),
    Phrasing("_PLURAL", "group_before", (2, 1, 3), only=True, more=True),
    Phrasing("group_label", "names", (2, None, None), people=1),
    Phrasing("_REST", "rest", (2, 1, 3), skip=(), hedge_after=False),
    Phrasing(
        "_ALL", "everyone", _NAMED_ROLE, skip=(), pair_of=("both", "both2"), exceptions="after"
    ),
    Phrasing("_THEY_ALL", "everyone", _NAMED_ROLE, skip=(), pair_of=("both",), exceptions="after"),
    Phrasing(
        "_NONE", "everyone", _NAMED_ROLE, skip=(), flip=True, pair_of=("both",), exceptions="after"
    ),
    Phrasing("_ALL_VERBLESS", "everyone", _NAMED_ROLE, skip=(), exceptions="after"),
    Phrasing("except_before", "everyone", _NAMED_ROLE, people=1, skip=(), exceptions="before"),
    Phrasing("neither", "pair", (4, 3, 5), skip=("reported",), flip=True),
    Phrasing("labelled", "names", (2, None, None), people=3, skip=("reported",), the_only=1),
)


def role_statements(text: str, names: list[str]) -> list[tuple[int, str, bool | str]]:
    """``(position, name, role)`` for every role statement in ``text``, in order; ``role`` is
    True (knight), False (knave), :data:`HEDGE`, or, for a statement that asserts nothing,
    :data:`CONDITIONAL` (under a condition, in a formula, negated as a clause) or
    :data:`QUESTION`. Positions are in ``text``; names come back as spelled in ``names``;
    :data:`REST` and :data:`ALL` name the people a statement does not name. Every row of
    :data:`PHRASINGS` is read by one function, :func:`_read`."""
    patterns = _patterns(names)
    text, index = _prepare(text, patterns.quoted_pair)
    found: list[tuple[int, str, bool | str]] = list(_transposed_tables(text, names))
    for phrasing in PHRASINGS:
        pattern = getattr(patterns, phrasing.pattern, None) or globals()[phrasing.pattern]
        for m in pattern.finditer(text):
            found += _read(phrasing, m, text, names, patterns)
    found.sort(key=lambda item: item[0])
    moods = _moods(text, patterns.implication)
    starts = [start for start, _, _ in moods]
    marked = []
    for position, name, role in found:
        i = bisect.bisect_right(starts, position) - 1
        if i >= 0 and position < moods[i][1]:
            role = moods[i][2]
        marked.append((index[position], name, role))
    return marked


def _read(phrasing: Phrasing, m: re.Match, text: str, names: list[str], patterns: _RowPatterns):
    """The statements one match of a phrasing makes: ``(position, name, role)``."""
    canonical = {n.casefold(): n for n in names}
    people = phrasing.people

    def listed(group: int | str) -> list[tuple[int, str]]:
        return [(m.start(group) + n.start(), canonical[n.group(1).casefold()])
                for n in patterns.name_re.finditer(m.group(group))]  # fmt: skip

    if phrasing.who == "name":
        named = [(m.start(), canonical[m.group(people).casefold()])]
    elif phrasing.who == "names":
        named = listed(people)
    elif phrasing.who == "pair":
        named = [(m.start(i), canonical[m.group(i).casefold()]) for i in (1, 2)]
    elif phrasing.who == "group_before":
        group = _group_before(text, m.start(), patterns.name_re)
        if not group:
            return []
        named = [(n.start(), canonical[n.group(1).casefold()]) for n in group]
    else:  # rest, everyone
        named = []
    first = named[-1][0] if phrasing.who == "group_before" else m.start()
    if "reported" in phrasing.skip and _reported(text, first, patterns.name_re):
        return []
    if "excepted" in phrasing.skip and _excepted(text, first):
        return []
    word, neg, other = (m.group(g) if g is not None else None for g in phrasing.role)
    role = _role(word, neg, other)
    if phrasing.who == "everyone":
        return _everyone(phrasing, m, text, names, patterns, role)
    if phrasing.flip:
        role = role if role == HEDGE else not role
    if phrasing.hedge_after and _hedged_after(text, m.end(), role):
        role = HEDGE
    if phrasing.who == "rest":
        return [(m.start(), REST, role)]
    found = [(position, name, role) for position, name in named]
    if phrasing.only and role != HEDGE:  # "Only Mia is a knight": the others, the other role
        start = first
        if _ONLY.search(text, max(0, start - 12), start):
            found.append((m.end(), REST, not role))
    if phrasing.the_only is not None and m.group(phrasing.the_only) and role != HEDGE:
        found.append((m.end(), REST, not role))  # "Mia is the only knave"
    if phrasing.more:
        found += _more(text, m.end(), word, role, names, patterns)
    return found


def _everyone(phrasing: Phrasing, m: re.Match, text: str, names: list[str],
              patterns: _RowPatterns, role: bool | str) -> list:  # fmt: skip
    """A statement about everyone and the exceptions it names: "All four are knaves", "No one is
    a knight", "Everyone is a knave except Ava", "Everyone except Ava is a knave"."""
    canonical = {n.casefold(): n for n in names}
    count = m.groupdict().get("count")
    if count is not None:
        count = count.lower()
        if _NUMBER_WORDS.get(count, int(count) if count.isdigit() else 0) != len(names):
            return []
    if any(m.groupdict().get(g) for g in phrasing.pair_of) and len(names) != 2:
        return []  # "both", "neither": two people
    if phrasing.flip and role != HEDGE:  # "no one is a knight": everyone is a knave
        role = not role
    if _hedged_after(text, m.end(), role) or _ALL_HEDGE.match(text, m.end()):
        role = HEDGE  # "everyone is a knave, except possibly Ava": someone is undecided
    found: list = [(m.start(), ALL, role)]
    if role == HEDGE:
        return found
    if phrasing.exceptions == "before":  # "everyone except Ava is a knave": Ava is a knight
        found += [(m.start(1) + n.start(), canonical[n.group(1).casefold()], not role)
                  for n in patterns.name_re.finditer(m.group(1))]  # fmt: skip
    elif phrasing.exceptions == "after" and (e := patterns.except_after.match(text, m.end())):
        found += [(e.start(1) + n.start(), canonical[n.group(1).casefold()], not role)
                  for n in patterns.name_re.finditer(e.group(1))]  # fmt: skip
    return found


def _more(text: str, end: int, word: str, role: bool | str, names: list[str],
          patterns: _RowPatterns) -> list:  # fmt: skip
    """The people named right after a role statement ending at ``end`` whose role was ``word``
    ("knight"/"knave") read as ``role``: "... and Mia a knave", "..., and so is Mia", "...; Mia
    isn't" (:func:`_patterns`' ``continued``), one after another."""
    canonical = {n.casefold(): n for n in names}
    found: list = []
    for _ in range(len(names) + 1):
        c = patterns.continued.match(text, end)
        if c is None:
            break
        end = c.end()
        if c.group("el"):
            word = c.group("role")
            role = _role(word, c.group("neg"), c.group("other"))
            if _hedged_after(text, end, role):
                role = HEDGE
            found.extend((c.start("el") + n.start(), canonical[n.group(1).casefold()], role)
                         for n in patterns.name_re.finditer(c.group("el")))  # fmt: skip
        elif c.group("isnt"):  # "Mia isn't": not the role just named
            negated = HEDGE if role == HEDGE else word.lower() != "knight"
            found.append((c.start("isnt"), canonical[c.group("isnt").casefold()], negated))
        else:  # "so is Mia", "Mia is too": the same role
            group = c.group("so") or c.group("too")
            start = c.start("so") if c.group("so") else c.start("too")
            found.extend((start + n.start(), canonical[n.group(1).casefold()], role)
                         for n in patterns.name_re.finditer(group))  # fmt: skip
    return found


def _substitute(pattern: re.Pattern, repl, text: str, index: list[int]) -> tuple[str, list[int]]:
    """``pattern.sub(repl, text)`` and, for each character of the result (and its end), its
    position in the original text (``index`` maps ``text`` to the original)."""
    out: list[str] = []
    positions: list[int] = []
    last = 0
    for m in pattern.finditer(text):
        new = m.expand(repl) if isinstance(repl, str) else repl(m)
        out += (text[last : m.start()], new)
        positions += index[last : m.start()] + [index[m.start()]] * len(new)
        last = m.end()
    out.append(text[last:])
    positions += index[last:]
    return "".join(out), positions


# names and roles paired in order: "Noah, Mia and Lily are knight, knave and knight
# respectively" reads as "Noah is a knight, Mia is a knave and Lily is a knight"
_ROLE_ITEM = r"(?:(?:an?|the)[ \t]+)?(?:knight|knave)s?"
_NAME_ITEM = r"[A-Z][\w'’-]{0,30}+"
_RESPECTIVELY = re.compile(
    rf"\b({_NAME_ITEM}(?:[ \t]*+,[ \t]*+(?:and[ \t]+)?{_NAME_ITEM}|[ \t]+and[ \t]+{_NAME_ITEM}){{1,12}})"
    r"[ \t]++(?:are|were)[ \t]++"
    rf"({_ROLE_ITEM}(?:[ \t]*+,[ \t]*+(?:and[ \t]+)?{_ROLE_ITEM}|[ \t]+and[ \t]+{_ROLE_ITEM}){{1,12}})"
    r"[ \t]*+,?[ \t]*+respectively\b",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"[ \t]*+,[ \t]*+(?:and[ \t]+)?|[ \t]+and[ \t]+", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:an?|the)[ \t]+")


def _one_by_one(m: re.Match) -> str:
    """A "respectively" statement as one statement a person, where the counts agree."""
    people = [p for p in _LIST_SPLIT.split(m.group(1)) if p]
    roles = [
        _ARTICLE.sub("", r.strip().lower()).rstrip("s") for r in _LIST_SPLIT.split(m.group(2)) if r
    ]
    if len(people) != len(roles):
        return m.group()
    said = [f"{person} is a {role}" for person, role in zip(people, roles, strict=True)]
    return ", ".join(said[:-1]) + " and " + said[-1]


def _prepare(text: str, quoted_pair: re.Pattern) -> tuple[str, list[int]]:
    """The text as the statements are read (markdown and synonyms resolved, a quotation read as
    the word "statement": what someone said gives no role, and "\"...\" is true" is a truth
    found about a statement), with the original position of each character."""
    index = list(range(len(text) + 1))
    text, index = _substitute(_MARKDOWN, "", text, index)
    for synonym, role in _SYNONYMS:
        text, index = _substitute(synonym, role, text, index)
    text, index = _substitute(_RESPECTIVELY, _one_by_one, text, index)
    text, index = _substitute(_QUOTED_LIST, lambda m: re.sub("[\"']", " ", m.group(0)), text, index)
    text, index = _substitute(quoted_pair, r"\1: \2", text, index)
    return _substitute(_QUOTED, " statement ", text, index)  # what was said, not a role given


def _moods(text: str, implication: re.Pattern) -> list[tuple[int, int, str]]:
    """``(start, end, mood)`` for the stretches of ``text`` that assert nothing: a sentence that
    ends in a question mark (:data:`QUESTION`); a clause under a condition ("if", "unless",
    "suppose", ... but not a counterfactual "if he were"), holding a logical operator or
    negated as a whole ("it is false that"), and a sentence that goes on from such a clause
    with "then" (:data:`CONDITIONAL`). A clause ends at a sentence's end (``. ! ? ;`` or a
    line) or at a conclusion ("so", "therefore", ...)."""
    moods: list[tuple[int, int, str]] = []
    start = 0
    after_condition = False
    ends = [*_BOUNDARY.finditer(text), None]
    for end in ends:
        stop, resume = (len(text), len(text)) if end is None else (end.start(), end.end())
        if end is not None and ("?" in end.group() or "？" in end.group()):
            moods.append((start, resume, QUESTION))
            after_condition = False
        else:
            cuts = [c.start() for c in _CONCLUSION.finditer(text, start, stop)] + [stop]
            clause_start, conditional = start, False
            for i, cut in enumerate(cuts):
                goes_on = i == 0 and after_condition and _THEN.match(text, clause_start, cut)
                if goes_on or _conditional(text, clause_start, cut, implication):
                    moods.append((clause_start, cut, CONDITIONAL))
                    conditional = True
                elif embedded := _WHETHER.search(text, clause_start, cut):
                    moods.append((embedded.start(), embedded.end(), QUESTION))
                clause_start = cut
            after_condition = conditional
        start = resume
    return moods


def _conditional(text: str, start: int, end: int, implication: re.Pattern) -> bool:
    for m in lexicon.CONDITION_RE.finditer(text, start, end):
        if not (m.group("if") and _COUNTERFACTUAL.match(text, m.end(), end)):
            return True
    return any(p.search(text, start, end) for p in (_NEGATED_CLAUSE, _LOGIC, implication))


def final_statement(text: str, names: list[str]) -> list[tuple[int, str, bool | str]] | None:
    """The statements of the final answer (see the module docstring); None if it is incomplete."""
    answer = _final_answer(after_think(text), names)
    return None if answer is None else answer.statements


@dataclass(frozen=True)
class _Final:
    statements: list  # the statements of the final answer
    after: str  # the text after it (the cut-off rule)
    scope: str  # the text that must not doubt it: the final answer and what follows
    block: bool  # given in <answer> blocks (a condition there is a hedge, not reasoning)
    lines: str = ""  # the text of the blocks that count (:func:`uncommitted_statement`)
    start: int = 0  # where the scope starts in the text the statements' positions count in


_BLOCK = re.compile(r"<answer>((?:(?!<answer>).)*?)</answer>", re.DOTALL)


def _final_answer(region: str, names: list[str]) -> _Final | None:
    """The final statement, the text after it and the text that must not doubt it (None if it
    is incomplete)."""
    closed = list(_BLOCK.finditer(region))
    opened = region.rfind("<answer>")
    if opened >= 0 and (not closed or opened >= closed[-1].end()):  # an unclosed last block
        block = region[opened + len("<answer>") :]
        statements = _fill_rest(role_statements(block, names), names)
        return _Final(statements, "", block, True, block) if statements else None
    if closed:
        counting = _counting_blocks(region, closed)
        statements = []
        for m in counting:
            statements += _fill_rest(role_statements(m.group(1), names), names)
        after = region[closed[-1].end() :]
        if not statements:
            return None
        statements = _with_after(statements, after, names)
        lead = lexicon.lead_in(region[: counting[0].start()])  # "Probably:" before the block
        lines = "\n".join(m.group(1) for m in counting)
        scope = "\n".join([lead, lines, after])
        return _Final(statements, after, scope, True, lines)
    statements = role_statements(region, names)
    seen: set[str] = set()
    for i in range(len(statements) - 1, -1, -1):
        position, name, role = statements[i]
        if role in (CONDITIONAL, QUESTION):  # reasoning, or a question: no statement
            continue
        if name == ALL:  # it names everyone by itself
            run = _fill_rest(statements[i:], names)
        elif name == REST:  # the group it completes is stated just before it
            run = [s for s in statements[:i] if s[0] >= position - GROUP_WINDOW]
            run = _fill_rest(run + statements[i:], names)
        else:
            seen.add(name)
            if len(seen) < len(names):
                continue
            run = statements[i:]
        first = min(s[0] for s in run)
        start = _sentence_start(region, first)
        return _Final(run, _after_line(region, statements[-1][0]), region[start:], False, "", start)
    return None


def _counting_blocks(region: str, closed: list[re.Match]) -> list[re.Match]:
    """The answer blocks that count, by the rule every boxed task follows
    (:func:`..extract.final_answers`): each block stands in for a box, so a block withdrawn by
    a correction is left out and the others count together, a block being a whole answer and
    never a step of the reasoning (two different answers are then a hedge)."""
    masked = region.replace("\\boxed", "\\Boxed").replace("\\fbox", "\\Fbox")
    pieces, last = [], 0
    for i, m in enumerate(closed):
        pieces += (masked[last : m.start()], f"\\boxed{{{i}}}")
        last = m.end()
    pieces.append(masked[last:])
    answers = final_answers("".join(pieces), whole=lambda box: True).answers  # no block is a step
    keep = {int(a) for a in answers if a.isdigit()}
    return [m for i, m in enumerate(closed) if i in keep] or [closed[-1]]


def _refuted_belief(after: str, position: int) -> bool:
    """Whether the role statement at ``position`` of the text after the answer is a belief placed
    before the answer (:data:`..lexicon.PAST_BELIEF`) that its sentence, or the case it opens, rejects ("I
    first thought Noah was a knight, but that contradicts Lily's statement."): a step of the
    work, no second answer."""
    parts = lexicon.sentences(after)
    start = 0
    for i, sentence in enumerate(parts):
        start = after.find(sentence, start)
        if start <= position < start + len(sentence):
            return bool(lexicon.PAST_BELIEF.search(sentence)) and _rejected_at(parts, i) is not None
        start += len(sentence)
    return False


def _with_after(statements: list, after: str, names: list[str]) -> list:
    """The final block's statements, given what the text after it says of the same people: a
    different role there replaces the block's after an explicit correction ("wrong",
    "correction", ...) and is a hedge (a second answer offered beside the block) otherwise."""
    said = [s for s in _fill_rest(role_statements(after, names), names) if s[2] in (True, False)]
    final: dict[str, set] = {}
    for _, name, role in statements:
        final.setdefault(name, set()).add(role)
    conflicts = [
        s
        for s in said
        if s[1] in final and final[s[1]] != {s[2]} and not _refuted_belief(after, s[0])
    ]
    if not conflicts:
        return statements
    if lexicon.CORRECTION_RE.search(after, 0, conflicts[0][0]):
        replaced = {name for _, name, _ in said}
        return [s for s in statements if s[1] not in replaced] + said
    return statements + [(position, name, HEDGE) for position, name, _ in conflicts]


def _sentence_start(text: str, position: int) -> int:
    """Where the sentence holding ``position`` starts."""
    ends = list(_BOUNDARY.finditer(text, max(0, position - 400), position))
    return ends[-1].end() if ends else max(0, position - 400)


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


def doubts(scope: str, names: list[str]) -> bool:
    """Whether the final answer, or the text after it, doubts it (see the module docstring):
    a word of doubt or of another answer in English or another language written in the Latin
    script, a confidence under 100%, a doubting symbol, words in a script or a language the
    grader cannot read (:func:`..lexicon.unread_words`), or a question about a person or a role
    that no statement after it answers ("no" at once answers it)."""
    scope = _QUOTED.sub(" ", _QUOTED_LIST.sub(" ", scope))
    if lexicon.states_doubt(scope):
        return True
    if any(_ROLE_WORD.search(s) and _SHARE.search(s) for s in lexicon.sentences(scope)):
        return True  # "Leo: 55% knave.", "Mia: knight (p=0.6)."
    if any(lexicon.share_aside(s) for s in lexicon.sentences(scope)):
        return True  # "(7/10 confidence)", "(two to one)" after the block
    name_re = _patterns(names)[0]
    unnamed = name_re.sub(" ", scope)
    if _FOREIGN_SCRIPT.search(unnamed):
        return True
    if any(lexicon.unread_words(s) for s in lexicon.sentences(unnamed)):
        return True  # "Noah kan ook een ridder zijn.", "..., ehkä.": words the grader cannot read
    for end in reversed(list(re.finditer(r"[?？]", scope))):
        sentence = scope[_sentence_start(scope, end.start()) : end.start()]
        if lexicon.DENIED.match(scope, end.end()):
            continue  # "Could Ava and Jack swap? No: ...": answered no at once
        if name_re.search(sentence) or _ROLE_WORD.search(sentence):
            rest = role_statements(scope[end.end() :], names)
            return not any(role in (True, False) for _, _, role in rest)
    return False


def vouches_nothing(after: str, names: list[str]) -> bool:
    """Whether a sentence after the final statement is a remark without content that vouches for
    nothing (:func:`..lexicon.unvouched`: "Verification pending.", "Who knows.", "Verification of
    Lily pending."), the puzzle's names read as words ("Noah lies, as a knave must." is read)."""
    token = lexicon.KNOWN_NAMES.set(tuple(names))
    try:
        return any(lexicon.unvouched(s, names_read=True) for s in lexicon.sentences(after))
    finally:
        lexicon.KNOWN_NAMES.reset(token)


def reopens(after: str, names: list[str]) -> bool:
    """Whether the text after the final answer un-commits it (:func:`..lexicon.offers_other`,
    docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a sentence that offers another
    assignment or a swap ("Another consistent assignment: ...", "Swapping Noah and Lily also
    works"), or a role beside the answer ("Mia also works as a knight") and states no role itself,
    or says the answer is wrong ("Oops", "mistake") with no statement of roles after it to replace
    it. A reopening word alone ("Wait", "Actually"), a restatement that agrees, a check, a
    question answered "no" at once ("Could Ava and Jack swap? No: ..."), or a
    sentence that rejects what it supposes ("If Mia were a knave, Lily's claim would be true as
    well, which is impossible") does none of these; doubt is :func:`doubts`'s."""
    after = _CLAIM_CONTENT.sub(r"\1 ", after)  # a check's claims are what was said
    parts = lexicon.sentences(_QUOTED.sub(" ", _QUOTED_LIST.sub(" ", after)))
    for i, sentence in enumerate(parts):
        if sentence.rstrip().endswith("?") and lexicon.DENIED.match("".join(parts[i + 1 : i + 2])):
            continue  # "Could Ava and Jack swap? No: ...": a question answered no at once
        stated = [r for _, _, r in role_statements(sentence, names) if r in (True, False)]
        if lexicon.offers_other(sentence, "", "roles"):
            return True
        if lexicon.CORRECTION_RE.search(sentence) and not any(
            r in (True, False) for _, _, r in role_statements(" ".join(parts[i:]), names)
        ):
            return True  # said to be wrong and not replaced
        offered = _ROLE_WORD.search(sentence) and lexicon.ALTERNATIVE_RE.search(sentence)
        if offered and not stated and not lexicon.rejects(sentence):
            return (
                True  # "Noah also works as a knight"; not "..., a knave too, which is impossible"
            )
    return False


# ----- a role statement says a name and a role, and nothing that qualifies it -----
# where a line of a block starts: an enumerator, a bullet, a table's or a JSON object's opening
_LINE_START = re.compile(r"[ \t>]*+(?:[-*•+#][ \t]*+|\(?\d{1,3}[.):][ \t]*+|[|{\[][ \t]*+)?")
# what may end a statement line: punctuation, markup, a tick, "too", "as well"
_TAIL_END = re.compile(
    r"(?:[\s.,;:!|)\]}>*_✓✔✅\"'’”]++|\b(?:too|also|as\s+well|indeed|either)\b)*+", re.IGNORECASE
)
_GLUED = re.compile(r"[-‐]?[^\W\d_]")  # "knave-ish", "knight-like": a suffix on the role word
_ENUMERATOR = re.compile(r"[ \t]*+(?:\(\d{1,3}\)|\d{1,3}[.)])[ \t]++")
_BRACKET = re.compile(r"[ \t]*+[(\[]([^()\[\]\n]{0,300}+)[)\]]")
_JOIN = re.compile(r"[ \t]*+(?:[,;&|.]|-{1,2}|—|–)?[ \t]*+(?:(?:and|but|while|whereas)[ \t]++)?",
                   re.IGNORECASE)  # fmt: skip
_JOINED = re.compile(r"[,;][ \t]*+(?:(?:and|but)[ \t]++)?$", re.IGNORECASE)
_CLAUSE_LEAD = re.compile(r"[ \t]*+(?:[,:;|]|-{1,2}|—|–)?[ \t]*+")
# a gloss that restates a role: "(liar)" (read as "(knave)"), "(she is a knight)", "(honest)"
_GLOSS = re.compile(
    r"(?:(?:he|she|they|it|i\.\s?e\.?,?|=)\s+)?(?:(?:is|was|are)(?P<contracted>n['’]t)?\s+)?"
    r"(?P<negated>(?:not|never)\s+)?(?:always\s+)?(?:an?\s+|the\s+)?"
    r"(?:(knight|knave)s?|(honest|truthful|truth-telling)|(lying|dishonest|deceitful))",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(rf"(?<![\w'’])(?:{'|'.join(lexicon.FIRST_PERSON)})(?![\w'’])",
                           re.IGNORECASE)  # fmt: skip
_CONFIRMED = re.compile(rf"(?:{'|'.join(lexicon.ROLE_CONFIRMED)})(?!\w)", re.IGNORECASE)
_REASON = re.compile(rf"(?:{'|'.join(lexicon.REASON)})(?!\w)", re.IGNORECASE)
_PUZZLE_NOUN = re.compile(rf"\b(?:{'|'.join(lexicon.PUZZLE_NOUNS)})\b", re.IGNORECASE)
_TRUTH_WORD = re.compile(rf"\b(?:{'|'.join(lexicon.TRUTH_WORDS)})\b", re.IGNORECASE)
_FACTS = (_PUZZLE_NOUN, _ROLE_WORD, _TRUTH_WORD)  # what a reason or a check speaks of
MAX_LINE_ITEMS = 32  # the glosses and reasons read on one line


def uncommitted_statement(block: str, names: list[str]) -> bool:
    """Whether a statement line of the answer block qualifies its role (the K&K rule "a role
    statement says a name and a role", docs/guides/rewards.md#kk-two-rules-by-class): a line
    that starts (after an
    enumerator or a bullet) with a person's or a group's role may go on, after each role word,
    only with punctuation, another statement, a gloss that restates the role ("(liar)", "(she
    always tells the truth)"), a confirmation ("— consistent with the statements", "✓") or a
    reason the grader can show is one (:func:`_justifies`). A suffix glued to the role word
    ("knave-ish", "knavish") or any other words ("I reckon", "(Schrödinger's)", "for now")
    leave the person's role uncommitted. A line that starts with no statement (a heading, a
    sentence of prose) is read by the other rules only; a line of more than
    :data:`MAX_LINE_ITEMS` asides is not read to its end and counts as uncommitted (statements
    are read at their start and move on, so a line of many is read whole)."""
    if not block:
        return False
    patterns = _patterns(names)
    text, _ = _prepare(block, patterns.quoted_pair)
    for line in text.split("\n"):
        start = _LINE_START.match(line).end()
        first = _statement_at(line, start, patterns)
        if first is None:
            if patterns.stem.match(line, start):  # "Noah is knavish": a role glued to a suffix
                return True
            continue
        if _qualified_after(line, first, patterns, names):
            return True
    return False


def _statement_at(line: str, pos: int, patterns: _RowPatterns) -> tuple[int, bool | None] | None:
    """``(end, role)`` of a statement that starts at ``pos`` (a person's, a group's or a
    label's: "Noah is a knave", "Mia and Lily are knights", "Knights: Mia, Lily", "Mia, Lily:
    knights"); ``role`` is None where it is not one role."""
    if m := patterns.single.match(line, pos):
        role = _role(m.group(4), m.group(2), m.group(5))
        return m.end(), role if role in (True, False) else None
    if (g := patterns.group_start.match(line, pos)) and (p := _PLURAL.match(line, g.end())):
        return p.end(), None
    if m := patterns.group_label.match(line, pos) or patterns.labelled.match(line, pos):
        return m.end(), None
    for pattern in (_REST, _ALL, _THEY_ALL, _NONE, _ALL_VERBLESS, patterns.except_before,
                    patterns.neither):  # fmt: skip
        if m := pattern.match(line, pos):
            e = patterns.except_after.match(line, m.end())  # "..., except Ava"
            return (e or m).end(), None
    return None


def _qualified_after(line: str, first: tuple[int, bool | None], patterns: _RowPatterns,
                     names: list[str]) -> bool:  # fmt: skip
    """Whether what follows the statement ending at ``first[0]`` on ``line`` qualifies it."""
    pos, role = first
    glued = True  # right after a role word a suffix may be glued to it
    asides = 0
    while asides <= MAX_LINE_ITEMS:
        if glued and _GLUED.match(line, pos):
            return True
        glued = False
        if _TAIL_END.match(line, pos).end() == len(line):
            return False
        if (e := _ENUMERATOR.match(line, pos)) and (nxt := _statement_at(line, e.end(), patterns)):
            (pos, role), glued = nxt, True  # "... a knight (2) Noah is a knave" on one line
            continue
        joined = _JOIN.match(line, pos).end()
        if nxt := _statement_at(line, joined, patterns):
            (pos, role), glued = nxt, True  # a statement moves on: it is no aside to count
            continue
        asides += 1
        if b := _BRACKET.match(line, pos):
            if not _justifies(b.group(1), role, patterns, names):
                return True
            pos = b.end()
            continue
        if c := patterns.continued.match(line, pos):
            pos, glued = c.end(), True
            continue
        # a clause: up to a bracket, a ";" or the next statement joined by a comma
        lead = _CLAUSE_LEAD.match(line, pos).end()
        end = len(line)
        for cut in (line.find("(", lead + 1), line.find("[", lead + 1), line.find(";", lead)):
            end = min(end, cut) if cut >= 0 else end
        for m in patterns.single.finditer(line, lead, end):
            if _JOINED.search(line, lead, m.start()):
                end = _JOINED.search(line, lead, m.start()).start()
                break
        if end <= lead or not _justifies(line[lead:end], role, patterns, names):
            return True
        pos = end
    return True


def _justifies(aside: str, role: bool | None, patterns: _RowPatterns, names: list[str]) -> bool:
    """Whether an aside after a role (a bracket or a clause) restates, confirms or explains it:
    a gloss of the same role; a confirmation (:data:`..lexicon.ROLE_CONFIRMED`), alone or with
    what it was checked against ("consistent with the statements"); a reason connective
    (:data:`..lexicon.REASON`) before the puzzle's statements, roles or truths ("from clue 2",
    "since his statement is false"; a person alone is no reason: "per Lily's vibe"); or a
    clause that finds a truth about the puzzle ("his claim is false", "knaves always lie", "Mia
    tells the truth about him"). Never in the first person: "I reckon", "as far as I can tell"
    are a judgement, not a reason."""
    aside = aside.strip(" \t,;:—–-.!()[]")
    if not aside or _FIRST_PERSON.search(aside):
        return not aside
    if g := _GLOSS.fullmatch(aside):  # "(knight)", "(not a knave)": the role it is, or is not
        said = (g.group(3) or "").lower() == "knight" or bool(g.group(4))
        said = said != bool(g["contracted"] or g["negated"])
        return role is None or said == role
    if c := _CONFIRMED.match(aside):  # "consistent", "consistent with the statements"
        rest = aside[c.end() :]
        return not rest.strip(" \t.!") or any(p.search(rest) for p in _FACTS)
    if _REASON.match(aside):
        return any(p.search(aside) for p in _FACTS)
    about = {
        m.span() for p in (patterns.name_re, _PUZZLE_NOUN, _ROLE_WORD) for m in p.finditer(aside)
    }
    if any(name for _, name, _ in role_statements(aside, names)):
        return True
    found = {m.span() for p in (_TRUTH_WORD, _ROLE_WORD) for m in p.finditer(aside)}
    return any(a != f for a in about for f in found)  # a subject and a truth found about it


# ----- after the answer, a sentence about the roles is about another assignment unless it
# confirms this one -----
# a transformation of a statement, not of the roles: "Lily says the opposite", "the opposite of
# Mia's", "the negation of his claim"
_OF_A_STATEMENT = re.compile(
    rf"\b(?:says|said|claims?|states?|statements?)\s+(?:is\s+|was\s+)?(?:the\s+|just\s+)?"
    rf"{_TRANSFORM}|"
    rf"\b{_TRANSFORM}\s+of\s+(?:what\b|\w++['’]s(?!\s+roles?\b)|(?:the|his|her|their)\s+"
    r"(?:statements?|claims?|words?))",
    re.IGNORECASE,
)
_NEGATED_TRANSFORM = re.compile(
    rf"\b(?:not|no|isn['’]t|aren['’]t|without|never)\s+(?:\w+\s+)?{_TRANSFORM}|\basymmetr",
    re.IGNORECASE,
)
_ROLE_REJECTION = re.compile(rf"\b(?:{'|'.join(lexicon.ROLE_REJECTION)})\b", re.IGNORECASE)
_NO = re.compile(r"^[\W_]*+no\b", re.IGNORECASE)
_NOT = re.compile(r"\bnot\b|\w*n['’]t\b|never\b|no\s+longer\b", re.IGNORECASE)
# a negation shortly before a rejection word: "no statement would be false", "nothing breaks"
_NEGATED_BEFORE = re.compile(
    r"\b(?:no|not|never|nothing|none|nobody|no\s+one|without|nor|\w+n['’]t)\b"
    r"(?:[ \t]+[\w'’]{1,20}+){0,3}?[ \t]+$|\b(?:nothing|none|nobody)[ \t]+$",
    re.IGNORECASE,
)
# a sentence that goes on with the case the one before supposed: "Then ...", "So ...", "... would"
_CONTINUES = re.compile(
    r"^[\W_]*+(?:then|so|but|thus|hence|therefore|which|this|that|and|in\s+(?:that|this|which)\s+"
    r"case|his|her|their)\b|\bwould\b",
    re.IGNORECASE,
)
MAX_CASE_STEPS = 4  # the sentences after a supposed assignment read for its rejection
_NEGATION_ELSEWHERE = re.compile(rf"\b(?:{'|'.join(lexicon.NEGATION_ELSEWHERE)})\b", re.IGNORECASE)
_RANKED = re.compile(
    rf"\b(?:(?:{'|'.join(lexicon.RANKED)})(?:[ \t-]+[\w'’]{{1,20}}+)?|"
    rf"(?:{'|'.join(lexicon.RANK_DEGREES)})[ \t]+(?:{'|'.join(lexicon.CONFIDENCE_ADJECTIVES)}))"
    rf"[ \t-]+(?:{'|'.join(lexicon.JUDGEMENTS)}|{'|'.join(lexicon.CONFIDENCE_ADJECTIVES)})\b|"
    rf"\b(?:{'|'.join(lexicon.RANK_DEGREES)})[ \t]+(?:{'|'.join(lexicon.CONFIDENCE_ADJECTIVES)})\b|"
    rf"\b(?:{'|'.join(lexicon.HARD_CALL)})[ \t]+calls?\b",
    re.IGNORECASE,
)
_BELIEVES = re.compile(
    rf"(?-i:\bI)(?:['’]d|['’]m|\s+would|\s+am)?(?:\s+[a-z]{{1,12}}ly)?\s+"
    rf"(?:{'|'.join(lexicon.BELIEVES)})\w*\b(?!\s+out\b)",  # not "I figured out"
    re.IGNORECASE,
)


def about_another(after: str, statements, names: list[str]) -> bool:
    """Whether a sentence after the final answer speaks of another assignment
    (docs/guides/rewards.md#kk-two-rules-by-class): it gives a person the other role than the
    answer's, stated or supposed ("if Noah were a knight, all statements
    would still hold", "Mia knave, Noah knight, Lily knave"), or transforms the whole
    assignment ("the opposite roles", "symmetric in Mia and Lily", "everyone's role
    reversed"), and neither it nor the next sentence rejects that assignment ("... statement 2
    would be false", "the mirror assignment fails clue 3", "... No, ..."); or it ranks the
    speaker's confidence in one person ("Noah was my weakest call", "I reckon Noah is the
    knave"). The answer's own roles tell another assignment from this one: a restatement or a
    check of the answer speaks of none."""
    if not after.strip():
        return False
    answer = {name: role for _, name, role in statements if role in (True, False)}
    patterns = _patterns(names)
    text, _ = _prepare(after, patterns.quoted_pair)
    parts = lexicon.sentences(text)
    i = 0
    while i < len(parts):
        sentence = parts[i]
        named = patterns.name_re.search(sentence)
        if _RANKED.search(sentence) and (named or _PUZZLE_NOUN.search(sentence)):
            return True  # "Noah was my weakest call", "statement 2 is my least solid read"
        if named and _BELIEVES.search(sentence) and not lexicon.PAST_BELIEF.search(sentence):
            return True  # "I reckon Noah is the knave" (a belief of the past is a step, below)
        other = any(answer.get(name, role) != role for name, role in _roles_named(sentence, names))
        transformed = (
            patterns.transformed.search(sentence)
            and not _OF_A_STATEMENT.search(sentence)
            and not _NEGATED_TRANSFORM.search(sentence)
        )
        if other or transformed:
            rejected = _rejected_at(parts, i)
            if rejected is None:
                return True
            i = rejected  # the case it opened is closed: its steps offer nothing
        i += 1
    return False


def _rejected_at(parts: list[str], i: int) -> int | None:
    """The index of the sentence that rejects the other assignment sentence ``i`` speaks of:
    ``i`` itself ("..., statement 2 would be false"), a next sentence that says "No", or the
    first that rejects among the next sentences that go on with the same case ("Suppose Noah is
    a knight. Then Mia's statement is false, ... But then Lily's claim fails."); None if none."""
    if _rejects_assignment(parts[i]):
        return i
    if i + 1 < len(parts) and _NO.match(parts[i + 1]):
        return i + 1
    for j in range(i + 1, min(len(parts), i + 1 + MAX_CASE_STEPS)):
        if not _CONTINUES.search(parts[j]):
            return None
        if _rejects_assignment(parts[j]):
            return j
    return None


def _rejects_assignment(sentence: str) -> bool:
    """Whether a sentence rejects the assignment it supposes (:data:`..lexicon.ROLE_REJECTION`:
    "would be false", "fails clue 3", "would not hold"); a negation of something else ("not
    just", "not that it matters") rejects nothing, and a rejection word negated affirms ("no
    statement would be false", "nothing breaks", "without contradiction")."""
    sentence = _NEGATION_ELSEWHERE.sub(" ", sentence)
    for m in _ROLE_REJECTION.finditer(sentence):
        if _NOT.match(m.group()) or not _NEGATED_BEFORE.search(sentence, max(0, m.start() - 40),
                                                               m.start()):  # fmt: skip
            return True
    return False


def _roles_named(sentence: str, names: list[str]) -> list[tuple[str, bool]]:
    """``(name, role)`` for every person a sentence gives a role, stated (:func:`role_statements`)
    or supposed, with or without a verb (``paired``: "if Noah were a knight", "Mia knave");
    what someone said ("she claimed that Noah is a knave") is no role given."""
    patterns = _patterns(names)
    canonical = {n.casefold(): n for n in names}
    found = [(name, role) for _, name, role in _fill_rest(role_statements(sentence, names), names)
             if role in (True, False)]  # fmt: skip
    for m in patterns.paired.finditer(sentence):
        if _reported(sentence, m.start(), patterns.name_re):
            continue
        knight = m.group(2).lower() == "knight"
        negated = _NOT.search(sentence, m.end(1), m.start(2))
        found.append((canonical[m.group(1).casefold()], knight != bool(negated)))
    return found


def judge_roles(statements, truth: Mapping[str, bool], conditions_hedge: bool = True) -> Verdict:
    """The verdict on the final statement. A question asserts nothing; a statement under a
    condition is a hedge where it is part of the answer (``conditions_hedge``: in a block) and
    a step of the reasoning otherwise."""
    roles: dict[str, set] = {}
    unasserted: set[str] = set()
    for _, name, role in statements or ():
        if role == QUESTION or (role == CONDITIONAL and not conditions_hedge):
            unasserted.add(name)
            continue
        roles.setdefault(name, set()).add(HEDGE if role == CONDITIONAL else role)
    missing = [name for name in truth if name not in roles]
    if missing:
        return fail("hedged" if all(n in unasserted for n in missing) else "missing_person")
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
    region = after_think(reading(solution_str))
    answer = _final_answer(region, list(truth))
    if answer is None:
        return fail("missing_person")
    if unfinished_after(answer.after) or ("<answer>" not in region and stops_mid_sentence(region)):
        return fail("cut_off")
    after = _after_statements(answer)
    if (
        doubts(answer.scope, list(truth))
        or reopens(after, list(truth))
        or vouches_nothing(after, list(truth))
    ):
        return fail("hedged")
    if lexicon.believes(answer.lines) or lexicon.believes(answer.after):
        return fail("hedged")  # "(I think)" in or after the block; not a lead-in's "I think"
    if uncommitted_statement(answer.lines, list(truth)):
        return fail("hedged")
    if about_another(answer.after, answer.statements, list(truth)):
        return fail("hedged")
    return judge_roles(answer.statements, truth, answer.block)


def _after_statements(answer) -> str:
    """The text after the final statement of roles: after the block, or in prose the sentences
    of the answer's paragraph after the one its last statement stands in ("Grace is a knight,
    Noah is a knave, Mia is a knight. Swapping Noah and Mia also seems consistent.")."""
    if answer.block or not answer.statements:
        return answer.after
    last = max(position for position, _, _ in answer.statements) - answer.start
    end = _BOUNDARY.search(answer.scope, max(last, 0))
    return (answer.scope[end.end() :] if end else "") + "\n" + answer.after


def solution_text(ground_truth: str) -> str:
    """The paper's answer form: ``(1) Grace is a knave`` one line per person."""
    truth = parse_truth(ground_truth)
    return "\n".join(
        f"({i}) {name} is a {'knight' if k else 'knave'}"
        for i, (name, k) in enumerate(truth.items(), 1)
    )
