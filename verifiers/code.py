"""Code: the program must pass every unit test, run in the sandbox, judged outside it.

The rules: docs/concepts/spec.md#rewards and docs/concepts/spec.md#code-sandbox.

The program comes from the answer region (the last ``<answer>`` content and the text after its
close, else the text after ``</think>``, else the whole response), fenced or not, before any
draft inside ``<think>``. Its
fenced blocks are found in one linear pass: a fence is Python as a person reads it (untagged,
```python, ```py, ```python3, a file name: ```sol.py``, ```python:sol.py``, ```python
title="sol.py"``), a fence indented inside a Markdown list item loses that indentation, an
unterminated fence is ignored. Of several blocks, the program is the one that gives the tests
what they take (:func:`needs_of`; docs/guides/sandbox.md#which-block-is-the-program): the last
that defines a name the tests call (functional, BigCodeBench), or the last script that holds no
tests (stdin/stdout; a script that reads no input, after one that does, is an example of its
use), so a solution followed by an example-usage block (``print(add(2, 3))``) or
a test block (``def test_add(): ...``) is judged on the solution. With no such block (or no
ground truth), the last block that defines a top-level function or class; else the last block
that holds a statement; else the last block. With no fence in the answer region, the program written there
without one (:func:`unfenced_program`: from its first line of code to the last line that keeps it
parsing); with none, the fenced blocks of the reasoning (an answer that points back at them; a
response with nothing after its reasoning has no answer); else the ``<answer>`` content itself.

A solution split over fences is one program: earlier blocks that define a name the program uses and
does not define itself (a helper function, an ``import``) are put before it, in their order;
functions followed by a script that reads stdin are that script's helpers (stdin/stdout tasks).
Earlier blocks that define the same function or class differently (or, for a program that defines
nothing, earlier scripts it does not need) are *alternatives* ("either of these works"): like
several different boxed answers (docs/concepts/spec.md#rewards), they score 1 only if every one of
them passes, else ``hedged``, so that offering several programs never pays. Drafts belong in the
reasoning: a block inside ``<think>`` is not part of the answer.

Tests come in the source's own format (the ground truth's JSON; see ``sandbox/judge.py`` for how each
is judged where the program cannot reach):

- Code-R1 ``{"functional": "<asserts>"}``: the tests run in the judge's checker process, which
  never loads model code; the sandbox loads the program as a module (its own main block does not
  run) and answers its calls with plain data. Score 1 needs at least one check of the program's
  output (``vacuous_tests`` otherwise, a bad ground truth) and every check to hold;
- Code-R1 ``{"inputs": [...], "outputs": [...]}``: the program runs once per input on stdin, as
  the interpreter runs a script (``exit()`` and ``sys.exit(n)`` set the exit status, non-daemon
  threads are joined, atexit handlers run); it must exit with status 0 and its stdout must equal
  the output after whitespace normalisation (both split on any whitespace);
- BigCodeBench ``{"test": "<unittest code>", "entry_point": "task_func"}``: every TestCase of the
  test code runs; all must pass (and at least one must run). The program loads as BigCodeBench's
  module ``__test__``, so its own main block does not run either.

A test set with no test (no assert, no input, no TestCase method) is ``bad_ground_truth``, never a
pass. Reasons: ``ok``, ``no_code``, ``cut_off`` (an unclosed ``<think>``: the response never left its
reasoning), ``hedged`` (alternatives, not all right, or prose after the program that doubts it:
:func:`..lexicon.doubts_program`), ``too_long``, ``tests_failed``, ``vacuous_tests``, ``timeout``, ``memory``,
``output_limit``, ``tampered``, ``no_result``, ``missing_library`` (the sandbox interpreter lacks
a library the *test code* imports, seen before any model code ran: the environment's fault, not
the model's; count it, fix the environment), ``bad_ground_truth``, ``sandbox_error``.

Limits are sandbox settings (``sandbox/settings.py``: in training
``reward.custom_reward_function.reward_kwargs.sandbox.*``, outside it ``PAC_SANDBOX_*``):
``cpu_seconds`` (10), ``wall_seconds`` (30) and ``memory_mb`` (2048) apply to Code-R1;
BigCodeBench tasks get ``bcb_memory_mb`` (default 8 GiB of resident memory for the whole tree:
BigCodeBench's own harness sets a 30 GiB address-space limit) and ``bcb_cpu_seconds`` (default
60), with a wall clock of at least three times that.

Bounded time (docs/concepts/spec.md#rewards): called through
:func:`pac_verl.verifiers.compute_score`, a response gets a
:class:`~pac_verl.verifiers.sandbox.Budget`: ``queue_s`` to get a node sandbox slot (else
``overloaded``), then ``timeout_s`` for all of its runs, the retry of a starved run included (else
``timeout``). A CPU limit over ``timeout_s`` is clamped to it, with a warning logged once: with the
defaults a BigCodeBench program gets 10 s of CPU, not 60; give BigCodeBench runs a larger reward
``timeout_s`` when their tests need it. Clamped rather than refused because the CPU limits are per
task kind while ``timeout_s`` is one setting for every task type. The bound wins over
load-independence (docs/concepts/spec.md#code-sandbox) at the edge: a program that needs nearly
``timeout_s`` of CPU and gets less than a core (the node's slots keep that rare) meets the wall
clock first.
"""

