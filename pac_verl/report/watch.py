"""``pac-verl watch RUN_DIR``: a live view of a run's curriculum while it trains.

    pac-verl watch runs/multi_level__qwen2.5-3b__pac__seed0     # refreshes as steps land; Ctrl-C quits
    pac-verl watch runs/multi_level__qwen2.5-3b__pac__seed0 --once         # one frame, for scripts
    pac-verl watch sim_runs/sim-noisy__simulated__pac__seed0 --once        # a simulated run

It reads only what the run writes (:mod:`pac_verl.run_logs`): ``run.json`` for the run's identity
and last step, and the metrics files of its attempts, ``metrics-<UTC>.jsonl`` (``metrics.jsonl``
for a simulation; a ``.jsonl`` file may also be given directly), one verl line
``{"step": s, "data": {...}}`` per step. Attempts are merged in file-name order (chronological), a
later attempt's values winning for a step logged twice, as the report merges them; the newest file
is the one followed. Each poll reads only the bytes added since the last one; a line without its
newline yet (being written, or cut off by a killed run) waits for its end. A folder without
metrics yet is waited on, and the frame says so.

One table, one row per arm (``curriculum/<arm>/...`` and ``reward/<arm>/...`` keys):

* share: the arm's share of the last step's batch, and a sparkline of it over recent steps;
* s_adv (learnability), s_prog (progress), utility and the posterior (PAC's; a controller that
  does not log one leaves the column out), as the controller logged them at the last step;
* reward and zero-var: the arm's mean reward and its share of zero-variance groups, averaged over
  the last ``--window`` steps that drew it;
* reasons: the verifiers' verdicts for the arm's responses over the same steps, in per cent
  (``reward/<arm>/reason/<reason>``), and the responses left unscored (``reward/<arm>/unscored``).

Over SSH it redraws in place (rich's Live display) every ``--interval`` seconds; ``--once`` prints
one frame and exits, ``--until-step K`` exits once step K is logged, and a run whose last step is
logged ends the watch. Ctrl-C ends it too, with a one-line summary.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from pac_verl.cli_args import HelpFormatter, positive_int
from pac_verl.errors import UserError
from pac_verl.naming import core_val_metric, val_source_of

ARM_METRICS = ("share", "s_adv", "s_prog", "utility", "posterior_mean", "posterior_std", "reward",
               "abs_adv", "zero_var_frac", "prompts_seen", "prompts_skipped", "pred_pass_rate")  # fmt: skip
SPARK = "▁▂▃▄▅▆▇█"
SPARK_STEPS = 24


# ----------------------------------------------------------------------------------------- reading


def _numeric(data: Mapping) -> dict[str, float]:
    out = {}
    for k, v in data.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            continue  # verl's logger writes NaN as null; strings are not metrics
        if math.isfinite(v):
            out[str(k)] = float(v)
    return out


@dataclass
class _File:
    path: Path
    offset: int = 0  # bytes parsed so far (up to the last newline)
    inode: int | None = None
    lines: int = 0  # complete lines read
    partial: int = 0  # bytes after the last newline: a line being written
    steps: dict[int, dict[str, float]] = field(default_factory=dict)


class Follower:
    """The metrics files of one run, read incrementally.

    ``poll()`` reads what was appended since the last call (and re-reads a file that was replaced
    or truncated) and returns True when any step changed; ``steps`` holds every step merged over
    the attempts in file-name order.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path).expanduser()
        if not self.path.exists():
            raise UserError(f"{self.path}: no such run folder or metrics file")
        self.single = self.path.is_file()
        if self.single and self.path.suffix != ".jsonl":
            raise UserError(f"{self.path}: not a metrics .jsonl file (give the run's folder)")
        self.folder = self.path.parent if self.single else self.path
        self.files: dict[Path, _File] = {}
        self.steps: dict[int, dict[str, float]] = {}
        self.notes: list[str] = []  # malformed lines, skipped (never silently)
        self.info: dict = {}
        if not self.single:
            _refuse_log_root(self.folder)

    def metrics_files(self) -> list[Path]:
        if self.single:
            return [self.path]
        found = sorted(self.folder.glob("metrics*.jsonl"))
        if found:
            return found
        named = sorted(self.folder.glob("*.jsonl"))  # verl's default <experiment>.jsonl
        return named if len(named) == 1 else []

    def poll(self) -> bool:
        self.info = _read_info(self.folder) or self.info
        changed = False
        for path in self.metrics_files():
            state = self.files.setdefault(path, _File(path))
            changed |= self._read(state)
        if changed:
            merged: dict[int, dict[str, float]] = {}
            for path in sorted(self.files):
                for step, data in self.files[path].steps.items():
                    merged.setdefault(step, {}).update(data)
            self.steps = dict(sorted(merged.items()))
        return changed

    def _read(self, f: _File) -> bool:
        try:
            st = f.path.stat()
        except FileNotFoundError:
            return False
        if st.st_ino != f.inode or st.st_size < f.offset:  # new, replaced or truncated: from 0
            f.offset, f.inode, f.lines, f.steps = 0, st.st_ino, 0, {}
            changed = True
        else:
            changed = False
        if st.st_size == f.offset:
            f.partial = 0
            return changed
        with open(f.path, "rb") as fh:
            fh.seek(f.offset)
            chunk = fh.read(st.st_size - f.offset)
        end = chunk.rfind(b"\n")
        f.partial = len(chunk) - (end + 1)
        if end < 0:
            return changed
        f.offset += end + 1
        for raw in chunk[: end + 1].splitlines():
            f.lines += 1
            if not raw.strip():
                continue
            step, data = self._parse(raw, f)
            if step is not None:
                f.steps.setdefault(step, {}).update(data)
                changed = True
        return changed

    def _parse(self, raw: bytes, f: _File) -> tuple[int | None, dict]:
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("data"), dict) and "step" in obj:
            step, data = obj["step"], obj["data"]
        elif isinstance(obj, dict) and "_step" in obj:
            step, data = obj["_step"], obj
        else:
            step, data = None, {}
        if (isinstance(step, bool) or not isinstance(step, int | float)
                or not math.isfinite(step) or step != int(step)):  # fmt: skip
            self.notes.append(f"{f.path.name}: line {f.lines} is not a verl metrics line, skipped")
            return None, {}
        return int(step), _numeric(data)

    @property
    def newest(self) -> _File | None:
        return self.files[max(self.files)] if self.files else None

    @property
    def last_step(self) -> int | None:
        return max(self.steps) if self.steps else None

    @property
    def total_steps(self) -> int | None:
        total = self.info.get("total_steps") or (self.info.get("simulation") or {}).get("steps")
        return int(total) if isinstance(total, int | float) else None


