"""Stand-ins for what verl's ``RayPPOTrainer.fit()`` needs from GPUs, with verl's contracts.

``fit()`` itself, the dataset, sampler, dataloader, batch balancing, GRPO advantages, checkpoint
layout and logger are verl's own; only the objects ``init_workers()`` would create are replaced:

* :class:`StandInRollout`: the agent-loop manager's ``generate_sequences`` (same output keys as
  verl 0.7.1's ``AgentLoopWorker._postprocess``: left-padded prompts, right-padded responses,
  ``rm_scores`` on the last response token, reward extra infos, ``multi_modal_inputs``), scored by
  the project's real reward function ``pac_verl.verifiers.compute_score``;
* :class:`StandInActorWorkerGroup`: the actor worker group: log-probs, ``update_actor`` (which
  trains the scripted policy), checkpoint save/load, dispatch info; called with a ``DataProto``
  (verl 0.7.1's legacy workers) or a ``TensorDict`` without padding (the engine workers verl
  0.9.1's trainer calls), it answers each in its own form;
* :class:`StandInCheckpointManager` and :class:`StandInResourcePool`.

The policy is scripted: a response to a prompt of arm ``a`` is the gold answer with probability
``p_a = base_a + gain_a * (1 - exp(-n_a / scale))``, where ``n_a`` counts the prompts of arm
``a`` trained so far, and a wrong answer otherwise. Draws are seeded by (seed, step, split), so a
run and its resumed copy see the same rollouts when the policy state is the same; a second
training call within a step (dynamic sampling's extra generation batch) gets its own draws.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import torch
from verl import DataProto

from pac_verl.verifiers import compute_score, gold_solution
from pac_verl.verl.feedback import extract_feedback

WRONG = "I cannot solve this. \\boxed{0}"


def arm_of(info) -> str:
    return f"{info['type']}/{min(int(info['difficulty']), 3)}"


class ScriptedPolicy:
    def __init__(self, arms, base: dict, gain: dict, scale: float = 20.0, seed: int = 0):
        self.arms = list(arms)
        self.base, self.gain, self.scale, self.seed = base, gain, scale, seed
        self.trained = {a: 0 for a in self.arms}

    def success(self, arm: str) -> float:
        return self.base[arm] + self.gain[arm] * (1.0 - math.exp(-self.trained[arm] / self.scale))

    def train(self, arms_of_prompts) -> None:
        for arm in arms_of_prompts:
            self.trained[arm] += 1


class StandInRollout:
    """``unscored(step, k, validate) -> bool`` picks responses that the real reward scores as a
    type it has no grader for: it returns them without a verdict (``unknown_type``, ``scored`` 0), as it does an ``overloaded`` or ``grader_timeout`` answer. (A 1 ns ``timeout_s``
    is no sure way: a warm worker answers a Zebra answer within the 1 ms a poll waits at least.)"""

    def __init__(self, policy: ScriptedPolicy, tokenizer, prompt_length: int, response_length: int,
                 unscored=None):  # fmt: skip
        self.policy, self.tok = policy, tokenizer
        self.prompt_length, self.response_length = prompt_length, response_length
        self.unscored = unscored
        self.calls: list[dict] = []  # what was asked: step, validate, arms (for the test)

    def _ids(self, text: str, length: int, left: bool) -> tuple[list[int], list[int]]:
        ids = self.tok(text, add_special_tokens=False)["input_ids"][-length:] if left else (
            self.tok(text, add_special_tokens=False)["input_ids"][:length])  # fmt: skip
        pad = [self.tok.pad_token_id] * (length - len(ids))
        mask = [0] * len(pad) + [1] * len(ids) if left else [1] * len(ids) + [0] * len(pad)
        return (pad + ids, mask) if left else (ids + pad, mask)

    def generate_sequences(self, gen_batch: DataProto) -> DataProto:
        nt = gen_batch.non_tensor_batch
        validate = bool(gen_batch.meta_info.get("validate", False))
        step = int(gen_batch.meta_info.get("global_steps", 0))
        again = sum(1 for c in self.calls if c["step"] == step and c["validate"] == validate)
        rng = np.random.default_rng([self.policy.seed, step, int(validate)] + [again] * (again > 0))
        infos = nt["extra_info"]
        arms = [arm_of(i) for i in infos]
        prompts = [f"{a}#{info['index']}" for a, info in zip(arms, infos)]  # one per response
        self.calls.append({"step": step, "validate": validate, "arms": arms, "prompts": prompts})
        prompts, pmasks, responses, rmasks, scores, extra = [], [], [], [], [], []
        for k, info in enumerate(infos):
            p = self.policy.success(arms[k]) - (0.1 if int(info["difficulty"]) > 3 else 0.0)
            truth = nt["reward_model"][k]["ground_truth"]
            gold = gold_solution(info["type"], truth, info)
            text = gold if rng.random() < p and gold else WRONG
            cut = self.unscored is not None and self.unscored(step, k, validate)
            scored_as = {**info, "type": "no grader"} if cut else info
            result = compute_score(nt["data_source"][k], text, truth, scored_as)  # the real reward
            prompt_text = self.tok.apply_chat_template(
                list(nt["raw_prompt"][k]), add_generation_prompt=True, tokenize=False
            )
            ids, mask = self._ids(prompt_text, self.prompt_length, left=True)
            prompts.append(ids)
            pmasks.append(mask)
            # a response's length depends on the answer, so balance_batch has work to do
            words = " ".join(f"w{(j * 7 + k) % 50}" for j in range(3 + 5 * int(result["acc"])))
            ids, mask = self._ids(words, self.response_length, left=False)
            responses.append(ids)
            rmasks.append(mask)
            scores.append(result["score"])
            extra.append(result)
        prompts, responses = torch.tensor(prompts), torch.tensor(responses)
        pmask, rmask = torch.tensor(pmasks), torch.tensor(rmasks)
        attention = torch.cat([pmask, rmask], dim=1)
        position = torch.clamp(torch.cumsum(attention, dim=1) - 1, min=0)
        rm_scores = torch.zeros(rmask.shape, dtype=torch.float32)
        last = rmask.sum(1) - 1
        rm_scores[torch.arange(len(scores)), last] = torch.tensor(scores, dtype=torch.float32)
        keys = [k for k in extra[0] if k != "score"]
        non_tensors = {
            "__num_turns__": np.full(len(scores), 2, dtype=np.int32),
            "multi_modal_inputs": np.array([{} for _ in scores], dtype=object),
            **{k: np.array([e[k] for e in extra]) for k in keys},
        }
        out = DataProto.from_dict(
            tensors={
                "prompts": prompts,
                "responses": responses,
                "response_mask": rmask,
                "input_ids": torch.cat([prompts, responses], dim=1),
                "attention_mask": attention,
                "position_ids": position,
                "rm_scores": rm_scores,
            },
            non_tensors=non_tensors,
        )
        out.meta_info = {"timing": {"generate_sequences": 0.0}, "reward_extra_keys": keys}
        self.calls[-1]["scores"] = scores
        return out


class StandInActorWorkerGroup:
    """The actor/rollout worker group as ``fit()`` calls it; ``dp_size`` data-parallel ranks."""

    def __init__(self, policy: ScriptedPolicy, dp_size: int = 2):
        self.policy = policy
        self._dispatch_info: dict = {}
        self.dp_size = dp_size
        self.world_size = dp_size
        self.updates: list[list[str]] = []  # arms of the prompts of each update (for the test)
        self.feedback: list = []  # pac_verl's reading of each update's batch (for the test)
        self.batches: list[DataProto] = []  # each update's batch as the actor got it
        self.saved: list[int] = []

    def _query_dispatch_info(self, role: str):
        return list(range(self.dp_size))

    def compute_log_prob(self, batch):
        if isinstance(batch, DataProto):
            shape = batch.batch["responses"].shape
            return DataProto.from_dict(
                tensors={"old_log_probs": torch.zeros(shape), "entropys": torch.zeros(shape)}
            )
        from tensordict import TensorDict
        from verl.utils import tensordict_utils as tu

        ids = batch["input_ids"]  # one jagged row per sequence: log-probs have its layout
        zeros = torch.nested.nested_tensor_from_jagged(
            torch.zeros(ids.values().shape[0]), offsets=ids.offsets()
        )
        out = TensorDict({"log_probs": zeros, "entropy": zeros.clone()}, batch_size=[len(ids)])
        tu.assign_non_tensor_data(out, "metrics", {"mfu": 0.0})
        return out

    def update_actor(self, batch):
        engine = not isinstance(batch, DataProto)
        batch = step_batch(batch)
        uids = batch.non_tensor_batch["uid"]
        infos = batch.non_tensor_batch["extra_info"]
        seen, arms = set(), []
        for uid, info in zip(uids, infos):
            if uid not in seen:
                seen.add(uid)
                arms.append(arm_of(info))
        self.policy.train(arms)
        self.updates.append(sorted(arms))
        self.feedback.append(extract_feedback(batch, ["type", "difficulty"]))
        self.batches.append(batch)
        metrics = {"pg_loss": 0.0, "grad_norm": 1.0, "lr": 1e-6}
        if engine:  # verl 0.9.1's trainer prefixes "actor/" itself
            return worker_output(None, metrics)
        return DataProto(meta_info={"metrics": {f"actor/{k}": v for k, v in metrics.items()}})

    def save_checkpoint(self, local_path, hdfs_path=None, global_step=0, max_ckpt_to_keep=None):
        Path(local_path).mkdir(parents=True, exist_ok=True)
        state = {"trained": self.policy.trained, "global_step": global_step}
        (Path(local_path) / "policy.json").write_text(json.dumps(state))
        self.saved.append(global_step)

    def load_checkpoint(self, local_path, del_local_after_load=False):
        state = json.loads((Path(local_path) / "policy.json").read_text())
        self.policy.trained = dict(state["trained"])


class StandInCheckpointManager:
    def __init__(self):
        self.weights_synced_at: list[int] = []

    def update_weights(self, global_steps: int) -> None:
        self.weights_synced_at.append(global_steps)

    def sleep_replicas(self) -> None:
        pass


class StandInResourcePool:
    def get_n_gpus(self) -> int:
        return 1


def worker_output(batch, metrics: dict):
    """What verl's actor worker returns for ``batch``, its ``metrics`` in it: a ``DataProto`` for
    verl 0.7.1's workers, a ``TensorDict`` for the engine workers that verl 0.9.1's trainer calls
    with a ``TensorDict`` (and whose metrics always hold ``mfu``)."""
    if isinstance(batch, DataProto):
        return DataProto(meta_info={"metrics": metrics})
    from verl.utils import tensordict_utils as tu

    return tu.get_tensordict({}, non_tensor_dict={"metrics": {"mfu": 0.0, **metrics}})


STEP_KEYS = ("token_level_rewards", "advantages", "response_mask")


def step_batch(batch) -> DataProto:
    """The trained step as a ``DataProto`` (what pac_verl's feedback reads), from either form."""
    if isinstance(batch, DataProto):
        return batch
    from verl.utils import tensordict_utils as tu

    non = {k: np.asarray(tu.get(batch, k), dtype=object)
           for k in ("uid", "extra_info", "scored", "reason") if k in batch}  # fmt: skip
    return DataProto.from_dict(tensors={k: batch[k] for k in STEP_KEYS}, non_tensors=non)
