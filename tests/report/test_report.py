"""`pac-verl report` on log files written here with known numbers; expectations are hand-computed."""

import json

import numpy as np
import pytest

from pac_verl.errors import UserError
from pac_verl.report.cli import main
from pac_verl.report.figures import windowed_signal
from pac_verl.report.logs import load_runs
from pac_verl.report.render import render_table
from pac_verl.report.tables import TABLES, build_table, efficiency_for

ML = "multi_level__qwen2.5-3b"


def val(values: dict[str, float]) -> dict[str, float]:
    return {f"val-core/{ds}/acc/mean@1": v for ds, v in values.items()}


def level4(c, z, a) -> dict[str, float]:
    return val({"countdown/4": c, "zebra/4": z, "arc/4": a})


def write(path, lines, truncated: str | None = None):
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps({"step": s, "data": d}) + "\n" for s, d in lines)
    path.write_text(text + (truncated or ""))


def run_dir(root, name, lines, **info):
    """A run folder as python -m pac_verl.main writes it: run.json + one metrics file."""
    from pac_verl.naming import parse_experiment_name

    key = parse_experiment_name(name)
    d = root / name
    write(d / "metrics-20261101T000000Z.jsonl", lines)
    meta = {"experiment_name": name, "setting": key.setting, "backbone": key.backbone,
            "curriculum": key.curriculum, "seed": key.seed, "window": key.window, **info}  # fmt: skip
    (d / "run.json").write_text(json.dumps(meta))
    return d


def test_table1_takes_the_final_step_and_averages_per_seed(tmp_path):
    # PAC: countdown 0.3/0.4/0.5, zebra 0.2, arc 0.1/0.2/0.3 at step 500; other numbers at 250
    for seed, (c, a) in enumerate([(0.3, 0.1), (0.4, 0.2), (0.5, 0.3)]):
        run_dir(tmp_path, f"{ML}__pac__seed{seed}",
                [(0, level4(0, 0, 0)), (250, level4(0.9, 0.9, 0.9)), (500, level4(c, 0.2, a))])  # fmt: skip
    runs = load_runs([tmp_path])
    res = build_table(TABLES[1], runs)
    (section,) = res.sections
    assert section.step == 500 and section.seeds == [0, 1, 2]
    (pac,) = [r for r in section.rows if r.method == "pac"]
    assert [c.mean for c in pac.cells] == pytest.approx([0.4, 0.2, 0.2])
    assert [c.std for c in pac.cells] == pytest.approx([0.1, 0.0, 0.1])
    # per-seed averages 0.2, 0.8/3, 1/3: mean 0.8/3, sample std 0.2/3
    assert pac.average.mean == pytest.approx(0.8 / 3)
    assert pac.average.std == pytest.approx(0.2 / 3)
    md = render_table(res)
    assert "| Ours (PAC) | **0.400 ± 0.100** | **0.200 ± 0.000** | **0.200 ± 0.100** |" in md
    assert "**0.267 ± 0.067**" in md
    # Random, SEC, DUMP and ST have no runs: listed, never filled in
    assert any("no runs for SEC" in m for m in res.missing)
    assert any("no runs for ST" in m for m in res.missing)


def test_resumed_run_merges_attempts_later_values_win(tmp_path):
    d = tmp_path / f"{ML}__pac__seed0"
    first = [(0, level4(0.1, 0.1, 0.1)), (300, {"critic/score/mean": 0.5}),
             (400, level4(0.2, 0.2, 0.2))]  # fmt: skip
    write(d / "metrics-20261101T000000Z.jsonl", first, truncated='{"step": 401, "da')
    # the resumed attempt validates at step 300 (where it resumed), then re-runs 400 and 500
    second = [(300, level4(0.3, 0.3, 0.3)), (400, level4(0.4, 0.4, 0.4)),
              (500, level4(0.5, 0.6, 0.7))]  # fmt: skip
    write(d / "metrics-20261102T000000Z.jsonl", second)
    (d / "run.json").write_text(json.dumps({"experiment_name": d.name, "setting": "multi_level",
        "backbone": "qwen2.5-3b", "curriculum": "pac", "seed": 0, "window": 16}))  # fmt: skip
    notes = []
    (run,) = load_runs([d], notes)
    assert run.val_steps() == [0, 300, 400, 500]
    assert run.steps[300]["critic/score/mean"] == 0.5  # the first attempt's training metric kept
    assert run.val_score(300, "countdown/4") == 0.3
    assert run.val_score(400, "zebra/4") == 0.4  # the later attempt wins
    assert any("line 4 is truncated" in n for n in notes)
    assert len(run.sources) == 2


