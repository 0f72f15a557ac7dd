"""A Hugging Face rollout for verl 0.7.1's agent loop, for CPU runs (:mod:`pac_verl.cpu.stack`).

verl 0.7.1 always builds its rollout as server replicas behind the agent loop, and ships replicas
for vLLM, SGLang and TensorRT-LLM only. This is the smallest replica that plays the same part:

* :class:`HFRolloutServer`, a Ray actor per replica that holds the policy as a Hugging Face model
  and samples token-in/token-out (``generate`` returns verl's ``TokenOutput``), one request at a
  time, with a KV cache;
* :class:`HFRolloutReplica`, verl's ``RolloutReplica`` for it (hybrid mode: it shares the actor
  workers' resources and gets its weights from them);
* :class:`HFServerAdapter`, the ``BaseRollout`` that verl's FSDP worker builds by name: in
  ``rollout_mode()`` it receives the actor's full weights and loads them into its replica's server.

Sampling is reproducible: request k with prompt p after a weight load is sampled with a seed
derived from (weights, p, k), so a run resumed from a checkpoint samples what the uninterrupted run
sampled. Like verl's vLLM server, a response carries the log-probs of its tokens when the
sampling parameters ask for them (``logprobs``) and the step of the weights it was sampled with
(``extra_fields["global_steps"]``, which verl 0.9.1's V1 trainer reads). Each load appends one
line (the weights' SHA-256 and the requests served since the last load) to the file named by
``actor_rollout_ref.rollout.custom.pac_hf_rollout_log`` when it is set.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter

import ray
import torch
from verl.workers.rollout.base import BaseRollout
from verl.workers.rollout.replica import RolloutReplica, TokenOutput

from pac_verl.cpu.keys import HF_ROLLOUT_LOG_KEY as LOG_KEY


def server_name(replica_rank: int) -> str:
    return f"pac_hf_rollout_server_{replica_rank}"


def weights_digest(state: dict[str, torch.Tensor]) -> str:
    """SHA-256 over the names and bytes of a state dict, in name order."""
    h = hashlib.sha256()
    for name in sorted(state):
        h.update(name.encode())
        h.update(state[name].detach().to("cpu").contiguous().numpy().tobytes())
    return h.hexdigest()


class HFRolloutServer:
    """The policy as a Hugging Face causal LM, sampling one request at a time."""

    def __init__(self, config, model_config, replica_rank: int):
        from transformers import AutoModelForCausalLM
        from verl.utils.config import omega_conf_to_dataclass
        from verl.workers.config import HFModelConfig

        model_config = omega_conf_to_dataclass(model_config, dataclass_type=HFModelConfig)
        self.config, self.replica_rank = config, replica_rank
        self.model = AutoModelForCausalLM.from_pretrained(
            model_config.local_path, dtype=torch.float32, attn_implementation="sdpa"
        ).eval()
        eos = (
            model_config.generation_config.eos_token_id if model_config.generation_config else None
        )
        tok = model_config.tokenizer
        eos = eos if eos is not None else tok.eos_token_id
        self.eos = set(eos if isinstance(eos, list) else [eos])
        self.digest = weights_digest(self.model.state_dict())
        self.served: Counter = Counter()
        self.global_steps = None  # the step whose weights it holds (verl 0.9.1 passes it)

    def load_weights(self, state: dict[str, torch.Tensor], global_steps=None) -> str:
        self.model.load_state_dict(state, strict=True)
        self.global_steps = global_steps
        requests = sum(self.served.values())
        self.digest, self.served = weights_digest(self.model.state_dict()), Counter()
        path = (self.config.custom or {}).get(LOG_KEY)
        if path:
            with open(path, "a") as f:
                f.write(json.dumps({"replica": self.replica_rank, "weights_sha256": self.digest,
                                    "requests_before": requests}) + "\n")  # fmt: skip
        return self.digest

    def weights_sha256(self) -> str:
        return self.digest

    def _seed(self, prompt_ids: list[int]) -> int:
        key = tuple(prompt_ids)
        k = self.served[key]
        self.served[key] += 1
        h = hashlib.sha256(f"{self.digest}|{k}|{','.join(map(str, key))}".encode())
        return int.from_bytes(h.digest()[:8], "little") & (2**63 - 1)

    @torch.no_grad()
    def generate(self, request_id, prompt_ids, sampling_params, image_data=None, video_data=None):
        gen = torch.Generator().manual_seed(self._seed(list(prompt_ids)))
        temperature = float(sampling_params.get("temperature", 1.0))
        top_k = int(sampling_params.get("top_k", -1) or -1)
        top_p = float(sampling_params.get("top_p", 1.0))
        ids = torch.tensor([list(prompt_ids)], dtype=torch.long)
        out: list[int] = []
        log_probs: list[float] = []  # of each sampled token, when the caller asks (logprobs)
        past = None
        for _ in range(int(self.config.response_length)):
            step = self.model(input_ids=ids, past_key_values=past, use_cache=True)
            past, logits = step.past_key_values, step.logits[0, -1].float()
            if temperature <= 0:
                token = int(torch.argmax(logits))
            else:
                token = _sample(logits / temperature, top_k, top_p, gen)
            out.append(token)
            scaled = logits / temperature if temperature > 0 else logits
            log_probs.append(float(torch.log_softmax(scaled, dim=-1)[token]))
            if token in self.eos:
                break
            ids = torch.tensor([[token]], dtype=torch.long)
        wanted = bool(sampling_params.get("logprobs"))
        return TokenOutput(token_ids=out, log_probs=log_probs if wanted else None,
                           stop_reason="completed",
                           extra_fields={"global_steps": self.global_steps})  # fmt: skip

    # what verl's replica and checkpoint manager call on a server; nothing to do on a CPU
    def wake_up(self):
        pass

    def sleep(self):
        pass

    def clear_kv_cache(self):
        pass

    def abort_all_requests(self):
        return {"aborted_count": 0, "request_ids": []}

    def resume_generation(self):
        pass


def _sample(logits: torch.Tensor, top_k: int, top_p: float, gen: torch.Generator) -> int:
    if 0 < top_k < logits.numel():
        kth = torch.topk(logits, top_k).values[-1]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    if top_p < 1.0:
        sorted_p, order = torch.sort(probs, descending=True)
        drop = torch.cumsum(sorted_p, 0) - sorted_p > top_p
        probs = probs.scatter(0, order, sorted_p.masked_fill(drop, 0.0))
    return int(torch.multinomial(probs, 1, generator=gen))


class HFRolloutReplica(RolloutReplica):
    """verl's rollout replica for :class:`HFRolloutServer` (one server, no GPU of its own)."""

    async def launch_servers(self):
        server = (
            ray.remote(HFRolloutServer)
            .options(name=server_name(self.replica_rank), num_cpus=0, max_concurrency=1)
            .remote(self.config, self.model_config, self.replica_rank)
        )
        self.servers = [server]
        self._server_handle = server
        self._server_address = server_name(self.replica_rank)
        await server.weights_sha256.remote()  # constructed

    def rollout_worker_use_gpu(self) -> bool:
        return False


class HFServerAdapter(BaseRollout):
    """Built by verl's FSDP worker as its rollout: forwards the actor's weights to the server."""

    def __init__(self, config, model_config, device_mesh, replica_rank: int = -1):
        super().__init__(config, model_config, device_mesh)
        rank = int(os.environ.get("RANK", 0))
        size = (
            self.config.tensor_model_parallel_size
            * self.config.data_parallel_size
            * self.config.pipeline_model_parallel_size
        )
        self.replica_rank = rank // size if replica_rank == -1 else replica_rank
        self.is_leader_rank = rank % size == 0

    async def update_weights(self, weights, **kwargs):
        # every rank drains the generator: it gathers FSDP shards collectively
        state = {name: t.detach().to("cpu").clone() for name, t in weights}
        if self.is_leader_rank:
            server = ray.get_actor(server_name(self.replica_rank))
            await server.load_weights.remote(state, kwargs.get("global_steps"))

    async def resume(self, tags: list[str]):
        pass

    async def release(self):
        pass
