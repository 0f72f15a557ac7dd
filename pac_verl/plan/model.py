"""A decoder-only model's shape, read from its Hugging Face ``config.json`` (no weights, no network).

The planner needs only what sizes memory: hidden size ``H``, MLP size ``I``, layers ``L``, attention
heads and key/value heads (head size ``d = H / heads``), vocabulary ``V`` and whether the output
head shares the embedding. Parameter count of a Qwen2/Llama-style layer (Qwen2 has q/k/v biases):

    layer = H*H + H (q) + 2*(H*kv*d + kv*d) (k, v) + H*H (o) + 3*H*I (gate, up, down) + 2*H (norms)
    total = L*layer + V*H (embedding) + V*H (output head, unless tied) + H (final norm)

``config.json`` is found, in order: a local model folder, the copy shipped for the paper's
backbones (``pac_verl/configs/models/<hub id>/config.json``: Qwen2.5-3B/7B/32B, and Qwen2.5-0.5B
and 1.5B, which scripts/gpu/planner_check.py also measures), the local Hugging Face cache. Nothing
is downloaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pac_verl.errors import UserError


@dataclass(frozen=True)
class ModelShape:
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    vocab: int
    tied: bool
    qkv_bias: bool = True
    source: str = ""
    max_positions: int | None = None  # max_position_embeddings: vLLM's max_model_len when unset

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def layer_params(self) -> int:
        h, kvd = self.hidden, self.kv_heads * self.head_dim
        bias = (h + 2 * kvd) if self.qkv_bias else 0
        return 2 * h * h + 2 * h * kvd + bias + 3 * h * self.intermediate + 2 * h

    @property
    def embedding_params(self) -> int:
        """Input embedding plus the output head (one matrix when tied)."""
        return self.vocab * self.hidden * (1 if self.tied else 2)

    @property
    def params(self) -> int:
        return self.layers * self.layer_params + self.embedding_params + self.hidden

    def kv_bytes_per_token(self, tp: int = 1, dtype_bytes: int = 2) -> int:
        """KV cache per token on one GPU of a tensor-parallel group: K and V of every layer for the
        GPU's share of the key/value heads (heads are replicated when ``tp`` exceeds them)."""
        kv_here = max(1, self.kv_heads // tp)
        return 2 * self.layers * kv_here * self.head_dim * dtype_bytes

    @classmethod
    def from_config(cls, cfg: dict, source: str = "") -> ModelShape:
        cfg = cfg.get("text_config", cfg)
        need = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                "vocab_size")  # fmt: skip
        missing = [k for k in need if k not in cfg]
        if missing:
            raise UserError(f"{source or 'config.json'}: missing {', '.join(missing)}; the memory "
                            "planner needs a decoder-only model's config.json")  # fmt: skip
        return cls(
            hidden=int(cfg["hidden_size"]),
            intermediate=int(cfg["intermediate_size"]),
            layers=int(cfg["num_hidden_layers"]),
            heads=int(cfg["num_attention_heads"]),
            kv_heads=int(cfg.get("num_key_value_heads") or cfg["num_attention_heads"]),
            vocab=int(cfg["vocab_size"]),
            tied=bool(cfg.get("tie_word_embeddings", False)),
            qkv_bias=cfg.get("model_type", "qwen2") == "qwen2" or bool(cfg.get("attention_bias")),
            source=source,
            max_positions=int(cfg["max_position_embeddings"])
            if cfg.get("max_position_embeddings")
            else None,
        )


def shipped_config(model: str) -> Path | None:
    """The ``config.json`` shipped for a hub id such as ``Qwen/Qwen2.5-7B``, if there is one."""
    base = resources.files("pac_verl.configs") / "models"
    path = Path(str(base), *model.split("/"), "config.json")
    return path if path.is_file() else None


def find_config(model: str) -> Path | None:
    """A local ``config.json`` for ``model`` (folder, shipped copy, Hugging Face cache) or None."""
    folder = Path(model).expanduser()
    if (folder / "config.json").is_file():
        return folder / "config.json"
    shipped = shipped_config(model)
    if shipped is not None:
        return shipped
    if model.count("/") == 1 and not model.startswith((".", "/", "~")):
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(model, "config.json")
        if isinstance(cached, str):
            return Path(cached)
    return None


def backbone_config(backbone: str) -> tuple[str, Path] | None:
    """The hub id and shipped ``config.json`` of a backbone name (``qwen2.5-7b`` ->
    ``Qwen/Qwen2.5-7B``), matched without case, or None."""
    base = Path(str(resources.files("pac_verl.configs") / "models"))
    for path in sorted(base.glob("*/*/config.json")):
        if path.parent.name.lower() == backbone.lower():
            return f"{path.parent.parent.name}/{path.parent.name}", path
    return None


def read_shape(path: Path) -> ModelShape:
    try:
        cfg = json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise UserError(f"{path}: not a readable config.json ({err})") from None
    if not isinstance(cfg, dict):
        raise UserError(f"{path}: not a config.json (a JSON object)")
    return ModelShape.from_config(cfg, str(path))


def load_shape(model: str, config_path: str | None = None) -> ModelShape:
    """The shape of ``model`` (``actor_rollout_ref.model.path``), or of ``config_path`` if given."""
    if config_path:
        if not Path(config_path).expanduser().is_file():
            raise UserError(f"--model-config {config_path}: no such file")
        return read_shape(Path(config_path).expanduser())
    path = find_config(model)
    if path is None:
        raise UserError(f"no config.json for model {model!r} on this machine: give a local model "
                        "folder, or the model's config.json with --model-config PATH")  # fmt: skip
    return read_shape(path)


def _is_hub_id(model: str) -> bool:
    """``Org/name``, as opposed to a folder path (``/models/x``, ``./x``, ``~/x``, ``data/x/y``)."""
    return model.count("/") == 1 and not model.startswith((".", "/", "~"))


def shape_of_run(cfg, config_path: str | None = None) -> tuple[ModelShape, str | None]:
    """The shape the plan uses for a composed config, and a note when it is not the model's own:
    ``--model-config PATH``, else ``actor_rollout_ref.model.path``'s ``config.json``, else (a model
    folder that is not on this machine, e.g. the training node's path) the shipped ``config.json``
    of the run's ``backbone``, said in the note."""
    model = str(cfg.actor_rollout_ref.model.path)
    if config_path or find_config(model) is not None:
        return load_shape(model, config_path), None
    backbone = str((cfg.get("backbone") or {}).get("name") or "")
    shipped = backbone_config(backbone) if backbone else None
    if shipped is None:
        return load_shape(model), None  # the error that names --model-config
    hub_id, path = shipped
    if _is_hub_id(model) and model.rstrip("/").lower() != hub_id.lower():
        raise UserError(f"model {model} has no config.json on this machine and is not the model "
                        f"of backbone={backbone} ({hub_id}), whose shape the plan would use: give "
                        f"--model-config PATH (its config.json), or `hf download {model} "
                        "config.json` where there is network")  # fmt: skip
    return read_shape(path), (f"model {model} has no config.json on this machine: planned "
                              f"from the shipped config.json of {hub_id} (backbone={backbone}); "
                              "give --model-config PATH for another model")  # fmt: skip
