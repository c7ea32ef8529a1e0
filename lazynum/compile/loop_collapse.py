"""Loop collapsing: adjacent loops that every address walks as one become one loop.

A kernel over a C-contiguous (1000000, 3) array has an inner loop of 3: too short to
vectorize.  Loops ``a`` (outer) and ``b`` (inner, extent ``E``) merge when every index
expression of the kernel is ``c * (E * a + b) + rest``, i.e. the coefficient of ``a`` is
``E`` times the coefficient of ``b`` (both linear, neither under ``//`` or ``%``): then
``b`` alone, run over ``extent(a) * E``, produces the same addresses.  Sizes may be
symbolic: the test is polynomial equality.
"""
from __future__ import annotations

import dataclasses

from . import index_expr as ix
from .kernel_ir import Loop, Stmt, walk_phases


def _indexes(kernel):
    for phase in walk_phases(kernel.phases):
        for stmt in phase.body:
            if stmt.op in ("load", "index"):
                yield stmt.args[-1]
        for store in phase.stores:
            yield store.index


def _mergeable(kernel, outer: Loop, inner: Loop) -> bool:
    for index in _indexes(kernel):
        a = ix.coefficient(index, outer.var)
        b = ix.coefficient(index, inner.var)
        if a is None or b is None or a[0] != b[0] * inner.extent:
            return False
    return True


def _drop_var(kernel, var: int) -> None:
    zero = {var: ix.ZERO}
    for phase in walk_phases(kernel.phases):
        phase.body = [Stmt(s.name, s.op, s.args[:-1] + (ix.substitute(s.args[-1], zero),), s.dtype, s.origin)
                      if s.op in ("load", "index") else s for s in phase.body]
        phase.stores = [dataclasses.replace(s, index=ix.substitute(s.index, zero))
                        for s in phase.stores]


def _collapse(kernel, loops: list) -> list:
    loops = list(loops)
    k = len(loops) - 2
    while k >= 0:
        outer, inner = loops[k], loops[k + 1]
        if _mergeable(kernel, outer, inner):
            _drop_var(kernel, outer.var)
            loops[k:k + 2] = [Loop(inner.var, outer.extent * inner.extent)]
        k -= 1
    return loops


def collapse_loops(kernel):
    """Merge every collapsible pair of adjacent loops of ``kernel`` (in place); returns it."""
    kernel.outer = _collapse(kernel, kernel.outer)
    for phase in walk_phases(kernel.phases):
        phase.inner = _collapse(kernel, phase.inner)
    return kernel
