"""Build folders that never lose work: refuse, lock, stage, then publish.

Every ``pac-verl prep`` build writes its folder through a :class:`BuildFolder`:

1. **Refuse before any work.** The folder must be writable (:func:`pac_verl.outputs.writable_dir`)
   and hold nothing but an earlier build's files; an earlier build is replaced only with
   ``--force`` (as ``quickstart`` and ``simulate`` do), and files this command did not write are
   never removed. Unlike those commands, ``--force`` removes nothing at the start: the earlier build
   stays in place, whole, until the new one is ready.
2. **Lock while writing.** The folder's ``.pac-verl-prep.lock`` is held (``flock``) from the start
   to the end of the build; a second build into the same folder fails at once, naming the first
   one's process id. The lock file stays (removing it would race with a build about to take it).
3. **Stage, then publish.** Files are written into ``.staging-*`` inside the folder; only when
   every file of the build is written are they renamed into place (each rename atomic), files of
   the earlier build this one does not write are removed, and ``data_manifest.json`` is written
   last, with the fingerprint of every file (:mod:`.fingerprint`). The earlier manifest is removed
   before the first rename, so a folder whose manifest does not match its files was interrupted.
4. **A full disk is one line.** ``No space left on device`` (or a quota) while staging is a
   :class:`~pac_verl.errors.UserError` naming the folder, the file and the free space; the staged
   files are removed and the folder is as it was.

A build that fails for any reason leaves the folder as it found it (and removes it if the build
created it).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pac_verl.data_prep.fingerprint import MANIFEST, file_fingerprint
from pac_verl.errors import UserError
from pac_verl.outputs import apply_umask, umask, writable_dir

LOCK = ".pac-verl-prep.lock"
STAGING_PREFIX = ".staging-"
DATA_FILES = ("train.parquet", "val.parquet")
OURS = frozenset({*DATA_FILES, MANIFEST})


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def is_disk_full(err: BaseException) -> bool:
    """Whether ``err`` says the file system is full (errno, or the text pyarrow passes on)."""
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(err).lower()
    return "no space left on device" in text or "disk quota exceeded" in text


def _free_mb(path: Path) -> str:
    try:
        return f"{shutil.disk_usage(path).free / 1e6:,.0f} MB free there"
    except OSError:
        return "free space unknown"


class BuildFolder:
    """The output folder of one build (module docstring). Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str], force: bool = False, option: str = "--out"):
        self.path = Path(path).expanduser()
        self.force, self.option = force, option
        self.staged: dict[str, Path] = {}
        self._fd: int | None = None
        self._staging: Path | None = None
        self._created: list[Path] = []

    # -------------------------------------------------------------------------- enter / exit

    def __enter__(self) -> BuildFolder:
        writable_dir(self.path, self.option)
        self._created = [p for p in (self.path, *self.path.parents) if not p.exists()]
        self.path.mkdir(parents=True, exist_ok=True)
        try:
            self._lock()
            self._refuse_unless_ours()
            self._staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.path))
        except BaseException:
            self._release(failed=True)
            raise
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self._release(failed=exc_type is not None)

    def _lock(self) -> None:
        lock = self.path / LOCK
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666 & ~umask())
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise UserError(f"{self.option} {self.path}: another pac-verl prep (pid {holder}) is "
                            "writing this folder now; wait for it to finish or choose another "
                            "folder") from None  # fmt: skip
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def _refuse_unless_ours(self) -> None:
        entries = sorted(e for e in self.path.iterdir() if e.name != LOCK)
        for stale in [e for e in entries if e.name.startswith(STAGING_PREFIX)]:
            shutil.rmtree(stale, ignore_errors=True)  # a killed build's; we hold the lock
            entries.remove(stale)
        if entries and not self.force:
            shown = ", ".join(e.name for e in entries[:3]) + (", ..." if len(entries) > 3 else "")
            raise UserError(f"{self.option} {self.path} is not empty ({shown}): pass --force to "
                            "replace the build there (it stays until the new one is written), "
                            "or choose an empty folder")  # fmt: skip
        foreign = [e.name for e in entries if e.name not in OURS]
        if foreign:
            raise UserError(f"{self.option} {self.path} holds files pac-verl prep did not write "
                            f"({', '.join(foreign[:3])}): --force only replaces a build; choose "
                            "another folder")  # fmt: skip

    def _release(self, failed: bool) -> None:
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None
        if failed and self._created and {e.name for e in self.path.iterdir()} <= {LOCK}:
            with contextlib.suppress(OSError):
                (self.path / LOCK).unlink()
            for folder in self._created:  # deepest first
                with contextlib.suppress(OSError):
                    folder.rmdir()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # -------------------------------------------------------------------------- staging

    @contextlib.contextmanager
    def _disk_full_is_one_line(self, name: str):
        try:
            yield
        except OSError as err:
            if not is_disk_full(err):
                raise
            raise UserError(f"{self.option} {self.path}: no space left on device while writing "
                            f"{name} ({_free_mb(self.path)}); free some space or choose another "
                            "folder (nothing in the folder was changed)") from None  # fmt: skip

    def write_parquet(self, name: str, rows: Iterable[Mapping[str, Any]]) -> Path:
        """Stage ``rows`` as ``name``; returns the path the file will have once published."""
        import pyarrow.parquet as pq

        from pac_verl.data_prep.rows import write_parquet

        assert self._staging is not None, "use BuildFolder as a context manager"
        rows = list(rows)
        with self._disk_full_is_one_line(name):
            staged = write_parquet(rows, self._staging / name)
            try:  # a write error that the writer did not raise (at close) shows here
                written = pq.read_metadata(staged).num_rows
            except (OSError, ValueError):
                written = None
        if written != len(rows):
            raise UserError(f"{self.option} {self.path}: {name} was not written whole ("
                            f"{_free_mb(self.path)}); is the disk full? Nothing in the folder was "
                            "changed")  # fmt: skip
        self.staged[name] = staged
        return self.path / name

    def publish(self, manifest: Mapping[str, Any]) -> dict[str, Path]:
        """Move the staged files into place, remove the earlier build's other files and write
        ``data_manifest.json`` (``manifest`` plus ``files``: each file's fingerprint)."""
        files = {name: file_fingerprint(p) for name, p in self.staged.items()}
        for fp, name in zip(files.values(), files, strict=True):
            fp["path"] = name  # the manifest names files relative to the folder it sits in
        body = json.dumps({**manifest, "files": files}, indent=2, default=str) + "\n"
        assert self._staging is not None
        with self._disk_full_is_one_line(MANIFEST):
            (self._staging / MANIFEST).write_text(body)
            apply_umask(self._staging / MANIFEST)
        with contextlib.suppress(FileNotFoundError):
            (self.path / MANIFEST).unlink()
        published = {}
        for name, staged in self.staged.items():
            os.replace(staged, self.path / name)
            published[name] = self.path / name
        for stale in OURS - set(self.staged) - {MANIFEST}:
            with contextlib.suppress(FileNotFoundError):
                (self.path / stale).unlink()
        os.replace(self._staging / MANIFEST, self.path / MANIFEST)
        return published
