"""Shrink a failing fuzz program, and write it as a standalone reproducer script.

Shrinking keeps a change while the program still fails with the same category: remove
chunks of statements (halving down to single ones), drop unused inputs, cut input arrays
along an axis, zero their values, and strip optional arguments from statements.
"""
from __future__ import annotations

import ast
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time

import numpy

from .program import Program
from .run import check, public_type, run_numpy, settings_for
from .values import array_literal, python_literal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONAL_ARGUMENTS = [r", keepdims=True", r", ddof=1", r", kind='stable'", r", dtype=np\.\w+",
                      r", copy=False", r", casting='unsafe'", r", where=[^,)]+", r", axis=-?\d+"]


class Shrinker:
    """Greedy shrinking under ``still_fails(program) -> bool`` and a budget of runs and
    seconds (the driver counts a silent worker as hung)."""

    def __init__(self, still_fails, budget: int = 400, seconds: float = 120.0):
        self.still_fails = still_fails
        self.budget = budget
        self.deadline = time.monotonic() + seconds
        self.runs = 0

    def fails(self, program: Program) -> bool:
        if self.runs >= self.budget or time.monotonic() > self.deadline:
            return False
        self.runs += 1
        return self.still_fails(program)

    def shrink(self, program: Program) -> Program:
        while self.runs < self.budget and time.monotonic() < self.deadline:
            before = program.size()
            program = self._statements(program)
            program = self._inputs(program)
            program = self._texts(program)
            if program.size() >= before:
                break
        return program

    def _statements(self, program: Program) -> Program:
        chunk = max(1, len(program.statements) // 2)
        while chunk >= 1:
            start = len(program.statements) - chunk
            while start >= 0:
                statements = program.statements[:start] + program.statements[start + chunk:]
                candidate = program.replace(statements=statements)
                if statements != program.statements and self.fails(candidate):
                    program = candidate
                start -= chunk
            chunk //= 2
        return program

    def _inputs(self, program: Program) -> Program:
        used = set().union(*(s.names() for s in program.statements)) if program.statements else set()
        candidate = program.replace(inputs=tuple((n, a) for n, a in program.inputs if n in used))
        if candidate.inputs != program.inputs and self.fails(candidate):
            program = candidate
        for position in range(len(program.inputs)):
            for array in _smaller_arrays(program.inputs[position][1]):
                inputs = list(program.inputs)
                inputs[position] = (inputs[position][0], array)
                candidate = program.replace(inputs=tuple(inputs))
                if self.fails(candidate):
                    program = candidate
                    break
        return program

    def _texts(self, program: Program) -> Program:
        for position, statement in enumerate(program.statements):
            for pattern in OPTIONAL_ARGUMENTS:
                simpler = re.sub(pattern, "", statement.text, count=1)
                if simpler == statement.text:
                    continue
                lazy = re.sub(pattern, "", statement.lazy_text, count=1) if statement.lazy_text else None
                changed = type(statement)(simpler, statement.kind, lazy)
                statements = program.statements[:position] + (changed,) + program.statements[position + 1:]
                candidate = program.replace(statements=statements)
                if self.fails(candidate):
                    program, statement = candidate, changed
        return program


def _smaller_arrays(array: numpy.ndarray):
    """Simpler versions of an input: one fewer row along some axis, then all zeros."""
    for axis in range(array.ndim):
        if array.shape[axis] > 1:
            yield numpy.delete(array, -1, axis=axis)
            yield numpy.delete(array, 0, axis=axis)
    if array.size and numpy.any(array != 0):
        yield numpy.zeros_like(array)
        if array.size <= 12:
            for position in range(array.size):
                if array.flat[position] != 0:
                    simpler = array.copy()
                    simpler.flat[position] = 0
                    yield simpler


def shrink(program: Program, failure, lazynum, backend: str, budget: int = 400) -> Program:
    """The smallest variant of ``program`` that still fails with ``failure``'s category."""
    def same_failure(candidate):
        result = check(candidate, lazynum, backend)
        return result.status == "fail" and result.failure.category == failure.category
    return Shrinker(same_failure, budget).shrink(program)


def shrink_crash(program: Program, backend: str, budget: int = 80) -> Program:
    """The smallest variant of ``program`` that still kills the process running it (each
    try runs in a fresh ``python -m bench.fuzz.worker --program``)."""
    def still_crashes(candidate):
        with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as handle:
            pickle.dump(candidate, handle)
        try:
            run = subprocess.run([sys.executable, "-m", "bench.fuzz.worker", "--program", handle.name,
                                  "--backends", backend], cwd=ROOT, capture_output=True, timeout=300)
            return run.returncode < 0 or run.returncode >= 128
        except subprocess.TimeoutExpired:
            return False
        finally:
            os.unlink(handle.name)
    return Shrinker(still_crashes, budget, seconds=600.0).shrink(program)


# ----- reproducer scripts ---------------------------------------------------------------------

HEADER = '''"""lazynum fuzz reproducer: {category}

Seed {seed}, backend {backend} (found by `python -m bench.fuzz`).
Variable: {variable}; statement: {statement}
NumPy:   {numpy_result}
lazynum: {lazynum_result}
Exits with status 1 while the bug is there.
"""
import numpy

import lazynum as np


def live():
    """Every lazynum array bound at module level (what the fuzzer syncs after an error)."""
    return [v for v in globals().values() if isinstance(v, (np.ndarray, np.BoundedArray))]


with np.config(backend="{lazynum_backend}", cache_dir="off", compile="{compile}",
               immediate_below={immediate_below}):
'''


def reproducer(program: Program, failure, backend: str) -> str:
    """A standalone script: imports, inputs as literal arrays, statements, and a check that
    prints both results and fails while lazynum differs from NumPy."""
    reference = run_numpy(program)
    settings = settings_for(backend)
    text = HEADER.format(category=failure.category, seed=program.seed, backend=backend,
                         lazynum_backend=settings["backend"], compile=settings["compile"],
                         immediate_below=settings["immediate_below"],
                         variable=failure.variable, statement=failure.statement,
                         numpy_result=_one_line(failure.numpy_result),
                         lazynum_result=_one_line(failure.lazynum_result))
    body = [f"{name} = np.asarray({array_literal(array)})" for name, array in program.inputs]
    for k, statement in enumerate(program.statements):
        body += _statement_lines(k, statement, reference, failure)
    tail = _ending(failure, reference)
    return text + "".join("    " + line + "\n" for line in body) + tail


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:400]


