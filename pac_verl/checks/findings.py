"""One line of the preflight's node table: a check, its status and what to do about it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Finding:
    check: str
    status: str  # ok | warn | error | unchecked
    detail: str
