"""The sandbox when the trainer is not root: bubblewrap then makes a user namespace of
its own (``--unshare-user --disable-userns``) and the harness keeps the trainer's uid. The scoring
process here really runs as an unprivileged uid (``setpriv``), from a copy of the package that
uid can read (this checkout's venv and interpreter may live where it cannot, e.g. under /root),
with an interpreter it can run. A correct program scores 1, a wrong one 0, the escapes stay
closed, strict mode without a delegated cgroup fails naming the fix, and with a delegated v1
subtree (made here as root, removed after) strict mode works with its whole-tree limits.
"""

import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import pac_verl
import pac_verl.verifiers

UID = 65534  # nobody
SCORER = """
import json, sys
from pac_verl.verifiers import code
from pac_verl.verifiers.sandbox import Limits, SandboxUnavailable, isolation_report
limits = Limits(wall_seconds=10, cpu_seconds=3, memory_mb=512)
try:
    report = isolation_report()
    reasons = [code.score(r, t, limits=limits).reason for r, t in json.load(sys.stdin)]
except SandboxUnavailable as err:
    print(json.dumps({"unavailable": str(err)}))
else:
    print(json.dumps({"report": report, "reasons": reasons}))
"""
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
TRUE = json.dumps({"functional": "assert probe() == True"})
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
WRONG = "```python\ndef add(a, b):\n    return a - b\n```"


def _probe(expr: str, setup: str = "") -> list[str]:
    # no ctypes: the sandbox denies ctypes.dlopen, which `import ctypes` itself calls
    src = f"import os, socket, subprocess\n{setup}\ndef probe():\n    return bool({expr})\n"
    return [f"```python\n{src}```", TRUE]


