"""GPU check: the memory planner's actor-side estimates against measured peaks on one GPU.

``pac-verl plan`` estimates each phase's peak per GPU from the config alone
(:mod:`pac_verl.plan.memory`). This script measures the phases it can on one GPU with nothing but
torch and transformers (no verl, Ray, vLLM or Hydra there), and prints each beside the planner's
figure for the same shape. Two steps (docs/results/planner-gpu.md):

1. On a machine with the project installed (CPU is enough), write the planner's estimates::

       python scripts/gpu/planner_check.py --write-estimates planner_estimates.json

   It composes the training config ``python -m pac_verl.main`` would use on one GPU (FSDP2 over
   one rank, fp32 parameters with bf16 compute, gradient checkpointing, no offload, fixed
   micro-batches of ``--micro-batch`` sequences of ``--seq`` tokens for both the update and the
   log-prob pass) and runs :func:`pac_verl.plan.memory.plan_memory` for each model's shipped
   ``config.json`` (``configs/models/Qwen/Qwen2.5-{0.5B,1.5B,3B}``).

2. On the GPU machine, measure::

       python scripts/gpu/planner_check.py --estimates planner_estimates.json --out OUT

   For each model in the file it builds the model from the same ``config.json`` with random
   weights and runs what verl 0.7.1's FSDP2 actor runs, in its order: one warm-up update (which
   creates the AdamW states), then the measured phases ``old log-prob`` (forward without
   gradients, log-probabilities and entropy of bf16 logits row by row, verl's plain PyTorch path),
   ``update: forward+backward`` (two micro-batches of forward, log-probabilities, a
   policy-gradient loss and backward, the second beside the first's gradients as in a mini-batch;
   against the planner's ``update``) and ``update: optimizer step`` (gradient clipping and AdamW;
   against its ``optimizer step``). Each phase's peak is
   ``torch.cuda.max_memory_allocated`` and ``max_memory_reserved`` after ``empty_cache`` and
   ``reset_peak_memory_stats``. The planner's ``reserve`` (CUDA contexts, NCCL, vLLM's graphs) is
   not in PyTorch's allocator and is left out of the estimates compared. It writes
   ``planner_check.json`` and ``planner_check.md`` under ``--out`` and prints the table.

``--device cpu`` runs the same code on the CPU (the CI test, with a tiny config): CUDA's counters
do not exist there, so the measured figure is the largest sum of the bytes of every tensor storage
alive (created during the check, at its current size), taken after every operation, and reserved
is ``n/a``.

A model is skipped, with a note, when its planned peak exceeds the GPU's memory or when the time
already spent, scaled to its size, would pass ``--time-budget`` seconds (default 420: a rerun fits
in one 15-minute lease).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import sys
import time
import warnings
import weakref
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "configs" / "models" / "Qwen"
DEFAULT_MODELS = ("Qwen2.5-0.5B", "Qwen2.5-1.5B", "Qwen2.5-3B")
GIB = 1024**3
FORMAT = "pac-verl planner_check estimates 1"
# the planner's phases this check measures, and the rows it prints for them
PLANNER_PHASES = ("old log-prob", "update", "optimizer step")
# peaks of the phases: (row, planner phase)
ROWS = (
    ("old log-prob", "old log-prob"),
    ("update: forward+backward", "update"),
    ("update: optimizer step", "optimizer step"),
    ("update: peak", "update, optimizer step"),  # the larger of the two above, on both sides
)
MICRO_BATCHES = 2  # per measured update: the second runs beside the first's gradients
# what stays between phases: (row, the planner's part of its update phase)
RESIDENT = (
    ("resident: parameters", "actor params"),
    ("resident: AdamW states", "actor Adam"),
    ("resident: gradients", "gradients"),
)


class CheckError(Exception):
    """A problem with the inputs: printed as one line, exit status 2."""


def config_path(model: str) -> Path:
    """A shipped model's ``config.json`` (``Qwen2.5-3B``) or a path to a ``config.json``."""
    path = Path(model)
    if path.suffix != ".json":
        path = MODELS / model / "config.json"
    if not path.is_file():
        raise CheckError(f"no config.json for {model!r} (looked at {path})")
    return path


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path.resolve())


