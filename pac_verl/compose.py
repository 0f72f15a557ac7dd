"""Compose the training config ``python -m pac_verl.main`` would train, and refuse a bad one with one
line, before any work starts.

The one composition every tool shares: ``pac-verl preflight`` and ``pac-verl plan``, the
launcher, and ``python -m pac_verl.main`` before Hydra hands the config to verl and Ray starts
(:mod:`pac_verl.checks.config`) all go through :func:`compose_config`, which adds to Hydra's own
checks:

- an interpolation that cannot be resolved names the key behind it (``curriculum.window=abc``);
- a value given on the command line must have the type of the key's default in the composed
  config (``data.train_batch_size=abc`` is refused: verl would crash on it inside a Ray actor);
- the curriculum's fields must fit its controller's config dataclass (types, known keys), and
  ``curriculum=single`` must name its ``train_arms``;
- the code sandbox's settings (``reward.custom_reward_function.reward_kwargs.sandbox``) must fit
  :class:`~pac_verl.verifiers.sandbox.settings.SandboxSettings` (a known isolation level and
  backend, SandboxFusion's address when it is the backend, limits > 0); a ``PAC_SANDBOX_*``
  variable set in this process is named in a warning: training reads the config, not the
  environment;
- the prompt-length filter and the rollout apply one chat template (``backbone.prompt_style``);
- the installed verl line would train the config as written (``data.sampler`` is refused, and on
  verl 0.9.1 ``trainer.use_v1=true``); on 0.9.1 ``actor_rollout_ref.rollout.seed`` is set to
  ``curriculum.seed`` (:mod:`pac_verl.verl.compat`);
- the numbers verl's workers divide by (:func:`check_numbers`): batch sizes and counts >= 1, the
  divisibility verl asserts inside its Ray actors, and a run long enough for its curriculum (more
  steps than PAC's cold start and its trend fit), unless ``pac.allow_short_run=true``
  (``docs/guides/shorten-clean-retry.md``).
"""

from __future__ import annotations

import shlex
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pac_verl.curriculum.config import fits, kind_of, short_run_reason
from pac_verl.curriculum.registry import check_curriculum
from pac_verl.errors import UserError
from pac_verl.paths import anchor_paths

CONFIG_MODULE = "pac_verl.configs"
CONFIG_NAME = "pac_trainer"


def _verl_config_dir() -> str | None:
    """verl's config folder, found without importing verl (``import verl`` loads torch: seconds)."""
    import importlib.util

    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)), "trainer", "config")
    return str(folder) if (folder / "ppo_trainer.yaml").is_file() else None


def _compose(overrides: Sequence[str]):
    """Hydra's compose of ``pac_trainer``; verl's configs are read from their folder (the same
    files as ``pkg://verl.trainer.config``, the search path of ``pac_trainer.yaml``), so that a bad
    config is refused before torch is imported."""
    from hydra import compose, initialize_config_module
    from hydra.core.global_hydra import GlobalHydra

    from pac_verl.resolvers import register_resolvers

    register_resolvers()
    folder = _verl_config_dir()
    search = [f"hydra.searchpath=[file://{folder}]"] if folder else []
    GlobalHydra.instance().clear()
    with initialize_config_module(CONFIG_MODULE, version_base=None):
        return compose(CONFIG_NAME, overrides=[*search, *overrides])


def _resolve(cfg) -> None:
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    try:
        OmegaConf.resolve(cfg)
    except OmegaConfBaseException as err:
        for inner in (err.__cause__, err.__context__):  # a resolver's own one-line error
            if isinstance(inner, UserError):
                raise inner from None
        key = getattr(err, "full_key", None)
        first = str(err).splitlines()[0]
        raise UserError(f"config: {key + ': ' if key else ''}{first}") from None


def _hydra_error(err) -> UserError:
    import difflib
    import re

    text = str(err)
    missing = re.search(r"Could not find '([^'/]+)/([^']+)'", text)
    if missing:  # an unknown group option: its choices, the nearest first, not Hydra's search path
        group, given = missing.groups()
        choices = re.findall(r"^\t(\S+)$", text.split("Config search path")[0], re.MULTILINE)
        near = difflib.get_close_matches(given, choices, n=1, cutoff=0.6)
        hint = f" (did you mean {group}={near[0]}?)" if near else ""
        return UserError(f"config: {group}={given}: no such {group}{hint}; choose one of "
                         f"{', '.join(choices)}")  # fmt: skip
    text = text.split("\nConfig search path")[0]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln[:1] != " "]
    return UserError(f"config: {'; '.join(lines)}")