def _read_info(folder: Path) -> dict:
    try:
        info = json.loads((folder / "run.json").read_text())
    except (OSError, ValueError):  # absent, or being rewritten by the driver: try again later
        return {}
    return info if isinstance(info, dict) else {}


def _refuse_log_root(folder: Path, depth: int = 3) -> None:
    """A folder holding runs (``runs/``, a smoke run's ``--out``) is not one run: name the runs
    found within ``depth`` levels below it, to choose from."""
    if list(folder.glob("metrics*.jsonl")) or (folder / "run.json").is_file():
        return
    runs: list[Path] = []
    top = len(folder.parts)
    for here, subdirs, files in os.walk(folder):
        subdirs.sort()
        if Path(here) != folder and ("run.json" in files
                                     or any(n.startswith("metrics") and n.endswith(".jsonl")
                                            for n in files)):  # fmt: skip
            runs.append(Path(here))
            subdirs[:] = []  # a run's own folders (checkpoints) hold no other run
        elif len(Path(here).parts) - top >= depth:
            subdirs[:] = []
    named = sorted(folder.glob("*.jsonl"))  # verl's default <experiment>.jsonl files
    if runs or len(named) > 1:
        choices = [str(p) for p in runs] + [str(p) for p in named]
        more = f" and {len(choices) - 4} more" if len(choices) > 4 else ""
        raise UserError(f"{folder} is not one run's folder; watch one of the {len(choices)} "
                        f"under it: {', '.join(choices[:4])}{more}")  # fmt: skip


