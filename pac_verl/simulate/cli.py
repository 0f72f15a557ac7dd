"""``pac-verl simulate``: compare curriculum controllers on a simulated multi-task learner (CPU, seconds).

    pac-verl simulate                                   # the tour: one scenario per part of PAC
    pac-verl simulate --scenario mixed                  # one scenario, every controller, 3 seeds
    pac-verl simulate --scenario all --seeds 5 --out sim_runs
    pac-verl simulate --scenario noisy --controllers pac,sec,random --set cold_start=20 --steps 300

Without ``--scenario`` it runs the tour (:mod:`pac_verl.simulate.tour`): the scenarios where
PAC's advantage term, Thompson sampling, progress term and window each change the outcome, with
what to look at under each table. Speed-ups are measured against the best of Random, SEC and
DUMP by final average, the reference ``pac-verl report`` uses, unless ``--reference`` names one.

This is a simulation: a latent skill per arm stands in for the model (see
``pac_verl.simulate.scenarios``). Its numbers show how the controllers react to saturating, slow,
noisy and prerequisite arms; they are not results on a language model.
"""

from __future__ import annotations

import argparse
import json

from pac_verl.cli_args import HelpFormatter, positive_int
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, console, print_summary
from pac_verl.simulate.run import BEST, DEFAULT_CONTROLLERS, run_simulation
from pac_verl.simulate.scenarios import SCENARIOS, get_scenario

TOUR = "tour"


def _parse_set(items: list[str]) -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"--set {item!r}: write key=value, e.g. --set cold_start=20")
        key, raw = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw  # a bare string
    return out


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="pac-verl simulate",
        description="Compare curriculum controllers on a SIMULATED multi-task GRPO learner.",
        formatter_class=HelpFormatter,
    )
    ap.add_argument(
        "--scenario",
        default=TOUR,
        help=f"one of {', '.join(SCENARIOS)}, a comma list, or 'all'; default: the tour "
        "(multi_level and noisy with every controller, PAC's window on noisy and prerequisite)",
    )
    ap.add_argument(
        "--controllers",
        default=None,
        help="comma list of controllers (default: all but 'single', which needs --train-arms); "
        "the suffix +prompt adds prompt-level selection inside arms (pac+prompt); needs "
        "--scenario",
    )
    ap.add_argument("--seeds", type=positive_int, default=3, help="number of seeds 0..n-1")
    ap.add_argument("--steps", type=positive_int, default=200, help="training steps")
    ap.add_argument("--batch-size", type=positive_int, default=32, help="prompts per step B")
    ap.add_argument("--group-size", type=positive_int, default=8, help="rollouts per prompt G")
    ap.add_argument("--val-every", type=positive_int, default=10, help="validate every k steps")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="controller override for every controller that has KEY (e.g. cold_start=20)",
    )
    ap.add_argument(
        "--train-arms",
        default="",
        help="comma list of arms for 'single' (default: none; 'single' needs them)",
    )
    ap.add_argument(
        "--reference",
        default=None,
        help="controller whose final average defines sample efficiency; it must be run "
        "(default: the best of random, sec and dump by final average, as pac-verl report "
        "chooses; needs --scenario)",
    )
    ap.add_argument("--out", default="sim_runs", help="where run logs go")
    ap.add_argument("--force", action="store_true",
                    help="replace the run folders an earlier simulation wrote in --out (and the "
                         "PNGs in --figures); without it a non-empty folder is refused")  # fmt: skip
    ap.add_argument("--no-logs", action="store_true", help="do not write run logs")
    ap.add_argument(
        "--figures",
        default=None,
        metavar="DIR",
        help="draw the validation curves and curriculum heatmaps into DIR",
    )
    return ap


