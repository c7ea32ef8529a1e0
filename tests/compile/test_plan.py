"""compile.plan: the backend-neutral plan a backend renders (value numbers, steps, strategies)."""
from __future__ import annotations

import ast
import pathlib

import numpy as np

import lazynum
import lazynum.backends.llvm as llvm_backend
from lazynum.backends.llvm.capabilities import SUPPORTS
from lazynum.compile.loop_strategy import SHORT_ROW_BLOCK, SHORT_ROWS, LoopStrategy
from lazynum.compile.plan import ExternStep, KernelStep, make_plan

from .llvm_harness import on_llvm

RNG = np.random.default_rng(7)


def _plan(fn, *arrays, supports=SUPPORTS):
    """The plan ``supports`` gets for the last program ``fn`` compiles (planned before the
    run: a sync replaces the cut's nodes by their buffers)."""
    plans = []
    with on_llvm():
        recording = llvm_backend.compile

        def planning(cut):
            plans.append(make_plan(cut, supports))
            return recording(cut)
        llvm_backend.compile = planning
        np.asarray(fn(lazynum, *[lazynum.asarray(a) for a in arrays]))
    return plans[-1]


def test_buffers_carry_the_value_numbers_that_steps_use():
    x, y = RNG.random((40, 30)), RNG.random(30)
    plan = _plan(lambda m, a, b: (m.exp(a) + b).sum(axis=1) * 2.0 + (a * b).max(), x, y)
    by_name = {k.name: k for k in plan.kernels}
    for step in plan.steps:
        if isinstance(step, KernelStep):
            kernel = by_name[step.name]
            assert step.args == [b.number for b in kernel.buffers if b.role != "param"]
            assert set(step.writes) <= set(step.args)
    # x, y and the hoisted Python scalar 2.0 (a 0-d input passed by value: never in the code)
    assert plan.n_inputs == 3 and plan.scalars == [2] and len(plan.outputs) == 1
    assert all(n >= plan.n_inputs for ns in plan.releases.values() for n in ns)


def test_loop_strategies_are_decided_in_the_plan():
    x = RNG.random((300, 200))
    column = _plan(lambda m, a: a.sum(axis=0), x)
    assert [k.strategy for k in column.kernels] == [LoopStrategy(column_order=True)]
    whole = _plan(lambda m, a: a.sum(), x)
    (step,) = [s for s in whole.steps if isinstance(s, KernelStep)]
    assert whole.kernels[0].strategy.split_slots == step.split == 1
    rows = _plan(lambda m, a: a.sum(axis=1), x)       # row order, column order for short rows
    assert [k.strategy for k in rows.kernels] == [LoopStrategy(short_rows=SHORT_ROWS,
                                                             column_block=SHORT_ROW_BLOCK)]


class _NothingCompiles:
    """A backend with no kernel code at all: every node is a call of its reference."""

    def node(self, node):
        return False

    def why_not(self, node):
        return "this test backend compiles nothing"

    def reduction(self, combine, dtype):
        return False

    def routine(self, name, dtype):
        return False


def test_a_backend_with_no_kernels_gets_a_plan_of_calls():
    x = RNG.random((5, 4))
    plan = _plan(lambda m, a: m.sqrt(a).sum(axis=0) + 1.0, x, supports=_NothingCompiles())
    assert plan.kernels == [] and plan.steps
    assert all(isinstance(s, ExternStep) for s in plan.steps)


def test_the_compile_layer_imports_no_backend():
    root = pathlib.Path(lazynum.__file__).parent / "compile"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert "backends" not in (node.module or ""), f"{path.name} imports {node.module}"


def test_rolls_are_index_math_inside_one_kernel():
    # A periodic stencil (the coupling of a ring of pendulums, a torus's neighbour count):
    # every roll is a modular index into its argument, so the whole expression is one
    # kernel and no extern call (a roll was a concatenate of two slices: an extern step).
    ring = RNG.random(50)
    plan = _plan(lambda m, a: m.roll(a, 1) + m.roll(a, -1) - 2 * a, ring)
    assert len(plan.kernels) == 1 and all(isinstance(s, KernelStep) for s in plan.steps)
    board = RNG.random((12, 9))
    torus = _plan(lambda m, g: sum(m.roll(m.roll(g, dy, axis=0), dx, axis=1)
                                   for dy in (-1, 0, 1) for dx in (-1, 0, 1)), board)
    assert len(torus.kernels) == 1 and all(isinstance(s, KernelStep) for s in torus.steps)
    with on_llvm():
        got = np.asarray(sum(lazynum.roll(lazynum.roll(lazynum.asarray(board) * 2, dy, axis=0),
                                          dx, axis=1) for dy in (-2, 1) for dx in (-1, 4)))
    expected = sum(np.roll(np.roll(board * 2, dy, axis=0), dx, axis=1)
                   for dy in (-2, 1) for dx in (-1, 4))
    np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_a_loop_of_rolls_plans_work_linear_in_its_steps():
    # Each step reads the last state at three points (i - 1, i, i + 1).  A stored state read
    # at another point must be loaded, not recomputed: recomputing it recomputed every
    # earlier step at every shifted point, 3**steps statements (20 steps took minutes).
    def planned(steps):
        def ring(m, a):
            theta, omega = a, a * 0.0
            for _ in range(steps):
                omega = omega + 0.01 * (m.roll(theta, 1) + m.roll(theta, -1) - 2 * theta)
                theta = theta + 0.01 * omega
            return theta
        plan = _plan(ring, RNG.random(16))
        statements = sum(len(phase.body) for kernel in plan.kernels for phase in kernel.phases)
        return len(plan.steps), statements
    (steps_24, code_24), (steps_48, code_48) = planned(24), planned(48)
    assert 0 < steps_48 <= 2.5 * steps_24
    # the loop body's kernels are templates compiled once: twice the steps, no more code
    assert 0 < code_48 <= 1.2 * code_24
