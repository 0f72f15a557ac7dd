"""``pac-verl quickstart``: the project's main job, on any machine, in about a minute.

1. builds a small multi-level dataset (all nine arms, paper prompts) with ``pac-verl prep``'s builder;
2. checks it: every row's schema, and every gold answer scored 1 by the verifiers (the reward
   function verl will call);
3. runs the preflight of the real training config on it (verl's RLHFDataset, create_rl_sampler,
   a few batches drawn by PAC, validation golds through compute_score);
4. runs the simulator's tour (:mod:`pac_verl.simulate.tour`; a latent-skill stand-in for the
   model, not a language model): every controller on the nine-arm ``multi_level`` scenario and on
   ``noisy``, and PAC's window on ``noisy`` and ``prerequisite``, each table with what to look
   at and the comparisons measured; its run logs are in verl's JSONL layout;
5. draws the report's figures from the ``multi_level`` logs (validation curves, curriculum
   heatmaps);
6. prints where everything is and what to run next.
"""

from __future__ import annotations

import argparse

from pac_verl.cli_args import HelpFormatter, positive_int
from pac_verl.progress import Stopwatch, console, process_seconds

# what the quickstart writes under --out; --force replaces exactly these
OUTPUTS = ("data", "sim_runs", "figures")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pac-verl quickstart", description=__doc__.splitlines()[0],
                                 formatter_class=HelpFormatter)  # fmt: skip
    ap.add_argument("--out", default="pac_quickstart", help="output folder")
    ap.add_argument("--force", action="store_true",
                    help="replace what an earlier quickstart wrote in --out (data, sim_runs, "
                         "figures); without it a non-empty --out is refused")  # fmt: skip
    ap.add_argument("--seed", type=int, default=0, help="seed of the generated data")
    ap.add_argument("--steps", type=positive_int, default=150, help="simulated training steps")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from pac_verl.outputs import prepare_output_dir

    out = prepare_output_dir(args.out, "--out", args.force, lambda p: p.name in OUTPUTS)

    from pac_verl.data_prep.check import check_file
    from pac_verl.data_prep.multi_level import build_multi_level
    from pac_verl.simulate.tour import print_tour, run_tour

    with Stopwatch() as sw:
        console.rule("1/5 data: a small multi-level dataset (16 prompts per arm)")
        data = build_multi_level(out / "data", train_per_arm=16, val_per_level=4, seed=args.seed)
        console.rule("2/5 check: schema and gold answers through the verifiers")
        for split in ("train", "val"):
            check_file(data["paths"][split])
        console.rule("3/5 preflight: the training config on this data, no GPU")
        import warnings

        from pac_verl.checks.preflight import run as preflight

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # no local Qwen tokenizer here: length filter skipped
            preflight([f"setting.data_dir={(out / 'data').resolve()}", "data.train_batch_size=18"])
        console.rule(
            "4/5 simulate: what each part of PAC does, on a simulated learner (not an LLM)"
        )
        tour = run_tour(steps=args.steps, seeds=[0, 1, 2], batch_size=32, out_dir=out / "sim_runs")
        print_tour(tour)
        console.rule("5/5 figures: validation curves and curriculum heatmaps from the run logs")
        from pac_verl.simulate.figures import draw

        figures = draw([r.run_dir for r in tour.levels.runs.values()], out / "figures")
    console.rule("done")
    console.print(f"data:      {out / 'data'} (train.parquet, val.parquet)")
    console.print(
        f"sim logs:  {out / 'sim_runs'} (verl JSONL: step -> curriculum/* and val-core/* metrics)"
    )
    console.print(f"figures:   {out / 'figures'} ({len(figures)} PNG, multi_level; all: "
                  f"pac-verl report {out / 'sim_runs'} --figures DIR)")  # fmt: skip
    console.print(f"tables:    pac-verl report {out / 'sim_runs'}")
    console.print(f"seconds:   {sw.seconds:.1f} ({process_seconds():.1f} with start-up)")
    console.print("full data: pac-verl prep multi-level --out data/multi_level")
    console.print("one scenario, every table: pac-verl simulate --scenario noisy")
    console.print("GPU run (8 x 80 GB node, pip install -e '.[gpu]'):", markup=False)
    console.print("  bash recipes/multi_level.sh qwen2.5-3b pac setting.data_dir=data/multi_level")
    return 0
