"""Bad inputs through the real command line: each ends in one message naming the defect.

Every row of ``DEFECTS`` is one input a user could give, with exactly one thing wrong, run as a
subprocess of the installed ``pac-verl`` (or ``python -m pac_verl.main``). Each must exit non-zero,
print no Python traceback, and say on stderr what is wrong (the regular expression). This table is
the list of inputs tried so far: when you meet a new bad input, add a row (and a data variant in
``VARIANTS`` if it needs one).

The rows run in one module fixture; the data is built once per module. Data defects must be caught
before verl is imported, and the training entry point must fail before Ray starts, which keeps
each case to a second or two of work, but a ``pac-verl preflight`` subprocess pays about 9 CPU s
of start-up (torch, the verifiers, the GPU-path import probe) before it reads the data. So the
first row of each ``pac-verl`` subcommand, every ``python -m pac_verl.main`` row and the
read-only-mount row run as real subprocesses (two at a time: the machine has two cores), proving
the console entry end to end; the other rows run the same entry point, ``pac_verl.cli.main``, in
this process (same argv, environment and working folder; stdout and stderr captured at the file
descriptors too; an exception that escapes is the traceback and exit status 1 a process would
give), one after another beside them.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from command_helpers import BIN, PAC_VERL

from pac_verl.data_prep.rows import read_rows

MAIN = [sys.executable, "-m", "pac_verl.main"]
LONG = "x" * 300  # longer than any file system's 255-byte name limit


def _set(rows, i, path, value):
    *head, last = path
    target = rows[i]
    for key in head:
        target = target[key]
    target[last] = value


def _without(row, column):
    return {k: v for k, v in row.items() if k != column}


# a countdown truth its row's solution cannot reach (row 20 is a countdown row)
UNREACHABLE = '{"numbers":[1,2,3],"target":1001}'


# A training-file variant of the good data: (rows -> rows). Row numbers are those the message names.
VARIANTS = {
    "no_reward_model": lambda rows: [_without(r, "reward_model") for r in rows],
    "null_prompt": lambda rows: _set(rows, 3, ["prompt"], None) or rows,
    "string_prompts": lambda rows: [{**r, "prompt": "solve it"} for r in rows],
    "null_gold": lambda rows: _set(rows, 7, ["reward_model", "ground_truth"], None) or rows,
    "wrong_gold": lambda rows: (
        _set(rows, 20, ["reward_model", "ground_truth"], UNREACHABLE) or rows
    ),
    "unknown_type": lambda rows: _set(rows, 5, ["extra_info", "type"], "chess") or rows,
    "stray_arm": lambda rows: _set(rows, 11, ["extra_info", "difficulty"], 7) or rows,
}
# Whole-file defects: (file bytes of the good train.parquet -> bytes written).
BROKEN_FILES = {
    "truncated": lambda b: b[: len(b) // 2],
    "not_parquet": lambda b: b"data_source,prompt\ncountdown,hi\n",
}

PF = [PAC_VERL, "preflight", "data.train_batch_size=9"]
# (id, command, regex that stderr must match). {name} is the folder of the data variant `name`,
# {good} the good data, {tmp} a scratch folder, {file} a plain file, {ro} a read-only mount.
DEFECTS = [
    # the preflight must fail where the run would
    (
        "preflight/no reward_model column",
        [*PF, "setting.data_dir={no_reward_model}"],
        r"train\.parquet: missing column 'reward_model'",
    ),
    (
        "preflight/null prompt",
        [*PF, "setting.data_dir={null_prompt}"],
        r"train\.parquet row 3: prompt is null",
    ),
    (
        "preflight/prompt not chat",
        [*PF, "setting.data_dir={string_prompts}"],
        r"train\.parquet row 0: prompt must be a non-empty list of chat messages",
    ),
    (
        "preflight/null gold",
        [*PF, "setting.data_dir={null_gold}"],
        r"train\.parquet row 7: reward_model\.ground_truth is null",
    ),
    (
        "preflight/wrong training gold",
        [*PF, "setting.data_dir={wrong_gold}"],
        r"train\.parquet: 1 .*gold.* do(es)? not score 1: row 20",
    ),
    (
        "preflight/type without verifier",
        [*PF, "setting.data_dir={unknown_type}"],
        r"train\.parquet row 5: extra_info\.type is 'chess'",
    ),
    (
        "preflight/arm smaller than its share",
        # 10 arms at B = 72: each needs 8 prompts on average; the stray one has 1
        [PAC_VERL, "preflight", "data.train_batch_size=72", "setting.data_dir={stray_arm}"],
        r"arm 'countdown/7' has 1 row \(row 11\)",
    ),
    (
        "preflight/truncated parquet",
        [*PF, "setting.data_dir={truncated}"],
        r"train\.parquet: not a readable parquet file",
    ),
    (
        "preflight/csv named .parquet",
        [*PF, "setting.data_dir={not_parquet}"],
        r"train\.parquet: not a readable parquet file",
    ),
    (
        "preflight/empty training file",
        [*PF, "setting.data_dir={empty}"],
        r"train\.parquet: the file has no rows",
    ),
    (
        "preflight/batch size not a number",
        [*PF, "setting.data_dir={good}", "data.train_batch_size=abc"],
        r"data\.train_batch_size .*'abc'",
    ),
    (
        "preflight/window not a number",
        [*PF, "setting.data_dir={good}", "curriculum.window=abc"],
        r"curriculum\.window .*'abc'",
    ),
    (
        "preflight/single without arms",
        [*PF, "setting.data_dir={good}", "curriculum=single"],
        r"curriculum=single needs curriculum\.train_arms",
    ),
    (
        "preflight/--batches 0",
        [*PF, "setting.data_dir={good}", "--batches", "0"],
        r"--batches: .*0",
    ),
    (
        "preflight/data path name too long",
        [*PF, "setting.data_dir={tmp}/" + LONG],
        r"x{300}.*: File name too long",
    ),
    (
        "prep check/file name too long",
        [PAC_VERL, "prep", "check", "{tmp}/" + LONG + ".parquet"],
        r"x{300}\.parquet.*: File name too long",
    ),
    # the training entry point fails before Ray starts
    (
        "main/batch size not a number",
        [*MAIN, "setting.data_dir={good}", "data.train_batch_size=abc"],
        r"data\.train_batch_size .*'abc'",
    ),
    (
        "main/window not a number, --cfg job",
        [*MAIN, "curriculum.window=abc", "--cfg", "job", "--resolve"],
        r"curriculum\.window .*'abc'",
    ),
    (
        "main/an estimator verl 0.7.1 cannot run",
        [*MAIN, "setting.data_dir={good}", "algorithm.adv_estimator=optimal_token_baseline"],
        r"adv_estimator=optimal_token_baseline: verl 0\.7\.1's compute_advantage cannot run it",
    ),
    (
        "main/single without arms",
        [*MAIN, "setting.data_dir={good}", "curriculum=single"],
        r"curriculum=single needs curriculum\.train_arms",
    ),
    (
        "main/an unknown sandbox isolation level",
        [
            *MAIN,
            "setting.data_dir={good}",
            "reward.custom_reward_function.reward_kwargs.sandbox.isolation=fallback",
        ],
        r"reward\.custom_reward_function\.reward_kwargs\.sandbox\.isolation='fallback' is not a "
        r"sandbox isolation level: use one of strict, namespaces, none",
    ),
    (
        "preflight/SandboxFusion without its address",
        [
            *PF,
            "setting.data_dir={good}",
            "reward.custom_reward_function.reward_kwargs.sandbox.backend=sandbox_fusion",
        ],
        r"sandbox\.backend=sandbox_fusion needs reward\.custom_reward_function\.reward_kwargs"
        r"\.sandbox\.fusion_url",
    ),
    # prep check
    (
        "prep check/truncated parquet",
        [PAC_VERL, "prep", "check", "{truncated}/train.parquet"],
        r"train\.parquet: not a readable parquet file",
    ),
    (
        "prep check/folder",
        [PAC_VERL, "prep", "check", "{good}"],
        r"is a folder, not a parquet file",
    ),
    (
        "prep check/null prompt",
        [PAC_VERL, "prep", "check", "{null_prompt}/train.parquet"],
        r"row 3: prompt is null",
    ),
    (
        "prep check/empty file",
        [PAC_VERL, "prep", "check", "{empty}/train.parquet"],
        r"train\.parquet: the file has no rows",
    ),
    # conflicting options are refused, arguments are checked before any work
    (
        "prep multi-domain/--offline-logic-only with --only",
        [
            PAC_VERL,
            "prep",
            "multi-domain",
            "--out",
            "{tmp}/md",
            "--offline-logic-only",
            "--only",
            "math",
        ],
        r"--offline-logic-only .*--only",
    ),
    (
        "prep multi-level/--out under a file",
        [PAC_VERL, "prep", "multi-level", "--out", "{file}/ml"],
        r"--out .*file.*: .*(not a folder|Not a directory)",
    ),
    (
        "simulate/--controllers empty",
        [PAC_VERL, "simulate", "--scenario", "mixed", "--controllers", "", "--no-logs"],
        r"--controllers",
    ),
    (
        "simulate/--controllers for the tour",
        [PAC_VERL, "simulate", "--controllers", "pac,random", "--no-logs"],
        r"--controllers: the tour runs its own controllers .*--scenario",
    ),
    (
        "simulate/--reference not run",
        [
            PAC_VERL,
            "simulate",
            "--scenario",
            "mixed",
            "--controllers",
            "pac,random",
            "--reference",
            "dump",
            "--no-logs",
        ],
        r"--reference 'dump' is not among the controllers run",
    ),
    (
        "simulate/--out under a file",
        [PAC_VERL, "simulate", "--out", "{file}/sim"],
        r"--out .*file.*(not a folder|Not a directory)",
    ),
    (
        "simulate/--out name too long",
        [PAC_VERL, "simulate", "--out", "{tmp}/" + LONG],
        r"--out .*: .*name too long",
    ),
    (
        "simulate/--out on a read-only file system",
        [PAC_VERL, "simulate", "--out", "{ro}/sim"],
        r"--out .*: .*[Rr]ead-only file system",
    ),
    (
        "simulate/--out not empty",
        [PAC_VERL, "simulate", "--out", "{good}"],
        r"--out .* is not empty.*--force",
    ),
    (
        "quickstart/--steps 0",
        [PAC_VERL, "quickstart", "--steps", "0", "--out", "{tmp}/qs"],
        r"--steps: .*0",
    ),
    (
        "quickstart/--out not empty",
        [PAC_VERL, "quickstart", "--out", "{good}"],
        r"--out .* is not empty.*--force",
    ),
]


def _has_ro_mount() -> bool:
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def _run(command: list[str], paths: dict[str, str], cwd: Path, env: dict[str, str]
         ) -> subprocess.CompletedProcess:  # fmt: skip
    argv = [a.format(**paths) for a in command]
    if any("{ro}" in a for a in command):
        # a tmpfs mounted read-only in a private mount namespace: a real EROFS, even as root
        argv = ["unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"',
                paths["ro"], *argv]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def _in_process(command: list[str], paths: dict[str, str], cwd: Path, env: dict[str, str]
                ) -> subprocess.CompletedProcess:  # fmt: skip
    """``pac-verl ARGS`` as its console script runs it (``sys.exit(pac_verl.cli.main())``), in this
    process: the same argv, environment (restored after) and working folder; what it writes to
    stdout and stderr, through ``sys`` or the file descriptors; the exit status a process would
    have, with an escaping exception's traceback on stderr. Warnings are shown as Python shows
    them by default, each once per run."""
    from pac_verl.cli import main

    argv = [a.format(**paths) for a in command]
    assert argv[0] == PAC_VERL, argv
    saved_env, saved_cwd, saved_argv = dict(os.environ), os.getcwd(), sys.argv
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryFile() as fd_out, tempfile.TemporaryFile() as fd_err:
        sys.stdout.flush(), sys.stderr.flush()
        kept = os.dup(1), os.dup(2)
        os.dup2(fd_out.fileno(), 1), os.dup2(fd_err.fileno(), 2)
        try:
            os.environ.clear()
            os.environ.update(env)
            os.chdir(cwd)
            sys.argv = argv
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                    warnings.catch_warnings():  # fmt: skip
                warnings.resetwarnings()
                for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                                 ResourceWarning):  # fmt: skip
                    warnings.simplefilter("ignore", category)
                try:
                    code = main(argv[1:])
                except SystemExit as exit_:
                    code = exit_.code
                except BaseException:  # what the interpreter prints for an uncaught exception
                    traceback.print_exc(file=err)
                    code = 1
                if code is not None and not isinstance(code, int):
                    print(code, file=err)  # sys.exit("text"): the text, status 1
                    code = 1
        finally:
            os.dup2(kept[0], 1), os.dup2(kept[1], 2)
            os.close(kept[0]), os.close(kept[1])
            sys.argv = saved_argv
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        fd_out.seek(0), fd_err.seek(0)
        stdout = out.getvalue() + fd_out.read().decode(errors="replace")
        stderr = err.getvalue() + fd_err.read().decode(errors="replace")
    return subprocess.CompletedProcess(argv, code or 0, stdout, stderr)


def _subprocess_rows(todo: list) -> set[str]:
    """The rows run as processes: the first of each ``pac-verl`` subcommand, every ``python -m
    pac_verl.main`` row and every row that needs the read-only mount."""
    first: dict[tuple[str, ...], str] = {}
    for name, command, _ in todo:
        first.setdefault(tuple(command[:2]), name)
    return {name for name, command, _ in todo
            if command[0] != PAC_VERL or any("{ro}" in a for a in command)
            or first[tuple(command[:2])] == name}  # fmt: skip


@pytest.fixture(scope="module")
def results(tmp_path_factory, small_multi_level):
    root = tmp_path_factory.mktemp("defects")
    good = small_multi_level
    rows = read_rows(good / "train.parquet")
    paths = {"good": str(good), "tmp": str(root / "scratch"), "ro": str(root / "ro")}
    (root / "ro").mkdir()
    (root / "scratch").mkdir()
    (root / "file").write_text("a file, not a folder\n")
    paths["file"] = str(root / "file")

    def variant(name: str) -> Path:
        folder = root / name
        folder.mkdir()
        shutil.copy(good / "val.parquet", folder / "val.parquet")
        paths[name] = str(folder)
        return folder / "train.parquet"

    for name, change in VARIANTS.items():
        pq.write_table(pa.Table.from_pylist(change(copy.deepcopy(rows))), variant(name))
    for name, change in BROKEN_FILES.items():
        variant(name).write_bytes(change((good / "train.parquet").read_bytes()))
    pq.write_table(pq.read_table(good / "train.parquet").slice(0, 0), variant("empty"))
    ro_ok = _has_ro_mount()
    todo = [d for d in DEFECTS if ro_ok or not any("{ro}" in a for a in d[1])]
    env = _env()
    processes = _subprocess_rows(todo)
    with ThreadPoolExecutor(max_workers=2) as pool:
        started = {d[0]: pool.submit(_run, d[1], paths, root, env)
                   for d in todo if d[0] in processes}  # fmt: skip
        done = {d[0]: _in_process(d[1], paths, root, env) for d in todo if d[0] not in processes}
        done.update({name: future.result() for name, future in started.items()})
    return done, paths


@pytest.mark.parametrize(("name", "command", "message"), DEFECTS, ids=[d[0] for d in DEFECTS])
def test_defect_is_one_clear_message(results, name, command, message):
    done, paths = results
    if name not in done:
        pytest.skip("no read-only mount here (needs unshare -rm)")
    res = done[name]
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "Traceback" not in out, out
    assert re.search(message, res.stderr), res.stderr
    errors = [line for line in res.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, res.stderr  # one line that says it all
    if command[:3] == MAIN:
        assert "Ray" not in out, out  # refused before Ray starts
    if name.startswith("quickstart/--steps"):
        assert not Path(paths["tmp"], "qs").exists()  # nothing written before the refusal
