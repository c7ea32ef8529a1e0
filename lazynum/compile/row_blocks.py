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

A group, in step order: ``E1`` a matmul of a 2-d ``X`` (n, k) by ``w`` (k,) or ``W``
(k, c) giving ``z`` (n,) or (n, c); kernels whose first outer loop runs over the n rows and
that read and write values of the group only within their own row (``z[i]``, or
``z[i, v]`` for a loop ``v`` over the c columns: a softmax over each row); views of their
results (the backend checks at run time that a view keeps rows in place, else it runs the
group unblocked); ``E2`` a matmul that contracts over the n rows, one operand computed in
the group (``r`` as (n,) or (n, c)), the other not (``X.T``; the backend checks at run
time that it is ``X``'s memory, where the reuse is).  Softmax regression's
``X.T @ (softmax(X @ W) - Y)`` is one.
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
    if len(x_shape) != 2 or len(w_shape) not in (1, 2):
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
    computed from z: ``A (k, n) @ r (n,) or (n, c)``, or ``r (n,) @ X (n, k)``."""
    a, b = step.args
    sa, sb = shape_of(a), shape_of(b)
    if (a in depends) == (b in depends):
        return False
    if len(sa) == 2 and sa[1] == rows and b in depends:
        return len(sb) in (1, 2) and sb[0] == rows
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
    """A view (checked again at run time), or a kernel whose first outer loop runs over
    the rows and that reads the group's values and stores only within its own row."""
    if kernel is None:
        return getattr(getattr(step, "op", None), "name", None) == VIEW
    if kernel.targets or not kernel.outer or kernel.outer[0].extent != ix.size_index(rows):
        return False
    row = kernel.outer[0].var
    extents = {loop.var: loop.extent for loop in kernel.outer}
    for phase in walk_phases(kernel.phases):
        extents.update((loop.var, loop.extent) for loop in phase.inner)
    shapes = {b.name: b.shape for b in kernel.buffers}
    group = {b.name for b in kernel.buffers if b.number in depends}
    for phase in walk_phases(kernel.phases):
        for stmt in phase.body:
            if (stmt.op == "load" and stmt.args[0] in group
                    and not _in_row(stmt.args[-1], shapes[stmt.args[0]], row, extents)):
                return False
    return all(_in_row(store.index, shapes[store.buffer], row, extents)
               for phase in kernel.phases for store in phase.stores)


def _in_row(index, shape, row, extents) -> bool:
    """``index`` addresses row ``row`` of a C-contiguous ``shape`` buffer: ``row`` itself
    (one value a row) or ``width * row + v`` for a loop variable ``v`` over ``[0, width)``."""
    if len(shape) == 1:
        return index == ix.var(row)
    if len(shape) != 2:
        return False
    width = ix.size_index(shape[1])
    rest = index - width * ix.var(row)
    if len(rest.terms) != 1:
        return False
    (monomial, coefficient), = rest.terms
    if coefficient != 1 or len(monomial) != 1 or monomial[0][0] != "v":
        return False
    return monomial[0][1] != row and extents.get(monomial[0][1]) == width
