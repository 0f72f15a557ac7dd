"""``pac-verl report``: the paper's tables, sample efficiency and figures from run logs.

    pac-verl report runs/                                  # every table the logs can fill
    pac-verl report runs/ --table 2 --format latex         # Table 2 as LaTeX
    pac-verl report runs/ sim_runs/ --figures figures/     # also the PNG figures
    pac-verl report wandb_export.csv --reference sec

RUN_PATH is a run folder, a metrics JSONL, a wandb export, or any folder holding them
(:mod:`pac_verl.report.logs`). Runs are grouped by (setting, backbone, curriculum, W, seed) from
run.json or the experiment name; seeds whose recorded configs differ in more than the seed are
refused, and so is one experiment name found in folders whose records differ in more than
locations (:func:`pac_verl.report.logs.compare_records`). Each table reads every run at its final step (``setting.total_steps``) and prints mean
+- std over seeds (:mod:`pac_verl.report.tables`); a run that has not validated there is listed
as incomplete with its last step, never mixed in. What is missing is listed at the end, never
filled in.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pac_verl.cli_args import HelpFormatter
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, console
from pac_verl.report.figures import curriculum_heatmaps, validation_curves
from pac_verl.report.logs import Run, check_seed_configs, load_runs
from pac_verl.report.render import render_budget, render_efficiency, render_table
from pac_verl.report.tables import (
    NAMED_TABLES,
    SETTING_TABLES,
    TABLES,
    TableSpec,
    budget_for,
    build_table,
    efficiency_for,
    incomplete_runs,
    short_runs,
    simulation_spec,
)

EFFICIENCY_TABLES = (1, 2, None)  # the main tables and simulations, as in the paper's text


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="pac-verl report",
        description="Rebuild the paper's tables and figures from run logs.",
        formatter_class=HelpFormatter,
    )
    ap.add_argument("paths", nargs="+", metavar="RUN_PATH",
                    help="run folders, metrics .jsonl files, wandb exports, or folders of them")  # fmt: skip
    ap.add_argument("--table", type=int, choices=sorted(TABLES),
                    help="only this table (1 multi-level, 2 multi-domain, 3 per level, "
                         "4 history window, 5 ablations); default: every table with runs")  # fmt: skip
    ap.add_argument("--format", choices=("md", "latex"), default="md", help="default md")
    ap.add_argument("--figures", metavar="DIR", help="write the PNG figures into DIR")
    ap.add_argument("--reference", metavar="CURRICULUM",
                    help="method whose final average defines sample efficiency "
                         "(default: the best of random, sec, dump)")  # fmt: skip
    ap.add_argument("--step", type=int, help="read validation at this step instead of the final")
    ap.add_argument("--heatmap-window", type=int, default=50,
                    help="training steps per heatmap column (paper: 50)")  # fmt: skip
    ap.add_argument("--out", metavar="FILE", help="also write the tables to FILE")
    return ap


def select_specs(runs: list[Run], table: int | None) -> list[TableSpec]:
    settings = sorted({r.key.setting for r in runs})
    if table is not None:
        spec = TABLES[table]
        if spec.setting not in settings:
            raise UserError(
                f"--table {table} reads {spec.setting} runs, and none were found "
                f"(settings in these logs: {', '.join(settings)})"
            )
        return [spec]
    specs = []
    for setting in settings:
        if setting in NAMED_TABLES:  # the miniature: a table of its own
            specs.append(NAMED_TABLES[setting])
            continue
        if (
            setting not in SETTING_TABLES
        ):  # a simulation, or any other setting: one column per source
            specs.append(simulation_spec(setting, runs))
            continue
        methods = {r.key.method for r in runs if r.key.setting == setting}
        for number in SETTING_TABLES[setting]:
            extra = set(TABLES[number].rows) - {"pac"}
            if number in (4, 5) and not methods & extra:
                continue  # no window-sweep / ablation runs: the table would be PAC alone
            specs.append(TABLES[number])
    return specs


def report(args: argparse.Namespace) -> tuple[str, list[Path]]:
    notes: list[str] = []
    runs = load_runs(args.paths, notes)
    check_seed_configs(runs, notes)
    specs = select_specs(runs, args.table)
    methods = {r.key.method for r in runs}
    if args.reference and args.reference not in methods:
        raise UserError(
            f"--reference {args.reference!r}: no such method in these runs "
            f"(methods: {', '.join(sorted(methods))})"
        )
    if args.heatmap_window < 1:
        raise UserError("--heatmap-window must be >= 1")
    blocks, missing, figures = [], [], []
    for spec in specs:
        result = build_table(spec, runs, step=args.step)
        name = f"Table {spec.number}" if spec.number else spec.setting
        missing += [f"{name}, {m}" for m in result.missing]
        if not result.sections:
            continue
        blocks.append(render_table(result, args.format))
        if spec.number in EFFICIENCY_TABLES and spec.average is not None:
            eff = efficiency_for(spec, runs, args.reference)
            if eff:
                blocks.append(render_efficiency(eff, spec.row_label, args.format))
        if spec.budget:
            budget = budget_for(spec, runs)
            if budget:
                blocks.append(render_budget(budget, spec.row_label, args.format))
        if args.figures:
            figures += validation_curves(spec, runs, args.figures)
    if args.figures:
        figures += curriculum_heatmaps(
            runs, args.figures, args.heatmap_window, settings=sorted({s.setting for s in specs})
        )
    short = short_runs(runs)
    if short:  # first: the tables below rank these runs by the noise of uniform allocations
        bullet = "- " if args.format == "md" else "% "
        head = ("### " if args.format == "md" else "% ") + ("Too short for their curriculum "
                "(allocated as Random; docs/guides/shorten-clean-retry.md)")  # fmt: skip
        blocks.insert(0, "\n".join([head, "", *(bullet + m for m in short)]))
    stopped = incomplete_runs(runs)
    if stopped:
        bullet = "- " if args.format == "md" else "% "
        head = ("### " if args.format == "md" else "% ") + "Incomplete runs (not read)"
        blocks.append("\n".join([head, "", *(bullet + m for m in stopped)]))
    if missing or notes:
        bullet = "- " if args.format == "md" else "% "
        head = ("### " if args.format == "md" else "% ") + "Missing (not filled in) and notes"
        blocks.append("\n".join([head, "", *(bullet + m for m in missing + notes)]))
    text = "\n\n".join(blocks)
    return text, figures


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_intermixed_args(argv)  # options may sit between the paths
    with Stopwatch() as sw:
        text, figures = report(args)
    print(text)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")
        console.print(f"tables:  {out}")
    for path in figures:
        console.print(f"figure:  {path}")
    console.print(f"seconds: {sw.seconds:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
