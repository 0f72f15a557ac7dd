"""Write the multi-domain test fixtures: tiny local copies of the seven hub datasets.

Each fixture has the real repository's file layout (so ``datasets.load_dataset(folder, split=...)``
resolves it as it resolves the hub id) and the real columns and types, with a handful of records
written here, not copied: problems, tests and puzzles are our own. They carry the cases the tests
need (DAPO's repeated prompts, a gold answer the math verifier cannot read, a Code-R1 prompt far
over any token cap, a Code-R1 task without tests, AMC's float answers).

    python scripts/make_multi_domain_fixtures.py [OUT]   # default tests/fixtures/multi_domain
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pac_verl.data_prep import kk

DAPO_FRAME = (
    "Solve the following math problem step by step. The last line of your response should be of "
    "the form Answer: $Answer (without quotes) where $Answer is the answer to the problem.\n\n"
    '{problem}\n\nRemember to put your answer on its own line after "Answer:".'
)
CODE_R1_SYSTEM = (
    "You are a helpful programming assistant. The user will ask you a question and you as the "
    "assistant solve it. The assistant first thinks how to solve the task through reasoning and "
    "then provides the user with the final answer. The reasoning process and answer are enclosed "
    "within <think>...</think> and <answer>...</answer> tags, respectively."
)
# (problem, answer); the fourth answer is cut off mid-expression, so the math verifier cannot read
# it; the fifth is Chinese (dropped unless --all-languages); the sixth is a MATH-500 problem up to
# case and spacing (removed from training: it is a validation question)
DAPO_PROBLEMS = [
    ("What is the remainder when $7^{4}$ is divided by $10$?", "1"),
    ("How many positive divisors does $36$ have?", "9"),
    ("The sum of two numbers is $20$ and their difference is $4$. What is their product?", "96"),
    ("Simplify $\\frac{2}{4}$.", "\\frac{1}{2"),
    ("\u5df2\u77e5 $x + 3 = 8$\uff0c\u6c42 $x$ \u7684\u503c\u3002", "5"),
    ("solve $x^2=9$ for  $x > 0$.", "3"),
]


def write_parquet(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)


def write_jsonl(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def dapo(out: Path) -> None:
    # The real file repeats each prompt about 100 times; here 3 times, interleaved.
    rows = []
    for rep in range(3):
        for i, (problem, answer) in enumerate(DAPO_PROBLEMS):
            rows.append({
                "data_source": "math_dapo",
                "prompt": [{"content": DAPO_FRAME.format(problem=problem), "role": "user"}],
                "ability": "MATH",
                "reward_model": {"ground_truth": answer, "style": "rule-lighteval/MATH_v2"},
                "extra_info": {"index": f"9a1c{i:04d}-{rep:04d}-4f00-8000-00000000{i:04d}"},
            })  # fmt: skip
    write_parquet(rows, out / "BytedTsinghua-SIA/DAPO-Math-17k/data/dapo-math-17k.parquet")


def code_r1(out: Path) -> None:
    def row(i, task, truth, dataset, reference):
        return {
            "data_source": "code",
            "prompt": [{"content": CODE_R1_SYSTEM, "role": "system"},
                       {"content": task, "role": "user"}],
            "ability": "coding",
            "reward_model": {"ground_truth": json.dumps(truth), "style": "rule"},
            "extra_info": {"dataset": dataset, "index": i, "prompt": task,
                           "reference": reference, "split": "train"},
        }  # fmt: skip

    rows = [
        row(0, "Please solve the programming task below using a self-contained code snippet in a "
               "markdown code block.\n\nWrite a class `Solution` with a method `addDigits(num)` "
               "that returns the repeated digit sum of `num` until one digit remains.",
            {"functional": "def check(f):\n    assert f(38) == 2\n    assert f(0) == 0\n\n"
                           "check(Solution().addDigits)"},
            "LeetCodeDataset",
            "class Solution:\n    def addDigits(self, num):\n        return 0 if num == 0 else 1 + (num - 1) % 9\n"),
        row(1, "Read two integers a and b from one line and print their sum.",
            {"inputs": ["1 2\n", "10 -3\n"], "outputs": ["3\n", "7\n"]},
            "likaixin/TACO-verified", "a, b = map(int, input().split())\nprint(a + b)\n"),
        row(2, "Read a line and print it reversed. " + "Be careful with long inputs. " * 120,
            {"inputs": ["abc\n"], "outputs": ["cba\n"]},
            "likaixin/TACO-verified", "print(input()[::-1])\n"),
        row(3, "Print the word hello.", {"inputs": [], "outputs": []},
            "likaixin/TACO-verified", "print('hello')\n"),
    ]  # fmt: skip
    write_parquet(rows, out / "ganler/code-r1-12k/data/train-00000-of-00001.parquet")


def knights_and_knaves(out: Path) -> None:
    rng = random.Random(5)
    for people, count, folder, total in ((3, 4, "train", 1000), (4, 4, "train", 1000),
                                         (5, 4, "train", 1000), (6, 3, "test", 100)):  # fmt: skip
        rows = []
        for index in range(count):
            p = kk.generate(people, rng)
            truth = dict(zip(p["names"], p["solution"], strict=True))
            rows.append({
                "quiz": p["quiz"] + " So who is a knight and who is a knave?",
                "names": p["names"],
                "knight_knave": {"Knave": "Knave", "Knight": "Knight", "a_knave": "a knave",
                                 "a_knight": "a knight", "knave": "knave", "knight": "knight"},
                "solution": p["solution"],
                "solution_text": ", ".join(f"{n} is a {'knight' if k else 'knave'}" for n, k in truth.items()),
                "solution_text_format": "\n".join(
                    f"({i}) {n} is a {'knight' if k else 'knave'}" for i, (n, k) in enumerate(truth.items(), 1)),
                "cot_head": "Let's think step by step, by considering whether each person is lying and if that leads to contradiction.",
                "cot_repeat_steps": [],
                "cot_foot": "This leads to a feasible solution.",
                "statements": "()",
                "index": index,
            })  # fmt: skip
        write_jsonl(
            rows, out / f"K-and-K/knights-and-knaves/{folder}/people{people}_num{total}.jsonl"
        )


def math500(out: Path) -> None:
    rows = [
        {"problem": "Compute $\\dfrac{7}{3} \\cdot 2$.", "solution": "$\\frac{14}{3}$.",
         "answer": "\\frac{14}{3}", "subject": "Prealgebra", "level": 1,
         "unique_id": "test/prealgebra/1.json"},
        {"problem": "Which letter comes first in the alphabet? (A) B (B) A (C) C",
         "solution": "A comes first: choice (B).", "answer": "\\text{(B)}",
         "subject": "Counting & Probability", "level": 1, "unique_id": "test/counting_and_probability/2.json"},
        {"problem": "Solve $x^2 = 9$ for $x > 0$.", "solution": "$x = 3$.", "answer": "3",
         "subject": "Algebra", "level": 2, "unique_id": "test/algebra/3.json"},
    ]  # fmt: skip
    write_jsonl(rows, out / "HuggingFaceH4/MATH-500/test.jsonl")


def amc(out: Path) -> None:
    rows = [
        {"id": 0, "problem": "What is $12 \\cdot 12 - 2$?", "answer": 142.0,
         "url": "https://example.org/amc/0"},
        {"id": 1, "problem": "What is $\\frac{1}{2} + \\frac{1}{4}$ as a decimal?", "answer": 0.75,
         "url": "https://example.org/amc/1"},
        {"id": 2, "problem": "How many primes are less than $10$?", "answer": 4.0,
         "url": "https://example.org/amc/2"},
    ]  # fmt: skip
    write_parquet(rows, out / "AI-MO/aimo-validation-amc/data/train-00000-of-00001.parquet")


def aime(out: Path) -> None:
    rows = [
        {"id": 60, "problem": "Find the number of minutes in $3$ hours and $24$ minutes.",
         "solution": "$3 \\cdot 60 + 24 = 204$.", "answer": "204",
         "url": "https://example.org/aime/60", "year": "2024"},
        {"id": 61, "problem": "Find $2^{10} \\bmod 1000$.", "solution": "$1024 \\bmod 1000 = 24$.",
         "answer": "024", "url": "https://example.org/aime/61", "year": "2024"},
    ]  # fmt: skip
    write_parquet(rows, out / "HuggingFaceH4/aime_2024/data/train-00000-of-00001.parquet")


BCB_TASKS = [
    (
        "BigCodeBench/0",
        "import itertools\n",
        "def task_func(numbers=(1, 2, 3)):\n",
        "    return sum(1 for _ in itertools.permutations(numbers))\n",
        "Count the permutations of a sequence of numbers.\nThe function should output:\n    int: the "
        "number of orderings of `numbers`.",
        "import unittest\n\nclass TestCases(unittest.TestCase):\n    def test_default(self):\n"
        "        self.assertEqual(task_func(), 6)\n\n    def test_two(self):\n"
        "        self.assertEqual(task_func((5, 9)), 2)\n",
        "['itertools']",
    ),
    (
        "BigCodeBench/1",
        "import collections\n",
        "def task_func(text):\n",
        "    return dict(collections.Counter(text.split()))\n",
        "Count the words of a text.\nThe function should output:\n    dict: each word and how often "
        "it occurs.",
        "import unittest\n\nclass TestCases(unittest.TestCase):\n    def test_words(self):\n"
        "        self.assertEqual(task_func('a b a'), {'a': 2, 'b': 1})\n",
        "['collections']",
    ),
]


def bigcodebench(out: Path) -> None:
    def record(task_id, imports, signature, body, doc, test, libs):
        code_prompt = imports + signature
        return {
            "task_id": task_id,
            "complete_prompt": code_prompt + '    """' + doc + '"""\n',
            "instruct_prompt": f"{doc}\nYou should write self-contained code starting with:\n"
                               f"```\n{code_prompt}```",
            "canonical_solution": body,
            "code_prompt": code_prompt,
            "test": test,
            "entry_point": "task_func",
            "doc_struct": json.dumps({"description": [doc.splitlines()[0]], "notes": [],
                                      "params": [], "returns": [], "reqs": [], "raises": [],
                                      "examples": []}),
            "libs": libs,
        }  # fmt: skip

    full = [record(*t) for t in BCB_TASKS]
    write_parquet(full, out / "bigcode/bigcodebench/data/v0.1.4-00000-of-00001.parquet")
    hard = [{**full[0], "q_idx": 0, "score": 0.5, "_id": "hard-0"}]
    write_parquet(hard, out / "bigcode/bigcodebench-hard/data/v0.1.4-00000-of-00001.parquet")


def main(argv: list[str]) -> None:
    out = (
        Path(argv[0])
        if argv
        else Path(__file__).resolve().parents[1] / "tests/fixtures/multi_domain"
    )
    for make in (dapo, code_r1, knights_and_knaves, math500, amc, aime, bigcodebench):
        make(out)
    print(f"fixtures written under {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
