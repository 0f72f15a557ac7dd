"""``PACTrainer``: verl's legacy ``RayPPOTrainer`` with the curriculum in the right places.

The sampler: ``_create_dataloader`` puts pac-verl's own ``PACSampler``
(:func:`~pac_verl.verl.sampler.build_sampler`) under the training dataloader, whatever sampler
verl built from its config, on every verl line (:mod:`pac_verl.verl.compat`).

The controller is updated in ``_update_actor`` (after the GRPO advantages are computed, before the
checkpoint is saved, so a run resumed from step k has step k's feedback), and its
``curriculum/...`` metrics travel in the actor output's ``meta_info["metrics"]``, which ``fit``
logs at the same step. After every validation the per-source scores go to the sampler too, for a
controller that learns from them (DUMP's ``validation_update``), except after a resumed
run's validation of a step the uninterrupted run did not validate (:meth:`_extra_validation`).

Prompt identity: ``_get_gen_batch`` is the first method ``fit`` calls with a step's rows (uids
just assigned, dataloader order); it hands the uids to :meth:`PACSampler.bind`, so the per-prompt
posterior learns which dataset row each trained group came from.

Dynamic sampling (DAPO, ``algorithm.filter_groups``). verl 0.7.1 implements it only in the DAPO
recipe's own trainer (``recipe/dapo``, a copy of ``fit``); the main ``RayPPOTrainer.fit`` reads the
config key and ignores it. Here it runs inside ``fit`` at the first method that receives the
step's whole rolled-out batch, ``_balance_batch`` (so ``trainer.balance_batch`` must stay true):
groups whose ``filter_groups.metric`` (``acc``, ``score``, ``seq_reward``, or any per-response
reward extra) has zero spread are dropped; while fewer than ``data.train_batch_size`` groups remain,
the *controller* allocates one more generation batch (:meth:`PACSampler.extra_rows`: allocation,
prompt-level rule, queues, as for a dataloader batch), which is generated and filtered the same
way, up to ``max_num_gen_batches`` generation batches per step (0: no limit); the first
``train_batch_size`` kept groups are trained (DAPO's trim). Every dropped group goes to the
controller with the trained ones (:meth:`PACSampler.add_dropped`, advantage 0), so an arm whose
groups are all solved or all failed still reads as saturated or out of reach. Groups kept beyond
the trim are discarded, as DAPO does. Step metrics: ``curriculum/dynamic/gen_batches``,
``curriculum/dynamic/dropped_groups``, ``curriculum/dynamic/surplus_groups``,
``curriculum/dynamic/unscored_groups`` (below).

Checkpoints. When verl saves ``global_step_k`` the sampler's whole state also goes to its own file,
``global_step_k/pac_state.json`` (:mod:`pac_verl.verl.checkpoint`, written before verl's files,
so verl's ``latest_checkpointed_iteration.txt`` certifies it too); on resume it is read from the
checkpoint verl resumes, before verl loads the model, and wins over the sampler state in
``data.pt``, which verl may not restore (verl 0.9.1 skips it on an epoch boundary). A checkpoint
without the file resumes from the sampler state in its ``data.pt``, read here;
docs/guides/resume.md#what-a-checkpoint-holds.

Unscored answers. Our reward marks a call that ended without a verdict on the answer
(``scored`` = 0: no worker or sandbox slot within ``queue_s``, a grader starved of CPU until
``timeout_s``, a crashed worker, ...; :mod:`pac_verl.verifiers.reward`; an answer too complex to
grade has a verdict, ``too_complex``). Its reward of 0 says nothing about the
answer, and it shifts the group's baseline, so every response of a group holding one would learn
from noise. So a group with an unscored response is left out:

- of the policy update: after verl's advantages, ``_update_actor`` sets every advantage of the
  group to 0, so the group carries no policy gradient, exactly like a group whose rewards are all
  equal (verl trains those with advantage 0 too; KL and entropy terms, when configured, still see
  its tokens, as for such a group). A critic (``gae``) is not shielded: it still fits the 0.
- of the controller's feedback (:func:`pac_verl.verl.feedback.extract_feedback`): not as a
  failure, not as a zero-variance group; the arm's statistics see only judged groups;
- with dynamic sampling, of the kept groups, and of the dropped ones handed to the controller.

Counted per step: ``reward/<arm>/unscored`` (responses, :mod:`pac_verl.verl.reward_metrics`),
``curriculum/unscored_groups`` (groups left out of this update; with dynamic sampling also
``curriculum/dynamic/unscored_groups``, those left out of the generation batches). A step that
leaves out more than :data:`UNSCORED_WARN_SHARE` of its groups logs a warning naming the reasons:
the reward needs more capacity (``reward_kwargs.workers``, ``queue_s``, ``sandbox.concurrency``,
``reward.num_workers``). Validation (verl's ``_validate``) scores an unscored answer 0 like a
wrong one in ``acc``; verl's own ``val-aux/<source>/scored/mean@N`` gives the share that was
judged, and PACTrainer adds ``val-aux/<source>/unscored/count`` and a warning when it is not 0.
"""