def test_sample_efficiency_is_the_papers_ratio(tmp_path):
    steps = [0, 100, 200, 300, 400, 500]
    sec = [0.1, 0.15, 0.2, 0.25, 0.3, 0.3]  # reaches its own final 0.3 first at step 400
    pac = [0.1, 0.2, 0.3, 0.35, 0.4, 0.4]  # reaches 0.3 at step 200 -> 400 / 200 = 2x
    random = [0.1, 0.1, 0.1, 0.2, 0.2, 0.2]  # never reaches 0.3
    for name, curve in (("sec", sec), ("pac", pac), ("random", random)):
        for seed in (0, 1):
            run_dir(tmp_path, f"{ML}__{name}__seed{seed}",
                    [(s, level4(v, v, v)) for s, v in zip(steps, curve)])  # fmt: skip
    (eff,) = efficiency_for(TABLES[1], load_runs([tmp_path]))
    assert eff.reference == "sec"  # the best baseline by final average
    assert eff.target == pytest.approx(0.3) and eff.reference_step == 400
    rows = {e.method: e for e in eff.rows}
    assert rows["pac"].step == 200 and rows["pac"].ratio == pytest.approx(2.0)
    assert rows["random"].step is None and rows["random"].ratio is None
    (eff,) = efficiency_for(TABLES[1], load_runs([tmp_path]), reference="random")
    assert eff.reference_step == 300 and {e.method: e.step for e in eff.rows}["pac"] == 100


def test_single_task_reference_and_missing_seeds_and_steps(tmp_path):
    for seed in (0, 1):
        for task, v in (("countdown", 0.6), ("zebra", 0.4), ("arc", 0.2)):
            values = {"countdown/4": 0.0, "zebra/4": 0.0, "arc/4": 0.0, f"{task}/4": v + seed / 10}
            run_dir(tmp_path, f"{ML}__single-{task}__seed{seed}", [(500, val(values))])
    run_dir(tmp_path, f"{ML}__pac__seed0", [(500, level4(0.3, 0.3, 0.3))])
    run_dir(tmp_path, f"{ML}__pac__seed1", [(300, level4(0.2, 0.2, 0.2))])  # stopped early
    res = build_table(TABLES[1], load_runs([tmp_path]))
    (section,) = res.sections
    rows = {r.method: r for r in section.rows}
    st = rows["single"]
    # each column from the run trained on its task: countdown 0.6/0.7, zebra 0.4/0.5, arc 0.2/0.3
    assert [c.mean for c in st.cells] == pytest.approx([0.65, 0.45, 0.25])
    assert st.average.values == pytest.approx({0: 0.4, 1: 0.5})
    assert rows["pac"].cells[0].values == {0: 0.3}  # seed 1 never validated at step 500
    assert any("seed 1 has no validation at step 500 (last validation step: 300)" in m
               for m in res.missing)  # fmt: skip
    md = render_table(res)
    assert "0.300 (n=1)" in md
    # ST is not ranked: PAC's 0.300 is the best among curricula although ST's 0.650 is higher
    assert "**0.300 (n=1)**" in md and "**0.650" not in md


