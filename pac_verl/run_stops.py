"""How a training run stops when the disk fills or the user presses Ctrl-C: one line naming the
cause, nothing half-written left for a later command to accept, and nothing left running that the
run started (Ray's local cluster). ``python -m pac_verl.main`` trains inside
:func:`stop_cleanly`; the recipes' launcher waits for its child to do so
(:func:`pac_verl.launch.run_child`). docs/guides/shorten-clean-retry.md says how to retry.

A full disk rarely says so: torch's checkpoint writer reports ``PytorchStreamWriter failed
writing file data/0: file write failed`` (or ``unexpected pos``), and inside Ray the error arrives
as a ``RayTaskError`` whose text holds the worker's traceback. :func:`disk_full` reads the
exception chain and that text; the free space where the checkpoints go confirms it.
"""

from __future__ import annotations

import contextlib
import errno
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from pac_verl.run_record import checkpointed_step

DISK_FULL_TEXT = ("no space left on device", "disk quota exceeded", "errno 28", "storagefull")
WRITE_FAILED_TEXT = ("pytorchstreamwriter failed writing file", "file write failed",
                     "inline_container.cc")  # fmt: skip
LOW_FREE_BYTES = 2**30  # under 1 GiB free after a failed write: the disk is what filled up
EXIT_INTERRUPTED = 130


def _chain(err: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while err is not None and err not in seen:
        seen.append(err)
        err = err.__cause__ or err.__context__
    return seen


def disk_full(err: BaseException, folder: str | Path | None = None) -> bool:
    """Whether ``err`` (anywhere in its chain, or in the text of a remote traceback) is a full
    disk: ENOSPC/EDQUOT, their text, or a failed torch write while ``folder``'s disk has under
    :data:`LOW_FREE_BYTES` free."""
    for e in _chain(err):
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        text = str(e).lower()
        if any(t in text for t in DISK_FULL_TEXT):
            return True
        if any(t in text for t in WRITE_FAILED_TEXT) and folder is not None:
            free = free_bytes(folder)
            if free is not None and free < LOW_FREE_BYTES:
                return True
    return False


def free_bytes(folder: str | Path) -> int | None:
    """Free bytes on the disk holding ``folder`` (its nearest existing parent)."""
    path = Path(folder).expanduser()
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return None


def partial_checkpoints(checkpoint_dir: str | Path) -> list[Path]:
    """verl's ``global_step_k`` folders past the last complete checkpoint (its tracker file is
    written after a save completes), i.e. the ones a failed save left half-written."""
    folder = Path(checkpoint_dir).expanduser()
    done = checkpointed_step(folder) or 0
    out = []
    for child in folder.glob("global_step_*"):
        match = re.fullmatch(r"global_step_(\d+)", child.name)
        if match and int(match.group(1)) > done and child.is_dir():
            out.append(child)
    return sorted(out)


def failed_path(err: BaseException) -> str | None:
    """The file a failed write names (an ``OSError``'s filename in the chain), if any."""
    for e in _chain(err):
        if isinstance(e, OSError) and e.filename:
            return str(e.filename)
    return None


def disk_full_message(checkpoint_dir: str | Path, err: BaseException | None = None) -> str:
    """The one line of a run stopped by a full disk, after removing the half-written checkpoints
    (a later resume reads the last complete one); it names the file that failed when ``err``
    does (run.json, a metrics file), else the checkpoint folder."""
    path = failed_path(err) if err is not None else None
    where = path or checkpoint_dir
    free = free_bytes(where)
    removed = partial_checkpoints(checkpoint_dir)
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    step = checkpointed_step(checkpoint_dir)
    gone = f"; removed the half-written {', '.join(f.name for f in removed)}" if removed else ""
    resume = "from step " + str(step) if step else "from the start"
    free_text = "" if free is None else f" ({free / 2**30:.1f} GiB free when the write failed)"
    target = where if path else f"under {where}"
    return (f"the disk is full: writing {target} failed{free_text}{gone}; free "
            f"space or point trainer.default_local_dir at a larger disk, then run the same "
            f"command again: it resumes {resume} (docs/guides/shorten-clean-retry.md)")  # fmt: skip


def stop_ray() -> None:
    """Stop what this process started in Ray (its local cluster's raylet, GCS and agents)."""
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        with contextlib.suppress(Exception):  # already half gone: nothing more to stop from here
            ray.shutdown()


def stop_cleanly(train: Callable[[], None], checkpoint_dir: str | Path, prog: str) -> None:
    """Run ``train``; on Ctrl-C or a full disk stop Ray, print one line and exit (130 after
    Ctrl-C, 1 after a full disk). Any other error is not ours to rename: it propagates."""
    try:
        train()
    except KeyboardInterrupt:
        stop_ray()
        print(f"{prog}: interrupted (Ctrl-C): Ray's processes are stopped; run the same command "
              "again to resume from the last checkpoint", file=sys.stderr)  # fmt: skip
        raise SystemExit(EXIT_INTERRUPTED) from None
    except Exception as err:
        if not disk_full(err, checkpoint_dir):
            raise
        stop_ray()
        print(f"{prog}: error: {disk_full_message(checkpoint_dir, err)}", file=sys.stderr)
        raise SystemExit(1) from None
