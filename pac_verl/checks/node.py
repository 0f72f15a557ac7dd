"""What a run needs outside its data, checked before GPUs are booked.

:func:`check_node` (called once by ``pac-verl preflight``) prints the memory plan and the disk the
checkpoints need (:mod:`pac_verl.plan`), then one table: the GPUs (count and memory against
``trainer.n_gpus_per_node x trainer.nnodes``; with ``nnodes > 1`` the Ray cluster this machine is
connected to, node by node), the model (a local folder with ``config.json``, or a hub id found in
the local cache or on the hub, asked once with a short timeout), writable ``pac.log_root`` and
``trainer.default_local_dir``, free disk there, what the GPU path imports (a CUDA build of torch,
vLLM, flash-attention: :mod:`pac_verl.checks.software`), and the code sandbox when the data holds
code (:mod:`pac_verl.checks.sandbox`).

A machine with GPUs is taken for the training node: every problem there is an error. Without GPUs
(a laptop, a CPU head node) a problem that depends on the machine is a warning, and the table says
what could not be checked and that training needs the GPUs. A config that cannot fit in GPU memory
is an error everywhere.

:func:`require_gpus` is the check ``python -m pac_verl.main`` makes before Ray starts (a
SystemExit with one line: Hydra would print a traceback for an exception).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path

from pac_verl.checks.findings import Finding
from pac_verl.errors import UserError
from pac_verl.plan.memory import GIB, Hardware, cfg_get

HUB_TIMEOUT_S = 3.0  # one request to the hub; an unreachable hub is reported, not retried


def _needed(cfg) -> tuple[int, int]:
    return int(cfg.trainer.n_gpus_per_node), int(cfg.trainer.nnodes)


def local_gpus() -> list[float]:
    """Memory in GiB of each CUDA GPU this process sees (none on a CPU build of torch)."""
    import torch

    if not torch.cuda.is_available():
        return []
    return [torch.cuda.get_device_properties(i).total_memory / GIB
            for i in range(torch.cuda.device_count())]  # fmt: skip


def gpu_shortage(config) -> str | None:
    """Why training cannot have its GPUs on this machine, or None.

    None for ``trainer.device`` other than ``cuda`` (the CPU smoke run uses ``cpu``) and when the
    GPUs come from a Ray cluster (``trainer.nnodes > 1`` or ``RAY_ADDRESS``): the preflight checks
    the cluster. ``torch.cuda.device_count`` creates no CUDA context in the driver."""
    if str(cfg_get(config, "trainer.device", "cuda")) != "cuda":
        return None
    per_node, nodes = _needed(config)
    if nodes > 1 or os.environ.get("RAY_ADDRESS"):
        return None
    import torch

    have = torch.cuda.device_count()
    if have == 0:
        build = ("" if torch.version.cuda else f" (torch {torch.__version__} here is a CPU build: "
                 "a GPU node needs the GPU install: docs/getting-started/gpu-node.md)")  # fmt: skip
        return (f"no CUDA GPU on this machine: training needs {per_node} "
                f"(trainer.n_gpus_per_node={per_node} x trainer.nnodes=1){build}. Check a config "
                "without GPUs with `pac-verl preflight`; train on a GPU node, or on a Ray cluster "
                "(docs/guides/multi-node.md)")  # fmt: skip
    if have < per_node:
        return (f"this machine has {have} CUDA GPU(s) but trainer.n_gpus_per_node={per_node}: set "
                f"trainer.n_gpus_per_node={have} or train on a larger node")  # fmt: skip
    return None


def require_gpus(config) -> None:
    """``python -m pac_verl.main``'s check before Ray starts: exit with one line (status 1)."""
    problem = gpu_shortage(config)
    if problem:
        raise SystemExit(f"pac_verl.main: error: {problem}")