def test_table2_average_is_math_first_then_domains(tmp_path):
    md_name = "multi_domain__qwen2.5-7b__pac__seed0"
    values = {"math500": 0.6, "amc23": 0.3, "aime24": 0.0, "bigcodebench": 0.2, "kk6": 0.7}
    run_dir(tmp_path, md_name, [(400, val(values))])
    res = build_table(TABLES[2], load_runs([tmp_path]))
    (pac,) = [r for r in res.sections[0].rows if r.method == "pac"]
    # Math = (0.6 + 0.3 + 0.0) / 3 = 0.3; Avg = (0.3 + 0.2 + 0.7) / 3 = 0.4
    assert pac.average.mean == pytest.approx(0.4) and pac.average.std is None
    tex = render_table(res, "latex")
    assert r"\begin{tabular}{lcccccc}" in tex and r"\cmidrule(lr){2-4}" in tex
    assert r"\textbf{$0.400$}" in tex and r"K\&K" in tex


def test_tables_3_and_4(tmp_path):
    # level l of every task at 0.1 * l for PAC -> Simple 0.1 ... Ext. 0.4
    per_level = val({f"{t}/{lvl}": 0.1 * lvl for t in ("countdown", "zebra", "arc")
                     for lvl in (1, 2, 3, 4)})  # fmt: skip
    run_dir(tmp_path, f"{ML}__pac__seed0", [(500, per_level)])
    run_dir(tmp_path, f"{ML}__pac__w4__seed0", [(500, level4(0.1, 0.2, 0.3))], window=4)
    runs = load_runs([tmp_path])
    t3 = build_table(TABLES[3], runs)
    (pac,) = [r for r in t3.sections[0].rows if r.method == "pac"]
    assert [c.mean for c in pac.cells] == pytest.approx(
        [0.1, 0.2, 0.3, 0.4]
    ) and pac.average is None
    t4 = build_table(TABLES[4], runs)
    rows = {r.label: r for r in t4.sections[0].rows}
    assert set(rows) == {"4", "16"} and rows["4"].average.mean == pytest.approx(0.2)
    assert any("no runs for 32" in m for m in t4.missing)


def test_cli_prints_tables_and_writes_figures(tmp_path, capsys):
    logs = tmp_path / "runs"
    for seed in (0, 1):
        for name, v in (("pac", 0.4), ("random", 0.2)):
            lines = [(0, level4(0.1, 0.1, 0.1)), (250, level4(v, v, v)), (500, level4(v, v, v))]
            for s in range(1, 501):  # curriculum metrics every step
                lines.append((s, {"curriculum/countdown/1/share": 0.5,
                                  "curriculum/countdown/1/s_adv": 0.1}))  # fmt: skip
            run_dir(logs, f"{ML}__{name}__seed{seed}", lines)
    figs = tmp_path / "figs"
    assert main([str(logs), "--figures", str(figs), "--out", str(tmp_path / "t.md")]) == 0
    out = capsys.readouterr().out
    assert "### Table 1" in out and "### Table 3" not in out  # no per-level logs: no Table 3
    assert "Table 3, qwen2.5-3b: no run validated all of arc/1" in out  # ... and it says so
    assert "Sample efficiency" in out and "Missing" in out
    assert (tmp_path / "t.md").read_text().startswith("### Table 1")
    names = sorted(p.name for p in figs.glob("*.png"))
    assert names == ["curriculum__multi_level__qwen2.5-3b__pac.png",
                     "curriculum__multi_level__qwen2.5-3b__random.png",
                     "validation__multi_level__qwen2.5-3b.png"]  # fmt: skip
    assert all((figs / n).stat().st_size > 1000 for n in names)


def test_windowed_signal_means_within_windows_then_over_seeds(tmp_path):
    a = run_dir(tmp_path, f"{ML}__pac__seed0",
                [(s, {"curriculum/x/share": 0.0 if s <= 50 else 1.0}) for s in range(1, 101)])  # fmt: skip
    b = run_dir(tmp_path, f"{ML}__pac__seed1",
                [(s, {"curriculum/x/share": 0.5}) for s in range(1, 101)])  # fmt: skip
    starts, values = windowed_signal(load_runs([a, b]), "x", "share", 50)
    np.testing.assert_array_equal(starts, [1, 51])
    np.testing.assert_allclose(values, [0.25, 0.75])