# configs composed with the group overrides only (what the keys set are checked against), by
# those overrides: read, never changed, so one process composes each once (a sweep's runs share
# theirs); the oldest goes past _BASES_KEPT
_bases: dict[tuple[str, ...], Any] = {}
_BASES_KEPT = 16


def _base(groups: tuple[str, ...]):
    if groups not in _bases:
        if len(_bases) >= _BASES_KEPT:
            del _bases[next(iter(_bases))]
        _bases[groups] = _compose(groups)
    return _bases[groups]


def compose_config(overrides: Sequence[str]):
    """The resolved config ``python -m pac_verl.main`` would train with (module docstring)."""
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    overrides = list(overrides)
    groups = tuple(_group_overrides(overrides))
    values = len(groups) < len(overrides)  # keys are set: check them against the groups' config
    try:
        base = _base(groups) if values else None
        if values:
            _check_override_keys(base, overrides)
        cfg = _compose(overrides)
    except (HydraException, OmegaConfBaseException) as err:
        raise _hydra_error(err) from None
    _check_curriculum(cfg)
    _resolve(cfg)
    if values:
        _check_override_types(cfg, base, overrides)
    _check_estimator(cfg)
    check_numbers(cfg)
    _check_sandbox(cfg)
    _check_chat_template(cfg)
    _check_verl_line(cfg)
    anchor_paths(cfg)
    return cfg


def _check_verl_line(cfg) -> None:
    """A config the installed verl line would not train as written is refused; the keys that
    follow the run's seed on that line are set, as :func:`pac_verl.train.train` sets them
    (:mod:`pac_verl.verl.compat`, no ``import verl``)."""
    from pac_verl.verl import compat

    compat.check_config(cfg)
    compat.adapt_config(cfg)


def _check_chat_template(cfg) -> None:
    """verl 0.7.1 sets ``actor_rollout_ref.model.custom_chat_template`` on its workers' tokenizers
    (the rollout's prompts) but not on the task runner's, whose tokenizer counts prompt lengths for
    ``data.filter_overlong_prompts``; the config hands the template to both through
    ``data.apply_chat_template_kwargs.chat_template``. Two different templates would filter on
    one text and train on another."""
    from omegaconf import OmegaConf

    model = OmegaConf.select(cfg, "actor_rollout_ref.model.custom_chat_template", default=None)
    data = OmegaConf.select(cfg, "data.apply_chat_template_kwargs.chat_template", default=None)
    if model != data:
        raise UserError("data.apply_chat_template_kwargs.chat_template differs from "
                        "actor_rollout_ref.model.custom_chat_template: the prompt-length filter "
                        "would count another text than the rollout reads; set the template with "
                        "backbone.prompt_style or custom_chat_template only")  # fmt: skip


def expand(overrides: Sequence[str]) -> list[list[str]]:
    """Hydra sweep overrides -> one override list per run (runs are the product of the sweeps,
    in the order given; a key given twice keeps its last value, so a recipe's extra arguments
    win)."""
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        parsed = OverridesParser.create().parse_overrides(list(overrides))
    except HydraException as err:
        raise UserError(f"override: {' '.join(str(err).split())}") from None
    last = {o.key_or_group: i for i, o in enumerate(parsed)}
    kept = [o for i, o in enumerate(parsed) if last[o.key_or_group] == i]
    [batch] = BasicSweeper.split_arguments(kept, None)
    return [list(job) for job in batch]


def compose_runs(overrides: Sequence[str]) -> list:
    """:func:`compose_config` of every run of a sweep (``curriculum.seed=0,1,2``: three runs), in
    :func:`expand`'s order; a defect names the run it is in when there are several."""
    jobs = expand(overrides)
    runs = []
    for job in jobs:
        try:
            runs.append(compose_config(job))
        except UserError as err:
            if len(jobs) == 1:
                raise
            raise UserError(f"{err} (in the run {shlex.join(job)})") from None
    return runs