from __future__ import annotations

import collections
import logging
import os
import uuid

import numpy as np
import torch
from verl import DataProto
from verl.trainer.ppo.ray_trainer import RayPPOTrainer, compute_response_mask

from pac_verl.errors import UserError
from pac_verl.run_record import checkpointed_step
from pac_verl.verl import checkpoint
from pac_verl.verl.arms import arm_name
from pac_verl.verl.feedback import unscored_rows
from pac_verl.verl.reward_metrics import reward_metrics
from pac_verl.verl.sampler import PACSampler, build_sampler

SEQUENCE_METRICS = ("seq_reward", "seq_final_reward", "score")
#: share of a step's groups left out (an unscored response) above which the step logs a warning
UNSCORED_WARN_SHARE = 0.1
_log = logging.getLogger(__name__)


def leave_out_unscored(batch: DataProto, step: int) -> dict[str, float]:
    """Zero the advantages of every group holding an unscored response (module docstring);
    returns ``curriculum/unscored_groups``, and warns above :data:`UNSCORED_WARN_SHARE`."""
    rows = unscored_rows(batch)
    uids = np.asarray(batch.non_tensor_batch["uid"], dtype=object)
    out, total = len(set(uids[rows])), len(set(uids))
    if out:
        batch.batch["advantages"][torch.from_numpy(rows)] = 0.0
    if total and out / total > UNSCORED_WARN_SHARE:
        scored = np.asarray(batch.non_tensor_batch["scored"], dtype=np.float64)
        reasons = collections.Counter(
            str(r) for r, s in zip(batch.non_tensor_batch["reason"], scored) if s < 1.0
        )
        listed = ", ".join(f"{r} x{n}" for r, n in sorted(reasons.items()))
        _log.warning(
            "step %d: %d of %d groups (%.0f%%) left out of the update, a response could not be "
            "scored (%s): give the reward more capacity (reward_kwargs.workers, queue_s, "
            "sandbox.concurrency, reward.num_workers)", step, out, total, 100 * out / total, listed,
        )  # fmt: skip
    return {"curriculum/unscored_groups": float(out)}


def filter_groups_config(config):
    """``algorithm.filter_groups`` when dynamic sampling is on, else None."""
    fg = config.algorithm.get("filter_groups", None)
    return fg if fg is not None and fg.get("enable", False) else None


def check_filter_groups(config) -> None:
    """Refuse, with one line, what dynamic sampling does not do on either trainer."""
    fg = filter_groups_config(config)
    if str(config.algorithm.adv_estimator) == "remax":
        raise UserError("algorithm.filter_groups with adv_estimator=remax is not supported")
    if fg.get("metric") == "seq_final_reward" and config.algorithm.use_kl_in_reward:
        raise UserError(
            "filter_groups.metric=seq_final_reward includes the KL penalty, which is applied "
            "after filtering here: use seq_reward, or use_kl_in_reward=false"
        )