def test_wandb_exports(tmp_path):
    hist = tmp_path / f"{ML}__pac__seed0.csv"  # run.history().to_csv(): a _step column
    hist.write_text("_step,val-core/countdown/4/acc/mean@1,val-core/zebra/4/acc/mean@1,"
                    "val-core/arc/4/acc/mean@1,_runtime\n0,0.1,0.1,0.1,5\n500,0.3,0.6,0.9,99\n")  # fmt: skip
    (run,) = load_runs([hist])
    assert run.key.curriculum == "pac" and run.val_score(500, "arc/4") == 0.9
    assert "_runtime" not in run.steps[500]
    chart = tmp_path / "chart.csv"  # a chart exported from the wandb UI: several runs
    chart.write_text(f"Step,{ML}__sec__seed0 - val-core/countdown/4/acc/mean@1,"
                     f"{ML}__sec__seed0 - val-core/countdown/4/acc/mean@1__MIN,"
                     f"{ML}__sec__seed1 - val-core/countdown/4/acc/mean@1\n"
                     "500,0.25,0.2,0.35\n")  # fmt: skip
    runs = load_runs([chart])
    assert [(r.key.seed, r.val_score(500, "countdown/4")) for r in runs] == [(0, 0.25), (1, 0.35)]


def test_bad_input_is_named(tmp_path, capsys):
    with pytest.raises(UserError, match="no such file"):
        main([str(tmp_path / "nope")])
    bad = tmp_path / "bad" / f"{ML}__pac__seed0.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"step": 0, "data": {}}\nnot json\n{"step": 1, "data": {}}\n')
    with pytest.raises(UserError, match=r"line 2 is not JSON"):
        main([str(bad)])
    stray = tmp_path / "stray.jsonl"
    stray.write_text('{"step": 0, "data": {}}\n')
    with pytest.raises(UserError, match="cannot tell which run this is"):
        main([str(stray)])
    ok = run_dir(tmp_path / "ok", f"{ML}__pac__seed0", [(500, level4(0.1, 0.1, 0.1))])
    with pytest.raises(UserError, match="--table 2 reads multi_domain runs"):
        main([str(ok), "--table", "2"])
    with pytest.raises(UserError, match="--reference 'sce'"):
        main([str(ok), "--reference", "sce"])
    with pytest.raises(UserError, match="no run logs found"):
        (tmp_path / "empty").mkdir()
        main([str(tmp_path / "empty")])


def test_equal_printed_means_share_the_bold(tmp_path):
    # 0.3004 and 0.2996 both print as 0.300: both best; 0.2 second (underlined in LaTeX only)
    for name, v in (("pac", 0.3004), ("sec", 0.2996), ("random", 0.2)):
        run_dir(tmp_path, f"{ML}__{name}__seed0", [(500, level4(v, v, v))])
    res = build_table(TABLES[1], load_runs([tmp_path]))
    md = render_table(res)
    assert md.count("**0.300**") == 8  # 3 columns + Avg., two rows
    tex = render_table(res, "latex")
    assert tex.count(r"\underline{$0.200$}") == 4


def test_files_that_are_not_run_logs_are_skipped_with_one_note(tmp_path):
    run_dir(tmp_path, f"{ML}__pac__seed0", [(500, level4(0.1, 0.1, 0.1))])
    dumps = tmp_path / "val_generations"  # verl's validation_data_dir: <step>.jsonl
    dumps.mkdir()
    for step in (0, 25, 50):
        (dumps / f"{step}.jsonl").write_text('{"input": "x"}\n')
    notes = []
    (run,) = load_runs([tmp_path], notes)
    assert run.name == f"{ML}__pac__seed0"
    (note,) = notes
    assert "skipped 3 .jsonl/.csv file(s)" in note and "and 2 more" in note