# ---------------------------------------------------------------- step 1: the planner (CPU, Hydra)


def plan_overrides(micro_batch: int, seq: int) -> list[str]:
    """The training config of one GPU at a fixed shape (module docstring, step 1)."""
    prompt = max(1, seq // 4)
    a = "actor_rollout_ref"
    return [
        "trainer.n_gpus_per_node=1",
        "trainer.nnodes=1",
        f"{a}.actor.strategy=fsdp2",
        f"{a}.actor.fsdp_config.param_offload=false",
        f"{a}.actor.fsdp_config.optimizer_offload=false",
        f"{a}.actor.fsdp_config.offload_policy=false",
        f"{a}.actor.ulysses_sequence_parallel_size=1",
        f"{a}.actor.use_dynamic_bsz=false",
        f"{a}.actor.ppo_micro_batch_size_per_gpu={micro_batch}",
        f"{a}.rollout.log_prob_use_dynamic_bsz=false",
        f"{a}.rollout.log_prob_micro_batch_size_per_gpu={micro_batch}",
        f"{a}.rollout.tensor_model_parallel_size=1",
        f"{a}.model.enable_gradient_checkpointing=true",
        f"data.max_prompt_length={prompt}",
        f"data.max_response_length={seq - prompt}",
    ]


def write_estimates(models: list[str], micro_batch: int, seq: int, out: Path) -> dict:
    from pac_verl.compose import compose_config
    from pac_verl.plan.memory import Hardware, plan_memory
    from pac_verl.plan.model import read_shape

    paths = [config_path(m) for m in models]
    cfg = compose_config(plan_overrides(micro_batch, seq))
    hw = Hardware()
    fsdp = cfg.actor_rollout_ref.actor.fsdp_config
    entries = []
    for path in paths:
        shape = read_shape(path)
        plan = plan_memory(cfg, shape, hw)
        phases = {p.name: {k: v * GIB for k, v in p.parts.items()} for p in plan.phases}
        label = path.parent.name if path.name == "config.json" else path.stem
        entries.append({"model": label, "config": rel(path), "parameters": shape.params,
                        "phases": {n: phases[n] for n in PLANNER_PHASES}})  # fmt: skip
    doc = {
        "format": FORMAT,
        "micro_batch": micro_batch,
        "seq": seq,
        "tokens": micro_batch * seq,
        "param_dtype": str(fsdp.get("model_dtype") or "fp32"),
        "gradient_checkpointing": bool(cfg.actor_rollout_ref.model.enable_gradient_checkpointing),
        "grad_clip": float(cfg.actor_rollout_ref.actor.get("grad_clip") or 1.0),
        "weight_decay": float(cfg.actor_rollout_ref.actor.optim.weight_decay),
        "reserve_bytes": hw.reserve_gib * GIB,
        "overrides": plan_overrides(micro_batch, seq),
        "models": entries,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def read_estimates(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise CheckError(f"{path}: not a readable estimates file ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckError(f"{path}: not written by planner_check.py --write-estimates")
    return doc


def estimate_of(phases: dict, row: str, planner_phase: str) -> float:
    """The planner's bytes for a measured row, without its reserve: the phase's, or the larger
    of the phases a row names (``update, optimizer step``)."""
    return max(sum(v for k, v in phases[name].items() if k != "reserve")
               for name in planner_phase.split(", "))  # fmt: skip


# ---------------------------------------------------------------- step 2: measure (torch only)


class CudaMeter:
    """Peaks of PyTorch's CUDA caching allocator."""

    def __init__(self, torch, device):
        self.torch, self.device = torch, device

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def start(self) -> None:
        t = self.torch
        gc.collect()
        t.cuda.synchronize(self.device)
        t.cuda.empty_cache()
        t.cuda.reset_peak_memory_stats(self.device)

    def now(self) -> int:
        self.torch.cuda.synchronize(self.device)
        return self.torch.cuda.memory_allocated(self.device)

    def peak(self) -> tuple[int, int | None]:
        t = self.torch
        t.cuda.synchronize(self.device)
        return t.cuda.max_memory_allocated(self.device), t.cuda.max_memory_reserved(self.device)


def make_storage_meter(torch):
    """The CPU's measure (module docstring): every storage an operation returns is remembered
    through a weak reference; after each operation the live storages' current sizes are summed
    (FSDP2 frees and refills its unsharded parameters by resizing their storages)."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class StorageMeter(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.live: dict[int, weakref.ref] = {}
            self.high = 0

        def _add(self, t) -> None:
            inner = getattr(t, "_local_tensor", None)  # a DTensor's shard
            t = inner if inner is not None else t
            try:
                st = t.untyped_storage()
            except (RuntimeError, NotImplementedError):
                return
            key = st._cdata
            if key not in self.live:
                self.live[key] = weakref.ref(st, lambda _r, k=key: self.live.pop(k, None))

        def now(self) -> int:
            total = 0
            for ref in list(self.live.values()):
                st = ref()
                if st is not None:
                    total += st.nbytes()
            return total

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for t in tree_leaves(out):
                if isinstance(t, torch.Tensor):
                    self._add(t)
            self.high = max(self.high, self.now())
            return out

        def start(self) -> None:
            gc.collect()
            self.high = self.now()

        def peak(self) -> tuple[int, int | None]:
            return max(self.high, self.now()), None

    return StorageMeter()


def entropy_from_logits(torch, logits):
    # verl 0.7.1 verl/utils/torch_functional.py entropy_from_logits
    pd = torch.nn.functional.softmax(logits, dim=-1)
    return torch.logsumexp(logits, dim=-1) - torch.sum(pd * logits, dim=-1)


def logprobs_from_logits(torch, logits, labels):
    # verl 0.7.1 logprobs_from_logits_v2, its path without flash-attn's cross-entropy: bf16 logits
    # row by row through log_softmax (one row per token of the packed micro-batch)
    if logits.dtype in (torch.float32, torch.float64):
        picked = torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
        return picked - torch.stack([torch.logsumexp(row, dim=-1) for row in logits])
    rows = []
    for row, label in zip(logits, labels):
        rows.append(torch.nn.functional.log_softmax(row, dim=-1).gather(-1, label.view(1)))
    return torch.cat(rows)


def build_actor(torch, path: Path, est: dict, device, fsdp: bool):
    """The actor as verl 0.7.1's FSDP2 worker builds it: parameters in ``param_dtype`` (fp32),
    each decoder layer and then the root under ``fully_shard`` with bf16 compute and fp32
    gradient reduction, gradient checkpointing without reentrancy, AdamW."""
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.from_pretrained(str(path))
    config.use_cache = False
    dtype = torch.float32 if est["param_dtype"] in ("fp32", "float32") else torch.bfloat16
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(config, dtype=dtype, attn_implementation="sdpa")
    if next(model.parameters()).device.type != torch.device(device).type:
        model.to(device)  # a transformers that builds on the CPU whatever the default device
    if est["gradient_checkpointing"]:
        with warnings.catch_warnings():  # what verl calls; transformers 5.2x renamed it
            warnings.simplefilter("ignore", FutureWarning)
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": False}
            )
    if fsdp:
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

        mesh = init_device_mesh(torch.device(device).type, (1,))
        mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32,
                                  cast_forward_inputs=True)  # fmt: skip
        tied = bool(getattr(config, "tie_word_embeddings", False))
        layer_cls = set(getattr(model, "_no_split_modules", None) or ["Qwen2DecoderLayer"])
        for name, module in model.named_modules():
            leaf = name.rsplit(".", 1)[-1]
            if type(module).__name__ in layer_cls or (
                not tied and leaf in ("embed_tokens", "lm_head")
            ):
                fully_shard(module, mesh=mesh, mp_policy=mp, reshard_after_forward=True)
        fully_shard(model, mesh=mesh, mp_policy=mp, reshard_after_forward=True)
    optim = torch.optim.AdamW(model.parameters(), lr=1e-6, betas=(0.9, 0.999),
                              weight_decay=est["weight_decay"])  # fmt: skip
    return model, optim


def init_dist(torch, device) -> None:
    import torch.distributed as dist

    if not dist.is_initialized():
        backend = "nccl" if torch.device(device).type == "cuda" else "gloo"
        if backend == "nccl":
            torch.cuda.set_device(0)
        dist.init_process_group(backend, store=dist.HashStore(), rank=0, world_size=1)


def measure_model(torch, path: Path, est: dict, device, meter, fsdp: bool) -> dict:
    """Peaks of the phases for one model (module docstring, step 2)."""
    micro, seq = est["micro_batch"], est["seq"]
    res: dict = {}
    meter.start()
    model, optim = build_actor(torch, path, est, device, fsdp)
    res["parameters_built"] = sum(p.numel() for p in model.parameters())
    res["resident: parameters"] = meter.now()
    vocab = model.config.vocab_size
    gen = torch.Generator(device="cpu").manual_seed(0)
    ids = torch.randint(0, vocab, (micro, seq), generator=gen).to(device)
    labels = torch.randint(0, vocab, (micro * seq,), generator=gen).to(device)
    adv = torch.randn(micro * seq, generator=gen).to(device)

    # without FSDP2: bf16 compute through autocast (it caches a bf16 copy of every weight while
    # gradients are on, where FSDP2 holds two layers)
    def compute():
        return contextlib.nullcontext() if fsdp else torch.autocast(ids.device.type, torch.bfloat16)

    def log_prob(grad: bool):
        with torch.set_grad_enabled(grad), compute():
            logits = model(input_ids=ids).logits
            logits = logits.reshape(-1, logits.shape[-1])  # the packed tokens of the micro-batch
            logits.div_(1.0)  # verl divides by the temperature in place
            logp = logprobs_from_logits(torch, logits, labels)
            if not grad:
                entropy_from_logits(torch, logits)
            return logp

    def forward_backward():
        model.train()
        logp = log_prob(True)
        loss = -(logp * adv).mean()
        loss.backward()

    def accumulate():  # a mini-batch of MICRO_BATCHES: gradients add up between backwards
        for i in range(MICRO_BATCHES):
            forward_backward()
            if i == 0:
                res["resident: gradients"] = meter.now() - res["update: forward+backward before"]

    def step():
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=est["grad_clip"])
        optim.step()

    def timed(name, fn):
        meter.start()
        before = meter.now()
        t0 = time.perf_counter()
        fn()
        allocated, reserved = meter.peak()
        res[name] = {"allocated": allocated, "reserved": reserved, "before": before,
                     "after": meter.now(), "seconds": round(time.perf_counter() - t0, 2)}  # fmt: skip

    # warm-up: the first update creates AdamW's states, as the first training step does
    forward_backward()
    step()
    optim.zero_grad(set_to_none=True)
    meter.start()
    res["resident: AdamW states"] = meter.now() - res["resident: parameters"]
    model.eval()
    timed("old log-prob", lambda: log_prob(False))
    res["update: forward+backward before"] = meter.now()
    timed("update: forward+backward", accumulate)
    del res["update: forward+backward before"]
    timed("update: optimizer step", step)
    optim.zero_grad(set_to_none=True)
    both = (res["update: forward+backward"], res["update: optimizer step"])
    res["update: peak"] = {
        "allocated": max(p["allocated"] for p in both),
        "reserved": None if both[0]["reserved"] is None else max(p["reserved"] for p in both),
        "before": both[0]["before"],
        "after": both[1]["after"],
    }
    res["fsdp"] = fsdp
    return res  # the model and its states go with this frame


def table(doc: dict, results: list[dict]) -> list[list[str]]:
    def mib(b):
        return "n/a" if b is None else f"{b / 2**20:,.1f}"

    def ratio(est, got):
        return f"{est / got:.2f}" if got else "n/a"

    rows = []
    for entry, res in zip(doc["models"], results):
        name = entry["model"] + (" (no FSDP2)" if res.get("fsdp") is False else "")
        if "skipped" in res:
            rows.append([name, "all", "-", "-", "-", "-", f"skipped: {res['skipped']}"])
            continue
        for row, phase in ROWS:
            est = estimate_of(entry["phases"], row, phase)
            got = res[row]
            rows.append([name, row, mib(got["allocated"]), mib(got["reserved"]), mib(est),
                         ratio(est, got["allocated"]), phase])  # fmt: skip
        for row, part in RESIDENT:
            est = entry["phases"]["update"][part]
            rows.append([name, row, mib(res[row]), "-", mib(est), ratio(est, res[row]),
                         f"update: {part}"])  # fmt: skip
    return rows


HEADER = ["model", "phase", "measured allocated MiB", "measured reserved MiB",
          "planner MiB (no reserve)", "planner / measured", "planner's figure"]  # fmt: skip


def markdown(doc: dict, rows: list[list[str]], device: str, notes: list[str]) -> str:
    lines = [
        f"planner check on {device}, {time.strftime('%Y-%m-%d')}: micro-batch {doc['micro_batch']}"
        f" x {doc['seq']} tokens, parameters {doc['param_dtype']}, bf16 compute, gradient "
        f"checkpointing {'on' if doc['gradient_checkpointing'] else 'off'}",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "---|" * len(HEADER),
        *("| " + " | ".join(r) + " |" for r in rows),
    ]
    if notes:
        lines += ["", *(f"- {n}" for n in notes)]
    return "\n".join(lines) + "\n"


def device_name(torch, device) -> str:
    if torch.device(device).type == "cuda":
        p = torch.cuda.get_device_properties(device)
        return f"{p.name} ({p.total_memory / GIB:.1f} GiB), torch {torch.__version__}"
    return f"CPU, torch {torch.__version__} (measured: live tensor storage bytes)"


def free(torch, device) -> None:
    gc.collect()
    if device == "cuda":
        torch.cuda.empty_cache()


def run_check(doc: dict, device: str, out: Path, budget: float, fsdp: bool,
              keep_going: bool | None = None) -> list[dict]:  # fmt: skip
    """Measure every model of ``doc``, print the table, write it under ``out``. ``keep_going``
    (default: on a GPU, where a run is one try of a short lease): a model that fails is reported
    in its row and the next one runs; one that fails under FSDP2 is measured again without it,
    and so are the models after it."""
    import torch

    keep_going = device == "cuda" if keep_going is None else keep_going

    if device == "cuda" and not torch.cuda.is_available():
        raise CheckError("--device cuda: no CUDA device here (use --device cpu for the CPU test)")
    for entry in doc["models"]:
        config_path(str(ROOT / entry["config"]))  # a missing one fails before anything runs
    notes = []
    if fsdp:
        try:
            init_dist(torch, device)
        except Exception as err:  # one try per lease: measure without FSDP2 rather than nothing
            fsdp = False
            notes.append(f"FSDP2 unavailable ({type(err).__name__}: {err}); measured without it")
    meter = CudaMeter(torch, device) if device == "cuda" else make_storage_meter(torch)
    total = torch.cuda.get_device_properties(device).total_memory if device == "cuda" else None
    results, t0 = [], time.perf_counter()
    per_param = None  # seconds per parameter of the models measured so far
    with meter:
        for entry in doc["models"]:
            path = ROOT / entry["config"]
            need = max(estimate_of(entry["phases"], r, p) for r, p in ROWS)
            spent = time.perf_counter() - t0
            if total is not None and need > 0.97 * total:
                results.append({"skipped": f"planned {need / GIB:.1f} GiB > {total / GIB:.1f}"})
            elif per_param is not None and spent + per_param * entry["parameters"] > budget:
                results.append({"skipped": f"time budget {budget:.0f} s"})
            else:
                start = time.perf_counter()
                try:
                    res = measure_model(torch, path, doc, device, meter, fsdp)
                except torch.OutOfMemoryError as err:
                    res = {"skipped": f"out of memory ({str(err).splitlines()[0][:80]})"}
                except Exception as err:
                    if not keep_going:
                        raise
                    res = {"skipped": f"failed: {type(err).__name__}: {str(err)[:200]}"}
                    if fsdp:
                        fsdp = False
                        notes.append(f"{entry['model']}: failed under FSDP2 ({res['skipped']}); "
                                     "it and the models after it measured without FSDP2")  # fmt: skip
                        free(torch, device)
                        try:
                            res = measure_model(torch, path, doc, device, meter, fsdp)
                        except Exception as again:  # reported in the row
                            res = {"skipped": f"failed: {type(again).__name__}: "
                                              f"{str(again)[:200]}"}  # fmt: skip
                took = time.perf_counter() - start
                res["seconds"] = round(took, 1)
                per_param = took / entry["parameters"]
                results.append(res)
                if "parameters_built" in res and res["parameters_built"] != entry["parameters"]:
                    notes.append(f"{entry['model']}: built {res['parameters_built']:,} parameters,"
                                 f" the planner counts {entry['parameters']:,}")  # fmt: skip
            free(torch, device)
            print(f"{entry['model']}: {results[-1].get('skipped') or 'measured'} "
                  f"({time.perf_counter() - t0:.0f} s so far)", flush=True)  # fmt: skip
    rows = table(doc, results)
    name = device_name(torch, device)
    width = [max(len(str(x)) for x in col) for col in zip(HEADER, *rows)]
    print(f"\n{name}")
    for r in (HEADER, *rows):
        print("  ".join(str(x).ljust(w) for x, w in zip(r, width)))
    for n in notes:
        print(f"note: {n}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "planner_check.json").write_text(json.dumps(
        {"device": name, "date": time.strftime("%Y-%m-%d"), "estimates": doc,
         "results": results, "header": HEADER, "rows": rows, "notes": notes,
         "seconds": round(time.perf_counter() - t0, 1)}, indent=1) + "\n")  # fmt: skip
    (out / "planner_check.md").write_text(markdown(doc, rows, name, notes))
    print(f"wrote {out / 'planner_check.md'} and planner_check.json "
          f"({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-estimates", metavar="FILE", type=Path,
                    help="step 1: write the planner's estimates (needs the project: Hydra)")  # fmt: skip
    ap.add_argument("--models", nargs="+", default=list(DEFAULT_MODELS),
                    help="shipped model names under configs/models/Qwen, or config.json paths")  # fmt: skip
    ap.add_argument("--micro-batch", type=int, default=2, help="sequences per micro-batch")
    ap.add_argument("--seq", type=int, default=4096, help="tokens per sequence")
    ap.add_argument("--estimates", metavar="FILE", type=Path, help="step 2: measure against FILE")
    ap.add_argument("--out", type=Path, default=Path("planner_check_out"))
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--time-budget", type=float, default=420.0, metavar="S",
                    help="skip a model when the run would pass S seconds (default 420)")  # fmt: skip
    ap.add_argument("--no-fsdp", action="store_true",
                    help="plain module with bf16 autocast instead of FSDP2 over one rank")  # fmt: skip
    args = ap.parse_args(argv)
    try:
        if args.write_estimates:
            if args.micro_batch < 1 or args.seq < 2:
                raise CheckError("--micro-batch must be >= 1 and --seq >= 2")
            from pac_verl.errors import UserError

            try:
                doc = write_estimates(args.models, args.micro_batch, args.seq,
                                      args.write_estimates)  # fmt: skip
            except UserError as err:
                raise CheckError(str(err)) from None
            print(f"wrote {args.write_estimates}: {len(doc['models'])} model(s), "
                  f"{doc['micro_batch']} x {doc['seq']} tokens")  # fmt: skip
            return 0
        if not args.estimates:
            raise CheckError("give --write-estimates FILE (step 1) or --estimates FILE (step 2)")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the GPU machine has no network
        if args.device == "cpu":
            os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
        run_check(read_estimates(args.estimates), args.device, args.out, args.time_budget,
                  not args.no_fsdp)  # fmt: skip
        return 0
    except CheckError as err:
        print(f"planner_check: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