def _group_overrides(overrides: Sequence[str]) -> list[str]:
    """The overrides that choose config groups (``setting=multi_domain``), not values."""
    return [o for o in overrides if "=" in o and "." not in o.split("=", 1)[0]]


# where verl hands a mapping on to a library as it is, so any key may be added with "+": Ray's
# ray.init() keyword arguments and its runtime_env (verl 0.9.1's config holds one, with
# py_executable, merged into ray.init's), FSDP's wrap policy, the model's config overrides, the
# engines' keyword arguments, the reward function's keyword arguments
OPEN_KEYS = ("ray_kwargs.ray_init", "ray_kwargs.ray_init.runtime_env",
             "ray_kwargs.ray_init.runtime_env.*", "*.wrap_policy", "*.override_config",
             "*.engine_kwargs", "*.engine_kwargs.*", "*.reward_kwargs", "*.custom")  # fmt: skip


def _flat_keys(node, prefix: str = "") -> list[str]:
    from omegaconf import DictConfig

    out = []
    for key in list(node) if isinstance(node, DictConfig) else []:
        name = f"{prefix}.{key}" if prefix else str(key)
        out.append(name)
        child = node._get_node(key)
        if isinstance(child, DictConfig) and not child._is_none():
            out += _flat_keys(child, name)
    return out


def nearest_key(key: str, base) -> str | None:
    """The key of ``base`` closest to the mistyped ``key``: among its siblings first, then anywhere."""
    import difflib

    from omegaconf import DictConfig, OmegaConf

    parent, _, leaf = key.rpartition(".")
    node = OmegaConf.select(base, parent, default=None) if parent else base
    siblings = [str(k) for k in node] if isinstance(node, DictConfig) else []
    match = difflib.get_close_matches(leaf, siblings, n=1, cutoff=0.6)
    if match:
        return f"{parent}.{match[0]}" if parent else match[0]
    match = difflib.get_close_matches(key, _flat_keys(base), n=1, cutoff=0.85)
    return match[0] if match else None


def _dataclass_fields(target: str) -> set[str] | None:
    """Field names of the dataclass a verl config section names in ``_target_`` (None: unknown)."""
    import dataclasses
    import importlib

    module, _, name = str(target).rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else None


def _may_add(base, key: str) -> bool:
    """Whether ``+key`` adds a key something reads: under a mapping verl passes on as it is
    (:data:`OPEN_KEYS`, or an empty or null one in the config), or a field of the verl dataclass
    its section is built into (``_target_``)."""
    import fnmatch

    from omegaconf import DictConfig, OmegaConf

    parts = key.split(".")
    for depth in range(len(parts) - 1, -1, -1):
        parent = ".".join(parts[:depth])
        node = OmegaConf.select(base, parent, default="<absent>") if parent else base
        if isinstance(node, str) and node == "<absent>":
            continue  # Hydra creates the missing levels: look further up
        if node is None or (isinstance(node, DictConfig) and len(node) == 0):
            return True
        if any(fnmatch.fnmatchcase(parent, pat) for pat in OPEN_KEYS):
            return True
        if isinstance(node, DictConfig) and "_target_" in node:
            fields = _dataclass_fields(node["_target_"])
            return fields is None or parts[depth] in fields
        return False
    return False


def _has_key(base, key: str) -> bool:
    """``key`` is in ``base`` (a mandatory ``???`` value counts: it is there, to be set)."""
    from omegaconf import DictConfig, OmegaConf

    parent, _, leaf = key.rpartition(".")
    node = OmegaConf.select(base, parent, default=None, throw_on_resolution_failure=False)
    return isinstance(node, DictConfig) and leaf in list(node)  # `in` misses ??? values


