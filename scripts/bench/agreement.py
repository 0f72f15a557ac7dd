"""Benchmark: agreement with a careful human grader, ours against the scorers researchers use.

    python scripts/bench/agreement.py [--show-disagreements]
        [--reference tinyzero=DIR] [--reference logic-rl=DIR] [--reference code-r1=DIR]

Every scorer grades the same hand-labelled responses (``labelled_responses.jsonl`` beside this file:
right answers in usual and odd forms, wrong answers, hedges, hostile ones and reward hacks;
``label`` 1 means a careful human grader accepts the final answer, or for code, that the final
program solves the task). A scorer "accepts" a response when it pays full reward (1.0 / True;
partial credit counts as a rejection). The table gives, per task type (code split by test format),
the agreement with the labels, right answers rejected, wrong answers accepted, and hedges accepted
(a hedge must score 0: docs/concepts/spec.md#rewards). A reference that cannot grade a test format
is left out of that format's rows; its ``responses`` column counts the rows it graded.

The references, as their users call them, on the same text:
- math: verl 0.7.1's ``math_verify`` (math-verify on the whole response), ``math_dapo`` with
  ``strict_box_verify=True`` (its default reads a Minerva "Answer:" line, which these boxed
  responses do not have), ``prime_math`` and ``math_reward`` (Hendrycks MATH);
- DeepScaleR's grader lives in rllm, which is not on PyPI. Its two checks are Hendrycks'
  ``mathd`` normaliser and PRM800K's sympy grader, which is exactly what verl's
  ``prime_math.grade_answer`` runs; the row applies it to the last box after ``</think>``
  (DeepScaleR scores 0 without ``</think>``; the row is lenient and reads the whole response);
- countdown, zebra, arc, logic: reasoning-gym 0.1.25's ``score_answer`` for ``countdown``,
  ``zebra_puzzles``, ``arc_1d`` and ``knights_knaves`` (the generators of SEC's tasks), given the
  last box (verl's ``last_boxed_only_string``) or, for K&K, reasoning-gym's own ``<answer>``
  extraction (the whole response when there is no block);
- code: verl 0.7.1's ``prime_code`` on the stdin/stdout rows (it grades APPS-style tests only;
  imported with a bench-only stand-in for ``pyext``, see ``reference_scorers.py``; it runs the
  program unsandboxed, in a forked child: the hack rows here are harmless by construction), full
  reward = ``True``.

From a local checkout (``--reference NAME=DIR``; in neither verl 0.7.1 nor PyPI, and their code is
not copied into this project; see ``reference_scorers.py``), each as its users call it, on a
solution string that starts with the assistant header its prompt template writes:
- ``tinyzero``: TinyZero's countdown ``compute_score``, given the last box as its ``<answer>``
  line (as reasoning-gym is given the last box); full reward = 1.0;
- ``logic-rl``: Logic-RL's K&K ``compute_score``, full reward = 3 (format 1 + answer 2). A
  response with an ``<answer>`` block goes as written (Logic-RL also checks its
  ``<think></think><answer></answer>`` structure); one without is put in that structure (the
  text after ``</think>`` as the answer), so the row grades the roles rather than the format;
- ``code-r1``: Code-R1's coder1 ``compute_score`` (functional and stdin/stdout rows; it runs the
  program under firejail, ``apt-get install firejail``), full reward = 1.1 (format 0.1 + 1).
A reference that is not given or does not import gets a line saying so under the table.

No reference runs BigCodeBench unittests here (BigCodeBench's own harness needs its pinned
environment), so those rows are ours alone. reasoning-gym's countdown scorer runs sympy's
``parse_expr`` (an ``eval``) on the answer, TinyZero's an ``eval`` with empty builtins: the
hostile rows here are harmless by construction, never feed them untrusted text.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
from collections.abc import Callable
from pathlib import Path

import reference_scorers  # scripts/bench/reference_scorers.py, beside this script

from pac_verl.progress import print_summary
from pac_verl.verifiers import score
from pac_verl.verifiers.extract import after_think

LABELLED = Path(__file__).with_name("labelled_responses.jsonl")
TASKS = ("countdown", "zebra", "arc", "math", "logic", "code")
CODE_FORMATS = ("functional", "stdio", "unittest")
GROUPS = (*TASKS[:-1], *(f"code ({f})" for f in CODE_FORMATS))
REFERENCE_TIMEOUT_S = 10

Scorer = Callable[[dict], bool]


def load(path: Path = LABELLED) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def group(row: dict) -> str:
    """The table row a response belongs to: its task, code split by its tests' format."""
    if row["task"] != "code":
        return row["task"]
    truth = json.loads(row["ground_truth"])
    fmt = "functional" if "functional" in truth else "stdio" if "inputs" in truth else "unittest"
    return f"code ({fmt})"


def ours(row: dict) -> bool:
    return score(row["task"], row["response"], row["ground_truth"]).correct


