"""What data a run trained and validated on: a fingerprint per file, and the build's manifest.

:func:`file_fingerprint` is the file's SHA-256, size, rows and rows per ``data_source`` (read from
the parquet column, not trusted from anywhere else). :func:`data_record` is what ``run.json``
records under ``data``: the fingerprints of ``data.train_files`` and ``data.val_files``, and, for
each folder that holds them, the ``data_manifest.json`` that ``pac-verl prep`` left there (the
setting, the options, the math pool of a multi-domain build), with whether the file is still the
one that build wrote (``matches_manifest``: the build's recorded hash equals the file's; None
when the folder has no manifest).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pac_verl.errors import UserError

MANIFEST = "data_manifest.json"
_CHUNK = 1 << 20


def sha256_of(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def file_fingerprint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """``{"path", "sha256", "bytes", "rows", "rows_per_source"}`` of a verl parquet file; a
    missing or unreadable file is a :class:`UserError` naming it."""
    from pac_verl.data_prep.rows import read_table

    path = Path(path)
    table = read_table(path, columns=["data_source"])  # UserError if missing or unreadable
    per_source = Counter(table["data_source"].to_pylist())
    return {
        "path": str(path.resolve()),
        "sha256": sha256_of(path),
        "bytes": path.stat().st_size,
        "rows": table.num_rows,
        "rows_per_source": dict(sorted(per_source.items())),
    }


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``data_manifest.json`` of ``folder``, or None if it has none (an unreadable one is a
    :class:`UserError`)."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: not a readable data manifest ({err}); rebuild the folder with "
                        "pac-verl prep") from None  # fmt: skip


def _files(value: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[Path]:
    if isinstance(value, str | os.PathLike):
        return [Path(value)]
    return [Path(v) for v in value]


def data_record(
    train_files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    val_files: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
) -> dict[str, Any]:
    """What ``run.json`` records about the data (module docstring)::

    {"train": [fingerprint, ...], "val": [fingerprint, ...],
     "manifests": {folder: manifest or None}, "math_pool": "sec-math" | "dapo" | None}
    """
    manifests: dict[str, dict[str, Any] | None] = {}
    out: dict[str, Any] = {"train": [], "val": []}
    for split, value in (("train", train_files), ("val", val_files)):
        for path in _files(value):
            fp = file_fingerprint(path)
            folder = str(path.resolve().parent)
            if folder not in manifests:
                manifests[folder] = read_manifest(folder)
            manifest = manifests[folder]
            built = ((manifest or {}).get("files") or {}).get(path.name)
            fp["matches_manifest"] = None if manifest is None else (
                built is not None and built.get("sha256") == fp["sha256"])  # fmt: skip
            out[split].append(fp)
    out["manifests"] = manifests
    pools = {m.get("math_pool") for m in manifests.values() if m and m.get("math_pool")}
    out["math_pool"] = pools.pop() if len(pools) == 1 else (sorted(pools) if pools else None)
    return out
