"""The tests' own layout (docs/development/testing.md#layout): every test file lives in a folder
that names a room of the package (a subpackage of ``pac_verl``, or ``cli`` for its top-level
modules) or one of the project's other parts (``recipes``, ``scripts``, ``docs``); it is named by
what it tests, never by the round of review that found its cases; file names are unique across
folders (the folders have no ``__init__.py``); and every folder has its line in that page's table,
which tests/README.md points to."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TESTING_PAGE = TESTS.parent / "docs" / "development" / "testing.md"
OTHER_PARTS = {"cli", "recipes", "scripts", "docs"}
ROUND_NAME = re.compile(r"_v\d+[a-z]?\.py$|round|red_?team", re.IGNORECASE)


def _rooms() -> set[str]:
    """The package's subpackages as folder paths (``verifiers/sandbox``), as pyproject.toml's
    ``[tool.setuptools] packages`` installs them."""
    pyproject = (TESTS.parent / "pyproject.toml").read_text()
    listed = re.search(r"^packages = \[(.*?)\]", pyproject, re.DOTALL | re.MULTILINE)
    assert listed, "pyproject.toml has no packages list"
    return {name.replace(".", "/") for name in re.findall(r'"pac_verl\.([\w.]+)"', listed.group(1))}


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "fixtures" not in p.parts)


def test_the_rooms_are_found():
    rooms = _rooms()
    assert {"curriculum", "verl", "verifiers", "verifiers/sandbox", "data_prep"} <= rooms


def test_every_test_file_lives_in_the_folder_of_a_room():
    allowed = _rooms() | OTHER_PARTS
    misplaced = [
        str(p.relative_to(TESTS))
        for p in _test_files()
        if p.parent.relative_to(TESTS).as_posix() not in allowed
    ]
    assert misplaced == [], f"move these into one of tests/{sorted(allowed)}: {misplaced}"


def test_no_file_is_named_after_a_round():
    named = [str(p.relative_to(TESTS)) for p in _test_files() if ROUND_NAME.search(p.name)]
    assert named == [], f"name these by the rule or module they test: {named}"


def test_file_names_are_unique_and_folders_have_no_init():
    seen: dict[str, list[str]] = {}
    for p in _test_files():
        seen.setdefault(p.name, []).append(str(p.relative_to(TESTS)))
    assert {n: ps for n, ps in seen.items() if len(ps) > 1} == {}
    assert sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("__init__.py")) == []


def test_every_folder_has_its_line_in_the_testing_page():
    rows = [line for line in TESTING_PAGE.read_text().splitlines() if line.startswith("| `tests/")]
    described = {line.split("`")[1] for line in rows}
    folders = sorted({p.parent.relative_to(TESTS).as_posix() for p in _test_files()})
    missing = [f for f in folders if f"tests/{f}/" not in described]
    assert missing == [], (
        f"describe these folders in {TESTING_PAGE.relative_to(TESTS.parent)}: {missing}"
    )


def test_the_tests_readme_points_to_the_testing_page():
    assert "docs/development/testing.md" in (TESTS / "README.md").read_text()