def _last_box(text: str) -> str | None:
    from verl.utils.reward_score.math_reward import last_boxed_only_string, remove_boxed

    boxed = last_boxed_only_string(text)
    try:
        return remove_boxed(boxed) if boxed else None
    except AssertionError:
        return None


def _math_references() -> dict[str, Callable[[dict], bool]]:
    from verl.utils.reward_score import math_dapo, math_reward, prime_math
    from verl.utils.reward_score import math_verify as verl_math_verify

    def deepscaler(row: dict) -> bool:
        text = row["response"].split("</think>")[-1]
        answer = _last_box(text)
        return answer is not None and bool(prime_math.grade_answer(answer, row["ground_truth"]))

    return {
        "verl math_verify": lambda r: (
            verl_math_verify.compute_score(r["response"], r["ground_truth"]) >= 1
        ),
        "verl math_dapo (box)": lambda r: bool(
            math_dapo.compute_score(r["response"], r["ground_truth"], strict_box_verify=True)["acc"]
        ),
        "verl prime_math": lambda r: bool(
            prime_math.compute_score(r["response"], r["ground_truth"])[0]
        ),
        "verl math_reward (Hendrycks)": lambda r: (
            math_reward.compute_score(r["response"], r["ground_truth"]) >= 1
        ),
        "DeepScaleR grader (prime_math.grade_answer)": deepscaler,
    }


def _reasoning_gym_references() -> dict[str, dict[str, Callable[[dict], bool]]]:
    import reasoning_gym
    from reasoning_gym.utils import extract_answer

    datasets = {
        name: reasoning_gym.create_dataset(name, size=1, seed=0)
        for name in ("countdown", "zebra_puzzles", "arc_1d", "knights_knaves")
    }

    def countdown(row: dict) -> bool:
        truth = json.loads(row["ground_truth"])
        entry = {"metadata": {"numbers": truth["numbers"], "target": truth["target"]}}
        return datasets["countdown"].score_answer(_last_box(row["response"]), entry) >= 1

    def exact(name: str) -> Callable[[dict], bool]:
        def scorer(row: dict) -> bool:
            entry = {"answer": row["ground_truth"]}
            return datasets[name].score_answer(_last_box(row["response"]), entry) >= 1

        return scorer

    def knights(row: dict) -> bool:
        truth = json.loads(row["ground_truth"])
        roles = [
            f"{n} is a {'knight' if k else 'knave'}"
            for n, k in zip(truth["names"], truth["solution"])
        ]
        entry = {"answer": ", ".join(roles[:-1]) + ", and " + roles[-1]}
        answer = extract_answer(row["response"]) or row["response"]
        return datasets["knights_knaves"].score_answer(answer, entry) >= 1

    return {
        "countdown": {"reasoning-gym countdown": countdown},
        "zebra": {"reasoning-gym zebra_puzzles": exact("zebra_puzzles")},
        "arc": {"reasoning-gym arc_1d": exact("arc_1d")},
        "logic": {"reasoning-gym knights_knaves": knights},
    }


def _prime_code_references() -> tuple[dict[str, dict[str, Scorer]], list[str]]:
    try:
        prime_code, how = reference_scorers.prime_code()
    except ImportError as err:
        return {}, [f"verl prime_code: does not import here: {err}"]
    name = "verl prime_code" + (" (pyext shim)" if how == "shim" else "")

    def accepts(row: dict) -> bool:
        return reference_scorers.prime_code_accepts(
            prime_code, row["response"], row["ground_truth"]
        )

    return {"code (stdio)": {name: accepts}}, []


ASSISTANT = "<|im_start|>assistant\n"  # the header the reference's prompt template ends with


def _checkout_references(
    checkouts: dict[str, str],
) -> tuple[dict[str, dict[str, Scorer]], list[str]]:
    """TinyZero, Logic-RL and Code-R1 from the checkouts given (see the module docstring)."""
    refs: dict[str, dict[str, Scorer]] = {}
    notes = []
    loaded = {}
    for name in reference_scorers.CHECKOUTS:
        try:
            loaded[name] = reference_scorers.load(name, checkouts.get(name))
        except reference_scorers.NotLoaded as err:
            notes.append(str(err))
    if "tinyzero" in loaded:
        countdown = loaded["tinyzero"]

        def tinyzero(row: dict) -> bool:
            box = _last_box(row["response"])
            text = ASSISTANT + (f"<answer>{box}</answer>" if box is not None else row["response"])
            return countdown.compute_score(text, json.loads(row["ground_truth"])) >= 1

        refs["countdown"] = {"TinyZero countdown": tinyzero}
    if "logic-rl" in loaded:
        kk = loaded["logic-rl"]

        def logic_rl(row: dict) -> bool:
            truth = json.loads(row["ground_truth"])
            roles = "\n".join(
                f"({i}) {n} is a {'knight' if k else 'knave'}"
                for i, (n, k) in enumerate(zip(truth["names"], truth["solution"]), 1)
            )
            text = row["response"]
            if "<answer>" not in text:
                text = f"<think>\n</think>\n<answer>\n{after_think(text)}\n</answer>"
            return kk.compute_score(ASSISTANT + text, {"solution_text_format": roles}) >= 3

        refs["logic"] = {"Logic-RL kk": logic_rl}
    if "code-r1" in loaded:
        coder1 = loaded["code-r1"]

        def code_r1(row: dict) -> bool:
            extra = {"prompt": ""}
            return coder1.compute_score(row["response"], row["ground_truth"], extra) >= 1.1

        for fmt in ("functional", "stdio"):  # coder1 raises on BigCodeBench's format
            refs[f"code ({fmt})"] = {"Code-R1 coder1": code_r1}
    return refs, notes