from __future__ import annotations

import ast
import io
import json
import re
import time
import tokenize
from dataclasses import replace

from pac_verl.verifiers import lexicon
from pac_verl.verifiers.extract import answer_region, reading, tail, think_unclosed
from pac_verl.verifiers.sandbox import Budget, Limits, SandboxSettings, judge, run_job, settings_for
from pac_verl.verifiers.verdict import Verdict, fail

MAX_CODE_CHARS = 50_000
_INFO = re.compile(r"[^\n`]*\n")  # a fence's info string: the rest of its line, no backtick
_PYTHON_TAGS = frozenset({"python", "python3", "py", "py3"})
_LIST_ITEM = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?")  # what may precede a fence
FENCE = "```"
# inline code in prose, and a statement in it: a program's line, not a call or a value
_INLINE_CODE = re.compile(r"(?<!`)`([^`\n]{1,300}+)`(?!`)")
_STATEMENT = re.compile(r"\b(?:return|def|lambda|class|yield|import)\b|(?<![=!<>])=(?!=)")
_FENCE_LINE = re.compile(r"\A[ \t]*+\n?[ \t]*+(?:`{3,}+|~{3,}+)[^\n]*+")
_FENCE_OPEN = re.compile(r"(?m)^[ \t]*+(`{3,}+|~{3,}+)")


def default_limits(kind: str, sandbox: SandboxSettings | None = None) -> Limits:
    """One run's limits for a job of ``kind`` under the sandbox settings (None: the
    environment's)."""
    s = settings_for(sandbox)
    limits = Limits(wall_seconds=s.wall_seconds, cpu_seconds=s.cpu_seconds, memory_mb=s.memory_mb)
    if kind == "unittest":
        cpu = s.bcb_cpu_seconds
        limits = replace(limits, memory_mb=s.bcb_memory_mb, cpu_seconds=cpu,
                         wall_seconds=max(s.wall_seconds, 3 * cpu))  # fmt: skip
    return limits


def _is_python(info: str) -> bool:
    """Whether a fence's info string opens Python, as a person reads it: untagged, a Python tag
    (```python, ```py, ```python3, any case, attributes after it: ```python title="sol.py"``),
    a tag with a file name after a colon (```python:sol.py``), a file name (```sol.py``), or
    attributes alone (```title="sol.py"``)."""
    words = info.split()
    if not words or "=" in words[0]:
        return True
    tag = words[0].strip("{}").lstrip(".").lower()
    lang, _, _ = tag.partition(":")
    return lang in _PYTHON_TAGS or lang.endswith((".py", ".pyw"))


def _indent(text: str, start: int) -> int:
    """How far the fence at ``start`` is indented: the width of what precedes it on its line when
    that is blanks, optionally with a Markdown list marker (``1. ``, ``- ``); else 0. Looks back a
    bounded distance, so scanning stays linear."""
    line_start = text.rfind("\n", max(0, start - 16), start) + 1
    if line_start == 0 and start > 16:
        return 0
    prefix = text[line_start:start]
    return len(prefix) if _LIST_ITEM.fullmatch(prefix) else 0


def _dedent(block: str, indent: int) -> str:
    """``block`` with up to ``indent`` leading blanks removed from each line (CommonMark's rule
    for the content of an indented fence)."""
    if not indent:
        return block
    lines = block.split("\n")
    for i, line in enumerate(lines):
        head = line[:indent]
        lines[i] = line[len(head) - len(head.lstrip(" \t")) :]
    return "\n".join(lines)