def _statement_lines(k, statement, reference, failure) -> list:
    source = statement.source(True)
    error = reference.errors[k]
    if error is None:
        note = ""
        if failure.statement == k:
            note = ("   # lazynum raises here; NumPy does not" if failure.category.startswith("raise-")
                    else "   # lazynum's sync fails in the op recorded here")
        return [source + note]
    name = public_type(error).__name__
    if failure.category.startswith("raise-deferred") and failure.statement == k:
        return ["try:", f"    {source}", f"except {name}:", "    pass",
                "else:", f"    raise SystemExit('NumPy raises {name} at this statement; lazynum does not')"]
    lines = ["try:", f"    {source}", "    np.sync(*live())   # a data-dependent error may surface here",
             f"except {name}:", f"    pass   # NumPy: {_one_line(str(error))[:100]}", "else:",
             f"    raise SystemExit('NumPy raises {name} at: {_escape(source)}')"]
    unbound = sorted(_targets(statement.text) - reference.names[k])
    if unbound:
        lines.append(f"for _name in {unbound!r}:   # NumPy never bound these")
        lines.append("    globals().pop(_name, None)")
    return lines


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def _targets(text: str) -> set:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)
                          and isinstance(target, (ast.Name, ast.Tuple))}
    return names


def _ending(failure, reference) -> str:
    name = failure.variable
    if failure.category.startswith("sync-raise"):
        return "    np.sync(*live())   # lazynum raises here; NumPy computed every value\n"
    if failure.category.startswith(("crash", "hang")):
        return "    np.sync(*live())   # the fuzzer's final sync: the process dies or hangs here\n"
    if name is None or name not in reference.final:
        return ""
    expected = reference.final[name]
    if type(expected) in (bool, int, float):
        literal = python_literal(expected)
        check = ("same = type(got) is type(expected) and (got == expected or "
                 "(got != got and expected != expected))")
    else:
        literal = array_literal(numpy.asarray(expected))
        check = ("got = numpy.asarray(got)\n"
                 "same = (got.dtype == expected.dtype and got.shape == expected.shape and\n"
                 "        (numpy.array_equal(got, expected) if got.dtype.kind not in 'fc' else\n"
                 "         numpy.allclose(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)))")
    return (f"    got = {name}\n"
            f"expected = {literal}   # NumPy's {name}\n"
            f"{check}\n"
            f"print('lazynum:', repr(got))\n"
            f"print('NumPy:  ', repr(expected))\n"
            "raise SystemExit(0 if same else 1)\n")
