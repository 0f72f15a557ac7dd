"""``PACTrainerV1``: verl 0.9.1's V1 sync trainer (``PPOTrainerSync``) with the curriculum in it.

Opt-in with ``trainer.use_v1=true`` on verl 0.9.1 (docs/development/add-verl-line.md#the-v1-trainer);
the legacy :class:`~pac_verl.verl.trainer.PACTrainer` stays the default. The trainer keeps V1's
mode name ``sync`` (verl branches on it) and is built by pac-verl's own task runner
(:mod:`pac_verl.verl.runner`), never through verl's trainer registry.

Allocation. ``_init_dataloader`` runs verl's, then rebuilds the training dataloader over
:func:`~pac_verl.verl.sampler.build_sampler`'s ``PACSampler`` with batches of
``data.train_batch_size``: one controller allocation per step, whatever ``gen_batch_size`` V1
fetches in (it forces 1 with ``sync_refill_failed_groups``). ``_fetch_one_gen_batch`` takes one
allocation from the dataloader when the previous one is used up, gives its rows uids and binds
them to the rows (:meth:`PACSampler.bind`), and hands it out ``gen_batch_size`` rows at a time.
Refills (failed groups with ``trainer.v1.sampler.sync_refill_failed_groups``) are drawn from the
controller too (:meth:`PACSampler.refill_rows`). So from the same controller state the V1 and
the legacy trainer allocate the same batches.

Feedback. After V1's ``_compute_advantage`` (the step's advantages are in the TransferQueue),
:func:`read_step` reads the step's ``uid``, ``advantages``, rewards, ``response_mask``,
``extra_info`` and the reward's extras (``extra_fields.reward_extra_info``) for its non-padding
rows into a ``DataProto``; groups holding an unscored response get advantage 0, written back to
the TransferQueue (:func:`zero_advantages`) before the actor update, and are left out of the
feedback, as on the legacy path (:mod:`pac_verl.verl.trainer`); the controller is fed
(:meth:`PACSampler.observe`) and the ``curriculum/`` and ``reward/`` metrics go into the step's
metrics. Validation: per-source scores go to the controller (DUMP's ``validation_update``) and
``val-aux/<source>/unscored/count`` is added, as on the legacy path.

Dynamic sampling (``algorithm.filter_groups``). ``_build_replay_buffer`` builds
:class:`DynamicSamplingBuffer`, a subclass of verl's sync ``ReplayBuffer``, with the arguments
verl gives its own; ``_submit_batch_to_rollout`` tells it the order prompts are submitted in. It
filters with the legacy trainer's rule (:func:`~pac_verl.verl.trainer.split_groups`): the groups it
drops go to the controller with advantage 0 (:meth:`PACSampler.add_dropped`), and while too few
groups are kept the controller allocates one more whole generation batch
(``_add_allocation_to_generate``, :meth:`PACSampler.extra_rows`), up to
``max_num_gen_batches``; the step metrics are the legacy trainer's ``curriculum/dynamic/...``.
So from the same controller state and rewards the V1 and the legacy trainer train the same groups
and feed the controller the same groups. Where this differs from verl's own V1 DAPO:
docs/development/add-verl-line.md#the-v1-trainer.

Checkpoints: the sampler's state is written to ``global_step_k/pac_state.json`` and restored from
it on resume, as on the legacy path (V1 also restores ``data.pt`` always).

Not supported on V1 (refused with one line, :func:`check_v1_config`): V1's async modes;
``trainer.v1.sync.parameter_sync_step`` above 1 (a step split into several updates, each of
which would feed the controller as a step); with dynamic sampling, a custom replay buffer
(``trainer.v1.sampler.custom_sampler``), ``max_inflight_gen_batches`` other than 1 and a
colocated reward model (the filter reads the reward while sampling).
"""

from __future__ import annotations

import collections
import copy
import itertools
import time
import uuid

import numpy as np
import torch
import transfer_queue as tq
from omegaconf import OmegaConf, open_dict
from tensordict import TensorDict
from torchdata.stateful_dataloader import StatefulDataLoader
from verl import DataProto
from verl.trainer.ppo.v1.replay_buffer import ReplayBuffer
from verl.trainer.ppo.v1.trainer_sync import PPOTrainerSync
from verl.utils import tensordict_utils as tu
from verl.utils.dataset.rl_dataset import collate_fn

