"""Sphinx configuration of the pac-verl docs (Sphinx + MyST).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (CI runs it with ``-W``:
every warning is an error, a documented command that does not run included; see
``docs/_ext/command_check.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

project = "pac-verl"
author = "the pac-verl authors"
copyright = "2026, the pac-verl authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "command_check",
    "pac_reference",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "_ext"]

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "dollarmath"]
highlight_language = "none"  # code blocks are shell lines, outputs and Hydra overrides

autodoc_typehints = "description"
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = "pac-verl"
html_static_path = ["_static"]