def test_every_run_is_read_at_its_final_step_and_a_stopped_one_is_listed(tmp_path, capsys):
    # seed 0 finished (validated at 500); seed 1 stopped at step 320 after validating at 300,
    # where it scored higher: it must not be mixed in, nor pull the table back to step 300
    run_dir(
        tmp_path, f"{ML}__pac__seed0", [(300, level4(0.1, 0.1, 0.1)), (500, level4(0.2, 0.2, 0.2))]
    )
    run_dir(tmp_path, f"{ML}__pac__seed1", [(300, level4(0.9, 0.9, 0.9)), (320, {"x": 1.0})])
    runs = load_runs([tmp_path])
    (section,) = build_table(TABLES[1], runs).sections
    (pac,) = section.rows
    assert section.step == 500 and pac.cells[0].values == {0: 0.2}
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "### Incomplete runs (not read)" in out
    assert f"- {ML}__pac__seed1: last step 320 of 500, last validation at step 300" in out
    assert f"{ML}__pac__seed0: last step" not in out


def test_runs_that_all_stopped_early_leave_the_table_out(tmp_path):
    for seed in (0, 1):
        run_dir(tmp_path, f"{ML}__pac__seed{seed}", [(300, level4(0.5, 0.5, 0.5))])
    res = build_table(TABLES[1], load_runs([tmp_path]))
    assert res.sections == []
    assert any("at step 500; table left out" in m for m in res.missing)


def test_the_recorded_total_steps_is_the_final_step(tmp_path):
    # runs trained with setting.total_steps=100 (recorded in run.json) are read at step 100
    for seed in (0, 1):
        run_dir(tmp_path, f"{ML}__pac__seed{seed}",
                [(50, level4(0.1, 0.1, 0.1)), (100, level4(0.3, 0.3, 0.3))], total_steps=100)  # fmt: skip
    (section,) = build_table(TABLES[1], load_runs([tmp_path])).sections
    assert section.step == 100 and section.rows[0].average.mean == pytest.approx(0.3)


def config(seed: int, lr: float = 1e-6) -> dict:
    name = f"{ML}__pac__seed{seed}"
    return {"curriculum": {"seed": seed, "window": 16}, "data": {"seed": seed},
            "trainer": {"experiment_name": name, "total_training_steps": 500},
            "actor_rollout_ref": {"actor": {"optim": {"lr": lr}}}}  # fmt: skip


def test_seeds_whose_configs_differ_in_more_than_the_seed_are_refused(tmp_path, capsys):
    lines = [(500, level4(0.2, 0.2, 0.2))]
    for seed in (0, 1):
        run_dir(tmp_path / "same", f"{ML}__pac__seed{seed}", lines, config=config(seed))
    assert main([str(tmp_path / "same")]) == 0  # the seed keys may differ
    run_dir(tmp_path / "mixed", f"{ML}__pac__seed0", lines, config=config(0))
    run_dir(tmp_path / "mixed", f"{ML}__pac__seed1", lines, config=config(1, lr=2e-6))
    with pytest.raises(UserError, match=r"differ in more than the seed .*seed0 vs .*seed1: "
                                        r"actor_rollout_ref\.actor\.optim\.lr: 1e-06 -> 2e-06"):  # fmt: skip
        main([str(tmp_path / "mixed")])


def test_one_name_logged_with_two_configs_is_refused(tmp_path):
    lines = [(500, level4(0.2, 0.2, 0.2))]
    run_dir(tmp_path / "a", f"{ML}__pac__seed0", lines, config=config(0), config_hash="aaaa")
    run_dir(tmp_path / "b", f"{ML}__pac__seed0", lines, config=config(0, lr=2e-6),
            config_hash="bbbb")  # fmt: skip
    with pytest.raises(UserError, match=r"made with different configs \(actor_rollout_ref"):
        load_runs([tmp_path])


def test_prompt_level_runs_are_labelled_by_their_arm_level_method():
    table = TABLES[1]
    assert table.row_label("pac-prompt") == "Ours (PAC) + prompt-level"
    assert table.row_label("sec-prompt") == "SEC + prompt-level"
    assert table.row_label("sec") == "SEC"