def _check_override_keys(base, overrides: Sequence[str]) -> None:
    """Every key set on the command line is one the run's config has, or one ``+`` adds where
    something reads it (:func:`_may_add`); otherwise one line naming the nearest key. The keys
    the config has are checked first: a ``+`` key may import verl to read its dataclass, and a
    mistyped plain key is refused without that wait."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    checked = []
    for ov in OverridesParser.create().parse_overrides(list(overrides)):
        key = ov.key_or_group
        if "." not in key or "/" in key or "@" in key or key.startswith("hydra.") or ov.is_delete():
            continue
        checked.append((ov.is_add() or ov.is_force_add(), key))
    adds = {key for add, key in checked if add}
    for add, key in sorted(checked, key=lambda c: c[0]):  # plain keys first, in order
        if _has_key(base, key) or (not add and key in adds):
            continue
        near = nearest_key(key, base)
        hint = f" (did you mean {near}?)" if near else ""
        if not add:
            raise UserError(f"config: {key} is not a key of this run's config{hint}")
        if not _may_add(base, key):
            raise UserError(f"config: +{key} adds a key that nothing in verl or pac-verl reads"
                            f"{hint}; '+' adds keys only under mappings passed on as they are "
                            "(ray_kwargs.ray_init, override_config, engine_kwargs, reward_kwargs, "
                            "...)")  # fmt: skip


def _check_sandbox(cfg) -> None:
    """The sandbox group as the reward workers will read it (a bad value: one line naming it)."""
    from omegaconf import OmegaConf

    from pac_verl.verifiers.sandbox.settings import CONFIG_KEY, ENV_VARS, from_config, ignored_env

    missing = object()
    group = OmegaConf.select(cfg, CONFIG_KEY, default=missing)
    if group is missing:  # another reward function's kwargs: not ours to check
        return
    from_config(OmegaConf.to_container(group) if OmegaConf.is_config(group) else group)
    field = {var: name for name, var in ENV_VARS.items()}
    for var in ignored_env():
        warnings.warn(f"{var} is set but training does not read it: the sandbox's settings come "
                      f"from the config; set {CONFIG_KEY}.{field[var]}=... instead",
                      stacklevel=2)  # fmt: skip


# verl 0.7.1's compute_advantage calls these with ``config=`` and without the ``old_log_probs``
# they require: a run stops in its first step with a TypeError (pac_verl.verl.feedback)
BROKEN_IN_VERL = ("optimal_token_baseline", "tir_optimal_token_baseline")


def _check_estimator(cfg) -> None:
    from omegaconf import OmegaConf

    estimator = str(OmegaConf.select(cfg, "algorithm.adv_estimator", default="grpo"))
    if estimator in BROKEN_IN_VERL:
        raise UserError(f"algorithm.adv_estimator={estimator}: verl 0.7.1's compute_advantage "
                        "cannot run it (its first step raises a TypeError); choose another "
                        "estimator, e.g. grpo or rloo")  # fmt: skip


def _check_override_types(cfg, defaults, overrides: Sequence[str]) -> None:
    """A number or boolean key set on the command line keeps the type of its default (in
    ``defaults``, the config composed with the group overrides only)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from omegaconf import OmegaConf

    plain = []
    for ov in OverridesParser.create().parse_overrides(list(overrides)):
        if "." in ov.key_or_group and not ov.is_delete() and not ov.is_sweep_override():
            plain.append(ov.key_or_group)
    for key in plain:
        default = OmegaConf.select(defaults, key, default=None, throw_on_resolution_failure=False)
        value = OmegaConf.select(cfg, key, default=None)
        if default is not None and not fits(value, default):
            raise UserError(f"{key} must be {kind_of(default)} (default {default}), got {value!r}")


def _check_curriculum(cfg) -> None:
    """The curriculum group as the run would read it, through the one check of
    :func:`pac_verl.curriculum.registry.check_curriculum` (a value that does not resolve is left to
    :func:`_resolve`, which names it)."""
    from omegaconf import OmegaConf

    cur = cfg.get("curriculum")
    if cur is None:
        raise UserError("curriculum is not set: choose one, e.g. curriculum=pac")
    values = {}
    for key in cur:
        value = OmegaConf.select(cur, str(key), throw_on_resolution_failure=False)
        values[str(key)] = OmegaConf.to_object(value) if OmegaConf.is_config(value) else value
    check_curriculum(values)


