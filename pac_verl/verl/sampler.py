"""``PACSampler``: the training sampler that asks a controller for every batch.

The rules: docs/concepts/spec.md#belief-and-allocation and
docs/concepts/spec.md#controller-state-and-metrics.

A ``torch.utils.data.Sampler`` that pac-verl builds itself, on every verl line, with
:func:`build_sampler` (``PACSampler(data_source=dataset, data_config=config.data)``):
``PACTrainer`` puts it under its dataloader and the preflight draws from it. verl's own sampler
config (``data.sampler``) is not read; a config that sets it is refused
(:func:`pac_verl.verl.compat.check_data_sampler`). It reads ``data.curriculum``:
``name`` (a controller of :mod:`pac_verl.curriculum`), ``arm_fields``, ``seed``, ``prompt_level``;
every other key is an override of that controller's config (``null`` keeps the controller's own
default). Per batch it asks ``controller.allocate()`` for the arm of each of the
``train_batch_size`` (or ``gen_batch_size``) slots and maps slots to prompts through
:class:`~pac_verl.curriculum.prompts.PromptCurriculum`: the per-arm queues when
``prompt_level`` is null (the paper), else the prompt-level rule it names.

- ``__iter__`` is a lazy generator without side effects until its first ``next()``: the
  ``StatefulDataLoader`` calls ``iter()`` when it restores state, and allocation for a batch happens
  only when the loader asks for that batch (``data.dataloader_num_workers`` must be 0).
- ``state_dict``/``load_state_dict`` hold the controller (posterior, window, RNG, ...), the queues
  and the position in the epoch, so a resumed run draws exactly the batches of the uninterrupted one.
  A state saved after the last batch of an epoch loads as the start of the next epoch (the
  uninterrupted run's generator ends the epoch before its next draw).
- ``restore(state, source)``: what ``PACTrainer`` calls with the state of its own checkpoint file
  (:mod:`pac_verl.verl.checkpoint`). It loads the state and keeps it over the copy in the
  dataloader's state (``data.pt``), which the ``StatefulDataLoader`` applies later, at the
  first ``iter()``: until the next draw, a ``load_state_dict`` is compared with the restored state
  (a warning when they differ) and ignored.
- ``observe(batch)`` feeds a trained step back to the controller; it is idempotent per step (a step
  is recognised by its prompt uids), so a second call for the same step (``update(batch)``) is a
  no-op.
- Prompt identity: verl's batch does not carry the dataset row of a prompt, so ``PACTrainer`` calls
  :meth:`bind` with the uids fit() gave the rows, in dataloader order (before ``balance_batch``
  reorders them); ``observe`` maps uids back to rows for the per-prompt posterior.
- ``refill_rows(k)`` hands out ``k`` rows for groups verl's V1 trainer replaces, from extra
  allocations, and ``bind_rows`` binds their uids.
- ``extra_rows()`` draws one more generation batch from the controller (dynamic sampling, see
  :mod:`pac_verl.verl.trainer`) and ``add_dropped`` hands back groups that were generated but not
  trained, which ``observe`` feeds to the controller with the trained ones.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from omegaconf import DictConfig, OmegaConf
from torch.utils.data import Sampler

from pac_verl.curriculum import make_controller
from pac_verl.curriculum.config import GROUP_KEYS
from pac_verl.curriculum.prompts import PromptCurriculum, prompt_level_config
from pac_verl.errors import UserError
from pac_verl.naming import core_val_metric, val_source_of
from pac_verl.verl.arms import discover_arms
from pac_verl.verl.compat import check_data_sampler
from pac_verl.verl.feedback import extract_feedback

_log = logging.getLogger(__name__)


def build_sampler(data_config, dataset) -> PACSampler:
    """The training sampler of a run: ``PACSampler`` over ``dataset`` (verl's ``data.sampler``
    is refused, not read; the sampler allocates a batch when the loader asks for it, so the
    loader must not prefetch in worker processes)."""
    check_data_sampler(data_config)
    workers = int(data_config.get("dataloader_num_workers", 0) or 0)
    if workers != 0:
        raise UserError(
            f"data.dataloader_num_workers={workers}: the curriculum allocates each batch when the "
            "trainer asks for it; set data.dataloader_num_workers=0"
        )
    return PACSampler(dataset, data_config)


class PACSampler(Sampler):
    def __init__(self, data_source, data_config: DictConfig) -> None:
        cfg = data_config.get("curriculum")
        if cfg is None:
            raise UserError("data.curriculum is not set: choose a curriculum (e.g. curriculum=pac)")
        cfg = (
            OmegaConf.to_container(cfg, resolve=True) if isinstance(cfg, DictConfig) else dict(cfg)
        )
        self.arm_fields = list(cfg.get("arm_fields") or [])
        source = str(data_config.get("train_files", "the training set"))
        dataframe = getattr(data_source, "dataframe", None)
        if dataframe is None or "extra_info" not in dataframe.column_names:
            raise UserError(f"{source}: rows need an extra_info column holding {self.arm_fields}")
        self.arms, pools = discover_arms(dataframe["extra_info"], self.arm_fields, source)
        self.batch_size = int(data_config.get("gen_batch_size") or data_config.train_batch_size)
        seed = int(cfg.get("seed", 0))
        overrides = {k: v for k, v in cfg.items() if k not in GROUP_KEYS and v is not None}
        self.controller = make_controller(str(cfg.get("name", "pac")), self.arms, self.batch_size, seed=seed,
                                          **overrides)  # fmt: skip
        self.prompts = PromptCurriculum(
            pools, seed=seed + 1, config=prompt_level_config(cfg.get("prompt_level"))
        )
        self.queues = self.prompts.queues  # the default path's per-arm queues
        self.num_rows = len(data_source)
        self.batches_per_epoch = max(1, self.num_rows // self.batch_size)
        self.batches_this_epoch = 0
        self._last_uids: frozenset | None = None
        self._last_rows: np.ndarray = np.zeros(0, dtype=np.int64)  # rows of the last draw
        self._uid_rows: dict[str, int] = {}  # uid -> dataset row, bound by the trainer
        self._dropped: list = []  # (arms, rewards [P, G], rows) generated but not trained
        self._refill: list[int] = []  # rows allocated for refills, not handed out yet
        self.adv_estimator = "grpo"  # PACTrainer sets algorithm.adv_estimator (feedback module)
        self._restored: tuple[str, str] | None = None  # (source, state as JSON) until the next draw

    def __len__(self) -> int:
        return self.batches_per_epoch * self.batch_size

    def __iter__(self) -> Iterator[int]:
        while self.batches_this_epoch < self.batches_per_epoch:
            positions = self._draw()
            self.batches_this_epoch += 1
            yield from (int(p) for p in positions)
        self.batches_this_epoch = 0

    def _draw(self) -> np.ndarray:
        self._restored = None  # past the restore: the dataloader's copy can no longer arrive
        self._last_rows = self.prompts.draw(self.controller.allocate())
        return self._last_rows

    def extra_rows(self) -> np.ndarray:
        """Rows of one more generation batch, allocated by the controller (dynamic sampling)."""
        return self._draw()

    def refill_rows(self, count: int) -> np.ndarray:
        """``count`` rows for groups a step must replace (verl's V1 trainer refills failed
        groups): taken in order from extra generation batches the controller allocates
        (:meth:`extra_rows`), the rest kept for the next refill (and in :meth:`state_dict`)."""
        while len(self._refill) < count:
            self._refill.extend(int(r) for r in self.extra_rows())
        rows, self._refill = self._refill[:count], self._refill[count:]
        return np.asarray(rows, dtype=np.int64)

    def bind_rows(self, uids, rows) -> None:
        """Bind uids to the dataset rows they were generated from (refills)."""
        self._uid_rows.update(zip(list(uids), (int(r) for r in rows)))

    def bind(self, uids) -> None:
        """The uids fit() gave the rows of the last draw, in the order they were drawn."""
        uids = list(uids)
        if len(uids) != len(self._last_rows):
            raise UserError(
                f"bind: {len(uids)} uids for a drawn batch of {len(self._last_rows)} rows "
                "(data.dataloader_num_workers must be 0 and the batch must be the sampler's)"
            )
        self._uid_rows.update(zip(uids, self._last_rows.tolist()))

    def add_dropped(self, arms: list[str], rewards, uids) -> None:
        """Groups generated for this step but dropped before training (dynamic sampling)."""
        rows = [self._uid_rows.get(u, -1) for u in uids]
        self._dropped.append((list(arms), np.asarray(rewards, dtype=np.float64), rows))

    def observe(self, batch) -> dict[str, float]:
        """Update the controller with a trained step (once per step); returns its metrics.

        Dropped groups (``add_dropped``) join the trained ones with advantage 0: they were
        generated and scored, and a zero-variance group carries no policy gradient. Groups with
        a response the reward could not judge are left out (:mod:`pac_verl.verl.feedback`).
        """
        fb = extract_feedback(batch, self.arm_fields, self.adv_estimator)
        uids = frozenset(fb.uids.tolist()) | frozenset(fb.unscored_uids.tolist())
        if uids != self._last_uids:
            index = {a: i for i, a in enumerate(self.arms)}
            names = list(fb.arms) + [a for arms, _, _ in self._dropped for a in arms]
            unknown = sorted(set(names) - set(index))
            if unknown:
                raise UserError(f"the step batch has arms {unknown} that the training set does not")
            arm_ids = np.array([index[a] for a in names], dtype=np.int64)
            rewards = np.concatenate([fb.rewards] + [r for _, r, _ in self._dropped])
            advantages = np.concatenate(
                [fb.advantages] + [np.zeros_like(r) for _, r, _ in self._dropped]
            )
            rows = [self._uid_rows.get(u, -1) for u in fb.uids.tolist()]
            rows += [row for _, _, rs in self._dropped for row in rs]
            if self.prompts.config is not None and -1 in rows:
                raise UserError(
                    "curriculum.prompt_level needs the dataset row of every trained prompt: "
                    "train with pac_verl's PACTrainer (python -m pac_verl.main), which binds them"
                )
            self.controller.update(arm_ids, rewards, advantages)
            self.prompts.observe(rows, rewards)
            self._last_uids = uids
            self._uid_rows.clear()
            self._dropped.clear()
        return {**self.controller.metrics(), **self.prompts.metrics(self.arms)}

    def update(self, batch) -> None:
        self.observe(batch)

    def observe_validation(self, metrics: Mapping[str, float]) -> list[str]:
        """Hand a validation's per-source scores (verl's ``val-core/<source>/acc/mean@N``) to a
        controller that learns from them (DUMP's ``validation_update``); returns the arms updated."""
        hook = getattr(self.controller, "observe_validation", None)
        if hook is None:
            return []
        sources = {val_source_of(k) for k in metrics} - {None}
        scores = {s: core_val_metric(metrics, s) for s in sources}
        return hook({s: v for s, v in scores.items() if v is not None})

    def state_dict(self) -> dict[str, Any]:
        return {
            "controller": self.controller.state_dict(),
            "queues": self.queues.state_dict(),
            "prompts": self.prompts.state_dict(),
            "batches_this_epoch": self.batches_this_epoch,
            "last_uids": sorted(self._last_uids) if self._last_uids is not None else None,
            "refill": list(self._refill),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        if self._restored is not None:  # the dataloader's copy of a state restore() loaded
            source, restored = self._restored
            self._restored = None
            if _as_json(state) != restored:
                _log.warning("the dataloader's curriculum state (data.pt) differs from %s; "
                             "the state of %s is kept", source, source)  # fmt: skip
            return
        self.controller.load_state_dict(state["controller"])
        self.queues.load_state_dict(state["queues"])
        if "prompts" in state:  # checkpoints written before prompt-level selection lack it
            self.prompts.load_state_dict(state["prompts"])
        batches = int(state["batches_this_epoch"])
        # the last batch of an epoch drawn: the next draw is the next epoch's first
        self.batches_this_epoch = batches if batches < self.batches_per_epoch else 0
        self._refill = [int(r) for r in state.get("refill", [])]  # older states lack it
        last = state.get("last_uids")
        self._last_uids = frozenset(last) if last is not None else None

    def restore(self, state: Mapping[str, Any], source: str) -> None:
        """Load ``state`` read from ``source`` (a checkpoint file) and keep it over the
        dataloader's own copy until the next draw (module docstring)."""
        self._restored = None
        self.load_state_dict(state)
        self._restored = (source, _as_json(state))


def _as_json(state: Mapping[str, Any]) -> str:
    """A state's canonical text, to compare two states value by value."""
    return json.dumps(state, sort_keys=True, default=repr)
