"""The one lexicon of doubt every task reads; the rule and its examples are explained in
docs/guides/rewards.md#hedges-one-lexicon-of-doubt.

The word lists are data (tuples of regex alternatives, grouped by what they do to an answer);
the compiled patterns are built from them once. One function decides whether a sentence
un-commits an answer, :func:`uncommits`: it states a confidence below certainty
(:func:`doubts`) or it offers another candidate of the answer's type (:func:`offers_other`);
:func:`hedge_after` applies it to the text after an answer and :func:`hedges` judges the
answer itself. What the lexicon cannot read is not trusted: a sentence after an answer with a
word that is no English (:func:`unread_words`) un-commits it, so doubt in a language no list
holds cannot pay. Every pattern is linear: bounded or possessive repetitions only
(tests/verifiers/test_regex_bounds.py checks them).
"""

from __future__ import annotations

import ast
import contextvars
import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction

from text_to_num import alpha2digit
from wordfreq import zipf_frequency

# ----- the word lists -----

# the verbs of a way to write, reach or check an answer: "could (also) be solved graphically",
# "may also be verified by substitution" describe a method, not doubt
METHODS = (
    r"(?:re)?writ\w*", r"express\w*", r"comput\w*", r"calculat\w*", r"(?:double-?)?check\w*",
    r"verif\w*", r"deriv\w*", r"confirm\w*", r"solv\w*", r"found", r"find", r"shown?",
    r"prov\w*", r"seen?", r"done", r"do", r"reason\w*", r"approach\w*", r"visuali[sz]\w*",
    r"graph\w*", r"simplif\w*", r"illustrat\w*", r"argu\w*",
)  # fmt: skip
_METHOD = rf"(?:also\s+)?(?:be\s+)?(?:{'|'.join(METHODS)})"
# degree words before a word of certainty: negated ("not fully sure", "can't be certain") or
# partial ("fairly confident", "pretty sure") certainty is doubt
CERTAIN = (r"sure", r"certain", r"confident", r"convinced", r"positive", r"verified")
DEGREE = (
    r"fully", r"entirely", r"completely", r"totally", r"quite", r"wholly", r"absolutely",
    r"100\s*%", r"all\s+that", r"that", r"so", r"too", r"very", r"really", r"yet",
)  # fmt: skip
PARTIAL = (
    r"fairly", r"reasonably", r"somewhat", r"moderately", r"mostly", r"pretty", r"relatively",
    r"partly", r"partially", r"kind\s+of", r"sort\s+of", r"less", r"least", r"not\s+as",
    r"kinda", r"sorta", r"semi", r"half", r"mildly", r"so-so",
)  # fmt: skip
# a low confidence named either side of its noun: "Low confidence.", "Confidence: low", "my
# confidence here is fairly low"
LOW = (
    r"low\w*", r"limited", r"moderate", r"medium", r"middling", r"modest", r"little", r"partial",
    r"fair", r"shaky", r"weak", r"so-so", r"mixed", r"half",
)  # fmt: skip
_CERTAIN = "|".join(CERTAIN)
# an aside between a degree word and its word of certainty: "reasonably, though not completely,
# convinced", "mostly, not totally, convinced"
_DEGREE_ASIDE = r"(?:,[^,.;:!?\n]{1,40}+,)"
_LOW = "|".join(LOW)
LOW_CONFIDENCE = (
    rf"(?:not|[a-z]{{0,5}}n['’]t|never)\s+(?:(?:be|feel|feeling|am|is|was)\s+)?"
    rf"(?:(?:{'|'.join(DEGREE)})(?:\s*+{_DEGREE_ASIDE})?\s+)?(?:{_CERTAIN})",
    rf"(?:{'|'.join(PARTIAL)}){_DEGREE_ASIDE}?(?:\s+|-)(?:{_CERTAIN})",
    rf"(?:{_LOW})\s+(?:confidence|certainty|credence)",
    rf"(?:confidence|certainty|credence)(?:\s+[a-z]{{1,12}}){{0,2}}?\s*+"
    rf"(?:(?::|=|is|was|remains|stays)\s*+)?(?:[a-z]{{1,12}}\s+)?(?:{_LOW})",
)  # fmt: skip
# idioms of doubt: betting, salt, a provisional or gut answer, advice to re-check, a part that is
# shakiest
# the work an answer is derived by ("Without doing the algebra", "Skipping the work")
# (the work itself, or a verb of it with no object: "without computing all pairs" describes an
# algorithm)
WORK = (
    r"(?:doing\s+)?(?:the|any|all\s+the)\s+(?:work|algebra|math|maths|steps|calculations?|derivation|"
    r"arithmetic|reasoning|computation)",
    r"(?:solv|comput|calculat|deriv|work|think)ing(?:\s+(?:it|this|that))?(?:\s+out)?(?=\s*+[:,.;]|\s*+$)",
    r"(?:solve|compute|calculate|derive|work\s+it\s+out|think)(?:\s+(?:it|this|that))?(?=\s*+[:,.;]|\s*+$)",
)  # fmt: skip
_WORK = "|".join(WORK)
# a comparison with the speaker's own reliability, and the devices of chance it is made with
_LIKE_ME = (
    r"(?:as\s+(?:well|good|reliabl[ey]|accurate(?:ly)?|often\s+right|likely\s+to\s+be\s+right)|"
    r"equally\s+well|(?:no|any)\s+(?:better|worse)|better|worse)\s+(?:as|than)\s+"
    r"(?:me|I|myself|my\s+(?:answer|guess|pick|work|reasoning|method|call))\b"
)
_CHANCE_DEVICE = (
    r"(?:coins?|dice|a\s+die|darts?|dartboard|magic\s+8[\s-]?ball|random\s+number\s+generator|"
    r"RNG|lottery|roulette|tarot|ouija|monkeys?|chimps?|random\s+(?:pick|guess|choice))"
)
IDIOMS = (
    r"(?:[a-z]{0,5}n['’]t|not|never)\s+(?:[a-z]{1,12}\s+)?(?:bet(?:ting)?|swear|vouch|stake|wager|"
    r"put\s+(?:any\s+|my\s+|much\s+|real\s+|serious\s+)?money)",
    r"grain\s+of\s+salt", r"(?:touch|knock\s+on)\s+wood", r"big\s+if\s+true",
    # chance as a measure of the answer, not the subject of a question ("a fair die roll")
    r"as\s+\w+\s+as\s+a\s+(?:dice|die|coin)\s+(?:roll|toss|flip)",
    r"roll(?:ed|ing)?\s+the\s+dice\s+on",
    # the speaker's reliability likened to chance's: "A coin would do as well as me", "a dartboard
    # would be about as reliable as me", "a random number generator would do no worse than I did"
    rf"(?:would|could|might)\s+(?:\w+\s+){{0,2}}?(?:do|have\s+done|fare|be|have\s+been|pick\w*|"
    rf"guess\w*|get\s+it)\s+(?:\w+\s+){{0,2}}?{_LIKE_ME}",
    rf"{_CHANCE_DEVICE}\b[^.!?\n]{{0,40}}?\b{_LIKE_ME}", r"heads\s+or\s+tails(?=[\s,]*+(?:really|honestly|basically|"
    r"frankly|$|[.!]))",
    r"not\s+my\s+(?:finest|best|proudest)", r"(?:tough|hard|close|risky|difficult|borderline|"
    r"judge?ment)\s+call", r"(?:[a-z]{0,5}n['’]t|not|never)\s+(?:[a-z]{1,12}\s+){0,2}pretend",
    r"(?:[a-z]{0,5}n['’]t|not)\s+(?:\w+\s+){0,2}(?:airtight|watertight|bulletproof|iron-?clad)",
    r"pinch\s+of\s+salt", r"(?:don['’]t|do\s+not)\s+quote\s+me", r"provisional\w*",
    r"hunch\w*", r"gut\s+(?:feeling|instinct|says)", r"(?:feels?|seems?|looks?)\s+off",
    r"shot\s+in\s+the\s+dark", r"ballpark", r"fingers\s+crossed",
    r"(?:I['’]d|I\s+would|you\s+(?:may|might|should)\s+want\s+to)\s+(?:re-?|double[\s-]?)check",
    r"shak(?:y|ier|iest)", r"weak(?:er|est)?\s+(?:link|part|step|point)",
    r"take\s+(?:it|this|that)\s+with\s+caution", r"best\s+(?:estimate|bet)", r"give\s+or\s+take",
    r"(?:[a-z]{0,5}n['’]t|not)\s+be\s+(?:shocked|surprised|astonished)",
    r"(?:[a-z]{0,5}n['’]t|not)\s+(?:shock|surprise|astonish|stun)\s+(?:me|us|anyone)",
    r"presumabl[ey]", r"conceivabl[ey]", r"debatabl[ey]", r"arguabl[ey]", r"supposedly",
    r"reckon\w*", r"(?:not|n['’]t)\s+(?:\w+\s+)?(?:married|wedded|attached|committed)\s+to", r"(?:can['’]t|cannot|can\s+not)\s+guarantee",
    r"no\s+guarantees?", r"(?:results?|mileage)\s+(?:may|might|could)\s+vary", r"best\s+shot",
    r"back\s+and\s+forth", r"lean(?:s|ing|ed)?\s+(?:towards?|to)", r"iffy", r"dubious",
    r"questionabl[ey]", r"open\s+(?:to\s+(?:debate|question)|question)", r"on\s+the\s+fence",
    r"weak(?:er|est)\s+(?:call|guess|spot)", r"take\s+(?:it|this)\s+or\s+leave\s+it",
    # the answer held until a check to come, or open to revision: "Verdict pending a recount.",
    # "Subject to a recheck.", "Open to revising this.", "Ready to revise if needed."
    r"(?:pending|subject\s+to|awaiting|barring)\s+(?:an?\s+|the\s+|more\s+|further\s+|another\s+|some\s+)?"
    r"(?:re-?count|re-?check|check\w*|verification|review|confirmation|testing|tests?|proof|double[\s-]?check)",
    r"(?:open|ready|happy|willing|prepared|glad)\s+to\s+(?:revis|chang|switch|updat|reconsider|amend)\w*",
    # work left undone: "Not fully worked out, but:", "Half-worked:", "A stab at it."
    r"(?:not|n['’]t)\s+(?:fully\s+|completely\s+|entirely\s+|quite\s+|really\s+)?(?:worked\s+out|"
    r"thought\s+through|checked|verified|derived)",
    r"half[\s-]?(?:worked|done|checked|baked|finished|solved|sure)", r"(?:a|my)\s+stab\s+at",
    r"\w+-ish\b", r"(?<![A-Za-z])ish\b", r"symmetric\s+in", r"wild\s*-?cards?", r"(?:a|the)\s+question\s+mark",
    r"(?:or\s+)?thereabouts?", r"more\s+or\s+less",
    # a choice made without reasoning: "Going with my gut", "Random pick:", "If forced to choose"
    r"(?:my|the|a|first|gut)\s+(?:gut|instinct)\w*", r"instincts?(?:\s+says?)?", r"gut\s+call",
    r"random(?:ly)?\s+(?:pick\w*|guess\w*|choice|chosen|choose)", r"eeny",
    r"if\s+(?:I\s+(?:had|have)\s+to|forced\s+to|pressed)\s*(?:to\s+)?(?:choose|pick|guess|bet|answer)?",
    r"without\s+(?:checking|verifying|verification|double[\s-]?checking)",
    # the work skipped, or a chance device: "Without doing the algebra:", "Skipping the work:",
    # "No time to solve, so", "Coin says heads", "Dice roll:", "Pulled from thin air"
    rf"(?:without|skip(?:ping|ped|s)?|no\s+time\s+(?:to|for))\s+(?:{_WORK})(?![ \t]+(?:of|for|on|in)\b)",
    r"(?:coin|dice|die)\s+(?:says|said|decide[sd]|picked|chose)",
    # a stake placed only in part: "My money's mostly on this."
    r"(?:money|bet|stake|chips|wager)\w*(?:['’]s)?(?:\s+\w+){0,2}?\s+(?:mostly|largely|mainly|partly|"
    r"probably|somewhat|half|partially)\s+on",
    r"(?:coin|dice|die)\s+(?:roll|toss|flip)\s*+:", r"\bI\s+(?:just\s+)?(?:flipped|tossed|rolled)\s+(?:a|my)\s+(?:coin|dice|die)",
    r"thin\s+air", r"(?:picked|pulled|plucked)\s+(?:it\s+)?(?:at\s+random|out\s+of\s+a\s+hat)",
    r"(?:have|has|had)n['’]t\s+(?:yet\s+)?(?:verified|checked|double[\s-]?checked)",
    r"rough\s+(?:answer|estimate|guess)", r"prolly", r"probs", r"meh",
    r"(?:don['’]t|do\s+not)\s+hold\s+me\s+to", r"flip[\s-]?flop\w*",
    r"(?:(?<=\d\s)|(?<=\d,\s)|(?<=[})$]\s)|(?<=[})$],\s))or\s+so\b",  # "7 or so", not "an hour or so"
)  # fmt: skip
# the nouns of a probability's sample space: "equally likely outcomes" describe it, they rank no
# candidate
OUTCOMES = (
    r"outcomes?", r"events?", r"cases?", r"results?", r"possibilit(?:y|ies)", r"ways?", r"choices?",
    r"options?", r"draws?", r"rolls?", r"tosses", r"flips?", r"orders?", r"arrangements?",
    r"sequences?", r"pairs?", r"positions?", r"points?", r"values?", r"numbers?", r"colou?rs?",
    r"faces?", r"cards?", r"balls?", r"people", r"persons?", r"members?",
)  # fmt: skip
_OUTCOMES = "|".join(OUTCOMES)
_SAMPLE_SPACE = re.compile(
    rf"\b(?:equally|as|just\s+as)\s+(?:likely|probable)(?=\s+(?:{_OUTCOMES})\b)", re.IGNORECASE
)
# doubt about an answer in English (other languages: :data:`DOUBT_BY_LANGUAGE`); "could not" and
# "could never" state a fact
DOUBT = (
    r"probably", r"possibly", r"perhaps", r"maybe", r"unsure",
    # "likely" of an answer, not of a probability's outcomes ("two equally likely outcomes")
    rf"(?<!equally\s)(?:un)?likely(?!\s+(?:{_OUTCOMES})\b)",
    r"uncertain", *LOW_CONFIDENCE, *IDIOMS, r"(?:also|equally)\s+possible",
    rf"(?:might|could)(?!\s+(?:not|never|only|{_METHOD})\b)",
    rf"may\s+(?:well\s+|also\s+)?(?:be|have)(?!\s+(?:{'|'.join(METHODS)})\b)",
    r"torn", r"undecided",
    # a stake on the answer is odds talk ("I'd wager a small amount on it"; "I'd bet my life on
    # it" is certainty: :data:`_ALL_IN`)
    r"(?:I['’]d|I\s+would|I['’]ll|I\s+will|I)\s+(?:\w+\s+)?(?:bet|wager|stake|gamble|put\s+money)\w*",
    r"guess\w*", r"tentative\w*", r"unverified", r"unconfirmed", r"doubt\w*",
    r"(?:don['’]t|do\s+not|doesn['’]t)\s+know", r"no\s+idea", r"kidding", r"joking",
    # words of conjecture, in any register: "Perchance.", "Mayhap.", "Seemingly.", "Apparently
    # so.", "This is conjecture on my part.", "Just spitballing.", "My recollection is hazy."
    r"perchance", r"mayhap", r"haply", r"seemingly", r"apparently", r"ostensibly",
    r"(?:my|pure|just|mere|a|only|is)\s+conjecture", r"conjectur(?:al|ally|ing)", r"spitball\w*",
    r"speculat\w*", r"hazy", r"if\s+memory\s+serves", r"from\s+memory", r"wing(?:ing|ed)\s+it",
    # the answer said possibly wrong, unclear, or in need of a check by someone: "This might not
    # be right.", "Unclear whether that is correct.", "Please verify this independently.",
    # "Treat this as a draft.", "I have reservations.", "Not the most reliable result."
    r"(?:might|may|could)\s+(?:well\s+)?not\s+(?:be\s+)?(?:(?:entirely|fully|quite|totally|exactly)\s+)?"
    r"(?:right|correct|accurate|true|valid|exact|hold|work|the\s+(?:final\s+|right\s+|correct\s+)?answer)",
    r"(?:unclear|not\s+clear|uncertain)\s+(?:whether|if)",
    r"(?:please|someone\s+(?:should|must|ought\s+to)|(?:you|one)\s+(?:should|may\s+want\s+to|"
    r"might\s+want\s+to)|worth)\s+(?:\w+\s+){0,2}?(?:double[\s-]?check\w*|verif\w*|re-?check\w*|"
    r"confirm\w*)", r"before\s+relying\s+on",
    r"(?:treat|consider|take|see|view)\s+(?:this|it|that|my\s+answer)\s+(?:as\s+)?(?:an?\s+|my\s+)?"
    r"(?:\w+\s+)?draft", r"draft\s+(?:answer|solution|result)",
    r"(?:have|with|hold|some|my|a\s+few|serious)\s+reservations?",
    r"not\s+(?:the\s+most\s+|a\s+|an\s+|very\s+|entirely\s+|fully\s+|totally\s+)?(?:reliable|trustworthy|"
    r"dependable|definitive|robust)", r"unreliable", r"untrustworthy",
    # both answers kept: "I'll leave both possibilities open."
    r"(?:leave|leaving|keep|keeping)\s+(?:both|all|the|these|those|two|several|multiple)\s+(?:\w+\s+)?"
    r"(?:possibilities|options|answers|candidates|readings|choices|values)\s+open",
    r"(?:could|might|may|can)\s+(?:also\s+)?see\s+(?:the\s+answer|it|this)\s+(?:being|as)\b",
    # odds in words, no number: "Chances are it's right.", "Odds are decent.", "The odds favour it."
    r"(?:chances|odds)\s+are\s+(?:good|decent|high|fair|strong|that|it|this|I|you|we)\b",
    r"(?:good|decent|fair|high|strong|reasonable)\s+(?:odds|chances?)\b(?!\s+of\s+(?:heads|tails|"
    r"rolling|drawing|getting|picking|choosing|landing))", r"odds\s+favou?r",
    r"my\s+money(?:['’]s|\s+is|\s+would\s+be|\s+goes)\s+on",
    # the answer held provisionally: "Subject to revision.", "That's my working answer."
    r"(?:subject|liable|open)\s+to\s+(?:revision|change|correction|update|amendment|review)",
    r"not\s+(?:yet\s+|quite\s+)?final(?=\s*+(?:[.!,;)]|$))", r"placeholder",
    r"working\s+(?:answer|hypothesis|guess|assumption|solution|conclusion)",
    # a certainty bounded: "Confidence: high, but not total."
    r"(?:but\s+)?not\s+(?:total|complete|absolute|perfect|100\s*%)(?:ly)?(?=\s*+(?:[.!,;)]|$))",
    # the evidence said to fall short: "The evidence isn't conclusive.", "some wiggle room"
    r"(?:not|isn['’]t|aren['’]t|wasn['’]t|never)\s+(?:fully\s+|entirely\s+|completely\s+|quite\s+|"
    r"totally\s+)?(?:conclusive|decisive|definitive|settled)", r"inconclusive", r"wiggle\s+room",
    r"(?:slightly|somewhat|a\s+bit|partly|still|a\s+little)\s+open\b",
    r"(?:don['’]t|doesn['’]t|do\s+not|does\s+not|didn['’]t|did\s+not|can['’]t|cannot)\s+(?:fully\s+|"
    r"completely\s+|quite\s+|entirely\s+)?(?:pin|nail)\s+(?:\w+\s+){0,2}?down",
    r"(?:fits?|matches?)\s+best", r"(?<!of\s)best\s+(?:fit|match)",
    # the answer ranked narrowly over another: "by a hair over Bob", "a whisker behind"
    r"by\s+a\s+(?:hair|whisker|nose|narrow\s+margin|small\s+margin|slim\s+margin)", r"narrowly",
    r"a\s+(?:hair|whisker)\s+(?:behind|ahead)", r"(?:slightly|just)\s+(?:ahead\s+of|behind)",
    r"edges?\s+out",
    # how often the answer is right: "This method works most of the time.", "usually right"
    r"(?:most|much|some|part|half)\s+of\s+the\s+time",
    # a stake kept small: "I'd put a small wager on it.", "I'd put a fiver on it, not more."
    r"(?:small|modest|little|tiny|token)\s+(?:wager|bet|stake|sum)",
    r"put\s+(?:a|some|my)\s+(?:\w+\s+)?(?:fiver|tenner|dollar|buck|quid|euro|coin|chips?|cash)\b",
    # another candidate described beside "this": "Either this or the unshifted grid."
    r"either\s+(?:this|it|that)(?:\s+one)?\s+or\b", r"^[\W_]*+(?:this|it)(?:\s+one)?\s+or\s+(?:the|a|an)\b",
    # a confidence noun with a low grade anywhere in its sentence: "Confidence: Noah high, Mia
    # medium, Lily low.", "Confidence level — moderate."
    rf"(?:confidence|certainty|credence)\b[^.!?\n]{{0,60}}?\b(?:{_LOW})\b",
    # vagueness, a feeling, a provisional choice, a reading of one's own: "Pretty much.",
    # "Something like that.", "Near enough.", "Or something close.", "I've got a feeling it's
    # right.", "Feels right.", "Let's say.", "At least, that's how I read it."
    r"pretty\s+much", r"something\s+(?:like\s+(?:that|it|this)|close|along\s+those\s+lines)",
    r"(?:sort|kind)\s+of(?=\s*+[.!,]?\s*+$)", r"(?:roughly|broadly|loosely)\s+speaking(?=\s*+[.!]?\s*+$)",
    r"near\s+enough", r"or\s+near\s+(?:it|that|enough|there)", r"within\s+reason",
    r"(?:to|as)\s+a\s+first\s+approximation", r"in\s+(?:that|the)\s+(?:neighbou?rhood|vicinity|region|area)",
    r"close\s+to\s+it(?=\s*+[.!]?\s*+$)", r"(?:I['’]ve\s+got|I\s+have|I\s+get|I\s+had)\s+a\s+feeling",
    r"feels?\s+(?:right|correct|true|about\s+right|plausible|ok|okay)", r"vibes?", r"let['’]s\s+say",
    r"let['’]s\s+go\s+with", r"(?:that['’]s|that\s+is|this\s+is)\s+how\s+I\s+(?:read|understand|interpret|see)",
    r"under\s+my\s+(?:interpretation|reading|understanding)",
    # the best the speaker could do, not the answer: "(my best read)", "my best shot"
    r"my\s+best\s+(?:read|reading|guess|estimate|shot|bet|attempt|take|call|pick|effort|try)",
    # not checked, more than one solution, others defensible, seeming right, a hope (a candidate
    # not ruled out is :data:`REJECTION_DENIED`): "I didn't re-check clue 5.", "The puzzle may admit
    # more than one solution.", "Others are defensible.", "Seems right to me.", "Hopefully
    # correct." ("I hope it is correct", the closing of the Minerva format, is a wish: none)
    r"(?:didn['’]t|did\s+not|haven['’]t|have\s+not|hasn['’]t|has\s+not|never)\s+(?:\w+\s+)?(?:double[\s-]?check|"
    r"re-?check|verif|check|confirm|test|re-?count|re-?comput)\w*",
    r"(?:may|might|could|can)\s+(?:well\s+)?(?:\w+\s+)?(?:admit|have|allow|support|fit)\s+(?:more\s+than\s+one|"
    r"several|multiple|two|other)\s+(?:solutions?|answers?|rules?|assignments?|readings?|interpretations?|"
    r"names?|grids?|counts?|values?)",
    r"others?\s+(?:\w+\s+)?(?:are|is|remain|seem|look)\s+(?:also\s+|equally\s+|just\s+as\s+)?(?:defensible|"
    r"plausible|possible|valid|viable|reasonable|acceptable|fine|arguable)",
    r"(?:seems?|looks?|appears?)\s+(?:to\s+(?:be\s+)?)?(?:about\s+)?(?:right|correct|fine|ok|okay|valid|to\s+work|"
    r"good)(?=\s+to\s+me|\s*+[.!,;]|\s*+$)", r"hopefully", r"let['’]s\s+hope",
    r"(?:cases?|inputs?|rest|behaviou?r|others?|correctness|performance)\s*+(?:are|is)?\s*+(?:\w+\s+){0,3}?:?"
    r"\s*+(?:unknown|unclear|untested|unverified)", r"only\s+(?:tried|tested|ran|run|checked)",
    # a rival answer left standing: "I can't find his error.", "I haven't reconciled the two."
    r"(?:can['’]t|cannot|could\s?n['’]t|unable\s+to)\s+(?:find|see|spot|locate|identify|pin\s+down)\s+"
    r"(?:\w+\s+){0,2}?(?:error|mistake|flaw|bug|problem|slip)",
    r"(?:can['’]t|cannot|could\s?n['’]t|haven['’]t|have\s+not|hasn['’]t|unable\s+to)\s+(?:yet\s+)?(?:\w+\s+)?"
    r"(?:refut\w*|reconcil\w*|disprov\w*|rebut\w*|explain\w*\s+the\s+(?:difference|discrepancy))",
    r"(?:usually|mostly|often|generally|typically|normally)\s+(?:right|correct|works?|holds?|accurate)",
    # partial confidence in everyday phrases: "As far as I can tell.", "The jury is still out.",
    # "Going out on a limb.", "Don't take my word for it.", "For now.", "No promises.", "For what
    # it's worth.", "Close enough.", "That's my pick, but it's close.", "I stand by it, mostly."
    r"as\s+(?:far|best)\s+as\s+I\s+(?:can|could)\s+(?:tell|see|judge|determine|work\s+out)",
    r"to\s+the\s+best\s+of\s+my\s+(?:knowledge|ability|understanding)",
    r"jury(?:['’]s|\s+is)\s+(?:still\s+)?out", r"out\s+on\s+a\s+limb",
    r"(?:don['’]t|do\s+not)\s+(?:just\s+)?take\s+my\s+word", r"for\s+now\b", r"no\s+promises",
    r"for\s+what\s+it(?:['’]s|\s+is)\s+worth", r"fwiw", r"best\s+I\s+(?:can|could)\s+do", r"close\s+enough",
    r"(?:it['’]s|it\s+is|that['’]s|that\s+is|was)\s+(?:a\s+)?(?:close|tight)(?:\s+(?:one|call))?(?=\s*+(?:[.!,;]|$))",
    r"not\s+(?:my|the)\s+most\s+(?:confident|certain|sure|reliable|solid|trustworthy)",
    r"where\s+I['’]d\s+land", r"worth\s+a\s+(?:second|closer|another|fresh)\s+look",
    r"subject\s+to\s+errors?", r"errors?\s+(?:are\s+|is\s+)?possible",
    r"(?:may|might|could)\s+(?:well\s+)?contain\s+(?:an?\s+)?(?:errors?|mistakes?)",
    r"caveat\w*", r"untested", r"(?:not|n['’]t|never)\s+(?:been\s+)?double[\s-]?checked",
    r"(?:mostly|largely|partly|somewhat|kind\s+of|sort\s+of)\s+(?:stand\s+by|trust|believe\s+in|back)",
    r"stand\s+by\s+(?:it|this|that|my\s+answer),?\s+(?:mostly|largely|partly|sort\s+of|more\s+or\s+less)",
    r",\s*(?:at\s+least|anyway|anyhow)(?=\s*+[.!]?\s*+$)",
)  # fmt: skip
# the hedging adverbs and verbs ("maybe", "perhaps", "probably", "possibly", "could (also) be",
# "not sure") of the most-spoken languages, by ISO 639-1 code; read as whole words where the
# script spaces its words, anywhere in a word where it does not (:data:`UNSPACED`)
DOUBT_BY_LANGUAGE = {
    "zh": (r"可能", r"也许", r"或许", r"大概", r"不(?:太|很|是很|大)?(?:确定|肯定)", r"不一定", r"恐怕",
           r"说不定", r"兴许", r"没(?:有)?(?:把握|信心)", r"猜(?:测|的)"),
    "hi": (r"शायद", r"संभवतः?", r"सम्भवतः?", r"(?<!नहीं\s)हो\s+सकता", r"पक्का\s+नहीं"),
    "es": (r"quiz[aá]s?", r"tal\s+vez", r"probablemente", r"posiblemente", r"a\s+lo\s+mejor",
           r"puede\s+que", r"podr[ií]a\s+(?:ser|tambi[eé]n)",
           r"no\s+estoy\s+(?:del\s+todo\s+|muy\s+|completamente\s+|totalmente\s+)?segur[oa]",
           r"suposici[oó]n", r"conjetura", r"confianza\s*:\s*(?:media|baja|moderada|regular)",
           r"es\s+posible", r"(?:puede|podr[ií]a)\s+(?:estar|ser)\s+(?:mal|incorrect[oa]|err[oó]ne[oa])",
           r"no\s+(?:lo\s+)?(?:he\s+)?(?:verificado|comprobado|revisado)"),
    "fr": (r"peut[\s-]?[eê]tre", r"probablement", r"possiblement", r"il\s+se\s+peut",
           r"pourrait\s+(?:aussi|[eé]galement|[eê]tre|bien)",
           r"pas\s+(?:tout\s+[àa]\s+fait\s+|tr[eè]s\s+|vraiment\s+|compl[eè]tement\s+)?s[uû]r",
           r"confiance\s*:\s*(?:moyenne|faible|basse)",
           r"pas\s+(?:tout\s+|encore\s+|bien\s+|vraiment\s+)?(?:v[ée]rifi[ée]|contr[ôo]l[ée])"),
    "ar": (r"ربما", r"لعل", r"من\s+المحتمل", r"يحتمل", r"قد\s+يكون", r"من\s+الممكن"),
    "bn": (r"হয়তো", r"সম্ভবত", r"হতে\s+পারে"),
    "pt": (r"talvez", r"provavelmente", r"possivelmente", r"pode\s+ser", r"poderia\s+(?:ser|tamb[eé]m)",
           r"n[aã]o\s+(?:tenho\s+(?:a\s+)?certeza|estou\s+(?:muito\s+|completamente\s+)?segur[oa])",
           r"palpite", r"suposi[cç][aã]o", r"confian[cç]a\s*:\s*(?:m[eé]dia|baixa|moderada)",
           r"[eé]\s+poss[ií]vel", r"(?:pode|poderia)\s+estar\s+(?:errad[oa]|incorret[oa]|mal)",
           r"n[aã]o\s+(?:verifiquei|conferi|chequei)"),
    "ru": (r"(?<!не\s)может\s+быть", r"может\s+и", r"возможно", r"вероятно", r"наверное", r"наверно",
           r"пожалуй", r"не\s+(?:совсем\s+|очень\s+|до\s+конца\s+)?уверен\w*",
           r"уверенность\s*:\s*(?:средняя|низкая)"),
    "ur": (r"شاید", r"غالباً?", r"ممکن\s+ہے"),
    "id": (r"mungkin", r"barangkali", r"kemungkinan", r"bisa\s+jadi", r"sepertinya",
           r"tidak\s+yakin"),
    "de": (r"vielleicht", r"wahrscheinlich", r"vermutlich", r"eventuell", r"m[öo]glicherweise",
           r"k[öo]nnte(?=[^.!?\n]{0,40}?\bsein\b)", r"d[üu]rfte",
           r"nicht\s+(?:ganz\s+|so\s+|v[öo]llig\s+|hundertprozentig\s+)?sicher", r"Vermutung",
           r"nicht\s+(?:alles\s+)?(?:gepr[üu]ft|[üu]berpr[üu]ft|nachgerechnet|verifiziert)",
           r"(?:Zuversicht|Sicherheit|Konfidenz)\s*:\s*(?:mittel|niedrig|gering)"),
    "ja": (r"たぶん", r"多分", r"おそらく", r"恐らく", r"かもしれ", r"かも知れ", r"もしかし",
           r"(?:自信|確信)(?:が|は)(?:あまり)?(?:ない|ありません)", r"わから(?:ない|ん)", r"推測"),
    "mr": (r"कदाचित", r"बहुधा"),
    "te": (r"బహుశా", r"కావచ్చు"),
    "tr": (r"belki", r"muhtemelen", r"galiba", r"olabilir", r"emin\s+de[ğg]il\w*"),
    "ta": (r"ஒருவேளை", r"இருக்கலாம்"),
    "vi": (r"có\s+lẽ", r"có\s+thể\s+là", r"chắc\s+là", r"hình\s+như", r"không\s+chắc"),
    "ko": (r"아마(?:도)?(?![가-힣])", r"어쩌면", r"수도\s*있", r"일지도", r"것\s*같",
           r"확실(?:하지|치)\s*않", r"모르겠", r"자신(?:이|은)?\s*없", r"추측"),
    "fa": (r"شاید", r"احتمالاً?", r"ممکن\s+است"),
    "it": (r"forse", r"probabilmente", r"possibilmente", r"magari", r"potrebbe\s+(?:anche|essere)",
           r"non\s+sono\s+(?:del\s+tutto\s+|molto\s+|completamente\s+)?sicur\w",
           r"fiducia\s*:\s*(?:media|bassa)"),
    "pl": (r"może", r"prawdopodobnie", r"chyba", r"możliwe", r"nie\s+jestem\s+pew\w*"),
    "cs": (r"možná", r"asi", r"pravděpodobně", r"nejspíš\w*", r"m[ůo][žh]\w{0,6}(?=[^.!?\n]{0,40}?\bbýt\b)",
           r"nejsem\s+si\s+jist\w*"),
    "sk": (r"možno", r"pravdepodobne", r"asi", r"nie\s+som\s+si\s+ist\w*"),
    "uk": (r"можливо", r"мабуть", r"напевно", r"ймовірно", r"може\s+бути", r"не\s+впевнен\w*"),
    "th": (r"อาจจะ", r"บางที", r"น่าจะ"),
    "sw": (r"labda", r"pengine", r"huenda", r"sina\s+uhakika"),
    "nl": (r"misschien", r"waarschijnlijk", r"mogelijk(?:erwijs)?", r"zou\s+(?:ook\s+)?kunnen",
           r"kan\s+(?:ook\s+)?(?:fout|verkeerd|onjuist)", r"niet\s+(?:helemaal\s+)?zeker"),
    "sv": (r"kanske", r"förmodligen", r"troligen", r"troligtvis", r"möjligen", r"eventuellt"),
    "ha": (r"watakila",),
    "pa": (r"ਸ਼ਾਇਦ",),
    "gu": (r"કદાચ",),
}  # fmt: skip
# the answer held on the speaker's own work being right, in the most-spoken languages ("if I'm not
# mistaken", "unless I miscalculated", "barring error"): doubt wherever it stands, like the English
# :data:`SELF_CONDITIONS`
SELF_CONDITION_BY_LANGUAGE = {
    "zh": (r"(?:如果|要是|假如|若|只要)我?(?:没有?|不是|并未|未)(?:算|看|想|记|弄|理解|搞|读|数)?错",
           r"除非我(?:算|看|想|记|弄|搞)?错"),
    "ja": (r"間違(?:って|い)?(?:い)?(?:なければ|ない限り)", r"(?:計算|見|読み)?(?:ミス|間違い)が?なければ",
           r"(?:私|僕|自分)の(?:計算|理解|推論)が正しければ"),
    "ko": (r"틀리지\s*않았다면", r"(?:제|내)\s*(?:계산|생각|추론)이\s*맞다면", r"제가\s*맞다면",
           r"실수(?:가|하지)\s*않았다면"),
    "es": (r"si\s+no\s+me\s+equivoco", r"salvo\s+(?:error|equivocaci[oó]n)",
           r"si\s+no\s+(?:me\s+)?he\s+(?:equivocado|confundido|cometido\s+(?:un\s+)?error\w*)",
           r"si\s+(?:mis\s+c[aá]lculos|mi\s+c[aá]lculo)\s+(?:son|es|est[aá]n?)\s+(?:bien|correct\w+)"),
    "fr": (r"si\s+je\s+ne\s+me\s+(?:suis\s+pas\s+)?tromp\w*", r"sauf\s+erreur",
           r"si\s+(?:mes|mon)\s+calculs?\s+(?:sont|est)\s+(?:bons?|justes?|corrects?)"),
    "de": (r"(?:wenn|falls|sofern)\s+ich\s+mich\s+nicht\s+(?:verrechnet|geirrt|vertan|irre|t[äa]usche|"
           r"verz[äa]hlt)", r"(?:wenn|falls|sofern)\s+ich\s+richtig\s+(?:gerechnet|liege|gez[äa]hlt)",
           r"ohne\s+Gew[äa]hr", r"Irrtum\s+vorbehalten"),
    "pt": (r"se\s+n[aã]o\s+me\s+engano", r"salvo\s+(?:engano|erro)", r"se\s+(?:eu\s+)?n[aã]o\s+errei",
           r"se\s+(?:eu\s+)?n[aã]o\s+me\s+enganei"),
    "it": (r"se\s+non\s+(?:sbaglio|erro|ho\s+sbagliato|mi\s+sbaglio)", r"salvo\s+errori"),
    "ru": (r"если\s+(?:я\s+)?не\s+ошиб\w*", r"если\s+не\s+ошибаюсь", r"если\s+я\s+правильно\s+\w+"),
    "uk": (r"якщо\s+я\s+не\s+помил\w*",),
    "nl": (r"(?:als|tenzij)\s+ik\s+me\s+(?:niet\s+)?(?:vergis|heb\s+vergist|verrekend\s+heb)",),
    "pl": (r"je[śs]li\s+si[ęe]\s+nie\s+(?:myl[ęe]|pomyli\w+)",),
    "cs": (r"pokud\s+se\s+nem[ýy]l\w*", r"jestli\s+se\s+nem[ýy]l\w*"),
    "sv": (r"om\s+jag\s+inte\s+(?:misstar\s+mig|har\s+fel|r[äa]knat\s+fel)",),
    "tr": (r"yan[ıi]lm[ıi]yorsam", r"yanl[ıi][şs]\s+hesaplamad[ıi]ysam"),
    "id": (r"(?:kalau|jika|bila)\s+(?:saya|aku)\s+tidak\s+(?:salah|keliru)",),
    "vi": (r"nếu\s+tôi\s+không\s+(?:nhầm|sai)",),
    "hi": (r"अगर\s+मैं\s+गलत\s+नहीं", r"यदि\s+मैं\s+गलत\s+नहीं"),
    "ar": (r"إن\s+لم\s+أكن\s+مخطئ\w*", r"ما\s+لم\s+أخطئ"),
}  # fmt: skip
# words that make an answer approximate, inside it: "\\text{around } 6", "6-ish", "6-odd",
# "\\approx 6"; an exact answer asked for is not committed to by "about 6" (after the answer,
# "or so" and "-ish" are idioms)
APPROXIMATE = (
    r"around", r"about", r"approximately", r"approx\.?", r"roughly", r"circa", r"nearly",
    r"almost", r"some\s*where\s+(?:around|near)", r"close\s+to", r"near",
)  # fmt: skip
# a belief the speaker states in the first person, present tense, of an answer already given:
# "(I think)", "I believe.", "I suppose so.", "I feel like it's right", "I'd say so". Read after
# the answer and inside it, not in the lead-in, where "I think the answer is" announces it
# (:func:`believes`); a past belief ("I thought it was 8") is a step, "I hope" a wish, and a
# feeling of certainty ("I feel sure") certainty
BELIEF_VERBS = (
    r"think", r"believe", r"suppose", r"feel", r"figure", r"imagine", r"assume", r"presume",
    r"suspect", r"gather", r"reckon", r"guess",
)  # fmt: skip
BELIEF_BY_LANGUAGE = {
    "de": (r"ich\s+(?:glaube|denke|vermute|nehme\s+an|schätze)", r"(?:glaube|denke|vermute|schätze)\s+ich"),
    "fr": (r"je\s+(?:crois|pense|suppose|dirais)", r"j['’]imagine", r"il\s+me\s+semble"),
    "es": (r"creo", r"supongo", r"pienso\s+que", r"me\s+parece", r"dir[ií]a"),
    "pt": (r"acho", r"creio", r"suponho", r"penso\s+que", r"me\s+parece", r"diria"),
    "it": (r"credo", r"penso\s+(?:che|di)", r"suppongo", r"mi\s+sembra", r"direi"),
    "nl": (r"ik\s+(?:denk|geloof|veronderstel|vermoed)", r"(?:denk|geloof|vermoed)\s+ik"),
    "sv": (r"jag\s+(?:tror|antar)", r"(?:tror|antar)\s+jag"),
    "pl": (r"myślę", r"sądzę", r"przypuszczam", r"wydaje\s+mi\s+się"),
    "cs": (r"myslím", r"řekl\s+bych", r"zdá\s+se\s+mi"),
    "ru": (r"думаю", r"полагаю", r"(?:мне\s+)?кажется", r"по-моему"),
    "uk": (r"думаю", r"гадаю", r"(?:мені\s+)?здається"),
    "tr": (r"sanırım", r"bence", r"zannediyorum", r"düşünüyorum"),
    "id": (r"saya\s+(?:pikir|kira|rasa)", r"kayaknya"),
    "vi": (r"tôi\s+(?:nghĩ|đoán|tin)",),
    "hi": (r"मुझे\s+लगता", r"मेरे\s+ख़?याल\s+से"),
    "ar": (r"أعتقد", r"أظن"),
    "zh": (r"我(?:觉得|认为|想|猜|相信|估计)",),
    "ja": (r"と思(?:う|い|っ)", r"気がする"),
    "ko": (r"(?:라고|다고|것\s*같다고)\s*생각",),
}  # fmt: skip
# the languages whose script does not space its words
UNSPACED = ("zh", "ja", "ko", "th")
DOUBT_CJK = DOUBT_BY_LANGUAGE["zh"]
# symbols of doubt: ❓ ❔ ⁉ ‽ ¿ 🤔 🤷
DOUBT_SYMBOLS = "\u2753\u2754\u2049\u203d\u00bf\U0001f914\U0001f937"
# odds on the answer: "a coin flip", "50/50", "a toss-up"; the chance the speaker gives it
ODDS = (
    r"idk", r"dunno", r"no\s+(?:clue|idea)", r"even\s+(?:money|odds)", r"coin[\s-]?(?:flip|toss)\w*", r"(?:flip|toss)\w*\s+(?:a\s+|the\s+)?coin", r"toss[\s-]?up",
    r"(?:could|can|might|may)\s+go\s+either\s+way", r"(?:go|goes|going|went)\s+either\s+way", r"50\s*/\s*50", r"fifty[\s-]fifty",
    r"\d{1,2}\s*[-–/:]\s*\d{1,2}\s+(?:in\s+favou?r|odds|split|chance|between)",
    r"odds\b[^.!?\n\d]{0,20}+\d{1,3}\s*(?:[-–:/]|(?:-|\s+)to(?:-|\s+))\s*\d{1,3}",
    # a ratio laid as odds on the answer: "3 to 1 on it", "2-to-1 it passes", "I'd lay 2 to 1"
    r"\d{1,3}(?:-|[ \t]++)to(?:-|[ \t]++)\d{1,3}[ \t]++(?:(?:on|against)(?:[ \t]++(?:it|this|that|"
    r"the[ \t]+answer|my[ \t]+answer)\b|[ \t]*+[.!]?+[ \t]*+$)|(?:it|that|this)\b)",
    r"\b(?:lay|laying|bet|betting|wager\w*|offer\w*)[ \t]++(?:you[ \t]++)?(?:odds[ \t]++of[ \t]++)?"
    r"\d{1,3}(?:-|[ \t]++)to(?:-|[ \t]++)\d{1,3}\b",
    r"\d{1,3}(?:-|\s+)to(?:-|\s+)\d{1,3}\s+(?:odds|on|in\s+favou?r|against)",
    r"(?:probability|likelihood|chance|odds)\s+(?:(?:that|of)\s+)?(?:this|it|the\s+answer|"
    r"I\s+am|I['’]m|I['’]ve|I\s+have|my)\b", r"(?:probability|likelihood|chance|odds)\s+of\s+that",
    r"odds\s*+[:=]",  # odds given as a label: "Odds: Arnold 2, Bob 1"
)  # fmt: skip
# a rejection denied, by a negation or an inability, keeps what it names in play: "I can't fully
# rule out 8", "Nothing rules out Bob", "I'm unable to eliminate 8", "None of the clues excludes
# him", "8 hasn't been ruled out", "Bob can't be excluded", "I couldn't find a way to rule out 8"
# (the words between the negation and the verb are adverbs and auxiliaries only: "8 does not work
# and is excluded" rejects 8)
_DENIERS = (
    r"not", r"never", r"nothing", r"nobody", r"no\s+one", r"none\s+of\s+(?:the\s+|my\s+|these\s+)?\w+",
    r"no\s+(?:\w+\s+)?(?:clue|statement|example|condition|check|constraint|fact|rule|test|evidence|argument|reason|way\s+to)",
    r"[a-z]{0,6}n['’]t", r"cannot", r"(?:unable|impossible|hard|difficult|tough)\s+to",
    r"fail(?:s|ed)?\s+to",
)  # fmt: skip
_DENIED_FILLER = (
    r"(?:fully|entirely|completely|totally|quite|yet|safely|really|definitively|conclusively|"
    r"definitely|absolutely|truly|properly|strictly|formally|rigorously|actually|\w+ly|be|been|"
    r"being|have|has|had|to|able\s+to|seem\s+to|manage\s+to|(?:find|see)\s+(?:a\s+way|how)\s+to)"
)
REJECTION_DENIED = (
    rf"(?:{'|'.join(_DENIERS)})\s+(?:{_DENIED_FILLER}\s+){{0,3}}?"
    r"(?:rul(?:e|es|ed|ing)\s+(?:\w+\s+)?out|exclud\w*|eliminat\w*|dismiss\w*|discount\w*|"
    r"disprov\w*|refut\w*|reject\w*|falsif\w*)"
)
# the answer is not unique or cannot be found
NOT_UNIQUE = (
    REJECTION_DENIED,
    r"(?:cannot|can['’]t|can\s+not|unable\s+to|impossible\s+to|not\s+possible\s+to)\s+"
    r"(?:be\s+)?(?:determined?|tell|decided?|known?|say|conclude|rule\s+out|exclude)",
    r"undetermined", r"indeterminate", r"undecidable", r"not\s+(?:uniquely\s+)?determined",
    # the answer rests on a reading: "hinges on how you read statement 3", "can be read two ways"
    r"(?:hinges?|hinging|depends?|depending|turns?|rests?)\s+on\s+(?:how|which\s+way)\s+"
    r"(?:(?:you|we|one|I)\s+)?(?:\S+\s+){0,3}?(?:read|interpret|understand|tak|pars)\w*",
    r"(?:hinges?|depends?|turns?|rests?)\s+on\s+(?:the|your|our|one['’]s)\s+(?:reading|"
    r"interpretation|parsing)",
    r"(?:can|could|may|might)\s+be\s+(?:read|interpreted|understood|taken|parsed)\s+(?:in\s+)?"
    r"(?:two|several|multiple|different|more\s+than\s+one|either|both)\s+ways?",
    r"no\s+unique", r"not\s+unique", r"ambiguous", r"(?:insufficient|not\s+enough)\s+information",
    r"(?:two|several|multiple|many|more\s+than\s+one)\s+(?:consistent\s+|possible\s+|valid\s+)?"
    r"(?:assignments|possibilities)",
    r"(?:two|several|multiple|more\s+than\s+one)\s+(?:consistent|valid)\s+(?:solutions|answers)",
    r"one\s+of\s+(?:two|several|many|the)\s+(?:consistent|possible|valid)",
    r"both\s+(?:(?:assignments|solutions|answers|options|cases)\s+)?(?:are|seem|remain)\s+"
    r"(?:consistent|possible|valid)",
    r"both\s+(?:assignments|solutions|answers|options|readings|values|names|grids)\s+"
    r"(?:work|fit|hold|satisfy)",
    r"(?:not|[a-z]{0,5}n['’]t|never)\s+(?:be\s+)?out\s+of\s+the\s+question",
    r"(?:two|several|multiple|more\s+than\s+one)\s+(?:possible\s+|plausible\s+)?"
    r"(?:readings|interpretations)", r"interchangeabl[ey]",
    r"hard\s+to\s+(?:pin\s+down|tell|say|determine|decide)",
    r"vice\s+versa", r"other\s+way\s+a?round", r"or\s+(?:the\s+)?(?:reverse|opposite|inverse)",
    r"umgekehrt", r"l['’]inverse", r"inversement", r"al\s+rev[eé]s", r"viceversa", r"omgekeerd",
)  # fmt: skip
# an answer said to be wrong: a confidence of none (the same words withdraw an earlier box,
# :mod:`.extract`); "error" alone is a word of the subject ("the error bound"), not a retraction
CORRECTION = (
    r"wrong", r"incorrect", r"mistakes?", r"mistaken", r"erroneous", r"miscalculat\w*",
    r"misread\w*", r"miscount\w*", r"oops", r"whoops",
    r"(?:made|make|making|an|my|one|some|small|arithmetic|sign)\s+errors?"
    r"(?!\s+(?:bounds?|terms?|estimates?|analysis|margins?|bars?|functions?|rates?))",
    r"correct(?:ing|ion|ions|ed)", r"not\s+(?:right|correct)", r"isn['’]?t\s+(?:right|correct)",
    r"scratch\s+that", r"take\s+(?:that|it)\s+back", r"retract\w*",
)  # fmt: skip
# the answer contradicts the question, or another value should stand ("as it should be" agrees)
CONTRADICTION = (
    r"contradict\w*", r"no\s+solutions?", r"inconsistent",
    r"(?<!\bas\sit\s)(?<!\bas\sthey\s)(?<!\bas\sthat\s)should\s+(?:be|have)",
    r"on\s+second\s+thought", r"reconsider\w*",
)  # fmt: skip
# words that reopen the answer just given; alone they lower nothing, before another value they
# put it in the answer's place ("Actually, 13.")
REOPENING = (
    r"oops", r"whoops", r"wait", r"actually", r"hmm+", r"hold\s+on", r"no,?\s+wait", r"no",
    r"on\s+(?:second|further|closer)\s+(?:thought|look|glance|read|reflection|inspection)",
    r"update", r"edit", r"erratum", r"make\s+(?:that|it)",
)  # fmt: skip
# what names a box as a wrong answer before it ("a common mistake would be to answer
# \\boxed{7}"), read by :mod:`.extract`
WRONG_ANSWER = (
    r"mistakes?", r"errors?", r"traps?", r"pitfalls?", r"misconceptions?",
    r"(?:wrong|incorrect|tempting)\s+(?:answer|choice|guess|result|value)s?",
)  # fmt: skip
# what puts a second box beside the first under another condition or way ("if we include the
# ends we get \\boxed{8}", "one way ..., while ...")
PARALLEL = (
    r"if", r"unless", r"when", r"whereas", r"while", r"otherwise", r"alternatively", r"instead",
    r"however", r"but", r"though", r"although", r"one\s+way", r"another\s+way", r"other\s+way",
    r"on\s+the\s+other\s+hand",
)  # fmt: skip
# the bare affirmation that answers a doubt raised only as a question ("Is 7 right? ... Yes.")
AFFIRMATIONS = (
    r"yes", r"yep", r"correct", r"right", r"confirmed", r"verified", r"good", r"indeed",
    r"it\s+(?:is|does|checks\s+out)",
)  # fmt: skip
# the words that answer a question of another value with no, then show what it gives ("Could it
# be 8? No, 8 gives 17.", "Or 16... nope, that yields 33.")
DENIALS = (r"no", r"nope", r"nah", r"not\s+quite", r"not\s+so")
# a negation right before a box: the box is what the answer is not ("The answer is not \\boxed{7}")
# (the contraction ends a word: "isn't", "wouldn't")
NOT_THIS = (r"\bnot", r"n['’]t", r"\bnever", r"\brather\s+than", r"\binstead\s+of")
# a condition (Knights and Knaves reads a statement under one as no statement; elsewhere a
# condition on its own lowers nothing): "if" (not "if you", "if needed"), "unless", "suppose",
# "provided (that)", "in case", ... (not "whether": "a knight whether or not Mia lies" holds
# either way)
CONDITION = (
    r"(?P<if>if)(?!\s+(?:you|any|needed|necessary)\b)", r"iff", r"unless", r"whenever",
    # an inverted condition: "Should clue 4 be read loosely, ...", "should the first be disallowed"
    r"should(?=\s+(?:the|it|this|that|we|you|they|he|she|clue|one|[A-Z]\w*)\s+(?:\w+\s+){0,3}?be\b)",
    r"assum(?:e|es|ed|ing)", r"suppos(?:e|es|ing)", r"hypothes[ie]s", r"hypothesi[sz]e[ds]?",
    r"hypothetical(?:ly)?", r"let['’]?s\s+say", r"let\s+us\s+say", r"in\s+case",
    r"on\s+(?:the\s+)?condition", r"provid(?:ed|ing)\s+that",
    r"provid(?:ed|ing)(?=\s+(?!(?:by|in|above|below|here|earlier|information|statements?|clues?)"
    r"\b)[^\W\d_])",
)  # fmt: skip
# "if" in the most-spoken languages: a condition whose consequence is another value offers it
# ("Falls Hinweis 1 anders gelesen wird: Bob.")
CONDITION_BY_LANGUAGE = {
    "zh": (r"如果", r"假如", r"要是"), "hi": (r"अगर", r"यदि"), "es": (r"si",), "fr": (r"si",),
    "ar": (r"إذا", r"لو"), "bn": (r"যদি",), "ru": (r"если",), "ur": (r"اگر",),
    "id": (r"jika", r"kalau", r"apabila"), "de": (r"falls", r"wenn", r"sofern"), "ja": (r"もし",),
    "tr": (r"eğer",), "vi": (r"nếu",), "ko": (r"만약",), "fa": (r"اگر",), "pl": (r"jeśli", r"jeżeli"),
    "uk": (r"якщо",), "nl": (r"indien",), "sw": (r"ikiwa",),
}  # fmt: skip
# words that offer another answer beside the one given ("A or B", "also B", "the alternative")
ALTERNATIVE = (
    r"or", r"either", r"also", r"alternatively", r"alternatives?", r"instead", r"as\s+well",
    r"too", r"oder", r"ou", r"oppure", r"или", r"либо",
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
# what makes another value as good as the answer ("just as good", "equally defensible")
EQUIVALENT = (
    r"good", r"right", r"valid", r"defensible", r"correct", r"plausible", r"reasonable", r"fine",
    r"likely", r"justified", r"justifiable", r"acceptable", r"sound", r"strong", r"viable",
    r"legitimate", r"consistent",
)  # fmt: skip
# a negated word of rejection grants the value (litotes): "isn't unreasonable", "not impossible"
REJECTED_BY = (
    r"unreasonable", r"implausible", r"impossible", r"unlikely", r"out\s+of\s+the\s+question",
    r"absurd", r"crazy", r"far[\s-]fetched", r"invalid", r"wrong", r"incorrect", r"off\s+the\s+table",
    r"out\s+of\s+(?:it|the\s+(?:running|picture|race|contention|game))",
    r"bad\s+(?:answer|choice|guess|option|pick)", r"mistake", r"error", r"slip", r"typo",
)  # fmt: skip
_LITOTES = (
    r"(?:(?:is|are|was|were|would|be|seems?|ai)n['’]t|not|never)\s+(?:be\s+)?(?:entirely\s+|completely\s+|"
    rf"totally\s+|necessarily\s+|that\s+|so\s+|all\s+that\s+|an?\s+)?(?:{'|'.join(REJECTED_BY)})"
)
# what is said of a candidate that makes it an answer: "8 also works", "Eric fits", "8 is valid"
ANSWERHOOD = (
    r"works?", r"worked", r"fits?", r"satisf\w*", r"valid", r"possible", r"plausible",
    r"(?:full|partial|equal)\s+(?:marks|credit)", r"credit",
    r"consistent", r"correct", r"acceptable", r"an?\s+(?:valid\s+|possible\s+|correct\s+)?"
    r"(?:answer|solution|candidate|option)", r"the\s+(?:runner[\s-]?up|other|second|alternative)",
    r"an?\s+(?:close|distant|strong|near|tough|hard|narrow)\s+(?:second|runner[\s-]?up|contender|"
    r"alternative|call|one)",
    r"comes?\s+(?:a\s+)?close(?:\s+second)?", r"close\s+behind", r"neck\s+and\s+neck",
    r"(?:the\s+)?(?:silver|bronze)(?:\s+medal)?", r"(?:in\s+)?second\s+place", r"next\s+in\s+line",
    r"(?:the|a)\s+(?:wild\s*-?card|dark\s+horse|long\s+shot)",
    r"(?:an?\s+)?(?:strong\s+|serious\s+)?contender", r"(?:an?\s+)?live\s+(?:option|candidate|possibility)",
    r"tempting", r"in\s+(?:the\s+)?(?:running|contention|play)", r"on\s+the\s+table",
    # as good as the answer: "8 is just as good", "equally defensible", "every bit as valid"
    rf"(?:(?:just|every\s+bit)\s+)?as\s+(?:{'|'.join(EQUIVALENT)})", rf"equally\s+(?:{'|'.join(EQUIVALENT)})(?!\s+(?:{_OUTCOMES})\b)",
    r"defensible", r"justifiable", r"viable", r"legitimate",
    # a candidacy granted: "Bob remains a possibility", "8 is still open", "Eric is allowed too"
    r"an?\s+(?:\w+\s+)?(?:possibility|option|alternative|contender|choice)\b",
    r"(?:open|alive|admissible|allowed|permitted|permissible|eligible)\b",
    # merit: "8 deserves equal consideration", "8 gets partial credit", "Bob has a fair claim"
    r"deserv\w*\s+(?:\w+\s+)?(?:consideration|credit|a\s+look)", r"(?:partial|some|half)\s+credit",
    r"an?\s+(?:fair|good|strong|decent|reasonable|legitimate|real)\s+(?:claim|case|shot)",
    r"(?:an?\s+)?alternative", r"(?:also|equally)\s+plausible",
    # ranked next: "8 is my second pick", "Bob would be my backup choice"
    r"(?:my|the|a|our)\s+(?:second|next(?:[\s-]best)?|backup|fallback|alternate)(?:[\s-]best)?\s+"
    r"(?:pick|choice|guess|bet|option|answer|candidate)",
    # litotes: "8 isn't unreasonable", "8 is not implausible", "8 wouldn't be wrong either"
    rf"(?:{_LITOTES})",
)  # fmt: skip
# the nouns of a candidate: "another solution", "the other candidate", "a second assignment"
CANDIDATES = (
    r"answer", r"solution", r"value", r"option", r"candidate", r"assignment", r"grid", r"name",
    r"choice", r"result", r"root", r"possibility", r"configuration", r"arrangement",
    r"output(?:\s+grid)?",
)  # fmt: skip
# readings of the question a response may answer under ("under the other reading ...")
READINGS = (
    r"readings?", r"interpretations?", r"groupings?", r"conventions?", r"parsings?", r"variants?",
    r"versions?", r"(?:mirror(?:ed)?|reversed?|alternate|alternative|other|different)\s+(?:rule|pattern)s?",
    r"read\s+(?:more\s+|less\s+)?(?:loosely|strictly|literally|differently|otherwise|generously|broadly|narrowly)",
)  # fmt: skip
# another source's answer put in the answer's place: "The answer key may say 8", "The official
# solution lists Bob"
SOURCES = (
    r"answer\s+key", r"(?:text)?book", r"solutions?\s+manual", r"grader", r"some\s+sources",
    r"some(?:\s+(?:people|students|solvers|readers))?", r"others", r"many",
    r"(?:my|a|the|our|your)\s+(?:study\s+)?(?:friend|partner|teammate|colleague|classmate|teacher|"
    r"tutor|buddy|peer|professor|instructor)s?",
    r"(?:official|model|sample|expected|reference|book['’]?s?|textbook['’]?s?)\s+(?:answer|solution)",
)  # fmt: skip
SAYS = (
    r"says?", r"said", r"gives?", r"gave", r"lists?", r"listed", r"states?", r"expects?",
    r"got", r"gets?", r"insists?(?:\s+on)?", r"prefers?", r"picks?", r"picked", r"argues?(?:\s+for)?",
    r"thinks?", r"thought", r"swears?\s+by", r"went\s+(?:with|for)", r"goes\s+(?:with|for)",
    r"claims?", r"reports?", r"reads?",
)  # fmt: skip
_SOURCE_SAYS = (
    rf"(?:{'|'.join(SOURCES)})\s+(?:(?:may|might|could|would|will|probably|possibly)\s+)?"
    rf"(?:{'|'.join(SAYS)})"
)
# words that put a value in the answer's place: before it ("or 8", "gives 8", "Actually, 8")
OFFER_WORDS = (
    _SOURCE_SAYS,
    # another way of writing the answer: "one could also write (92+72)+(50-(46+32))"
    r"(?:also|equally)\s+(?:be\s+)?(?:writ\w*|express\w*|put|say|give|answer)(?:\s+(?:it|this|that))?"
    r"(?:\s+as)?",
    r"or", r"also", r"alternatively", r"alternative(?:\s+(?:answer|value))?",
    r"instead", r"oder", r"ou", r"oppure", r"или", r"либо", r"runner[\s-]?up(?:\s+is)?",
    r"tied\s+(?:with|to)", r"neck\s+and\s+neck\s+with", r"(?:a\s+)?(?:tie|dead\s+heat)\s+with",
    r"argu\w*\s+for", r"(?:also\s+|equally\s+)?consistent\s+with", r"(?:could|can|might)\s+(?:also\s+|easily\s+)?see", r"unless(?:\s+(?:it|that|the\s+answer)"
    r"(?:['’]s|\s+is|\s+turns\s+out\s+to\s+be))?",
    r"between\s+(?:him|her|it|this|that|this\s+one|that\s+one|the\s+answer)\s+and",
    r"(?:the\s+|my\s+)?(?:other|second|another|next(?:[\s-]best)?|backup|fallback)\s+"
    r"(?:candidate|answer|solution|value|root|option|choice|name|result|possibility|pick|guess|bet)"
    r"s?(?:\s+(?:is|would\s+be))?",
)  # fmt: skip
# ... and those that do so only in a sentence that neither names the answer nor computes: the
# answer's own place, a reopening word, or another derivation's result ("Double-check gives 8",
# "the other reading yields 8"; "Bob gets 3 apples" is a quantity, not a derivation)
SLOT_WORDS = (
    r"(?:the\s+)?answer\s+(?:is|would\s+be)", r"answer\s*:", *REOPENING,
)  # fmt: skip
# a label that states the final answer; a later one that states another candidate of the
# answer's type is a second answer in every task ("Final answer: Bob" after \boxed{Arnold})
ANSWER_LABELS = (
    r"(?:(?:final|correct|my|the)\s+)?answer",
    r"final\s+(?:solution|result|grid|expression|name|assignment)",
)  # fmt: skip
# the words that commit to a value again after doubt: "so the answer is 7", "the answer stays
# (-2, 8)", "Final answer: 7", "I'll keep 7", "so 7"; after the value: "7 is the answer", "7 it is"
RECOMMIT_BEFORE = (
    r"(?:(?:the|my|our|final|correct)\s+)*(?:answer|result|solution)(?:\s+(?:is|stays|remains|"
    r"stands|must\s+be))?(?:\s+(?:still|indeed|definitely|therefore|then))?",
    r"so", r"thus", r"therefore", r"hence", r"(?:it|this)\s+(?:is|stays|remains|must\s+be)\s+(?:still\s+)?",
    r"(?:it|that)['’]s\s+(?:still\s+)?",
    r"(?:stays|remains|stands\s+at)",
)  # fmt: skip
# keeping the answer without deciding between it and the other ("Either way I keep 7", "I'll
# stick with 7 anyway") re-commits to nothing
UNDECIDED = (
    r"either\s+way", r"regardless", r"anyway", r"in\s+any\s+case", r"whichever", r"all\s+the\s+same",
    r"keep\w*", r"stick\w*\s+with", r"stand\w*\s+by", r"go\w*\s+with",
)  # fmt: skip
RECOMMIT_AFTER = (
    r"(?:is|remains|stays)\s+(?:still\s+|indeed\s+|definitely\s+)?(?:the|my)\s+(?:final\s+)?"
    r"(?:answer|result|solution)", r"it\s+is", r"stands", r"stays",
)  # fmt: skip
# the words that open a condition's consequence: "..., in which case 8", "..., then 9"
CONSEQUENCE = (r"then", r"in\s+(?:which|that|this)\s+case", r"so")
# the answer's place under another condition or reading: "If the ends count, it's 8."
IT_IS = r"(?:it|that)(?:['’]s|\s+is|\s+would\s+be|\s+becomes)"
DERIVATIONS = (
    r"(?:re|double[\s-]?)?check\w*", r"re-?do\w*", r"redid", r"recomput\w*", r"recalculat\w*",
    r"recount\w*", r"readings?", r"approach\w*", r"methods?", r"interpretations?",
    r"conventions?", r"groupings?", r"ways?",
)  # fmt: skip
GIVES = (
    r"gives?", r"giving", r"gave", r"yields?", r"get", r"gets", r"got", r"obtain\w*",
    r"comes?\s+(?:to|out\s+(?:to|as|at))", r"results?\s+in", r"leads?\s+to",
)  # fmt: skip
# words that restate a value, not offer another: "or equivalently 0.75", "or about 3.46"
RESTATEMENT = (
    r"equivalent\w*", r"i\.e", r"that\s+is", r"in\s+other\s+words", r"simplif\w*", r"simply",
    r"written", r"about", r"approximately", r"roughly", r"around", r"exactly",
)  # fmt: skip
# a candidate named only to be rejected: "the other root, -8, is rejected", "8 does not work"
_WRONG_BACK = (
    r"(?:that|this|which|it)(?:['’]s|\s+is|\s+was|\s+would\s+be)\s+(?:wrong|incorrect|false|"
    r"an?\s+(?:mistake|error|slip))"
)
REJECTION = (
    r"reject\w*", r"exclud\w*", r"discard\w*", r"extraneous", r"invalid", r"ruled\s+out",
    r"eliminat\w*", r"impossible", r"fail\w*", r"violat\w*", r"not", r"\w{0,5}n['’]t", r"never",
    r"cannot", r"too\s+(?:large|small|big|many|few)", r"close,?\s+but\s+no", r"rul(?:e|es|ed|ing)\s+(?:\w+\s+)?out",
    r"contradict\w*",
    # what the sentence named, called wrong by a word that refers back: "..., but that is wrong",
    # "8, which is wrong", "...; that is a mistake"
    _WRONG_BACK,
)  # fmt: skip
# the words of a short correction between two boxes, which withdraws the first ("\\boxed{8}.
# Wait, no: \\boxed{7}", "\\boxed{8}. Oops, I mean \\boxed{7}", "\\boxed{8}, make that
# \\boxed{7}"): the gap holds only these and the leads, and one of :data:`GAP_CORRECTIONS`
# ("Hmm, actually" corrects nothing said: both boxes stand)
GAP_CORRECTIONS = (r"no", r"nope", r"oops", r"sorry", r"correction", r"scratch[ \t]++that",
                   r"I[ \t]++mean", r"make[ \t]++(?:that|it)")  # fmt: skip
GAP_CORRECTION_WORDS = (*GAP_CORRECTIONS, r"wait", r"hmm++", r"oh", r"actually", r"rather")
GAP_CORRECTION_LEADS = (r"it['’]s", r"it[ \t]++is", r"the[ \t]++answer[ \t]++is")
# negations whose scope is not another value, so they reject nothing: a focus word ("not just
# 7", "not only this one"), a remark ("not that it matters"), the speaker keeping the answer ("I'm
# not changing my answer", "I won't change it"), litotes ("8 isn't unreasonable", "I wouldn't rule
# out 8")
_NEGATION = r"(?:not|[a-z]{0,5}n['’]t|never)"
_KEEP_VERB = (
    r"(?:going\s+to\s+|gonna\s+)?(?:chang|switch|revis|budg|abandon|alter|second[\s-]guess)\w*"
)
NEGATION_ELSEWHERE = (
    rf"{_NEGATION}\s+(?:just|only|merely|simply|solely|necessarily)",
    r"not\s+that\s+(?:it|this|that|anyone|anybody|one|I|we|you)",
    rf"(?:I|I['’]m|I\s+am|we|we['’]re|we\s+are)\s+(?:[a-z]{{1,8}}\s+)?{_NEGATION}\s+{_KEEP_VERB}",
    rf"{_NEGATION}\s+{_KEEP_VERB}\s+(?:my|our|the|this|that|it)\b", _LITOTES, REJECTION_DENIED,
)  # fmt: skip
# what a "but" clause says of a doubt raised before it to settle it ("One might guess 8, but that
# fails", "This might seem surprising, but it checks out", "I'm not certain of the rule, but it
# fits all three examples", "I thought the colours might change, but none of the examples does";
# "It might be 8, but 7 works" keeps the answer beside another and settles nothing)
SETTLES = (
    *REJECTION, r"checks?\s+out", r"confirm\w*", r"holds?", r"none",
    r"(?:it|that|this|which|the\s+rule)\s+(?:still\s+)?(?:fits?|works?|matches|agrees?)",
    # the rejection a negation denied, done by another: "Clue 3 doesn't rule out 8, but clue 5 does."
    r"(?:does|do|did)(?=\s*+[.!;]|\s*+$)",
)  # fmt: skip
# doubt under a negation states certainty: "no doubt", "not ambiguous", "no mistakes"
NEGATED = (
    r"no", r"not", r"without(?:\s+(?:any|a))?", r"never", r"nothing\s+(?:here\s+)?(?:is|was)",
    r"isn['’]t", r"aren['’]t",
)  # fmt: skip
NEGATABLE = (
    r"doubts?", r"ambigu\w*", r"mistakes?", r"errors?", r"uncertain\w*", r"guess\w*", r"hunch",
    r"interchangeabl[ey]",
)  # fmt: skip
# a swap of roles or places offered as another answer ("swapping Noah and Lily also works")
SWAP = (r"swap\w*", r"switch\w*", r"exchang\w*", r"interchang\w*", r"revers\w*", r"flip\w*")
# ----- Knights and Knaves: what may follow a role, and a sentence about another assignment -----
# (the rules are structure in knights_knaves/grade.py, explained in
# docs/guides/rewards.md#kk-two-rules-by-class; these are only their words)
# a role confirmed right after it is stated: "Noah is a knave — consistent with the statements"
ROLE_CONFIRMED = (
    r"consistent", r"verified", r"confirmed", r"checked", r"checks\s+out", r"proven", r"correct",
    r"certain(?:ly)?", r"definite(?:ly)?", r"final", r"see(?:\s+(?:above|below))?",
    r"as\s+(?:shown|derived|deduced|proven)(?:\s+(?:above|below))?",
    r"(?:shown|derived|deduced|proven)\s+above", r"for\s+(?:sure|certain)", r"no\s+doubt",
    r"(?:without|beyond)\s+(?:a\s+|any\s+)?doubt", r"undoubtedly", r"clearly", r"surely",
    r"absolutely", r"100\s*%(?:\s+(?:sure|certain|confident))?", r"(?:the\s+)?only\s+one",
)  # fmt: skip
# the connectives of a reason: "because Mia's claim is true", "from clue 2"
REASON = (
    r"because", r"since", r"as", r"given(?:\s+that)?", r"for", r"due\s+to", r"by", r"from", r"per",
    r"according\s+to", r"which", r"so", r"hence", r"thus", r"therefore", r"i\.\s?e\.?", r"namely",
    r"in\s+line\s+with", r"following\s+from",
)  # fmt: skip
# what a reason speaks of (a reason names the puzzle's statements, a person or a role) ...
PUZZLE_NOUNS = (
    r"statements?", r"claims?", r"clues?", r"says", r"said", r"saying", r"assert\w*",
    r"elimination", r"deduc\w*", r"steps?", r"cases?", r"proof", r"assumption",
)  # fmt: skip
# ... and the truth it finds ("his claim is false", "knaves always lie")
TRUTH_WORDS = (
    r"true", r"false", r"untrue", r"truth\w*", r"lie", r"lies", r"lied", r"lying", r"holds?",
    r"fails?", r"contradict\w*", r"consistent", r"inconsistent", r"impossible",
)  # fmt: skip
# the speaker in the first person: a judgement, no reason ("I" is matched case-sensitively)
FIRST_PERSON = (r"(?-i:I)", r"(?-i:I)['’](?:m|d|ve|ll)", r"me", r"my", r"mine", r"myself")
# a transformation of the whole assignment: "the opposite roles", "everyone's role reversed"
TRANSFORM = (
    *SWAP, r"opposite", r"invers\w*", r"invert\w*", r"mirror\w*", r"symmetr\w*", r"complement\w*",
    r"negat\w*", r"toggl\w*", r"trad(?:e|es|ed|ing)", r"turn\w*\s+a?round", r"converse",
    r"other\s+way\s+a?round",
)  # fmt: skip
# what such a transformation applies to (besides the row's names)
ROLE_NOUNS = (
    r"roles?", r"assignments?", r"solutions?", r"answers?", r"labels?", r"identit(?:y|ies)",
    r"types?", r"configurations?", r"every(?:one|body)(?:['’]s)?", r"places", r"models?",
)  # fmt: skip
# another assignment rejected: "statement 2 would be false", "the mirror assignment fails clue 3"
# (a bare "not" rejects only what holds: "would not hold", "couldn't be")
ROLE_REJECTION = (
    r"false", r"untrue", r"fail\w*", r"contradict\w*", r"impossible", r"break\w*", r"broken",
    r"violat\w*", r"invalid", r"inconsistent", r"absurd", r"paradox\w*", r"eliminat\w*",
    r"reject\w*", r"exclud\w*", r"rul(?:e|es|ed|ing)\s+(?:\w+\s+)?out", r"errors?",
    r"mistakes?", r"mistaken(?:ly)?", r"wrong(?:ly)?",
    r"(?:not|\w*n['’]t|never|no\s+longer)\s+(?:\w+\s+){0,2}?(?:hold|holds|work|works|fit|fits|true|"
    r"valid|consistent|satisf\w*|possible|be)",
)  # fmt: skip
# a ranking of the speaker's confidence in one person: "my weakest call", "the least solid
# deduction", "the toughest call" (a ranking word before a judgement, a degree before a confidence)
RANKED = (
    r"(?:weak|strong|shak[iy]|sur|firm|saf|risk[iy]|solid|secur|thin|low|bold|loos)(?:est|er)",
    r"best", r"worst",
)  # fmt: skip
RANK_DEGREES = (r"most", r"least", r"more", r"less")
CONFIDENCE_ADJECTIVES = (
    *CERTAIN, r"solid", r"secure", r"firm", r"safe", r"shaky", r"risky", r"tentative", r"sold",
    r"settled", r"happy", r"comfortable", r"clear-cut",
)  # fmt: skip
JUDGEMENTS = (
    r"calls?", r"picks?", r"guess\w*", r"bets?", r"choices?", r"decisions?", r"verdicts?",
    r"judge?ments?", r"reads?", r"deductions?", r"inferences?", r"conclusions?",
)  # fmt: skip
HARD_CALL = (r"tough\w*", r"risky", r"hard\w*", r"close\w*", r"difficult", r"narrow\w*", r"borderline",
             r"judge?ment")  # fmt: skip
# a first-person verb of belief or ranking: "I reckon Noah is the knave", "I'd rank Noah last"
BELIEVES = (
    r"think", r"believe", r"reckon", r"suspect", r"lean\w*", r"feel", r"sense", r"figure",
    r"imagine", r"gather", r"rank\w*", r"rate", r"say", r"call", r"revisit",
)  # fmt: skip
# the words that name the answer itself, not another one ("this also works")
PRONOUNS = ("this", "that", "it", "which", "answer", "result", "value", "solution", "above")
# capitalised words that are no name ("Otherwise", "Note", "Check" at a sentence's start)
NOT_NAMES = (
    "the", "this", "that", "these", "those", "it", "its", "he", "she", "they", "we", "i", "a",
    "an", "and", "or", "but", "so", "then", "if", "otherwise", "also", "note", "check", "answer",
    "final", "house", "clue", "yes", "no", "either", "both", "each", "every", "all", "none",
    "only", "actually", "wait", "hmm", "alternatively", "another", "other", "since", "because",
    "therefore", "thus", "hence", "here", "there", "in", "on", "at", "by", "for", "from", "with",
    "to", "of", "as", "under", "after", "before", "when", "while", "which", "who", "what",
    "where", "why", "how", "my", "our", "his", "her", "their", "is", "are", "was", "let",
    "given", "using", "true", "false", "not", "just", "still", "even", "everything", "everyone",
    "nothing", "something", "someone", "nobody", "verification", "double", "redoing", "first",
    "second", "last", "one", "two", "three", "case", "step", "part", "option", "solution",
)  # fmt: skip
# words of the speaker's belief (an event's "chance" or "odds" is a value, not doubt)
CONFIDENCE_WORDS = (r"confiden\w*", r"sure", r"certain\w*", r"bet", r"credence")


# ----- what another value is, by structure (:func:`states_other`) -----
# nouns that label a part of the work, not a candidate: "step 2", "clue 14", "example 1"
LABELS = (
    r"steps?", r"cases?", r"parts?", r"clues?", r"houses?", r"examples?", r"lines?", r"rows?",
    r"columns?", r"cols?", r"cells?", r"statements?", r"equations?", r"eqs?\.?", r"problems?",
    r"questions?", r"exercises?", r"figures?", r"figs?\.?", r"pages?", r"sections?", r"rules?",
    r"conditions?", r"hints?", r"round", r"stage", r"phase", r"item", r"no\.", r"#",
)  # fmt: skip
# words that bound a value rather than name it: "at most 15", "n \\le 15"
BOUNDS = (
    r"at\s+(?:most|least)", r"(?:less|more|greater|fewer|smaller|larger|bigger)\s+than",
    r"up\s+to", r"below", r"above", r"between", r"within", r"beyond",
    r"(?:exceed|overshoot|undershoot|surpass|outstrip)\w*", r"f(?:a|e)ll\w*\s+short\s+of",
)  # fmt: skip
# what opens a clause whose subject follows: a sentence's start, a clause break, a conjunction,
# and the adverbs that may stand before the subject ("Honestly, 8 is right too.")
CLAUSE_OPENERS = (
    r"though", r"although", r"but", r"and", r"yet", r"still", r"while", r"whereas", r"so",
    r"then", r"besides", r"plus",
)  # fmt: skip
SENTENCE_ADVERBS = (
    r"honestly", r"frankly", r"also", r"still", r"even", r"then", r"perhaps", r"maybe",
    r"possibly", r"probably", r"arguably", r"presumably", r"admittedly", r"certainly", r"surely",
    r"clearly", r"obviously", r"of\s+course", r"equally", r"likewise", r"similarly", r"again",
    r"though", r"however", r"anyway", r"really", r"actually", r"conceivably", r"plausibly",
)  # fmt: skip
# what may follow a clause's subject: a verb (any form of be, do, have, the modals, the verbs of
# fitting), a contraction, or "also", "too", "as well"
PREDICATES = (
    r"['’](?:d|s|ll|re|ve)", r"is", r"are", r"was", r"were", r"be", r"been", r"being", r"does",
    r"do", r"did", r"has", r"have", r"had", r"would", r"could", r"might", r"may", r"should",
    r"must", r"will", r"can", r"shall", r"[a-z]{2,5}n['’]t", r"cannot", r"also", r"too",
    r"as\s+well", r"equally", r"seems?", r"remains?", r"stays?", r"looks?", r"sounds?", r"feels?",
    r"appears?", r"checks?", r"works?", r"fits?", r"satisf\w*", r"holds?", r"pass\w*",
    r"qualif\w*", r"survives?", r"matches", r"agrees?", r"deserves?", r"counts?", r"belongs?",
)  # fmt: skip
# the words that may follow a value that is not a quantity of something ("8 here", "8 too")
NOT_NOUNS = (
    r"and", r"or", r"but", r"here", r"there", r"too", r"also", r"as", r"instead", r"though",
    r"although", r"either", r"anyway", r"then", r"now", r"again", r"maybe", r"perhaps", r"if",
    r"since", r"because", r"still", r"over", r"versus", r"vs", r"rather", r"for", r"in", r"on",
    r"at", r"with", r"by", r"once", r"twice", r"earlier", r"before", r"first", r"initially",
    r"originally", r"previously", r"somewhere", r"at\s+first",
)  # fmt: skip
# a stated confidence is full only in these words ("Confidence: high", "certainty: 100%"); any
# other grade ("B-", "★★★☆☆", "medium-ish") is below certainty
FULL_CONFIDENCE = (
    r"100(?:\.0+)?+[ \t]*+(?:\\?%|percent)", r"1(?:\.0+)?+", r"10[ \t]*+/[ \t]*+10", r"5[ \t]*+/[ \t]*+5",
    r"full", r"complete", r"total", r"absolute", r"certain", r"high", r"very[ \t]+high",
    r"maximal", r"maximum", r"max", r"top", r"A\+?+", r"★{1,10}+(?![☆✩✰])",
)  # fmt: skip
# the symbols a response may close with: check marks, an end of proof, units; any other symbol
# (an emoji, a kaomoji's marks) after or in an answer says what words would, and is read as doubt
CLOSING_SYMBOLS = "✓✔✅☑∎□■▪°℃℉™©®🎉👍🙂😊"
# the speaker (:data:`FIRST_PERSON`): a sentence in the first person that names another value
# weighs it ("I lean towards 7 over 8", "My study partner got 8"); "let me" and "let's" announce a
# check
# what the lexicon reads: English. A sentence is English when at least ENGLISH_SHARE of its words
# (two letters or more; LaTeX commands and capitalised words after the first, names, aside) are
# words of English: at least ENGLISH_ZIPF on wordfreq's Zipf scale (seen about 300 times in a
# billion words: "answer" 5.2, "halving" 2.5, "ook" 2.4, "zijn" 2.2), or a word of the tasks below
# it. Any other sentence, and notation with no words, is one the lexicon cannot read: there every
# other value of the answer's type is offered ("Het kan net zo goed 8 zijn.": 4 of 6 words)
ENGLISH_ZIPF = 2.5
ENGLISH_SHARE = 0.7
# the commonest function words of the languages most written beside English, none an English
# word: two of them in a sentence (one in a sentence of one or two words) make it that language,
# whatever wordfreq says of its other words ("Je ne suis pas tout à fait certain." is French)
FUNCTION_WORDS_BY_LANGUAGE = {
    "fr": ("je", "ne", "pas", "suis", "est", "les", "des", "une", "avec", "très", "mais", "nous",
           "vous", "sont", "cette", "ça", "oui", "peut", "être", "tout", "fait", "sûr", "sûre", "c'est",
           "j'ai", "n'est", "pour", "dans", "bien"),
    "es": ("estoy", "soy", "es", "el", "los", "las", "muy", "pero", "una", "por", "está", "seguro",
           "segura", "creo", "sí", "también", "porque", "aquí", "esto", "eso"),
    "it": ("sono", "non", "il", "che", "molto", "sicuro", "sicura", "certo", "certa", "della",
           "anche", "perché", "questo", "questa", "è"),
    "pt": ("tenho", "certeza", "não", "estou", "sou", "muito", "uma", "com", "é", "também", "isso",
           "você"),
    "de": ("ich", "bin", "nicht", "ist", "das", "der", "und", "sehr", "sicher", "ganz", "mir",
           "auch", "wir", "sind", "diese", "dieser", "ja", "doch", "nur", "schon", "nein"),
    "nl": ("ik", "ben", "het", "niet", "een", "zeker", "heel", "ook", "zijn", "wel"),
    "sv": ("jag", "är", "inte", "och", "det", "säker"), "da": ("jeg", "ikke", "og", "sikker"),
    "pl": ("nie", "jest", "jestem", "tak", "się", "pewien", "pewna"),
    "ro": ("sunt", "este", "sigur", "sigură"),
}  # fmt: skip
_FUNCTION_WORDS = frozenset(w for words in FUNCTION_WORDS_BY_LANGUAGE.values() for w in words)
# prose after a program names its identifiers ("memoize with lru_cache over nums"): a sentence of
# it is read as another language below this share of English words
PROSE_ENGLISH_SHARE = 0.6
ENGLISH_TERMS = frozenset({
    "knave", "knaves", "leftmost", "rightmost", "nonnegative", "nonzero", "discriminant",
    "modulo", "hypotenuse", "factorization", "factorisation", "rationalise", "rationalize",
    "recheck", "subarray", "congruent", "extraneous", "reciprocal", "asymptote", "parabola",
    "qed", "wlog", "truthteller", "truthtellers", "iff", "gcd", "lcm", "mod", "det", "lim",
    "sgn", "arcsin", "arccos", "arctan", "voilà", "et", "monic", "bijection", "bijective",
    "injective", "surjective", "summand", "summands", "collinear", "concyclic", "cevian",
    "cevians", "lexicographically", "checksum", "deque", "idx", "nums", "kwargs", "args", "prepend",
    "tabulate", "dedupe", "memoization", "memoized",
    # words of school mathematics below wordfreq's threshold (a plural or an affix is read from
    # its stem: :func:`_english_stem`)
    "divisor", "numerator", "isosceles", "scalene", "equilateral", "congruence", "eigenvalue",
    "eigenvector", "trapezoid", "rhombus", "quadrilateral", "heptagon", "nonagon", "decagon",
    "secant", "cosecant", "cotangent", "addend", "minuend", "subtrahend", "divisibility",
    "monomial", "binomial", "trinomial", "vieta", "parallelogram", "centroid", "orthocenter",
    "incenter", "circumcenter", "circumradius", "inradius", "superset", "totient", "foci",
    "directrix", "trigonometric", "sinusoidal", "collinearity", "concurrency", "antiderivative",
    "multiset", "permutation", "combinatorial", "surjection", "injection",
    "diophantine", "bezout", "euler", "fermat", "pythagorean", "pythagoras", "heron", "ptolemy",
})  # fmt: skip
MAX_READ_WORDS = 200  # the words of a sentence counted for its language
MAX_AROUND_WORDS = 2  # a value with at most this many words around it is offered ("Ehkä 8.")


def _words(words: tuple[str, ...]) -> str:
    return "|".join(words)


# ----- the patterns built from them -----

# doubt that holds wherever it stands, inside an answer or after it
_SPACED = [
    w
    for table in (DOUBT_BY_LANGUAGE, SELF_CONDITION_BY_LANGUAGE)
    for code, words in table.items()
    if code not in UNSPACED
    for w in words
]
_UNSPACED = [
    w
    for table in (DOUBT_BY_LANGUAGE, SELF_CONDITION_BY_LANGUAGE)
    for code in UNSPACED
    for w in table.get(code, ())
]
# the answer held on a condition on the speaker's own work: "unless I've messed up somewhere",
# "if my algebra holds", "barring an arithmetic slip", "assuming I didn't mess up", "modulo typos"
_SLIP = (
    r"(?:mess(?:ed|ing)?[ \t]+(?:it[ \t]+)?up|slip(?:s|ped)?|typos?|blunder\w*|goof\w*|mis-?[a-z]{3,}|"
    r"(?:dropped|flipped|lost)[ \t]+(?:a[ \t]+)?(?:sign|term|factor)|overlook\w*|botch\w*|"
    r"screw(?:ed)?[ \t]+up|(?:arithmetic|algebra|algebraic|calculation|computational|sign|careless|"
    r"silly)[ \t]+(?:errors?|mistakes?))"
)
_OWN_WORK = (
    r"(?:algebra|arithmetic|math|maths|work|reasoning|calculations?|logic|computations?|reading)"
)
SELF_CONDITIONS = (
    rf"(?:unless|barring|modulo|assuming|provided|pending)\b[^.!?\n]{{0,40}}?\b{_SLIP}",
    rf"(?:if|unless|as[ \t]+long[ \t]+as|so[ \t]+long[ \t]+as|assuming|provided)[ \t]+(?:that[ \t]+)?"
    rf"(?:my|I)\b[^.!?\n]{{0,30}}?\b(?:{_SLIP}|mistakes?|errors?|erred|wrong|{_OWN_WORK}[ \t]+"
    r"(?:holds?|is[ \t]+(?:right|correct|sound)|checks?[ \t]+out)|right|correct(?:ly)?)\b",
    # the work itself supposed sound: "That is, assuming the arithmetic holds up."
    rf"(?:if|unless|assuming|provided|as[ \t]+long[ \t]+as)[ \t]+(?:that[ \t]+)?the[ \t]+{_OWN_WORK}[ \t]+"
    r"(?:holds?|is[ \t]+(?:right|correct|sound)|checks?[ \t]+out|works?)",
    # a fallback on the answer's own failure: "If this fails, swap Lily.", "Should this fail, ..."
    r"failing[ \t]+(?:that|this)[ \t]*+,[ \t]*+(?:swap|flip|switch|try|use|take|go)",
    r"(?:if|should|in[ \t]+case|whenever)[ \t]+(?:this|that|it|my[ \t]+answer|the[ \t]+answer|"
    r"(?:the|this|my)[ \t]+assignment)[ \t]+(?:[a-z]{1,12}+[ \t]+)?(?:fails?|is[ \t]+wrong|"
    r"turns?[ \t]+out[ \t]+(?:wrong|false|incorrect)|doesn['’]t[ \t]+(?:work|hold|check[ \t]+out))",
)
DOUBT_RE = re.compile(
    rf"\b(?:{_words(DOUBT)}|{_words(NOT_UNIQUE)}|{_words(ODDS)}|{_words(SELF_CONDITIONS)})(?!\w)|"
    rf"(?<!\w)(?:{_words(tuple(_SPACED))})(?!\w)|{_words(tuple(_UNSPACED))}|[{DOUBT_SYMBOLS}]",
    re.IGNORECASE,
)
_SURE_AFTER = r"(?:very|quite|fully|completely|totally|absolutely|really|pretty|so)\s+"
BELIEF_RE = re.compile(
    rf"\b[Ii]\s+(?:(?:still|really|personally|honestly|kind\s+of|sort\s+of|kinda|sorta|would|do)\s+)?"
    rf"(?:{_words(BELIEF_VERBS)})\b(?!\s+(?:{_SURE_AFTER})?(?:{_CERTAIN}|good|great|fine|comfortable|"
    rf"strongly|firmly)\b)|\b[Ii](?:['’]d|\s+would)\s+say\b|"
    rf"(?<!\w)(?:{_words(tuple(w for c, ws in BELIEF_BY_LANGUAGE.items() if c not in UNSPACED for w in ws))})(?!\w)|"
    rf"{_words(tuple(w for c, ws in BELIEF_BY_LANGUAGE.items() if c in UNSPACED for w in ws))}",
    re.IGNORECASE,
)
_APPROXIMATE = re.compile(
    rf"(?<![\w\\-])(?:{_words(APPROXIMATE)})(?![\w-])|-(?:ish|odd)\b|^\s*+(?:≈|\\approx\b|\\sim\b)",
    re.IGNORECASE,
)
_TEXT_WRAP = re.compile(r"\\(?:text|mathrm|textbf|textit|mbox)\s*+\{([^{}]*+)\}")
# alternatives inside one answer (:func:`.extract.has_alternatives`); a bar between two numbers
# ("8 | 7", "8 \\mid 7") offers both
ALTERNATIVES_INSIDE = re.compile(
    rf"\b(?:{_words(ALTERNATIVE_INSIDE)})\b|\balt\.|(?-i:(?<![\w\\])o(?=\s+\S))|"
    rf"{_words(ALTERNATIVE_CJK)}|\\lor\b|\\vee\b|"
    r"(?<=\d)[ \t]{0,3}(?:\||\\mid\b|\\vert\b)[ \t]{0,3}(?=-?\d)",
    re.IGNORECASE,
)
# in a grid or a cell: "4/5", "8|6" offer two cell values (a fraction is no cell value)
GRID_ALTERNATIVE = re.compile(r"(?<![\d.])\d[ \t]{0,3}[/|][ \t]{0,3}\d(?!\d|\.\d)")
# between two boxes: the earlier one is offered alongside the later one when the text between
# them starts with "or"/"either" or ends with one of these words shortly before the later box,
# or when it speaks of another reading or another candidate ("under the other reading we get")
OFFERED_AFTER = re.compile(r"^\W*+(?:or|either)\b", re.IGNORECASE)
# a sentence that goes on from the answer with "or" ("Or, flipping clue 2, Alice."); "either" opens
# a choice of its own ("Either 2 or 3 of the coins land heads.")
# ... and the openers that say the same: "Otherwise Bob.", "Failing that, 20.", "If not, Alice."
_OR_OPENS = re.compile(
    r"^\W*+(?:or(?:[ \t]+else)?|otherwise|else|failing[ \t]+(?:that|this|which)|if[ \t]+not|"
    r"barring[ \t]+(?:that|this)|alternatively|short[ \t]+of[ \t]+that)\b",
    re.IGNORECASE,
)
_ROLE_NOUN = re.compile(r"\b(?:knights?|knaves?|roles?|liars?|truth-?tellers?)\b", re.IGNORECASE)
# values put on the outcomes of a chance device: "Heads: 14, tails: 20.", "Heads: Arnold"
_CHANCE_OUTCOME = re.compile(r"\b(?:heads|tails)\b[ \t]*+(?:[:=→—–-]|->)?[ \t]*+", re.IGNORECASE)
# another value put in the answer's place: "it's 8", "So n is 8.", "The real one is 8.", "The real
# answer's 8." (a quantity, "it's 8 cells long", is none)
_PLACE_STATED = re.compile(
    r"(?:\b(?:it|that|this)|\bthe[ \t]+(?:(?:real|actual|true|correct|right|final)[ \t]+)?"
    r"(?:one|answer|value|result|solution|number)|(?<![\w\\$])[a-zA-Z](?![\w$]))"
    r"(?:['’]s|[ \t]+(?:is|was|equals|must[ \t]+be))[ \t$]*+",
    re.IGNORECASE,
)
OFFERED_BEFORE = re.compile(
    rf"\b(?:or|either|{_words(QUALIFIERS)}|alternatively|otherwise|{MAY_BE})\b[^.!?\n]{{0,30}}$",
    re.IGNORECASE,
)
_QUALIFIED = (
    r"(?:(?:valid|possible|correct|consistent|plausible|acceptable|viable|feasible|defensible|"
    r"reasonable|admissible|legitimate)\s+)?"
)
# "the other assignments" in the plural are the rest of one solution, not another candidate
_ANOTHER = re.compile(
    rf"\b(?:(?:another|a\s+second|a\s+different|an\s+alternative|alternative)\s+{_QUALIFIED}"
    rf"(?:{_words(CANDIDATES)})s?|the\s+other\s+{_QUALIFIED}(?:{_words(CANDIDATES)}))\b|"
    rf"\brunner[\s-]?up\b|\bsomething\s+else\b|"
    r"\b(?:answer|solution)s?\s+(?:could|would|might)\s+also\b|"
    r"\b(?:valid|possible|plausible|viable)\s+alternatives?\b|\bplan\s+b\b|"
    r"\b(?:backup|fallback)\b|"
    # "the other viable count", "another defensible reading": another of anything, so qualified
    r"\b(?:the\s+other|another)\s+(?:viable|feasible|defensible|plausible|admissible|legitimate)\s+[^\W\d_]{2,20}\b",
    re.IGNORECASE,
)
# a label that names another of something, then the value: "Another route: 7*3+25", "Also
# valid: 8"
_NAMED_OTHER = re.compile(
    r"\b(?:(?:another|second|other|alt|alternativ\w*|back-?up|fallback|spare|reserve|standby|"
    r"secondary|next|plan[ \t]+[b-z]|runner[ \t-]?up|contingency|silver|second[ \t-]+place|"
    r"honou?rable[ \t]+mention)\b(?:[ \t-]+[^\W\d_]{1,20}+){0,5}?|"
    rf"(?:{_words(CANDIDATES)}|plan|pick|guess|take|route)[ \t]+(?:#?[2-9]|[B-Z]|two|three|four|five|"
    r"ii|iii|iv)\b|"
    r"(?:also|equally)[ \t]+(?:valid|works?|correct|possible|fine|acceptable))"
    r"[ \t]*+[:=][ \t]*+",
    re.IGNORECASE,
)
# ... and a counted option said to be a value: "Plan C would be 8", "Option two is Bob"
_COUNTED_OTHER = re.compile(
    r"\b(?:plan|option|choice|pick|guess|take|route|candidate)[ \t]+(?:#?[2-9]|[B-Z]|two|three|four|"
    r"five|ii|iii|iv)\b[ \t]+(?:would[ \t]+be|could[ \t]+be|might[ \t]+be|is)[ \t]*+",
    re.IGNORECASE,
)
# ... and between two boxes, "the other" alone names the next box as the second candidate
# ("\\boxed{8}. Two values fit, the other being \\boxed{7}")
OFFERED_BETWEEN = re.compile(
    rf"{_ANOTHER.pattern}|\b(?:{_words(READINGS)})\b|"
    r"\bthe\s+other(?:\s+one)?\s+(?:being|is|would\s+be)[\s:$(]*+$",
    re.IGNORECASE,
)
CORRECTION_RE = re.compile(rf"\b(?:{_words(CORRECTION)})\b", re.IGNORECASE)
_CONDITIONS_SPACED = [
    w for code, words in CONDITION_BY_LANGUAGE.items() if code not in UNSPACED for w in words
]
_CONDITIONS_UNSPACED = [w for code in UNSPACED for w in CONDITION_BY_LANGUAGE.get(code, ())]
CONDITION_RE = re.compile(
    rf"\b(?:{_words(CONDITION)})\b|(?<!\w)(?:{_words(tuple(_CONDITIONS_SPACED))})(?!\w)|"
    rf"{_words(tuple(_CONDITIONS_UNSPACED))}",
    re.IGNORECASE,
)
_PERCENT = r"(?<![\d.,])(?:\d{1,2}(?:[.,]\d+)?)\s*(?:\\?%|percent\b)"
# a confidence under 100%: "I'm about 70% confident", "Confidence: 50%", "(80% sure)", "I'd put
# 60% on this"
CONFIDENCE_RE = re.compile(
    rf"\b(?:{_words(CONFIDENCE_WORDS)})\b[^.!?\n]{{0,40}}?{_PERCENT}|"
    rf"{_PERCENT}[^.!?\n]{{0,40}}?\b(?:{_words(CONFIDENCE_WORDS)})\b|"
    rf"{_PERCENT}\s+on\s+(?:this|it|that)\b",
    re.IGNORECASE,
)
# a bare percentage in brackets after an answer, "(80%)", "(50% chance)": a confidence unless it
# is the answer
PERCENT_ASIDE = re.compile(
    rf"\(\s*+(?:(?:about|around|approx\.?|~)\s*+)?+{_PERCENT}\s*+"
    r"(?:(?:chance|confidence|confident|sure|certain(?:ty)?|likely|probability)\s*+)?+\)",
    re.IGNORECASE,
)
# a confidence or probability the speaker gives the answer, in any number form: "Confidence:
# 0.6", "Certainty: 8/10", "7 out of 10", "I'd say 70 percent", "I'd give this 4/5"; below
# certainty when the number is under its whole (:func:`_confidence_value`)
# a percentage that ends a sentence after a dash or a colon: "Arnold — 70%."
_PERCENT_AFTER_DASH = re.compile(
    rf"[—–:][ \t]*+(?:about|around|approx\.?|~)?[ \t]*+{_PERCENT}[ \t]*+[.!]?[ \t]*+$",
    re.IGNORECASE,
)
CONFIDENCE_NUMBER = re.compile(
    r"\b(?:confiden\w*|certainty|credence|sure|I['’]d\s+(?:say|give\s+(?:it|this|that))|"
    r"I\s+would\s+(?:say|give\s+(?:it|this|that)))\b[^.!?\n\d]{0,40}?"
    r"(?P<num>\d{1,3}(?:\.\d{1,6})?|\.\d{1,6})"
    r"(?:[ \t]*(?:/|out[ \t]+of)[ \t]*(?P<den>\d{1,3})|[ \t]*(?P<pct>\\?%|percent\b))?",
    re.IGNORECASE,
)
# a share before its word of certainty: "2/3 sure", "about 70% confident", "0.6 certain"
_SHARE_BEFORE_CERTAINTY = re.compile(
    r"(?<![\d./])(?P<num>\d{1,3}(?:\.\d{1,6})?|\.\d{1,6})"
    r"(?:[ \t]*(?:/|out[ \t]+of)[ \t]*(?P<den>\d{1,3})|[ \t]*(?P<pct>\\?%|percent\b))?"
    rf"[ \t]++(?:[a-z]{{1,12}}[ \t]++)?(?:{_CERTAIN})\b",
    re.IGNORECASE,
)
# a margin given to the answer: "7 ± 1", "7 (±1)", "7 +/- 1", "7 plus or minus 1" (not the
# quadratic formula's "\\frac{7 \\pm 3}{2}", whose 7 is no answer)
_PLUS_MINUS = re.compile(
    r"(?<![\d.])(?P<value>\d{1,30}+(?:\.\d{1,30}+)?+)[ \t]*+\(?[ \t]*+"
    r"(?:±|\\pm(?![A-Za-z])|\+/-|\+-|plus[ \t]+or[ \t]+minus)[ \t]*+(?!0++(?:\.0++)?+(?!\d|\.\d))\d",
    re.IGNORECASE,
)
# a margin with nothing before it, put on the answer just given ("\\boxed{7} \\pm 1", "(±1)"), a
# spread named by its noun ("Error bar: ±1.", "Margin of error: 1.") or a range of values
# ("Range: 6–8."); a margin of zero is none
_SIGN_OF_MARGIN = r"(?:±|∓|\\pm(?![A-Za-z])|\\mp(?![A-Za-z])|\+/-|\+-|plus[ \t]+or[ \t]+minus)"
_NONZERO = r"(?!0++(?:\.0++)?+(?!\d|\.\d))\d"
_MARGIN_OPENS = re.compile(rf"^[\s$(\[{{]*+{_SIGN_OF_MARGIN}[ \t$]*+{_NONZERO}", re.IGNORECASE)
SPREADS = (
    r"error[ \t]+bars?", r"margin(?:[ \t]+of[ \t]+error)?", r"uncertaint(?:y|ies)", r"tolerances?",
    r"standard[ \t]+(?:deviation|error)", r"precision", r"plus[ \t]+or[ \t]+minus",
)  # fmt: skip
RANGES = (r"range", r"interval", r"window", r"bracket", r"band", r"span")
_SPREAD_STATED = re.compile(
    rf"\b(?:{'|'.join(SPREADS)})\b[ \t]*+(?:[:=]|is|of|about|roughly|around|~|[ \t])*+"
    rf"(?:{_SIGN_OF_MARGIN}[ \t$]*+)?{_NONZERO}",
    re.IGNORECASE,
)
_RANGE_STATED = re.compile(
    rf"(?:\b(?:{'|'.join(RANGES)})\b[ \t]*+(?:[:=]|is\b|would[ \t]+be\b)|\b(?:in|within)[ \t]+the[ \t]+"
    rf"(?:{'|'.join(RANGES)})(?:[ \t]+(?:of|from))?\b)[ \t]*+"
    r"(?:(?:about|roughly|around|approximately|~)[ \t]*+)?"
    r"[\[(]?[ \t$]*+(?P<low>-?\d{1,30}+(?:\.\d{1,30}+)?+)[ \t$]*+(?:–|—|-|to|\.\.\.?|…|,)[ \t$]*+"
    r"(?P<high>-?\d{1,30}+(?:\.\d{1,30}+)?+)",
    re.IGNORECASE,
)
# both bounds of a range given to the answer: "Lower bound 6, upper bound 8."
_BOUNDS_STATED = re.compile(
    r"\blower[ \t]+bound\b[^.!?\n\d]{0,15}?(?P<low>-?\d{1,30}+(?:\.\d{1,30}+)?+)[^.!?\n]{0,30}?"
    r"\bupper[ \t]+bound\b[^.!?\n\d]{0,15}?(?P<high>-?\d{1,30}+(?:\.\d{1,30}+)?+)",
    re.IGNORECASE,
)
NOT_CERTAIN = re.compile(
    r"\bnot\s+(?:100|a\s+hundred|one\s+hundred)\s*(?:\\?%|percent\b|per\s+cent\b)", re.IGNORECASE
)
# a statement of roles (Knights and Knaves) is read by a parser of English: a condition or an
# alternative in another language, or "unless", "alternatively", "... or not", is doubt there
# another reading of the question named inside an answer: "(8 under a strict reading)", "or, on
# the other reading, a knight"
ANOTHER_READING = re.compile(
    r"\b(?:under|in|on|with|by|for)\s+(?:the\s+other|another|an?\s+(?:different|alternative|"
    rf"strict\w*|loose\w*|literal|broader|narrower))\s+(?:{_words(READINGS)})\b",
    re.IGNORECASE,
)
_UNPARSED = ("unless", "alternatively", "oder", "ou", "oppure", "wenn", "sinon")
DOUBT_IN_STATEMENT = re.compile(
    rf"{DOUBT_RE.pattern}|{CONFIDENCE_RE.pattern}|{PERCENT_ASIDE.pattern}|{ANOTHER_READING.pattern}|"
    rf"\b(?:{_words(_UNPARSED)})\b|"
    r"\bor\s+not(?=\s*(?:[.!?;)\]]|$))",
    re.IGNORECASE,
)
# what a program's being right is spoken of in (:func:`doubts_program`)
_RIGHTNESS = (
    r"work\w*", r"fail\w*", r"pass\w*", r"break\w*", r"broken", r"crash\w*", r"handl\w*",
    r"cover\w*", r"miss\w*", r"wrong", r"right", r"correct\w*", r"incorrect\w*", r"bug\w*",
    r"error\w*", r"edge", r"valid", r"invalid", r"time\s*out", r"succeed\w*", r"accept\w*",
    r"test\w*", r"case\w*", r"input\w*", r"output\w*", r"expected", r"off[\s-]by[\s-]one",
)  # fmt: skip
# prose that offers another program after the program: another answer
_OFFERS_PROGRAM = re.compile(
    r"\binstead\b(?!\s+of\b)|\balternatively\b|\balternative\s+(?:version|solution|program|"
    r"implementation)|\bif\b[^.!?\n,]{0,80}+,[ \t]*+(?:just[ \t]+)?(?:try|swap|switch|change|use)\b|\bswap\s+in\b|"
    r"\breplac\w*\b[^.!?\n]{0,80}?\bwith\b|"
    r"\bif\s+(?:that|this|it)\s+(?:fails|doesn['’]t\s+work|does\s+not\s+work|breaks|is\s+wrong)",
    re.IGNORECASE,
)
_SPEAKS_OF_RIGHTNESS = re.compile(rf"\b(?:{_words(_RIGHTNESS)})\b", re.IGNORECASE)
_CLAUSES_OF = re.compile(r"[,;:]|\b(?:and|but|while|though)\b", re.IGNORECASE)
# a program not run, or expected rather than known to pass: "I haven't tested it.", "Haven't run
# this yet.", "I wrote it quickly without running it.", "This should work.", "It ought to be
# correct.", "Hope this passes!", "hopefully on the rest too"
_UNTESTED = re.compile(
    r"\buntested\b|\b(?:not|\w{0,6}n['’]t|never|without)\s+(?:\w+\s+){0,4}?(?:test(?:ed|ing)?|run(?:ning)?|ran|"
    r"execut(?:ed|ing)|tried|trying|check(?:ed|ing)|verif(?:ied|ying))\b(?=\s+(?:it|this|that|the\s+(?:code|"
    r"program|solution|function|script|tests?|samples?|examples?))\b|\s*+[.!,;)]|\s*+$|\s+(?:yet|myself|"
    r"locally|properly|thoroughly|at\s+all)\b)|"
    r"\b(?:should|ought\s+to)\s+(?:\w+\s+)?(?:work|pass|be\s+(?:right|correct|fine|ok))\b|"
    r"\bhop(?:e|es|ed|efully|ing)\b",
    re.IGNORECASE,
)
_MODAL = re.compile(r"\b(?:could|might|may|maybe|perhaps|possibly|probably|(?:un)?likely)\b", re.I)
_NOT_MY_GUESS = re.compile(
    r"(?<!\bI\s)(?<!\bmy\s)(?<!\ba\s)(?<!\bbest\s)(?<!\beducated\s)(?<!\brough\s)(?<!\bwild\s)"
    r"\bguess\w*",
    re.IGNORECASE,
)
# "I don't think there is another answer": a negated belief rejects, it does not doubt
_NEGATED_BELIEF = re.compile(
    rf"\b[Ii]\s+(?:do\s+not|don['’]t|can\s*not|can['’]t)\s+(?:{_words(BELIEF_VERBS)})\b",
    re.IGNORECASE,
)
# a stake of everything is certainty: "I'd bet my life on it", "I'd stake anything on it"
_ALL_IN = re.compile(  # not under a negation: "I wouldn't stake my life on it" declines the stake
    r"(?<!n['’]t\s)(?<!not\s)(?<!never\s)\b(?:bet|wager|stake|gamble)\w*\s+(?:my\s+(?:life|house|salary|savings|reputation|"
    r"last\s+dollar)|(?:any|every)thing|the\s+(?:house|farm))\b",
    re.IGNORECASE,
)
_NEGATED_DOUBT = re.compile(
    rf"\b(?:{_words(NEGATED)})\s+(?:(?:just|merely|simply|only|mere|some)\s+)?"
    r"(?:(?:real\s+|good\s+)?(?:reason|cause|need|grounds?|room)\s+(?:to|for)\s+)?"  # "no reason to doubt it"
    rf"(?:(?:any|a|an|the|real|slight\w*|mere|lucky|wild)\s+)?(?:{_words(NEGATABLE)})\b",
    re.IGNORECASE,
)
# a correction said of others or of another value: "a common mistake", "54 is wrong"
_OTHERS_MISTAKE = re.compile(
    r"\b(?:an?\s+)?(?:common|typical|frequent|classic)\s+(?:mistakes?|errors?|wrong\s+answers?|"
    r"pitfalls?|slips?)\b|"
    # a mistake supposed, with what it would give: "A wrong sign would give -7, which ..."
    r"\b(?:an?|one)\s+(?:wrong|mistaken|flipped|dropped|missing|misplaced|swapped)\s+(?:sign|step|"
    r"term|factor|digit|reading|turn|assumption|choice)\s+(?=would|could|might|gives|yields|leads)",
    re.IGNORECASE,
)
_VALUE_WRONG = re.compile(
    r"(?<!\S)(?P<value>[-\d(][^\s]{0,60}+)\s+(?:is|would\s+be|was)\s+(?:wrong|incorrect|"
    r"not\s+(?:right|correct)|an?\s+(?:mistake|error|slip))\b",
    re.IGNORECASE,
)
_ENDS_WITH_OR = re.compile(r"\bor[\s$(]{0,5}$", re.IGNORECASE)
_BUT = re.compile(r"[,;]?\s+but\s+", re.IGNORECASE)
_SETTLES_RE = re.compile(rf"\b(?:{_words(SETTLES)})\b", re.IGNORECASE)
_LOWERS = re.compile(rf"\b(?:{_words(CORRECTION)})\b|[?？]", re.IGNORECASE)
# a contradiction speaks of the answer unless a condition says of what ("if n were 8, ... a
# contradiction" argues for the answer)
_CONTRADICTS = re.compile(rf"\b(?:{_words(CONTRADICTION)})\b", re.IGNORECASE)
REOPENING_RE = re.compile(rf"^[\W_]*+(?:{_words(REOPENING)})\b", re.IGNORECASE)
ALTERNATIVE_RE = re.compile(
    rf"\b(?:{_words(ALTERNATIVE)})\b|{_words(ALTERNATIVE_CJK)}", re.IGNORECASE
)
_BETWEEN = r"(?:[\s:,–—($]|\\[(\[]|-(?!\d)){0,4}"  # a dash, not the sign of "-8"; math delimiters
_OFFER = re.compile(rf"\b(?:{_words(OFFER_WORDS)})\b{_BETWEEN}|{_words(ALTERNATIVE_CJK)}", re.I)
_IT_IS = re.compile(rf"\b{IT_IS}\b{_BETWEEN}", re.IGNORECASE)
# the value of the answer's place under another reading: "the count is 8"
_ITS_VALUE = re.compile(
    r"\bthe[ \t]+[^\W\d_]{1,20}+[ \t]+(?:is|would[ \t]+be|becomes)[ \t]+", re.IGNORECASE
)
# a condition and its consequence: "if" (also "if you"), the clause's end, what may open the
# consequence before its value, and what may follow a bare value
_IF = re.compile(rf"{CONDITION_RE.pattern}|\bif\b|\botherwise\b", re.IGNORECASE)
# a change to the question or its solution, supposed by a gerund that opens a sentence after the
# answer as "if" would: "Flipping clue 2, Alice.", "Swapping clues 1 and 4 yields Arnold."
CHANGES = (
    r"flipp", r"swapp", r"revers", r"invert", r"negat", r"ignor", r"dropp", r"relax", r"chang",
    r"alter", r"switch", r"mirror", r"shift", r"rotat", r"transpos", r"toggl", r"replac",
    r"remov", r"omitt", r"skipp", r"loosen", r"tighten", r"tweak", r"modify", r"(?:mis|re-?)?read",
    r"mov", r"exclud", r"includ", r"disregard", r"discount", r"count(?=ing[ \t]+(?:only|just|also|"
    r"too|negative|proper|both|every|all))",
)  # fmt: skip
# the same changes named by a noun: "A shift by two would give ...", "Under a two-step shift: ..."
CHANGE_NOUNS = (
    r"shifts?", r"swaps?", r"flips?", r"rotations?", r"reflections?", r"reversals?", r"inversions?",
    r"moves?", r"transpositions?", r"tweaks?", r"misreadings?", r"(?:re-?)?readings?",
)  # fmt: skip
_CHANGE_OPENS = re.compile(
    rf"^[\W_]*+(?:(?:or|and|but|so|then)\b[ \t,]*+)?(?:(?:by[ \t]+)?(?:{_words(CHANGES)})ing\b|"
    r"without\b|with[ \t]+(?:[\w-]{1,20}+[ \t]+){1,3}?only\b|"
    rf"(?:(?:under|with|after)[ \t]+)?(?:(?:an?|the|one)[ \t]+)?(?:[\w-]{{1,20}}+[ \t]+)?"
    rf"(?:{_words(CHANGE_NOUNS)})\b)",
    re.IGNORECASE,
)
_CHANGE_GIVES = re.compile(
    rf"{_CHANGE_OPENS.pattern}[^.!?;:\n]{{0,80}}?(?:\b(?:{_words(GIVES)}|produces?|makes?[ \t]+it|"
    r"(?:it|that|this|the[ \t]+\w+)?[ \t]*+would[ \t]+(?:be|give|make))\b|,)"
    rf"{_BETWEEN}",
    re.IGNORECASE,
)
# another answer of the task described in words, the subject of a sentence after the answer: "A
# mirrored grid is also plausible.", "Another rule (...) also fits.", "A near-miss alternative
# shifts the block right by one." (not another way to the answer: "An alternative check ...")
_OTHERS = (
    r"another", r"alternative", r"different", r"second", r"mirror(?:ed)?", r"flipped", r"reversed",
    r"shifted", r"rotated", r"transposed", r"swapped", r"near[\s-]?miss", r"competing", r"rival",
)  # fmt: skip
_DESCRIBED_NOUNS = (
    *CANDIDATES,
    r"rule",
    r"pattern",
    r"reading",
    r"interpretation",
    r"expression",
    r"program",
    r"guess",
    r"pick",
    r"transformation",
    r"mapping",
)
_OTHER_DESCRIBED = re.compile(
    rf"^[\W_]*+(?:(?:a|an|one|my)[ \t]+)?(?:(?:{_words(_OTHERS)})[ \t-]+(?:[^\W\d_]+[ \t-]+){{0,2}}?"
    rf"(?:{_words(_DESCRIBED_NOUNS)})s?|(?:[^\W\d_-]+(?:-[^\W\d_]+)?[ \t]+)?alternatives?)\b"
    r"(?![ \t]+(?:[^\W\d_]+[ \t]+)?(?:way|method|approach|derivation|proof|check|argument|"
    r"explanation|view|angle|verification|reasoning|computation|calculation|route|look|solve)s?\b)",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[ \t]*+[,:;][ \t]*+|[ \t]++then[ \t]+", re.IGNORECASE)
MAX_CLAUSES = 4  # the clauses after a condition read for its consequence
_CONSEQUENT = re.compile(
    rf"(?:(?:{_words(CONSEQUENCE)})[ \t,]{{1,3}})?(?:{IT_IS}[ \t]+)?", re.IGNORECASE
)
_BARE_END = re.compile(r"\$?[ \t]*+(?:instead\b|[.,;!)]|$)", re.IGNORECASE)
# a label of the final answer and what may stand between it and the value ("**Final answer:**
# $8$", "The answer is 8")
_LABEL = re.compile(
    rf"\b(?:{_words(ANSWER_LABELS)})(?:[ \t]*+\*{{0,2}}[ \t]*+:|[ \t]+(?:is|would[ \t]+be)"
    r"[ \t]*+:?)[ \t*_$]{0,6}",
    re.IGNORECASE,
)
# roles or names said to change places under a condition: "the roles would flip"
_WOULD_SWAP = re.compile(
    rf"\b(?:would|could|might|may)[ \t]+(?:[^\W\d_]{{1,12}}[ \t]+){{0,2}}?(?:{_words(SWAP)})\b",
    re.IGNORECASE,
)
# a sentence that reaches the answer again: "... leads to the same assignment", "also yields
# n = 7" (another method, the same value: a check, not another candidate)
_SAME_RESULT = re.compile(
    rf"\b(?:the[ \t]+)?same[ \t]+(?:{_words(CANDIDATES)}|roles?|conclusion|number)s?\b",
    re.IGNORECASE,
)
# another way to reach the answer itself: "one can see this by ...", "we could verify it ..."
_SEES_IT = re.compile(
    rf"\b(?:one|we|you)[ \t]+(?:can|could|may|might)[ \t]+{_METHOD}[ \t]+(?:this|it)\b", re.I
)
_GIVES_RE = re.compile(
    rf"\b(?:{_words(GIVES)})\b[ \t$]{{0,3}}(?:[A-Za-z][ \t]*+=[ \t$]{{0,3}})?", re.IGNORECASE
)
# a chance or probability that is the answer's own value: "a $2/3$ chance that ..." when the
# answer is 2/3 (a statement of the answer, not of the speaker's belief)
_VALUE_CHANCE = re.compile(
    r"(?P<value>\\[dt]?frac\s*\{\d{1,6}\}\s*\{\d{1,6}\}|\d{1,6}(?:\.\d{1,6})?(?:\s*/\s*\d{1,6})?"
    r"(?:\s*\\?%)?)\$?\s+(?:chance|probability|likelihood|odds)\b",
    re.IGNORECASE,
)
_SLOT = re.compile(
    rf"\b(?:{_words(SLOT_WORDS)})\b{_BETWEEN}|"
    rf"\b(?:{_words(DERIVATIONS)})\b[^.!?\n]{{0,30}}?\b(?:{_words(GIVES)})\b{_BETWEEN}",
    re.IGNORECASE,
)
# "or the last cell is 5", "Actually, I think it is Eric": up to four words between an "or" (or
# a word of the answer's place) and the value it offers
MAX_GAP_WORDS = 4
_GAP_WORD = re.compile(r"[^\W\d_][\w'’]{0,30}+[ \t]++")
_OFFERS_GAP = re.compile(r"\b(?:or|alternatively|oder|ou|oppure|или|либо)\b", re.IGNORECASE)
_RESTATEMENT_RE = re.compile(rf"\b(?:{_words(RESTATEMENT)})\b|≈|\\approx", re.IGNORECASE)
# a value given relative to the answer ("one more", "two less")
_RELATIVE = re.compile(
    r"\b(?:one|two|three|\d{1,3})\s+(?:more|less|fewer|higher|lower)\b"
    r"(?!\s+(?:than|times?|checks?|steps?|looks?|things?|ways?|details?|notes?)\b)|"
    # a small step from the answer: "a notch higher", "bump it up by one"
    r"\b(?:notch|tad|touch|smidge|step)\s+(?:higher|lower|more|less|bigger|smaller|up|down)\b|"
    r"\bbump\w*\s+(?:it|that|this|the\s+answer)\s+(?:up|down)\b|"
    # a value given by an operation on the answer: "add one", "its successor", "double it",
    # "the first prime after it", "the next integer"
    r"\b(?:add|subtract|plus|minus)(?:ing)?\s+(?:one|two|three|\d{1,3})\b|"
    r"\b(?:its|the)\s+(?:successor|predecessor)\b|"
    r"\b(?:doubl|tripl|halv|negat)\w*\s+(?:it|that|this|the\s+answer)\b|"
    # a neighbour of it, the one next to it: "its neighbour above", "the one after it"
    r"\b(?:its|the|a)\s+(?:[a-z]{1,12}\s+)?neighbou?rs?\b|"
    r"\b(?:one|number|integer|value)\s+(?:right\s+|just\s+|immediately\s+)?(?:after|before|"
    r"above|below)\s+(?:it|that|this|this\s+one|that\s+one)\b|\boff[\s-]by[\s-]one\b|"
    r"\bthe\s+(?:next|previous|preceding|following)\s+(?:one|number|integer|value|prime|"
    r"multiple|square|odd|even)\b|\b(?:first|next|smallest|largest|nearest)\s+[a-z]{1,12}\s+"
    r"(?:after|before|above|below|past)\s+(?:it|that|this)\b",
    re.I,
)
# what offers a relative value beside the answer: a condition, "or", "either", "alternatively"
# a result a person reaches ("one gets 8", "we land on eight", "you end up with Bob"; a thing that
# gives a value is a computation: "this gives 15"), and the words of a
# check that reaches the question's own numbers ("substituting back gives 15")
_GIVES_ANY = re.compile(
    r"\b(?:one|we|you|I|they|people)[ \t]++(?:(?:would|could|might|may|will|then|"
    r"still|also)[ \t]++)?"
    rf"(?:{_words(GIVES)}|lands?[ \t]+on|ends?[ \t]+up[ \t]+(?:with|at|on)|arrives?[ \t]+at)\b"
    rf"{_BETWEEN}",
    re.IGNORECASE,
)
_VERIFIES = re.compile(
    r"\b(?:substitut\w*|plug\w*|verif\w*|confirm\w*|sanity|back\s+into|check\w*)", re.IGNORECASE
)
_PLACES = {"last": -1, "second-to-last": -2, "penultimate": -2}  # counted from the end
_CELL_AT = re.compile(
    r"\b(?:the[ \t]+)?(last|second-to-last|penultimate|\d{1,3}(?:st|nd|rd|th))[ \t]+cell[ \t]+"
    r"((?:would|could|might|may)[ \t]+(?:be|become)|becomes?|is|=|:)[ \t]*+(-?\d{1,3})(?!\d)",
    re.IGNORECASE,
)
# a cell asked of in a question: "Could the last cell be 4?", "Is the 3rd cell 0?"
_CELL_ASKED = re.compile(
    r"\b(?:last|second-to-last|penultimate|\d{1,3}(?:st|nd|rd|th))[ \t]+cell[ \t]+"
    r"(?:be[ \t]+|become[ \t]+|is[ \t]+|=[ \t]*+)(-?\d{1,3})(?!\d)",
    re.IGNORECASE,
)


def _cell_differs(asked: re.Match, answer: str) -> bool:
    """Whether the cell a question asks of (:data:`_CELL_ASKED`) differs from the answer's."""
    cells, place = answer.split(), asked.group(0).split()[0].casefold()
    index = _PLACES.get(place)
    if index is None:
        index = max(int(re.match(r"\d+", place).group()) - 1, 0)
    if not -len(cells) <= index < len(cells):
        return False
    return plain_cell(asked.group(1)) != plain_cell(cells[index])


# a name spelled letter by letter: "B-o-b", "B-O-B", "b.o.b.", "B O B" (in any case from three
# letters; capitalised from two)
_SPELLED_NAME = re.compile(
    r"(?<![\w.-])(?:[A-Z](?:[-.][a-z]){1,20}+|[A-Za-z](?:[-.][A-Za-z]){2,20}+\.?)(?![\w-])|"
    r"(?<!\S)[A-Z](?: [A-Z]){2,20}+(?!\S)"
)


def _unspelled(text: str) -> str:
    """``text`` with each name spelled letter by letter written as the name ("b.o.b." as Bob)."""
    return _SPELLED_NAME.sub(lambda m: re.sub(r"[-. ]", "", m.group()).capitalize(), text)


_INSTEAD = re.compile(r"[ \t]*+instead\b", re.IGNORECASE)
# a range with the answer at one end: "anywhere from 7 to 8", "between 7 and 8", "7 to 8"
_RANGE = re.compile(
    r"(?<![\w.])(-?\d{1,15}+(?:\.\d{1,15}+)?+)[ \t]++(?:to|and|through|or[ \t]++so|et|und|y|e|en|и|à|bis|a|tot|до)[ \t]++"
    r"(-?\d{1,15}+(?:\.\d{1,15}+)?+)(?![\w.]\w)",
    re.IGNORECASE,
)
# a variable said to range over values, before the range: "$a$ ranges from 1 to 19", "k runs
# from 1 to 10" (the values a variable takes, counted or summed: no candidates)
_VARIABLE_RANGES = re.compile(
    r"(?:\$[^$\n]{1,20}+\$|(?<![\w$])[A-Za-z](?![\w$]))[ \t]++(?:ranges?|runs?|goes|go|varies|vary|"
    r"takes[ \t]++(?:the[ \t]++)?values?|is[ \t]++any[ \t]++(?:integer|number|value))[ \t]++"
    r"(?:(?:over|through|across)[ \t]++)?(?:(?:all[ \t]++)?(?:the[ \t]++)?(?:integers|values|numbers)[ \t]++)?"
    r"(?:from|between)?[ \t]*+$",
    re.IGNORECASE,
)
# the unknown moved by a step, as a term of its own: "n+1", "$n - 1$", "2n" (not "2n+1", a
# question's expression), read only in a sentence with no relation ("x-1 > 2" bounds)
_UNKNOWN_MOVED = re.compile(
    r"(?<![\w\\+*/^.-])[a-z][ \t]*+[+-][ \t]*+\d{1,3}(?![\w.+*/^-])|"
    r"(?<![\w.+*/^-])[2-9][a-z](?![\w(.+*/^-])"
)
# what offers a relative value beside the answer: a condition, "or", "either", "alternatively",
# another reading, "also", "too", "equally", or a word that makes it an answer ("works", "valid")
_RELATIVE_OFFER = re.compile(
    rf"\b(?:if|unless|when|in\s+case|provided|assuming|or|either|alternatively|otherwise|{_words(READINGS)}|also|too|"
    rf"as\s+well|equally|{_words(ANSWERHOOD)})\b",
    re.IGNORECASE,
)
_RECOMMIT_BEFORE = re.compile(
    rf"\b(?:{_words(RECOMMIT_BEFORE)})[ \t]*+[:=]?[ \t*$(\[]{{0,4}}$", re.IGNORECASE
)
_UNDECIDED_RE = re.compile(rf"\b(?:{_words(UNDECIDED)})\b", re.IGNORECASE)
_RECOMMIT_AFTER = re.compile(rf"[ \t*$)\]]{{0,4}}(?:{_words(RECOMMIT_AFTER)})\b", re.IGNORECASE)
_WRONG_BACK_RE = re.compile(rf"\b{_WRONG_BACK}\b", re.IGNORECASE)
_REJECTION_RE = re.compile(rf"\b(?:{_words(REJECTION)})\b|≠|\\neq?\b", re.IGNORECASE)
_NEGATION_ELSEWHERE_RE = re.compile(rf"\b(?:{_words(NEGATION_ELSEWHERE)})\b", re.IGNORECASE)
# a sentence that opens with a no: the answer to a question just asked ("Could they swap? No: ...")
# a denial word that denies ("No.", "Nope"; not "no one", "no doubt", "no question", "no way")
DENIAL = rf"(?:{_words(DENIALS)})\b(?![ \t]+(?:one|doubt|question|way)\b)"
DENIED = re.compile(rf"[\W_]*+{DENIAL}", re.IGNORECASE)
# a rejection word that is only a negation, and the words that carry it back to a value named
# before ("but it fails", "that is not possible")
_BARE_NEGATION = re.compile(r"not|[a-z]{0,5}n['’]t|never|cannot", re.IGNORECASE)
_DENIED_BY_RESULT = re.compile(
    rf"[\W_]*+(?:{_words(DENIALS)})\b[ \t,.;:!—–-]*+(?:wait\b[ \t,.;:!—–-]*+)?"
    rf"(?P<subject>that|it|this|[^\s,.;:!?]{{1,40}}+)(?:(?P<copula>['’]s|[ \t]++(?:is|equals))|[ \t]++"
    rf"(?:would[ \t]++|only[ \t]++)?(?:{_words(GIVES)}|makes?))[ \t$]*+"
    rf"(?P<result>-?\d[\d.,/]{{0,20}}+|[A-Z][a-z]{{1,30}}+)"
    r"[ \t$]*+(?:,?[ \t]*+not[ \t]++[^\s.!]{1,20}+)?[ \t.!]*+",
    re.IGNORECASE,
)
# the same denial with its "no" last: "That's 29, no.", "It gives 10 — nope."
_RESULT_DENIED = re.compile(
    rf"[\W_]*+(?P<subject>that|it|this)(?:(?P<copula>['’]s|[ \t]++(?:is|equals))|[ \t]++(?:would[ \t]++)?"
    rf"(?:{_words(GIVES)}|makes?))"
    r"[ \t$]*+(?P<result>-?\d[\d.,/]{0,20}+)[ \t$]*+[,;:—–-]?[ \t]*+"
    rf"(?:so[ \t]++)?(?:{_words(DENIALS)})\b[ \t.!]*+",
    re.IGNORECASE,
)
_REFERS_BACK = re.compile(
    r"\b(?:it|its|that|this|which|these|those|he|she|they|him|her|them|one|neither|nor)\b", re.I
)
# a clause that goes on with what the one before named: its predicate ("the other root, -8, is
# not valid"), or a contrast with it ("8 would fit, but not in the range")
_PREDICATE = re.compile(
    r"\s*+(?:is|are|was|were|does|do|did|would|will|can|could|has|have|should|must|cannot|"
    r"[a-z]{2,5}n['’]t)\b", re.IGNORECASE
)  # fmt: skip
_CONTRAST = re.compile(r"but|though|although|whereas|while", re.IGNORECASE)
# where a clause ends: its rejection word speaks of what the clause names ("8 works, not 7")
_CLAUSE_BREAK = re.compile(
    r"[,;:()]|\s[-–—]\s|\b(?:but|though|although|whereas|while|so|since|because)\b", re.IGNORECASE
)
_SWAP_RE = re.compile(rf"\b(?:{_words(SWAP)})\b", re.IGNORECASE)
# what follows a candidate that makes it an answer ("8, also satisfies", "Eric would fit")
_VALUE_OFFER = re.compile(
    r"(?:[\s,()\]:→⇒—–$]|\\q?quad\b|\\[,;])"
    r"{0,6}(?:(?:is|are|as|be|would|could|might|also|equally|just|then|still|both|seems?\s+to|"
    r"remains?|stays?|gets?|takes?|earns?|deserves?|wins?|has|have|comes?(?:\s+in)?)\s+)"
    r"{0,4}"
    rf"(?:{_words(ANSWERHOOD)})\b",
    re.IGNORECASE,
)
# a candidate as a sentence's subject, offered with "also", "too", "as well": "13 as well."
_SAID_OFFER = re.compile(
    r"\s+(?:(?:is|would\s+be)\s+(?:[^\W\d_]{1,20}+\s+){0,2}?)?(?:also|as\s+well|too|equally)\b",
    re.I,
)
# a candidate offered under another reading: "8 under the other convention", "Bob, under the
# other reading of clue 2"
_UNDER_READING = re.compile(
    r"[\s,]{0,3}(?:under|in|on|with|by|for|using|via)\s+(?:the\s+other|another|an?\s+(?:different|"
    rf"alternative|strict\w*|loose\w*))\s+(?:{_words(READINGS)}|{_words(DERIVATIONS)})\b",
    re.IGNORECASE,
)
# cell values offered side by side at the end of a clause: "(cell 10: 7 or 0)"
_CELL_OR = re.compile(r"(?<![\d.])\d[ \t]++(?:\([ \t]*+)?or[ \t]++\d(?=[ \t]*+(?:[.,;)]|$))")
_ANSWERHOOD_RE = re.compile(rf"\b(?:also|{_words(ANSWERHOOD)})\b", re.IGNORECASE)
# a sentence ends at ".", "!", "?" or a line, not at an abbreviation ("i.e.", "e.g.", "etc.",
# "vs.", "cf.", "approx."); an ellipsis before a word in lower case goes on
# ("Mia would have to be... that branch fails": one thought), unless the word turns back ("...
# no, ...", "... wait")
_SENTENCE_END = re.compile(
    r"(?<=[.!?。])(?<!\.\.\.)(?<!i\.e\.)(?<!e\.g\.)(?<!etc\.)(?<!\bvs\.)(?<!\bcf\.)(?<!approx\.)"
    r"(?<!\b[vV]\.)(?<!\b[pP]rob\.)(?<!\b[cC]onf\.)(?<!\b[mM]ed\.)(?<!\b[mM]od\.)\s++|"
    r"(?<=\.\.\.)\s++(?=[^a-z]|(?:no|nope|nah|wait|hmm+|actually|oh|oops)\b)|\n"
)
# the layout of a line that is not words: Markdown's bullets ("- ", "* ", "+ ") and quote marks
# ("> "), and the bullets of other typefaces; a bullet list after an answer ("- 5", "- 6") offers
# its values as a plain line does. A numbered marker ("1. ") stays: it may be a value
_LAYOUT = re.compile(r"^[ \t]*+(?:(?:[-*+>][ \t]|[•‣◦▪●○⁃∙·])[ \t]*+)++")
# the values of each type of answer
# a letter of a script written without spaces (Chinese, Japanese, Korean, Thai): a number glued
# to it is still a number ("8也行")
_UNSPACED_LETTER = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af"
_NUMBER_VALUE = re.compile(
    rf"-?\$?\d+(?:[.,]\d+)*+(?:/\d+)?+(?![^\W{_UNSPACED_LETTER}.][^\W{_UNSPACED_LETTER}]|\.\w)"
    r"|-?\\[dt]?frac\s*\{[^{}]{1,20}\}\s*\{[^{}]{1,20}\}"
)
_EXPRESSION_VALUE = re.compile(r"(?:[-\d(]|\\left)(?:[\d\s()+\-*/×÷·^.{}]|\\[a-z]{1,8}+){0,100}+")
_GRID_VALUE = re.compile(r"\d(?:[ \t,|]{0,3}\d){0,900}+(?![\d.]\d)")
_NAME_VALUE = re.compile(r"(?<![\w\\])[A-Z][a-z]{1,30}+(?:[ \t]+[A-Z][a-z]{1,30}+)?(?!\w)")
_VALUE_BEFORE = re.compile(r"(-?\d+(?:[.,]\d+)*+)\s{0,3}$")
# another value by structure (:func:`states_other`)
_ROMAN = re.compile(
    r"(?<![\w\\])(?=[MDCLXVI]{2,}+(?![\w']))"
    r"M{0,3}+(?:CM|CD|D?+C{0,3}+)(?:XC|XL|L?+X{0,3}+)(?:IX|IV|V?+I{0,3}+)(?![\w'])"
)
_ROMAN_DIGITS = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
_OPERAND = r"\(?+-?\d{1,6}+(?:\.\d{1,6}+)?+\)?+"
_ARITHMETIC_RUN = re.compile(
    rf"(?<![\w.^\\]){_OPERAND}(?:[ \t]*+(?:\*\*|[-+*/^×·÷]|\\cdot|\\times)[ \t]*+{_OPERAND}){{1,8}}+"
    r"(?![\w^]|\.\d)"  # a sentence's full stop may end it ("(3+5)."), a decimal point not
)
_RELATION = re.compile(r"[=<>≤≥≠≈]|\\(?:le|ge|leq|geq|ne|neq|approx)\b")
MAX_EXPONENT = 64  # a power with a larger exponent is left as written, never evaluated
# arithmetic the lexicon reads: at most this many operators and this many brackets in one span
MAX_READ_OPERATORS = 8
MAX_READ_BRACKETS = 8
_ARITHMETIC_SPAN = re.compile(r"[-+(\d][\d \t.+\-*/^()×·÷]++")
_SPAN_OPERATOR = re.compile(r"(?<=[\d)])[ \t]*+[-+*/^×·÷]")
_DIGIT = re.compile(r"\d")
_RESULT_AFTER = re.compile(r"[ \t]*+(?:is|equals|gives|makes|yields)\b", re.IGNORECASE)
_OPENER = re.compile(
    rf"(?:^|[,;:(]|\s[-–—]\s|\b(?:{_words(CLAUSE_OPENERS)})\b)[ \t]*+"
    rf"(?:(?:{_words(SENTENCE_ADVERBS)})[ \t]*+,?+[ \t]*+){{0,2}}+$",
    re.IGNORECASE,
)
_PREDICATE_AFTER = re.compile(rf"(?:[ \t]*+,)?+[ \t]*+(?:{_words(PREDICATES)})\b", re.IGNORECASE)
_LABEL_BEFORE = re.compile(rf"\b(?:{_words(LABELS)})[ \t]*+$|#$", re.IGNORECASE)
_BOUND_BEFORE = re.compile(
    rf"(?:[<>≤≥≠]|\\(?:le|ge|leq|geq|ne|neq)|\b(?:{_words(BOUNDS)}))[ \t$]*+$", re.IGNORECASE
)
_REJECTED_BY_RE = re.compile(rf"\b(?:{_words(REJECTED_BY)})\b", re.IGNORECASE)
_MISTAKE_RE = re.compile(r"\b(?:errors?|mistaken?s?|slips?|typos?|missteps?)\b", re.IGNORECASE)
_LITOTES_RE = re.compile(rf"\b{_LITOTES}\b", re.IGNORECASE)
_CONFIDENCE_LABEL = re.compile(
    r"(?<!\bare\s)(?<!\bam\s)(?<!\bis\s)(?<!['’]re\s)(?<!['’]m\s)"  # "We are certain: ..." is no label
    rf"\b(?:{_words(CONFIDENCE_WORDS)})\b(?:[ \t]++level)?+[ \t]*+(?::|=|is|was)[ \t*$]*+"
    r"(?P<grade>[^\s.,;!)]{1,12}+(?:[ \t]++[A-Za-z]{1,12}+)?+)",
    re.IGNORECASE,
)
_FULL_CONFIDENCE = re.compile(rf"(?:{'|'.join(FULL_CONFIDENCE)})(?:[ \t]++\w++)?+", re.IGNORECASE)
_DENIES_ITSELF = re.compile(
    r"\b(?:(?:is|are|was|were)[ \t]+not|isn['’]t|aren['’]t|wasn['’]t|not)[ \t]+(?:the|an?|my|our|a[ \t]+valid)"
    r"[ \t]+(?:final[ \t]+|correct[ \t]+|right[ \t]+)?(?:answer|solution|result)\b",
    re.IGNORECASE,
)
_COLON_END = re.compile(r"[^\W\d_][^:\n]{0,58}?:[ \t*$]*+$")
# the puzzle's own grids, named in a check: "Example 1:", "Input:", "Check:"
_PUZZLE_GRID = re.compile(
    r"\b(?:examples?|inputs?|train\w*|tests?|checks?|verif\w*|given|before|original|pattern|"
    r"rule|steps?|from|to)\b|->|→|=>",
    re.IGNORECASE,
)
_CELL = re.compile(r"(?<![\w.,])\d(?![\w.,]\w)")  # a grid's cell: one digit
# in notation: a value between two bounds of one variable ("7 \\le n \\le 8", "7 ≤ n < 9"), and
# the equals sign that makes an expression a step ("25*2=50")
_NOTATION_RANGE = re.compile(
    r"(-?\d{1,15}+(?:\.\d{1,15}+)?+)[ \t$]*+(?:[<≤]|\\(?:le|leq|lt)\b)[ \t$]*+[A-Za-z][ \t$]*+"
    r"(?:[<≤]|\\(?:le|leq|lt)\b)[ \t$]*+(-?\d{1,15}+(?:\.\d{1,15}+)?+)"
)
_STEP_BEFORE = re.compile(r"=[ \t$]*+$")
_STEP_AFTER = re.compile(r"[ \t$]*+=")
_RESTATED_BEFORE = re.compile(rf"(?:\b(?:{_words(RESTATEMENT)})|≈|\\approx)[ \t$]*+$", re.I)
_MEASURE_BEFORE = re.compile(
    rf"\b(?:{_words(CONFIDENCE_WORDS)}|probability|chance|odds)\b[^\w\n]{{0,4}}+(?:level[ \t]*+)?"
    r"(?:[:=]|is|of|at)?+[ \t$]*+$",
    re.IGNORECASE,
)
# the predicate of a role: "2 is the coefficient", "15 is the right-hand side" name what the value
# is in the problem; "8 is the other answer", "8 is the right one" name a candidate (:data:`CANDIDATES`, :data:`ANSWERHOOD`)
_ROLE_PREDICATE = re.compile(
    r"[ \t]*+(?:is|are|was|were)[ \t]++the[ \t]++(?!(?:other|second|alternative|next|backup|"
    rf"fallback|runner|better|best|real|true|right(?![ \t-]*+hand)|correct)\b|"
    rf"(?:{_words(CANDIDATES)})\b)[a-z]",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(rf"[ \t]++(?!(?:{_words(NOT_NOUNS)})\b)[a-z]", re.IGNORECASE)
_FIRST_PERSON = re.compile(rf"(?<![\w'’])(?:{'|'.join(FIRST_PERSON)})(?![\w'’])", re.IGNORECASE)
_LET_ME = re.compile(r"\blet(?:['’]s|[ \t]+(?:me|us))\b", re.IGNORECASE)
_AROUND_WORD = re.compile(r"[^\W\d_][\w'’-]*+")
_PERCENT_AFTER = re.compile(r"\s*(?:\\?%|percent\b)")
_OPERATOR = "+-*/^=×÷·<>≤≥"
_OPERATOR_WORD = re.compile(r"\\(?:cdot|times|div|pm|frac)\s*$")
_OPERATOR_WORD_AFTER = re.compile(r"\\(?:cdot|times|div|pm)\b")
_TERM_AFTER = re.compile(r"[A-Za-z][ \t]*+(?:[-+*/^=)]|\\cdot\b)")  # "2n+1": a coefficient
_EQUATION_RESULT = re.compile(r"(?:^|[\s(,:$\[{])[A-Za-z]\s*=\s*$")
KINDS = ("value", "expression", "name", "grid")  # the answer types :func:`uncommits` knows


_LATEX_COMMAND = re.compile(
    r"\\(?:begin|end)[ \t]*+\{[^{}]{0,30}+\}(?:\{[^{}]{0,30}+\})?|\\[A-Za-z]{1,30}+"
)  # "\\begin{tabular}{ll}", "\\text": notation, no words
_LETTER_WORD = re.compile(r"[^\W\d_]{2,40}+")


# the affixes an English word is made with: a rare word made of a frequent English stem and
# them ("equivalently", "circumcenter", "nonincreasing", "memoize") is English
ENGLISH_PREFIXES = (
    "non", "co", "sub", "super", "un", "re", "pre", "anti", "multi", "semi", "inter", "over",
    "under", "bi", "tri", "circum", "ortho", "in", "de", "dis", "mis", "counter", "hyper", "poly",
)  # fmt: skip
ENGLISH_SUFFIXES = (
    "ly", "ally", "ing", "ed", "es", "s", "er", "ers", "ness", "ment", "ments", "tion", "tions",
    "able", "ible", "ize", "ise", "ized", "ised", "izing", "ising", "ity", "ive", "al", "ic",
    "ically", "wise", "less",
)  # fmt: skip
ENGLISH_STEM_ZIPF = 2.5  # how frequent in English the stem of a rare word must be


@functools.lru_cache(maxsize=1 << 16)
def _english_word(word: str) -> bool:
    if word in ENGLISH_TERMS or zipf_frequency(word, "en") >= ENGLISH_ZIPF:
        return True
    return word.isascii() and _english_stem(word)


def _english_stem(word: str) -> bool:
    """Whether a word is a frequent English stem with English affixes (:data:`ENGLISH_PREFIXES`,
    :data:`ENGLISH_SUFFIXES`; a stem of four letters or more, with or without a final "e")."""
    for prefix in ("", *ENGLISH_PREFIXES):
        if not word.startswith(prefix):
            continue
        rest = word[len(prefix) :]
        for suffix in ("", *ENGLISH_SUFFIXES):
            if not (prefix or suffix) or not rest.endswith(suffix):
                continue
            stem = rest[: len(rest) - len(suffix)]
            for candidate in (stem, stem + "e"):
                if len(candidate) >= 4 and (
                    candidate in ENGLISH_TERMS
                    or zipf_frequency(candidate, "en") >= ENGLISH_STEM_ZIPF
                ):
                    return True
    return False


def _read_words(sentence: str) -> list[str]:
    """The words of a sentence counted for its language (:data:`ENGLISH_SHARE`): not a name (a
    capitalised word past the first, or one of the puzzle's names, :data:`KNOWN_NAMES`), which
    belongs to no language ("Alice est aussi possible." is French)."""
    found = itertools.islice(
        _LETTER_WORD.finditer(_LATEX_COMMAND.sub(" ", sentence)), MAX_READ_WORDS
    )
    names = {n.casefold() for n in KNOWN_NAMES.get()}
    words = [w for i, w in enumerate(m.group() for m in found) if i == 0 or not w[0].isupper()]
    return [w.casefold() for w in words if w.casefold() not in names]


def reads_english(sentence: str) -> bool:
    """Whether the lexicon can read ``sentence``: it has words and most are English
    (:data:`ENGLISH_SHARE`, :data:`ENGLISH_ZIPF`). "Het antwoord kan ook 8 zijn.", "Bob kommt auch
    in Frage." and ``$n = 8$`` are not."""
    words = _read_words(sentence)
    if not words:
        return False
    foreign = sum(w in _FUNCTION_WORDS for w in words)
    if foreign >= 2 or (foreign and len(words) <= 2):
        return False  # "Je ne suis pas tout à fait certain.", "Non ne sono certo."
    return sum(map(_english_word, words)) >= ENGLISH_SHARE * len(words)


# a label that opens a sentence: "Tarkistus:", "验证：", "Respuesta final:"
_OPENING_LABEL = re.compile(r"^[\W_]*+(?:[^\W\d_]{1,20}+[ \t]++){0,2}?[^\W\d_]{1,20}+[ \t]*+[:：]")


# a plain statement of certainty in a language the lexicon has a table for, and nothing else
# ("Estoy seguro.", "Ich bin mir sicher.", "我很确定。"): no doubt, though not English
CERTAINTY_BY_LANGUAGE = {
    "es": (r"(?:estoy|soy)\s+(?:muy\s+|completamente\s+|totalmente\s+|bastante\s+)?segur[oa]"
           r"(?:\s+de\s+(?:ello|esto|eso))?",),
    "it": (r"(?:ne\s+)?sono\s+(?:molto\s+|completamente\s+|assolutamente\s+)?(?:sicur[oa]|cert[oa])",),
    "pt": (r"(?:tenho|estou\s+com)\s+(?:toda\s+a\s+|absoluta\s+)?certeza",
           r"estou\s+(?:muito\s+|completamente\s+)?segur[oa]"),
    "fr": (r"j['’]en\s+suis\s+(?:(?:tout\s+[àa]\s+fait|absolument|tr[eè]s|compl[eè]tement)\s+)?s[uû]re?",
           r"je\s+suis\s+(?:(?:tout\s+[àa]\s+fait|absolument|tr[eè]s|compl[eè]tement)\s+)?"
           r"(?:s[uû]re?|certaine?)",),
    "de": (r"ich\s+bin\s+(?:mir\s+)?(?:(?:ganz|v[öo]llig|absolut|sehr)\s+)?sicher",),
    "nl": (r"ik\s+ben\s+(?:er\s+)?(?:(?:heel|helemaal|volledig)\s+)?zeker",),
    "zh": (r"我(?:很|非常|完全|十分)?(?:确定|肯定)",),
    "ja": (r"(?:私は)?確信して(?:います|いる)",),
}  # fmt: skip
_CERTAINTY_ALONE = re.compile(
    rf"[\W_]*+(?:{_words(tuple(w for ws in CERTAINTY_BY_LANGUAGE.values() for w in ws))})[\W_]*+",
    re.IGNORECASE,
)


def unread_words(sentence: str, answer: str = "") -> bool:
    """Whether a sentence after an answer holds a word the lexicon cannot read: one that is no
    word of English (:func:`_english_word`), no name and no part of a label that opens the
    sentence. What the lexicon cannot read may doubt the answer in any language ("Ehkä.",
    "That is my answer, talán.", "Nem vagyok benne biztos."), so it un-commits it, unless the
    sentence is a plain statement of certainty in a tabled language (:data:`CERTAINTY_BY_LANGUAGE`:
    "Estoy seguro."); notation under a label of any language ("Tarkistus: 3 + 4 = 7.",
    "验证：2×7+1=15。", "Respuesta final: 7.": an equation that holds or ``answer`` restated) is
    read as notation ("Confianza: 60 %." is not)."""
    if _CERTAINTY_ALONE.fullmatch(sentence):
        return False  # "Estoy seguro."
    body = _OPENING_LABEL.sub("", sentence, count=1)
    words = _read_words(body)
    label = _read_words(sentence[: len(sentence) - len(body)])
    if not words and not all(map(_english_word, label)):
        # a label of another language, then notation: read only a check or the answer restated
        body = body.strip(" \t.。!$")
        return not (_true_equation(body) or (bool(answer) and same(body, answer)))
    if words and not reads_english(sentence):
        return True  # another language's function words: "Je ne suis pas tout à fait certain."
    return not all(map(_english_word, words))


# ----- the words a remark without content may use -----
# A sentence after the answer that names nothing it could check (no number, no notation, no
# quotation, no name) can only vouch for the answer or describe the check done; it is read only
# where every word is one of these (:func:`unvouched`). Doubt needs a word of its own ("I'm of two
# minds.", "Verification pending.", "Who knows."), and no list of doubt has to hold it. "Might"
# and "may" are not here: a remark that needs them names what it supposes, or it is doubt. Words
# that doubt only in a construction ("or", "guess", "reading") are here: the lists read those.
# function words
_ASSURED_FUNCTION = """
    a an the this that these those it its itself they them their there here i me my mine we us
    our you your he him his she her one ones is are was were be been being am has have had having
    do does did done don't doesn't didn't isn't aren't wasn't weren't hasn't haven't can't cannot
    and but so then thus hence therefore also both each every all any none no not nor neither
    either of for in on at by to from with without under against into onto over as than via per
    after before between through which who what where when how why just only even still indeed
    too very quite fully really truly clearly certainly definitely exactly precisely already
    again once twice thrice least let let's here's there's that's it's what's i'm i've i'd we're
    we've since because such could would should must will couldn't wouldn't shouldn't anything if
    whether while whereas initially originally earlier previously yet instead everyone everyone's
    alone more time own well equally opposite first original otherwise or
"""
# numbers in words
_ASSURED_NUMBERS = """
    zero two three four five six seven eight nine ten eleven twelve single
"""
# checking, in every form
_ASSURED_CHECKING = """
    check checks checked checking recheck rechecked rechecking double-check double-checked
    double-checking re-check re-checked re-checking verify verifies verified verifying
    verification confirm confirms confirmed confirming confirmation test tests tested testing
    substitute substitutes substituting substituted substitution plug plugging plugged back hold
    holds held holding stand stands standing satisfy satisfies satisfied satisfying match matches
    matched matching work works worked fit fits agree agrees agreed reproduce reproduces
    reproduced apply applies applied applying compute computes computed computing calculate
    calculated count counts counted counting evaluate evaluated solve solves solved simplify
    simplified expand expanded factor factored reduce reduced use uses used using give gives gave
    giving yield yields yielded make makes made making move moves moved moving shift shifts
    shifted shifting keep keeps kept fill fills filled force forces forced lead leads led create
    creates created break breaks broke fail fails failed exist exists existed find finds found
    show shows showed shown follow follows followed lie lies lied tell tells told say says said
    leave leaves left come comes came out stays stay remain remains seen see contradict
    contradicts contradicted swap swaps swapping swapped rearrange rearranging numbered rounding
    rounded fixed colored coloured feel feels pass passed passes settle settles took take takes
    hour skip skips skipped expanding simplifying factoring reducing reconsider reconsidering
    revisit revisiting ruled ruling excluded excluding eliminated rejected dismissed violated
    violates violate broken derived derive deriving working backwards forwards end reach reached
    reaching like detailed explanation questions help further happy clarify you'd you're you've
    you'll i'll we'll we'd he'd she'd they'd plausible reasonable sensible settled note noting
    noted calls asks ask read reading readings reverse reversing wait hmm actually look know want
    steps alternative alternatively table branch reason careful interchangeable guess get list
    listing v can assuming
"""
# what is checked
_ASSURED_CHECKED = """
    clue clues statement statements claim claims premise premises condition conditions constraint
    constraints rule rules assignment assignments arrangement arrangements role roles knight
    knights knave knaves knight's knave's liar liars truth truth-teller truth-tellers truthful
    truthfully lying telling honest equation equations example examples grid grids pattern
    patterns input inputs output outputs cell cells row rows column columns block blocks pair
    pairs training number numbers arithmetic computation computations calculation calculations
    sum sums product products difference quotient total totals result results value values answer
    answers solution solutions puzzle problem question task step reasoning logic case cases
    divisor divisors expression expressions operation operations addition additions subtraction
    multiplication division integer integers fraction fractions root roots term terms side sides
    order position positions place places house houses person people name names color colors
    colour colours size shape error errors omission omissions mistake mistakes slip slips
    contradiction contradictions doubt doubts way ways method methods approach everything nothing
    else same other others another rest units unit percent degrees days hours minutes seconds
    weeks months years cm km kg meters metres inches feet miles dollars cents square cubic
"""
# assurance
_ASSURED_ASSURANCE = """
    true false correct correctly right wrong valid invalid consistent consistently inconsistent
    exact unique uniquely full complete completely certain sure confident confidence positive
    high given final finally above below boxed stated listed yes good great fine ok okay non-zero
    nonzero conclusion about hope helps thanks possible impossible ambiguous clear second equal
    convinced self-check well-known known bet life conf level marks deserves initial attempt
    correction required
"""
ASSURED_WORDS = frozenset(
    " ".join(
        (
            _ASSURED_FUNCTION,
            _ASSURED_NUMBERS,
            _ASSURED_CHECKING,
            _ASSURED_CHECKED,
            _ASSURED_ASSURANCE,
        )
    ).split()
)
_SPELLED_NUMBER = re.compile(
    r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    r"ninety|hundred|thousand|million)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?+",
    re.IGNORECASE,
)
# what makes a remark one about the answer's standing: the speaker, a word of judgement, or the
# answer itself as the subject ("This is the least bad option.")
_STANCE = re.compile(
    r"\b(?:I|I['’](?:m|d|ve|ll)|me|my|mine|we|we['’](?:re|ve|d)|our|us|honestly|frankly|personally|"
    r"admittedly|candidly|verification|confidence|conviction|certainty|chances?|odds|risk|doubts?|"
    r"belief|hunch|gut|feeling|sense|guess|bet|call|judge?ment|opinion|verdict|assessment|"
    r"estimate|who[ \t]+knows|hard(?:est)?|tricky|trickiest|tough(?:est)?|difficult)\b|"
    r"^[\W_]*+(?:this|it|the[ \t]+answer)(?:['’]s|[ \t]+[a-z]+)\b|\bneeds?\b|\bleast\b|"
    r"(?:^|\bso[ \t]+)[\W_]*+(?:treat|take|handle|consider|go[ \t]+easy)\b",
    re.IGNORECASE,
)
_REMARK_CONTENT = re.compile(r"[\d=+*/^<>\\$≈×÷·√π∞{}\[\]\"“”„«»]")
_REMARK_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*+")


def unvouched(sentence: str, names_read: bool = False) -> bool:
    """Whether a remark after the answer that names nothing it could check (no number, notation,
    quotation or name: a capitalised word past the first, or a first word of the puzzle's names,
    :data:`KNOWN_NAMES`) holds a word that is not one of :data:`ASSURED_WORDS`: such a remark
    vouches for nothing the lexicon can read ("I'm of two minds here.", "Verification pending.",
    "Honestly, who knows.", "This is the least bad option."), so it un-commits the answer.
    "Every clue holds for this arrangement.", "Verified twice.", "The answer stands." are read.
    A remark about the puzzle's objects and not about the answer's standing (:data:`_STANCE`: the
    speaker, a word of judgement, the answer as the subject) is not read so ("The error term
    vanishes, so the value is exact."). ``names_read``: the puzzle's names are read as words, not
    as content (Knights and Knaves, whose remarks are about people: "Verification of Lily
    pending." vouches for nothing)."""
    if _REMARK_CONTENT.search(sentence) or _CERTAINTY_ALONE.fullmatch(sentence.strip()):
        return False
    opened = sentence.strip().lstrip("([ \t")
    but = _BUT.search(opened)
    if (
        but
        and (
            _PAST_BELIEF_OPENS.match(opened)
            or _SETTLES_RE.search(_NEGATION_ELSEWHERE_RE.sub(" ", opened[but.end() :]))
        )
    ):  # "(Initially I had Lily as a knave, but that ...)", "This might seem odd, but it checks out."
        sentence = opened[but.end() :]
    words = [m.group() for m in itertools.islice(_REMARK_WORD.finditer(sentence), MAX_READ_WORDS)]
    names = {n.casefold() for n in KNOWN_NAMES.get()}
    read = []
    for i, word in enumerate(words):
        if len(word) == 1 and word not in "aAI":
            return False  # a variable: "(x, y)"
        if _SPELLED_NUMBER.fullmatch(word):
            continue  # "Twenty-one cases were checked."
        folded = word.casefold().replace("’", "'")
        name = folded.removesuffix("'s") in names
        if name and names_read:
            continue
        if name or (word[0].isupper() and i > 0 and folded not in ("i", "i'm", "i've", "i'd")):
            return False  # a name: the remark speaks of the puzzle
        read.append(folded)
    if not (_STANCE.search(sentence) or len(read) <= MAX_FRAGMENT_WORDS):
        return False  # of the puzzle's objects, not of the answer: "The error term vanishes."
    return any(w not in ASSURED_WORDS for w in read)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split at a sentence's end or a line), in one pass, each without
    the bullet or quote mark that opens its line (:data:`_LAYOUT`)."""
    return [s for s in map(_without_layout, _SENTENCE_END.split(text)) if s.strip()]


def _without_layout(sentence: str) -> str:
    """A sentence without the layout that opens its line (:data:`_LAYOUT`)."""
    return _LAYOUT.sub("", sentence, count=1)


# the stems of the plain words of doubt ("probably", "tentative"), which an abbreviation cuts short
_DOUBT_STEMS = tuple(
    stem
    for stem in (re.sub(r"\\w[*+]$|\(\?:[^()]*\)\??$", "", w) for w in (*DOUBT, *APPROXIMATE))
    if re.fullmatch(r"[a-z]{5,}", stem)
)
_ACRONYM = re.compile(r"(?<![\w.])[A-Z]{2,7}(?![\w.])")
_CUT_WORD = re.compile(r"(?<![\w.])([A-Za-z]{2,8})\.")
_ASIDE_WORD = re.compile(r"[A-Za-z]{3,12}")
MAX_FRAGMENT_WORDS = 3  # a remark this short speaks of the answer ("Check pending.")
CUT_WORD_ZIPF = 4.5  # a word this common is itself, not the start of a word of doubt cut short
TECHNICAL_ACRONYMS = frozenset(
    {"GCD", "LCM", "QED", "ARC", "CM", "MM", "KM", "KG", "AM", "PM", "USD"}
)


def abbreviated_aside(answer: str) -> bool:
    """Whether an answer holds a bracket whose words are cut short: an abbreviation with its
    stop (``Arnold (prob.)``, ``(tent.)``), an acronym (``(IIRC)``, ``(TBC)``, ``(IMO)``; not a
    Roman numeral or one of :data:`TECHNICAL_ACRONYMS`), or the start of a word of doubt without
    its stop (``(prob)``, ``(poss)``). A bracket cut short cannot vouch for the answer."""
    for m in _ASIDE.finditer(answer):
        inside = _LATEX_COMMAND.sub(" ", m.group(1))  # "90^\\circ": notation, no word
        if _CUT_WORD.search(inside):
            return True
        for word in _ACRONYM.findall(inside):
            if word not in TECHNICAL_ACRONYMS and not _ROMAN.fullmatch(word):
                return True
        for word in _ASIDE_WORD.findall(inside):
            low = word.lower()
            if zipf_frequency(low, "en") >= CUT_WORD_ZIPF:
                continue  # a word in its own right: "see", "are", "may"
            if any(stem.startswith(low) and stem != low for stem in _DOUBT_STEMS):
                return True
    return False


def hedges(answer: str) -> bool:
    """Whether an answer qualifies itself with doubt: a word of :data:`DOUBT`,
    :data:`NOT_UNIQUE` or :data:`ODDS`, a belief (:func:`believes`), a word that makes it
    approximate (:data:`APPROXIMATE`: ``\\text{around }6``, ``6\\text{-ish}``), a question mark, a symbol of doubt, a confidence under
    100% (``7 (50% chance)``), another reading of the question (``7 (8 under a strict
    reading)``), a denial of itself (``7 \\text{ is not the answer}``), a share of confidence or an
    abbreviation in a bracket (:func:`share_aside`, :func:`abbreviated_aside`)."""
    answer = _TEXT_WRAP.sub(r"\1", answer)  # "6\\text{-ish}", "\\text{around }6"
    found = (
        DOUBT_RE.search(answer)
        or _APPROXIMATE.search(answer)
        or believes(answer)
        or CONFIDENCE_RE.search(answer)
        or ANOTHER_READING.search(answer)
        or _DENIES_ITSELF.search(answer)  # "7 \\text{ is not the answer}"
    )
    if found or PERCENT_ASIDE.search(answer) or share_aside(answer) or abbreviated_aside(answer):
        return True
    return any(c in answer for c in "?？")


def believes(text: str) -> bool:
    """Whether ``text`` states the speaker's belief, not knowledge, in the first person and the
    present tense (:data:`BELIEF_RE`: "I think", "I believe", "I suppose", "I'd say", "I feel"
    unless a word of certainty follows it, and the same verbs in :data:`BELIEF_BY_LANGUAGE`).
    Read after an answer and inside it; a lead-in that says "I think the answer is" announces
    the answer (docs/guides/rewards.md#hedges-one-lexicon-of-doubt)."""
    return bool(BELIEF_RE.search(_NEGATED_BELIEF.sub(" ", text)))


def corrects(text: str) -> bool:
    """Whether ``text`` says that what came before it is wrong (:data:`CORRECTION`: "Wait,
    that's wrong; corrected:", "Oops", "Scratch that"), not a mistake of others ("a common
    mistake")."""
    return bool(CORRECTION_RE.search(_OTHERS_MISTAKE.sub(" ", text)))


def doubts_program(text: str) -> bool:
    """Whether prose after a program doubts that it is right (docs/guides/sandbox.md#which-block-is-the-program):
    a sentence of it states a confidence below certainty as :func:`doubts` reads one, or a belief
    (:func:`believes`: "I think this works"). Prose after a program also describes it, so a
    modal or a qualifier ("could", "might", "may", "maybe", "probably", "likely") is doubt only
    where the sentence speaks of the program being right (:data:`_RIGHTNESS`: "This might fail
    on some inputs", "Probably correct"; "This could be sped up with a heap" describes); a
    sentence that offers another program is a second answer (:data:`_OFFERS_PROGRAM`: "use
    `a - b` instead", "Alternatively, ...", "If this fails, try ..."; "a dict instead of a list"
    describes; inline code is :func:`..code.inline_programs`'s); a "guess" only the speaker's ("my guess", "I guess"; "the user's guess" is the task's word),
    and a question, a correction word or a symbol lowers nothing ("How does it work? ..."); a
    sentence mostly of words the lexicon cannot read (:data:`PROSE_ENGLISH_SHARE`: "Ehkä toimii.")
    is doubt, as after any other answer (:func:`unread_words`)."""
    for sentence in sentences(text):
        if _OFFERS_PROGRAM.search(sentence):
            return True  # "If this fails, try `a - b`.", "use `return a - b` instead"
        words = _read_words(_OPENING_LABEL.sub("", sentence, count=1))
        if words and sum(map(_english_word, words)) < PROSE_ENGLISH_SHARE * len(words):
            return True  # "Ehkä toimii.": words the lexicon cannot read
        if _UNTESTED.search(sentence) or any(
            _MODAL.search(clause) and _SPEAKS_OF_RIGHTNESS.search(clause)
            for clause in _CLAUSES_OF.split(_unsettled(sentence))
        ):
            return True  # "This may fail for very large inputs.", "Untested."
        sentence = _MODAL.sub(" ", sentence)  # "This could be sped up with a heap."
        sentence = _unsettled(_NOT_MY_GUESS.sub(" ", sentence))
        plainly = _plainly(sentence)
        if DOUBT_RE.search(sentence) or DOUBT_RE.search(plainly) or CONFIDENCE_RE.search(sentence):
            return True
        if CONFIDENCE_RE.search(plainly) or _graded_below_full(plainly):  # "~60% conf."
            return True
        if believes(sentence) or NOT_CERTAIN.search(sentence) or _graded_below_full(sentence):
            return True
        if _below_certainty(sentence, plainly, ""):
            return True
    return False


def uncommits(sentence: str, answer: str = "", kind: str = "value", lead: bool = False) -> bool:
    """The rule (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): whether a sentence, a
    parenthetical or a part of an answer un-commits ``answer``: it states a confidence below
    certainty (:func:`doubts`) or offers another candidate of the answer's type
    (:func:`offers_other`; ``kind`` is one of :data:`KINDS`, or ``roles``). ``lead``: the
    sentence leads into the answer (:func:`lead_in`), where a question or a correction lowers
    nothing and a value before a closing "or" is offered beside the answer."""
    if lead and _ENDS_WITH_OR.search(sentence):  # "Either 8 or \\boxed{7}"
        values = _values(kind, answer).finditer(sentence)
        if any(_candidate(sentence, m, answer, kind) for m in values):
            return True
    return doubts(sentence, answer, lead) or offers_other(sentence, answer, kind)


def states_doubt(text: str, answer: str = "") -> bool:
    """Whether a statement of roles, or the text around it, states doubt (Knights and Knaves):
    a word of :data:`DOUBT_IN_STATEMENT` or a confidence below certainty in one of its
    sentences, read as :func:`doubts` reads them (negated or settled doubt states none, nor a
    question answered "no" at once)."""
    parts = sentences(text)
    for i, sentence in enumerate(parts):
        if sentence.rstrip().endswith("?") and DENIED.match("".join(parts[i + 1 : i + 2])):
            continue  # "Could Ava and Jack swap? No: ...": the question is answered
        sentence = _unsettled(sentence, answer)
        if DOUBT_IN_STATEMENT.search(sentence) or NOT_CERTAIN.search(sentence):
            return True
        if _margin_on(sentence, answer):  # "±1" or "Error bar: 1" after the roles
            return True
        plainly = _plainly(sentence)
        if DOUBT_IN_STATEMENT.search(plainly) or _below_certainty(sentence, plainly, answer):
            return True
        if _share_claimed_below(plainly) or _odds_alone(sentence):  # "nine in ten", "50-50."
            return True
        if _APPROXIMATE_ALONE.match(sentence):  # "Roughly." after the roles
            return True
    return False


# words of doubt and confidence written short, and what they stand for: read in full by
# :func:`_plainly` ("Conf: lo.", "Not v. sure.", "Prob. right.", "IIRC.", "~60% conf.")
ABBREVIATIONS = (
    (r"conf(?:id)?\.?", "confidence"), (r"lo", "low"), (r"med\.?", "medium"), (r"mod\.?", "moderate"),
    (r"v\.", "very"), (r"prob\.|prolly|prob(?=\s+(?:right|correct|wrong|fine|ok|true))|prbly|probs",
    "probably"), (r"(?-i:LC)", "low confidence"), (r"(?-i:MC)", "medium confidence"),
    (r"iirc|afaik|afaict|afaics|ymmv|imo|imho|ianal|iiuc", "not certain"),
    (r"def(?:o|\.)?\s+not", "not"), (r"unsure-ish|semi-sure", "not certain"),
)  # fmt: skip
_ABBREVIATION = re.compile(
    r"(?<![\w.])(?:" + "|".join(f"({short})" for short, _ in ABBREVIATIONS) + r")(?![\w])",
    re.IGNORECASE,
)
# two words joined by a hyphen read as two words: "Low-confidence answer", "not-so-sure"
# full-width forms (U+FF01..U+FF5E) are their ASCII letters, digits and signs; not all of NFKC,
# which would also read a superscript 2 as the digit 2 ("6²" as "62")
FULL_WIDTH = str.maketrans({c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20})
# a confidence in the words of a language that does not space them, read as English by
# :func:`_plainly`: its noun ("确信度", "把握", "自信") as "confidence", tenths written with 成
# ("六成" is 60%) and a share written 百分之 ("百分之七十" is 70%) in digits
CONFIDENCE_NOUNS_UNSPACED = {
    "zh": (r"确信度", r"確信度", r"自信度", r"置信度", r"确定度", r"确定性", r"可信度", r"把握度?",
           r"信心", r"信心度"),
    "ja": (r"確度", r"信頼度", r"自信", r"確信"),
    "ko": (r"확신도", r"확신", r"자신감", r"신뢰도"),
}  # fmt: skip
_CJK_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}
_CJK_DIGITS = "".join(_CJK_DIGIT)
_CONFIDENCE_UNSPACED = re.compile(
    "|".join(w for words in CONFIDENCE_NOUNS_UNSPACED.values() for w in words)
)
_CJK_TENTHS = re.compile(rf"([{_CJK_DIGITS}十])[{_CJK_DIGITS}]?成")
_CJK_SHARE = re.compile(rf"百分之([{_CJK_DIGITS}十百]{{1,4}}+|\d{{1,3}}+)")


def _cjk_number(word: str) -> int:
    """A whole number under a thousand written in Chinese numerals ("七十五" is 75, "百" 100)."""
    if word.isdigit():
        return int(word)
    total, digit = 0, 0
    for c in word:
        if c in "十百":  # the digit before it (one where none is written) times ten or a hundred
            total += (digit or 1) * (10 if c == "十" else 100)
            digit = 0
        else:
            digit = _CJK_DIGIT[c]
    return total + digit


def _cjk_confidence(text: str) -> str:
    """``text`` with a confidence written in Chinese, Japanese or Korean words as English."""
    if text.isascii():
        return text
    text = text.translate(FULL_WIDTH)
    text = _CJK_TENTHS.sub(lambda m: f" {_cjk_number(m[1]) * 10}% ", text)
    text = _CJK_SHARE.sub(lambda m: f" {_cjk_number(m[1])}% ", text)
    return _CONFIDENCE_UNSPACED.sub(" confidence ", text)


_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def _in_full(m: re.Match) -> str:
    return ABBREVIATIONS[m.lastindex - 1][1]


# the words of a share, whose number words :func:`_plainly` writes in digits
_SHARE_WORDS = re.compile(r"\b(?:percent|per[ \t]*+cent|in[ \t]++(?:ten|a[ \t]++hundred|twenty|five|four|three)|"
                          r"out[ \t]++of)\b", re.IGNORECASE)  # fmt: skip
# a share the speaker claims: "I'd put it at 9 in 10", "Say 9 in 10 it's right", "I'm about 90
# percent there" (below its whole: doubt)
_SHARE_CLAIMED = re.compile(
    r"(?:\b(?:I['’]d|I[ \t]+would|say|put[ \t]+(?:it|this|that)|I['’]m|I[ \t]+am)\b[^.!?\n\d]{0,30}?)"
    r"(?<![\d.])(?P<num>\d{1,3}(?:\.\d{1,6})?)[ \t]*+(?:(?:in|out[ \t]+of)[ \t]++(?P<den>\d{1,3})(?!\d|\.\d)|"
    r"(?P<pct>%|percent\b|per[ \t]*+cent\b))|"
    # "Ninety percent there.", "About 90% of the way there."
    r"(?<![\d.])(?P<there>\d{1,3}(?:\.\d{1,6})?)[ \t]*+(?:%|percent\b|per[ \t]*+cent\b)[ \t]*+"
    r"(?:of[ \t]+the[ \t]+way[ \t]+)?there\b|"
    # "Nine times out of ten I'd get this right.", "9 out of 10 times it's right"
    r"(?<![\d.])(?P<often>\d{1,3})[ \t]++(?:times[ \t]++)?(?:out[ \t]+of|in)[ \t]++(?P<of>\d{1,3})"
    r"(?:[ \t]++times)?\b(?=[^.!?\n]{0,40}?\b(?:right|correct|get|works?|holds?)\b)",
    re.IGNORECASE,
)


# odds alone as a sentence after the answer: "Evens.", "50-50.", "Roughly 60-40." (a split of a
# hundred; inside an answer "0-0" is arithmetic)
_ODDS_ALONE = re.compile(
    r"^[\W_]*+(?:(?:roughly|about|around|maybe|say|call[ \t]+it)[ \t]++)?(?:(?P<a>\d{1,2})[ \t]*+[-–]"
    r"[ \t]*+(?P<b>\d{1,2})|evens)[\W_]*+$",
    re.IGNORECASE,
)


def _odds_alone(sentence: str) -> bool:
    m = _ODDS_ALONE.match(sentence)
    return bool(m) and (not m["a"] or int(m["a"]) + int(m["b"]) == 100)


def _share_claimed_below(plainly: str) -> bool:
    """Whether a sentence claims a share below its whole for the answer (:data:`_SHARE_CLAIMED`)."""
    for m in _SHARE_CLAIMED.finditer(plainly):
        if m["there"]:
            if float(m["there"]) < 100:
                return True
            continue
        if m["often"]:
            if float(m["often"]) < float(m["of"]):
                return True
            continue
        whole = 100.0 if m["pct"] else float(m["den"] or 0)
        if whole and float(m["num"]) < whole:
            return True
    return False


def _plainly(sentence: str) -> str:
    """A sentence as written plainly: a word spelled long or with digits for letters
    ("maaaybe", "pr0bably") as the word, a short form in full (:data:`ABBREVIATIONS`: "Conf:
    lo." as "confidence: low"), words joined by a hyphen as two ("Low-confidence"), a logical
    "not" sign as "not" ("(¬certain)"), odds in number words in digits ("three-to-one on" as "3
    to 1 on", :func:`_odds_in_digits`), a common fraction in words in digits ("two-thirds" as
    "2/3")."""
    plainly = _LEET.sub(lambda m: "oie"["013".index(m.group())], _ELONGATED.sub(r"\1", sentence))
    plainly = _cjk_confidence(plainly)
    if _SHARE_WORDS.search(plainly):  # "nine in ten", "eighty percent": a share in digits
        plainly = alpha2digit(plainly, "en")
    plainly = _ABBREVIATION.sub(_in_full, plainly)
    plainly = _FRACTION_IN_WORDS.sub(
        _fraction_in_digits, _odds_in_digits(_NOT_SIGN.sub("not ", plainly))
    )
    return _WORD_HYPHEN.sub(" ", plainly)  # after the odds: "Seventy-thirty" is odds


# a sentence that is only a word making the answer approximate: "\\boxed{5}-ish.", ", roughly."
_APPROXIMATE_ALONE = re.compile(
    rf"^[\W_]*+(?:ish|{_words(APPROXIMATE)}|or[ \t]+so|more[ \t]+or[ \t]+less|give[ \t]+or[ \t]+take)[\W_]*+$",
    re.IGNORECASE,
)


def _below_certainty(sentence: str, plainly: str, answer: str) -> bool:
    """:func:`_confidence_below_certainty` of a sentence as written or as written plainly."""
    return _confidence_below_certainty(sentence, answer) or (
        plainly != sentence and _confidence_below_certainty(plainly, answer)
    )


# a guess placed before the answer ("my earlier guess of 8", "I initially guessed 8"): a step of
# the work, whose value is judged as any other named after the answer (offered unless rejected)
_EARLIER_GUESS = re.compile(
    r"\b(?:that|this)\s+guess(?=\s+(?:is|was|would\s+be)\s)|"  # "..., but that guess is wrong"
    r"(?:\b(?:my|the|an?|our|that)\s+(?:very\s+)?(?:earlier|first|initial|original|previous|"
    r"prior|old|early|naive|quick)\s+guess(?:es)?|\b(?:I|we)\s+(?:initially|first|originally|"
    r"earlier|at\s+first)\s+guessed)\b",
    re.IGNORECASE,
)


# a belief placed before the answer, anywhere in a sentence: a step of the work, whose value or
# assignment is judged as any other ("I first thought Noah was a knight, but that contradicts
# Lily's statement.", "My initial guess was ..."); Knights and Knaves reads it
PAST_BELIEF = re.compile(
    r"\b(?:I|we)\s+(?:initially|first|originally|earlier|at\s+first)\s+(?:thought|guessed|believed|"
    r"assumed|suspected|figured)\b|\b(?:my|our)\s+(?:initial|first|earlier|original|previous)\s+"
    r"(?:guess|thought|hunch|assumption|idea)\b",
    re.IGNORECASE,
)
# ... and one that opens a sentence: "I initially thought ...", "At first I counted ..."
_PAST_BELIEF_OPENS = re.compile(
    r"^[\W_]*+(?:(?:at\s+first|initially|originally|earlier)\s*+,?\s*+)?(?:I|we)\s+(?:(?:initially|first|"
    r"originally|earlier|at\s+first)\s+)?(?:thought|counted|got|believed|assumed|guessed|computed|found|"
    r"read|took|wrote|had|said|put|gave|answered)\b",
    re.IGNORECASE,
)
# a "but" clause that only limits a stake: "but not heavily", "but not my house"
_STAKE_LIMITED = re.compile(
    r"[ \t,]*+not[ \t]++(?:heavily|much|a[ \t]+lot|more|too[ \t]+much|everything|big|a[ \t]+fortune|"
    r"the[ \t]+(?:house|farm)|my[ \t]+(?:house|life|savings|salary|car|shirt))\b[\W_]*+$",
    re.IGNORECASE,
)


_NO_CONTRADICTION = re.compile(
    r"\b(?:no|without|zero|free\s+of|not\s+(?:a|any|one)|never\s+(?:a|any)|nor)\s+(?:\w+\s+)?contradict\w*",
    re.IGNORECASE,
)


_REJECTION_DENIED_RE = re.compile(
    rf"\b{REJECTION_DENIED}[ \t]++(?P<object>[^,.;:!?\n]{{1,40}}+)", re.IGNORECASE
)


def _of_answer_only(text: str, answer: str) -> bool:
    """Whether ``text`` names the answer and no other value of its type."""
    return bool(answer) and restates(text, answer) and not offered_values(text, answer)


def _unsettled(sentence: str, answer: str = "") -> str:
    """The part of a sentence whose doubt stands: without doubt under a negation ("no doubt",
    "not ambiguous"), and only the "but" clause where it settles what came before ("One might
    guess 8, but that fails", "It might seem surprising, but it checks out"), and without a
    correction said of others or of another value ("a common mistake", "54 is wrong"), without
    the alternative words of a sentence that reaches the same result or names another way to see
    the answer ("one can see this by ..."), and without a chance that
    is the answer's own value ("a 2/3 chance that ..." for the answer 2/3), and nothing where a
    word that refers back calls another value it names wrong ("8, which is wrong")."""
    sentence = _OTHERS_MISTAKE.sub(" ", _NEGATED_DOUBT.sub(" ", _ALL_IN.sub(" ", sentence)))
    sentence = _REJECTION_DENIED_RE.sub(  # "Nothing rules out 7" of the answer 7: no doubt
        lambda m: " " if _of_answer_only(m["object"], answer) else m.group(), sentence
    )
    sentence = _EARLIER_GUESS.sub(  # a step, judged as a value; "that guess" refers back
        lambda m: " that" if m.group()[:4].lower() in ("that", "this") else " my earlier answer",
        sentence,
    )
    sentence = _VALUE_WRONG.sub(
        lambda m: m.group() if _is_answer(m["value"], answer) else " ", sentence
    )
    if _SAME_RESULT.search(sentence) or _SEES_IT.search(sentence):  # a check, another way
        sentence = ALTERNATIVE_RE.sub(" ", sentence)
    sentence = _VALUE_CHANCE.sub(
        lambda m: " " if _is_chance_answer(m["value"], answer) else m.group(), sentence
    )
    wrong = _WRONG_BACK_RE.search(sentence)
    if wrong and offered_values(sentence[: wrong.start()], answer):
        return ""  # "One might answer 8 by forgetting the 1, but that is wrong": 8 rejected
    but = _BUT.search(sentence)
    if but and _PAST_BELIEF_OPENS.match(sentence):
        return sentence[but.end() :]  # "I initially thought it was Bob, but clue 3 ...": a step
    if but and _STAKE_LIMITED.match(sentence, but.end()):
        return sentence  # "I'd bet on it, but not heavily": the stake limited, nothing settled
    if but and _SETTLES_RE.search(_NEGATION_ELSEWHERE_RE.sub(" ", sentence[but.end() :])):
        return sentence[but.end() :]  # it rejects or confirms, not only keeps the answer
    return sentence


def _is_chance_answer(value: str, answer: str) -> bool:
    """Whether a chance named in a sentence ("2/3", "50%") is the answer's own value."""
    value = "".join(value.split())
    if value.endswith("%"):
        number = _number(value.rstrip("%").rstrip("\\"))
        return (
            number is not None
            and _number(answer) is not None
            and (abs(number / 100 - _number(answer)) < 1e-9)
        )
    return bool(answer) and _number(value) is not None and same(value, answer)


def lead_in(text: str) -> str:
    """The sentence that introduces a final answer: the last sentence of the text before it in
    its own paragraph, else of the paragraph before (the reasoning before that is not read); a
    math delimiter that opens the answer's formula (``$``, ``\\[``) is no sentence. A sentence
    with no number, formula or role (an announcement, "Therefore, the final answer is", or a
    remark, "I pick one:", "Hard to say.") is no step of the reasoning and says nothing of the
    answer's value, so the sentence before it leads in with it where that is a question or no
    step itself (a step computes or states a role): "I'm not certain. Therefore, the final answer
    is", "Is it 7 or 8? I'll go with", "It's 7 or 8. My pick:" (a choice posed and picked with
    no step between is left open), not "I first guessed 8, but 2 · 8 + 1 = 17. So the answer
    is"."""
    text = text.rstrip()
    while text.endswith(_MATH_OPENERS):  # "... I pick one: $" before the box
        text = text[: -2 if text.endswith(_MATH_OPENERS[1:]) else -1].rstrip()
    paragraphs = [p for p in _PARAGRAPH.split(text) if _WORD_CHAR.search(p)]
    found = sentences(paragraphs[-1]) if paragraphs else []
    if found and not _STEP_MARK.search(found[-1]):
        before = found[:-1] or (sentences(paragraphs[-2]) if len(paragraphs) > 1 else [])
        if before and (before[-1].rstrip().endswith("?") or not _is_step(before[-1])):
            return f"{before[-1]} {found[-1]}"
    return found[-1] if found else ""


def _bracketed(depth: int) -> str:
    """A run of characters with brackets balanced up to ``depth`` deep, each level at most 60
    units long (possessive, and a bracket opens no other branch: linear)."""
    unit = r"[^()\[\]=\n]"
    for _ in range(depth):
        unit = rf"(?:[^()\[\]=\n]|\({unit}{{0,60}}+\))"
    return rf"{unit}{{1,60}}+"


# a probability or a weight given to a value in notation ("P(43)=0.4", "P(answer=42) = 0.6",
# "Pr(25*2-7-3) ≈ 0.3", "P(((95-80)+33)-46)=0.3", "likelihood(8)=0.45", "score(8) = 0.45"; not a
# function of mathematics, "sin(30) = 0.5") or a distribution over values ("{42: 0.7, 43: 0.3}")
_VALUE_PROBABILITY = re.compile(
    r"(?<!\\)\b(?!(?:sin|cos|tan|cot|sec|csc|arc\w+|sinh|cosh|tanh|log|ln|exp|sqrt|gcd|lcm|floor|ceil|"
    r"abs|mod|min|max|det|deg|round)\b)(?:P|[A-Za-z]{2,20}+)[ \t]*+[(\[][ \t]*+"
    r"(?:(?:answer|ans|result|correct)[ \t]*+=[ \t]*+)?"
    + _bracketed(4)
    + r"[)\]][ \t]*+(?:=|≈|~|:|\\approx)[ \t]*+(?:0?\.\d|\d{1,2}(?:\.\d+)?[ \t]*+\\?%|\\frac|\d+[ \t]*+/)|"
    r"\{[^{}:\n]{1,40}+:[ \t]*+0?\.\d+[ \t]*+,[^{}:\n]{1,40}+:[ \t]*+0?\.\d+",
)


# a share under a label of likelihood, where the answer is no probability: "Likelihood ~ 0.7",
# "Odds ≈ 0.7", "Probability: 0.6"
_SHARE_LABEL = re.compile(
    r"\b(?:likelihood|odds|probability|chance|plausibility)[ \t]*+(?:[:=~≈]|\\approx\b)[ \t]*+"
    r"(?:about[ \t]++|around[ \t]++|~[ \t]*+)?+(?:0?\.\d|\d{1,2}(?:\.\d+)?[ \t]*+\\?%)",
    re.IGNORECASE,
)


# a share the speaker puts on the answer: a sentence of the speaker's (or about "this"/"it")
# whose one number is a percentage, computing nothing ("I'd put this at about 55%.", "My
# estimate for this: 60%.")
_SHARE_PUT = re.compile(r"(?<![\d.,])(?P<num>\d{1,2}(?:[.,]\d+)?)\s*(?:\\?%|percent\b)", re.I)
_ABOUT_ANSWER = re.compile(r"\b(?:this|it|that|answer|result|solution|assignment)\b", re.I)


def _share_put_on_answer(sentence: str, answer: str) -> bool:
    found = _SHARE_PUT.search(sentence)
    if not found or "=" in sentence or len(_NUMBER_VALUE.findall(sentence)) != 1:
        return False
    speaker = _FIRST_PERSON.search(sentence) and not _LET_ME.search(sentence)
    if not (speaker and _ABOUT_ANSWER.search(sentence)):
        return False
    share = float(found["num"].replace(",", "."))
    value = _number(answer.replace("\\%", "").replace("%", ""))
    return share < 100 and value not in (share, share / 100)


def _confidence_below_certainty(sentence: str, answer: str) -> bool:
    if _share_put_on_answer(sentence, answer):
        return True  # "I'd put this at about 55%."
    value = _number(answer)
    if not (value is not None and 0 <= value <= 1) and (
        _VALUE_PROBABILITY.search(sentence) or _SHARE_LABEL.search(sentence)
    ):
        return True  # where the answer is no probability itself: "P(43)=0.4", "Likelihood ~ 0.7"
    if _OF_BEING_RIGHT.search(sentence) and _PROBABILITY.search(sentence):
        shares = numerals(sentence)  # "two thirds", "three in four": in digits
        for m in _SHARE.finditer(shares):  # "P(correct) ≈ 0.6", "Likelihood of being right: 60%"
            share = _share(m)
            if share is not None and 0 < share < 1 and not same(m.group().rstrip("%"), answer):
                return True
    splits = [int(m[1]) + int(m[2]) for m in (*_SPLIT.finditer(sentence),
                                              *_SPLIT_AT_END.finditer(sentence))]  # fmt: skip
    shares = [int(m[1]) for m in _SHARE_OF_HUNDRED.finditer(sentence)]
    if "=" not in sentence and (100 in splits or (len(shares) > 1 and sum(shares) == 100)):
        return True  # "I'd give him 70/30 knave", "60/40 over Bob", "Arnold 55%, Bob 45%"
    for m in (*CONFIDENCE_NUMBER.finditer(sentence), *_SHARE_BEFORE_CERTAINTY.finditer(sentence)):
        value = _confidence_value(m)
        bare = not (m.group("den") or m.group("pct"))
        if value is not None and value < 1 and not (bare and same(m.group("num"), answer)):
            return True
    return False


# an aside in brackets and what may stand in it beside a share of confidence
_ASIDE = re.compile(r"\(([^()\n]{1,60}+)\)")
_SHARE_ASIDE_WORDS = re.compile(
    r"\b(?:confiden(?:ce|t)|conf|sure|certain(?:ty)?+|likel(?:y|ihood)|probab(?:ility|ly|le)|prob|p|pr|"
    r"chances?|odds|credence|belief|approx(?:imately)?+|about|around|roughly|estimated?|my|of|on|"
    r"it|this|that)\b|[=~≈]|(?<!\d):",
    re.IGNORECASE,
)
_SHARE_ALONE = re.compile(
    r"[ \t]*+(?P<num>\d{1,3}+(?:\.\d{1,6}+)?+|\.\d{1,6}+)(?:[ \t]*+(?P<sep>/|out[ \t]++of|in|to|:)"
    r"[ \t]*+(?P<den>\d{1,3}+))?+[ \t]*+(?P<pct>\\?%|percent)?+[ \t]*+",
    re.IGNORECASE,
)
# what stands around an aside: a space, a box's end or nothing before it, a space, a stop or
# nothing after it
_APART = re.compile(r"[\s}]?+[\s.,;:!]?+")
_OPERATOR_BEFORE = re.compile(r"(?:[-+*/×÷·^=<>]|\\(?:cdot|times|div))[ \t]*+$")
_OPERATOR_AFTER = re.compile(r"[ \t]*+(?:[-+*/×÷·^=<>]|\\(?:cdot|times|div))")
_GRADED_ASIDE = re.compile(
    r"(?:confidence|certainty|likelihood|probability|credence|chances?)[ \t]*+[:=]?+[ \t]*+"
    r"(?P<grade>[a-z]{2,12}+(?:[ \t]++[a-z]{2,12}+)?+)",
    re.IGNORECASE,
)


def share_aside(text: str, answer: str = "") -> bool:
    """Whether ``text`` holds an aside in brackets that is a share of confidence below certainty
    and nothing else, in any number form, with or without its word: "(7/10 confidence)",
    "(confidence 7/10)", "(p = 0.6)", "(two to one)", "(2:1 odds)", "(0.7)". Odds (``to``, ``:``)
    count only in words or beside a word of confidence (a bare ``(3:2)`` may be a ratio); a share
    that is the answer's own value ("(0.5)" after ``\\frac{1}{2}``) is a restatement."""
    for m in _ASIDE.finditer(text):
        words = m.group(1)
        digits = _ASIDE_NUMBER.sub(lambda w: _ASIDE_NUMBER_VALUES[w.group().lower()], words)
        stripped = _SHARE_ASIDE_WORDS.sub(" ", digits)
        graded = _GRADED_ASIDE.fullmatch(words.strip())
        if graded and not _FULL_CONFIDENCE.fullmatch(graded["grade"]):
            return True  # "(likelihood moderate)", "(confidence: fair)"; not "(confidence high)"
        share = _SHARE_ALONE.fullmatch(stripped)
        if not share:
            continue
        worded = stripped != digits or digits != words  # a word of confidence, or odds in words
        if not worded and (
            not _APART.fullmatch(text[: m.start()][-1:] + text[m.end() :][:1])
            or _OPERATOR_BEFORE.search(text, 0, m.start())
            or _OPERATOR_AFTER.match(text, m.end())
        ):
            continue  # "8 / (1/3) = 24", "φ(50)·(1/2)": a bracket of arithmetic, no aside
        num, den, sep = float(share["num"]), share["den"], (share["sep"] or "").lower()
        if sep in ("to", ":"):
            if worded and float(den) > 0:
                return True  # "(two to one)", "(2:1 odds)": odds short of certainty
            continue
        if den:
            value = num / float(den) if float(den) else None
        elif share["pct"]:
            value = num / 100
        else:
            value = num if 0 < num < 1 or worded else None
        if value is None or not 0 <= value < 1:
            continue
        spelled = share.group().strip()
        if answer and (same(spelled, answer) or same(str(value), answer)):
            continue  # the answer's own value: "(0.5)" after 1/2
        return True
    return False


def _confidence_value(m: re.Match) -> float | None:
    """The share a stated confidence gives (``0.6``, ``6/10``, ``70 percent``); a whole number
    with no whole to take it from ("I'd say 7") is none."""
    num = float(m.group("num"))
    if m.group("den"):
        return num / float(m.group("den")) if float(m.group("den")) else None
    if m.group("pct"):
        return num / 100
    return num if num <= 1 else None


def _graded_below_full(sentence: str) -> bool:
    """Whether a sentence grades its confidence in anything but full words or a number
    (:data:`FULL_CONFIDENCE`; numbers are read by :func:`_confidence_below_certainty`):
    "Confidence: B-", "Confidence: ★★★☆☆"."""
    for m in _CONFIDENCE_LABEL.finditer(sentence):
        grade = m.group("grade")
        if _FULL_CONFIDENCE.fullmatch(grade) or grade[:1].isdigit():
            continue
        return True
    return False


def unread_symbol(text: str) -> bool:
    """Whether ``text`` holds a symbol that stands for words (an emoji, a kaomoji's marks: any
    character of category So or Sk beyond ASCII) other than those a response may close with
    (:data:`CLOSING_SYMBOLS`)."""
    return any(
        ord(c) > 0x7F and c not in CLOSING_SYMBOLS and unicodedata.category(c) in ("So", "Sk")
        for c in text
    )


_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORD = {w: str(i) for i, w in enumerate(_ONES)} | {
    w: f"{i + 2}0" for i, w in enumerate(_TENS)
}
# the numbers in words a share in a bracket may use: "(two to one)", "(seven in ten)"
_ASIDE_NUMBER_VALUES = _NUMBER_WORD | {"eleven": "11", "twelve": "12", "hundred": "100"}
_ASIDE_NUMBER = re.compile(rf"\b(?:{'|'.join(_ASIDE_NUMBER_VALUES)})\b", re.IGNORECASE)
_ODDS_IN_WORDS = re.compile(
    rf"\b({'|'.join(_NUMBER_WORD)})(?:[- ]to[- ]|[-/])({'|'.join(_NUMBER_WORD)})\b", re.IGNORECASE
)


# a common fraction in words: "two-thirds", "three quarters", "one half" (not "a third", which
# is as often an ordinal: "a third option")
_DENOMINATOR_WORD = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                     "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
                     "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9,
                     "ninths": 9, "tenth": 10, "tenths": 10}  # fmt: skip
_FRACTION_IN_WORDS = re.compile(
    rf"\b({'|'.join(w for w in _NUMBER_WORD if 0 < int(_NUMBER_WORD[w]) < 10)})[- ]"
    rf"({'|'.join(_DENOMINATOR_WORD)})\b",
    re.IGNORECASE,
)


def _fraction_in_digits(m: re.Match) -> str:
    return f"{_NUMBER_WORD[m[1].lower()]}/{_DENOMINATOR_WORD[m[2].lower()]}"


def _odds_in_digits(sentence: str) -> str:
    """``sentence`` with odds written in words as digits: "three-to-one" as "3 to 1",
    "seventy-thirty" as "70/30" (a compound number, "twenty-one", is no odds: the first word
    of a split is a ten, or the odds have "to")."""

    def digits(m: re.Match) -> str:
        a, b = _NUMBER_WORD[m[1].lower()], _NUMBER_WORD[m[2].lower()]
        joined = " to " if "to" in m.group().lower() else "/"
        if joined == "/" and not (a.endswith("0") and b.endswith("0")):
            return m.group()  # "twenty-one": a number
        return f"{a}{joined}{b}"

    return _ODDS_IN_WORDS.sub(digits, sentence)


def _margin_on(sentence: str, answer: str) -> bool:
    """Whether a sentence gives the answer a margin: on the answer named ("Answer: 7 ± 1"), on
    the answer just given (a sentence that opens with the sign, "\\pm 1"), a spread named by its
    noun ("Error bar: ±1.", "Margin of error: 1") or a range of values the answer is not
    ("Range: 6–8."; "Range: [0, 4]" restates the answer [0, 4])."""
    sentence = plain_symbols(sentence)
    if _MARGIN_OPENS.match(sentence) or _SPREAD_STATED.search(sentence):
        return True
    for m in itertools.chain(_RANGE_STATED.finditer(sentence), _BOUNDS_STATED.finditer(sentence)):
        if _NUMBER.findall(numerals(answer)) != [m["low"], m["high"]]:
            return True
    return bool(answer) and any(
        same(m.group("value"), answer) for m in _PLUS_MINUS.finditer(sentence)
    )


def doubts(sentence: str, answer: str = "", lead: bool = False) -> bool:
    """Whether a sentence states a confidence below certainty in ``answer``: a word of doubt, of
    odds or of an answer that is not unique, a confidence under 100%, odds that split a hundred
    ("70/30"), a question, or a
    statement that the answer is wrong (not in the ``lead``-in before the answer, where a
    question or a correction leads to it). Doubt under a negation ("no doubt", "not
    ambiguous") states none, nor doubt that a "but" clause settles ("One might guess 8, but that
    fails"). A percentage in brackets that is the answer itself (``\\frac12`` then "(50%)")
    states none."""
    if share_aside(sentence, answer):
        return True  # "(7/10 confidence)", "(p = 0.6)", "(two to one)"
    sentence = _unsettled(sentence, answer)
    plainly = _plainly(sentence)
    if DOUBT_RE.search(sentence) or DOUBT_RE.search(plainly) or CONFIDENCE_RE.search(sentence):
        return True
    if CONFIDENCE_RE.search(plainly):  # "~60% conf."
        return True
    if not lead and believes(sentence):
        return True
    if NOT_CERTAIN.search(sentence) or NOT_CERTAIN.search(plainly) or _margin_on(sentence, answer):
        return True  # "not 100% sure"; "Answer: 7 ± 1", a margin on the value
    if _graded_below_full(sentence) or _graded_below_full(plainly) or unread_symbol(sentence):
        return True  # "Confidence: B-", "Conf=med."
    if _below_certainty(sentence, plainly, answer):  # "Seventy-thirty it's right."
        return True
    if _share_claimed_below(plainly) or (not lead and _odds_alone(sentence)):
        return True  # "I'd put it at nine in ten.", "I'm about 90 percent there.", "50-50."
    if _APPROXIMATE_ALONE.match(sentence):  # "\\boxed{5}-ish.", "\\boxed{5}, roughly."
        return True
    if not lead and _LOWERS.search(sentence):
        return True
    if (
        not lead
        and _CONTRADICTS.search(_NO_CONTRADICTION.sub(" ", sentence))  # "no contradictions": none
        and not CONDITION_RE.search(sentence)
        and not _CHANGE_OPENS.match(sentence)  # "Flipping clue 2 gives a contradiction."
    ):
        return True
    for m in itertools.chain(
        PERCENT_ASIDE.finditer(sentence), _PERCENT_AFTER_DASH.finditer(sentence)
    ):
        percent = _PERCENT_VALUE.search(m.group())
        value = float(percent.group().replace(",", ".")) if percent else None
        if value is None or not (same(str(value / 100), answer) or same(str(value), answer)):
            return True
    return False


# a value kept in play by whatever says it ("A faint voice says 8.", "There's a nagging voice
# saying Bob.", "In my head I also got 8 once"): any sayer but the puzzle's own material ("Clue 4
# says Bob is in house 3.", "The example gives 0 0 3 3.")
SAYING = (
    r"says", r"saying", r"said", r"whispers?", r"whispering", r"suggests?", r"suggesting",
    r"insists?", r"insisting", r"tells?\s+me", r"telling\s+me", r"points?\s+(?:to|at)",
    r"pointing\s+(?:to|at)", r"nags?\s+(?:me\s+)?(?:about|with)",
    # a revision offered: "Ready to revise to 8 if needed.", "Happy to switch to 8."
    r"(?:revis|switch|chang|updat|amend)\w*(?:\s+(?:it|this|that|my\s+answer|the\s+answer))?\s+to", r"(?:also|earlier|initially|first|once)\s+"
    r"(?:got|had|found|came\s+up\s+with|arrived\s+at|considered)",
)  # fmt: skip
_SAYING = re.compile(rf"\b(?:{_words(SAYING)})\b[ \t:,]*+", re.IGNORECASE)
PUZZLE_SAYERS = (
    r"clues?", r"statements?", r"examples?", r"rules?", r"questions?", r"problems?", r"puzzles?",
    r"hints?", r"conditions?", r"checks?", r"equations?", r"formulas?", r"inputs?", r"outputs?",
    r"grids?", r"tests?", r"data", r"tables?", r"constraints?", r"premises?", r"tasks?", r"prompt",
    r"definitions?", r"theorems?", r"patterns?", r"pairs?", r"substitut\w*", r"plugging",
)  # fmt: skip
_PUZZLE_SAYER = re.compile(rf"\b(?:{_words(PUZZLE_SAYERS)})\b", re.IGNORECASE)
# a choice between the answer and another left undecided: "No strong reason to prefer it over
# 8.", "Nothing clearly favours it over 8.", "Nothing really separates her from Bob."
_UNDECIDED_BETWEEN = re.compile(
    r"\b(?:no|nothing|not|never|hardly|little|nobody|cannot|[a-z]{2,5}n['’]t|hard\s+to)\b"
    r"[^.;!?\n]{0,40}?\b(?:prefer\w*|favou?r\w*|separat\w*|distinguish\w*|decid\w*\s+between|"
    r"choos\w*\s+between|tell\w*\s+(?:\w+\s+)?apart)\b",
    re.IGNORECASE,
)


# a ranking of candidates: "Ranking: 7 > 8 > 6", "Order of likelihood: Arnold, Bob, Alice", names
# ordered by ">" ("arnold > bob > alice")
_RANK_LABEL = re.compile(
    r"\b(?:rank(?:ing|ed|s)?|(?:order|ordering)[ \t]+(?:of|by)[ \t]+(?:likelihood|preference|"
    r"plausibility|probability|confidence)|(?:likelihood|preference|plausibility)[ \t]+order)\b",
    re.IGNORECASE,
)
_NAMES_RANKED = re.compile(r"[A-Za-z][ \t]*+[>≻][ \t]*+[A-Za-z]")


# the operations of a derivation in words: "subtract 1 from both sides and divide by 2"
_OPERATION_WORDS = re.compile(
    r"\b(?:subtract\w*|add\w*|divid\w*|multipl\w*|plug\w*|substitut\w*|solv\w*|isolat\w*|"
    r"simplif\w*|expand\w*|factor\w*|rearrang\w*|comput\w*|calculat\w*)\b",
    re.IGNORECASE,
)


_OPERAND_BEFORE = re.compile(
    rf"(?:{_OPERATION_WORDS.pattern}|\b(?:by|from|times|plus|minus|over|of))[ \t$(]*+$",
    re.IGNORECASE,
)


def _derives_answer(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence is a derivation that ends in the answer: it computes or names the
    operations of one, and the last thing it states is the answer ("Another way: n = (15-1)/2 =
    7.", "Alternatively, subtract 1 from both sides and divide by 2: n = 7."). Its other numbers
    are the derivation's operands."""
    if not answer or not (_computes(s) or _OPERATION_WORDS.search(s)):
        return False
    values = list(_values(kind, answer).finditer(s))
    if not values or not _is_answer(values[-1].group().strip().replace("$", ""), answer):
        return False
    if s[values[-1].end() :].strip(" \t.!$)"):
        return False
    for v in values[:-1]:  # every other value an operand: "subtract 1", "divide by 2", "15 - 1"
        before = s[max(0, v.start() - 25) : v.start()]
        if not (_computed(s, v.start(), v.end()) or _OPERAND_BEFORE.search(before)):
            return False
    return True


# a candidacy granted to what follows: "Some chance of 8 remains.", "The clues also seem to allow
# Peter.", "Nothing stops it being Bob" is :data:`REJECTION_DENIED`'s
_GRANTED_TO = re.compile(
    r"\b(?:chance|possibility|likelihood|probability|prospect)[ \t]++(?:of|for)[ \t]++(?:it[ \t]++being[ \t]++)?+|"
    r"\b(?:also|too|equally|still|even|as[ \t]++well)[ \t]++(?:[a-z]++[ \t]++){0,2}?(?:allows?|permits?|admits?|"
    r"supports?|accommodates?|fits?|match(?:es)?|licen[cs]es?)[ \t]++",
    re.IGNORECASE,
)
# what may follow the candidate granted: the clause's end or a verb of remaining ("of 8 remains"),
# not a noun it counts ("the probability of 3 heads")
_GRANT_ENDS = re.compile(
    r"[ \t]*+(?:[.,;:!?)]|$|(?:remains?|stays?|exists?|is|left|too|as[ \t]++well|though|still)\b)",
    re.IGNORECASE,
)


def _kept_in_play(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence keeps another candidate in play without offering it in so many words:
    said by a sayer that is no part of the puzzle (:data:`SAYING`, :data:`PUZZLE_SAYERS`), the
    subject of a clause, whatever its verb, in a sentence of the speaker's ("Though honestly 8
    keeps nagging me"), ranked beside it (:data:`_RANK_LABEL`), or named in a choice left
    undecided (:data:`_UNDECIDED_BETWEEN`)."""
    for m in _SAYING.finditer(s):
        clause = s[: m.start()].rsplit(";", 1)[-1]
        if _PUZZLE_SAYER.search(clause):
            continue
        if _candidate_after(s, m.end(), answer, kind, gap=True, whole=True):
            return True
    if _FIRST_PERSON.search(s) and not _LET_ME.search(s):  # "Still, 8 keeps coming back to me."
        for v in _values(kind, answer).finditer(s):
            if _clause_start(s, v) and _offered(s, v, answer, kind):
                return True
    ranked = _RANK_LABEL.search(s) or (kind == "name" and _NAMES_RANKED.search(s))
    if ranked and kind != "roles":  # "Ranking: 7 > 8 > 6", "arnold > bob > alice"
        for v in _values(kind, answer).finditer(s):  # a ">" ranks here: it computes nothing
            value = v.group().strip(" .,;:")
            if _number(value) is not None and not same(value, answer):
                return True
            if _candidate(s, v, answer, kind):
                return True
    if (m := _UNDECIDED_BETWEEN.search(s)) and kind != "roles":
        return any(
            _candidate(s, v, answer, kind) for v in _values(kind, answer).finditer(s, m.end())
        )
    return False


# a set of candidates left undecided: the answer named with another as "one of", "either of",
# "a tie between", "leaves", "comes down to", "narrows to", "remain" ("One of Arnold and Bob.",
# "The clues leave 7 and 8."); or "one of the two" with no noun after it ("One of the two is the
# knight."), unless a count or a choice says which ("Exactly one of the two", "only 7")
_SET_WORDS = re.compile(
    r"\b(?:(?:one|either|any)[ \t]++of|ties?|tied|toss[ \t-]?up|coin[ \t-]?flip|dead[ \t]+heat|"
    r"between|leaves?|leaving|left[ \t]+with|down[ \t]+to|narrow\w*|remain(?:s|ed|ing)?|torn)\b",
    re.IGNORECASE,
)
_BARE_SET = re.compile(
    r"(?<!\bexactly )(?<!\bonly )(?<!\bprecisely )\bone[ \t]++of[ \t]++(?:the|those|these|them|us)"
    r"(?:[ \t]++(?:two|three|both|pair))?+\b(?![ \t]*+-|[ \t]++(?!(?:is|was|are|were|fits?|works?|"
    r"must|should|could|might|would|will|can|has|had|holds?|does|did)\b)[^\W\d_])",
    re.IGNORECASE,
)
_SET_JOINER = re.compile(
    r"[ \t]*+(?:,|/|&|—|–|;)?[ \t]*+(?:(?:and|or|vs\.?|versus)\b)?[ \t]*+", re.IGNORECASE
)
_ANSWER_PRONOUN = re.compile(r"\b(?:this|it|that|mine|the[ \t]+answer)\b", re.IGNORECASE)
_CHOSEN = re.compile(r"\b(?:only|just|exactly|precisely|namely|rul(?:e|es|ed)\s+out)\b", re.I)
# a range named as a check of the answer's size: "Sanity check: 7 is between 5 and 10, as
# expected.", "Rough estimate 5 to 10 agrees."
_BOUND_CHECK = re.compile(
    r"\b(?:sanity[\s-]+check\w*|as\s+expected|agrees?|consistent\s+with|in\s+line\s+with)\b", re.I
)
# the answer said to change under a supposition, with no value named: "If the shift is 3 instead,
# the output would differ.", "Reading clue 2 the other way gives a different person.", "Under the
# looser reading of clue 3, someone else lives there.", "..., the result is not Arnold."
_OUTCOME_CHANGES = re.compile(
    r"\b(?:answer|result|output|outcome|grid|solution|assignment|count|value|person|name|cells?)"
    r"[ \t]++(?:would[ \t]++|might[ \t]++|could[ \t]++|may[ \t]++)?+(?:change[sd]?|differs?|be[ \t]++"
    r"different|come[ \t]++out[ \t]++(?:otherwise|differently))\b|\b(?:a|an)[ \t]++(?:different|other)[ \t]++"
    r"(?:answer|result|output|outcome|grid|solution|assignment|count|value|person|name|one)\b|"
    r"\bsomeone[ \t]++else\b|\b(?:it['’]s|is|be)[ \t]++not[ \t]++(?:this|that|the[ \t]++same)[ \t]++"
    r"(?:grid|answer|person|name|value|assignment)\b|\b(?:answer|result|output|person)[ \t]++(?:is|would[ \t]++be)"
    r"[ \t]++not\b|\b(?:moves?|shifts?|flips?|changes?)[ \t]++(?:too|as[ \t]++well|also)\b",
    re.IGNORECASE,
)
_SUPPOSED = re.compile(
    r"\b(?:if|should|were|under|with|reading|read|in[ \t]+case|instead|otherwise|assuming|suppose)\b|"
    r"\b(?:had|were)[ \t]+[a-z]+",
    re.IGNORECASE,
)
# a margin said to be narrow between the answer and another: "7 edges 8, barely.", "It beats 8,
# but only just.", "7 wins over 8 by a little."
_NARROW = re.compile(
    r"\b(?:barely|narrowly|only\s+just|just\s+barely|by\s+a\s+(?:little|bit|hair|whisker|nose|smidge|"
    r"fraction|sliver))\b",
    re.I,
)


# another candidate likened to the answer: "Same energy as 8.", "8 gives off the same vibe.", "8
# feels equally right.", "Bob is on par with it" (not a method: "the same rule", "gives the same 98")
_LIKENESS = re.compile(
    r"\b(?:(?:the[ \t]+)?(?:same|similar)[ \t]+(?:energy|vibes?|feel(?:ing)?|aura|spirit|odds|chances?|"
    r"likelihood|footing|weight|standing|appeal|strength|claim)\b(?:[ \t]+as\b)?|"
    r"(?:equally|just[ \t]+as|as)[ \t]+(?:good|likely|valid|right|correct|plausible|strong|solid|"
    r"fine|defensible)\b|on[ \t]+par[ \t]+with|no[ \t]+worse[ \t]+than)",
    re.IGNORECASE,
)


MAX_LIKENESS_GAP = 30  # characters between a word of likeness and the candidate it likens
_CLAUSE_SEPARATOR = re.compile(r"[;:.!?]")


def _likened(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence likens another candidate to the answer (:data:`_LIKENESS`) and neither
    rejects nor computes it ("Same vibe as 8."; "8 is the same as 2 \\cdot 4" computes)."""
    if kind == "roles" or "=" in s:
        return False
    if kind != "expression" and _computes(s):  # an expression answer is arithmetic itself
        return False
    likes = list(itertools.islice(_LIKENESS.finditer(s), 8))  # bounded work on any sentence
    if not likes:
        return False
    for m in _values(kind, answer).finditer(s):  # a candidate in the clause, a few words away
        for like in likes:
            between = (
                s[m.end() : like.start()] if m.end() <= like.start() else s[like.end() : m.start()]
            )
            if len(between) > MAX_LIKENESS_GAP or _CLAUSE_SEPARATOR.search(between):
                continue
            if _candidate(s, m, answer, kind):
                return True
            break
    return False


def _in_undecided_set(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence puts the answer in a set with another candidate and does not choose
    from it (:data:`_SET_WORDS`, :data:`_BARE_SET`): the answer (or "this") and another value of
    its type side by side, joined by "and", "or", a comma or a slash."""
    if _CHOSEN.search(s) or rejects(s, answer, kind):
        return False
    if _BARE_SET.search(s):
        return True
    if kind == "roles" or not _SET_WORDS.search(s):
        return False
    found = list(_values(kind, answer).finditer(s))
    refs = [(m.start(), m.end(), _candidate(s, m, answer, kind)) for m in found]
    refs += [(m.start(), m.end(), False) for m in _ANSWER_PRONOUN.finditer(s)]
    refs = [r for r in refs if r[2] or _answer_ref(s[r[0] : r[1]], answer)]
    refs.sort()
    for (_, end, other), (start, _, next_other) in itertools.pairwise(refs):
        if other != next_other and _SET_JOINER.fullmatch(s, end, start):
            return True
    return False


def _answer_ref(text: str, answer: str) -> bool:
    return (
        bool(_ANSWER_PRONOUN.fullmatch(text))
        or same(text.strip(), answer)
        or (_plain(text) == _plain(answer))
    )


_BARE_LEAD = re.compile(
    r"[\s,:;—–-]*+(?:(?:it['’]s|it[ \t]+is|then|the[ \t]+answer[ \t]+is)[ \t]+)?"
    # a verb of choosing: "Failing that, try 8.", "Failing that, I'd go with Bob."
    r"(?:(?:I['’]d|I[ \t]+would|I['’]ll|I[ \t]+will|we['’]d)?[ \t]*+(?:try|use|take|pick|choose|"
    r"go[ \t]+(?:with|for)|fall[ \t]+back[ \t]+(?:on|to)|say)[ \t]+)?",
    re.IGNORECASE,
)
_BARE_TAIL = re.compile(r"[ \t$]*+(?:instead|then)?[ \t$]*+[.!)]*+[ \t]*+$", re.IGNORECASE)
_COUNTERFACTUAL = re.compile(r"\b(?:would|could|must|had[ \t]+to|has[ \t]+to)\b", re.IGNORECASE)


# another answer attributed to a source other than the speaker's own derivation: "My colleague
# got 8", "Most people seem to get 8 here.", "A second count gave 8.", "My classmate insists on 8"
_RIVAL_SOURCE = re.compile(
    r"\b(?:(?:(?:my|a|an|the|his|her|our|some|one|their)\s+)?(?:\w+\s+)?(?:colleague|friend|classmate|"
    r"teacher|tutor|student|partner|teammate|professor|(?:text)?book|answer\s+key|solution\s+manual|"
    r"calculator|solver|wolfram\w*|website|source|reference)s?|people|others|someone|somebody|everyone|"
    r"most(?:\s+people)?|many(?:\s+people)?|another\s+(?:method|approach|way|count|attempt|run|"
    r"calculation|derivation|solver|person|reading)|(?:a|my|the)\s+(?:second|third|other|different|new|"
    r"later)\s+(?:method|approach|way|count|attempt|run|calculation|derivation|pass|try))\b"
    r"[^.!?;\n\d]{0,30}?\b(?:got|gets|get|gave|gives|give|insists?\s+on|says?|said|claims?|thinks?|"
    r"believes?|arrives?\s+at|arrived\s+at|came\s+up\s+with|comes?\s+up\s+with|ends?\s+up\s+with|"
    r"found|finds?|reports?|obtain\w*|yields?|yielded|prefers?|picks?|picked|chose|answers?|answered)"
    r"\b(?:\s+me)?",
    re.IGNORECASE,
)


def _rival_offered(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence gives another answer to a source other than the speaker's derivation
    (:data:`_RIVAL_SOURCE`) and does not commit to the answer again after it ("My colleague got
    8, but he counted 6 twice; 9 is right." settles it)."""
    for m in _RIVAL_SOURCE.finditer(s):
        pos = m.end() + len(s[m.end() :]) - len(s[m.end() :].lstrip(" \t$"))
        if _candidate_after(s, pos, answer, kind, gap=True) and not _rival_refuted(
            s, m, answer, kind
        ):
            return True
    return False


_AFFIRMED = re.compile(
    r"\b(?:is|'s|’s|remains|stays)\s+(?:right|correct|the\s+answer|it)\b|\b(?:stands|holds)\b", re.I
)


def _rival_refuted(s: str, rival: re.Match, answer: str, kind: str) -> bool:
    """Whether a sentence, after the rival answer it names, turns against it ("but", ";") and
    commits to the answer again ("My colleague got 8, but he counted 6 twice; 9 is right.")."""
    turn = re.search(r"\bbut\b|;", s[rival.end() :])
    if not turn:
        return False
    rest = s[rival.end() + turn.end() :]
    last = re.split(r"[;,]", rest)[-1]  # "...; 9 is right."
    affirmed = _AFFIRMED.search(last) and restates(last, answer) and not doubts(last, answer)
    return bool(affirmed) or recommits(rest, answer, kind)


def _strictly_inside(low: str, high: str, answer: str) -> bool:
    """Whether the answer is a number strictly between ``low`` and ``high``."""
    a, lo, hi = _number(answer), _number(low), _number(high)
    return None not in (a, lo, hi) and min(lo, hi) < a < max(lo, hi)


def _bare_after(s: str, pos: int, answer: str, kind: str) -> bool:
    """Whether the rest of a sentence from ``pos`` is a candidate and nothing else ("Otherwise
    Bob.", "Failing that, 20."): an alternative opener's counterfactual ("Otherwise Eric would
    have to drink tea") reasons, it offers nothing."""
    start = _BARE_LEAD.match(s, pos).end()
    m = _values(kind, answer).match(s, start)
    return bool(m) and _candidate(s, m, answer, kind) and bool(_BARE_TAIL.match(s, m.end()))


def _place_stated_other(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence puts another value in the answer's place (:data:`_PLACE_STATED`): a
    candidate right after "it's", "n is", "the real one is", that is no quantity (no noun after
    it) and no part of the answer (``(3, 4)``: "x is 3" names its part)."""
    own = set(re.findall(r"\d+(?:\.\d+)?", answer))
    pattern = _values(kind, answer)
    for m in _PLACE_STATED.finditer(s):
        v = pattern.match(s, m.end())
        if not v or not _candidate(s, v, answer, kind) or _NOUN_AFTER.match(s, v.end()):
            continue
        if kind == "value" and v.group().strip() in own:
            continue
        before = s[max(0, m.start() - 40) : m.start()]
        if _IF.search(s, 0, m.start()) or _SUPPOSED_BEFORE.search(before):
            continue  # "If n is 8, then ...": supposed, read by the conditional rules
        return True
    return False


def offers_other(sentence: str, answer: str, kind: str = "value") -> bool:
    """Whether a sentence offers a candidate of the answer's type other than ``answer``: another
    answer named as such ("another solution", "the other candidate", "the runner-up"), or a value
    of the type that differs from the answer and that the sentence puts in the answer's place
    (after "or", "also", "alternatively", "instead", a reopening word, or, in a sentence that
    neither names the answer nor computes, "the answer is", another derivation's "gives"
    ("Double-check gives 8"); or said of it,
    "8 also works", "Eric fits", "13 as well"; or alone in brackets, "(Eric)"), a cell value
    offered with a bar or a slash ("4/5", grids), a swap said to work (names, roles). A sentence
    that rejects what it names ("the other root, -8, is rejected") offers nothing."""
    s = _SAMPLE_SPACE.sub(" ", sentence.strip())  # "four equally likely outcomes": a count
    if kind == "value" and _number(answer) is not None:
        s = numerals(s)  # "Eight, if we count differently": a value in any spelling
    elif _values(kind, answer) is _NAME_VALUE:
        s = _unspelled(s)  # "B-o-b" is Bob
    changes = _OUTCOME_CHANGES.search(s)
    if changes and _SUPPOSED.search(s) and not rejects(_OUTCOME_CHANGES.sub(" ", s), answer, kind):
        return True  # "If the shift is 3 instead, the output would differ."
    opener_free = _CHANGE_OPENS.sub("", _OR_OPENS.sub("", s, count=1), count=1)
    if rejects(opener_free, answer, kind):  # not "Failing that"'s "fail", "Excluding 8"'s
        return False
    if kind in ("value", "expression") and _derives_answer(s, answer, kind):
        return False  # "Alternatively, subtract 1 from both sides and divide by 2: n = 7."
    if _reached_again(s, answer):
        return False  # "Alternatively, counting 3 then 4 more: 7 again."
    if _ANOTHER.search(s) or any(c in s for c in "或还"):
        return True
    if kind != "roles" and any(
        (v := _values(kind, answer).match(s, m.end()))
        and _offered(s, v, answer, kind)
        and _GRANT_ENDS.match(s, v.end())
        for m in _GRANTED_TO.finditer(s)
    ):
        return True  # "Some chance of 8 remains.", "The clues also seem to allow Peter."
    if _NARROW.search(s) and offered_values(s, answer, kind):
        return True  # "7 edges 8, barely.", "It beats 8, but only just."
    if kind != "roles" and _kept_in_play(s, answer, kind):
        return True  # "A faint voice says 8.", "No strong reason to prefer it over 8."
    if _likened(s, answer, kind):
        return True  # "Same energy as 8, honestly.", "8 feels equally right."
    if kind != "roles" and _rival_offered(s, answer, kind):
        return True  # "My colleague got 8.", "A second count gave 8."
    if _in_undecided_set(s, answer, kind):
        return True  # "One of Arnold and Bob.", "A tie between 7 and 8.", "One of the two is"
    opened = _OR_OPENS.match(s)  # "Or, flipping clue 2, Alice.": what it names is offered
    if (
        opened
        and kind != "roles"
        and any(
            _candidate(s, m, answer, kind) for m in _values(kind, answer).finditer(s, opened.end())
        )
        and (
            opened.group().strip(" ,").casefold() == "or"
            or _bare_after(s, opened.end(), answer, kind)
        )
    ):
        return True  # after "or", any candidate; after "Otherwise", "Failing that": a bare one
    if kind == "roles" and opened and _ROLE_NOUN.search(s) and not _COUNTERFACTUAL.search(s):
        return True  # "Otherwise Ella is the other role."
    if kind != "roles" and any(
        _candidate_after(s, m.end(), answer, kind, gap=False) for m in _CHANCE_OUTCOME.finditer(s)
    ):
        return True  # "Heads: 14, tails: 20."
    described = _OTHER_DESCRIBED.match(s) and not _NAMED_OTHER.search(s)  # not "Second option: X"
    if described and not confirms(s, answer, kind):
        return True  # "A mirrored grid is also plausible.", "Another rule also fits."
    changed = _CHANGE_GIVES.match(s)  # "Flipping clue 2 gives Alice."
    if changed and kind != "roles" and not _said_wrong(s):
        m = _values(kind, answer).match(s, changed.end())
        if m and _offered(s, m, answer, kind):
            return True
    for m in _COUNTED_OTHER.finditer(s):  # "Plan C would be 8."
        if _candidate_after(s, m.end(), answer, kind, gap=False, whole=True):
            return True
    for m in _NAMED_OTHER.finditer(s):  # "Another route: 7*3+25", "Second choice: 8"
        if _candidate_after(s, m.end(), answer, kind, gap=kind == "grid", whole=True):
            return True
    if kind == "value" and not _computes(s):
        for m in _RANGE.finditer(s):  # "anywhere from 7 to 8": a range is no committed value
            ends = [same(m.group(1), answer), same(m.group(2), answer)]
            inside = _strictly_inside(m.group(1), m.group(2), answer)  # "between 6 and 8" of 7
            chosen = _CHOSEN.search(s, m.end()) or (  # "Between 7 and 8 only 7 solves it."
                _BOUND_CHECK.search(s) and inside  # "Sanity check: 7 is between 5 and 10."
            )
            offered = ends[0] != ends[1] or inside
            if offered and not _VARIABLE_RANGES.search(s, 0, m.start()) and not chosen:
                return True
    moved = _UNKNOWN_MOVED.search(s) and not _RELATION.search(s)
    if (_RELATIVE.search(s) or moved) and _RELATIVE_OFFER.search(s) and not _computes(s):
        return True  # "one more otherwise", "its successor is equally valid", "n+1 works too"
    if kind == "grid" and (GRID_ALTERNATIVE.search(s) or _CELL_OR.search(s)):
        return True
    if kind == "grid" and _other_cell_at(s, answer):
        return True  # "If the shift is by two, the last cell would be 0."
    swapped = _ANSWERHOOD_RE.search(s) or _WOULD_SWAP.search(s) or _IF.search(s)
    if kind in ("roles", "name", "grid") and _SWAP_RE.search(s) and swapped:
        return True  # "Swapping Noah and Lily also works", "the roles might flip", "the last two cells may swap"
    listed = _CANDIDATE_LIST.search(s)  # "Candidates: 7, 8.", "n \\in \\{7, 8\\}"
    if kind == "roles":
        return bool(listed and _KNIGHT.search(s, listed.end()) and _KNAVE.search(s, listed.end()))
    if listed and any(
        _offered(s, m, answer, kind) for m in _values(kind, answer).finditer(s, listed.end())
    ):
        return True
    for m in _LABEL.finditer(s):  # "Final answer: Bob" after \boxed{Arnold}
        if _candidate_after(s, m.end(), answer, kind, gap=False, whole=True):
            return True
    if (_IF.search(s) or _CHANGE_OPENS.match(s)) and _conditional_candidate(s, answer, kind):
        return True  # "If clue 4 is read strictly, Bob instead.", "(8 if you count the ends)"
    for m in () if confirms(s, answer, kind) else _OFFER.finditer(s):
        if _between_others(s, m.start(), answer, kind):
            continue  # "3 or 4 items": a choice between other quantities, not beside the answer
        if _result_again(s, m.end(), answer, kind):
            continue  # "..., which is 600, and the right side is 5 times 120, also 600"
        if _candidate_after(s, m.end(), answer, kind, gap=bool(_OFFERS_GAP.match(s, m.start()))):
            return True
    if not restates(s, answer) and not _computes(s):
        for m in _SLOT.finditer(s):
            if _candidate_after(s, m.end(), answer, kind, gap=True):
                return True
        if CONDITION_RE.search(s) or OFFERED_BETWEEN.search(s):
            for m in _IT_IS.finditer(s):
                if _candidate_after(s, m.end(), answer, kind, gap=False):
                    return True
        if not _VERIFIES.search(s) and not _said_wrong(s) and _gives_other(s, answer, kind):
            return (
                True  # "Counting the endpoints, one gets 8.", "With a two-cell shift you get ..."
            )
        if OFFERED_BETWEEN.search(s):  # "under the other convention the count is 8"
            for m in _ITS_VALUE.finditer(s):
                if _candidate_after(s, m.end(), answer, kind, gap=False):
                    return True
            if not _said_wrong(s) and _read_otherwise(s, answer, kind):
                return (
                    True  # "A sloppier reading lands on eight", "Bob wins under the other reading"
                )
    for m in _values(kind, answer).finditer(s):
        if not _candidate(s, m, answer, kind):
            continue
        if _VALUE_OFFER.match(s, m.end()):
            return True
        if m.start() <= 3 and _SAID_OFFER.match(s, m.end()):
            return True
        if _UNDER_READING.match(s, m.end()):
            return True
        bare = s[: m.start()].strip("([ ") == "" and s[m.end() :].strip(")]. ") == ""
        if bare and kind == "value" and _number(answer) is not None:
            return True
    return False


# the answer reached once more, at the sentence's end: "7 again.", "Arnold once more."
_AGAIN = re.compile(r"[ \t$]*+(?:again|once[ \t]++more|as[ \t]++before)[ \t]*+[.!]?+[ \t]*+$", re.I)


def _reached_again(sentence: str, answer: str) -> bool:
    """Whether a sentence ends by reaching the answer once more ("Alternatively, counting 3 then 4
    more: 7 again.") and offers nothing past its opening word (not "8, or 7 again.")."""
    return any(_AGAIN.match(sentence, end) for _, end in _answer_spans(sentence, answer)) and not (
        _OFFER.search(_OR_OPENS.sub("", sentence.strip(), count=1))
    )


def confirms(sentence: str, answer: str, kind: str = "value") -> bool:
    """Whether a sentence reaches the answer again, by another method or reading: it names "the
    same" answer, result or assignment, or its derivation gives the answer itself ("also yields
    $n = 7$"). Such a sentence is a check: its "alternatively" or "also" offers nothing."""
    if _SAME_RESULT.search(sentence):
        return True
    if _reached_again(sentence, answer):
        return True  # "Alternatively, counting 3 then 4 more: 7 again."
    pattern = _values(kind, answer)
    for m in _GIVES_RE.finditer(sentence):
        value = pattern.match(sentence, m.end())
        if value and answer and _is_answer(value.group().replace("$", ""), answer):
            return True
    return False


def rejects(sentence: str, answer: str = "", kind: str = "value") -> bool:
    """Whether a sentence rejects what it names or supposes (:data:`REJECTION`: "which is
    impossible", "is ruled out", "8 fails", "not 8"): what it offers is not offered. A rejection
    word rejects only what is in its scope: a negation of :data:`NEGATION_ELSEWHERE` ("not just
    7", "not that it matters", "I'm not changing my answer", "8 isn't unreasonable") rejects
    nothing, nor one in a clause that names ``answer`` and no other value ("8 works, not 7"), nor
    a bare negation in a clause that names nothing and refers back to nothing ("8 works too, not
    gonna lie")."""
    s = _NEGATION_ELSEWHERE_RE.sub(" ", sentence)
    for m in _REJECTION_RE.finditer(s):
        if not answer:
            return True
        breaks = list(_CLAUSE_BREAK.finditer(s, 0, m.start()))
        start = breaks[-1].end() if breaks else 0
        end = next((b.start() for b in _CLAUSE_BREAK.finditer(s, m.end())), len(s))
        clause = s[start:end]
        if _IF.match(clause.lstrip(" \t")) or _IF.search(s, start, m.start()):
            continue  # "Nine, if zero is excluded twice", "Backup if that fails: 8": supposed
        others = any(
            _candidate(clause, v, answer, kind) for v in _values(kind, answer).finditer(clause)
        )
        if others:
            return True  # "8 fails", "not 8": the rejection speaks of another value
        if restates(clause, answer):
            continue  # "..., not 7": it speaks of the answer
        linked = _REFERS_BACK.search(clause) or _PREDICATE.match(clause)
        linked = linked or (breaks and _CONTRAST.fullmatch(breaks[-1].group().strip()))
        if _BARE_NEGATION.fullmatch(m.group()) and not linked:
            continue  # "8 works too, not gonna lie": a negation of nothing named before
        return True  # "but it fails", "which is impossible"
    return False


def recommits(sentence: str, answer: str, kind: str = "value") -> bool:
    """Whether a sentence commits to ``answer`` again, explicitly (:data:`RECOMMIT_BEFORE`,
    :data:`RECOMMIT_AFTER`: "so the answer is 7", "the answer stays (-2, 8)", "7 is the final
    answer"); naming the answer in passing ("I checked all 7 cases", "Arnold drinks coffee") or
    keeping it undecided (:data:`UNDECIDED`: "Either way I keep 7") is not."""
    if not answer or _UNDECIDED_RE.search(sentence):
        return False
    for start, end in _answer_spans(sentence, answer):
        before = sentence[max(0, start - 60) : start]
        if _RECOMMIT_BEFORE.search(before) or _RECOMMIT_AFTER.match(sentence, end):
            return True
    return False


def rejects_all(sentence: str, answer: str, others: set[str], kind: str = "value") -> bool:
    """Whether a sentence rejects each of the values ``others`` (another value offered
    before): it names them and :func:`rejects` them."""
    named = {m.group().strip() for m in _values(kind, answer).finditer(sentence)}
    return bool(others) and others <= named and rejects(sentence, answer, kind)


def denies_by_result(sentence: str, others: set[str]) -> bool:
    """Whether a sentence is only a no to the values ``others`` (another value offered before)
    and what they give (or, by "is", what they are worth: "No, that's 10." of ``(4+6)*1*1``; not
    "No, it's 9." of 8, which offers 9): a word of :data:`DENIALS`, the other value or a word that refers back to
    it, a verb of :data:`GIVES` and one value ("No, 8 gives 17.", "Nope, that yields 33, not
    31."). What it gives is a result, not a candidate; a result that is one of ``others`` ("No,
    that gives 8" after "Is it 8?") affirms it."""
    denied = _DENIED_BY_RESULT.fullmatch(sentence.strip()) or _RESULT_DENIED.fullmatch(
        sentence.strip()
    )
    if not others or not denied or any(same(denied["result"].rstrip(".,"), o) for o in others):
        return False
    if denied[
        "copula"
    ]:  # "no, that's 10" of (4+6)*1*1: its value, where it is one; not "No, it's 9"
        result = _evaluate(denied["result"].rstrip(".,"))
        if result is None or any(_evaluate(o.rstrip(".…")) != result for o in others):
            return False
    subject = denied["subject"]
    return subject.casefold() in ("that", "it", "this") or all(same(subject, o) for o in others)


def denies_by_computation(sentence: str, others: set[str]) -> bool:
    """Whether a sentence is only a no and arithmetic that shows what the values ``others``
    (another value offered before) are: a word of :data:`DENIALS`, then clauses that are each a
    true equation ("No, 54 = 6 \\times 9.", "No: 54 is 6 times 9, while 56 = 7 \\times 8."), one
    of them equal to each other value. A false equation, or a clause that is no equation, shows
    nothing."""
    denied = DENIED.match(sentence)
    if not others or not denied:
        return False
    shown = []
    for clause in _CLAUSE_JOIN.split(numerals(sentence[denied.end() :]).strip(" \t.,;:!—–")):
        sides = _EQUATION_SIDE.split(clause)
        values = [_evaluate(side.strip(" \t$")) for side in sides]
        if len(sides) < 2 or None in values or len(set(values)) != 1:
            return False
        shown.append(values[0])
    return all(any(_number(o) == float(v) for v in shown) for o in others)


_CLAUSE_JOIN = re.compile(
    r"[ \t]*+[,;][ \t]*+(?:(?:while|whereas|and|but)[ \t]++)?+", re.IGNORECASE
)
_EQUATION_SIDE = re.compile(r"=|\b(?:is|equals)\b", re.IGNORECASE)


def offered_values(sentence: str, answer: str, kind: str = "value") -> set[str]:
    """The values of the answer's type other than ``answer`` that a sentence names."""
    found = _values(kind, answer).finditer(sentence)
    return {m.group().strip() for m in found if _candidate(sentence, m, answer, kind)}


def _answer_spans(sentence: str, answer: str) -> list[tuple[int, int]]:
    if _number(answer) is not None:
        return [m.span() for m in _NUMBER_VALUE.finditer(sentence) if same(m.group(), answer)]
    wanted = " ".join(answer.split())
    i = sentence.find(wanted)
    spans = []
    while i >= 0 and len(spans) < 20:
        spans.append((i, i + len(wanted)))
        i = sentence.find(wanted, i + 1)
    return spans or [
        m.span()
        for m in _NAME_VALUE.finditer(sentence)
        if m.group().casefold() == wanted.casefold()
    ]


_MARKUP = re.compile(r"<!--|-->|</?[A-Za-z][^<>\n]{0,200}+>")
_TEXT_COMMAND = re.compile(
    r"\\(?:text|textbf|textit|textrm|mathrm|mbox)[ \t]*+\{([^{}\n]{0,200}+)\}"
)
# a list of candidates, or a set or interval the answer's variable is said to be in
_CANDIDATE_LIST = re.compile(
    r"\b(?:candidates|answer[ \t]+(?:set|distribution)|possible[ \t]+(?:answers|values|solutions|names|roles)|"
    r"options|shortlist|contenders)\b(?:[ \t]++[a-z]{1,12}+){0,2}?[ \t]*+[:=]|(?:∈|\\in(?![A-Za-z]))[ \t$]*+(?:\\left[ \t]*+)?(?:\\\{|\{)",
    re.IGNORECASE,
)
# odds that split a hundred, said of something: "70/30 knave", "60/40 on Lily", "50-50 on this"
_SPLIT_BY = r"(?:[ \t]*+[/:–-][ \t]*+|[ \t]++to[ \t]++)"
_SPLIT = re.compile(
    rf"(?<![\d.,/{{-])([1-9]\d?){_SPLIT_BY}([1-9]\d?)"
    r"(?=[ \t]++(?:(?:on|in|for|against|over|vs|versus|between|odds|split|chance|knights?|"
    r"knaves?|it|it['’]s|that|this)\b|[A-Z]))"
)
# odds that end a sentence after a colon, a dash, a comma or a role: "7 vs 8: 60/40.", "Noah — knave
# 60/40", "Leo — knave, 60/40."
_SPLIT_AT_END = re.compile(
    rf"(?:[:—–,][ \t]*+|\bkn(?:igh|av)\w*[ \t]++)([1-9]\d?){_SPLIT_BY}([1-9]\d?)"
    r"[ \t]*+[.!]?[ \t]*+$",
    re.IGNORECASE,
)
# shares of a hundred given to candidates side by side: "Arnold 55%, Bob 45%"
_SHARE_OF_HUNDRED = re.compile(r"(?<![\d.])(\d{1,2})[ \t]*+(?:\\?%|percent\b)", re.IGNORECASE)
# a probability stated of the answer being right, and the shares it may take
_OF_BEING_RIGHT = re.compile(r"\b(?:correct|right|true|accurate)\b", re.IGNORECASE)
_PROBABILITY = re.compile(
    r"\bP[ \t]*+\(|\bp[ \t]*+[≈=~]|\b(?:probability|likelihood|chance|odds)\b", re.IGNORECASE
)
# a share: "60%", "0.6", "2/3", "3 in 4", "3 out of 4", "2 thirds" (:func:`numerals` writes
# "two thirds" so), "a half"
_SHARE = re.compile(
    r"(?<![\d.])(?:(?P<pct>\d{1,2}(?:\.\d{1,6})?)[ \t]*+%|(?P<dec>0?\.\d{1,6})|"
    r"(?P<num>\d{1,3})[ \t]*+(?:/|in|out[ \t]+of)[ \t]*+(?P<den>\d{1,3})|"
    r"(?P<parts>\d{1,2}|one|two|three|four|five|six|seven|eight|nine)[ \t-]*+(?P<part>halve|3rd|third|quarter|4th|fourth|5th|fifth|6th|sixth|"
    r"7th|seventh|8th|eighth|9th|ninth|10th|tenth)s?\b|(?P<half>an?[ \t]+half|half))(?!\d|\.\d)",
    re.IGNORECASE,
)
_PARTS = {"halve": 2, "3rd": 3, "third": 3, "quarter": 4, "4th": 4, "fourth": 4, "5th": 5,
          "fifth": 5, "6th": 6, "sixth": 6, "7th": 7, "seventh": 7, "8th": 8, "eighth": 8,
          "9th": 9, "ninth": 9, "10th": 10, "tenth": 10}  # fmt: skip


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _share(m: re.Match) -> float | None:
    """The share a :data:`_SHARE` match states (None for "2/0")."""
    if m.group("pct"):
        return float(m.group("pct")) / 100
    if m.group("dec"):
        return float(m.group("dec"))
    if m.group("num"):
        return int(m.group("num")) / int(m.group("den")) if int(m.group("den")) else None
    if m.group("parts"):
        parts = m.group("parts").lower()
        count = int(parts) if parts.isdigit() else _NUMBER_WORDS.index(parts) + 1
        return count / _PARTS[m.group("part").lower()]
    return 0.5


# a word spelled long or with digits for letters ("maaaybe", "pr0bably"): read as written plainly
_ELONGATED = re.compile(r"([A-Za-z])\1{2,}")
_LEET = re.compile(r"(?<=[A-Za-z])[013](?=[A-Za-z])")
_NOT_SIGN = re.compile(r"[¬!~][ \t]*+(?=[A-Za-z])")  # a logical "not" before a word
# a question why another value is not the answer, answered by the reason at once
_WHY_NOT_BECAUSE = re.compile(
    r"[*_(]*why[ \t]+not[ \t]+[^?\n]{1,40}\?[*_)]*[ \t]++((?:because|since)\b)", re.IGNORECASE
)
# a question answered "yes" at once ("Is 7 odd? Yes.", "Does 7 work? Yes: 2*7+1 = 15"): read as
# the statement it asks; one answered "no" is read by the rules of rejection as it stands
_ANSWERED_YES = re.compile(
    rf"([^?\n.!]{{1,120}}+)\?[ \t]*+(?:{_words(AFFIRMATIONS)})\b[ \t]*+[.:,;!—–-]?", re.IGNORECASE
)
# a question answered "no" at once, and what the reply goes on to say: "Is there another solution?
# No: a linear equation has one root.", "Could it be Bob? No: clue 4 puts Arnold first."
_ANSWERED_NO = re.compile(
    r"([^?\n.!]{1,120}+)\?[ \t]*+(?:no|nope|none|not[ \t]+at[ \t]+all|nothing)\b"
    r"(?![ \t]+(?:idea|clue|one|way|doubt|question|comment)\b)[ \t]*+[.:,;!—–-]?[ \t]*+"
    r"([^\n.!?]{0,200}+)",
    re.IGNORECASE,
)
# a question of whether there is another answer ("Is there another solution?", "Any other root?")
_OTHER_ASKED = re.compile(
    r"\b(?:another|other|others|else|more[ \t]+than[ \t]+one|second|alternatives?)\b", re.I
)
# what a question calls the answer given: "Does it check out?", "Is this the only one?"
_THE_ANSWER_ASKED = re.compile(
    r"\b(?:it|this|that|the[ \t]+(?:answer|result|solution|value))\b|"
    # the unknown by its letter: "Is $n$ unique? Yes, ..." (not the article "a", nor "I")
    r"\$[ \t]*+[A-Za-z][ \t]*+\$|(?<![\w\\$])(?![aAI](?!\w))[A-Za-z](?![\w$])",
    re.IGNORECASE,
)
_CERTAINTY_ASKED = re.compile(
    rf"\b(?:{_words(CONFIDENCE_WORDS)}|right|correct|wrong|true|false|really|or)\b",
    re.IGNORECASE,
)
# arithmetic in words between numbers ("2 times 7 plus 1 is 15"): written as the arithmetic
_WORD_OPERATOR = re.compile(
    r"(?<=\d)[ \t]++(times|multiplied[ \t]++by|plus|minus|divided[ \t]++by|over)[ \t]++(?=\(?\d)",
    re.IGNORECASE,
)
# a power in words after a number ("12 squared", "2 cubed", "2 to the power of 10", "3 to the
# 4th power"): written as the power
_WORD_POWER = re.compile(
    r"(?<=\d)[ \t]++(?:(?P<word>squared|cubed)|(?:raised[ \t]++)?to[ \t]++the[ \t]++"
    r"(?:(?:power[ \t]++of[ \t]++)(?P<of>\d{1,2})|(?P<nth>\d{1,2})(?:st|nd|rd|th)?+[ \t]++power))\b",
    re.IGNORECASE,
)
_WORD_RESULT = re.compile(r"(?<=\d)[ \t]++(?:is|equals|gives|makes)[ \t]++(?=-?\d)", re.IGNORECASE)
_OPERATOR_OF = {"times": "*", "multiplied by": "*", "plus": "+", "minus": "-", "divided by": "/",
                "over": "/"}  # fmt: skip
# a multiple in words between two numbers ("14 is twice 7", "7 is half of 14"): the product
_MULTIPLE = re.compile(
    r"(?<=\d)[ \t]++(?:is|equals)[ \t]++(twice|double|triple|thrice|half)(?:[ \t]++of)?+[ \t]++(?=\(?\d)",
    re.IGNORECASE,
)
_FACTOR_OF = {"twice": "2", "double": "2", "triple": "3", "thrice": "3", "half": "1/2"}
# an operation named before its operands ("the product of 6 and 7 is 42"): the arithmetic
_OPERATION_OF = re.compile(
    r"\b(?:the[ \t]++)?(sum|total|product|difference|quotient)[ \t]++of[ \t]++"
    r"(-?\d++(?:\.\d++)?+)[ \t]++and[ \t]++(-?\d++(?:\.\d++)?+)(?![\d.]\d)",
    re.IGNORECASE,
)
_SYMBOL_OF = {"sum": "+", "total": "+", "product": "*", "difference": "-", "quotient": "/"}
# "'s" for "is" after a word, before what is said of it ("Bob's a dark horse", "8's also
# fine"; not a possessive, "Bob's house")
_IS_CONTRACTED = re.compile(
    r"(?<=\w)['’]s(?=[ \t]+(?:a|an|the|also|too|still|just|another|equally|possibly|probably|"
    r"likely|not|plausible|possible|valid|viable|tempting|in|on|my|our|worth)\b)",
    re.IGNORECASE,
)
_WOULD = re.compile(r"(?<=[A-Za-z])['’]d(?=[ \t]+(?:be|have|say|go|pick|choose|guess)\b)")
# the names a row's puzzle lists (Zebra), set by its grader: a name in any case is a name
KNOWN_NAMES: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("names", default=())
_KNIGHT = re.compile(r"\bknights?\b", re.IGNORECASE)
_KNAVE = re.compile(r"\bknaves?\b", re.IGNORECASE)


# markdown that shows a value as it is: bold, italics, a code span ("**8**", "*8*", "__8__",
# "`n = 8`"; "2 * 3 * 4" is arithmetic: an emphasis mark touches its text)
_EMPHASIS = re.compile(
    r"\*\*([^*\n]{1,200}+)\*\*|(?<![\w*])\*(?=[^\s*])([^*\n]{0,200}+)(?<=[^\s*])\*(?![\w*])|"
    r"__([^_\n]{1,200}+)__|`{1,3}+([^`\n]{1,200}+)`{1,3}+"
)
_SUPERSCRIPT = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,20}+")
_SUBSCRIPT = re.compile("[₀₁₂₃₄₅₆₇₈₉]{1,20}+")
_NUMBER_FORM = re.compile("[\u2150-\u218b]")  # Roman numerals and vulgar fractions of one symbol


def plain_symbols(text: str) -> str:
    """``text`` with the digits of one symbol written plainly: a superscript as a power ("7²" as
    "7^2"), a subscript as a digit ("x₂" as "x2"), a Roman numeral or a fraction of one
    character as its letters or digits ("Ⅷ" as "VIII", "½" as "1/2")."""
    text = _SUPERSCRIPT.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT_DIGITS), text)
    text = _SUBSCRIPT.sub(lambda m: m.group().translate(_SUBSCRIPT_DIGITS), text)
    return _NUMBER_FORM.sub(
        lambda m: unicodedata.normalize("NFKC", m.group()).replace("\u2044", "/"), text
    )


_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# a program's literals in a tail: a quoted key ('"alt": 8') and a list assigned ("alt = [8]",
# "alt: [8, 9]") read as the words and values they hold
_LITERAL_KEY = re.compile(r"[\"'](\w{1,30}+)[\"'][ \t]*+:")
_LITERAL_LIST = re.compile(r"([=:])[ \t]*+\[([^\[\]\n]{0,200}+)\]")


def names_read(text: str, kind: str) -> str:
    """A text's names as a reader reads them where the answer is a name: spelled out letter by
    letter ("b.o.b.") as the name, and a name of the row's puzzle (:data:`KNOWN_NAMES`) in any
    case as a name ("bob fits too" names Bob); other text as it is."""
    if kind != "name":
        return text
    text = _unspelled(text)  # read before the text is cut into sentences
    if names := KNOWN_NAMES.get():
        text = re.sub(rf"\b(?:{'|'.join(map(re.escape, names))})\b", lambda m: m.group().title(),
                      text, flags=re.IGNORECASE)  # fmt: skip
    return text


# a repeating decimal in notation: "4.\\overline{6}", "0.\\overline{142857}", "0.1\\dot{6}"
_REPEATING = re.compile(r"(\d{1,20}+\.\d{0,20}+)\\(?:overline|dot|bar)\{?+(\d{1,12}+)\}?+")


def _repeated(m: re.Match) -> str:
    """A repeating decimal written out to 16 places (close enough to its value to be read as
    it)."""
    head, cycle = m.group(1), m.group(2)
    places = len(head.split(".")[1])
    return head + (cycle * 16)[: max(0, 16 - places)]


def hedge_after(text: str, answer: str, kind: str = "value") -> bool:
    """Whether text after the committed ``answer`` un-commits it: one of its sentences holds a
    word the lexicon cannot read (:func:`unread_words`), or is a remark without content that
    vouches for nothing (:func:`unvouched`), or un-commits it (:func:`uncommits`),
    or states another value (:func:`states_other`), or is notation that names another value
    (:func:`_names_other`); a count's things listed are no values (:func:`_without_enumeration`),
    and a rival answer refuted with the answer affirmed after it is none (:func:`_rival_refuted`);
    a "why not 6?" answered at once
    by "because ..." is read as its reason; an HTML tag or comment hides
    nothing (``<span style="display:none">8</span>`` is 8). A sentence whose last
    "but" clause commits to the answer again and un-commits nothing is read from that clause
    ("If the equation were 2n+1=17, the answer would be 8, but it is 15.")."""
    text = _TEXT_COMMAND.sub(r" \1 ", _MARKUP.sub(" ", text))  # "<!-- alt: 8 -->", "\\text{ or }"
    text = _LITERAL_KEY.sub(r"\1:", _LITERAL_LIST.sub(r"\1 \2", text))  # '"alt": 8', "alt = [8]"
    text = plain_symbols(
        _EMPHASIS.sub(lambda m: m[1] or m[2] or m[3] or m[4], text)
    )  # "**8**", "x₂"
    text = _REPEATING.sub(_repeated, text)  # "4.\\overline{6}" is 4.666...
    text = _WHY_NOT_BECAUSE.sub(r"\1", text)  # "Why not 6? Because Sunday counts.": the reason
    text = _ANSWERED_YES.sub(lambda m: _asked_of_answer(m, answer), text)  # "Is 7 odd? Yes."
    text = _WOULD.sub(" would", text)  # "Bob'd be plausible"
    text = _IS_CONTRACTED.sub(" is", text)  # "Bob's a dark horse": Bob is
    text = names_read(text, kind)
    text = _ANSWERED_NO.sub(lambda m: _answered_no(m, answer, kind), text)  # "Any other root? No."
    for s in sentences(text):
        rival = _RIVAL_SOURCE.search(s)
        if rival and _rival_refuted(s, rival, answer, kind) and not doubts(s, answer):
            continue  # "My colleague got 8, but he counted 6 twice; 9 is right."
        but = _BUT.search(s)
        if but and _PAST_BELIEF_OPENS.match(s):
            s = s[but.end() :]  # "I initially thought it was Bob, but clue 3 ...": a step
        elif _PAST_BELIEF_OPENS.match(s) and ";" in s:
            slip, _, rest = s.partition(
                ";"
            )  # "Earlier I wrote 8 by mistake; the correct value is 7."
            named = restates(rest, answer) and not offered_values(rest, answer, kind)
            if named and (_said_wrong(slip) or _MISTAKE_RE.search(slip)):
                s = rest
        s = _without_enumeration(s, answer, kind)  # "Divisors: 1, 2, 3, 4, 6, 9, 12, 18, 36." of 9
        if kind != "roles" and unread_words(s, answer):
            return True  # "Ehkä.", "Nem vagyok benne biztos.": words the lexicon cannot read
        if kind != "roles" and unvouched(s):
            return True  # "Verification pending.", "Who knows.": a remark that vouches for nothing
        if (
            kind != "roles"
            and not reads_english(s)
            and not _true_equation(s)  # "$3 \\cdot 5 + 2 = 17$.": a check, every side one value
            and _names_other(_in_digits(s, kind), answer, kind)
        ):
            return True  # "Het antwoord kan ook 8 zijn.", "$n = 8$", "Acht."
        if (
            kind != "roles"
            and not rejects(s, answer, kind)
            and _place_stated_other(s, answer, kind)
        ):
            return True  # "Haha jk, it's 8.", "The real one is 8."
        s = _recommitted_after_but(s, answer, kind)
        if uncommits(s, answer, kind) or states_other(s, answer, kind):
            return True
        for clause in s.split(";")[1:]:  # "Not 6, since 3 does not divide 16; 4 is still in play."
            if offers_other(clause, answer, kind) and not rejects(clause, answer, kind):
                return True
    return False


# a list of numbers joined by commas (and a last "and"): what a count may enumerate
_ENUMERATION = re.compile(
    r"(?<![\w.])-?\d{1,30}+(?:\.\d{1,30}+)?+(?:[ \t]*+,[ \t]*+(?:and[ \t]++)?-?\d{1,30}+(?:\.\d{1,30}+)?+)++"
    r"(?:[ \t]*+,?[ \t]*+and[ \t]++-?\d{1,30}+(?:\.\d{1,30}+)?+)?+(?![\w.]\w)"
)


def _without_enumeration(sentence: str, answer: str, kind: str) -> str:
    """A sentence without the list of exactly as many numbers as a count answer holds: the
    things counted, listed ("Divisors: 1, 2, 3, 4, 6, 9, 12, 18, 36." after 9), no candidates."""
    if kind != "value" or not answer.strip().isdigit() or not 2 <= int(answer) <= 1000:
        return sentence
    count = int(answer)
    return _ENUMERATION.sub(
        lambda m: " the list " if len(_NUMBER.findall(m.group())) == count else m.group(), sentence
    )


def _true_equation(sentence: str) -> bool:
    """Whether a sentence is only an equation of arithmetic whose sides all have one value
    (``$3 \\cdot 5 + 2 = 17$``): a check, which names no candidate."""
    sides = sentence.strip(" \t.,;:!$").split("=")
    if len(sides) < 2:
        return False
    values = [_evaluate(side.strip(" \t$")) for side in sides]
    return None not in values and len(set(values)) == 1


def _asked_of_answer(m: re.Match, answer: str) -> str:
    """A question answered "yes" at once, as the statement it asks where it asks of the answer
    itself and of nothing else ("Is 7 odd? Yes."); a question of certainty ("Am I sure? Yes.") or
    of another value stays as it is."""
    question = m.group(1)
    numbers = [v for v in _NUMBER.findall(numerals(question)) if not same(v, answer)]
    named = restates(question, answer) or _THE_ANSWER_ASKED.search(question)  # "Does it check out?"
    if not named or numbers or _CERTAINTY_ASKED.search(question) or _OTHER_ASKED.search(question):
        return m.group()
    return question + "."


# a question of doubt or of a mistake: "Is there any doubt?", "Any mistake?", "Could this be wrong?"
_DOUBT_ASKED = re.compile(
    r"\b(?:doubts?|uncertain\w*|mistakes?|errors?|slips?|wrong|ambigu\w*|catch(?:es)?|caveats?)\b",
    re.IGNORECASE,
)


def _answered_no(m: re.Match, answer: str, kind: str) -> str:
    """A question answered "no" at once, as what the reply goes on to say, where the "no" denies
    another answer: the question asks whether there is another ("Is there another solution? No:
    ..."), or names no answer but others and the reply names the answer or offers nothing and
    doubts nothing ("Could it be Bob? No: clue 4 puts Arnold first.", "Could it be Bob? No, Bob is
    in House 2 by clue 1."), or asks of doubt or a mistake ("Is there any doubt? None: ...").
    A "no" to a question of the answer itself ("Is 7 right? No.") or with nothing that points
    back to the answer stays as it is."""
    question, reply = m.group(1), m.group(2)
    other_asked = _OTHER_ASKED.search(question)
    if _DOUBT_ASKED.search(question) and not restates(question, answer):
        return reply  # "Is there any doubt? None: the equation is linear.": the doubt denied
    if restates(question, answer) and not other_asked:
        return m.group()  # "Is 7 right? No.": the answer denied
    others = [
        v for v in _values(kind, answer).finditer(question) if _candidate(question, v, answer, kind)
    ]
    asked = _CELL_ASKED.search(question) if kind == "grid" and not others else None
    if asked and _cell_differs(asked, answer):
        others = [asked]  # "Could the last cell be 4? No, ...": the cell asked of is denied
    if other_asked and not others:
        return reply
    denied = [v.group(1) if v.re is _CELL_ASKED else v.group().strip() for v in others]
    if others and (restates(reply, answer) or _reason_in_words(reply, answer, kind, denied)):
        # "Is it 13? No: 13 is prime and 3 × 4 = 12.", "Could it be Bob? No, Bob is in House 2
        # by clue 1.": denied, unless the reply offers it after all ("No, but Bob fits too")
        for v in others:  # the value denied is what the reply goes on to speak of: "that"
            value = v.group(1) if v.re is _CELL_ASKED else v.group().strip()
            reply = re.sub(rf"(?<![\w.]){re.escape(value)}(?![\w.]\w)", "that", reply)
        return _CONTRADICTION_SAID.sub("fails", reply)  # its contradiction is its reason
    return m.group()


# a contradiction the reply to "Could it be 8?" finds in 8: its reason, no doubt of the answer
_CONTRADICTION_SAID = re.compile(r"\b(?:contradict\w*|inconsistent)\b", re.IGNORECASE)


def _reason_in_words(reply: str, answer: str, kind: str, denied: Sequence[str] = ()) -> bool:
    """Whether the reply after a "no" gives a reason that offers nothing and doubts nothing and,
    where the answer is a number or a grid, names no number but the answer's own, the value
    denied, and what the value denied gives ("Could it be bob? No, bob is in House 2 by clue
    1."; "What about 8? No, 8 overshoots the total."; "Could it be 8? No: 8 gives 9 in the second
    equation."; "No, that gives 8" alone and "No, 54 = 6 \\times 9 + 1" are read by the rules
    of :func:`.extract.doubts_after`)."""
    if uncommits(_CONTRADICTION_SAID.sub(" ", reply), answer, kind):
        return False  # "No, Bob contradicts clue 4.": the contradiction is the reason
    if kind == "name" or kind == "roles":
        return True
    if kind == "expression":  # the expression denied is named, not computed: "8*3 misses 4"
        reply = functools.reduce(
            lambda r, v: r.replace(v, " that "), (v for v in denied if v), reply
        )
    said = reply if kind == "grid" else numerals(reply)  # a grid's cells are digits
    own = set(re.findall(r"\d+", answer)) | {n for v in denied for n in re.findall(r"\d+", v)}
    subjects = "|".join([*(re.escape(v) for v in denied), "that", "it", "this"])
    for m in re.finditer(rf"(?:{subjects})[ \t]++(?:would[ \t]++)?(?:{_words(GIVES)})[ \t$]*+"
                         r"(-?\d[\d.,/]{0,20}+)", said, re.IGNORECASE):  # fmt: skip
        if any(same(m[1], v) for v in denied):
            return False  # "No, that gives 8": 8 affirmed
        if denied:
            own |= set(re.findall(r"\d+", m[1]))  # "8 gives 9": what 8 gives, not a candidate
    said = _LABELLED_NUMBER.sub(" ", said)  # "clue 4", "step 2": labels, no values
    return all(n in own for n in re.findall(r"\d+", said))


_LABELLED_NUMBER = re.compile(rf"\b(?:{_words(LABELS)})[ \t]*+#?\d++", re.IGNORECASE)


# the languages whose number words text2num reads, besides English (:func:`numerals`)
NUMBER_LANGUAGES = ("de", "fr", "es", "pt", "it", "nl")


def _in_digits(sentence: str, kind: str) -> str:
    """A sentence the lexicon cannot read with its number words written in digits, in every
    language of :data:`NUMBER_LANGUAGES` ("Acht." -> "8."), where the answer is a value."""
    if kind != "value":
        return sentence
    for language in NUMBER_LANGUAGES:
        sentence = alpha2digit(sentence, language)
    return sentence


def _recommitted_after_but(s: str, answer: str, kind: str) -> str:
    """The last "but" clause of ``s`` where it re-commits to the answer (:func:`recommits`) and
    offers or doubts nothing itself, else ``s``."""
    buts = list(_BUT.finditer(s))
    if not buts:
        return s
    clause = s[buts[-1].end() :]
    if not recommits(clause, answer, kind):
        return s
    if uncommits(clause, answer, kind) or states_other(clause, answer, kind):
        return s
    return clause


def numerals(sentence: str) -> str:
    """``sentence`` with each value in another spelling written in digits: number words
    ("eight", "twenty-one", "seven point five"), Roman numerals of two letters or more ("VIII"),
    arithmetic, multiples and powers in words ("2 times 7 plus 1 is 15", "the product of 6 and 7
    is 42", "14 is twice 7", "12 squared") as symbols,
    and arithmetic that no relation surrounds ("2^3", "(4 + 4)"), each as the value it is. A
    sentence with a relation (``=``, ``<``, ``\\le``, ...) computes or bounds: its arithmetic
    stays as written."""
    text = _ROMAN.sub(lambda m: str(_roman(m.group())), alpha2digit(sentence, "en"))
    if _WORD_OPERATOR.search(text) or _OPERATION_OF.search(text):  # 2 times 7 plus 1 is 15
        text = _OPERATION_OF.sub(lambda m: f"{m[2]} {_SYMBOL_OF[m[1].lower()]} {m[3]}", text)
        text = _WORD_OPERATOR.sub(
            lambda m: f" {_OPERATOR_OF[' '.join(m.group(1).lower().split())]} ", text
        )
        text = _WORD_RESULT.sub(" = ", text)
    text = _MULTIPLE.sub(lambda m: f" = {_FACTOR_OF[m.group(1).lower()]} * ", text)
    text = _WORD_POWER.sub(_power_in_symbols, text)
    if _RELATION.search(text):
        return text
    return _ARITHMETIC_RUN.sub(lambda m: _value_text(m.group()), text)


def _power_in_symbols(m: re.Match) -> str:
    if m["word"]:
        return "^2" if m["word"].lower() == "squared" else "^3"
    return f"^{m['of'] or m['nth']}"


def states_other(sentence: str, answer: str, kind: str = "value") -> bool:
    """The rule by structure (docs/guides/rewards.md#another-value-by-structure): whether a
    sentence after the answer speaks of another value of the answer's type as a candidate,
    whatever words it uses. Values in any spelling count (:func:`numerals`). A value that is no
    candidate: the answer, an operand or result of arithmetic, a label's number ("step 2"), a
    bound ("at most 15"), and, outside the rules below, a quantity ("8 cases"). Another value
    is offered when it is a clause's subject with a predicate after it ("8 is in the mix",
    "Though VIII isn't off the table"; not a role, "2 is the coefficient"), when it is the
    sentence's one number with at most :data:`MAX_AROUND_WORDS` words around it ("Ehkä 8."), or when a sentence in the first person names it ("I lean
    towards 7 over 8"); unless the sentence rejects it (:func:`rejects`, or calls it wrong). Numbers (answers of
    type ``value`` that are numbers, and ``grid`` cells) are read so; a name is only by the
    first-person rule, or where the sentence is names and nothing else ("Alice.", a bullet list of
    names)."""
    numeric = kind == "grid" or (kind == "value" and _number(answer) is not None)
    if not (numeric or kind == "name") or not answer:
        return False
    if kind == "grid" and _labelled_grid(sentence, answer):
        return True  # "Zweite Möglichkeit: 8 9 4 ...": another whole grid under a label
    s = _SAMPLE_SPACE.sub(" ", sentence.strip())  # "four equally likely outcomes": a count
    s = numerals(s) if numeric else s
    if (
        numeric
        and _unread_arithmetic(sentence)
        and not (rejects(s, answer, kind) or _said_wrong(s))
    ):
        return True  # a value past what the lexicon reads is not the answer
    if (
        kind == "value"
        and _assigns_other(s, answer)
        and not (rejects(s, answer, kind) or _said_wrong(s))
    ):
        return True
    pattern = _NUMBER_VALUE if numeric else _NAME_VALUE
    found = [m for m in pattern.finditer(s) if _other_value(s, m, answer, kind)]
    if kind == "grid":  # a cell's value, in the answer or not, as a clause's subject
        found += [m for m in _CELL.finditer(s) if _other_value(s, m, "", "cell")]
    if not found or rejects(s, answer, kind) or _said_wrong(s):
        return False
    if kind == "name" and not _WORD_CHAR.search(_NAME_VALUE.sub(" ", s)):
        return True  # "Alice.", "- Bob / - Alice": names and nothing said of them offer them
    speaker = _FIRST_PERSON.search(s) and not _LET_ME.search(s)
    numbers = None  # how many numbers the sentence has, counted once when needed
    for m in found:
        if m.re is _CELL:
            if _subject(s, m):
                return True
            continue
        if speaker and (not _NOUN_AFTER.match(s, m.end()) or _clause_start(s, m)):
            return True  # "I also got 8 once", "Though honestly 8 keeps nagging me"
        if not numeric:
            continue
        if _subject(s, m):
            return True
        if numbers is None:
            numbers = len(_NUMBER_VALUE.findall(s))
        if numbers != 1:
            continue  # alone only where it is the sentence's one number
        around = _AROUND_WORD.findall(s[: m.start()]) + _AROUND_WORD.findall(s[m.end() :])
        if len(around) <= MAX_AROUND_WORDS and not _computes(s):
            return True
    return False


def _unread_arithmetic(s: str) -> bool:
    """Whether a sentence that computes nothing (no relation, no "is" after it) holds arithmetic
    past what the lexicon reads (more than :data:`MAX_READ_OPERATORS` operators or
    :data:`MAX_READ_BRACKETS` brackets in one span): a value it cannot compare with the answer,
    so, after the answer, another one. Linear: one possessive scan, then counts."""
    if _RELATION.search(s):
        return False
    for m in _ARITHMETIC_SPAN.finditer(s):
        span = m.group()
        if not _DIGIT.search(span):
            continue  # brackets and signs without a number: no value at all
        if (
            span.count("(") <= MAX_READ_BRACKETS
            and len(_SPAN_OPERATOR.findall(span)) <= MAX_READ_OPERATORS
        ):
            continue
        if not _RESULT_AFTER.match(s, m.end()):
            return True
    return False


# an unknown given a value: "Also n = 8", "\\(x = 8\\) holds too"; a letter that starts a term (not
# "2n = 8") and a number that ends one (not "n = 8 - 1", a step)
_ASSIGNED = re.compile(
    r"(?:^|(?<=[\s$(:;,]))(?:\\[(\[][ \t]*+)?[A-Za-z](?:_?+\{?+\d{1,2}+\}?+)?+[ \t]*+=[ \t$]*+"
    r"(-?\d++(?:\.\d++)?+(?:/\d++)?+)(?![ \t]*+(?:[\d+\-*/^(×÷·]|\\(?:cdot|times|div)\b)|[\w.]\w)"
)
# what makes an assignment a supposition: "if n = 8", "with n = 8", "plugging in n = 8", "let n = 8"
_SUPPOSED_BEFORE = re.compile(
    r"\b(?:if|suppos\w*|assum\w*|with|for|when|whenever|tr(?:y|ying|ied)|plug\w*|substitut\w*|"
    r"sett?ing|put\w*|let|at|taking|take|check\w*|test\w*)\b[^.;:]{0,25}+$",
    re.IGNORECASE,
)


# what makes an assignment a trial: what it gives follows ("n = 8 gives 17", "n = 8 fails")
_TRIED_AFTER = re.compile(
    r"[ \t$)\\]*+(?:gives|yields|makes|leads|produces|results|would|fails|doesn['’]t|does[ \t]+not|"
    r"is[ \t]+too|overshoots|undershoots|→|⇒|->|=>)",
    re.IGNORECASE,
)


def _assigns_other(s: str, answer: str) -> bool:
    """Whether a sentence gives an unknown a value other than the answer, outright ("Also
    n = 8.", "n = 7 and n = 8 are both fine"): another candidate, whatever words surround it. An
    assignment supposed ("if n = 8, ...") or tried ("n = 8 gives 17") is read by the conditional
    rules and the rules of rejection, not here."""
    for m in _ASSIGNED.finditer(s):
        if same(m.group(1), answer):
            continue
        if _TRIED_AFTER.match(s, m.end()):
            continue
        if not _SUPPOSED_BEFORE.search(s[max(0, m.start() - 40) : m.start()]):
            return True
    return False


def _labelled_grid(s: str, answer: str) -> bool:
    """Whether a sentence gives, after a label of any words and a colon, a whole grid (as many
    cells as the answer) other than the answer; a label of the puzzle's own grids (an example,
    an input, a check) names none."""
    cells = answer.split()
    for m in _GRID_VALUE.finditer(s):
        grid = _plain_cells(m.group())
        if len(grid) != len(cells) or grid == cells:
            continue
        label = s[max(0, m.start() - 60) : m.start()]
        if _COLON_END.search(label) and not _PUZZLE_GRID.search(label):
            return True
    return False


def _plain_cells(text: str) -> list[str]:
    return [plain_cell(c) for c in re.findall(r"\d+", text)]


def plain_cell(cell: str) -> str:
    """A grid cell as a human reads it: without leading zeros (``08`` is 8, ``-0`` is 0)."""
    sign, digits = ("-", cell[1:]) if cell.startswith("-") else ("", cell)
    digits = digits.lstrip("0") or "0"
    return sign + digits if digits != "0" else "0"


def _clause_start(s: str, m: re.Match) -> bool:
    """Whether the value ``m`` opens a clause (after sentence adverbs): the word after it is its
    verb, whatever verb ("8 keeps nagging me", "Still, Bob keeps coming back to me"), but for a
    verb in the past ("Alice was my first thought"): a belief left behind."""
    spaced = m.group()[-1:].isspace() or s[m.end() : m.end() + 1].isspace()
    return bool(_OPENER.search(s[max(0, m.start() - 60) : m.start()])) and bool(
        spaced and re.match(r"[ \t]*+(?!(?:was|were|had)\b)[a-z]", s[m.end() :])
    )  # not a past belief: "Alice was my first thought, but clue 4 puts Arnold there."


def _subject(s: str, m: re.Match) -> bool:
    """Whether the value ``m`` is a clause's subject with a predicate after it that is no role
    ("8 is in the mix"; not "2 is the coefficient")."""
    opens = _OPENER.search(s[max(0, m.start() - 60) : m.start()])
    return bool(opens and _PREDICATE_AFTER.match(s, m.end())) and not _ROLE_PREDICATE.match(
        s, m.end()
    )


def _said_wrong(s: str) -> bool:
    """Whether a sentence calls what it names wrong (:data:`REJECTED_BY`: "8 would be wrong"),
    not under a negation ("8 isn't wrong" grants it)."""
    return bool(_REJECTED_BY_RE.search(s) or _MISTAKE_RE.search(s)) and not _LITOTES_RE.search(s)


def _other_value(s: str, m: re.Match, answer: str, kind: str) -> bool:
    """Whether the value ``m`` of ``s`` is another candidate (:func:`_candidate`) and no label's
    number or bound; a grid's cell is another candidate when the answer's cells lack it."""
    before = s[max(0, m.start() - 30) : m.start()]
    if _LABEL_BEFORE.search(before) or _BOUND_BEFORE.search(before):
        return False
    if _RESTATED_BEFORE.search(before) or _MEASURE_BEFORE.search(before):
        return False  # "\\approx 4.67", "Confidence: 1.0": the answer again, or a confidence
    if m.re is _NUMBER_VALUE and m.group().strip() in _results(s):
        return False  # "if n = 7, 2n + 1 = 15, and 15 is also odd": a result computed here
    if kind == "cell":
        return not _computed(s, m.start(), m.end())
    if kind == "grid":
        value = m.group().strip()
        return (
            value.isdigit()
            and not _computed(s, m.start(), m.end())
            and (value not in answer.split() or _number(value) is None)
        )
    return _candidate(s, m, answer, kind if kind != "grid" else "value")


_AFTER_EQUALS = re.compile(r"(?:=|≈|\\approx\b|\bequals)[ \t$]{0,3}+([-\w.,]{1,40}+)")


@functools.lru_cache(maxsize=256)
def _results(s: str) -> frozenset[str]:
    """The values a sentence writes right after "=" or "equals" (every prefix of what follows
    that a number may end at): one pass, so a sentence of many values is read in linear time."""
    found = set()
    for m in _AFTER_EQUALS.finditer(s):
        run = m.group(1)
        for k in range(1, len(run) + 1):
            if not (run[k : k + 1] in ("", *".0123456789") and run[k + 1 : k + 2].isdigit()):
                found.add(run[:k])
    return frozenset(found)


def _roman(numeral: str) -> int:
    values = [_ROMAN_DIGITS[c] for c in numeral]
    return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True))


def _value_text(expression: str) -> str:
    """The value of an arithmetic run as text ("2^3" -> "8"), else the run as written."""
    text = _plain(expression).replace("^", "**")
    if len(text) > 200 or not _ARITHMETIC_ONLY.fullmatch(text):
        return expression
    try:
        value = _value_of(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError, OverflowError):
        return expression
    if value.denominator != 1:
        return expression
    return str(value.numerator)


def _values(kind: str, answer: str) -> re.Pattern:
    """The pattern of a value of the answer's type."""
    if kind == "name" or (kind == "value" and _number(answer) is None and _WORDS.fullmatch(answer)):
        return _NAME_VALUE
    if kind == "grid":
        return _GRID_VALUE
    return _EXPRESSION_VALUE if kind == "expression" else _NUMBER_VALUE


def _gives_other(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence says that something gives, yields or lands on another candidate
    (:func:`_offered`; the value nearest the verb, up to four words after it, and not a quantity
    of something: "each box gives 2 points")."""
    pattern = _GRID_VALUE if kind == "grid" else _values(kind, answer)
    for verb in _GIVES_ANY.finditer(s):
        m = pattern.search(s, verb.end())
        if not m or len(_AROUND_WORD.findall(s[verb.end() : m.start()])) > MAX_GAP_WORDS:
            continue
        if _offered(s, m, answer, kind) and not _NOUN_AFTER.match(s, m.end()):
            return True
    return False


def _other_cell_at(s: str, answer: str) -> bool:
    """Whether a sentence supposes a cell of the answer's grid other than it is: "the last cell
    would be 0", "the sixth cell could be five" (a place in any spelling, a modal or a condition,
    and a value that differs from the answer's cell at that place)."""
    cells = answer.split()
    for m in _CELL_AT.finditer(alpha2digit(s, "en", threshold=0)):  # "the sixth cell": the 6th
        place = m.group(1).casefold()
        if place in _PLACES:
            index = _PLACES[place]
        else:  # counted from 1; a "0th" cell is the first, counted from 0
            index = max(int(re.match(r"\d+", place).group()) - 1, 0)
        if not -len(cells) <= index < len(cells):
            continue
        supposed = m.group(2).casefold().startswith(("would", "could", "might", "may"))
        if (supposed or _IF.search(s)) and plain_cell(m.group(3)) != plain_cell(cells[index]):
            return True
    return False


def _names_other(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence after the answer that the lexicon cannot read (:func:`reads_english`)
    names a value of the answer's type other than the answer. What it says of the value is not
    read, so naming it offers it, unless the notation itself says what the value is: a quantity
    computed on the way (:func:`_candidate`; for an expression, a step of an equation), a part of
    the answer, the answer restated (``\\approx 4.67``), a label's number, a measure, or a
    one-sided bound (``n > 0``; a range with the answer at one end, ``7 \\le n \\le 8``, offers
    its other end). For a grid, any run of cells but the whole answer."""
    if kind == "grid":
        return any(_plain_cells(m.group()) != _plain_cells(answer) for m in _GRID_VALUE.finditer(s))
    for m in _NOTATION_RANGE.finditer(s):
        if same(m.group(1), answer) != same(m.group(2), answer):
            return True
    parts = set(re.findall(r"\d+(?:\.\d+)?", answer)) if kind == "value" else set()
    steps = [
        run.span()
        for run in _EXPRESSION_VALUE.finditer(s)
        if _STEP_AFTER.match(s, run.end()) and any(op in run.group() for op in "+-*/×÷·^(\\")
    ]  # "2(7) + 1 = 15": the left side of an equation is a computation
    for m in _values(kind, answer).finditer(s):
        if kind == "value" and m.group().strip().lstrip("-$") in parts:
            continue
        if kind == "value" and any(a <= m.start() and m.end() <= b for a, b in steps):
            continue
        before = s[max(0, m.start() - 30) : m.start()]
        if _LABEL_BEFORE.search(before) or _BOUND_BEFORE.search(before):
            continue
        if _RESTATED_BEFORE.search(before) or _MEASURE_BEFORE.search(before):
            continue
        if kind == "expression" and (_STEP_BEFORE.search(before) or _STEP_AFTER.match(s, m.end())):
            continue  # "25*2=50, 50-7=43": the steps of a computation
        if _candidate(s, m, answer, kind):
            return True
    return False


def _read_otherwise(s: str, answer: str, kind: str) -> bool:
    """Whether a sentence that names another reading, variant or answer names another candidate
    anywhere in it (:func:`_offered`): what that reading gives."""
    return any(_offered(s, m, answer, kind) for m in _values(kind, answer).finditer(s))


def _offered(s: str, m: re.Match, answer: str, kind: str) -> bool:
    """Whether the value ``m``, which a sentence puts beside the answer (a result someone gets,
    what another reading gives, a condition's consequence), is another candidate: one value of
    the answer's whole type (for a grid, as many cells as the answer), not the answer, no
    quantity computed on the way (:func:`_candidate`) and no bound ("would overshoot 15", "at
    most 8")."""
    if kind == "grid" and len(_plain_cells(m.group())) != len(answer.split()):
        return False
    if _BOUND_BEFORE.search(s[max(0, m.start() - 30) : m.start()]):
        return False
    return _candidate(s, m, answer, kind)


def _conditional_candidate(s: str, answer: str, kind: str) -> bool:
    """Whether a condition's consequence is another candidate: a bare value of the answer's type
    (one that ends its clause, or that "instead" follows) before the "if" at the sentence's
    start, or after the conditional clause (past a comma, a colon or "then", and "it's"). A
    value inside the "if" clause is what is supposed, not an answer offered."""
    pattern = _values(kind, answer)
    condition = _IF.search(s) or _CHANGE_OPENS.match(s)
    start = len(s) - len(s.lstrip("([ \t*"))
    m = pattern.match(s, start)
    before_if = (
        m and m.end() <= condition.start() and not s[m.end() : condition.start()].strip(" ,")
    )
    if before_if and _candidate(s, m, answer, kind):
        return True
    for n, clause_end in enumerate(_CLAUSE_END.finditer(s, condition.end())):
        if n == MAX_CLAUSES:
            break
        m = pattern.match(s, _CONSEQUENT.match(s, clause_end.end()).end())
        if m and _BARE_END.match(s, m.end()) and _candidate(s, m, answer, kind):
            return True
        computes = kind != "expression" and _computes(s)  # an expression is arithmetic itself
        if n == 0 and not computes and not _said_wrong(s):  # "If clue 4 means left, it's Bob."
            for m in pattern.finditer(s, clause_end.end()):
                if _offered(s, m, answer, kind):
                    return True
                if kind == "grid" and _INSTEAD.match(s, m.end()):
                    return True  # "If the shift is two, the last cell would be 0 instead."
    return False


def _result_again(s: str, pos: int, answer: str, kind: str) -> bool:
    """Whether the value at ``pos`` is one the sentence already states as a result ("which is
    600", "= 600"): the same quantity again, not a candidate beside the answer."""
    m = _values(kind, answer).match(s, pos)
    if not m or kind == "name":
        return False
    value = re.escape(m.group().strip())
    return (
        re.search(rf"(?:=|\bis|\bequals|\bgives)[ \t$]{{0,3}}{value}(?![\d.]\d)", s[:pos])
        is not None
    )


def _between_others(s: str, start: int, answer: str, kind: str) -> bool:
    """Whether the word at ``start`` ("or") joins a value that is not the answer to the next."""
    before = _VALUE_BEFORE.search(s[max(0, start - 40) : start])
    return bool(before) and not same(before.group(1), answer) and kind != "name"


def _candidate_after(
    s: str, pos: int, answer: str, kind: str, gap: bool, whole: bool = False
) -> bool:
    """Whether a value that differs from ``answer`` stands at ``pos`` (or, with ``gap``, up to
    four words after it, none of them a word of restatement); ``whole``: a grid's part is no
    grid (a cell value after a label of another candidate is offered in its place)."""
    pattern = _values(kind, answer)
    if _RESTATEMENT_RE.match(s, pos):
        return False
    while kind == "expression" and s[pos - 1 : pos] == "(":
        pos -= 1  # the bracket the offer word's gap took opens the expression: "or (9 + 3) * 4"
    starts = [pos]
    while gap and len(starts) <= MAX_GAP_WORDS and (word := _GAP_WORD.match(s, starts[-1])):
        if _RESTATEMENT_RE.match(s, starts[-1]):
            break
        starts.append(word.end())
    for start in starts:
        m = pattern.match(s, start)
        if m and whole and kind == "grid":
            return _plain(m.group()) != _plain(answer)
        if m and _candidate(s, m, answer, kind):
            return True
    return False


def _candidate(s: str, m: re.Match, answer: str, kind: str) -> bool:
    """Whether the value ``m`` of ``s`` is another candidate: it differs from the answer and is
    no quantity computed on the way (an operand, or the result of arithmetic, is not: "2n+1=15";
    a variable's value is: "x = 8")."""
    value = m.group().strip()
    if m.re is _NAME_VALUE:
        words = value.casefold().split()
        if words[0] in NOT_NAMES or value.casefold() in PRONOUNS:
            return False
        known = {n.casefold() for n in KNOWN_NAMES.get()}
        if known and not known & {value.casefold(), *words}:
            return False  # the puzzle's names are known: "Checking:" is none of them
        return not same(value, answer)
    if m.re is _EXPRESSION_VALUE:
        value = value.rstrip(". ")
        if not any(op in value for op in "+-*/×÷·") and "\\" not in value:
            return False
        return _plain(value) != _plain(answer) and not _same_expression(value, answer)
    if _PERCENT_AFTER.match(s, m.end()) and "%" not in answer:
        return False  # "or 70% of the 10 invited": a share, not the answer's value
    return not _computed(s, m.start(), m.end()) and not same(value.replace("$", ""), answer)


_PRODUCT_AFTER = re.compile(r"[ \t]*+\([ \t]*+-?\d")


_APPROXIMATED = re.compile(r"[\d)}][ \t]*+(?:≈|\\approx|\\simeq)[ \t$]*+$")


def _computed(s: str, start: int, end: int) -> bool:
    before = s[max(0, start - 20) : start].rstrip()
    after = s[end : end + 8].lstrip()
    if _OPERATOR_WORD.search(before):
        return True
    if _APPROXIMATED.search(before):
        return True  # "8.49^2 \\approx 72.1": what arithmetic approximates, no candidate
    if before[-1:] and before[-1] in _OPERATOR:
        if before[-1] == "=" and _EQUATION_RESULT.search(before):
            return False  # "x = 8": the variable's value
        left = before[:-1].rstrip()
        if left[-1:].isdigit() or left[-1:] in ")}" or re.search(r"(?<![A-Za-z])[A-Za-z]$", left):
            return True
    if _OPERATOR_WORD_AFTER.match(after) or _TERM_AFTER.match(s, end):
        return True  # "2 \\cdot 7", the 2 of "2n+1"
    if _PRODUCT_AFTER.match(s, end):
        return True  # the 2 of "2(7) + 1": a factor
    operand = after[1:].lstrip()[:1]
    return bool(after[:1] and after[0] in _OPERATOR and operand and operand not in ".,;")


def _is_answer(value: str, answer: str) -> bool:
    """Whether a value named in a sentence is the answer (a number, words or an expression)."""
    value = value.rstrip(".,;:")
    if not answer:
        return True
    return same(value, answer) or _plain(value) == _plain(answer) or _same_expression(value, answer)


def _same_expression(value: str, answer: str) -> bool:
    """Whether an expression is the answer written another way: the same numbers, the same value
    ("2*25+3-7" beside ``25*2-7+3``); other numbers of the same value are another solution."""
    numbers = sorted(_NUMBER.findall(_plain(value).replace("-", " ")))
    if numbers != sorted(_NUMBER.findall(_plain(answer).replace("-", " "))):
        return False
    mine, theirs = _evaluate(value), _evaluate(answer)
    return mine is not None and mine == theirs


def _evaluate(expression: str) -> Fraction | None:
    """The value of an arithmetic expression of numbers, + - * / and brackets, else None."""
    text = _plain(expression).replace("{", "(").replace("}", ")")
    if len(text) > 200 or not _ARITHMETIC_ONLY.fullmatch(text):
        return None
    try:
        return _value_of(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError):
        return None


def _value_of(node: ast.AST) -> Fraction:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return Fraction(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value_of(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATIONS:
        return _OPERATIONS[type(node.op)](_value_of(node.left), _value_of(node.right))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        base, exponent = _value_of(node.left), _value_of(node.right)
        if exponent.denominator != 1 or not 0 <= exponent <= MAX_EXPONENT or abs(base) > 10**6:
            raise ValueError("a power too large to evaluate")
        return base ** int(exponent)
    raise ValueError("not arithmetic")


_OPERATIONS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}
_ARITHMETIC_ONLY = re.compile(r"[\d.+\-*/() ]{1,200}+")


def _computes(s: str) -> bool:
    """Whether a sentence computes (an equation or arithmetic between values)."""
    return "=" in s or bool(_ARITHMETIC.search(s))


def _plain(expression: str) -> str:
    for old, new in (("\\times", "*"), ("\\cdot", "*"), ("×", "*"), ("·", "*"), ("\\div", "/"),
                     ("÷", "/"), ("\\left", ""), ("\\right", "")):  # fmt: skip
        expression = expression.replace(old, new)
    return "".join(expression.split())


_PARAGRAPH = re.compile(r"\n[ \t]*+\n")
# what marks a step of the reasoning rather than a remark: a number, a formula
# what marks a sentence that may be a step of reasoning: a number, a formula, a role stated
_ROLE_WORD = re.compile(r"\bkn(?:igh|av)\w*", re.IGNORECASE)
_STEP_MARK = re.compile(rf"[\d$\\=]|{_ROLE_WORD.pattern}", re.IGNORECASE)


def _is_step(sentence: str) -> bool:
    """Whether a sentence is a step of reasoning: it computes, or states a role (K&K reasons in
    words)."""
    return _computes(sentence) or bool(_ROLE_WORD.search(sentence))


_MATH_OPENERS = ("$", "$$", "\\[", "\\(")  # what opens a formula; the last three are two long
_WORD_CHAR = re.compile(r"[^\W_]")
_WORDS = re.compile(r"[A-Za-z][A-Za-z '.-]{0,60}+")
_ARITHMETIC = re.compile(r"[\d)]\s*(?:[-+*/^×÷·]|\\(?:cdot|times|div)\b)\s*[\d(]")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_BARE_FRAC = re.compile(r"\\([dt]?frac)\s*(\d)\s*(\d)")
_FRACTION = re.compile(r"(-?)\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}|(-?\d+)\s*/\s*(\d+)")
_PERCENT_VALUE = re.compile(r"\d{1,2}(?:[.,]\d+)?")


def _number(text: str) -> float | None:
    """The number ``text`` is, when it is one (``12``, ``-0.5``, ``\\frac{1}{2}``, ``3/4``)."""
    text = text.strip().rstrip(".,").replace("$", "").replace(",", "")
    text = _BARE_FRAC.sub(r"\\\1{\2}{\3}", text)  # "\\frac12" is "\\frac{1}{2}"
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
    if _plain(answer) in _plain(sentence):
        return True
    return " ".join(answer.casefold().split()) in " ".join(sentence.casefold().split())
