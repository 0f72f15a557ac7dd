"""What both smoke runs share: the project's config composed from overrides as the entry point
composes it (value checks included), verl's file-logger metrics read back, and the checks a real
run must pass (:mod:`pac_verl.cpu.smoke` on the CPU, :mod:`pac_verl.cpu.gpu_smoke` on a GPU
node)."""

from __future__ import annotations

import json
from pathlib import Path


def compose(overrides_: list[str]):
    """The config ``python -m pac_verl.main`` would train with these overrides, through the one
    composition and its value checks (:func:`pac_verl.compose.compose_config`): a mistyped key,
    an unknown curriculum or a negative batch is one line naming it, as in ``plan`` and the
    recipes."""
    from pac_verl.compose import compose_config

    return compose_config(overrides_)


def read_metrics(log_root: Path, name: str | None = None) -> dict[int, dict]:
    """verl's file-logger lines of every attempt under ``log_root`` (of the run ``name`` only,
    when given), merged per step."""
    steps: dict[int, dict] = {}
    for path in sorted(log_root.rglob("metrics-*.jsonl")):
        if name is not None and path.parent.name != name:
            continue
        for line in path.read_text().splitlines():
            obj = json.loads(line)
            steps.setdefault(int(obj["step"]), {}).update(obj["data"])
    return steps


def check_run(
    metrics: dict[int, dict],
    rollout: list[dict] | None,
    steps: int,
    val_sources: tuple[str, ...] = (),
) -> list[str]:
    """What a real run must show; returns the failures (empty when all hold). ``rollout``: the
    ``hf`` rollout's weight log (None under vLLM, whose weights are not hashed); ``val_sources``:
    the validation sources the last step must hold a score of."""
    problems = []
    for s in range(1, steps + 1):
        m = metrics.get(s, {})
        if not m.get("actor/grad_norm", 0) > 0:
            problems.append(f"step {s}: actor/grad_norm is {m.get('actor/grad_norm')}, not > 0")
        if s >= 2 and not m.get("actor/kl_loss", 0) > 0:
            problems.append(f"step {s}: actor/kl_loss is {m.get('actor/kl_loss')}, not > 0")
        if "curriculum/entropy" not in m:
            problems.append(f"step {s}: no curriculum/ metrics")
    missing = [v for v in val_sources if val_score(metrics.get(steps, {}), v) is None]
    if missing:
        problems.append(f"step {steps}: no validation of {', '.join(missing)}")
    if rollout is None:
        return problems
    digests = [r["weights_sha256"] for r in rollout]
    if len(digests) != steps + 1 or len(set(digests)) != len(digests):
        problems.append(f"the rollout's weights did not change at every sync: {len(digests)} "
                        f"loads, {len(set(digests))} distinct")  # fmt: skip
    return problems


def val_score(data: dict, source: str) -> float | None:
    """The validation score verl logged for ``source`` at one step (None: not validated)."""
    from pac_verl.naming import core_val_metric

    return core_val_metric(data, source)
