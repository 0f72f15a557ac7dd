"""The house (docs/concepts/architecture.md): rooms, the order they import each other in, no import circles, and
every class path verl or Ray loads by name resolving from the string the config holds.

Imports are read from the source with :mod:`ast`, function-local ones included: a local import that
only hides a circle is still a circle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# installed name -> folder (pyproject's package-dir)
PACKAGES = {"pac_verl": "pac_verl", "pac_verl.verifiers": "verifiers",
            "pac_verl.data_prep": "data_prep"}  # fmt: skip

# Each room and the rank it sits at: a module may import modules of its own room or of rooms of a
# lower rank, never of a higher one. Mirrors the layout table of docs/concepts/architecture.md.
ROOMS = [  # (prefix, rank); the longest matching prefix decides
    ("pac_verl.errors", 0),
    ("pac_verl.progress", 0),
    ("pac_verl.outputs", 0),
    ("pac_verl.cli_args", 0),
    ("pac_verl.run_record", 0),
    ("pac_verl.paths", 0),
    ("pac_verl.configs", 0),
    ("pac_verl.curriculum", 1),
    ("pac_verl.verifiers", 1),
    ("pac_verl.naming", 2),
    ("pac_verl.data_prep", 2),
    ("pac_verl.resolvers", 3),
    ("pac_verl.compose", 4),
    ("pac_verl.verl", 4),
    ("pac_verl.run_logs", 4),
    ("pac_verl.plan", 5),
    ("pac_verl.report", 5),
    ("pac_verl.checks", 6),
    ("pac_verl.simulate", 6),
    ("pac_verl.train", 7),
    ("pac_verl.cpu", 8),
    ("pac_verl.main", 9),
    ("pac_verl.launch", 9),
    ("pac_verl.quickstart", 9),
    ("pac_verl.cli", 9),
    ("pac_verl", 0),  # the package's own __init__
]
# the only rooms that may import verl: the seam, the checks that run verl's dataset and sampler,
# the training entry and the CPU stack
VERL_ROOMS = ("pac_verl.verl", "pac_verl.checks", "pac_verl.train", "pac_verl.cpu")


def _modules() -> dict[str, Path]:
    mods = {}
    for pkg, folder in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join([pkg, *parts])
            mods[name] = path
    return mods


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Every module of the project ``name`` imports, anywhere in the file; and every outside
    top-level package (prefixed with ``!``)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                       for a in node.names]  # fmt: skip
        else:
            continue
        for target in targets:
            if target.startswith("pac_verl"):
                while target not in MODULES and "." in target:
                    target = target.rpartition(".")[0]
                found.add(target)
            else:
                found.add("!" + target.split(".")[0])
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _rank(module: str) -> int:
    prefix = max((p for p, _ in ROOMS if module == p or module.startswith(p + ".")), key=len)
    return dict(ROOMS)[prefix]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(d for d in graph[v] if d in graph):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_every_module():
    # the graph would be vacuous if the walk found nothing
    assert {"pac_verl.verl.sampler", "pac_verl.checks.preflight", "pac_verl.cpu.smoke",
            "pac_verl.verifiers.sandbox.local", "pac_verl.verifiers.sandbox.judge",
            "pac_verl.data_prep.multi_level", "pac_verl.compose", "pac_verl.resolvers"} <= set(MODULES)  # fmt: skip
    assert "pac_verl.verifiers.sandbox" in GRAPH["pac_verl.verifiers.code"]
    assert "!verl" in GRAPH["pac_verl.verl.compat"]


def test_the_cycle_finder_finds_a_hidden_circle():
    # a function-local import that closes a circle counts (the rule this file enforces)
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert _cycles(GRAPH) == []


def test_every_room_imports_only_rooms_below_it():
    upward = [f"{m} (rank {_rank(m)}) imports {d} (rank {_rank(d)})"
              for m, deps in sorted(GRAPH.items()) for d in sorted(deps)
              if not d.startswith("!") and _rank(d) > _rank(m)]  # fmt: skip
    assert upward == []


def test_nothing_imports_main():
    assert [m for m, deps in GRAPH.items() if "pac_verl.main" in deps] == []


def test_only_the_seam_checks_training_and_the_cpu_stack_import_verl():
    users = sorted(m for m, deps in GRAPH.items() if "!verl" in deps)
    assert users, "the seam imports verl"
    assert [m for m in users if not m.startswith(VERL_ROOMS)] == []


def test_the_curriculum_core_imports_neither_verl_nor_torch():
    code = ("import sys, pac_verl.curriculum, pac_verl.curriculum.prompts; "
            "print(sorted(m for m in ('verl', 'torch') if m in sys.modules))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _composed():
    from pac_verl.compose import compose_config

    return compose_config(["setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac"])


def test_the_reward_function_path_loads_as_verl_loads_it():
    from verl.utils.import_utils import load_extern_object

    from pac_verl.verifiers.reward import compute_score_async

    reward = _composed().reward.custom_reward_function
    assert load_extern_object(reward.path, reward.name) is compute_score_async


def test_the_cpu_stack_paths_load_by_their_strings(tmp_path):
    from verl.utils.import_utils import load_extern_object

    from pac_verl.cpu import smoke, stack
    from pac_verl.verifiers.reward import compute_score_async

    cfg = smoke.compose(smoke.overrides(tmp_path, tmp_path))  # the tiny-cpu backbone's values
    hook = cfg.ray_kwargs.ray_init.runtime_env.worker_process_setup_hook
    module, _, attr = hook.rpartition(".")
    # Ray imports the module and takes the attribute, as this does
    assert getattr(__import__(module, fromlist=[attr]), attr) is stack.setup_worker
    reward = cfg.reward.custom_reward_function  # the smoke run scores with the project's entry
    assert load_extern_object(reward.path, reward.name) is compute_score_async


@pytest.mark.parametrize("command", ["quickstart", "prep", "preflight", "smoke", "plan",
                                     "simulate", "report"])  # fmt: skip
def test_every_subcommand_module_loads(command):
    import importlib

    from pac_verl.cli import SUBCOMMANDS

    module = importlib.import_module(SUBCOMMANDS[command][0])
    assert callable(module.main)