# --------------------------------------------------------------------------------------- summaries


@dataclass
class ArmRow:
    arm: str
    last: dict[str, float]  # the controller's metrics at the run's last step
    shares: list[float]  # share over the last SPARK_STEPS steps (0 where not logged)
    reward: float | None  # mean over the window's steps that drew the arm
    zero_var: float | None
    reasons: dict[str, float]  # verdict -> responses over the window
    unscored: float


def _split(key: str, prefix: str, suffixes) -> tuple[str, str] | None:
    if not key.startswith(prefix):
        return None
    rest = key[len(prefix) :]
    for suffix in suffixes:
        if rest.endswith("/" + suffix):
            return rest[: -len(suffix) - 1], suffix
    return None


def arms_of(steps: Mapping[int, Mapping[str, float]]) -> list[str]:
    arms = set()
    for data in steps.values():
        for key in data:
            hit = _split(key, "curriculum/", ("share",))
            if hit:
                arms.add(hit[0])
    return sorted(arms)


def arm_rows(steps: Mapping[int, Mapping[str, float]], window: int = 10) -> list[ArmRow]:
    """Per arm: the last step's controller metrics, the share's recent history, and the mean
    reward, zero-variance share and verdicts over the last ``window`` logged steps."""
    ordered = sorted(s for s in steps if s >= 1)  # step 0: validation before training
    if not ordered:
        return []
    last = steps[ordered[-1]]
    recent = [steps[s] for s in ordered[-window:]]
    rows = []
    for arm in arms_of(steps):
        pre = f"curriculum/{arm}/"
        now = {m: last[pre + m] for m in ARM_METRICS if pre + m in last}
        shares = [steps[s].get(pre + "share", 0.0) for s in ordered[-SPARK_STEPS:]]
        rewards = [d[pre + "reward"] for d in recent if pre + "reward" in d]
        zero = [d[pre + "zero_var_frac"] for d in recent if pre + "zero_var_frac" in d]
        reasons: dict[str, float] = {}
        unscored = 0.0
        for d in recent:
            for key, value in d.items():
                if key.startswith(f"reward/{arm}/reason/"):
                    reason = key[len(f"reward/{arm}/reason/") :]
                    if "/" not in reason:  # another arm's name that starts with this one's
                        reasons[reason] = reasons.get(reason, 0.0) + value
            unscored += d.get(f"reward/{arm}/unscored", 0.0)
        rows.append(ArmRow(arm, now, shares, _mean(rewards), _mean(zero), reasons, unscored))
    return rows


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def last_validation(steps: Mapping[int, Mapping[str, float]]) -> tuple[int, dict[str, float]]:
    """(step, source -> score) of the last step holding ``val-core/`` metrics; (-1, {}) if none."""
    for step in sorted(steps, reverse=True):
        sources = {s for k in steps[step] if (s := val_source_of(k)) is not None}
        scores = {s: v for s in sorted(sources)
                  if (v := core_val_metric(dict(steps[step]), s)) is not None}  # fmt: skip
        if scores:
            return step, scores
    return -1, {}


# --------------------------------------------------------------------------------------- rendering