SHORTEN_DOC = "docs/guides/shorten-clean-retry.md"
# counts that must be >= 1 when set (null: verl derives them)
POSITIVE_KEYS = ("data.train_batch_size", "data.max_prompt_length", "data.max_response_length",
                 "data.val_batch_size", "actor_rollout_ref.rollout.n",
                 "actor_rollout_ref.actor.ppo_mini_batch_size",
                 "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
                 "actor_rollout_ref.actor.ppo_epochs",
                 "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
                 "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
                 "actor_rollout_ref.rollout.tensor_model_parallel_size",
                 "actor_rollout_ref.rollout.max_model_len", "trainer.total_training_steps",
                 "trainer.total_epochs", "trainer.n_gpus_per_node", "trainer.nnodes",
                 "pac.keep_checkpoints")  # fmt: skip


def _number(cfg, key: str):
    from omegaconf import OmegaConf

    value = OmegaConf.select(cfg, key, default=None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_numbers(cfg) -> None:
    """The config's numbers, before anything starts (one line naming the key to change):
    :data:`POSITIVE_KEYS` >= 1; the batch divisions verl 0.7.1 asserts inside its workers (a
    step's ``train_batch_size x rollout.n`` responses split over the GPUs, the PPO mini-batch no
    larger than the batch and, per GPU, a multiple of the micro-batch); and the run's length
    against its curriculum (:func:`check_run_length`)."""
    for key in POSITIVE_KEYS:
        value = _number(cfg, key)
        if value is not None and value < 1:
            raise UserError(f"{key} must be >= 1, got {value}")
    batch, n = _number(cfg, "data.train_batch_size"), _number(cfg, "actor_rollout_ref.rollout.n")
    mini = _number(cfg, "actor_rollout_ref.actor.ppo_mini_batch_size")
    gpus = (_number(cfg, "trainer.n_gpus_per_node") or 1) * (_number(cfg, "trainer.nnodes") or 1)
    dynamic = bool(cfg.actor_rollout_ref.actor.get("use_dynamic_bsz", False))
    if batch and n and not dynamic and (batch * n) % gpus:
        raise UserError(f"data.train_batch_size x actor_rollout_ref.rollout.n = {batch} x {n} = "
                        f"{batch * n} responses per step do not split over {gpus} GPU(s) "
                        "(trainer.n_gpus_per_node x trainer.nnodes): make the product a multiple "
                        f"of {gpus}")  # fmt: skip
    if batch and mini and not dynamic and mini > batch:
        raise UserError(f"actor_rollout_ref.actor.ppo_mini_batch_size={mini} is larger than "
                        f"data.train_batch_size={batch}: lower it to at most {batch}")  # fmt: skip
    micro = _number(cfg, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu")
    sp = _number(cfg, "actor_rollout_ref.actor.ulysses_sequence_parallel_size") or 1
    if mini and n and micro:
        per_gpu = mini * n // max(gpus // sp, 1)  # what verl's actor worker normalises it to
        if per_gpu < 1 or per_gpu % micro:
            raise UserError(f"actor_rollout_ref.actor.ppo_mini_batch_size x rollout.n / GPUs = "
                            f"{mini} x {n} / {max(gpus // sp, 1)} = {per_gpu} responses per GPU, "
                            f"not a multiple of actor_rollout_ref.actor.ppo_micro_batch_size_per_"
                            f"gpu={micro}: choose a micro-batch that divides it")  # fmt: skip
    check_run_length(cfg)


def check_run_length(cfg) -> None:
    """Refuse a run too short for its curriculum
    (:func:`~pac_verl.curriculum.config.short_run_reason`) unless the user says so explicitly
    with ``pac.allow_short_run=true``."""
    from omegaconf import OmegaConf

    if OmegaConf.select(cfg, "pac.allow_short_run", default=False) is True:
        return
    cur = OmegaConf.select(cfg, "curriculum", default=None)
    curriculum = OmegaConf.to_container(cur, resolve=True) if cur is not None else None
    reason = short_run_reason(_number(cfg, "trainer.total_training_steps"), curriculum)
    if reason:
        raise UserError(f"{reason}; run more steps or lower curriculum.cold_start, or set "
                        f"pac.allow_short_run=true to run it anyway ({SHORTEN_DOC})")  # fmt: skip
