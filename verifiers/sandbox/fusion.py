"""SandboxFusion as a sandbox backend (the sandbox setting ``backend: sandbox_fusion``), for
clusters that already run a SandboxFusion service (``fusion_url``, e.g.
``http://sandbox:8080/run_code``): in training ``reward.custom_reward_function.reward_kwargs.
sandbox.backend=sandbox_fusion`` and ``...sandbox.fusion_url=...``, outside it
``PAC_SANDBOX_BACKEND`` and ``PAC_SANDBOX_FUSION_URL`` (``settings.py``).

Same verdict contract as the local backend: the service runs the harness (``harness.py``, sent as
one script with the job embedded; the report comes back on stdout, sealed with a MAC keyed by a
per-run token; ``harness.unseal``), and the judge in this process decides (``judge.py``): the
expected stdout and the functional tests never leave this process (a functional run is one run
per call into the program, see :class:`_Replay`; the tests run in the judge's checker). The
request is SandboxFusion's
``/run_code`` JSON (the one verl 0.7.1's ``verl.utils.reward_score.sandbox_fusion`` client
sends), made here with ``requests`` because the verifiers never import verl; like verl's
client it retries a 504 (the service's queue is full) with a growing delay.

Isolation is the service's. One difference: the service shows the program the script it runs, so
a unittest-style program could read the token from it and forge a report; use the local backend
(strict) for BigCodeBench when that matters. The answer is read up to a bound (the local backend's
report bound, plus room for the service's JSON) before it is parsed: a program that floods its
stdout cannot grow this process. Functional and stdin/stdout verdicts do not depend on the token
(a forged report can only claim values, which the judge compares).
"""

from __future__ import annotations

import json
import marshal
import math
import secrets
import time
from pathlib import Path

from pac_verl.verifiers.sandbox.harness import unseal
from pac_verl.verifiers.sandbox.types import Limits, RunResult, SessionEnded, report_limit

HARNESS = Path(__file__).with_name("harness.py")
RETRIES_ON_504 = 3
# the service's answer beyond the report: its JSON around stdout, stderr (SandboxFusion keeps a
# tail of it), and JSON's escapes of the report itself (a backslash doubles; the report is ASCII)
ANSWER_SLACK = 1 << 20


def script(job: dict, token: str, output_bytes: int = 1 << 20) -> str:
    """The harness with this job embedded, reporting on stdout."""
    payload = dict(job, token=token, result_fd="stdout", uid=None, workdir=None, site_dirs=[],
                   output_bytes=output_bytes)  # fmt: skip
    return (
        "scope = {'__name__': '__pac_harness__'}\n"
        f"exec(compile({HARNESS.read_text()!r}, 'harness.py', 'exec'), scope)\n"
        f"scope['main']({marshal.dumps(payload)!r})\n"
    )


def _bounded_json(response, limit: int):
    """The answer's JSON, or None when its body is over ``limit`` bytes (read no further)."""
    body = bytearray()
    for chunk in response.iter_content(chunk_size=1 << 16):
        body += chunk
        if len(body) > limit:
            return None
    return json.loads(body)


