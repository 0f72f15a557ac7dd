"""The toy task (``pac-verl prep toy``): rewards a 0.18 M-parameter random model can earn, or by
design cannot, within tens of GRPO steps on a CPU. It exists to test the paper's claim on a
miniature: arms that can be learned, at graded difficulty, beside arms that teach nothing.

The ground truth is JSON naming a rule (the builder, :mod:`pac_verl.data_prep.toy`, writes one per
arm); the response is scored by it:

* ``{"rule": "charset", "chars": "0123"}``: 1 when the response's first character that is not
  whitespace is one of ``chars``, else 0 (``not_in_set``; ``empty`` when there is none). The
  learnable arms ``learn/1..3`` differ only in the size of the set (16, 4 and 1 characters,
  nested), so a random policy over the ~100-token vocabulary succeeds with probability ~0.16,
  ~0.04 and ~0.01: graded difficulty, one skill.
* ``{"rule": "nonempty"}``: 1 for any response with a character that is not whitespace. Almost
  every response of any policy has one, so the arm is saturated (reward ~1, advantage ~0).
* ``{"rule": "exact", "text": "kqzv"}``: 1 only when the response, stripped of surrounding
  whitespace, is ``text`` (``not_equal``). With a 4-letter ``text`` a random policy succeeds with
  probability ~1e-8: out of reach (reward ~0, advantage ~0).
* ``{"rule": "coin", "p": 0.5}``: 1 with probability ``p``, drawn from the operating system's
  random source at every call, **whatever the response**: pure noise by design (large
  |advantage|, nothing to learn). The reward is deliberately not a function of the response (a
  hash of it would be learnable by memorising), and not reproducible from run to run; its reason
  is ``ok`` or ``coin_tails``. It is the only reward of the project that is not a verdict on the
  response, and it is only ever used by the toy's noise arm.

Never raises; a ground truth that is not one of the above is ``bad_ground_truth``.
"""

from __future__ import annotations

import json
import random

from pac_verl.verifiers.verdict import OK, Verdict, fail

RULES = ("charset", "nonempty", "exact", "coin")
MAX_CHARS = 4096  # a toy response is a few tokens; longer input is cut before any work
_COIN = random.SystemRandom()  # os.urandom: independent across forked scoring workers


def parse_truth(ground_truth: str) -> dict | None:
    """The rule of a toy ground truth, checked; None when it is not a valid toy truth."""
    try:
        truth = json.loads(ground_truth)
    except (TypeError, ValueError):
        return None
    if not isinstance(truth, dict) or truth.get("rule") not in RULES:
        return None
    rule = truth["rule"]
    if rule == "charset" and not (isinstance(truth.get("chars"), str) and truth["chars"].strip()):
        return None
    if rule == "exact" and not (isinstance(truth.get("text"), str) and truth["text"].strip()):
        return None
    if rule == "coin":
        p = truth.get("p")
        if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
            return None
    return truth


def score(solution_str: str, ground_truth: str) -> Verdict:
    truth = parse_truth(ground_truth)
    if truth is None:
        return fail("bad_ground_truth")
    rule = truth["rule"]
    if rule == "coin":  # independent of the response, by design (module docstring)
        return OK if _COIN.random() < float(truth["p"]) else fail("coin_tails")
    text = solution_str[:MAX_CHARS] if isinstance(solution_str, str) else ""
    stripped = text.strip()
    if rule == "nonempty":
        return OK if stripped else fail("empty")
    if rule == "exact":
        return OK if stripped == truth["text"].strip() else fail("not_equal")
    if not stripped:  # charset
        return fail("empty")
    return OK if stripped[0] in truth["chars"] else fail("not_in_set")


def gold(ground_truth: str) -> str | None:
    """A response that must score 1 (None for the coin, which no response can be sure of)."""
    truth = parse_truth(ground_truth)
    if truth is None or truth["rule"] == "coin":
        return None
    if truth["rule"] == "charset":
        return truth["chars"].strip()[0]
    if truth["rule"] == "exact":
        return truth["text"].strip()
    return "x"
