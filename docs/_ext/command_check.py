"""Keep every command the docs show runnable.

At build time this extension collects the commands shown in the pages' code blocks and inline code
(``pac-verl ...``, ``python -m pac_verl...``, ``python scripts/...py``, ``bash recipes/...sh``) and
checks each distinct one once, after all pages are read:

- ``pac-verl SUB [SUBSUB]`` and ``python -m pac_verl.MODULE``: ``<command up to the subcommand>
  --help`` must exit 0 (an unknown subcommand exits 2);
- ``python scripts/X.py``: the script must exist, and ``--help`` must exit 0 when it parses
  arguments with argparse (one that does not is never started);
- ``bash recipes/X.sh``: the recipe must exist and ``bash -n`` must parse it (a recipe's
  ``--help`` would be a Hydra override, so it is never started).

A failure is a Sphinx warning at the page and line that shows the command; ``sphinx-build -W``
makes it an error. Set ``PAC_DOCS_SKIP_COMMANDS=1`` to skip the check (a quick local preview).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[a-z][a-z0-9_-]*")
ENV = re.compile(r"[A-Z_][A-Z0-9_]*=\S*")


def command_key(line: str) -> tuple[str, ...] | None:
    """The part of a shown command line that names what runs, or None if it names nothing of ours.

    >>> command_key("pac-verl prep multi-level --out data/ml   # comment")
    ('pac-verl', 'prep', 'multi-level')
    >>> command_key("DRY_RUN=1 bash recipes/window_sweep.sh curriculum.seed=1")
    ('bash', 'recipes/window_sweep.sh')
    """
    line = line.strip().lstrip("$").strip()
    if "#" in line:
        line = line[: line.index("#")]
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    while words and ENV.fullmatch(words[0]):
        words = words[1:]
    if not words:
        return None
    if words[0] == "pac-verl":
        key = ["pac-verl"]
        for w in words[1:3]:
            if not WORD.fullmatch(w):
                break
            key.append(w)
        return tuple(key)
    if words[0] in ("python", "python3") and len(words) > 1:
        if words[1] == "-m" and len(words) > 2 and words[2].startswith("pac_verl"):
            return ("python", "-m", words[2])
        if words[1].startswith("scripts/") and words[1].endswith(".py"):
            return ("python", words[1])
    if words[0] == "bash" and len(words) > 1 and words[1].startswith("recipes/"):
        return ("bash", words[1])
    return None


def _run(argv: list[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(
            argv, cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, str(exc)
    return done.returncode, (done.stderr or done.stdout).strip()


def check(key: tuple[str, ...]) -> str | None:
    """None when the command runs, else why not (one line)."""
    if key[0] == "bash":
        path = ROOT / key[1]
        if not path.is_file():
            return f"{key[1]} does not exist"
        rc, out = _run(["bash", "-n", key[1]])
        return None if rc == 0 else f"bash -n {key[1]}: {out}"
    if key[0] == "python" and key[1] != "-m":
        path = ROOT / key[1]
        if not path.is_file():
            return f"{key[1]} does not exist"
        if "argparse" not in path.read_text():
            return None
        argv = [sys.executable, key[1], "--help"]
    elif key[0] == "python":
        argv = [sys.executable, "-m", key[2], "--help"]
    else:
        exe = Path(sys.executable).with_name("pac-verl")
        argv = [str(exe) if exe.exists() else "pac-verl", *key[1:], "--help"]
    rc, out = _run(argv)
    if rc == 0:
        return None
    last = out.splitlines()[-1] if out else ""
    return f"`{' '.join(key)} --help` exited {rc}: {last}"


def collect(app, doctree) -> None:
    env = app.env
    found = env.pac_commands.setdefault(env.docname, [])
    for node in doctree.findall(lambda n: isinstance(n, (nodes.literal_block, nodes.literal))):
        if isinstance(node, nodes.literal_block) and node.get("language") not in (
            None,
            "",
            "default",
            "none",
            "text",
            "bash",
            "sh",
            "shell",
            "console",
        ):
            continue
        lines = node.astext().splitlines()
        if isinstance(node, nodes.literal):
            lines = lines[:1]
        for i, line in enumerate(lines):
            key = command_key(line)
            if key:
                found.append((key, (node.line or 0) + i))


def init(app, env, docnames) -> None:
    if not hasattr(env, "pac_commands"):
        env.pac_commands = {}


def purge(app, env, docname) -> None:
    getattr(env, "pac_commands", {}).pop(docname, None)


def merge(app, env, docnames, other) -> None:
    env.pac_commands.update(
        {d: other.pac_commands[d] for d in docnames if d in getattr(other, "pac_commands", {})}
    )


def verify(app, env) -> None:
    if os.environ.get("PAC_DOCS_SKIP_COMMANDS"):
        return
    where: dict[tuple[str, ...], list[tuple[str, int]]] = {}
    for docname, found in sorted(getattr(env, "pac_commands", {}).items()):
        for key, line in found:
            where.setdefault(key, []).append((docname, line))
    keys = sorted(where)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(keys, pool.map(check, keys)))
    for key in keys:
        if results[key] is None:
            continue
        docname, line = where[key][0]
        logger.warning(
            "documented command does not run: %s (shown %d time(s))",
            results[key],
            len(where[key]),
            location=(docname, line),
            type="pac",
            subtype="command",
        )
    logger.info(
        "command check: %d distinct commands, %d fail", len(keys), sum(map(bool, results.values()))
    )


def setup(app):
    app.connect("env-before-read-docs", init)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("doctree-read", collect)
    app.connect("env-check-consistency", verify)
    return {
        "version": "1",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "env_version": 1,
    }
