"""Code (SPEC 8-9): the program must pass every unit test, run in the sandbox.

The program is the last fenced ```python block of the answer region (the last ``<answer>`` content,
else the text after ``</think>``, else the whole response); when that region has no fence, the
``<answer>`` content itself. Tests come in the source's own format (the ground truth's JSON):

- Code-R1 ``{"functional": "<asserts>"}``: the asserts run after the program, in its namespace;
- Code-R1 ``{"inputs": [...], "outputs": [...]}``: the program runs once per input on stdin; its
  stdout must equal the output after whitespace normalisation (both split on any whitespace);
- BigCodeBench ``{"test": "<unittest code>", "entry_point": "task_func"}``: every TestCase of the
  test code runs; all must pass (and at least one must run).

Reasons: ``ok``, ``no_code``, ``tests_failed``, ``timeout``, ``memory``, ``output_limit``,
``exited_early``, ``tampered``, ``no_result``, ``missing_library`` (the sandbox interpreter lacks a
library the *test code* imports: the environment's fault, not the model's; count it, fix the
environment), ``bad_ground_truth``, ``sandbox_error``.
"""

from __future__ import annotations

import json
import os
import re

from pac_verl.verifiers.extract import answer_region, tail
from pac_verl.verifiers.sandbox import Limits, run_job
from pac_verl.verifiers.verdict import OK, Verdict, fail

MAX_CODE_CHARS = 50_000
_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
DEFAULT_LIMITS = Limits(
    wall_seconds=float(os.environ.get("PAC_SANDBOX_WALL_SECONDS", 10)),
    cpu_seconds=int(os.environ.get("PAC_SANDBOX_CPU_SECONDS", 10)),
    memory_mb=int(os.environ.get("PAC_SANDBOX_MEMORY_MB", 2048)),
)


def extract_code(solution_str: str) -> str | None:
    text = tail(solution_str)
    region = answer_region(text)
    blocks = _FENCE.findall(region) or _FENCE.findall(text)
    if blocks:
        return blocks[-1]
    if "<answer>" in text and region.strip():
        return region
    return None


def job_for(code: str, ground_truth: str) -> dict | None:
    """The sandbox job for ``code`` under the ground truth's tests, or None if it is malformed."""
    try:
        truth = json.loads(ground_truth)
    except (ValueError, TypeError):
        return None
    if not isinstance(truth, dict):
        return None
    if isinstance(truth.get("functional"), str):
        return {"kind": "functional", "code": code, "tests": truth["functional"]}
    inputs, outputs = truth.get("inputs"), truth.get("outputs")
    if isinstance(inputs, list) and isinstance(outputs, list) and len(inputs) == len(outputs):
        return {"kind": "stdio", "code": code, "inputs": inputs, "outputs": outputs}
    if isinstance(truth.get("test"), str):
        return {"kind": "unittest", "code": code, "tests": truth["test"]}
    return None


def score(
    solution_str: str, ground_truth: str, limits: Limits | None = None, python: str | None = None
) -> Verdict:
    code = extract_code(solution_str)
    if code is None or not code.strip():
        return fail("no_code")
    if len(code) > MAX_CODE_CHARS:
        return fail("too_long")
    job = job_for(code, ground_truth)
    if job is None:
        return fail("bad_ground_truth")
    result = run_job(job, limits or DEFAULT_LIMITS, python=python)
    return OK if result.passed else fail(result.reason)
