"""The cgroup v2 path of ``sandbox_cgroup`` on a cgroup v1 host.

This host runs cgroup v1 (memory, pids, cpu and cpuacct hierarchies); a cgroup2 file system can
be mounted next to it, but only the controllers v1 has not bound (here: hugetlb) are free there.
So (a) the refusal of a v2 hierarchy that lacks memory, pids or cpu is tested against a real
cgroup2 mount, and (b) the v2 run-group logic (the files it writes and reads, the kill, the
removal) against a folder tree that imitates cgroupfs. The kernel behaviour behind those files
(a memory ceiling and CPU accounting that count the whole process tree, a process ceiling) is
the same in v1 and v2 and is tested for real, on v1, by ``test_attacks.py``
(memory, memfd and CPU limits for the whole tree) and ``test_formats_and_cleanup.py`` (fork bomb).
"""

import os
import subprocess
import sys
import threading

import pytest

from pac_verl.verifiers.sandbox import cgroup as sandbox_cgroup
from pac_verl.verifiers.sandbox.cgroup import RunGroup


@pytest.fixture
def cgroup2_mount(tmp_path):
    """A fresh cgroup2 mount, unmounted at the end whatever happens."""
    if os.geteuid() != 0:
        pytest.skip("mounting cgroup2 needs root")
    where = tmp_path / "cgroup2"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "cgroup2", "none", str(where)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cgroup2 cannot be mounted here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)
    assert not os.path.ismount(where)


def test_a_v2_hierarchy_without_memory_pids_and_cpu_is_refused_naming_them(cgroup2_mount):
    have = set((cgroup2_mount / "cgroup.controllers").read_text().split())
    missing = [c for c in ("memory", "pids", "cpu") if c not in have]
    if not missing:
        pytest.skip("this host's cgroup2 has memory, pids and cpu: nothing to refuse")
    # the mount holds no v1 hierarchy either, so nothing else can be used
    with pytest.raises(OSError) as refused:
        sandbox_cgroup.layout(cgroup2_mount)
    reason = str(refused.value)
    assert f"lacks the {', '.join(missing)} controller" in reason
    assert "no cgroup v1 memory hierarchy" in reason
    assert sandbox_cgroup.unavailable_reason(cgroup2_mount) == reason
    # nothing was created in the real hierarchy
    assert not (cgroup2_mount / "pac-sandbox").exists()


@pytest.fixture
def v2_imitation(tmp_path):
    """A cgroup v2 parent folder as ``layout`` returns it; the interface files of a run group
    appear when written, as plain files."""
    parent = tmp_path / "pac-sandbox"
    parent.mkdir()
    return ("v2", {"": parent})


def test_v2_run_group_writes_its_limits(v2_imitation):
    group = RunGroup(memory_mb=256, max_processes=16, where=v2_imitation)
    d = group.dirs[""]
    assert d.parent == v2_imitation[1][""] and d.name.startswith(f"run-{os.getpid()}-")
    assert (d / "memory.max").read_text() == str(256 * 1024 * 1024)
    assert (d / "memory.swap.max").read_text() == "0"
    assert (d / "pids.max").read_text() == "16"
    assert (d / "cpu.max").read_text() == "100000 100000"  # one CPU's worth: quota = period
    assert group.procs_files == [str(d / "cgroup.procs")]


def test_v2_run_group_reads_cpu_time_and_oom_kills(v2_imitation):
    group = RunGroup(memory_mb=64, max_processes=8, where=v2_imitation)
    d = group.dirs[""]
    assert group.cpu_seconds() == 0.0 and group.out_of_memory() is False  # nothing written yet
    (d / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n")
    assert group.cpu_seconds() == 1.5
    # "max" and "oom" count reclaim pressure and allocation failures; only oom_kill is a kill
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 2\noom_kill 0\noom_group_kill 0\n")
    assert group.out_of_memory() is False
    (d / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 2\noom_kill 1\noom_group_kill 0\n")
    assert group.out_of_memory() is True


def test_v2_run_group_kills_through_cgroup_kill_and_its_processes(v2_imitation):
    group = RunGroup(memory_mb=64, max_processes=8, where=v2_imitation)
    d = group.dirs[""]
    child = subprocess.Popen(["sleep", "60"])
    (d / "cgroup.procs").write_text(f"{child.pid}\n")
    assert group.pids() == [child.pid]

    def kernel():  # cgroupfs drops a process from cgroup.procs once it has died
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # dead, not reaped: no pid reuse
        (d / "cgroup.procs").write_text("")
        child.wait()

    watcher = threading.Thread(target=kernel)
    watcher.start()
    group.kill()
    watcher.join(timeout=10)
    assert (d / "cgroup.kill").read_text() == "1"
    assert child.returncode == -9
    assert group.pids() == []
    # cgroupfs removes a group's interface files with it; a plain folder needs them gone first
    for f in d.iterdir():
        f.unlink()
    group.remove()
    assert not d.exists() and group.dirs == {}


def test_a_run_over_its_memory_limit_is_seen_as_out_of_memory():
    """This machine's own cgroups (v1 here), the real kernel: the OOM kill is what is counted
    (on v1, ``memory.failcnt`` stays 0 on recent kernels, so it cannot tell an out-of-memory run)."""
    if sandbox_cgroup.unavailable_reason() is not None:
        pytest.skip(sandbox_cgroup.unavailable_reason())
    outcomes = {}
    for mb in (8, 96):  # 48 MB of pages under a 96 MB limit, and over an 8 MB one
        group = RunGroup(memory_mb=mb, max_processes=8)
        try:
            join = " ".join(f'echo $$ > "{f}";' for f in group.procs_files)
            touch = "b = bytearray(48 << 20)"
            status = subprocess.run(["/bin/sh", "-c", f'{join} exec "$0" -c "$1"',
                                     sys.executable, touch]).returncode  # fmt: skip
            outcomes[mb] = (status, group.out_of_memory())
        finally:
            group.kill()
            group.remove()
    assert outcomes == {8: (-9, True), 96: (0, False)}
