"""Code points at what exists: every ``docs/....md`` reference names a page and a heading that exist.

The code, configs, recipes, scripts and tests cite the documentation as ``docs/<path>.md`` or
``docs/<path>.md#<anchor>``. This module scans them and fails
naming each ``file:line`` whose page is missing under ``docs/``, or whose anchor is neither a
heading slug of that page nor an explicit MyST target ``(name)=`` in it. Heading slugs are
computed as MyST's ``myst_heading_anchors`` computes them (``default_slugify``: the heading's text
and inline code, lower case, each space a ``-``, every character but word characters, ``-`` and
spaces dropped; a repeated slug gets ``-1``, ``-2``, ...), for the heading levels ``docs/conf.py``
gives anchors to (3 when it does not say).

It also fails on citations of what is not in the repository: the numbered sections of the method's
spec (``SPEC 4``: the repository's account is docs/concepts/spec.md), the notes kept outside the
repository (``BASELINES.md``, ``DESIGN.md``, ...), and sections of the README (``README "Seeds"``,
``(README: Prepare data)``): the README is the front page, the docs are where the sections live.
Mentions of the README as a file (``README.md``, its ``test-command`` markers) are not citations.

The scanner is tested on a tree of its own first, so a failure of the whole-repository checks is
the repository's, not the scanner's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# what is scanned: shipped code, its configs, recipes and scripts, and the tests
SCANNED = ("pac_verl", "verifiers", "data_prep", "configs", "recipes", "scripts", ".ci", "tests",
           "pyproject.toml")  # fmt: skip
TEXT_SUFFIXES = {".py", ".sh", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".txt", ".json", ".jsonl",
                 ".md", ""}  # fmt: skip
SKIPPED_DIRS = {"__pycache__", ".pytest_cache", ".ruff_cache", ".venv", "node-versions"}
MAX_BYTES = 2 << 20  # larger files are data, not code

REFERENCE = re.compile(r"(?<![\w./-])docs/((?:[\w.-]+/)*[\w-][\w.-]*\.md)(?:#([\w-]+))?")
SPEC_CITATION = re.compile(r"\bSPEC\b")
OUTSIDE_NOTES = re.compile(r"\b(?:BASELINES|DESIGN|VERL091)\.md\b")
README_CITATION = re.compile(
    r"README(?!\.md)(?:'s)?\s*(?:[:,(]\s*)?[\"“]"  # README "Seeds", the README's "Rewards"
    r"|README:\s*[A-Z]"  # (README: Prepare data)
    r"|README,\s*[A-Z]"  # (see README, Rewards)
    r"|\(README(?!\.md)[^)\n]*\)"  # (README), (README ...)
    r"|README\s+[A-Z][a-z]"  # README Rewards
    r"|\bsee (?:the )?README\b(?!\.md)"
    r"|\blisted in the README\b(?!\.md)"
)

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
TARGET = re.compile(r"^\s*\(([^()\s]+)\)=\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SLUG_DROP = re.compile(r"[^\w\u4e00-\u9fff\- ]")


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}: {self.why}"


def slugify(title: str) -> str:
    """MyST's ``default_slugify`` (GitHub style): lower case, spaces to ``-``, punctuation dropped."""
    return _SLUG_DROP.sub("", title.lower().replace(" ", "-"))


def heading_text(inline: str) -> str:
    """The text MyST slugs for a heading: its text and inline code, without the markup."""
    parts = re.split(r"(`+)(.+?)\1", inline)  # [text, ticks, code, text, ...]
    out = []
    for i in range(0, len(parts), 3):
        text = parts[i]
        text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)  # images: no text
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
        text = re.sub(r"<[^>]+>", "", text)  # inline HTML
        text = re.sub(r"\*+|(?<!\w)_+|_+(?!\w)", "", text)  # emphasis markers
        text = re.sub(r"\\(.)", r"\1", text)  # backslash escapes
        out.append(text)
        if i + 2 < len(parts):
            code = parts[i + 2]  # inline code: one space each side is padding when both are there
            out.append(code[1:-1] if code[:1] == code[-1:] == " " and code.strip() else code)
    return "".join(out).strip()


def anchor_levels(docs: Path) -> int:
    """The heading levels ``docs/conf.py`` gives anchors to (``myst_heading_anchors``)."""
    conf = docs / "conf.py"
    if conf.is_file():
        m = re.search(r"^myst_heading_anchors\s*=\s*(\d+)", conf.read_text(), re.M)
        if m:
            return int(m[1])
    return 3


def anchors(page: Path, levels: int = 3) -> set[str]:
    """The anchors of a Markdown page: heading slugs (levels 1..``levels``) and ``(name)=``."""
    found: set[str] = set()
    fence = None
    for line in page.read_text(encoding="utf-8").splitlines():
        m = FENCE.match(line)
        if fence is not None:
            if m and m[1][0] == fence[0] and len(m[1]) >= len(fence):
                fence = None
            continue
        if m:
            fence = m[1]
            continue
        t = TARGET.match(line)
        if t:
            found.add(t[1])
            continue
        h = HEADING.match(line)
        if h and len(h[1]) <= levels:
            slug = slugify(heading_text(h[2]))
            i = 1
            while slug in found:
                slug = f"{slug}-{i}"
                i += 1
            found.add(slug)
    return found


