"""Row-blocked matrix-vector pairs: ``X @ w``, then row-wise work, then ``X.T @ r`` in one pass.

A loss and its gradient over a tall matrix read it twice: the forward product
``z = X @ w`` and the gradient ``X.T @ r`` where ``r`` is computed row by row from ``z``
(logistic regression: ``r = sigmoid(z) - y``).  Two BLAS calls are two passes over ``X``
from memory.  Run by blocks of rows instead (``z[b] = X[b] @ w``; the row-wise kernels on
rows ``b``; ``g += X[b].T @ r[b]``), each block of ``X`` is still in cache for the second
product: one pass over memory.

``arrange(steps, kernels, shape_of)`` finds such groups in a plan's steps, moves each
group's steps next to each other (steps that need all of ``z``, such as the loss's sum,
after it; steps that do not depend on ``z``, before it) and returns each group as
``(first step, last step)``.  A backend may run a group by blocks (``backends/llvm``
does) or its steps in order as always: the reordering keeps every dependency.

A group, in step order: ``E1`` a matmul of a 2-d ``X`` (n, k) by a 1-d ``w`` giving
``z`` (n,); kernels whose single outer loop runs over the n rows and that read values of
the group only at their own row; views of their results (the backend checks at run time
that a view keeps rows in place, else it runs the group unblocked); ``E2`` a matmul that
contracts over the n rows, one operand computed in the group (``r`` as (n,) or (n, 1)),
the other not (``X.T``).
"""
from __future__ import annotations

from . import index_expr as ix
from .kernel_ir import walk_phases

MATMUL, VIEW = "matmul", "view"


def arrange(steps, kernels, shape_of) -> list:
    """Reorder ``steps`` (in place) so that each row-blocked group is contiguous; return
    the groups as ``(first, last)`` step indexes.  ``kernels`` maps a kernel step's index
    to its kernel (lowered, buffers numbered); ``shape_of(number)`` gives a value's shape
    spec."""
    groups = []
    index = 0
    while index < len(steps):
        found = _group_from(steps, index, kernels, shape_of)
        if found is None:
            index += 1
            continue
        before, group, after, last = found
        order = before + group + after
        moved = [steps[j] for j in order]
        kernels_moved = {order.index(j) + index: kernels[j] for j in order if j in kernels}
        for j in order:
            kernels.pop(j, None)
        kernels.update(kernels_moved)
        steps[index:last + 1] = moved
        first = index + len(before)
        groups.append((first, first + len(group) - 1))
        index = first + len(group)
    return groups


def _is_matmul(step) -> bool:
    return getattr(getattr(step, "op", None), "name", None) == MATMUL


def _group_from(steps, start, kernels, shape_of):
    """The group whose ``E1`` is ``steps[start]``, as (indexes to move before it, the
    group's indexes, indexes to move after it, index of ``E2``), or None."""
    e1 = steps[start]
    if not _is_matmul(e1) or len(e1.args) != 2:
        return None
    x_shape, w_shape = shape_of(e1.args[0]), shape_of(e1.args[1])
    if len(x_shape) != 2 or len(w_shape) != 1:
        return None
    rows = x_shape[0]
    depends = {e1.out}              # values computed from z
    in_z = []                       # step indexes after E1 that depend on z
    for j in range(start + 1, len(steps)):
        step = steps[j]
        outs = _outputs(step)
        if not any(a in depends for a in step.args):
            continue
        if _is_matmul(step) and _contracts_rows(step, rows, depends, shape_of):
            needed = _needed(steps, start, j)
            chain = [i for i in in_z if i in needed]
            if all(_row_local(steps[i], kernels.get(i), depends, rows) for i in chain):
                between = range(start + 1, j)
                before = [i for i in between if i not in in_z]
                after = [i for i in in_z if i not in needed]
                return before, [start] + chain + [j], after, j
            return None
        depends.update(outs)
        in_z.append(j)
    return None


def _outputs(step) -> list:
    writes = getattr(step, "writes", None)
    return list(writes) if writes is not None else [step.out]


def _contracts_rows(step, rows, depends, shape_of) -> bool:
    """``step`` (a matmul) contracts over the ``rows`` axis, with exactly one operand
    computed from z: ``A (k, n) @ r (n,) or (n, 1)``, or ``r (n,) @ X (n, k)``."""
    a, b = step.args
    sa, sb = shape_of(a), shape_of(b)
    if (a in depends) == (b in depends):
        return False
    if len(sa) == 2 and sa[1] == rows and b in depends:
        return len(sb) == 1 and sb[0] == rows or len(sb) == 2 and sb == (rows, 1)
    if len(sa) == 1 and sa[0] == rows and a in depends:
        return len(sb) == 2 and sb[0] == rows
    return False


def _needed(steps, start, stop) -> set:
    """Indexes in (start, stop) whose results ``steps[stop]`` needs, directly or not."""
    wanted = set(steps[stop].args)
    needed = set()
    for j in range(stop - 1, start, -1):
        if any(o in wanted for o in _outputs(steps[j])):
            needed.add(j)
            wanted.update(steps[j].args)
    return needed


def _row_local(step, kernel, depends, rows) -> bool:
    """A view (checked again at run time), or a kernel over the rows, one outer loop,
    reading the group's values and storing only at its own row."""
    if kernel is None:
        return getattr(getattr(step, "op", None), "name", None) == VIEW
    if len(kernel.outer) != 1 or kernel.targets or kernel.outer[0].extent != ix.size_index(rows):
        return False
    row = ix.var(kernel.outer[0].var)
    group = {b.name for b in kernel.buffers if b.number in depends}
    for phase in walk_phases(kernel.phases):
        for stmt in phase.body:
            if stmt.op == "load" and stmt.args[0] in group and stmt.args[-1] != row:
                return False
    for phase in kernel.phases:
        if any(store.index != row for store in phase.stores):
            return False
    return True
