"""The paper's figures from runs, as PNG (matplotlib, no display needed).

* :func:`validation_curves` (paper Fig. 2): per (setting, backbone), the seed-averaged validation
  average of every method against the training step, with a +-1 std band over seeds. The average
  is the table's (level-4 mean for multi-level, that of docs/concepts/spec.md#settings for
  multi-domain, the arm mean for a simulation).
* :func:`curriculum_heatmaps` (paper Fig. 5): per (setting, backbone, method), one heatmap per
  signal (batch share, ``s_adv``, ``s_prog``: those the controller logs), arms by rows, columns
  the mean over non-overlapping windows of 50 training steps, averaged over seeds; a vertical line
  marks the end of PAC's uniform cold start (``cold_start`` from run.json, else PAC's default, 50).
* :func:`zero_variance_curves` (beyond the paper): per (setting, backbone), one panel per method,
  one line per arm: the share of the arm's groups whose rewards were all equal (all right or all
  wrong: zero GRPO advantage, wasted rollouts), ``curriculum/<arm>/zero_var_frac``, as the mean
  over non-overlapping windows of training steps, averaged over seeds.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pac_verl.report.logs import Run
from pac_verl.report.tables import METHOD_LABELS, TableSpec, _runs_for, average_curve

SIGNALS = (("share", "batch share"), ("s_adv", "s_adv (learnability)"),
           ("s_prog", "s_prog (progress)"))  # fmt: skip
DEFAULT_COLD_START = 50


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _safe(text: str) -> str:
    return text.replace("/", "-").replace("@", "-")


def _save(fig, out_dir: Path, *name_parts: str) -> Path:
    """Lay out, write ``out_dir/<part>__<part>....png`` (parts made file-safe) and close."""
    fig.tight_layout()
    path = out_dir / ("__".join(_safe(p) for p in name_parts) + ".png")
    fig.savefig(path, dpi=120)
    _pyplot().close(fig)
    return path


def validation_curves(spec: TableSpec, runs: Sequence[Run], out_dir: str | Path) -> list[Path]:
    plt = _pyplot()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for backbone in sorted({r.key.backbone for r in runs if r.key.setting == spec.setting}):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        drawn = 0
        for method in spec.rows:
            if method == "single":
                continue
            by_seed = _runs_for(runs, spec.setting, backbone, method)
            steps, mean, std = average_curve(by_seed, spec)
            if not steps.size:
                continue
            label = f"{spec.row_label(method)} ({len(by_seed)} seed{'s' * (len(by_seed) > 1)})"
            if spec.row_header == "W":
                label = "W=" + label
            (line,) = ax.plot(steps, mean, label=label, linewidth=1.6)
            if len(by_seed) > 1:
                ax.fill_between(steps, mean - std, mean + std, color=line.get_color(), alpha=0.15)
            drawn += 1
        if not drawn:
            plt.close(fig)
            continue
        ax.set_xlabel("training step")
        ax.set_ylabel("Val Score (mean of task-level validation)")
        ax.set_title(f"{spec.setting} / {backbone}")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        table = (f"table{spec.number}",) if spec.number in (4, 5) else ()
        paths.append(_save(fig, out_dir, "validation", spec.setting, backbone, *table))
    return paths


def windowed_signal(
    runs: Sequence[Run], arm: str, signal: str, window: int
) -> tuple[np.ndarray, np.ndarray]:
    """(window start steps, value per window): mean over each window's steps, then over seeds.

    Training step s >= 1 falls in window (s - 1) // window; a window without the signal in a seed
    does not count for that seed (never filled in).
    """
    per_seed = []
    for run in runs:
        steps, values = run.series(f"curriculum/{arm}/{signal}")
        keep = steps >= 1
        steps, values = steps[keep], values[keep]
        if not steps.size:
            continue
        idx = (steps - 1) // window
        sums = np.bincount(idx, weights=values)
        counts = np.bincount(idx)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_seed.append(np.where(counts > 0, sums / np.maximum(counts, 1), np.nan))
    if not per_seed:
        return np.array([], int), np.array([])
    width = max(len(p) for p in per_seed)
    grid = np.full((len(per_seed), width), np.nan)
    for i, p in enumerate(per_seed):
        grid[i, : len(p)] = p
    with warnings.catch_warnings():  # a window no seed logged stays NaN (left blank)
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(grid, axis=0)
    return np.arange(width) * window + 1, mean


def _cold_start(runs: Sequence[Run], method: str) -> int | None:
    if not method.startswith("pac"):
        return None
    for run in runs:
        info = run.info or {}
        sim = info.get("simulation", {}).get("controller_overrides", {})
        trained = (run.config or {}).get("curriculum")  # a training run's resolved controller
        for source in (sim, info, trained):
            if isinstance(source, dict) and source.get("cold_start") is not None:
                return int(source["cold_start"])
    return DEFAULT_COLD_START


def curriculum_heatmaps(
    runs: Sequence[Run],
    out_dir: str | Path,
    window: int = 50,
    settings: Sequence[str] | None = None,
) -> list[Path]:
    plt = _pyplot()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[str, str, str], list[Run]] = {}
    for run in runs:
        if settings is None or run.key.setting in settings:
            groups.setdefault((run.key.setting, run.key.backbone, run.key.method), []).append(run)
    paths = []
    for (setting, backbone, method), members in sorted(groups.items()):
        arms = sorted({a for r in members for a in r.curriculum_arms()})
        if not arms:
            continue
        panels = []
        for signal, title in SIGNALS:
            rows = [windowed_signal(members, arm, signal, window) for arm in arms]
            if all(not r[0].size or np.all(np.isnan(r[1])) for r in rows):
                continue
            width = max(r[1].size for r in rows)
            grid = np.full((len(arms), width), np.nan)
            for i, (_, vals) in enumerate(rows):
                grid[i, : vals.size] = vals
            panels.append((title, grid))
        if not panels:
            continue
        cold = _cold_start(members, method)
        last = max(max(r.steps) for r in members)
        fig, axes = plt.subplots(
            1, len(panels), figsize=(3.2 * len(panels) + 1, 0.45 * len(arms) + 1.8), squeeze=False
        )
        for ax, (title, grid) in zip(axes[0], panels):
            im = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap="viridis")
            ax.set_title(title, fontsize=9)
            ax.set_yticks(range(len(arms)), arms, fontsize=8)
            ticks = range(grid.shape[1])
            ax.set_xticks(ticks, [f"{k * window + 1}-{min((k + 1) * window, last)}" for k in ticks],
                          fontsize=7, rotation=45)  # fmt: skip
            ax.set_xlabel(f"training steps ({window}-step windows)", fontsize=8)
            if cold is not None and 0 < cold < grid.shape[1] * window:
                ax.axvline(cold / window - 0.5, color="white", linestyle="--", linewidth=1.2)
            fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        seeds = len(members)
        fig.suptitle(
            f"{METHOD_LABELS.get(method, method)}: {setting} / {backbone} "
            f"(mean over {seeds} seed{'s' * (seeds > 1)})",
            fontsize=10,
        )
        paths.append(_save(fig, out_dir, "curriculum", setting, backbone, method))
    return paths


def zero_variance_curves(runs: Sequence[Run], out_dir: str | Path, window: int = 10) -> list[Path]:
    plt = _pyplot()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[str, str], dict[str, list[Run]]] = {}
    for run in runs:
        by_method = groups.setdefault((run.key.setting, run.key.backbone), {})
        by_method.setdefault(run.key.method, []).append(run)
    paths = []
    for (setting, backbone), by_method in sorted(groups.items()):
        panels = []
        for method, members in sorted(by_method.items()):
            arms = sorted({a for r in members for a in r.curriculum_arms()})
            lines = [(arm, *windowed_signal(members, arm, "zero_var_frac", window)) for arm in arms]
            lines = [(a, x, y) for a, x, y in lines if x.size and not np.all(np.isnan(y))]
            if lines:
                panels.append((method, lines, len(members)))
        if not panels:
            continue
        cols = min(len(panels), 4)
        rows = -(-len(panels) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.8 * rows + 0.6),
                                 squeeze=False, sharey=True)  # fmt: skip
        for ax in axes.ravel()[len(panels) :]:
            ax.axis("off")
        for ax, (method, lines, seeds) in zip(axes.ravel(), panels):
            for arm, x, y in lines:
                ax.plot(x + (window - 1) / 2, y, label=arm, linewidth=1.2)
            ax.set_title(f"{METHOD_LABELS.get(method, method)} ({seeds} seed{'s' * (seeds > 1)})",
                         fontsize=9)  # fmt: skip
            ax.set_ylim(0, 1)
            ax.set_xlabel("training step", fontsize=8)
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("share of zero-variance groups", fontsize=8)
        axes[0][0].legend(fontsize=6)
        fig.suptitle(f"Zero-variance groups per arm: {setting} / {backbone} "
                     f"({window}-step means)", fontsize=10)  # fmt: skip
        paths.append(_save(fig, out_dir, "zero_variance", setting, backbone))
    return paths