def too_few_groups(gen_batches: int, have: int, target: int) -> UserError:
    """The error of a step that reached ``max_num_gen_batches`` short of a full batch."""
    return UserError(
        f"dynamic sampling: {gen_batches} generation batches gave {have} groups with reward "
        f"spread, fewer than data.train_batch_size={target}; raise "
        "algorithm.filter_groups.max_num_gen_batches (0 = no limit) or check the data"
    )


def group_metric(batch: DataProto, metric: str | None) -> np.ndarray:
    """Per response, the value dynamic sampling filters on: ``metric`` (null: ``seq_reward``)
    of :data:`SEQUENCE_METRICS` sums ``rm_scores`` over the response; any other name is a
    per-response reward extra."""
    metric = metric or "seq_reward"
    if metric in SEQUENCE_METRICS:
        if "rm_scores" not in batch.batch:
            raise UserError("filter_groups: the rollout returned no rm_scores to filter on")
        mask = batch.batch["response_mask"].float()
        return (batch.batch["rm_scores"].float() * mask).sum(-1).double().cpu().numpy()
    if metric not in batch.non_tensor_batch:
        raise UserError(
            f"filter_groups.metric {metric!r} is not a reward extra of this run; use one of "
            f"{', '.join(SEQUENCE_METRICS + tuple(batch.non_tensor_batch))}"
        )
    return np.asarray(batch.non_tensor_batch[metric], dtype=np.float64)


def split_groups(
    batch: DataProto, metric: str | None, sampler: PACSampler
) -> tuple[np.ndarray, int, int]:
    """Dynamic sampling's filter over the groups (one ``uid``) of ``batch``, rows in generation
    order: a group is kept when its :func:`group_metric` varies (or it has one response) and
    every response was judged; a judged group without spread is dropped and handed to the sampler
    (:meth:`PACSampler.add_dropped`, its ``rm_scores`` per response, groups in generation order);
    a group with an unscored response is left out of both. Returns the kept rows (``[N]`` bool),
    the number dropped and the number left out."""
    value = group_metric(batch, metric)
    uids = np.asarray(batch.non_tensor_batch["uid"], dtype=object)
    groups, first, inverse = np.unique(uids, return_index=True, return_inverse=True)
    spread = np.full(len(groups), -np.inf)
    np.maximum.at(spread, inverse, value)
    low = np.full(len(groups), np.inf)
    np.minimum.at(low, inverse, value)
    sizes = np.bincount(inverse)
    unscored = np.zeros(len(groups), dtype=bool)
    unscored[inverse[unscored_rows(batch)]] = True
    keep_group = ((spread > low) | (sizes == 1)) & ~unscored
    dropped = np.flatnonzero(~keep_group & ~unscored)
    if dropped.size:
        mask = batch.batch["response_mask"].float()
        reward = (batch.batch["rm_scores"].float() * mask).sum(-1).double().cpu().numpy()
        dropped = dropped[np.argsort(first[dropped], kind="stable")]  # generation order
        infos = batch.non_tensor_batch["extra_info"]
        arms = [arm_name(infos[first[g]], sampler.arm_fields, "dropped group") for g in dropped]
        rewards = np.stack([reward[inverse == g] for g in dropped])
        sampler.add_dropped(arms, rewards, [groups[g] for g in dropped])
    return keep_group[inverse], int(dropped.size), int(unscored.sum())