def scanned_files(root: Path, names=SCANNED, skip: tuple[Path, ...] = ()):
    """The text files under ``names`` (folders or files) of ``root``, in a stable order."""
    for name in names:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        for path in paths:
            if not path.is_file() or path in skip or path.suffix not in TEXT_SUFFIXES:
                continue
            if SKIPPED_DIRS & set(path.relative_to(root).parts) or path.stat().st_size > MAX_BYTES:
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def check_references(root: Path, files) -> list[Problem]:
    """Every ``docs/....md[#anchor]`` reference in ``files`` whose page or anchor is missing."""
    docs = root / "docs"
    levels = anchor_levels(docs)
    cache: dict[Path, set[str]] = {}
    problems = []
    for path, text in files:
        rel = str(path.relative_to(root))
        for n, line in enumerate(text.splitlines(), 1):
            for m in REFERENCE.finditer(line):
                page = docs / m[1]
                if not page.is_file():
                    problems.append(Problem(rel, n, m[0], "no such page under docs/"))
                    continue
                if m[2] is None:
                    continue
                if page not in cache:
                    cache[page] = anchors(page, levels)
                if m[2] not in cache[page]:
                    problems.append(Problem(rel, n, m[0], f"no heading or target #{m[2]} in it"))
    return problems


def check_citations(root: Path, files) -> list[Problem]:
    """Citations of what the repository does not hold: SPEC sections, outside notes, README
    sections."""
    rules = [(SPEC_CITATION, "cites the SPEC, which is not in the repository: cite "
              "docs/concepts/spec.md#<section>"),
             (OUTSIDE_NOTES, "cites a note outside the repository: cite its docs page"),
             (README_CITATION, "cites a README section: cite the docs page that holds it")]  # fmt: skip
    problems = []
    for path, text in files:
        rel = str(path.relative_to(root))
        for n, line in enumerate(text.splitlines(), 1):
            for rule, why in rules:
                m = rule.search(line)
                if m:
                    problems.append(Problem(rel, n, m[0].strip(), why))
    return problems


REPO_PATH = re.compile(
    r"(?<![\w./-])((?:tests|scripts|recipes|configs)/(?:[\w.-]+/)*[\w-][\w.-]*\.(?:py|sh|yaml|json))\b"
)


def check_repo_paths(root: Path, files) -> list[Problem]:
    """Every file path under ``tests/``, ``scripts/``, ``recipes/`` or ``configs/`` that ``files``
    name (``tests/verl/test_real_workers.py``) and that does not exist: a renamed test or script
    leaves no reader looking for the old name."""
    problems = []
    for path, text in files:
        rel = str(path.relative_to(root))
        for n, line in enumerate(text.splitlines(), 1):
            for m in REPO_PATH.finditer(line):
                if "*" not in m[1] and not (root / m[1]).exists():
                    problems.append(Problem(rel, n, m[1], "no such file in the repository"))
    return problems


def references(root: Path, files) -> list[str]:
    """The distinct ``docs/`` references the files make, sorted."""
    return sorted({m[0] for _, text in files for m in REFERENCE.finditer(text)})


# ----- the scanner on a tree of its own -----


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "docs" / "concepts").mkdir(parents=True)
    (tmp_path / "docs" / "guides").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("myst_heading_anchors = 3\n")
    (tmp_path / "docs" / "concepts" / "spec.md").write_text(
        "# The spec\n\n## Signals\n\n## Code sandbox\n\n"
        "## Check an installation end to end: `pac-verl smoke`\n\n"
        "## Rewards\n\n## Rewards\n\n#### Too deep\n\n"
        "```bash\n# not a heading\n```\n\n(explicit-target)=\n### Target's heading\n"
    )
    (tmp_path / "docs" / "guides" / "data.md").write_text("# Prepare data\n")
    (tmp_path / "pkg").mkdir()
    return tmp_path


def _scan(root: Path, text: str) -> tuple[list[Problem], list[Problem]]:
    (root / "pkg" / "mod.py").write_text(text)
    files = list(scanned_files(root, ["pkg"]))
    return check_references(root, files), check_citations(root, files)


def test_slugs_are_myst_default_slugify():
    assert slugify("Code sandbox") == "code-sandbox"
    assert slugify("Check an installation end to end: pac-verl smoke") == (
        "check-an-installation-end-to-end-pac-verl-smoke"
    )
    assert slugify("Rows on disk") == "rows-on-disk"
    assert slugify("Beyond the paper: prompt-level selection, other estimators") == (
        "beyond-the-paper-prompt-level-selection-other-estimators"
    )
    assert slugify("A  b_c (d)") == "a--b_c-d"
    assert heading_text("The [simulator](x.md) and `pac-verl simulate` *now*") == (
        "The simulator and pac-verl simulate now"
    )


