"""Disk a run's checkpoints need under ``trainer.default_local_dir``, and the free space there.

What verl 0.7.1's ``FSDPCheckpointManager.save_checkpoint`` writes into ``global_step_k/actor``
for ``N`` parameters held in ``fsdp_config.model_dtype`` (``a`` bytes: fp32 by default):

* ``model`` in ``save_contents``: every rank's shard of ``model.state_dict()`` (``a x N`` in all);
* ``optimizer``: every rank's ``optimizer.state_dict()``, AdamW's ``exp_avg`` and ``exp_avg_sq``
  in the parameters' dtype (``2a x N``);
* ``extra``: the learning-rate scheduler and RNG states (kilobytes);
* ``hf_model`` (our default): rank 0 gathers ``get_fsdp_full_state_dict`` (the parameters in
  their own dtype, ``a`` bytes each) and hands it to ``save_pretrained(state_dict=...)`` of a
  bf16 skeleton; the tensors are written as they are, so the Hugging Face copy is ``a x N``
  too (fp32: 4 bytes, not the bf16 2 bytes the skeleton suggests). A tied output head is
  written once, as it is counted once in ``N``.

So a default checkpoint is ``(1 + 2 + 1) x 4 = 16`` bytes per parameter (:data:`PER_PARAM` holds
the factors; ``tests/verl/test_real_workers.py`` checks them against what a real save writes). verl
deletes all but the last ``trainer.max_actor_ckpt_to_keep`` (null or 0 keeps every one:
``total_training_steps / save_freq``, the last step included; 1 keeps two while a save is
written). It forgets the checkpoints of an earlier attempt: a resumed run leaves them on disk, so
they are already out of the free space the plan compares with.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from pac_verl.plan.memory import DTYPE_BYTES, cfg_get
from pac_verl.plan.model import ModelShape

GB = 1000**3
# bytes per parameter of each save_contents entry, in units of model_dtype's bytes
PER_PARAM = {"model": 1, "optimizer": 2, "extra": 0, "hf_model": 1}


@dataclass
class DiskPlan:
    checkpoint_gb: float  # one checkpoint (its Hugging Face copy included)
    kept: int  # checkpoints on disk at once
    folder: Path
    free_gb: float | None  # None: no existing folder on the way to it
    parts_gb: dict[str, float] | None = None  # one checkpoint, by save_contents entry

    @property
    def need_gb(self) -> float:
        return self.kept * self.checkpoint_gb

    @property
    def enough(self) -> bool:
        return self.free_gb is None or self.free_gb >= self.need_gb

    def problem(self) -> str | None:
        """Why the checkpoints do not fit the free space this plan reports, or None."""
        if self.enough:
            return None
        return (f"disk: {self.kept} checkpoint(s) of {self.checkpoint_gb:,.0f} GB = "
                f"{self.need_gb:,.0f} GB, {self.free_gb:,.0f} GB free at {self.folder}: lower "
                "trainer.max_actor_ckpt_to_keep (pac.keep_checkpoints) or raise trainer.save_freq, "
                "or point trainer.default_local_dir at a larger disk")  # fmt: skip


def free_gb(folder: Path) -> float | None:
    """Free space on the file system that holds ``folder`` (or its nearest existing parent)."""
    for p in [folder, *folder.parents]:
        if p.exists():
            return shutil.disk_usage(p).free / GB
    return None


def bytes_per_param(cfg) -> dict[str, int]:
    """Bytes per parameter of one actor checkpoint, by ``save_contents`` entry (module docstring)."""
    actor = cfg.actor_rollout_ref.actor
    dtype = DTYPE_BYTES[str(cfg_get(actor, "fsdp_config.model_dtype", "fp32"))]
    contents = list(cfg_get(actor, "checkpoint.save_contents", ["model", "optimizer", "extra"]))
    return {c: PER_PARAM[c] * dtype for c in contents if c in PER_PARAM}


def plan_disk(cfg, shape: ModelShape) -> DiskPlan:
    parts = {c: b * shape.params / GB for c, b in bytes_per_param(cfg).items() if b}
    steps = int(cfg.trainer.total_training_steps)
    freq = int(cfg_get(cfg, "trainer.save_freq", -1))
    saves = 0 if freq <= 0 else -(-steps // freq)  # every save_freq steps and at the last one
    keep = cfg_get(cfg, "trainer.max_actor_ckpt_to_keep")
    keep = None if keep is None or int(keep) <= 0 else int(keep)  # verl: null or 0 keeps all
    # with 1, verl deletes the old checkpoint only after the new one is written: 2 at a time
    kept = saves if keep is None else min(saves, max(keep, 2))
    folder = Path(str(cfg.trainer.default_local_dir)).expanduser().absolute()
    return DiskPlan(sum(parts.values()), kept, folder, free_gb(folder), parts)