class CurriculumTrainer:
    """What both of pac-verl's trainers (this legacy one and verl 0.9.1's V1 one,
    :mod:`pac_verl.verl.v1_trainer`) do the same way, over verl's trainer base that follows it in
    the MRO: the sampler, the curriculum's checkpoint file, validation feedback and metrics."""

    _validating = False
    _resumed_at: int | None = None  # the step a resume restored the curriculum state of

    def _sampler(self) -> PACSampler | None:
        sampler = getattr(getattr(self, "train_dataloader", None), "sampler", None)
        return sampler if isinstance(sampler, PACSampler) else None

    # ----- checkpoints (module docstring) ---------------------------------------------------------
    def _step_folder(self, resumed: bool = False) -> str:
        """The ``global_step_k`` folder of ``self.global_steps`` as verl names it: under
        ``trainer.default_local_dir``, or ``trainer.resume_from_path`` for the checkpoint
        resumed in ``resume_mode=resume_path``."""
        trainer = self.config.trainer
        name = f"global_step_{self.global_steps}"
        if resumed and trainer.get("resume_mode") == "resume_path":
            return os.path.abspath(str(trainer.resume_from_path))
        return os.path.abspath(os.path.join(trainer.default_local_dir, name))

    def _save_checkpoint(self):
        sampler = self._sampler()
        if sampler is not None:
            checkpoint.write_state(self._step_folder(), self.global_steps, sampler.state_dict())
        return super()._save_checkpoint()

    def _load_checkpoint(self):
        """verl's resume, with the curriculum's state restored from the same checkpoint. The
        checkpoint verl will pick is restored first, so a file that does not fit is refused
        before verl loads the model; if verl then picked another, that one is restored too."""
        sampler = self._sampler()
        ahead = self._checkpoint_to_resume() if sampler is not None else None
        if ahead is not None:
            initial = sampler.state_dict()
            self._restore_curriculum(sampler, *ahead)
        result = super()._load_checkpoint()
        step = getattr(self, "global_steps", 0)
        if sampler is not None and step and (ahead is None or ahead[1] != step):
            self._restore_curriculum(sampler, self._step_folder(resumed=True), step)
        elif ahead is not None and not step:  # verl started afresh after all
            sampler.restore(initial, "the initial state")
            self._resumed_at = None
        return result

    def _checkpoint_to_resume(self) -> tuple[str, int] | None:
        """The ``global_step_k`` folder and step verl's ``_load_checkpoint`` resumes, found as
        it finds them (``resume_mode`` auto: verl's tracker file; ``resume_path``), or None."""
        trainer = self.config.trainer
        mode = trainer.get("resume_mode")
        if mode == "resume_path":
            folder = trainer.get("resume_from_path")
            if not isinstance(folder, str) or "global_step_" not in folder:
                return None  # verl refuses it
        elif mode == "auto" and trainer.get("default_hdfs_dir") is None:
            latest = checkpointed_step(os.path.abspath(trainer.default_local_dir))
            if latest is None:
                return None
            folder = os.path.join(trainer.default_local_dir, f"global_step_{latest}")
        else:
            return None
        step = folder.rstrip("/").split("global_step_")[-1]
        if not step.isdigit() or not os.path.isdir(folder):
            return None
        return os.path.abspath(folder), int(step)

    def _restore_curriculum(self, sampler: PACSampler, folder: str, step: int) -> None:
        """Load the sampler's state of checkpoint ``folder`` (module docstring)."""
        name = os.path.basename(folder)
        state = checkpoint.read_state(folder, step)
        source = f"{name}/{checkpoint.FILE_NAME}"
        if state is None:
            state, source = self._data_pt_sampler_state(folder), f"{name}/data.pt"
            if state is None:
                _log.warning("%s has neither %s nor a sampler state in data.pt: the curriculum "
                             "starts from its prior", name, checkpoint.FILE_NAME)  # fmt: skip
                return
            _log.warning("%s has no %s (written by an older pac-verl): the curriculum state is "
                         "read from its data.pt", name, checkpoint.FILE_NAME)  # fmt: skip
        try:
            sampler.restore(state, source)
        except (UserError, KeyError, TypeError, ValueError) as err:
            what = f"it has no {err}" if isinstance(err, KeyError) else str(err)
            raise UserError(
                f"{source} does not fit this run's curriculum ({what}): resume with the "
                "curriculum and training data the run was started with, or start afresh in a "
                "new trainer.default_local_dir"
            ) from None
        print(f"curriculum state restored from {source} (step {step})")
        self._resumed_at = step

    @staticmethod
    def _data_pt_sampler_state(folder: str) -> dict | None:
        path = os.path.join(folder, "data.pt")
        if not os.path.exists(path):
            return None
        state = torch.load(path, weights_only=False)  # verl's own file, read as verl reads it
        iter_state = state.get("_sampler_iter_state") if isinstance(state, dict) else None
        return iter_state.get("sampler_state") if isinstance(iter_state, dict) else None

    def _validate(self, *args, **kwargs):
        """verl's validation; its per-source scores then go to the sampler (DUMP's
        ``validation_update``), except those of :meth:`_extra_validation`. Rows generated here
        are not training rows: no uid binding."""
        self._validating = True
        try:
            metrics = super()._validate(*args, **kwargs)
        finally:
            self._validating = False
        sampler = self._sampler()
        if sampler is not None and metrics and not self._extra_validation():
            sampler.observe_validation(metrics)
        return metrics

    def _extra_validation(self) -> bool:
        """Whether this is the validation a resumed run does before its first step
        (``trainer.val_before_train``) at a step the uninterrupted run did not validate: verl
        validates after saving a step that is a multiple of ``trainer.test_freq``, so only then
        did the controller see a validation at the resumed step."""
        step = self._resumed_at
        if step is None or self.global_steps != step:
            return False
        freq = int(self.config.trainer.get("test_freq", -1) or -1)
        return not (freq > 0 and step % freq == 0)

    def _val_metrics_update(self, data_sources, sample_uids, reward_extra_infos_dict, *args,
                            **kwargs):  # fmt: skip
        """verl's validation metrics, plus ``val-aux/<source>/unscored/count``: answers our reward
        could not judge, which verl's ``acc`` counts as wrong (module docstring)."""
        metrics = super()._val_metrics_update(
            data_sources, sample_uids, reward_extra_infos_dict, *args, **kwargs
        )
        scored = reward_extra_infos_dict.get("scored")
        if scored is not None and len(scored) == len(data_sources):
            unscored = collections.Counter(
                str(src) for src, s in zip(data_sources, scored) if float(s) < 1.0
            )
            for source in sorted({str(src) for src in data_sources}):
                metrics[f"val-aux/{source}/unscored/count"] = float(unscored[source])
            if unscored:
                listed = ", ".join(f"{src} x{n}" for src, n in sorted(unscored.items()))
                _log.warning("validation answers not scored (counted as wrong in acc): %s", listed)
        return metrics


