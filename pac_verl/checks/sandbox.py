"""Does the run need the code sandbox, and can it have it here?

Code rewards run model programs in the sandbox (:mod:`pac_verl.verifiers.sandbox`), whose default
level, ``strict``, needs bubblewrap, user namespaces and a cgroup this process may create. Many GPU
nodes run jobs in containers that give neither; there the first code reward raises, which in
``multi_domain`` (``val_before_train`` scores code first) is after the model has loaded and vLLM
has started. So ``python -m pac_verl.main`` checks the sandbox before Ray starts, and
``pac-verl preflight`` in its node table, whenever the run's training or validation files hold
code rows (``extra_info.type == "code"``, read as that one column), and never when they hold
none: ``multi_level`` runs no code and needs no sandbox.

The sandbox is checked as the reward workers will run it: the config's ``reward_kwargs.sandbox``
group, one real program on its backend (:func:`~pac_verl.verifiers.sandbox.require_sandbox`).
A config whose reward function is not ours (no ``sandbox`` group) is not checked.
"""

from __future__ import annotations

from pathlib import Path

from pac_verl.errors import UserError

CODE_TYPE = "code"
KEY = "reward.custom_reward_function.reward_kwargs.sandbox"
# what a user in a container without a delegated cgroup or user namespaces sets
# (docs/guides/sandbox.md)
WAYS_OUT = (
    f"where strict isolation cannot run (a container without a delegated cgroup or user "
    f"namespaces), set {KEY}.isolation=namespaces (no cgroup: per-process limits; needs user "
    f"namespaces) or run a SandboxFusion service and set {KEY}.backend=sandbox_fusion "
    f"{KEY}.fusion_url=http://HOST:8080/run_code (see docs/guides/sandbox.md)"
)


def _files(cfg, key: str) -> list[str]:
    value = cfg.data.get(key)
    if value is None:
        return []
    return [str(value)] if isinstance(value, str) else [str(v) for v in value]


def code_rows(cfg) -> dict[str, int]:
    """Rows with ``extra_info.type == "code"`` per training and validation file (only that column
    is read). A file that does not exist or has no such column is a UserError naming it."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    counts: dict[str, int] = {}
    for key in ("train_files", "val_files"):
        for f in _files(cfg, key):
            if not Path(f).is_file():
                raise UserError(f"data.{key}: no such file {f} (build it with pac-verl prep, or "
                                f"set setting.data_dir / data.{key})")  # fmt: skip
            try:
                column = pq.read_table(f, columns=["extra_info.type"]).column(0)
            except (OSError, KeyError, ValueError) as err:  # pyarrow's errors derive from these
                raise UserError(f"data.{key}: {f}: no readable extra_info.type column "
                                f"({str(err).splitlines()[0][:120]})") from None  # fmt: skip
            counts[f] = int(pc.sum(pc.equal(column, CODE_TYPE)).as_py() or 0)
    return counts


def ours(cfg) -> bool:
    """The config's reward function is ours (it has the sandbox group the reward workers read)."""
    from omegaconf import OmegaConf

    missing = object()
    return OmegaConf.select(cfg, KEY, default=missing) is not missing


def sandbox_problem(cfg) -> tuple[str | None, dict]:
    """(why code rewards cannot run here or None, the sandbox's report) for a run whose data holds
    code rows (the caller counts them)."""
    from pac_verl.verifiers.sandbox import SandboxUnavailable, require_sandbox
    from pac_verl.verifiers.sandbox.settings import from_run_config

    try:
        return None, require_sandbox(from_run_config(cfg))
    except SandboxUnavailable as err:
        return str(err), {}


def require_sandbox_for_data(cfg) -> dict | None:
    """``python -m pac_verl.main``'s check before Ray: a UserError in one line when the data holds
    code rows and the configured sandbox cannot run here; the sandbox's report, or None when the
    data holds no code (nothing is checked then)."""
    if not ours(cfg):
        return None
    n = sum(code_rows(cfg).values())
    if n == 0:
        return None
    problem, report = sandbox_problem(cfg)
    if problem is not None:
        raise UserError(f"the training and validation data hold {n:,} code rows, and the code "
                        f"sandbox cannot run them here: {problem.rstrip('.')}. {WAYS_OUT}")  # fmt: skip
    return report
