"""compile.plan: the backend-neutral plan a backend renders (value numbers, steps, strategies)."""
from __future__ import annotations

import ast
import pathlib

import numpy as np

import lazynum
import lazynum.backends.llvm as llvm_backend
from lazynum.backends.llvm.capabilities import SUPPORTS
from lazynum.compile.loop_strategy import LoopStrategy
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
    rows = _plan(lambda m, a: a.sum(axis=1), x)
    assert [k.strategy for k in rows.kernels] == [LoopStrategy()]


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
