"""The result every scorer returns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Verdict:
    """``score`` in [0, 1]; ``reason`` a short machine-readable word (``ok``, ``no_boxed``, ...)."""

    score: float
    reason: str

    @property
    def correct(self) -> bool:
        return self.score >= 1.0


def fail(reason: str) -> Verdict:
    return Verdict(0.0, reason)


OK = Verdict(1.0, "ok")
