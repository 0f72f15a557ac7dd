"""Code rewards on a GPU node: the sandbox is checked before Ray when, and only when,
the run's training or validation data holds code rows.

A container without a delegated cgroup is made for real: a private mount namespace whose
``/sys/fs/cgroup`` is an empty tmpfs (an unprivileged container sees no cgroup it may write to
either). There ``strict`` isolation cannot run and ``namespaces`` can. ``sandbox_fusion`` is
checked against a stub of SandboxFusion's ``/run_code`` on 127.0.0.1 that runs what it is sent
(tests/verifiers/sandbox/test_fusion.py). Needs root (to make the namespace) and util-linux's ``unshare``.
"""

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer

import pytest
from fusion_stub import StubSandboxFusion

from pac_verl.checks.node import check_sandbox
from pac_verl.checks.sandbox import code_rows, require_sandbox_for_data
from pac_verl.compose import compose_config
from pac_verl.errors import UserError

KEY = "reward.custom_reward_function.reward_kwargs.sandbox"
ADD = {"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"}
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
WRONG = "```python\ndef add(a, b):\n    return a - b\n```"
NO_CGROUP = 'mount -t tmpfs none /sys/fs/cgroup && exec "$@"'

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="making a container without cgroups needs root and unshare",
)


def in_container(argv: list[str], cwd, env=None) -> subprocess.CompletedProcess:
    """Run ``argv`` where /sys/fs/cgroup is empty (a container without a delegated cgroup)."""
    cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c", NO_CGROUP, "sh", *argv]
    env = {**os.environ, **(env or {})}
    env.pop("RAY_ADDRESS", None)
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=240)


@pytest.fixture
def code_dir(tiny_code_data):
    """A multi-domain-like data set: 2 code and 2 math rows to train on, 1 code row to validate."""
    return tiny_code_data


@pytest.fixture(scope="module")
def ml_dir(tmp_path_factory):
    from pac_verl.data_prep.multi_level import build_multi_level

    root = tmp_path_factory.mktemp("ml-data")
    build_multi_level(root, 4, 1, seed=0, quiet=True, workers=1)
    return root


def md(code_dir, *more):
    return compose_config(["setting=multi_domain", f"setting.data_dir={code_dir}", *more])


def test_code_rows_are_counted_from_the_type_column(code_dir, ml_dir):
    counts = code_rows(md(code_dir))
    assert counts == {str(code_dir / "train.parquet"): 2, str(code_dir / "val.parquet"): 1}
    ml = code_rows(compose_config([f"setting.data_dir={ml_dir}"]))
    assert len(ml) == 2 and set(ml.values()) == {0}
    with pytest.raises(UserError, match=r"data.train_files: no such file .*nowhere"):
        code_rows(compose_config([f"setting.data_dir={ml_dir / 'nowhere'}"]))