def check_gpus(cfg, gpus: list[float], plan_peak: float | None) -> Finding:
    per_node, nodes = _needed(cfg)
    need = f"trainer.n_gpus_per_node={per_node} x trainer.nnodes={nodes}"
    if not gpus:
        return Finding("GPUs", "unchecked", f"no CUDA GPU on this machine: count and memory not "
                       f"checked; training needs {per_node * nodes} ({need})")  # fmt: skip
    if nodes == 1 and len(gpus) < per_node:
        return Finding("GPUs", "error", f"this machine has {len(gpus)} GPU(s); {need} needs "
                       f"{per_node}: set trainer.n_gpus_per_node={len(gpus)}")  # fmt: skip
    smallest = min(gpus)
    if plan_peak is not None and plan_peak > smallest:
        return Finding("GPUs", "error", f"the plan's peak {plan_peak:.1f} GiB exceeds this "
                       f"machine's {smallest:.1f} GiB GPUs")  # fmt: skip
    return Finding("GPUs", "ok", f"{len(gpus)} x {smallest:.1f} GiB here ({need})")


def cluster_nodes(address: str) -> dict[str, float]:
    """GPUs of every live node of the Ray cluster at ``address`` (``auto``: the local one)."""
    import ray

    ours = not ray.is_initialized()
    if ours:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    try:
        return {n["NodeManagerAddress"]: float(n["Resources"].get("GPU", 0))
                for n in ray.nodes() if n["Alive"]}  # fmt: skip
    finally:
        if ours:
            ray.shutdown()


def compare_cluster(cfg, nodes_gpus: dict[str, float]) -> Finding:
    """Does the cluster have ``nnodes`` nodes with ``n_gpus_per_node`` GPUs each?"""
    per_node, nodes = _needed(cfg)
    full = {ip: g for ip, g in nodes_gpus.items() if g >= per_node}
    seen = ", ".join(f"{ip}: {g:g}" for ip, g in sorted(nodes_gpus.items())) or "no node"
    if len(full) >= nodes:
        return Finding("cluster", "ok", f"{len(full)} node(s) with >= {per_node} GPUs ({seen})")
    return Finding("cluster", "error", f"trainer.nnodes={nodes} x trainer.n_gpus_per_node="
                   f"{per_node} needs {nodes} nodes of {per_node} GPUs; the Ray cluster has "
                   f"{len(full)} ({seen}): {nodes - len(full)} node(s) of {per_node} GPUs missing "
                   "(join them with `ray start --address=HEAD:6379`)")  # fmt: skip


def check_cluster(cfg) -> Finding | None:
    _, nodes = _needed(cfg)
    address = os.environ.get("RAY_ADDRESS")
    if nodes == 1 and not address:
        return None
    try:
        found = cluster_nodes(address or "auto")
    except (ConnectionError, RuntimeError) as err:
        status = "error" if address else "unchecked"
        return Finding("cluster", status, f"trainer.nnodes={nodes} but no Ray cluster to connect "
                       f"to ({str(err).splitlines()[0][:120]}): run this on a cluster node after "
                       "`ray start` (docs/guides/multi-node.md)")  # fmt: skip
    return compare_cluster(cfg, found)


def _hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}


