"""The SandboxFusion backend: selected by config, same verdict contract, tested against
a stub of SandboxFusion's ``/run_code`` on 127.0.0.1 that runs the script it is sent with this
interpreter and answers in SandboxFusion's JSON."""

import ast
import json
import marshal
import threading
from http.server import ThreadingHTTPServer

import pytest
from fusion_stub import StubSandboxFusion

from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits, isolation_report

LIMITS = Limits(wall_seconds=10.0, cpu_seconds=3, memory_mb=512)
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
STDIO = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20"]})
BCB = json.dumps(
    {
        "test": "import unittest\nclass T(unittest.TestCase):\n"
        "    def test_a(self):\n        self.assertEqual(task_func(5), 25)\n",
        "entry_point": "task_func",
    }
)


@pytest.fixture
def fusion(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), StubSandboxFusion)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("PAC_SANDBOX_BACKEND", "sandbox_fusion")
    monkeypatch.setenv("PAC_SANDBOX_FUSION_URL", f"http://127.0.0.1:{server.server_port}/run_code")
    StubSandboxFusion.requests_seen = []
    StubSandboxFusion.flood = 0
    yield StubSandboxFusion.requests_seen
    StubSandboxFusion.flood = 0  # the class is shared: test_sandbox_gate's server serves it too
    server.shutdown()
    server.server_close()


def score(src, truth):
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=LIMITS)


@pytest.mark.parametrize(
    ("src", "truth", "reason"),
    [
        ("def add(a, b):\n    return a + b", ADD, "ok"),
        ("def add(a, b):\n    return a - b", ADD, "tests_failed"),
        ("class L:\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return L()",
         ADD, "tests_failed"),
        ("print(2 * int(input()))", STDIO, "ok"),
        ("print(3 * int(input()))", STDIO, "tests_failed"),
        ("def task_func(x):\n    return x * x", BCB, "ok"),
        ("def task_func(x):\n    return x", BCB, "tests_failed"),
        ("while True:\n    pass", ADD, "timeout"),
    ],
)  # fmt: skip
def test_same_verdicts_through_sandbox_fusion(fusion, src, truth, reason):
    assert score(src, truth).reason == reason
    assert fusion and fusion[0]["language"] == "python" and fusion[0]["run_timeout"] == 3


def test_expected_values_never_reach_the_service(fusion):
    # the service runs the program once to learn its names, then once per call with the calls so
    # far (marshal bytes inside the script): the arguments travel, the expected value never does
    verdict = score(
        "def add(a, b):\n    return a + b", json.dumps({"functional": "assert add(2, 3) == 987654"})
    )
    assert verdict.reason == "tests_failed"
    # the script execs the harness's source (a string holding "main(" many times) in its own
    # scope, then calls scope['main'](<job>) on its last line (fusion.script)
    jobs = [marshal.loads(ast.literal_eval(r["code"].rsplit("scope['main'](", 1)[1].rstrip()[:-1]))
            for r in fusion]  # fmt: skip
    assert [[marshal.loads(c) for c in job["calls"]] for job in jobs] == [
        [],
        [("call", 0, (2, 3), {}, False)],
    ]
    assert not any("987654" in r["code"] or "987654" in repr(job) for r, job in zip(fusion, jobs))
    score("print(input())", json.dumps({"inputs": ["1"], "outputs": ["424242"]}))
    assert "424242" not in fusion[2]["code"]


def test_backend_is_reported_and_a_missing_url_is_a_clear_error(fusion, monkeypatch):
    assert isolation_report()["backend"] == "sandbox_fusion"
    monkeypatch.delenv("PAC_SANDBOX_FUSION_URL")
    with pytest.raises(UserError, match="PAC_SANDBOX_FUSION_URL"):
        score("def add(a, b):\n    return a + b", ADD)


def test_an_unreachable_service_is_a_sandbox_error(monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_BACKEND", "sandbox_fusion")
    monkeypatch.setenv("PAC_SANDBOX_FUSION_URL", "http://127.0.0.1:9/run_code")
    assert score("def add(a, b):\n    return a + b", ADD).reason == "sandbox_error"


def test_a_flooded_answer_is_not_read_past_its_bound(fusion):
    # 60 MiB of newlines on stdout, JSON-escaped to 120 MiB: over the bound the client stops
    # reading; within it, anything but the one sealed line is no report
    from pac_verl.verifiers.sandbox.types import report_limit

    StubSandboxFusion.flood = 60 << 20
    assert 2 * report_limit(LIMITS) + (1 << 20) < 2 * (60 << 20)
    assert score("def add(a, b):\n    return a + b", ADD).reason == "output_limit"
    StubSandboxFusion.flood = 1 << 20
    assert score("def add(a, b):\n    return a + b", ADD).reason == "no_result"