def fenced_blocks(text: str) -> list[str]:
    """Contents of the closed Python code fences of ``text`` in order (see :func:`_is_python`);
    a fence indented inside a Markdown list item loses that indentation. One pass, linear in the
    text's length; an unterminated fence is ignored."""
    return [block for _, _, block in fenced_spans(text)]


def fenced_spans(text: str) -> list[tuple[int, int, str]]:
    """:func:`fenced_blocks` with where each fence starts and where its closing fence ends."""
    spans, pos = [], 0
    while True:
        start = text.find(FENCE, pos)
        if start < 0:
            return spans
        info = _INFO.match(text, start + len(FENCE))
        if info is None or not _is_python(info.group()):  # another language, or inline: skip it
            end = text.find(FENCE, start + len(FENCE))
            if end < 0:
                return spans
            pos = end + len(FENCE)
            continue
        end = text.find(FENCE, info.end())
        if end < 0:
            return spans
        spans.append(
            (start, end + len(FENCE), _dedent(text[info.end() : end], _indent(text, start)))
        )
        pos = end + len(FENCE)


def uncorrected_blocks(text: str) -> list[str]:
    """The fenced blocks of ``text`` but those the response itself corrects: a block followed,
    before the next block, by prose that says it is wrong ("Wait, that's wrong; corrected:",
    "Oops, that has a bug. Fixed version:"; :data:`..lexicon.CORRECTION`) is a step, as a
    corrected box is in the text tasks, not an alternative."""
    spans = fenced_spans(text)
    kept = []
    for i, (_, end, block) in enumerate(spans):
        between = text[end : spans[i + 1][0]] if i + 1 < len(spans) else ""
        if not (between and lexicon.corrects(between)):
            kept.append(block)
    return kept


def indented_blocks(text: str) -> list[str]:
    """The Markdown indented code blocks of ``text`` (CommonMark: lines indented by four spaces or
    a tab, after a blank line or the start, blank lines within kept), each without that indent,
    in order. One pass over the lines."""
    blocks: list[str] = []
    current: list[str] = []
    blank_before = True
    for line in text.split("\n"):
        indented = line.startswith(("    ", "\t"))
        if line.strip() and indented and (current or blank_before):
            current.append(line[1:] if line.startswith("\t") else line[4:])
        elif not line.strip() and current:
            current.append("")
        else:
            if current:
                blocks.append("\n".join(current).strip("\n") + "\n")
                current = []
        blank_before = not line.strip()
    if current:
        blocks.append("\n".join(current).strip("\n") + "\n")
    return blocks


# a line that starts a program written without a fence
_CODE_START = re.compile(
    r"(?:import\s|from\s+[\w.]+\s+import\s|(?:async\s+)?def\s|class\s|@\w|if\s+__name__\b"
    r"|(?:for|while|with|try|if)\b|[A-Za-z_][\w.]*+(?:\[[^\]\n]*+\])?+"
    r"(?:\s*+,\s*+\*?+[A-Za-z_][\w.]*+)*+\s*+(?:,\s*+)?+(?:[-+*/%|&^]?=(?!=)|\())"
)
MAX_UNFENCED_PARSES = 24  # bounds the cost of looking for an unfenced program in prose
MAX_INDENTED_BLOCKS = 24  # the last indented code blocks parsed; earlier ones are never programs


def unfenced_program(region: str) -> str | None:
    """The program written without a fence in ``region``: from the first line that starts code
    (an import, a ``def``, an assignment or call at the line start) to the last line before the
    first one that keeps it from parsing (prose after it is left out), if it defines or does
    something; else None. A few start lines are tried, at most ``MAX_UNFENCED_PARSES`` parses."""
    if len(region) > 2 * MAX_CODE_CHARS:
        return None
    lines = region.split("\n")
    starts = [i for i, line in enumerate(lines) if _CODE_START.match(line)][:4]
    parses = 0
    for start in starts:
        end = len(lines)
        while parses < MAX_UNFENCED_PARSES:
            while end > start and not lines[end - 1].strip():
                end -= 1
            if end == start:
                break
            program = "\n".join(lines[start:end]) + "\n"
            parses += 1
            try:
                body = ast.parse(program).body
            except SyntaxError as err:  # cut before the line it stopped at (or one line off)
                end = min(end - 1, start + (err.lineno or 1) - 1)
                continue
            except (ValueError, RecursionError, MemoryError):
                break
            if _defines(body) or _runs(body):
                return program
            break
    return None


