"""Write the SEC release fixtures: tiny files with the layout and schema of SEC's ``sec/data``.

SEC's released data lives in GitHub ``Vincent-La/cofa`` under ``sec/data``. The layout and the
schema here are those of its files at commit 8b685cb (read with pyarrow); the rows are made here,
not copied: Countdown puzzles from this project's generator, Zebra and ARC puzzles from
reasoning-gym 0.1.25 (the library SEC's puzzles come from), math problems written for the tests.
What is assumed from the release, per file:

- every file: columns ``data_source`` (string), ``prompt`` (list of ``{content, role}``: one user
  message, the task inside the base-model frame "A conversation between User and Assistant. ...
  \\nUser: <task>\\nAssistant: Let me solve this step by step."), ``ability`` (``math`` throughout),
  ``reward_model`` (struct ``{ground_truth, style: "rule"}``), ``extra_info`` (struct);
- ``combined/test_<task>.parquet`` and ``train_<task>.parquet``: ``data_source``
  ``<task>-<easy|medium|hard|very_hard>-<test|train>`` for difficulty 1..4; ``extra_info``
  ``{difficulty: int64, index: int64, question: string, split: "test"|"train", type: <task>}``;
  Countdown's ground truth is the struct ``{numbers: string "5,17,91", target: int64}``, Zebra's
  and ARC's ``{target: string}`` (``alice``; ``0 0 9 9``);
- ``math/math_train.parquet``: ``data_source`` ``math_train``; ground truth a string;
  ``extra_info`` ``{difficulty: int64 (MATH level), index, question, split: "train",
  type: <MATH subject>}``; the task is the question + " Put your final answer within \\boxed{}. ";
- ``math/math_test.parquet``: ``data_source`` ``test_math`` (MATH500), ``test_amc``, ``test_aime``;
  ``extra_info`` ``{difficulty: double, index, problem, split: "test"}`` (no ``type``).

The cases the tests need: a training Countdown puzzle that repeats another (numbers reordered), one
that is a validation puzzle, one with no solution (skipped; a validation one is kept without a
gold); a math training problem that is a MATH500 problem up to case and spacing (removed by the
build) and one that quotes an AIME problem at length (reported by the n-gram measure).

    python scripts/make_sec_fixtures.py [OUT]   # default tests/fixtures/sec
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

FRAME = (
    "A conversation between User and Assistant. The user asks a question, and the Assistant solves "
    "it. The assistant first thinks about the reasoning process in the mind and then provides the "
    "user with the answer.\nUser: {task}\nAssistant: Let me solve this step by step."
)
LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "very_hard"}
PROMPT = pa.list_(pa.struct([("content", pa.string()), ("role", pa.string())]))


def schema(truth: pa.DataType, info: list[tuple[str, pa.DataType]]) -> pa.Schema:
    return pa.schema([
        ("data_source", pa.string()), ("prompt", PROMPT), ("ability", pa.string()),
        ("reward_model", pa.struct([("ground_truth", truth), ("style", pa.string())])),
        ("extra_info", pa.struct(info)),
    ])  # fmt: skip


COMBINED_INFO = [("difficulty", pa.int64()), ("index", pa.int64()), ("question", pa.string()),
                 ("split", pa.string()), ("type", pa.string())]  # fmt: skip
COUNTDOWN_TRUTH = pa.struct([("numbers", pa.string()), ("target", pa.int64())])
TARGET_TRUTH = pa.struct([("target", pa.string())])


def row(source: str, task: str, truth, info: dict) -> dict:
    return {"data_source": source, "prompt": [{"content": FRAME.format(task=task), "role": "user"}],
            "ability": "math", "reward_model": {"ground_truth": truth, "style": "rule"},
            "extra_info": info}  # fmt: skip


def write(rows: list[dict], schema_: pa.Schema, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema_), path)


# ----------------------------------------------------------------------------------- countdown


def countdown_task(numbers: list[int], target: int) -> tuple[str, str]:
    nums = ", ".join(map(str, numbers))
    prompt = (f"Using the numbers [{nums}], create an equation that equals {target}. You can only "
              "use basic arithmetic operations (+, -, *, /) and each number should be used exactly "
              "once. Return the final answer in \\boxed{}, for example \\boxed{(1 + 2) / 3}.")  # fmt: skip
    question = (f"Using the numbers {nums} and basic arithmetic operations (+, -, *, /), create an "
                f"expression that equals {target}.\nYou need to use each number exactly once.\n"
                "Present the final expression that equals the target number within \\boxed{}. For "
                "example: \\boxed{46+68/(52-50)}\n")  # fmt: skip
    return prompt, question


def countdown_rows(puzzles: list[tuple[int, list[int], int]], split: str) -> list[dict]:
    rows = []
    for i, (level, numbers, target) in enumerate(puzzles):
        prompt, question = countdown_task(numbers, target)
        rows.append(row(f"countdown-{LEVEL_NAMES[level]}-{split}", prompt,
                        {"numbers": ",".join(map(str, numbers)), "target": target},
                        {"difficulty": level, "index": i, "question": question, "split": split,
                         "type": "countdown"}))  # fmt: skip
    return rows


def countdown(out: Path) -> None:
    from pac_verl.data_prep.multi_level import countdown_puzzle

    rng = random.Random(26)
    val = [(lv, *countdown_puzzle(rng, lv + 2)[:2]) for lv in (1, 2, 3, 4) for _ in range(2)]
    val[-1] = (4, [1, 1, 1, 1, 1, 1], 997)  # no solution: kept in validation without a gold
    train = [(lv, *countdown_puzzle(rng, lv + 2)[:2]) for lv in (1, 2, 3) for _ in range(3)]
    first = train[0]
    train[1] = (1, list(reversed(first[1])), first[2])  # the same puzzle, numbers reordered
    train[2] = (1, list(reversed(val[0][1])), val[0][2])  # a validation puzzle
    train.append((1, [1, 1, 1], 500))  # no solution: skipped
    cd_schema = schema(COUNTDOWN_TRUTH, COMBINED_INFO)
    write(countdown_rows(val, "test"), cd_schema, out / "combined/test_countdown.parquet")
    write(countdown_rows(train, "train"), cd_schema, out / "combined/train_countdown.parquet")


# ----------------------------------------------------------------------------------- zebra / arc


def zebra(out: Path) -> None:
    from reasoning_gym.logic.contrib.logic_puzzle.generate import generate_puzzle

    rows = []
    for level in (1, 2, 3, 4):
        for k in range(2):
            instance, puzzle = generate_puzzle(random.Random(100 * level + k), level + 2, level + 2)
            question = (f"{str(puzzle).rstrip()}\n\n{instance['questions'][0]['question']} Provide "
                        "only the name of the person as your final answer and put in in \\boxed{}, "
                        "for example: \\boxed{Alice}.")  # fmt: skip
            rows.append(row(f"zebra-{LEVEL_NAMES[level]}-test", question,
                            {"target": instance["questions"][0]["answer"]},
                            {"difficulty": level, "index": len(rows), "question": question,
                             "split": "test", "type": "zebra"}))  # fmt: skip
    write(rows, schema(TARGET_TRUTH, COMBINED_INFO), out / "combined/test_zebra.parquet")


def arc(out: Path) -> None:
    import reasoning_gym

    rows = []
    for level in (1, 2, 3, 4):
        size = 10 * level
        ds = reasoning_gym.create_dataset("arc_1d", seed=level, size=2, min_size=size,
                                          max_size=size, num_train=3)  # fmt: skip
        for k in range(2):
            meta = ds[k]["metadata"]
            parts = ["Find the common rule that maps an input grid to an output grid, given the "
                     "examples below.\n"]  # fmt: skip
            for i, ex in enumerate(meta["train_examples"], 1):
                parts.append(f"Example {i}:\nInput:  {' '.join(map(str, ex['input']))}\n"
                             f"Output: {' '.join(map(str, ex['output']))}\n")  # fmt: skip
            parts.append("Below is a test input grid. Predict the corresponding output grid by "
                         "applying the rule you found. Describe how you derived the rule and your "
                         "overall reasoning process in detail before you submit your answer. Your "
                         "final answer must be placed in \\boxed{} and should be just the test "
                         "output grid itself.\n\nInput:\n"
                         + " ".join(map(str, meta["test_example"]["input"])))  # fmt: skip
            question = "\n".join(parts)
            answer = " ".join(map(str, meta["test_example"]["output"]))
            rows.append(row(f"arc-{LEVEL_NAMES[level]}-test", question, {"target": answer},
                            {"difficulty": level, "index": len(rows), "question": question,
                             "split": "test", "type": "arc"}))  # fmt: skip
    write(rows, schema(TARGET_TRUTH, COMBINED_INFO), out / "combined/test_arc.parquet")


# ----------------------------------------------------------------------------------- math

MATH_SUFFIX = " Put your final answer within \\boxed{}. "
AIME_PROBLEM = (
    "A bag holds red, blue and green marbles in the ratio $3:4:5$. After $12$ red marbles are "
    "added, red and green marbles are equally many. How many marbles were in the bag at first?"
)
# (subject, level, question, answer)
MATH_TRAIN = [
    ("Algebra", 2, "What is the value of $x$ if $3x + 5 = 20$?", "5"),
    ("Number Theory", 3, "Find the remainder when $2^{10}$ is divided by $7$.", "2"),
    ("Prealgebra", 1, "What is $\\frac{1}{2} + \\frac{1}{3}$?", "\\frac{5}{6}"),
    ("Geometry", 4, "A circle has area $49\\pi$. What is its radius?", "7"),
    ("Intermediate Algebra", 5, "Find the sum of the roots of $x^2 - 7x + 10 = 0$.", "7"),
    # a MATH500 problem below, up to case and spacing: the build removes it from training
    ("Algebra", 2, "solve  $x^2 = 9$ for $x > 0$.", "3"),
    # quotes the AIME problem below at length: the n-gram measure reports it, nothing removes it
    ("Counting & Probability", 5, "Here is a harder variant. " + AIME_PROBLEM.replace("$12$", "$18$")
     + " Give the answer as an integer.", "108"),
]  # fmt: skip
# (data_source, difficulty, problem, answer)
MATH_TEST = [
    ("test_math", 2.0, "Solve $x^2 = 9$ for $x > 0$.", "3"),
    ("test_math", 1.0, "Compute $\\dfrac{7}{3} \\cdot 2$.", "\\frac{14}{3}"),
    ("test_math", 3.0, "What is the greatest common divisor of $84$ and $126$?", "42"),
    ("test_amc", 1.5, "What is $10\\%$ of $250$?", "25"),
    ("test_amc", 4.25, "How many two-digit primes have a units digit of $7$?", "5"),
    ("test_aime", 5.0, AIME_PROBLEM, "72"),
]


def math(out: Path) -> None:
    train_info = [("difficulty", pa.int64()), ("index", pa.int64()), ("question", pa.string()),
                  ("split", pa.string()), ("type", pa.string())]  # fmt: skip
    rows = [row("math_train", q + MATH_SUFFIX, a, {"difficulty": lv, "index": i, "question": q,
                                                   "split": "train", "type": subject})
            for i, (subject, lv, q, a) in enumerate(MATH_TRAIN)]  # fmt: skip
    write(rows, schema(pa.string(), train_info), out / "math/math_train.parquet")
    test_info = [("difficulty", pa.float64()), ("index", pa.int64()), ("problem", pa.string()),
                 ("split", pa.string())]  # fmt: skip
    rows = [row(src, p + MATH_SUFFIX, a, {"difficulty": d, "index": i, "problem": p,
                                          "split": "test"})
            for i, (src, d, p, a) in enumerate(MATH_TEST)]  # fmt: skip
    write(rows, schema(pa.string(), test_info), out / "math/math_test.parquet")


def main(out: Path) -> None:
    countdown(out)
    zebra(out)
    arc(out)
    math(out)


if __name__ == "__main__":
    main(
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).parent.parent / "tests/fixtures/sec"
    )