def _as_nobody(argv: list[str]) -> subprocess.CompletedProcess:
    cmd = ["setpriv", "--reuid", str(UID), "--regid", str(UID), "--clear-groups", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _interpreter_for_nobody() -> str | None:
    """An interpreter of this Python version that the unprivileged uid can run (setpriv falls back
    to a PATH search when the exec is refused, so the one that ran is checked)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (os.path.realpath(sys.executable), f"/usr/bin/python{version}",
                      f"/usr/local/bin/python{version}"):  # fmt: skip
        if not os.path.exists(candidate):
            continue
        probe = "import os, sys; print(os.path.realpath(sys.executable), *sys.version_info[:2])"
        ran = _as_nobody(["/bin/sh", "-c", 'exec "$0" -I -c "$1"', candidate, probe])
        want = [
            os.path.realpath(candidate),
            str(sys.version_info.major),
            str(sys.version_info.minor),
        ]
        if ran.returncode == 0 and ran.stdout.split() == want:
            return candidate
    return None


# what scoring imports beyond the package: text2num (number words) and wordfreq (which sentences
# are English) with wordfreq's own imports
SCORING_PACKAGES = (
    "text_to_num", "wordfreq", "regex", "ftfy", "wcwidth", "langcodes", "locate", "msgpack",
)  # fmt: skip


def _english_only(folder: str, names: list[str]) -> list[str]:
    """What not to copy: caches, and wordfreq's word lists of other languages (60 MB in all)."""
    skipped = shutil.ignore_patterns("__pycache__", "*.pyc")(folder, names)
    if Path(folder).name == "data" and Path(folder).parent.name == "wordfreq":
        skipped |= {
            n for n in names if n.endswith(".msgpack.gz") and not n.endswith("_en.msgpack.gz")
        }
    return list(skipped)


@pytest.fixture(scope="module")
def tree():
    """A folder the unprivileged uid can read: the package (pac_verl and its verifiers, the only
    parts scoring imports), pyseccomp, text2num and wordfreq (its dependencies there) and the
    scoring script."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None or shutil.which("bwrap") is None:
        pytest.skip("needs root (to become another uid), setpriv and bubblewrap")
    python = _interpreter_for_nobody()
    if python is None:
        pytest.skip(f"no Python {sys.version_info[:2]} here that uid {UID} can run")
    root = Path(tempfile.mkdtemp(prefix="pac-nonroot-", dir="/tmp"))
    try:
        root.chmod(0o755)
        site = root / "site"
        skip = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(Path(pac_verl.__file__).parent, site / "pac_verl", ignore=skip)
        shutil.copytree(Path(pac_verl.verifiers.__file__).parent, site / "pac_verl/verifiers",
                        ignore=skip)  # fmt: skip
        shutil.copy(importlib.util.find_spec("pyseccomp").origin, site)
        for package in SCORING_PACKAGES:
            found = Path(importlib.util.find_spec(package).origin).parent
            shutil.copytree(found, site / package, ignore=_english_only)
        (root / "score.py").write_text(SCORER)
        secret = root / "readable-by-all.txt"
        secret.write_text("host data")
        for path in [root, *root.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield {"root": root, "python": python, "site": site, "secret": secret}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def score_as_nobody(tree, mode: str, cases: list, join: list[str] = ()) -> dict:
    """Score ``cases`` ([response, ground truth] pairs) in a process of uid 65534 (after, as root,
    moving it into the cgroups whose ``cgroup.procs`` are in ``join``)."""
    env = ["env", "-i", "PATH=/usr/bin:/bin", f"PYTHONPATH={tree['site']}", "TMPDIR=/tmp",
           f"PAC_SANDBOX_ISOLATION={mode}", tree["python"], str(tree["root"] / "score.py")]  # fmt: skip
    cmd = ["setpriv", "--reuid", str(UID), "--regid", str(UID), "--clear-groups", *env]
    joiner = 'for f in $PAC_JOIN; do echo $$ > "$f" || exit 125; done; exec "$@"'
    ran = subprocess.run(["/bin/sh", "-c", joiner, "sh", *cmd], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "PAC_JOIN": " ".join(join)})  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    return json.loads(ran.stdout.splitlines()[-1])


def test_namespaces_mode_as_an_unprivileged_trainer(tree):
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    connect = (
        "def reach():\n    try:\n"
        f"        socket.create_connection(('127.0.0.1', {port}), timeout=1).close()\n"
        "        return True\n    except OSError:\n        return False\n"
    )
    cases = {
        "right": [RIGHT, ADD],
        "wrong": [WRONG, ADD],
        # a control: the program runs as the trainer's own uid, in a fresh pid namespace
        "own uid, new pid namespace": _probe(f"os.getuid() == {UID} and os.getpid() < 10"),
        "host file readable by all": _probe(f"os.path.exists({str(tree['secret'])!r})"),
        "host /etc": _probe("os.path.exists('/etc/passwd') or os.path.exists('/etc/hostname')"),
        "host /proc": _probe(f"os.path.exists('/proc/{os.getpid()}')"),
        # util-linux's unshare(1) from the sandbox's /usr: the kernel and seccomp must refuse it
        "user namespace inside": _probe(
            "subprocess.run(['unshare', '--user', 'true']).returncode == 0"
        ),
        "network": _probe("reach()", connect),
    }
    try:
        out = score_as_nobody(tree, "namespaces", list(cases.values()))
    finally:
        listener.close()
    assert out["report"]["isolation"] == "namespaces"
    reasons = dict(zip(cases, out["reasons"]))
    assert reasons == {
        "right": "ok",
        "wrong": "tests_failed",
        "own uid, new pid namespace": "ok",
        "host file readable by all": "tests_failed",
        "host /etc": "tests_failed",
        "host /proc": "tests_failed",
        "user namespace inside": "tests_failed",
        "network": "tests_failed",
    }


def test_strict_mode_without_a_delegated_cgroup_names_the_fix(tree):
    out = score_as_nobody(tree, "strict", [[RIGHT, ADD]])
    message = out["unavailable"]
    assert f"uid {UID}" in message and "may not create cgroups" in message
    assert "delegated cgroup" in message and "PAC_SANDBOX_ISOLATION=namespaces" in message


def _own_cgroup(controller: str) -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    raise LookupError(controller)


@pytest.fixture
def delegated_v1():
    """A cgroup v1 subtree per controller owned by the unprivileged uid, what ``systemd-run -p
    Delegate=yes`` gives a user; removed with everything the runs left in it."""
    mounts = {c: Path("/sys/fs/cgroup", c) for c in ("memory", "pids", "cpu", "cpuacct")}
    if not all((m / "cgroup.procs").exists() for m in mounts.values()):
        pytest.skip("no cgroup v1 memory, pids, cpu and cpuacct hierarchies here")
    name = f"pac-delegated-{secrets.token_hex(4)}"
    made = []
    try:
        for c, mount in mounts.items():
            d = mount / _own_cgroup(c).lstrip("/") / name
            d.mkdir()
            made.append(d)
            for f in (d, d / "cgroup.procs", d / "tasks"):
                os.chown(f, UID, UID)
        yield [str(d / "cgroup.procs") for d in made]
    finally:
        for d in made:
            for sub in sorted((p for p in d.rglob("*") if p.is_dir()), reverse=True):
                sub.rmdir()
            d.rmdir()


def test_strict_mode_as_an_unprivileged_trainer_in_a_delegated_cgroup(tree, delegated_v1):
    # three children of 200 MB each under a 512 MB limit: only a whole-tree limit stops them
    fork_memory = (
        "```python\nimport os, time\ndef probe():\n    pids = []\n    for _ in range(3):\n"
        "        pid = os.fork()\n        if pid == 0:\n            b = bytearray(200 << 20)\n"
        "            for i in range(0, len(b), 4096):\n                b[i] = 1\n"
        "            time.sleep(1)\n            os._exit(0)\n        pids.append(pid)\n"
        "    return all(os.waitpid(p, 0)[1] == 0 for p in pids)\n```"
    )
    out = score_as_nobody(
        tree, "strict", [[RIGHT, ADD], [WRONG, ADD], [fork_memory, TRUE]], join=delegated_v1
    )
    assert out["report"]["isolation"] == "strict" and out["report"]["cgroup"] == "v1"
    assert out["reasons"][:2] == ["ok", "tests_failed"]
    assert out["reasons"][2] == "memory"