from pac_verl.errors import UserError
from pac_verl.verl.feedback import unscored_rows
from pac_verl.verl.reward_metrics import reward_metrics
from pac_verl.verl.sampler import build_sampler
from pac_verl.verl.trainer import (
    CurriculumTrainer,
    check_filter_groups,
    filter_groups_config,
    leave_out_unscored,
    split_groups,
    too_few_groups,
)


def check_v1_config(config) -> None:
    """Refuse, with one line, what the V1 path does not do."""
    v1 = config.trainer.get("v1", {}) or {}
    mode = str(v1.get("trainer_mode", "sync"))
    if mode != "sync":
        raise UserError(
            f"trainer.v1.trainer_mode={mode}: pac-verl runs verl's V1 trainer in mode sync only"
        )
    sync_steps = int((v1.get("sync", {}) or {}).get("parameter_sync_step", 1) or 1)
    if sync_steps != 1:
        raise UserError(
            f"trainer.v1.sync.parameter_sync_step={sync_steps}: the curriculum allocates and learns "
            "from one whole step; set it to 1"
        )
    fg = filter_groups_config(config)
    if fg is None:
        return
    check_filter_groups(config)
    custom = OmegaConf.select(config, "trainer.v1.sampler.custom_sampler.path", default=None)
    if custom:
        raise UserError(
            "trainer.v1.sampler.custom_sampler with algorithm.filter_groups: pac-verl's dynamic "
            "sampling is its own replay buffer; unset trainer.v1.sampler.custom_sampler"
        )
    inflight = fg.get("max_inflight_gen_batches", 1)
    if inflight not in (None, 1):
        raise UserError(
            f"algorithm.filter_groups.max_inflight_gen_batches={inflight}: the curriculum "
            "allocates one generation batch at a time; set it to 1"
        )
    rm = OmegaConf.select(config, "reward.reward_model", default=None) or {}
    if rm.get("enable", False) and not rm.get("enable_resource_pool", False):
        raise UserError(
            "algorithm.filter_groups with trainer.use_v1=true filters on the reward while "
            "sampling: a colocated reward model scores too late; set "
            "reward.reward_model.enable_resource_pool=true or trainer.use_v1=false"
        )


def _plain(value):
    """A TransferQueue row value as plain Python (tensordict wraps dicts and strings)."""
    value = getattr(value, "data", value)
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    return value


