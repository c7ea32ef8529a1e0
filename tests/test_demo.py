"""The front door: the demo runs, and the README stays true to CI and to the settings table.

No timings are asserted here (the demo prints some; bench/ reports them).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from lazynum.control import settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"

DEMO_COMMAND = "pip install -e . && python -m lazynum.demo"
TEST_COMMAND = "pip install -e '.[test]' && python -m pytest -q -n 2"


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _clean_env() -> dict:
    """The environment without LAZYNUM_* settings, so a developer's shell cannot change the demo."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYNUM_")}
    env["LAZYNUM_CACHE_DIR"] = "off"      # counts of compiles must not depend on earlier runs
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


# -- the demo ---------------------------------------------------------------------------------

def test_demo_runs_and_prints_every_section():
    proc = subprocess.run([sys.executable, "-m", "lazynum.demo"], cwd=ROOT, env=_clean_env(),
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout
    assert proc.returncode == 0, f"demo failed:\n{out}\n{proc.stderr}"
    expected = [
        "[1] Record",
        "reduce_max(",                                     # the printed pending graph
        "syncs=0  nodes_computed=0",                        # nothing ran before the sync
        "[2] Sync",
        "syncs=1",
        "numpy.allclose(y, the same code run by NumPy) -> True",
        "[3] Cache",
        "in those 4 syncs: syncs=4  compiles=1  cache_hits=3",   # one program for 4 sizes
        "[4] Mutation through views",
        "syncs while recording those writes: 0",
        "a, v, w equal to the same code run by NumPy: True",
        "[5] Data-dependent shapes",
        "(<=1000000,)",                                      # a bounded shape prints its bound
        "for 3 thresholds: syncs=3  compiles=1  cache_hits=2",  # one program for every mask
        "stats equal to NumPy's data[data > 2.0].mean(), .var(): True",
        "[6] LAZYNUM_SYNC=raise",
        "lazynum.SyncError: implicit sync (bool) at <demo step 6>:3",
        "[7] Time against NumPy",
        "x[x > 0.25]: sum, mean, var",
        "lazynum/NumPy",
    ]
    missing = [text for text in expected if text not in out]
    assert not missing, f"demo output lacks {missing}:\n{out}"
    assert "unexpected" not in out
    assert len(out.splitlines()) <= 80, "the demo should fit on about one screen"


# -- the README's commands --------------------------------------------------------------------

def test_readme_starts_with_the_demo_and_test_commands():
    lines = _readme().splitlines()
    assert lines[0].startswith("# ")
    body = [line for line in lines[1:] if line.strip()]
    assert body[0].startswith("```"), "the README must open with the commands, right under the title"
    end = body.index("```", 1)
    assert body[1:end] == [DEMO_COMMAND, TEST_COMMAND]


def _normalize(command: str) -> list:
    """One shell command as tokens, spelling-independent: python3 -> python,
    ``python -m pip`` -> ``pip``, and pip's --quiet dropped."""
    tokens = ["python" if t == "python3" else t for t in shlex.split(command)]
    if tokens[:3] == ["python", "-m", "pip"]:
        tokens = ["pip"] + tokens[3:]
    if tokens[:1] == ["pip"]:
        tokens = [t for t in tokens if t not in ("--quiet", "-q")]
    return tokens


def _ci_commands() -> list:
    commands = []
    for line in CI_RUN.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith(("set ", "cd ")):
            continue
        commands.append(line)
    return commands


def test_readme_test_command_is_what_ci_runs():
    ci = [_normalize(c) for c in _ci_commands()]
    readme = [_normalize(part) for part in TEST_COMMAND.split("&&")]
    assert ci == readme, f".ci/run runs {_ci_commands()}, the README says {TEST_COMMAND!r}"
    assert TEST_COMMAND in _readme()


# -- the README's examples ---------------------------------------------------------------------

def _python_blocks() -> list:
    return re.findall(r"```python\n(.*?)```", _readme(), re.S)


def test_readme_examples_run_and_print_what_they_say():
    blocks = _python_blocks()
    assert len(blocks) >= 2, "the quick example and the views example"
    source = "\n".join(blocks)
    proc = subprocess.run([sys.executable, "-c", source], cwd=ROOT, env=_clean_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "= reduce_max(in0)" in proc.stdout and "= divide(" in proc.stdout
    # Where a comment states what a print shows (a number), the prints show exactly those.
    stated = [comment.strip() for code, _, comment in (l.partition("#") for l in source.splitlines())
              if code.strip().startswith("print(") and re.fullmatch(r"\d+", comment.strip())]
    printed = [line for line in lines if re.fullmatch(r"\d+", line)]
    assert stated and printed == stated
    assert "[-1.  0. -1.  1. -1.  1. -1.  0.]" in lines
    assert "[0.00074351 0.00057453 0.00124399]" in lines


# -- the README's configuration table ----------------------------------------------------------

TABLE = re.compile(r"<!-- config-table:start -->\n(.*?)\n<!-- config-table:end -->", re.S)


def test_readme_config_table_is_settings_describe():
    match = TABLE.search(_readme())
    assert match, "README.md lacks the <!-- config-table:start/end --> markers"
    assert match.group(1).strip() == settings.describe(), (
        "README's configuration table differs from lazynum.control.settings.describe(); regenerate it "
        "with `python -m lazynum config-table` and paste it between the markers")


def test_config_table_command_prints_describe(capsys):
    from lazynum.__main__ import main
    assert main(["config-table"]) == 0
    assert capsys.readouterr().out.strip() == settings.describe()


@pytest.mark.parametrize("dtype", ["U3", "datetime64[s]"])
def test_readme_claim_other_dtypes_are_numpy_backed(dtype):
    import numpy
    import lazynum
    for x in (lazynum.asarray(numpy.zeros(2, dtype=dtype)), lazynum.zeros(2, dtype=dtype)):
        assert isinstance(x, lazynum.ndarray) and repr(x) == repr(numpy.zeros(2, dtype=dtype))
