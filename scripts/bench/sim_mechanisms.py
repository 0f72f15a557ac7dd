"""Which simulator scenario shows which part of PAC: every controller and PAC's window on every
scenario, so that the tour (``pac_verl.simulate.tour``) shows measured effects, not chosen ones.

    python scripts/bench/sim_mechanisms.py [--steps 150] [--seeds 5] [--batch-size 32]

First table: per scenario, the final validation average (mean over seeds) of every controller.
Second table: per scenario, PAC's final minus each ablation's (the effect of the advantage term,
Thompson sampling and the progress term), PAC's final at W = 4 and W = 64 minus W = 16, and the
largest standard deviation over seeds among the PAC runs (an effect smaller than about twice it
is not one). A simulation: these numbers describe the simulated learner, not a language model.
"""

from __future__ import annotations

import argparse

from pac_verl.progress import Stopwatch, print_summary
from pac_verl.simulate import DEFAULT_CONTROLLERS, SCENARIOS, run_simulation

ABLATIONS = ("pac_no_adv", "pac_no_ts", "pac_no_prog")
WINDOWS = (4, 64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=32)
    args = ap.parse_args()
    seeds = list(range(args.seeds))
    kw = dict(seeds=seeds, steps=args.steps, batch_size=args.batch_size, show_progress=False)
    finals, effects = [], []
    with Stopwatch() as sw:
        for scenario in SCENARIOS:
            res = run_simulation(scenario, DEFAULT_CONTROLLERS, **kw)
            mean = {c: res.final_average(c)[0] for c in DEFAULT_CONTROLLERS}
            stds = [res.final_average(c)[1] for c in ("pac", *ABLATIONS)]
            finals.append([scenario, *(f"{mean[c]:.3f}" for c in DEFAULT_CONTROLLERS)])
            row = [scenario, *(f"{mean['pac'] - mean[a]:+.3f}" for a in ABLATIONS)]
            for w in WINDOWS:
                win = run_simulation(scenario, ["pac"], overrides={"window": w}, reference=None,
                                     **kw)  # fmt: skip
                m, s = win.final_average("pac")
                stds.append(s)
                row.append(f"{m - mean['pac']:+.3f}")
            effects.append([*row, f"{max(stds):.3f}"])
    title = f"{args.steps} steps, B = {args.batch_size}, G = 8, {args.seeds} seeds"
    print_summary(f"Final validation average (mean over seeds), {title}",
                  ["scenario", *DEFAULT_CONTROLLERS], finals)  # fmt: skip
    print_summary(f"Effect of each part of PAC on its final average, {title}",
                  ["scenario", "PAC - w/o adv", "PAC - w/o ts", "PAC - w/o prog",
                   "W=4 - W=16", "W=64 - W=16", "largest seed std"], effects,
                  footer={"seconds": round(sw.seconds, 1)})  # fmt: skip


if __name__ == "__main__":
    main()