def test_without_bubblewrap_code_data_fails_and_multi_level_passes(code_dir, ml_dir, monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_BWRAP", "/nonexistent/bwrap")  # neither level can start
    ml = compose_config([f"setting.data_dir={ml_dir}"])
    assert require_sandbox_for_data(ml) is None  # multi_level runs no code: nothing to check
    found = check_sandbox(ml)
    assert found.status == "ok" and "no code rows" in found.detail
    with pytest.raises(UserError) as err:
        require_sandbox_for_data(md(code_dir))
    text = str(err.value)
    assert text.startswith("the training and validation data hold 3 code rows")
    assert "bubblewrap" in text and "\n" not in text
    assert f"{KEY}.isolation=namespaces" in text and f"{KEY}.backend=sandbox_fusion" in text
    found = check_sandbox(md(code_dir))
    assert found.status == "error" and f"{KEY}.backend=sandbox_fusion" in found.detail


@needs_root
@pytest.mark.slow  # python -m pac_verl.main's start-up: about 13 s on a loaded machine
def test_main_stops_before_ray_in_a_container_without_cgroups(code_dir, tmp_path):
    """``trainer.device=cpu`` gets past the GPU check this machine would fail first; the check
    comes before run.json is written and before Ray starts."""
    argv = [sys.executable, "-m", "pac_verl.main", "setting=multi_domain",
            f"setting.data_dir={code_dir}", "trainer.device=cpu", f"pac.log_root={tmp_path / 'runs'}",
            f"trainer.default_local_dir={tmp_path / 'ckpt'}"]  # fmt: skip
    res = in_container(argv, tmp_path)
    assert res.returncode == 1, res.stderr[-2000:]
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("pac_verl.main: error: the training and validation data hold 3 "
                               "code rows, and the code sandbox cannot run them here: sandbox "
                               "isolation 'strict' needs cgroups")  # fmt: skip
    assert f"{KEY}.isolation=namespaces" in lines[0]
    assert f"{KEY}.backend=sandbox_fusion {KEY}.fusion_url=http://HOST:8080/run_code" in lines[0]
    assert not (tmp_path / "runs").exists()  # before the run's files, so before Ray


SCRIPT = """
import json, sys
from pac_verl.checks.sandbox import require_sandbox_for_data
from pac_verl.compose import compose_config
from pac_verl.verifiers import compute_score
truth, responses = sys.argv[1], sys.argv[2:4]
cfg = compose_config(sys.argv[4:])
out = {"report": require_sandbox_for_data(cfg)}
sandbox = {k: v for k, v in dict(cfg.reward.custom_reward_function.reward_kwargs.sandbox).items()
           if v is not None}
out["scores"] = [compute_score("code", r, truth, {"type": "code"}, sandbox=sandbox)["score"]
                 for r in responses]
print(json.dumps(out))
"""


def check_and_score(overrides, cwd):
    res = in_container([sys.executable, "-c", SCRIPT, json.dumps(ADD), RIGHT, WRONG, *overrides],
                       cwd)  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@needs_root
def test_namespaces_runs_code_rewards_where_strict_cannot(code_dir, tmp_path):
    out = check_and_score(["setting=multi_domain", f"setting.data_dir={code_dir}",
                           f"{KEY}.isolation=namespaces"], tmp_path)  # fmt: skip
    assert out["report"]["isolation"] == "namespaces" and out["report"]["cgroup"] is None
    assert out["scores"] == [1.0, 0.0]


@needs_root
def test_sandbox_fusion_is_probed_before_ray_and_scores(code_dir, tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), StubSandboxFusion)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/run_code"
    StubSandboxFusion.requests_seen = []
    StubSandboxFusion.flood = 0  # run the programs (a flood test elsewhere may have set it)
    try:
        base = ["setting=multi_domain", f"setting.data_dir={code_dir}",
                f"{KEY}.backend=sandbox_fusion"]  # fmt: skip
        out = check_and_score([*base, f"{KEY}.fusion_url={url}"], tmp_path)
        assert out["report"] == {"backend": "sandbox_fusion", "isolation": "remote", "url": url}
        assert out["scores"] == [1.0, 0.0]
        # the probe, then a functional answer costs one run per call into it plus the load run
        # (fusion._Replay): RIGHT makes both calls (3 runs), WRONG fails the first assert (2 runs)
        assert len(StubSandboxFusion.requests_seen) == 1 + 3 + 2
    finally:
        server.shutdown()
        server.server_close()
    # nothing listens there any more: said before Ray, naming the service's address
    with pytest.raises(UserError, match=r"SandboxFusion service at http://127\.0\.0\.1:\d+/run_code "
                       r"did not run a test program \(sandbox_error"):  # fmt: skip
        require_sandbox_for_data(md(code_dir, f"{KEY}.backend=sandbox_fusion",
                                    f"{KEY}.fusion_url={url}"))  # fmt: skip


@needs_root
def test_multi_level_needs_no_sandbox_in_a_container_without_cgroups(ml_dir, tmp_path):
    probe = ("import json, sys; from pac_verl.checks.sandbox import require_sandbox_for_data; "
             "from pac_verl.checks.node import check_sandbox; "
             "from pac_verl.compose import compose_config; c = compose_config(sys.argv[1:]); "
             "f = check_sandbox(c); print(json.dumps([require_sandbox_for_data(c), f.status, "
             "f.detail]))")  # fmt: skip
    res = in_container([sys.executable, "-c", probe, f"setting.data_dir={ml_dir}"], tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    report, status, detail = json.loads(res.stdout.strip().splitlines()[-1])
    assert report is None and status == "ok" and "no code rows" in detail