def check_arguments(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """Scenarios and controllers of the command line; contradictions are refused before work."""
    from pac_verl.curriculum import CONTROLLERS

    if args.scenario == TOUR:
        given = [f"--{name.replace('_', '-')}" for name, default in (("controllers", None),
                 ("set", []), ("train_arms", ""), ("reference", None))
                 if getattr(args, name) != default]  # fmt: skip
        if given:
            raise UserError(f"{', '.join(given)}: the tour runs its own controllers and "
                            "settings; name a scenario with --scenario (e.g. --scenario noisy)")  # fmt: skip
        if args.figures and args.no_logs:
            from pac_verl.simulate.figures import ensure_available

            ensure_available(None)
        return [TOUR], []
    if args.controllers is None:
        args.controllers = ",".join(DEFAULT_CONTROLLERS)
    scenarios = list(SCENARIOS) if args.scenario == "all" else [
        s.strip() for s in args.scenario.split(",") if s.strip()]  # fmt: skip
    if not scenarios:
        raise UserError(f"--scenario {args.scenario!r}: name at least one of "
                        f"{', '.join(SCENARIOS)} (or all)")  # fmt: skip
    for scenario in scenarios:
        get_scenario(scenario)  # unknown: a UserError listing the scenarios
    controllers = [c.strip() for c in args.controllers.split(",") if c.strip()]
    if not controllers:
        raise UserError(f"--controllers {args.controllers!r}: name at least one of "
                        f"{', '.join(CONTROLLERS)}")  # fmt: skip
    if args.reference is None:  # the default: the report's rule
        args.reference = BEST
    elif args.reference not in controllers:
        raise UserError(f"--reference {args.reference!r} is not among the controllers run "
                        f"({', '.join(controllers)}): add it to --controllers or choose one of "
                        "them")  # fmt: skip
    if args.figures and args.no_logs:
        from pac_verl.simulate.figures import ensure_available

        ensure_available(None)
    return scenarios, controllers


def _is_run_folder(path) -> bool:
    return path.is_dir() and (path / "run.json").is_file()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    scenarios, controllers = check_arguments(args)
    overrides = _parse_set(args.set)
    train_arms = [a.strip() for a in args.train_arms.split(",") if a.strip()] or None
    out_dir = None if args.no_logs else args.out
    if out_dir is not None:
        from pac_verl.outputs import prepare_output_dir

        prepare_output_dir(out_dir, "--out", args.force, _is_run_folder)
    if args.figures:
        from pac_verl.outputs import prepare_output_dir

        prepare_output_dir(args.figures, "--figures", args.force, lambda p: p.suffix == ".png")
    run_dirs, figures = [], []
    if scenarios == [TOUR]:
        from pac_verl.simulate.tour import print_tour, run_tour

        with Stopwatch() as sw:
            tour = run_tour(args.steps, list(range(args.seeds)), args.batch_size,
                            args.group_size, args.val_every, out_dir)  # fmt: skip
            print_tour(tour)
            run_dirs = [r.run_dir for res in tour.results for r in res.runs.values()
                        if r.run_dir is not None]  # fmt: skip
            if args.figures:
                from pac_verl.simulate.figures import draw

                figures = draw(run_dirs, args.figures)
        _footer(args, ["tour: multi_level, noisy, prerequisite"], out_dir, figures, sw.seconds)
        return 0
    console.print(
        "[bold]SIMULATION[/bold]: a simulated learner stands in for the model; "
        "these numbers describe controller behaviour, not language-model results."
    )
    with Stopwatch() as sw:
        for scenario in scenarios:
            results = run_simulation(
                scenario=scenario,
                controllers=controllers,
                seeds=list(range(args.seeds)),
                steps=args.steps,
                batch_size=args.batch_size,
                group_size=args.group_size,
                out_dir=out_dir,
                val_every=args.val_every,
                overrides=overrides,
                train_arms=train_arms,
                reference=args.reference,
            )
            print_results(results)
            print_reading(results)
            run_dirs += [r.run_dir for r in results.runs.values() if r.run_dir is not None]
        if args.figures:
            from pac_verl.simulate.figures import draw

            figures = draw(run_dirs, args.figures)
    _footer(args, scenarios, out_dir, figures, sw.seconds)
    return 0


def _footer(args, scenarios: list[str], out_dir, figures, seconds: float) -> None:
    footer = {"scenarios": ", ".join(scenarios), "seconds": round(seconds, 1)}
    if out_dir is not None:
        footer["run logs"] = f"{out_dir}/  (read them with: pac-verl report {out_dir})"
    if figures:
        footer["figures"] = f"{args.figures}/  ({len(figures)} PNG)"
    for key, value in footer.items():
        console.print(f"{key}: {value}")


def print_reading(results) -> None:
    """Under a scenario's tables: what it tests, what to compare, and the comparisons measured."""
    from pac_verl.simulate.tour import ABLATIONS, _ablation_line, _ranking_line

    scenario = get_scenario(results.scenario)
    console.print(f"[bold]Scenario:[/bold] {scenario.description}.")
    if scenario.look_at:
        console.print(f"[bold]Look at:[/bold] {scenario.look_at}")
    measured = []
    if "pac" in results.controllers and any(a in results.controllers for a in ABLATIONS):
        measured.append(_ablation_line(results))
    if "pac" in results.controllers and len(results.controllers) > 1:
        measured.append(_ranking_line(results))
    if results.reference:
        how = ("the best of random, sec and dump by final average, as pac-verl report chooses"
               if results.reference_is_best else "named by --reference")  # fmt: skip
        measured.append(f"Speed-ups are against {results.reference} ({how}).")
    if measured:
        console.print(f"[bold]Measured:[/bold] {' '.join(measured)}")


def print_results(results) -> None:
    ref = results.reference
    cols = ["controller", "final val avg (mean ± std)"]
    if ref:
        cols += [f"first step >= {ref}'s final avg", "speed-up"]
    n = len(results.seeds)
    print_summary(
        f"Simulation '{results.scenario}': {results.steps} steps, {n} seed(s)",
        cols,
        results.summary_rows(),
    )
    print_summary(
        f"Simulation '{results.scenario}': final validation per arm (mean over seeds)",
        ["controller", *results.arms],
        results.final_val_rows(),
    )
    print_summary(
        f"Simulation '{results.scenario}': rollouts spent on zero-variance groups (mean over seeds)",
        ["controller", "rollouts", "share of all rollouts"],
        results.waste_rows(),
    )
    print_summary(
        f"Simulation '{results.scenario}': mean batch share per arm",
        ["controller", *results.arms],
        results.share_rows(),
    )


if __name__ == "__main__":
    raise SystemExit(main())