def references(checkouts: dict[str, str] | None = None) -> tuple[dict[str, dict[str, Scorer]],
                                                                 list[str]]:  # fmt: skip
    """Every reference per table group, and a line for each that cannot run here."""
    refs: dict[str, dict[str, Scorer]] = {g: {} for g in GROUPS}
    for group_name, scorers in _reasoning_gym_references().items():
        refs[group_name].update(scorers)
    refs["math"].update(_math_references())
    prime, notes = _prime_code_references()
    external, more = _checkout_references(checkouts or {})
    for extra in (prime, external):
        for group_name, scorers in extra.items():
            refs[group_name].update(scorers)
    return refs, notes + more


class _Timeout(BaseException):
    pass


def bounded(fn: Scorer, row: dict) -> bool:
    """A reference's verdict; an exception or a run past ``REFERENCE_TIMEOUT_S`` is a rejection.
    Their prints and logs are swallowed (prime_math prints every sympy error, Logic-RL and coder1
    print every response)."""

    def _raise(signum, frame):
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(REFERENCE_TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return bool(fn(row))
    except (Exception, _Timeout):
        return False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def tally(rows: list[dict], accepted: list[bool]) -> dict[str, float]:
    """Agreement with the labels and the three ways to disagree or be fooled."""
    n = len(rows)
    agree = sum(a == bool(r["label"]) for r, a in zip(rows, accepted))
    return {
        "n": n,
        "agreement": agree / n if n else float("nan"),
        "right_rejected": sum(r["label"] == 1 and not a for r, a in zip(rows, accepted)),
        "wrong_accepted": sum(r["label"] == 0 and a for r, a in zip(rows, accepted)),
        "hedges_accepted": sum(r["kind"] == "hedge" and a for r, a in zip(rows, accepted)),
    }


def agreement_rows(
    rows: list[dict], checkouts: dict[str, str] | None = None
) -> tuple[list[list[object]], list[dict], list[str]]:
    """Table rows (group, scorer, tallies), the rows our scorers disagree on, and a line for each
    reference that did not run."""
    refs, notes = references(checkouts)
    table: list[list[object]] = []
    ours_all: list[bool] = []
    ordered: list[dict] = []
    disagreements = []
    for group_name in GROUPS:
        subset = [r for r in rows if group(r) == group_name]
        if not subset:
            continue
        mine = [ours(r) for r in subset]
        ours_all.extend(mine)
        ordered.extend(subset)
        disagreements += [r for r, a in zip(subset, mine) if a != bool(r["label"])]
        scorers = [("pac-verl", subset, mine)]
        for name, fn in refs[group_name].items():
            scorers.append((name, subset, [bounded(fn, r) for r in subset]))
        for name, graded, accepted in scorers:
            t = tally(graded, accepted)
            table.append([group_name, name, t["n"], t["agreement"], t["right_rejected"],
                          t["wrong_accepted"], t["hedges_accepted"]])  # fmt: skip
    t = tally(ordered, ours_all)
    table.append(["all", "pac-verl", t["n"], t["agreement"], t["right_rejected"],
                  t["wrong_accepted"], t["hedges_accepted"]])  # fmt: skip
    return table, disagreements, notes


COLUMNS = ["task", "scorer", "responses", "agreement", "right rejected", "wrong accepted",
           "hedges accepted"]  # fmt: skip


def print_agreement(
    show_disagreements: bool = False, checkouts: dict[str, str] | None = None
) -> None:
    rows = load()
    table, disagreements, notes = agreement_rows(rows, checkouts)
    footer = {"labelled responses": f"{len(rows)} ({LABELLED.name})"}
    footer.update({f"not run ({i})": note for i, note in enumerate(notes, 1)})
    print_summary(
        "Agreement with hand labels (same responses; accepted = full reward)",
        COLUMNS,
        table,
        footer,
    )
    if show_disagreements:
        for r in disagreements:
            print(f"- {r['task']} label={r['label']} ({r['kind']}, {r['note']}): {r['response']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-disagreements", action="store_true")
    add_reference_option(parser)
    args = parser.parse_args()
    print_agreement(args.show_disagreements, checkouts(parser, args))


def add_reference_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="a reference scorer from a local checkout: "
        + ", ".join(f"{n} (github.com/{c.repo})" for n, c in reference_scorers.CHECKOUTS.items()),
    )


def checkouts(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    try:
        return reference_scorers.parse_reference_args(args.reference)
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    main()