def _runs_or_defines(block: str) -> bool:
    """Whether ``block`` parses as Python that defines or does something (not prose)."""
    body = _statements(block)
    return bool(body) and bool(_defines(body) or _runs(body))


def _statements(block: str) -> list[ast.stmt] | None:
    try:
        return ast.parse(block).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_DEFINING = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _defines(body: list[ast.stmt]) -> set[str]:
    """Top-level functions and classes of a block."""
    return {s.name for s in body if isinstance(s, _DEFINING)}


def _binds(body: list[ast.stmt]) -> set[str]:
    """Names a block binds at top level (definitions, imports, assignments)."""
    names = _defines(body)
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _uses(body: list[ast.stmt]) -> set[str]:
    module = ast.Module(body=body, type_ignores=[])
    return {n.id for n in ast.walk(module) if isinstance(n, ast.Name)}


def _with_helpers(i: int, parsed: list, skip: set[int]) -> list[int]:
    """Block ``i`` and the earlier blocks (not in ``skip``) that bind names it needs, in order."""
    chosen = [i]
    missing = _uses(parsed[i][1]) - _binds(parsed[i][1])  # builtins too: `input = ...` helps
    for j in range(i - 1, -1, -1):
        body = parsed[j][1]
        if j in skip or not body or not missing & _binds(body):
            continue
        chosen.append(j)
        missing = (missing - _binds(body)) | (_uses(body) - _binds(body))
    return sorted(chosen)


def _runs(body: list[ast.stmt]) -> bool:
    """Whether a block does something (not only a literal, such as a sample output)."""
    return any(not isinstance(s, ast.Expr) or isinstance(s.value, ast.Call) for s in body)


def _reads_input(body: list[ast.stmt]) -> bool:
    """Whether a block reads standard input itself: ``input``, ``sys.stdin``, ``open(0)``."""
    module = ast.Module(body=body, type_ignores=[])
    return any(
        (isinstance(n, ast.Name) and n.id == "input")
        or (isinstance(n, ast.Attribute) and n.attr == "stdin")
        or (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id == "open"
            and n.args
            and isinstance(n.args[0], ast.Constant)
            and n.args[0].value == 0
        )
        for n in ast.walk(module)
    )


def _named(body: list[ast.stmt]) -> set[str]:
    """Names a block gives a value of its own at top level (definitions and assignments)."""
    return _binds([s for s in body if not isinstance(s, (ast.Import, ast.ImportFrom))])


