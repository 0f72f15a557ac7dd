"""ARC-1D: the boxed grid equals the target (``8 9 4 0 0 0 0 1 6 7``), see :mod:`.exact`."""

from pac_verl.verifiers.exact import score_exact as score

__all__ = ["score"]
