"""Figures for a simulation: to be drawn by the report's figure functions (``pac_verl.report``).

In this version ``pac_verl.report`` has no figure functions yet, so ``--figures`` stops before
simulating with a message saying so; the run logs hold every curve (``val-core/*``,
``curriculum/*``) for any plotting tool, and the report can draw them once it has figures.
"""

from __future__ import annotations

from pac_verl.errors import UserError


def ensure_available(log_dir) -> None:
    """Raise a ``UserError`` now, before any simulation, if figures cannot be drawn."""
    if log_dir is None:
        raise UserError("--figures needs the run logs: drop --no-logs")
    raise UserError(
        "--figures: this version cannot draw figures yet (pac_verl.report has no figure "
        "functions); run without --figures: the run logs in --out hold every validation and "
        "curriculum/ curve"
    )