def run_job_remote(
    job: dict, limits: Limits, endpoint: str, deadline: float | None = None
) -> RunResult:
    """One run on the service; with a ``deadline`` (a ``time.monotonic()`` instant: the scoring
    call's bound) the request and its 504 retries end by then, as ``timeout``."""
    import requests

    token = secrets.token_hex(16)
    body = {"code": script(job, token, limits.output_bytes), "language": "python", "stdin": None,
            "compile_timeout": 10, "run_timeout": math.ceil(limits.cpu_seconds),
            "memory_limit_MB": limits.memory_mb, "files": {}, "fetch_files": []}  # fmt: skip
    timeout = 10 + limits.wall_seconds + 30
    for attempt in range(RETRIES_ON_504):
        if deadline is not None:
            timeout = min(timeout, deadline - time.monotonic())
            if timeout <= 0:
                return RunResult("timeout", "SandboxFusion did not answer within timeout_s")
        try:
            response = requests.post(endpoint, json=body, timeout=timeout, stream=True)
        except requests.Timeout:
            if deadline is not None and time.monotonic() >= deadline - 0.05:
                return RunResult("timeout", "SandboxFusion did not answer within timeout_s")
            return RunResult("sandbox_error", f"SandboxFusion at {endpoint}: no answer")
        except requests.RequestException as err:
            return RunResult("sandbox_error", f"SandboxFusion at {endpoint}: {err}")
        if response.status_code != 504:
            break
        response.close()
        pause = attempt + 1
        if deadline is not None and time.monotonic() + pause >= deadline:
            return RunResult("timeout", "SandboxFusion's queue stayed full until timeout_s")
        time.sleep(pause)
    limit = 2 * report_limit(limits) + ANSWER_SLACK
    try:
        response.raise_for_status()
        answer = _bounded_json(response, limit)
    except (requests.RequestException, ValueError) as err:
        return RunResult("sandbox_error", f"SandboxFusion at {endpoint}: {err}")
    finally:
        response.close()
    if answer is None:
        return RunResult("output_limit", f"SandboxFusion's answer is over {limit} bytes")
    run = answer.get("run_result") if isinstance(answer, dict) else None
    if not isinstance(run, dict):
        return RunResult(
            "sandbox_error", f"SandboxFusion answered without a run_result: {str(answer)[:300]}"
        )
    if run.get("status") == "TimeLimitExceeded":
        return RunResult("timeout")
    stdout = run.get("stdout") if isinstance(run.get("stdout"), str) else ""
    data = stdout.encode("utf-8", "replace")
    if len(data) > report_limit(limits):
        return RunResult("output_limit", f"{len(data)} bytes on stdout")
    report = unseal(data, token)
    if report is not None and run.get("return_code") == 0:
        return RunResult("ok", report=report)
    return RunResult("no_result", f"status {run.get('status')}, exit {run.get('return_code')}")


class _Replay:
    """A functional run's channel over a service that runs one script and returns its output: the
    program is loaded again for every request, with every request so far answered in order
    (``calls`` of the job), and the last answer is the request's. One run per request, so a test
    of n calls costs n + 1 runs (the local backend keeps one sandbox for the whole test). Each run
    is a fresh process: a program learns nothing from one run in another."""

    def __init__(self, job: dict, limits: Limits, endpoint: str, deadline: float | None) -> None:
        self.job, self.limits, self.endpoint = job, limits, endpoint
        self.deadline = deadline if deadline is not None else time.monotonic() + limits.wall_seconds
        self.log: list[bytes] = []

    def _run(self) -> dict:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise SessionEnded("timeout")
        result = run_job_remote(dict(self.job, calls=list(self.log)), self.limits, self.endpoint,
                                self.deadline)  # fmt: skip
        if not result.passed:
            raise SessionEnded(result.reason)
        return result.report

    def ready(self):
        return self._run().get("load")

    def call(self, request: bytes):
        self.log.append(request)
        report = self._run()
        replies = report.get("replies")
        if (
            report.get("load", [None])[:1] != ["ready"]
            or not isinstance(replies, list)
            or len(replies) != len(self.log)
        ):
            raise SessionEnded("no_result")
        return replies[-1]

    def wait(self, fd: int, tests_cpu) -> None:
        import select

        while not select.select([fd], [], [], 0.05)[0]:
            if tests_cpu() > self.limits.cpu_seconds:
                raise SessionEnded("tests_timeout")
            if time.monotonic() >= self.deadline:
                raise SessionEnded("timeout")


def run_session(
    job: dict, limits: Limits, endpoint: str, deadline: float | None, converse
) -> RunResult:
    """A functional run on the service (see :class:`_Replay`): the report is ``converse``'s."""
    try:
        return RunResult("ok", report=converse(_Replay(job, limits, endpoint, deadline)))
    except SessionEnded as end:
        return RunResult(end.reason)
