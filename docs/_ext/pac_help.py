"""The ``pac-verl-help`` directive: a command's ``--help`` text, read from the installed command.

    ```{pac-verl-help} prep multi-level
    ```

renders the output of ``python -m pac_verl.cli prep multi-level --help`` as a literal block, so the
command-line reference cannot drift from the parsers. No argument: the top-level ``pac-verl --help``.
The text is produced at build time with ``COLUMNS=100`` (argparse wraps to the terminal width).
"""

from __future__ import annotations

import os
import subprocess
import sys

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


class PacVerlHelp(SphinxDirective):
    optional_arguments = 8
    has_content = False

    def run(self) -> list[nodes.Node]:
        words = list(self.arguments)
        env = {**os.environ, "COLUMNS": "100"}
        cmd = [sys.executable, "-m", "pac_verl.cli", *words, "--help"]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise self.error(f"pac-verl {' '.join(words)} --help: {err}") from None
        if out.returncode != 0:
            raise self.error(
                f"pac-verl {' '.join(words)} --help exited {out.returncode}: {out.stderr.strip()}"
            )
        text = out.stdout.rstrip()
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("pac-verl-help", PacVerlHelp)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
