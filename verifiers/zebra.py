"""Zebra puzzles: the boxed name equals the target (``arnold``), see :mod:`.exact`."""

from pac_verl.verifiers.exact import score_exact as score

__all__ = ["score"]