def _says(statement: ast.stmt) -> bool:
    """Whether a statement only prints constants (``print("ok")``): a test's report."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "print"
        and all(isinstance(a, ast.Constant) for a in call.args)
    )


def _is_test(body: list[ast.stmt]) -> bool:
    """Whether a block holds tests: a top-level ``test*`` function or a ``TestCase`` class, or
    nothing but ``assert`` statements (and imports, and prints of constants: ``print("ok")``)."""
    asserts = [s for s in body if isinstance(s, ast.Assert)]
    if asserts and all(
        isinstance(s, (ast.Assert, ast.Import, ast.ImportFrom)) or _says(s) for s in body
    ):
        return True
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name.startswith("test"):
            return True
        if isinstance(s, ast.ClassDef) and any(
            (isinstance(b, ast.Attribute) and b.attr == "TestCase")
            or (isinstance(b, ast.Name) and b.id == "TestCase")
            for b in s.bases
        ):
            return True
    return False


_NOT_RUN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _is_script(body: list[ast.stmt]) -> bool:
    """Whether a block runs as a script: a top-level statement other than a definition, an
    import or a bare literal (a docstring, a sample output), and no tests."""
    return not _is_test(body) and any(
        not isinstance(s, _NOT_RUN) and (not isinstance(s, ast.Expr) or _runs([s])) for s in body
    )


def _programs(blocks: list[str], needs: frozenset[str] | str | None = None) -> list[str]:
    """The program, then its alternatives (see the module docstring). ``needs``: what the tests
    take from the program, the names they call (functional, BigCodeBench) or ``"script"``
    (stdin/stdout); None: not known (the rule then reads the blocks alone)."""
    parsed = [(b, _statements(b) or []) for b in blocks]
    if needs == "script":
        scripts = [i for i, (_, body) in enumerate(parsed) if _is_script(body)]
        reading = [i for i in scripts if _reads_input(parsed[i][1])]
        if reading:  # a script that reads no input after one that does is an example of its use
            scripts = [
                i for i in scripts if i <= reading[0] or i in reading
            ]  # `print(solve('2 3'))`
        if scripts:
            final = scripts[-1]
            helpers = _with_helpers(final, parsed, set())
            return _with_alternatives(parsed, final, [j for j in scripts[:-1] if j not in helpers])
    elif needs:
        giving = [i for i, (_, body) in enumerate(parsed) if needs & _named(body)]
        if giving:
            final = giving[-1]
            names = needs & _named(parsed[final][1])
            return _with_alternatives(
                parsed, final, [j for j in giving[:-1] if names & _named(parsed[j][1])]
            )
    final = next((i for i in range(len(parsed) - 1, -1, -1) if _defines(parsed[i][1])), None)
    if final is not None and any(_reads_input(body) for _, body in parsed[final + 1 :]):
        final = None  # the functions, then a script that reads stdin and calls them: one program
    if final is not None:  # alternatives: other definitions of the same function or class
        names = _defines(parsed[final][1])
        candidates = [j for j in range(final) if names & _defines(parsed[j][1])]
    else:  # a script: other scripts are alternatives, unless the program needs what they bind
        scripts = [i for i, (_, body) in enumerate(parsed) if _runs(body)]
        if not scripts:
            return [blocks[-1]]
        final = scripts[-1]
        helpers = _with_helpers(final, parsed, set())
        candidates = [j for j in scripts[:-1] if j not in helpers]
    return _with_alternatives(parsed, final, candidates)


def _with_alternatives(parsed: list, final: int, candidates: list[int]) -> list[str]:
    """Block ``final`` with its helpers, then each candidate that differs from it, with its own."""
    text = parsed[final][0].strip()
    alternatives = {j for j in candidates if parsed[j][0].strip() != text}
    return [
        "\n".join(parsed[j][0] for j in _with_helpers(i, parsed, alternatives))
        for i in (final, *sorted(alternatives))
    ]


def needs_of(ground_truth: str | None) -> frozenset[str] | str | None:
    """What the tests take from the program: the names functional tests call, BigCodeBench's
    entry point, ``"script"`` for stdin/stdout; None for a malformed or absent ground truth."""
    job = job_for("", ground_truth) if ground_truth is not None else None
    if job is None:
        return None
    if job["kind"] == "stdio":
        return "script"
    if job["kind"] == "functional":
        try:
            return frozenset(judge.plan_functional(job["tests"]).names) or None
        except judge.BadTests:
            return None
    try:
        entry = json.loads(ground_truth).get("entry_point") or "task_func"
    except (ValueError, TypeError, AttributeError):
        return None
    return frozenset({entry}) if isinstance(entry, str) else None


def extract_programs(solution_str: str, ground_truth: str | None = None) -> list[str]:
    """The response's program and its alternatives; empty when it holds no code. With the
    ground truth, the program is chosen by what its tests take from it (:func:`needs_of`)."""
    needs = needs_of(ground_truth)
    text = tail(solution_str)
    region = answer_region(text)
    blocks = uncorrected_blocks(region)
    if blocks:
        return _programs(blocks, needs)
    program = unfenced_program(region)
    if program is not None:  # the final program, written without a fence: drafts do not count
        return [program]
    indented = indented_blocks(region) if len(region) <= 2 * MAX_CODE_CHARS else []
    blocks = [b for b in indented[-MAX_INDENTED_BLOCKS:] if _runs_or_defines(b)]
    if blocks:  # Markdown's other code block: indented four spaces
        return _programs(blocks, needs)
    blocks = fenced_blocks(text) if region is not text and region.strip() else []
    if blocks:  # no program in the answer region, which points back at the reasoning's
        return _programs(blocks, needs)
    if "<answer>" in text and region.strip():
        return [region]
    return []


def prose_after(solution_str: str, program: str) -> str:
    """The prose after ``program`` in the answer region, as a reader sees it
    (:func:`..extract.reading`): from the end of its block's closing fence (of its last line,
    for a program written without a fence), without later code blocks (an example of use,
    tests); empty where the program is not in the answer region (a program of the reasoning)."""
    region = answer_region(tail(solution_str))
    ends = [
        end for _, end, block in fenced_spans(region) if block.strip() and block.strip() in program
    ]
    if ends:  # the program's block: prose starts after its closing fence
        rest = region[ends[-1] :]
    else:  # written without a fence: prose starts after its last line
        last = next((line.strip() for line in reversed(program.split("\n")) if line.strip()), "")
        at = region.find(last, region.find(program.strip().split("\n")[0].strip())) if last else -1
        if at < 0:
            return ""
        rest = _FENCE_LINE.sub("", region[at + len(last) :], count=1)
    prose, pos = [], 0
    for fence in _FENCE_OPEN.finditer(rest):
        if fence.start() < pos:
            continue
        prose.append(rest[pos : fence.start()])
        close = rest.find(fence.group(1), fence.end())
        pos = len(rest) if close < 0 else close + len(fence.group(1))
    prose.append(rest[pos:])
    return reading(" ".join(prose))


def inline_programs(prose: str, program: str) -> list[str] | None:
    """Programs written inline in the prose after ``program`` (docs/guides/sandbox.md#which-block-is-the-program):
    inline code that is a statement the program does not hold is another program offered (``An
    equivalent one-liner is `add = lambda a, b: a + b`.``), an alternative like a second block;
    None where one of them is a fragment no test can run (`` `return a - b` ``), which offers a
    change of the program and is a hedge. A call (`` `add(2, 3)` ``), a use that binds other
    names (`` `x = add(2, 3)` ``) or a line the program holds offers nothing."""
    written = "".join(program.split())
    names = _binds(_statements(program) or [])
    offered = []
    for span in _INLINE_CODE.finditer(prose):
        code = span.group(1).strip()
        if not _STATEMENT.search(code) or "".join(code.split()) in written:
            continue
        body = _statements(code)
        if body and _binds(body) & names:
            offered.append(code + "\n")  # the program's own name, defined another way
        elif not body or not _binds(body):
            return None  # a line of a program ("return a - b") that no test can run
    return offered


def comments(program: str) -> str:
    """The comments of ``program``, one a line (its prose inside the code); empty where it does
    not tokenize."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO(program).readline)
        return "\n".join(t.string.lstrip("#").strip() for t in tokens if t.type == tokenize.COMMENT)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return ""


def extract_code(solution_str: str) -> str | None:
    """The program a response is judged on (None without code)."""
    programs = extract_programs(solution_str)
    return programs[0] if programs else None


def job_for(code: str, ground_truth: str) -> dict | None:
    """The sandbox job for ``code`` under the ground truth's tests, or None if it is malformed."""
    try:
        truth = json.loads(ground_truth)
    except (ValueError, TypeError):
        return None
    if not isinstance(truth, dict):
        return None
    if isinstance(truth.get("functional"), str):
        return {"kind": "functional", "code": code, "tests": truth["functional"]}
    inputs, outputs = truth.get("inputs"), truth.get("outputs")
    if isinstance(inputs, list) and isinstance(outputs, list) and len(inputs) == len(outputs):
        return {"kind": "stdio", "code": code, "inputs": inputs, "outputs": outputs}
    if isinstance(truth.get("test"), str):
        return {"kind": "unittest", "code": code, "tests": truth["test"]}
    return None


def has_tests(ground_truth: str) -> bool:
    """Whether the ground truth holds at least one test (an assert, an input, a ``test*`` method),
    decided from its text alone: ``pac-verl prep check`` uses it on rows without a gold. Functional
    tests that the judge refuses to run (``judge.plan_functional``: no assert, LeetCodeDataset's
    helpers left out) hold none."""
    job = job_for("", ground_truth)
    if job is None:
        return False
    if job["kind"] == "stdio":
        return bool(job["inputs"])
    try:
        tree = ast.parse(job["tests"])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if job["kind"] == "functional":
        try:
            judge.plan_functional(job["tests"])
        except judge.BadTests:
            return False
        return True
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")
        for cls in ast.walk(tree)
        if isinstance(cls, ast.ClassDef)
        for node in cls.body
    )