def _objects(values: list) -> np.ndarray:
    """A 1-D object array of ``values`` (``np.array`` of dicts of equal keys would not be 1-D
    for every input)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _column(value) -> list:
    """A TransferQueue column as a list of plain Python values, one per row."""
    rows = value.tolist() if hasattr(value, "tolist") else list(value)
    return [_plain(v) for v in rows]


def read_rows(keys, partition_id: str, tensors: dict[str, str]) -> DataProto:
    """Rows ``keys`` read from the TransferQueue as a ``DataProto``: ``tensors`` (its name ->
    the TransferQueue field) padded to one response width (``response_mask`` as float), ``uid``,
    ``extra_info``, one column per reward extra (``extra_fields.reward_extra_info``; None where
    a row lacks it), and ``tq_key``."""
    fields = list(dict.fromkeys(["uid", "extra_info", "extra_fields", *tensors.values()]))
    data = tq.kv_batch_get(keys=list(keys), partition_id=partition_id, select_fields=fields)
    out = {}
    for name, field in tensors.items():
        value = data[field]
        out[name] = value.to_padded_tensor(0) if value.is_nested else value
    if "response_mask" in out:
        out["response_mask"] = out["response_mask"].float()
    width = max(t.shape[-1] for t in out.values())
    for name, t in out.items():  # one response width (the nested fields may differ)
        if t.shape[-1] < width:
            out[name] = torch.nn.functional.pad(t, (0, width - t.shape[-1]))
    extras = _column(data["extra_fields"])
    extras = [(e or {}).get("reward_extra_info", {}) if isinstance(e, dict) else {} for e in extras]
    non_tensors = {
        "uid": np.array([str(u) for u in _column(data["uid"])], dtype=object),
        "extra_info": _objects(_column(data["extra_info"])),
        "tq_key": np.array(list(keys), dtype=object),
    }
    for name in sorted({k for e in extras for k in e}):
        if name not in non_tensors:
            non_tensors[name] = _objects([e.get(name) for e in extras])
    return DataProto.from_dict(tensors=out, non_tensors=non_tensors)


def read_step(keys, tags, partition_id: str, reward_field: str = "rm_scores") -> DataProto:
    """The non-padding rows of a step (``keys``/``tags`` of its ``KVBatchMeta``) as the
    ``DataProto`` the legacy feedback reads (:func:`read_rows`): ``token_level_rewards`` (from
    ``reward_field``), ``advantages``, ``response_mask``."""
    keep = [k for k, t in zip(keys, tags) if not (t or {}).get("is_padding", False)]
    fields = {"token_level_rewards": reward_field, "advantages": "advantages",
              "response_mask": "response_mask"}  # fmt: skip
    return read_rows(keep, partition_id, fields)


def zero_advantages(keys, partition_id: str) -> None:
    """Write advantage 0 over the whole response of each of ``keys`` to the TransferQueue."""
    if not keys:
        return
    mask = tq.kv_batch_get(keys=list(keys), partition_id=partition_id,
                           select_fields=["response_mask"])["response_mask"]  # fmt: skip
    lengths = mask.offsets().diff().tolist() if mask.is_nested else [mask.shape[-1]] * len(keys)
    zeros = torch.nested.as_nested_tensor(
        [torch.zeros(int(n), dtype=torch.float32) for n in lengths], layout=torch.jagged
    )
    tq.kv_batch_put(keys=list(keys), partition_id=partition_id,
                    fields=TensorDict({"advantages": zeros}, batch_size=[len(keys)]))  # fmt: skip


class DynamicSamplingBuffer(ReplayBuffer):
    """verl's sync ``ReplayBuffer`` with pac-verl's dynamic sampling on the training partition
    (docs/development/add-verl-line.md#the-v1-trainer); validation samples as verl's does.

    ``sample`` waits until every prompt submitted so far has finished, then filters the new
    groups with the legacy trainer's :func:`~pac_verl.verl.trainer.split_groups` (read from the
    TransferQueue in generation order): groups without spread go to the controller
    (:meth:`PACSampler.add_dropped`) and, with groups holding an unscored response, are cleared
    from the TransferQueue. While fewer than ``batch_size`` groups are kept it calls
    ``allocate_fn`` (one more whole controller allocation, generated), up to
    ``max_num_gen_batches`` generation batches per step (0: no limit; past it, the legacy
    trainer's error). It trains the first ``batch_size`` kept groups in generation order and
    clears the rest. Groups without a trajectory (a failed rollout) are cleared with
    ``sync_refill_failed_groups``, else kept as verl keeps them."""

    def __init__(self, *, allocate_fn, sampler_fn, metric, max_num_gen_batches: int, **kwargs):
        super().__init__(**kwargs)
        self.allocate_fn = allocate_fn  # submits one controller allocation for generation
        self.sampler_fn = sampler_fn  # the PACSampler (built after the buffer)
        self.metric = metric
        self.max_num_gen_batches = int(max_num_gen_batches or 0)
        self.order: dict[str, int] = {}  # uid -> position in the order of submission
        self._submissions = itertools.count()

    def submitted(self, uids) -> None:
        """Record the order prompts are submitted in (the trainer calls it for each batch)."""
        for uid in uids:
            self.order[str(uid)] = next(self._submissions)

    def _generation_order(self, key: str) -> tuple:
        uid, *rest = key.split("_")
        return (self.order.get(uid, -1), uid, *(int(x) if x.isdigit() else 0 for x in rest))

    def sample(self, global_steps: int, partition_id: str, batch_size: int):
        if partition_id == "val":
            return super().sample(global_steps, partition_id, batch_size)
        kept: list[str] = []
        seen: set[str] = set()
        counts = collections.Counter(gen_batches=1)
        last_debug = time.time()
        while True:
            self._sync_metadata_from_transfer_queue()
            if self.pending_keys[partition_id] or self.running_keys[partition_id]:
                last_debug = self._wait_for_next_poll(partition_id, last_debug)
                continue
            new = (self.finished_keys[partition_id] | self.failure_keys[partition_id]) - seen
            seen |= new
            kept += self._filter(partition_id, new, counts)
            if len(kept) >= batch_size:
                break
            if 0 < self.max_num_gen_batches <= counts["gen_batches"]:
                raise too_few_groups(counts["gen_batches"], len(kept), batch_size)
            self.allocate_fn()
            counts["gen_batches"] += 1
        selected, surplus = kept[:batch_size], kept[batch_size:]
        self._clear_groups(partition_id, set(surplus))
        for uid in seen:
            self.order.pop(uid, None)
        metrics = {f"curriculum/dynamic/{k}": counts[k] for k in
                   ("gen_batches", "dropped_groups", "unscored_groups")}  # fmt: skip
        metrics["curriculum/dynamic/surplus_groups"] = len(surplus)
        if counts["failed_groups"]:
            metrics["training/rollout_failure/evicted_samples"] = counts["failed_groups"]
        snapshot = dict(self.partitions[partition_id])
        return self._materialize_batch(partition_id, selected, snapshot), metrics

    def _filter(self, partition_id: str, uids: set[str], counts) -> list[str]:
        """Filter the finished groups ``uids``; returns the kept ones in generation order."""
        keys = sorted((k for k in self.partitions[partition_id] if k.split("_")[0] in uids),
                      key=self._generation_order)  # fmt: skip
        kept = set()
        if keys:
            rows = read_rows(keys, partition_id, {"rm_scores": "rm_scores",
                                                  "response_mask": "response_mask"})  # fmt: skip
            keep, dropped, unscored = split_groups(rows, self.metric, self.sampler_fn())
            kept = {k.split("_")[0] for k in np.asarray(keys, dtype=object)[keep]}
            counts["dropped_groups"] += dropped
            counts["unscored_groups"] += unscored
        empty = uids - {k.split("_")[0] for k in keys}  # no trajectory: a failed rollout
        if self.sync_refill_failed_groups:
            counts["failed_groups"] += len(empty)
        else:
            kept |= empty
        self._clear_groups(partition_id, uids - kept)
        return sorted(kept, key=self._generation_order)


class PACTrainerV1(CurriculumTrainer, PPOTrainerSync):
    """The curriculum's checkpoint file, validation feedback and metrics come from
    :class:`~pac_verl.verl.trainer.CurriculumTrainer`, shared with the legacy trainer."""

    _pending: dict | None = None  # the rest of the allocation being handed out

    def __init__(self, config):
        check_v1_config(config)
        super().__init__(config)

    # ----- allocation ------------------------------------------------------------------------------
    def _init_dataloader(self):
        super()._init_dataloader()
        data = copy.deepcopy(self.config.data)
        with open_dict(data):
            data.gen_batch_size = None  # one allocation is a step's train_batch_size prompts
        sampler = build_sampler(data, self.train_dataset)
        sampler.adv_estimator = str(self.config.algorithm.adv_estimator)
        self.train_dataloader = StatefulDataLoader(
            dataset=self.train_dataset,
            batch_size=int(self.config.data.train_batch_size),
            num_workers=0,
            drop_last=True,
            collate_fn=collate_fn,
            sampler=sampler,
        )
        self.train_dataloader_it = None
        self._pending = None

    def _next_allocation(self) -> dict:
        """One controller allocation from the dataloader, its rows given uids bound to them."""
        try:
            if self.train_dataloader_it is None:
                self.train_dataloader_it = iter(self.train_dataloader)
            batch_dict = next(self.train_dataloader_it)
        except StopIteration:
            self.train_dataloader_it = iter(self.train_dataloader)
            batch_dict = next(self.train_dataloader_it)
        uids = [str(uuid.uuid4()) for _ in range(len(batch_dict["raw_prompt"]))]
        batch_dict["uid"] = np.array(uids, dtype=object)
        self._sampler().bind(uids)
        return batch_dict

    def _fetch_one_gen_batch(self):
        """``gen_batch_size`` rows of the current allocation (a new one when it is used up)."""
        size = int(
            self.config.data.get("gen_batch_size", None) or self.config.data.train_batch_size
        )
        if not self._pending or len(self._pending["uid"]) == 0:
            self._pending = self._next_allocation()
        head = {k: v[:size] for k, v in self._pending.items()}
        self._pending = {k: v[size:] for k, v in self._pending.items()}
        return tu.get_tensordict(head)

    def _submit_rows(self, rows) -> list[str]:
        """Submit dataset ``rows`` for generation as V1 submits a batch; returns their uids."""
        batch_dict = collate_fn([self.train_dataset[int(i)] for i in rows])
        uids = [str(uuid.uuid4()) for _ in rows]
        batch_dict["uid"] = np.array(uids, dtype=object)
        batch = tu.get_tensordict(batch_dict)
        tu.assign_non_tensor_data(batch, "global_steps", self.global_steps)
        self._submit_batch_to_rollout(batch)
        return uids

    def _add_prompts_to_generate(self, num_prompts: int) -> int:
        """Refills (failed groups) drawn from the controller (:meth:`PACSampler.refill_rows`)."""
        sampler = self._sampler()
        rows = sampler.refill_rows(num_prompts)
        sampler.bind_rows(self._submit_rows(rows), rows)
        return len(rows)

    def _add_allocation_to_generate(self) -> int:
        """Dynamic sampling's next generation batch: one whole controller allocation
        (:meth:`PACSampler.extra_rows`), its uids bound to its rows."""
        sampler = self._sampler()
        rows = sampler.extra_rows()
        sampler.bind_rows(self._submit_rows(rows), rows)
        return len(rows)

    def _submit_batch_to_rollout(self, batch) -> int:
        if isinstance(getattr(self, "replay_buffer", None), DynamicSamplingBuffer):
            self.replay_buffer.submitted(batch["uid"])
        return super()._submit_batch_to_rollout(batch)

    def _build_replay_buffer(self):
        """verl's buffer; with dynamic sampling, :class:`DynamicSamplingBuffer` built with the
        arguments verl gives its own (DAPO's left to the subclass)."""
        fg = filter_groups_config(self.config)
        if fg is None:
            return super()._build_replay_buffer()
        sampler = self.config.trainer.v1.get("sampler", {}) or {}
        return DynamicSamplingBuffer(
            trainer_mode=self.trainer_mode,
            trainer_config=self.config.trainer.v1.get(self.trainer_mode, {}),
            max_off_policy_threshold=sampler.get("max_off_policy_threshold", None),
            max_off_policy_strategy=sampler.get("max_off_policy_strategy", "drop"),
            sampler_kwargs=sampler.get("sampler_kwargs", {}),
            refill_fn=self._add_prompts_to_generate,
            sync_refill_failed_groups=bool(sampler.get("sync_refill_failed_groups", False)),
            train_batch_size=int(self.config.data.train_batch_size),
            gen_batch_size=1,
            allocate_fn=self._add_allocation_to_generate,
            sampler_fn=self._sampler,
            metric=fg.get("metric"),
            max_num_gen_batches=fg.get("max_num_gen_batches", 0),
        )

    # ----- feedback ---------------------------------------------------------------------------------
    def _compute_advantage(self, batch, metrics: dict):
        batch = super()._compute_advantage(batch, metrics)
        sampler = self._sampler()
        if sampler is None:
            return batch
        reward = "token_level_rewards" if self.config.algorithm.use_kl_in_reward else "rm_scores"
        step = read_step(batch.keys, batch.tags, batch.partition_id, reward)
        rows = unscored_rows(step)
        metrics.update(leave_out_unscored(step, self.global_steps))
        zero_advantages(step.non_tensor_batch["tq_key"][rows].tolist(), batch.partition_id)
        metrics.update(reward_metrics(step, sampler.arm_fields))
        metrics.update(sampler.observe(step))
        return batch
