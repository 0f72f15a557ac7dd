"""The program that runs inside the sandbox (started as ``python -I _harness.py``; stdlib only).

It reads one job as JSON from stdin (the run's secret token, the code, the tests), hardens the
process, runs the code and the tests, and writes ``<token> <json result>`` to the result pipe
(fd given in the job). The parent accepts only a line carrying its token, so printing "OK",
exiting early (``sys.exit``/``os._exit``) or killing the parent reports nothing, and nothing counts
as a pass but a result the harness wrote after the tests ran. Before the model's code runs, the
harness records the identity of every builtin and of the unittest machinery; if any was replaced
when the tests finish, the verdict is ``tampered``.

Hardening, in order: (namespace mode) private tmpfs over the world-writable folders, so nothing the
program writes survives the run; no network (the namespace has only a loopback that is down, or, in
fallback mode, ``socket`` is disabled in-process); every other mount read-only and every
capability dropped (namespace mode); a process-count limit.
"""

import builtins
import ctypes
import io
import json
import os
import resource
import sys

TMPFS_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _read_only_filesystem(libc):
    """Remount every mount of this (private) namespace read-only, then put fresh tmpfs over the
    world-writable folders: the program can write only there, and those vanish with the run."""
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f]
    for point in sorted(set(points), key=len):
        libc.mount(None, point.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY, None)
    for path in TMPFS_DIRS:
        if os.path.isdir(path):
            libc.mount(b"tmpfs", path.encode(), b"tmpfs", 0, b"size=64m,mode=1777")


def _drop_capabilities(libc):
    """No capability left (so no remount, no mount, no module loading), and none regainable."""
    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable x 2 words: all zero
    libc.capset(header, data)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _block_sockets():
    import socket

    def _refuse(*args, **kwargs):
        raise OSError("network is disabled in the sandbox")

    socket.socket = _refuse
    socket.create_connection = _refuse
    socket.socketpair = _refuse


def _harden(job):
    nproc = int(job.get("max_processes", 32))  # binds for non-root users only (kernel rule)
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    workdir = job["workdir"]
    if job["namespaces"]:
        libc = _libc()
        _read_only_filesystem(libc)
        os.makedirs(workdir, exist_ok=True)
        _drop_capabilities(libc)
    else:
        _block_sockets()
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": workdir, "TMPDIR": workdir})


def _snapshot(_id=id, _vars=vars, _getattr=getattr, _dict=dict, _builtins=builtins):
    """Identity of every builtin and of unittest's machinery (helpers bound before user code)."""
    import unittest

    seen = _dict()
    for k, v in _dict(_vars(_builtins)).items():
        seen[("builtins", k)] = _id(v)
    for cls in (unittest.TestCase, unittest.TestResult, unittest.TestSuite, unittest.TestLoader):
        for k, v in _dict(_vars(cls)).items():
            seen[(cls.__name__, k)] = _id(v)
    for k in ("TestCase", "TestResult", "TestSuite", "TestLoader", "main"):
        seen[("unittest", k)] = _id(_getattr(unittest, k))
    return seen


class _CappedText(io.StringIO):
    def __init__(self, cap):
        super().__init__()
        self._cap = cap

    def write(self, s):
        if self.tell() + len(s) > self._cap:
            raise MemoryError("output limit")
        return super().write(s)


def _missing_module(err, test_code):
    name = (getattr(err, "name", None) or "").split(".")[0]
    return bool(name) and (f"import {name}" in test_code or f"from {name}" in test_code)


def _run_functional(job):
    scope = {"__name__": "__main__"}
    exec(compile(job["code"], "<solution>", "exec"), scope)
    exec(compile(job["tests"], "<tests>", "exec"), scope)
    return "ok", ""


def _run_stdio(job):
    code = compile(job["code"], "<solution>", "exec")
    cap = int(job.get("output_bytes", 1 << 20))
    real_stdin, real_stdout = sys.stdin, sys.stdout
    for i, (given, expected) in enumerate(zip(job["inputs"], job["outputs"], strict=True)):
        sys.stdin = io.TextIOWrapper(io.BytesIO(str(given).encode()), encoding="utf-8")
        sys.stdout = out = _CappedText(cap)
        try:
            exec(code, {"__name__": "__main__"})
        except SystemExit:
            pass
        finally:
            sys.stdin, sys.stdout = real_stdin, real_stdout
        if out.getvalue().split() != str(expected).split():
            return "tests_failed", f"case {i}: output differs"
    return "ok", ""


def _run_unittest(job):
    import unittest

    scope = {"__name__": "__main__"}
    try:
        exec(compile(job["code"], "<solution>", "exec"), scope)
        exec(compile(job["tests"], "<tests>", "exec"), scope)
    except ImportError as err:
        if _missing_module(err, job["tests"]):
            return "missing_library", str(getattr(err, "name", ""))
        raise
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for value in list(scope.values()):
        if isinstance(value, type) and issubclass(value, unittest.TestCase):
            suite.addTests(loader.loadTestsFromTestCase(value))
    result = unittest.TestResult()
    suite.run(result)
    if result.testsRun == 0:
        return "no_tests", ""
    for _, trace in result.errors:
        if "ModuleNotFoundError" in trace:
            name = trace.rsplit("No module named", 1)[-1].strip().strip("'\"")
            if f"import {name}" in job["tests"] or f"from {name}" in job["tests"]:
                return "missing_library", name
    if result.wasSuccessful():
        return "ok", ""
    return "tests_failed", f"{len(result.failures)} failed, {len(result.errors)} errors"


RUNNERS = {"functional": _run_functional, "stdio": _run_stdio, "unittest": _run_unittest}


def main():
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    result_fd = int(job["result_fd"])
    os.set_inheritable(result_fd, False)
    seal = (job.pop("token"), result_fd)

    def report(reason, detail="", _seal=seal, _dumps=json.dumps, _write=os.write, _str=str):
        line = _seal[0] + " " + _dumps({"reason": _str(reason), "detail": _str(detail)[:200]})
        _write(_seal[1], (line + "\n").encode())

    del seal
    snapshot, runner, exit_now = _snapshot, RUNNERS[job["kind"]], os._exit
    _harden(job)
    before = snapshot()
    # The model's code sees a fresh __main__, not the harness module.
    sys.modules["__main__"] = type(sys)("__main__")
    try:
        reason, detail = runner(job)
    except SystemExit:
        reason, detail = "exited_early", ""
    except MemoryError:
        reason, detail = "memory", ""
    except RecursionError:
        reason, detail = "tests_failed", "recursion"
    except BaseException as err:  # the model's code or its tests failed
        reason, detail = "tests_failed", type(err).__name__
    if snapshot() != before:
        reason, detail = "tampered", ""
    report(reason, detail)
    exit_now(0)


if __name__ == "__main__":
    main()