def empty_program(ground_truth: str) -> str | None:
    """For functional tests, a program that defines every name the tests take from the program as
    a stub (a function returning None; a class whose methods return None where the tests use the
    name as a class, ``Solution().f``), as a fenced response; None for other tests. A ground truth
    under which it scores 1 checks nothing worth a reward (``pac-verl prep check`` reports it). A
    program that defines nothing needs no run: with no value from the sandbox no check counts, so
    it can never score 1."""
    job = job_for("", ground_truth)
    if job is None or job["kind"] != "functional":
        return None
    try:
        plan = judge.plan_functional(job["tests"])
        tree = ast.parse(job["tests"])
    except (judge.BadTests, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    classes = {
        n.value.func.id if isinstance(n.value, ast.Call) else n.value.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute)
        and (
            isinstance(n.value, ast.Name)
            or (isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name))
        )
    }
    stubs = []
    for name in plan.names:
        if name in classes:
            stubs.append(f"class {name}:\n    def __init__(self, *args, **kwargs):\n        pass\n"
                         "    def __getattr__(self, name):\n"
                         "        return lambda *args, **kwargs: None\n")  # fmt: skip
        else:
            stubs.append(f"def {name}(*args, **kwargs):\n    return None\n")
    return "```python\n" + ("\n".join(stubs) or "pass\n") + "```"