def sparkline(values: list[float], top: float) -> str:
    if top <= 0:
        return SPARK[0] * len(values)
    return "".join(SPARK[min(len(SPARK) - 1, int(v / top * (len(SPARK) - 1) + 0.5))]
                   for v in values)  # fmt: skip


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _reasons(row: ArmRow) -> str:
    total = sum(row.reasons.values())
    if not total:
        return "-" if not row.unscored else f"unscored {row.unscored:.0f}"
    top = sorted(row.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [f"{name} {100 * n / total:.0f}%" for name, n in top[:3]]
    if len(top) > 3:
        parts.append(f"+{len(top) - 3} more")
    if row.unscored:
        parts.append(f"unscored {row.unscored:.0f}")
    return " ".join(parts)


def _ago(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"


def render(f: Follower, window: int = 10, now: float | None = None, width: int = 160):
    """One frame: the run's header, the per-arm table, the last validation, notes. ``width`` (the
    terminal's) sets how many steps the share's sparkline shows, so that 80 columns hold the
    numbers."""
    now = time.time() if now is None else now
    info, name = f.info, f.info.get("experiment_name") or f.folder.name
    who = ", ".join(f"{k} {info[k]}" for k in ("setting", "backbone", "curriculum", "window",
                                                 "seed") if k in info)  # fmt: skip
    head = Text.assemble(
        ("pac-verl watch ", "bold"), (name, "bold cyan"), f"  ({who})" if who else ""
    )
    newest = f.newest
    if not f.steps:
        what = (f"no metrics yet in {f.folder}: waiting for the run's first line "
                "(metrics-<time>.jsonl appears when the trainer starts, its first line after "
                "step 1)")  # fmt: skip
        if newest is not None and newest.partial:
            what = f"{newest.path.name}: the first line is being written"
        return Group(head, Text(what, style="yellow"))
    step, total = f.last_step, f.total_steps
    age = now - newest.path.stat().st_mtime if newest.path.exists() else 0.0
    last = f.steps[step]
    status = [f"step {step}" + (f" of {total}" if total else ""),
              f"attempt {len(f.files)}: {newest.path.name}" if len(f.files) > 1
              else newest.path.name, f"last line {_ago(max(0.0, age))}"]  # fmt: skip
    if "curriculum/entropy" in last:
        status.append(f"entropy {last['curriculum/entropy']:.2f} nats")
    if "critic/score/mean" in last:
        status.append(f"batch score {last['critic/score/mean']:.3f}")
    if total and step >= total:
        status.append("complete")
    rows = arm_rows(f.steps, window)
    spark = SPARK_STEPS if width >= 130 else 12 if width >= 100 else 6
    table = Table(title=f"per arm: the last step's share and signals; reward, zero-variance "
                  f"share (0-var) and verdicts over the last {window} steps",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  collapse_padding=True)  # fmt: skip
    has = {m for r in rows for m in r.last}
    cols = [("arm", None), ("share", "right"), ("trend", None)]
    cols += [(c, "right") for c in ("s_adv", "s_prog", "utility") if c in has]
    if "posterior_mean" in has:
        cols.append(("posterior", "right"))
    cols += [("reward", "right"), ("0-var", "right")]
    verdicts = any(r.reasons or r.unscored for r in rows)  # the verifiers' (none in a simulation)
    below = verdicts and width < 120  # a narrow terminal: one line per arm under the table
    if verdicts and not below:
        cols.append(("verdicts", None))
    for title, justify in cols:
        table.add_column(title, justify=justify or "left", no_wrap=title != "verdicts")
    top = max((v for r in rows for v in r.shares), default=0.0)
    for r in rows:
        cells = [r.arm, f"{100 * r.last['share']:.1f}%" if "share" in r.last else "-",
                 sparkline(r.shares[-spark:], top)]  # fmt: skip
        cells += [_num(r.last.get(c), signed=c == "s_prog") for c in ("s_adv", "s_prog", "utility")
                  if c in has]  # fmt: skip
        if "posterior_mean" in has:
            mu, sd = r.last.get("posterior_mean"), r.last.get("posterior_std")
            cells.append("-" if mu is None else f"{mu:.2f}±{sd or 0:.2f}")
        cells += [_num(r.reward), "-" if r.zero_var is None else f"{100 * r.zero_var:.0f}%"]
        cells += [_reasons(r)] if verdicts and not below else []
        table.add_row(*cells)
    parts = [head, Text(" · ".join(status))]
    parts.append(table if rows else Text("no curriculum/ metrics in these lines", style="yellow"))
    if below:
        parts.append(Text(f"verdicts over the last {window} steps:"))
        parts += [Text(f"  {r.arm}: {_reasons(r)}") for r in rows]
    vstep, scores = last_validation(f.steps)
    if scores:
        avg = sum(scores.values()) / len(scores)
        shown = ", ".join(f"{s} {v:.3f}" for s, v in list(scores.items())[:12])
        more = f" and {len(scores) - 12} more" if len(scores) > 12 else ""
        parts.append(Text(f"validation at step {vstep}: mean {avg:.3f} over {len(scores)} "
                          f"sources ({shown}{more})"))  # fmt: skip
    if newest.partial:
        parts.append(Text(f"{newest.path.name}: a line without its end yet ({newest.partial} "
                          "bytes: being written, or cut off if the run stopped)", style="dim"))  # fmt: skip
    for note in f.notes[-3:]:
        parts.append(Text(note, style="yellow"))
    return Group(*parts)


# -------------------------------------------------------------------------------------------- loop


@dataclass
class WatchResult:
    last_step: int | None
    polls: int
    reason: str  # once | until-step | complete | interrupted | polls


def watch(path, *, once: bool = False, until_step: int | None = None, interval: float = 2.0,
          window: int = 10, console: Console | None = None,
          max_polls: int | None = None) -> WatchResult:  # fmt: skip
    """Follow the run at ``path`` and redraw its frame; see the module docstring.

    ``max_polls`` bounds the loop (for tests and scripts that must end); the result says why it
    ended.
    """
    from rich.live import Live

    from pac_verl.progress import console as default_console

    console = console or default_console
    f = Follower(path)
    f.poll()
    if once:
        console.print(render(f, window, width=console.width))
        return WatchResult(f.last_step, 1, "once")

    def finished() -> str | None:
        step, total = f.last_step, f.total_steps
        if until_step is not None and step is not None and step >= until_step:
            return "until-step"
        if total and step is not None and step >= total:
            return "complete"
        return None

    polls, reason = 1, finished()
    # Ctrl-C sets a flag the loop reads between frames, so it never lands inside rich's drawing
    # (a KeyboardInterrupt raised there once left the display stuck on a loaded machine)
    stop = threading.Event()
    main_thread = threading.current_thread() is threading.main_thread()
    old_handler = signal.signal(signal.SIGINT, lambda *_: stop.set()) if main_thread else None
    try:
        with Live(render(f, window, width=console.width), console=console, auto_refresh=False,
                  vertical_overflow="visible") as live:  # fmt: skip
            if reason is None:
                print(f"watching {f.path}: every {interval:g} s, Ctrl-C to quit", file=sys.stderr)
            while reason is None:
                if max_polls is not None and polls >= max_polls:
                    reason = "polls"
                    break
                if _wait(stop, interval):
                    reason = "interrupted"
                    break
                f.poll()
                polls += 1
                live.update(render(f, window, width=console.width), refresh=True)
                reason = finished()
    except KeyboardInterrupt:  # off the main thread, or before the handler was in place
        reason = "interrupted"
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, old_handler)
    if reason == "interrupted":
        console.print(f"stopped watching {f.folder} at step {f.last_step}")
    return WatchResult(f.last_step, polls, reason)


def _wait(stop: threading.Event, seconds: float) -> bool:
    """Sleep ``seconds`` (``time.sleep``, which tests replace) unless ``stop`` is set; whether it
    was set."""
    if stop.is_set():
        return True
    time.sleep(seconds)
    return stop.is_set()


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="pac-verl watch",
        description="Live view of a run's curriculum while it trains (per-arm allocation, "
        "learnability, progress, reward, zero-variance share, verdicts).",
        formatter_class=HelpFormatter,
    )
    ap.add_argument("run", metavar="RUN_DIR",
                    help="a run folder (runs/<experiment>, or a simulation's) or a metrics .jsonl")  # fmt: skip
    ap.add_argument("--once", action="store_true", help="print one frame and exit")
    ap.add_argument("--until-step", type=positive_int, metavar="K",
                    help="exit once step K is logged")  # fmt: skip
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between reads")
    ap.add_argument("--window", type=positive_int, default=10,
                    help="steps averaged for reward, zero-variance share and verdicts")  # fmt: skip
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.interval > 0:
        raise UserError(f"--interval must be > 0 seconds, got {args.interval}")
    watch(args.run, once=args.once, until_step=args.until_step, interval=args.interval,
          window=args.window)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
