"""The reference scorers of scripts/bench/: scorers imported from a checkout the user
points at (``--reference NAME=DIR``), and verl 0.7.1's prime_code behind the bench-only pyext
stand-in. The checkouts here are small files written by the tests in the layout of the real
repositories (their code is not in this project); prime_code is verl's own, run for real."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"
sys.path.insert(0, str(BENCH))

import agreement  # noqa: E402
import reference_scorers  # noqa: E402


def checkout(root: Path, relative: str, source: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return root


def test_reference_arguments_name_what_to_fix():
    assert reference_scorers.parse_reference_args(["tinyzero=/a", "code-r1=/b"]) == {
        "tinyzero": "/a",
        "code-r1": "/b",
    }
    for bad in ("tinyzero", "tiny=/a", "logic-rl="):
        with pytest.raises(ValueError, match="NAME=DIR with NAME one of"):
            reference_scorers.parse_reference_args([bad])


def test_a_reference_not_given_or_not_there_gets_a_line(tmp_path):
    with pytest.raises(reference_scorers.NotLoaded, match=r"--reference tinyzero=DIR"):
        reference_scorers.load("tinyzero", None)
    with pytest.raises(reference_scorers.NotLoaded, match=r"not found.*Unakar/Logic-RL"):
        reference_scorers.load("logic-rl", str(tmp_path))
    broken = checkout(tmp_path, "verl/utils/reward_score/kk.py", "import no_such_module_here\n")
    with pytest.raises(reference_scorers.NotLoaded, match=r"does not import here.*no_such_module"):
        reference_scorers.load("logic-rl", str(broken))


def test_a_checkout_is_imported_without_shadowing_the_installed_verl(tmp_path):
    root = checkout(
        tmp_path,
        "verl/utils/reward_score/countdown.py",
        "def compute_score(s, gt):\n    return 7\n",
    )
    (root / "verl" / "__init__.py").write_text("raise ImportError('the fork, not verl 0.7.1')\n")
    module = reference_scorers.load("tinyzero", str(root))
    assert module.compute_score("", {}) == 7
    assert not Path(importlib.util.find_spec("verl").origin).is_relative_to(tmp_path)


def test_a_package_reference_keeps_its_relative_imports(tmp_path, monkeypatch):
    monkeypatch.setenv("CODER1_EXEC", "docker")  # no firejail check for this one
    base = "verl/utils/reward_score/coder1/"
    checkout(tmp_path, base + "utils.py", "PREFIX = 'x'\n")
    checkout(tmp_path, base + "__init__.py", "from .utils import PREFIX\n")
    assert reference_scorers.load("code-r1", str(tmp_path)).PREFIX == "x"


def test_code_r1_without_firejail_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.delenv("CODER1_EXEC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no firejail on it
    checkout(tmp_path, "verl/utils/reward_score/coder1/__init__.py", "")
    with pytest.raises(reference_scorers.NotLoaded, match="apt-get install firejail"):
        reference_scorers.load("code-r1", str(tmp_path))


def test_tinyzero_is_given_the_last_box_as_its_answer_line(tmp_path):
    seen = tmp_path / "seen.txt"
    root = checkout(
        tmp_path,
        "verl/utils/reward_score/countdown.py",
        f"def compute_score(s, gt):\n    open({str(seen)!r}, 'w').write(s)\n    return 1.0\n",
    )
    refs, notes = agreement._checkout_references({"tinyzero": str(root)})
    assert any(note.startswith("logic-rl: not given") for note in notes)
    row = {"response": "work \\boxed{1+2} then \\boxed{3*1}", "ground_truth": json.dumps({})}
    assert refs["countdown"]["TinyZero countdown"](row) is True
    assert seen.read_text() == "<|im_start|>assistant\n<answer>3*1</answer>"


@pytest.fixture
def fresh_prime_code():
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:  # the stand-in stays in no other test's process state
        if name == "pyext" or name.startswith("verl.utils.reward_score.prime_code"):
            del sys.modules[name]


def test_verl_prime_code_runs_through_the_stand_in(fresh_prime_code):
    prime_code, how = reference_scorers.prime_code()
    assert how in ("pyext", "shim")
    assert reference_scorers.prime_code()[1] == how  # a second call says the same
    truth = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "55\n"]})
    right = "```python\nn = int(input())\nprint(n * (n + 1) // 2)\n```"
    wrong = "```python\nn = int(input())\nprint(n * n)\n```"
    assert reference_scorers.prime_code_accepts(prime_code, right, truth) is True
    assert reference_scorers.prime_code_accepts(prime_code, wrong, truth) is False


def test_code_rows_are_grouped_by_their_test_format():
    rows = agreement.load()
    groups = {agreement.group(r) for r in rows if r["task"] == "code"}
    assert groups == {"code (functional)", "code (stdio)", "code (unittest)"}
    assert agreement.group({"task": "math"}) == "math"