MAX_ALTERNATIVES = 4  # more different programs than this in one answer is a hedge, unrun


def score(
    solution_str: str,
    ground_truth: str,
    limits: Limits | None = None,
    python: str | None = None,
    budget: Budget | None = None,
    sandbox: SandboxSettings | None = None,
) -> Verdict:
    """Score one response; ``budget`` bounds its time in the sandbox (see the module docstring):
    alternatives share it, each run getting what the earlier ones left. ``sandbox``: the reward
    call's sandbox settings (training: the config's ``reward_kwargs.sandbox``); None reads the
    environment (``sandbox/settings.py``)."""
    if think_unclosed(tail(solution_str)):
        return fail("cut_off")  # the response never left its reasoning: no answer
    programs = extract_programs(solution_str, ground_truth)
    if programs:
        prose = prose_after(solution_str, programs[0])
        if lexicon.doubts_program(prose + "\n" + comments(programs[0])):
            return fail("hedged")  # "I'm not sure this handles negatives.", "# not sure ..."
        inline = inline_programs(prose, programs[0])
        if inline is None:
            return fail("hedged")  # "use `return a - b` instead": a change no test can run
        programs = [*programs, *inline]
    if len(programs) > 1:  # alternatives: every one must pass (the hedging rule)
        if len(programs) > MAX_ALTERNATIVES:
            return fail("hedged")
        deadline = None if budget is None else time.monotonic() + budget.timeout_s
        verdicts = []
        for program in programs:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return fail("timeout")
                budget = replace(budget, timeout_s=left)
            verdicts.append(_score_program(program, ground_truth, limits, python, budget, sandbox))
        if all(v.correct for v in verdicts):
            return verdicts[0]
        return fail("hedged") if any(v.correct for v in verdicts) else verdicts[0]
    only = programs[0] if programs else ""
    return _score_program(only, ground_truth, limits, python, budget, sandbox)


def _score_program(
    code: str,
    ground_truth: str,
    limits: Limits | None,
    python: str | None,
    budget: Budget | None,
    sandbox: SandboxSettings | None,
) -> Verdict:
    if not code.strip():
        return fail("no_code")
    if len(code) > MAX_CODE_CHARS:
        return fail("too_long")
    job = job_for(code, ground_truth)
    if job is None:
        return fail("bad_ground_truth")
    kind = job["kind"]
    limits = limits or default_limits(kind, sandbox)
    if kind == "functional":
        try:
            plan = judge.plan_functional(job["tests"])
        except judge.BadTests:
            return fail("bad_ground_truth")
        calls_job, converse = judge.functional_session(code, plan, limits)
        result = run_job(calls_job, limits, python, budget, sandbox, converse=converse)
        if result.reason == "tests_timeout":  # the tests, not the program, ran out of time
            return fail("bad_ground_truth")
        return judge.judge_functional(result.report) if result.passed else fail(result.reason)
    if kind == "stdio":
        if not job["inputs"]:
            return fail("bad_ground_truth")
        stdio = {"kind": kind, "code": code, "inputs": job["inputs"]}
        result = run_job(stdio, limits, python, budget, sandbox)
        return (
            judge.judge_stdio(job["outputs"], result.report)
            if result.passed
            else fail(result.reason)
        )
    unittest = {"kind": kind, "code": code, "tests": job["tests"]}
    result = run_job(unittest, limits, python, budget, sandbox)
    return judge.judge_unittest(result.report) if result.passed else fail(result.reason)
