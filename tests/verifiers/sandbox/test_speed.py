"""What the strict sandbox's speed-ups must not cost: the program's processes stay
non-dumpable, the harness is not on the sandbox's filesystem, the cgroup kill empties a group of a
process tree and touches nothing outside it, nested interpreter folders are bound once."""

import json
import os
import subprocess
import sys
import time

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits
from pac_verl.verifiers.sandbox import cgroup as sandbox_cgroup
from pac_verl.verifiers.sandbox import local as sandbox

LIMITS = Limits(wall_seconds=20.0, cpu_seconds=5.0)


def probe(expr_src: str):
    """1.0 when the program's ``probe()`` finds ``expr_src`` true inside the sandbox."""
    src = f"import os\ndef probe():\n    return bool({expr_src})\n"
    truth = json.dumps({"functional": "assert probe() == True"})
    return code_scorer.score(f"```python\n{src}```", truth, limits=LIMITS).score


def test_the_program_runs_non_dumpable():
    # a dumpable process's /proc files belong to its own uid; PR_SET_DUMPABLE 0 makes them root's,
    # which is what keeps /proc/<harness>/mem and /proc/<harness>/fd/<report> closed to the program
    assert probe("os.stat('/proc/self/status').st_uid == os.getuid()") == 0.0
    assert probe("os.getuid() != 0") == 1.0  # the probe itself works: the uid was dropped


def test_the_harness_makes_itself_non_dumpable():
    # as root the uid drop alone also clears the flag where fs.suid_dumpable is 0 (so the test above
    # passes without it); under a user namespace, or with suid_dumpable 2, only the prctl does
    check = (
        "import ctypes, sys; sys.path.insert(0, sys.argv[1]); import harness; "
        "libc = ctypes.CDLL(None); before = libc.prctl(3, 0, 0, 0, 0); harness._not_dumpable(); "
        "print(before, libc.prctl(3, 0, 0, 0, 0))"  # PR_GET_DUMPABLE
    )
    out = subprocess.run([sys.executable, "-I", "-S", "-c", check, str(sandbox.HARNESS.parent)],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.split() == ["1", "0"]


def test_neither_the_harness_nor_the_package_is_on_the_sandbox_filesystem():
    assert (
        probe("os.path.exists('/pac') or os.path.exists(" + repr(str(sandbox.HARNESS)) + ")") == 0
    )


def test_nested_interpreter_folders_are_bound_once():
    cmd = sandbox._bwrap_command("bwrap", ("/opt/py", "/opt/py/bin", "/opt/venv"), "/x", 9, "stdio")
    binds = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--ro-bind"]
    assert "/opt/py" in binds and "/opt/venv" in binds
    assert "/opt/py/bin" not in binds
    # a folder that only shares a prefix of its name is not inside the other one
    cmd = sandbox._bwrap_command("bwrap", ("/opt/py", "/opt/python"), "/x", 9, "stdio")
    assert {"/opt/py", "/opt/python"} <= {cmd[i + 1] for i, a in enumerate(cmd) if a == "--ro-bind"}


@pytest.fixture
def group():
    reason = sandbox_cgroup.unavailable_reason()
    if reason is not None:
        pytest.skip(f"no cgroups here: {reason}")
    g = sandbox_cgroup.RunGroup(memory_mb=256, max_processes=16)
    yield g
    g.kill()
    g.remove()


def test_kill_empties_the_group_of_a_tree_and_spares_processes_outside_it(group):
    joined = " ".join(group.procs_files)
    # the shell joins the group, leaves two background sleepers (an orphaned tree once it exits)
    tree = subprocess.Popen(
        ["/bin/sh", "-c", f'for g in {joined}; do echo $$ > "$g"; done; '
         "sleep 60 & sleep 60 & echo ready; wait"],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    outsider = subprocess.Popen(["sleep", "60"])
    try:
        assert tree.stdout.readline() == b"ready\n"
        deadline = time.monotonic() + 5
        while len(group.pids()) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        members = group.pids()
        assert len(members) == 3 and outsider.pid not in members
        group.kill()
        assert group.pids() == []
        for pid in members:
            assert not os.path.exists(f"/proc/{pid}") or _is_zombie(pid)
        assert tree.wait(timeout=5) == -9
        assert outsider.poll() is None  # not in the group: untouched
    finally:
        outsider.kill()
        outsider.wait()
        tree.kill()
        tree.wait()


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def test_kill_of_an_empty_group_returns_at_once(group):
    group.kill()
    assert group.pids() == []


@pytest.mark.parametrize("mode", ["none", "strict"])
def test_an_interpreter_that_does_not_run_is_a_clear_error_at_every_level(mode, monkeypatch):
    # the harness is compiled by the sandbox interpreter: where it cannot be, say so, as a UserError
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", mode)
    truth = json.dumps({"functional": "assert f() == 1"})
    with pytest.raises(sandbox.SandboxUnavailable, match="/nonexistent/python3 does not run"):
        code_scorer.score(
            "```python\ndef f():\n    return 1\n```", truth, python="/nonexistent/python3"
        )
