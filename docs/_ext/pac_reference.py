"""Two helpers for the reference pages.

``pac-verl-help``: a command's ``--help`` text, read from the installed command::

    ```{pac-verl-help} prep multi-level
    ```

renders the output of ``python -m pac_verl.cli prep multi-level --help`` as a literal block, so the
command-line reference cannot drift from the parsers. No argument: the top-level ``pac-verl
--help``. The text is produced at build time with ``COLUMNS=100`` (argparse wraps to the terminal
width).

Absolute values in docstrings: the project's docstrings write ``|A|`` and ``|advantage|`` for an
absolute value, which reStructuredText reads as a substitution reference (an undefined one is an
error under ``-W``). Before autodoc parses a docstring, a bar pair around a word outside inline
literals is escaped, so it renders as written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

# |x| that RST would read as a substitution: not inside a word, no space just inside the bars
_BARS = re.compile(r"(?<![\w\\|])\|(?=\S)([^|`]*?\S)\|(?![\w|])")
# inline literals and interpreted text, left as they are
_LITERAL = re.compile(r"(``.*?``|`[^`]*`)")


class PacVerlHelp(SphinxDirective):
    optional_arguments = 8
    has_content = False

    def run(self) -> list[nodes.Node]:
        words = list(self.arguments)
        env = {**os.environ, "COLUMNS": "100"}
        cmd = [sys.executable, "-m", "pac_verl.cli", *words, "--help"]
        shown = " ".join(["pac-verl", *words, "--help"])
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise self.error(f"{shown}: {err}") from None
        if out.returncode != 0:
            raise self.error(f"{shown} exited {out.returncode}: {out.stderr.strip()}")
        text = out.stdout.rstrip()
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def escape_bars(line: str) -> str:
    """``mean |A|`` -> ``mean \\|A\\|`` outside inline literals; table rows are left alone."""
    if line.lstrip().startswith(("| ", "+-", "+=")):  # a line block or a grid table
        return line
    parts = _LITERAL.split(line)
    for i in range(0, len(parts), 2):
        parts[i] = _BARS.sub(r"\\|\1\\|", parts[i])
    return "".join(parts)


def _escape_docstring_bars(app, what, name, obj, options, lines: list[str]) -> None:
    lines[:] = [escape_bars(line) for line in lines]


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")  # its event must exist before we connect to it
    app.add_directive("pac-verl-help", PacVerlHelp)
    app.connect("autodoc-process-docstring", _escape_docstring_bars)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