def test_slugs_agree_with_myst_parser_when_installed():
    myst = pytest.importorskip("myst_parser.mdit_to_docutils.base")
    for title in ["Code sandbox", "Check a run before booking GPUs", "Memory: will a config fit?",
                  "The miniature: the whole pipeline on a CPU (setting=toy backbone=tiny-cpu)"]:  # fmt: skip
        assert slugify(title) == myst.default_slugify(title)


def test_page_anchors_follow_myst(tree):
    found = anchors(tree / "docs" / "concepts" / "spec.md")
    assert found == {"the-spec", "signals", "code-sandbox",
                     "check-an-installation-end-to-end-pac-verl-smoke", "rewards", "rewards-1",
                     "explicit-target", "targets-heading"}  # fmt: skip


def test_good_references_pass(tree):
    refs, cites = _scan(tree, '"""See docs/concepts/spec.md#signals and docs/guides/data.md.\n'
                        "(docs/concepts/spec.md#code-sandbox), docs/concepts/spec.md#rewards-1;\n"
                        'docs/concepts/spec.md#explicit-target; README.md is read for markers"""\n')  # fmt: skip
    assert refs == [] and cites == []


def test_a_missing_page_fails_naming_file_and_line(tree):
    refs, _ = _scan(tree, "x = 1\n# see docs/guides/nowhere.md#signals\n")
    assert [str(p) for p in refs] == [
        "pkg/mod.py:2: docs/guides/nowhere.md#signals: no such page under docs/"
    ]


def test_a_missing_anchor_fails(tree):
    refs, _ = _scan(tree, "# docs/concepts/spec.md#settings and docs/concepts/spec.md#too-deep\n"
                    "# docs/concepts/spec.md#not-a-heading\n")  # fmt: skip
    assert [(p.line, p.text) for p in refs] == [
        (1, "docs/concepts/spec.md#settings"),
        (1, "docs/concepts/spec.md#too-deep"),
        (2, "docs/concepts/spec.md#not-a-heading"),
    ]
    assert all("no heading or target" in p.why for p in refs)


@pytest.mark.parametrize(
    "line",
    [
        "# the controller (SPEC 4)",
        "# SPEC section 10 columns",
        '"""Rows (SPEC-10)."""',
        "# defaults (BASELINES.md)",
        '# the miniature (README "The miniature")',
        "msg = 'build it with pac-verl prep (README: Prepare data)'",
        '# the README\'s "Rewards" section has the examples',
        "# (see README, Rewards)",
        "# a form, not work left (README)",
        "# an emphasised nothing, README Rewards",
        "# see the README",
    ],
)
def test_citations_of_what_the_repository_lacks_fail(tree, line):
    _, cites = _scan(tree, f"x = 1\n{line}\n")
    assert len(cites) == 1 and cites[0].line == 2, cites


@pytest.mark.parametrize(
    "line",
    [
        'readme = "README.md"',
        "text = (ROOT / 'README.md').read_text()  # between the README's gpu-install markers",
        "# run exactly the test command the README prints (between the test-command markers)",
        "SPECIAL = ('<pad>', '<unk>')",
        "# TableSpec, the spec of a table",
    ],
)
def test_mentions_of_the_readme_as_a_file_pass(tree, line):
    _, cites = _scan(tree, f"{line}\n")
    assert cites == []


# ----- the repository -----


def _repo_files():
    return list(scanned_files(ROOT, skip=(Path(__file__).resolve(),)))


def test_every_docs_reference_names_an_existing_page_and_heading():
    problems = check_references(ROOT, _repo_files())
    assert not problems, "references to docs pages or headings that do not exist:\n" + "\n".join(
        map(str, problems)
    )


def test_a_path_to_a_file_that_is_not_there_fails(tree):
    (tree / "tests" / "verl").mkdir(parents=True)
    (tree / "tests" / "verl" / "test_real.py").write_text("")
    (tree / "notes.md").write_text("see tests/verl/test_real.py\nand tests/test_real.py\n")
    problems = check_repo_paths(tree, [(tree / "notes.md", (tree / "notes.md").read_text())])
    assert [(p.line, p.text) for p in problems] == [(2, "tests/test_real.py")]


def test_every_file_path_the_docs_and_code_name_exists():
    # the walk-throughs (docs/development/add-*.md) name the files a reader creates, and the
    # command check's own test names missing files on purpose
    docs = [(p, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "docs").rglob("*.md"))
            if not p.name.startswith("add-")]  # fmt: skip
    readme = [(ROOT / "README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]
    code = [(p, t) for p, t in _repo_files() if p.name != "test_docs_commands.py"]
    problems = check_repo_paths(ROOT, code + docs + readme)
    assert not problems, "paths to files that do not exist:\n" + "\n".join(map(str, problems))


def test_no_citation_of_the_spec_outside_notes_or_readme_sections():
    problems = check_citations(ROOT, _repo_files())
    assert not problems, "citations of what the repository does not hold:\n" + "\n".join(
        map(str, problems)
    )
