"""Where a run's relative paths live, so that they resolve the same from any directory.

The configs name the data, the run logs and the checkpoints relative (``data/multi_level``,
``runs``, ``checkpoints/pac-verl/<experiment>``). They are taken relative to one root, the
*project home*, never to the current directory:

1. ``$PAC_HOME`` when it is set (the recipes set it to their own checkout unless it is set);
2. else the source checkout ``pac_verl`` is installed from (``pip install -e .``: the folder that
   holds ``pyproject.toml`` and ``recipes/``);
3. else (a wheel install without ``PAC_HOME``) the current directory, which :func:`project_home`
   says in its reason, and every tool prints the absolute paths it uses.

:func:`anchor_paths` rewrites the path keys of a resolved config to absolute paths under that
root (a model path only when it names a folder there: it may be a hub id); the composition every tool shares (:mod:`pac_verl.compose`) and the driver's run record
(:mod:`pac_verl.run_logs`) call it, so the launcher, the preflight, the planner and the training
driver see the same folders, and the Ray processes (whose working directory is not the user's)
receive absolute paths.
"""

from __future__ import annotations

import os
from pathlib import Path

from pac_verl.errors import UserError

ENV = "PAC_HOME"
# the config keys that hold a path of the run's (null or absent keys are left alone)
PATH_KEYS = (
    "setting.data_dir",
    "data.train_files",
    "data.val_files",
    "pac.log_root",
    "trainer.default_local_dir",
    "trainer.rollout_data_dir",
    "trainer.validation_data_dir",
)
# keys that hold either a local folder or a Hugging Face hub id (``Qwen/Qwen2.5-3B``): a relative
# value is anchored only when that folder exists under the root (``data/tiny-cpu``, which
# ``pac-verl prep toy`` writes); otherwise it is left as it is, for verl to read as a hub id
MODEL_KEYS = ("actor_rollout_ref.model.path",)


def _checkout() -> Path | None:
    here = Path(__file__).resolve().parents[1]
    if (here / "pyproject.toml").is_file() and (here / "recipes").is_dir():
        return here
    return None


def project_home() -> tuple[Path, str]:
    """The root relative paths are taken from, and why it is that one (module docstring)."""
    env = os.environ.get(ENV, "").strip()
    if env:
        root = Path(env).expanduser()
        if not root.is_dir():
            raise UserError(f"{ENV}={env}: no such folder (it is the folder relative data, runs/ "
                            "and checkpoints/ paths are taken from)")  # fmt: skip
        return root.absolute(), ENV
    checkout = _checkout()
    if checkout is not None:
        return checkout, "the checkout pac_verl is installed from"
    return Path.cwd(), f"the current directory ({ENV} is not set)"


def anchor(path: str, root: Path) -> str:
    """``path`` made absolute under ``root`` (``~`` expanded; an absolute path is kept)."""
    p = Path(str(path)).expanduser()
    return os.path.normpath(p if p.is_absolute() else root / p)


def anchor_paths(cfg, root: Path | None = None) -> Path:
    """Make the :data:`PATH_KEYS` of the resolved OmegaConf ``cfg`` absolute under ``root``
    (default :func:`project_home`), in place; returns the root."""
    from omegaconf import OmegaConf, open_dict

    root = project_home()[0] if root is None else root
    with open_dict(cfg):
        for key in PATH_KEYS:
            value = OmegaConf.select(cfg, key, default=None)
            if value is None:
                continue
            if OmegaConf.is_list(value) or isinstance(value, list | tuple):
                OmegaConf.update(cfg, key, [anchor(v, root) for v in value], merge=False)
            else:
                OmegaConf.update(cfg, key, anchor(value, root), merge=False)
        for key in MODEL_KEYS:
            value = OmegaConf.select(cfg, key, default=None)
            if isinstance(value, str) and Path(anchor(value, root)).is_dir():
                OmegaConf.update(cfg, key, anchor(value, root), merge=False)
    return root