def safetensors_whole(file: Path) -> bool:
    """Whether a ``.safetensors`` file holds every byte its header promises (a file cut short by
    a full disk or a killed write does not)."""
    import struct

    try:
        with open(file, "rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            if size > 100 * 2**20:  # no header is this large: the length itself is garbage
                return False
            header = json.loads(f.read(size))
        end = max((int(v["data_offsets"][1]) for k, v in header.items() if k != "__metadata__"),
                  default=0)  # fmt: skip
        return file.stat().st_size >= 8 + size + end
    except (OSError, ValueError, struct.error, KeyError, TypeError, IndexError):
        return False


def check_model(path: str) -> Finding:
    folder = Path(path).expanduser()
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            return Finding("model", "error", f"{path}: a folder without config.json")
        weights = list(folder.glob("*.safetensors")) + list(folder.glob("*.bin"))
        if not weights:
            return Finding("model", "error", f"{path}: no *.safetensors or *.bin weights")
        cut = [w.name for w in weights if w.suffix == ".safetensors" and not safetensors_whole(w)]
        if cut:
            return Finding("model", "error", f"{path}: {', '.join(cut)} is cut short (a write "
                           "stopped part-way, e.g. a full disk): build or download it again")  # fmt: skip
        return Finding("model", "ok", f"local folder {path}")
    if path.count("/") != 1 or path.startswith((".", "/", "~")):
        return Finding("model", "error", f"actor_rollout_ref.model.path={path}: no such folder")
    from huggingface_hub import HfApi, try_to_load_from_cache

    if isinstance(try_to_load_from_cache(path, "config.json"), str):
        return Finding("model", "ok", f"{path} in the local Hugging Face cache")
    if _hub_offline():
        return Finding("model", "error", f"{path} is not in the local Hugging Face cache and "
                       f"HF_HUB_OFFLINE is set: `hf download {path}` on a machine with network, "
                       "or set actor_rollout_ref.model.path to a local folder")  # fmt: skip
    try:
        HfApi(endpoint=os.environ.get("HF_ENDPOINT")).model_info(path, timeout=HUB_TIMEOUT_S)
    except Exception as err:  # the hub's client raises many kinds; each one means "not usable"
        name = type(err).__name__
        if "NotFound" in name or "GatedRepo" in name:
            return Finding("model", "error", f"{path}: not a model the hub lets this machine "
                           f"download ({name})")  # fmt: skip
        return Finding("model", "error", f"the Hugging Face hub is unreachable from here "
                       f"({name}: {str(err).splitlines()[0][:100]}), and {path} is not in the "
                       f"local cache: `hf download {path}` where there is network, or set "
                       "actor_rollout_ref.model.path to a local folder")  # fmt: skip
    return Finding("model", "ok", f"{path} on the hub (verl downloads it at start)")


def check_writable(key: str, folder: str) -> Finding:
    """``folder`` (made by the run) can be created: its nearest existing ancestor is a writable
    directory. Probed with a temporary file, so read-only file systems count too."""
    target = Path(folder).expanduser().absolute()
    for p in [target, *target.parents]:
        if p.exists():
            if not p.is_dir():
                return Finding(key, "error", f"{key}={folder}: {p} is a file, not a folder")
            try:
                with tempfile.TemporaryFile(dir=p):
                    pass
            except OSError as err:
                return Finding(key, "error", f"{key}={folder}: {p} is not writable "
                               f"({err.strerror or err})")  # fmt: skip
            return Finding(key, "ok", str(target))
    return Finding(key, "error", f"{key}={folder}: no existing parent folder")


def check_sandbox(cfg=None) -> Finding:
    """The sandbox the config's reward workers will run (its ``reward_kwargs.sandbox`` group;
    without a config, the environment's, as for a tool outside training), checked with one real
    program (:mod:`pac_verl.checks.sandbox`). With a config whose training and validation files
    hold no code rows, nothing is checked: code rewards never run."""
    from pac_verl.checks import sandbox as sandbox_checks
    from pac_verl.verifiers.sandbox import require_sandbox
    from pac_verl.verifiers.sandbox.settings import from_env

    unread = ""
    if cfg is not None and sandbox_checks.ours(cfg):
        try:
            n = sum(sandbox_checks.code_rows(cfg).values())
        except UserError:  # the data check names the file; the sandbox is checked as if needed
            n, unread = None, " (the data files could not be read: checked as if they held code)"
        if n == 0:
            return Finding("sandbox", "ok", "the training and validation data hold no code rows: "
                           "code rewards never run, no sandbox needed")  # fmt: skip
    if cfg is not None:
        problem, report = sandbox_checks.sandbox_problem(cfg)
    else:
        try:
            problem, report = None, require_sandbox(from_env())
        except UserError as err:
            problem, report = str(err), {}
    if problem is not None:  # strict (the default) or the level asked for is not here
        ways = f". {sandbox_checks.WAYS_OUT}" if cfg is not None else ""
        return Finding("sandbox", "error", f"{problem.rstrip('.')}{ways}{unread}")
    level = report["isolation"]
    status = "warn" if level in ("namespaces", "none") else "ok"
    where = f", cgroup {report['cgroup']}" if report.get("cgroup") else ""
    at = f" at {report['url']}" if report.get("url") else ""
    return Finding("sandbox", status, f"code rewards run on {report['backend']}{at} under "
                   f"isolation {level!r}{where}{unread}")  # fmt: skip


def host_memory_gb() -> float:
    """This machine's RAM in GB (10^9 bytes)."""
    import psutil

    return psutil.virtual_memory().total / 1000**3


def check_node(cfg, model_config: str | None = None, strict: bool | None = None) -> list[Finding]:
    """Print the memory plan, the host memory and disk estimates and the node's checks; raise one
    :class:`UserError` naming every error. Returns the findings. ``strict`` (default: this machine
    has a GPU) makes every problem an error, as on the training node."""
    from pac_verl.plan.cli import plans_for, print_plans
    from pac_verl.plan.model import shape_of_run
    from pac_verl.progress import print_summary

    gpus = local_gpus()
    strict = bool(gpus) if strict is None else strict
    hw = replace(Hardware(), gpu_gib=min(gpus)) if gpus else Hardware()
    findings: list[Finding] = []
    plans = mem = disk = None
    try:
        shape, note = shape_of_run(cfg, model_config)
    except UserError as err:
        if model_config:  # the config.json named on the command line: an error anywhere
            raise
        # no config.json on this machine for a model the shipped ones do not cover: the training
        # node may have it
        findings.append(Finding("memory plan", "error" if strict else "unchecked", str(err)))
    else:  # a config that cannot be planned is an error anywhere
        plans = plans_for(cfg, shape, hw, note)
        mem, disk = plans.memory, plans.disk
        print_plans(plans)
        if plans.note:
            findings.append(Finding("memory plan", "warn", plans.note))
        findings += [Finding("memory plan", "error", p) for p in mem.problems]
        if mem.fits:
            findings.append(Finding("memory plan", "ok", f"every phase fits {hw.gpu_gib:.1f} GiB"))
        have = host_memory_gb()
        problem = plans.host.problem(have)
        findings.append(Finding("host memory", "error" if problem else "ok", problem or
                                f"{plans.host.peak_gb:,.0f} GB per node at "
                                f"{plans.host.peak_phase}, {have:,.0f} GB here"))  # fmt: skip
    peak = max(p.gib for p in mem.phases) if mem is not None else None
    findings.append(check_gpus(cfg, gpus, peak))
    cluster = check_cluster(cfg)
    if cluster is not None:
        findings.append(cluster)
    from pac_verl.checks.software import findings as software_findings

    findings += software_findings(cfg)  # torch's CUDA build, vLLM, flash-attn, as the run needs
    findings.append(check_model(str(cfg.actor_rollout_ref.model.path)))
    findings.append(check_writable("pac.log_root", str(cfg_get(cfg, "pac.log_root", "runs"))))
    findings.append(check_writable("trainer.default_local_dir", str(cfg.trainer.default_local_dir)))
    if disk is not None:
        if disk.free_gb is None:
            findings.append(Finding("disk", "unchecked", f"no existing folder on {disk.folder}"))
        else:
            findings.append(Finding("disk", "ok" if disk.enough else "error", disk.problem() or
                                    f"checkpoints need {disk.need_gb:,.0f} GB, "
                                    f"{disk.free_gb:,.0f} GB free at {disk.folder}"))  # fmt: skip
    findings.append(check_sandbox(cfg))
    if not strict:  # not the training node: what depends on this machine only warns (the plan
        # and a cluster that was reached are not about this machine)
        findings = [f if f.check in ("memory plan", "cluster") or f.status != "error"
                    else replace(f, status="warn") for f in findings]  # fmt: skip
    print_summary("preflight: the node", ["check", "status", "detail"],
                  [[f.check, f.status, f.detail] for f in findings])  # fmt: skip
    if not gpus:
        print("no GPU here: GPUs, cluster, disk and the model were checked as far as this machine "
              "can; training needs the GPUs (run the preflight on the training node)")  # fmt: skip
    errors = [f"{f.check}: {f.detail}" for f in findings if f.status == "error"]
    if errors:
        raise UserError("; ".join(errors))
    return findings
