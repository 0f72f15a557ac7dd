"""Peak GPU memory of each phase of a verl 0.7.1 GRPO step, per GPU, from the config alone.

verl's FSDP workers run the phases of a step one after another on every GPU:

* ``rollout``: vLLM generates. vLLM (V1) takes ``gpu_memory_utilization`` of the GPU for its
  weights (one tensor-parallel shard, bf16), its work space and the KV cache; beside it stays what
  the actor keeps on the GPU between phases: its parameter shard unless ``param_offload``, its Adam
  states unless ``optimizer_offload`` (FSDP2's ``offload_policy`` keeps both on the CPU).
* ``old log-prob``: the actor's forward pass over a micro-batch (or ``log_prob_max_token_len_per_gpu``
  tokens with ``use_dynamic_bsz``) without gradients; its logits are ``tokens x V``.
* ``ref log-prob``: the same for the reference model when KL is on (``use_kl_loss`` or
  ``use_kl_in_reward``). verl always keeps the reference's parameters on the CPU.
* ``update``: forward and backward of a PPO micro-batch: parameters, gradients and Adam states
  (FSDP-sharded over the data-parallel GPUs; on the CPU with ``offload_policy``), the layer inputs
  that gradient checkpointing keeps, one layer's activations and their gradients while it is
  recomputed, and the logits with their gradient. The gradients of the mini-batch's earlier
  micro-batches are there while a later one runs.
* ``optimizer step``: AdamW's step after the mini-batch: parameters, gradients and Adam states,
  and the one temporary the size of the parameter shard that torch's ``foreach`` AdamW (its
  default on a GPU) makes for the square roots of the second moments.

Every phase also holds the FSDP all-gathered working set (two decoder layers in bf16: the one in
use and the prefetched next; the root module's embedding and output head) and
:attr:`Hardware.reserve_gib` (CUDA contexts of the two processes per GPU, NCCL buffers, vLLM's
CUDA graphs while it sleeps, allocator fragmentation). The figures are upper estimates: sequences
are taken at ``max_prompt_length + max_response_length`` and the logits at verl's plain PyTorch
path (flash-attn's fused cross-entropy needs less).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pac_verl.errors import UserError
from pac_verl.plan.model import ModelShape

GIB = 1024**3
DTYPE_BYTES = {"fp32": 4, "float32": 4, "bf16": 2, "bfloat16": 2, "fp16": 2, "float16": 2}


@dataclass(frozen=True)
class Hardware:
    """The GPU the plan is for. 79.6 GiB is what an 80 GB H100 reports (81,559 MiB)."""

    gpu_gib: float = 79.6
    reserve_gib: float = 6.0
    # peak bytes per (token x vocabulary entry) of verl's log-prob code on its plain PyTorch path,
    # measured on an H200 by scripts/gpu/planner_check.py (8,192 tokens, Qwen2.5-0.5B to 3B; the
    # same to 0.1 byte for all three). Without gradients, 6.0: the bf16 logits, the entropy's
    # softmax and its product with the logits, 3 x 2 bytes. With them, 8.0: the logits, the saved
    # log-softmax rows and two bf16 gradients. (The CPU measures 6.0-7.9 and 8.7-9.7 at 512-2,048
    # tokens with scripts/bench/plan_logits.py; its kernels keep more temporaries.)
    logit_bytes_forward: int = 6
    logit_bytes_update: int = 8
    # vLLM's profiling run: max_num_seqs rows of fp32 sampler logits
    vllm_sampler_bytes: int = 4


@dataclass
class Phase:
    name: str
    parts: dict[str, float]  # GiB per GPU, by what holds it
    keys: list[str]  # the config keys that lower this phase
    notes: list[str] = field(default_factory=list)

    @property
    def gib(self) -> float:
        return sum(self.parts.values())


@dataclass
class MemoryPlan:
    phases: list[Phase]
    hardware: Hardware
    problems: list[str]  # every reason the config does not fit, one line each
    facts: dict[str, object]

    @property
    def fits(self) -> bool:
        return not self.problems


def cfg_get(node, dotted: str, default=None):
    """``node.a.b`` for ``"a.b"``, or ``default`` when a key is missing or null."""
    for key in dotted.split("."):
        if node is None or key not in node:
            return default
        node = node[key]
    return default if node is None else node


def micro_tokens(section, dynamic: bool, budget_key: str, micro_key: str, seq: int, sp: int):
    """Tokens one GPU holds in one micro-batch: the token budget with ``use_dynamic_bsz`` (verl
    packs up to ``budget x sp`` tokens per sequence-parallel group, ``budget`` per GPU), else
    ``micro-batch x (prompt + response) / sp``."""
    if dynamic:
        budget = int(cfg_get(section, budget_key))
        if budget * sp < seq:
            raise UserError(f"{budget_key}={budget} x ulysses_sequence_parallel_size={sp} is below "
                            f"one sequence of {seq} tokens (max_prompt_length + max_response_length): "
                            "verl refuses it; raise the budget or the sequence parallel size")  # fmt: skip
        return budget
    micro = cfg_get(section, micro_key)
    if micro is None:
        raise UserError(f"{micro_key} is not set and use_dynamic_bsz is off: set one of them")
    return int(micro) * seq / sp


def plan_memory(cfg, shape: ModelShape, hw: Hardware | None = None) -> MemoryPlan:
    """Estimate every phase's peak per GPU for the resolved training config ``cfg``."""
    hw = hw or Hardware()
    arr = cfg.actor_rollout_ref
    actor, rollout, ref, fsdp = arr.actor, arr.rollout, arr.ref, arr.actor.fsdp_config
    world = int(cfg.trainer.n_gpus_per_node) * int(cfg.trainer.nnodes)
    shard = int(cfg_get(fsdp, "fsdp_size", -1))
    shard = world if shard <= 0 else shard
    sp = int(cfg_get(actor, "ulysses_sequence_parallel_size", 1))
    tp = int(rollout.tensor_model_parallel_size)
    seq = int(cfg.data.max_prompt_length) + int(cfg.data.max_response_length)
    n, h, layer, v = shape.params, shape.hidden, shape.layer_params, shape.vocab
    a = DTYPE_BYTES[str(cfg_get(fsdp, "model_dtype", "fp32"))]
    strategy = str(cfg_get(actor, "strategy", "fsdp"))
    on_cpu = strategy == "fsdp2" and bool(cfg_get(fsdp, "offload_policy", False))
    param_off = bool(cfg_get(fsdp, "param_offload", False)) and not on_cpu
    optim_off = bool(cfg_get(fsdp, "optimizer_offload", False)) and not on_cpu
    dynamic = bool(cfg_get(actor, "use_dynamic_bsz", False))
    ckpt = bool(cfg_get(arr, "model.enable_gradient_checkpointing", False))
    kl = bool(cfg_get(actor, "use_kl_loss", False)) or bool(
        cfg_get(cfg, "algorithm.use_kl_in_reward")
    )
    problems: list[str] = []
    if world % tp:
        problems.append(f"actor_rollout_ref.rollout.tensor_model_parallel_size={tp} does not "
                        f"divide the {world} GPUs")  # fmt: skip
    if shape.heads % sp or (shape.kv_heads % sp and sp % shape.kv_heads):
        problems.append(f"actor_rollout_ref.actor.ulysses_sequence_parallel_size={sp} does not "
                        "divide the model's "
                        f"{shape.heads} attention heads / {shape.kv_heads} key-value heads")  # fmt: skip

    params = 0.0 if on_cpu else a * n / shard / GIB
    adam = 0.0 if on_cpu else 2 * a * n / shard / GIB
    grads = 0.0 if on_cpu else a * n / shard / GIB
    gathered = (2 * 2 * layer + 2 * shape.embedding_params) / GIB
    # one no-grad layer's working set per token (bf16): residual, normed input, q, attention out,
    # k and v, and the MLP's gate, up and their product
    fwd_token = 2 * (4 * h + 2 * shape.kv_heads * shape.head_dim + 3 * shape.intermediate)
    # what autograd keeps for one layer per token (bf16): 7 hidden-size tensors, k and v, 4 MLP-size
    train_token = 2 * (7 * h + 2 * shape.kv_heads * shape.head_dim + 4 * shape.intermediate)
    offload_keys = ["actor_rollout_ref.actor.strategy=fsdp2",
                    "actor_rollout_ref.actor.fsdp_config.offload_policy=true"]  # fmt: skip

    # rollout: vLLM's pool beside what the actor keeps on the GPU
    util = float(rollout.gpu_memory_utilization)
    pool = util * hw.gpu_gib
    weights = 2 * n / tp / GIB
    batched = int(cfg_get(rollout, "max_num_batched_tokens", 8192))
    seqs = int(cfg_get(rollout, "max_num_seqs", 1024))
    work = (batched * fwd_token / tp + seqs * v * hw.vllm_sampler_bytes) / GIB
    kv_gib = pool - weights - work
    kv_token = shape.kv_bytes_per_token(tp)
    kv_seqs = max(0.0, kv_gib) * GIB / (kv_token * seq)
    # verl 0.7.1 gives vLLM rollout.max_model_len, or the model's max_position_embeddings when it
    # is null; vLLM refuses to start unless its KV cache holds one sequence of that length
    max_len = int(cfg_get(rollout, "max_model_len") or shape.max_positions or seq)
    kv_tokens = max(0.0, kv_gib) * GIB / kv_token
    rollout_phase = Phase(
        "rollout",
        {
            "actor params": 0.0 if param_off else params,
            "actor Adam": 0.0 if optim_off else adam,
            "vLLM pool": pool,
            "reserve": hw.reserve_gib,
        },
        [
            "actor_rollout_ref.rollout.gpu_memory_utilization",
            "actor_rollout_ref.actor.fsdp_config.param_offload",
            "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
        ],
        [
            f"vLLM pool {pool:.1f} GiB = weights {weights:.1f} + work space {work:.1f} + KV cache "
            f"{kv_gib:.1f} (holds {kv_seqs:.1f} sequences of {seq} tokens per TP group of {tp}; "
            f"max_model_len {max_len})"
        ],
    )
    if kv_tokens < max_len:
        problems.append(f"rollout: vLLM's KV cache ({kv_gib:.1f} GiB of a {pool:.1f} GiB pool) holds "
                        f"{kv_tokens:,.0f} tokens, less than one sequence of max_model_len={max_len} "
                        "tokens, and vLLM refuses to start; raise "
                        "actor_rollout_ref.rollout.gpu_memory_utilization or "
                        "actor_rollout_ref.rollout.tensor_model_parallel_size, or lower "
                        "actor_rollout_ref.rollout.max_model_len")  # fmt: skip

    def forward_phase(name, section, keys, resident: dict[str, float], extra=()):
        t = micro_tokens(section, bool(cfg_get(section, "log_prob_use_dynamic_bsz", dynamic)),
                         "log_prob_max_token_len_per_gpu", "log_prob_micro_batch_size_per_gpu",
                         seq, sp)  # fmt: skip
        parts = dict(resident)
        parts.update({"gathered layers": gathered, "activations": t * fwd_token / GIB,
                      "logits": t * v * hw.logit_bytes_forward / GIB, "reserve": hw.reserve_gib})  # fmt: skip
        return Phase(name, parts, keys + list(extra), [f"{t:.0f} tokens per micro-batch"])

    lp_keys = ["actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu" if dynamic else
               "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
               "actor_rollout_ref.actor.ulysses_sequence_parallel_size"]  # fmt: skip
    phases = [rollout_phase]
    phases.append(forward_phase("old log-prob", rollout, lp_keys,
                                {"actor params": params, "actor Adam": 0.0 if optim_off else adam}))  # fmt: skip
    if kl:
        ref_keys = [k.replace(".rollout.", ".ref.") for k in lp_keys[:1]] + lp_keys[1:]
        phases.append(forward_phase("ref log-prob", ref, ref_keys,
                                    {"actor params": 0.0 if param_off else params,
                                     "actor Adam": 0.0 if optim_off else adam}))  # fmt: skip

    t = micro_tokens(actor, dynamic, "ppo_max_token_len_per_gpu", "ppo_micro_batch_size_per_gpu",
                     seq, sp)  # fmt: skip
    if ckpt:
        act = (shape.layers * t * h * 2 + t * train_token * 2) / GIB  # kept inputs; 1 layer + grads
    else:
        act = (shape.layers * t * train_token + t * train_token) / GIB
    update = Phase(
        "update",
        {
            "actor params": params,
            "gradients": grads,
            "actor Adam": adam,
            "gathered layers": gathered + 4 * (layer + shape.embedding_params) / GIB,
            "activations": act,
            "logits": t * v * hw.logit_bytes_update / GIB,
            "reserve": hw.reserve_gib,
        },
        [
            "actor_rollout_ref.actor.ppo_max_token_len_per_gpu"
            if dynamic
            else "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size",
            *offload_keys,
        ],
        [
            f"{t:.0f} tokens per micro-batch"
            + (
                ""
                if ckpt
                else "; gradient checkpointing is off: every layer's activations are kept"
            )
        ],
    )
    phases.append(update)
    phases.append(Phase(
        "optimizer step",
        {"actor params": params, "gradients": grads, "actor Adam": adam,
         "AdamW temporaries": params, "reserve": hw.reserve_gib},
        offload_keys,
        ["torch's foreach AdamW: one temporary the size of the parameter shard"],
    ))  # fmt: skip
    for p in phases:
        if p.gib > hw.gpu_gib:
            top = ", ".join(f"{k} {v:.1f}" for k, v in sorted(p.parts.items(), key=lambda kv: -kv[1])[:3])  # fmt: skip
            problems.append(f"{p.name}: needs {p.gib:.1f} GiB per GPU of {hw.gpu_gib:.1f} ({top}); "
                            f"change {', '.join(p.keys)}")  # fmt: skip
    facts = {"parameters": n, "GPUs": world, "vLLM max_model_len": max_len, "FSDP shards": shard, "tensor parallel": tp,
             "sequence parallel": sp, "sequence tokens": seq, "strategy": strategy,
             "actor states": "CPU (offload_policy)" if on_cpu else "GPU"}  # fmt: skip
    return MemoryPlan(phases, hw, problems, facts)