class PACTrainer(CurriculumTrainer, RayPPOTrainer):
    def _create_dataloader(self, train_dataset, val_dataset, collate_fn, train_sampler):
        """verl's dataloaders, with :func:`build_sampler`'s ``PACSampler`` under the training one
        (verl's sampler, built from its config, is discarded)."""
        if train_dataset is None:
            raise UserError(
                "PACTrainer needs the training dataset (python -m pac_verl.main builds it)"
            )
        sampler = build_sampler(self.config.data, train_dataset)
        return super()._create_dataloader(train_dataset, val_dataset, collate_fn, sampler)

    def fit(self):
        sampler = self._sampler()
        if sampler is not None:  # the controller's advantage signal depends on the estimator
            sampler.adv_estimator = str(self.config.algorithm.adv_estimator)
        self._check_dynamic_sampling()
        return super().fit()

    def _update_actor(self, batch: DataProto) -> DataProto:
        left_out = leave_out_unscored(batch, getattr(self, "global_steps", 0))
        output = super()._update_actor(batch)
        sampler = self._sampler()
        fields = sampler.arm_fields if sampler is not None else None
        metrics = output.meta_info.setdefault("metrics", {})
        metrics.update(left_out)
        metrics.update(reward_metrics(batch, fields))
        if sampler is not None:
            metrics.update(sampler.observe(batch))
        return output

    def _get_gen_batch(self, batch: DataProto) -> DataProto:
        sampler = self._sampler()
        if sampler is not None and not self._validating:
            sampler.bind(batch.non_tensor_batch["uid"])
        return super()._get_gen_batch(batch)

    # ----- dynamic sampling ----------------------------------------------------------------------
    def _filter_groups(self):
        return filter_groups_config(self.config)

    def _check_dynamic_sampling(self) -> None:
        if self._filter_groups() is None:
            return
        if self._sampler() is None:
            raise UserError(
                "algorithm.filter_groups needs the PACSampler under the training dataloader"
            )
        if not self.config.trainer.get("balance_batch", True):
            raise UserError(
                "algorithm.filter_groups runs in PACTrainer's batch-balancing step: "
                "set trainer.balance_batch=true"
            )
        check_filter_groups(self.config)

    def _balance_batch(self, batch: DataProto, metrics, logging_prefix="global_seqlen",
                       keep_minibatch=False):  # fmt: skip
        if self._filter_groups() is not None and not self._validating:
            self._dynamic_sampling(batch, metrics)
        return super()._balance_batch(batch, metrics, logging_prefix, keep_minibatch)

    def _split_groups(self, batch: DataProto, sampler: PACSampler) -> tuple[DataProto, int, int]:
        """:func:`split_groups` with this run's metric; returns the kept rows as a batch."""
        keep, dropped, unscored = split_groups(batch, self._filter_groups().get("metric"), sampler)
        return batch.select_idxs(np.flatnonzero(keep)), dropped, unscored

    def _generate_rows(self, rows) -> DataProto:
        """Roll out dataset ``rows`` as ``fit`` rolls out a dataloader batch."""
        collate = self.train_dataloader.collate_fn
        new = DataProto.from_single_dict(collate([self.train_dataset[int(i)] for i in rows]))
        new.meta_info["temperature"] = self.config.actor_rollout_ref.rollout.temperature
        new.non_tensor_batch["uid"] = np.array([str(uuid.uuid4()) for _ in rows], dtype=object)
        gen = self._get_gen_batch(new)
        gen.meta_info["global_steps"] = self.global_steps
        n = self.config.actor_rollout_ref.rollout.n
        self.checkpoint_manager.update_weights(
            self.global_steps
        )  # wake the replicas (as _validate)
        out = self.async_rollout_manager.generate_sequences(gen.repeat(n, interleave=True))
        self.checkpoint_manager.sleep_replicas()
        out.meta_info.pop("timing", None)
        new = new.repeat(repeat_times=n, interleave=True).union(out)
        if "response_mask" not in new.batch:
            new.batch["response_mask"] = compute_response_mask(new)
        if self.use_rm and "rm_scores" not in new.batch:
            new = new.union(self._compute_reward_colocate(new))
        return new

    def _dynamic_sampling(self, batch: DataProto, metrics: dict) -> None:
        sampler = self._sampler()
        fg = self._filter_groups()
        limit = int(fg.get("max_num_gen_batches", 0) or 0)
        n = self.config.actor_rollout_ref.rollout.n
        target = int(self.config.data.train_batch_size)
        if self.use_rm and "rm_scores" not in batch.batch:
            batch_reward = self._compute_reward_colocate(batch)
            for key in batch_reward.batch:
                batch.batch[key] = batch_reward.batch[key]
        kept, dropped, unscored = self._split_groups(batch, sampler)
        parts, have, gen_batches = [kept], len(kept) // n, 1
        while have < target:
            if limit > 0 and gen_batches >= limit:
                raise too_few_groups(gen_batches, have, target)
            part, d, u = self._split_groups(self._generate_rows(sampler.extra_rows()), sampler)
            parts.append(part)
            have, dropped, gen_batches = have + len(part) // n, dropped + d, gen_batches + 1
            unscored += u
        for part in parts:
            part.meta_info = {}  # the step's meta_info stays batch's own
        merged = DataProto.concat(parts) if len(parts) > 1 else kept
        trained = merged.select_idxs(torch.arange(target * n)) if have > target else merged
        batch.batch, batch.non_tensor_batch = trained.batch, trained.non_tensor_batch
        metrics["curriculum/dynamic/gen_batches"] = gen_batches
        metrics["curriculum/dynamic/dropped_groups"] = dropped
        metrics["curriculum/dynamic/surplus_groups"] = have - target
        metrics["curriculum/dynamic/unscored_groups"] = unscored
