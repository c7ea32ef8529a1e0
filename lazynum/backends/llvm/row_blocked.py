"""Run a row-blocked group of a program (``compile.row_blocks``) one block of rows at a time.

The group is ``z = X @ w`` (or ``X @ W``), kernels computing ``r`` row by row from ``z``,
views of their results, and a product contracting the rows (``X.T @ r``).  By blocks of rows: ``z[b] =
X[b] @ w`` (BLAS into ``z``'s rows), each kernel launched over rows ``b`` (a kernel takes
the range of its outer loop), then ``X[b].T @ r[b]`` added to the result.  The block of
``X`` is read from memory once and from cache the second time.

Everything is checked before the first block; where a check fails (a view that moves rows,
an ``X`` small enough to stay in cache, too few rows for two blocks, a second product that
does not read ``X``) ``run_group`` returns False having computed nothing the
ordinary run would not recompute, and the program runs the group's steps in order.
"""
from __future__ import annotations

import numpy as np

from ...compile.plan import ExternStep, KernelStep, evaluate
from .. import buffer_pool
from . import blas_threads, fp_flags, workers

# Bytes of X a block holds: the block must still be in cache (the threads' L2 shares) when
# the second product reads it; more rows a block amortize the per-block calls (measured on
# a 10^6 x 100 float32 X: 8192-row blocks, 3.2 MB, were fastest).
BLOCK_BYTES = 3 << 20
MIN_BLOCK_ROWS = 256
# Below this size X stays in the last-level cache between the two products anyway, and
# blocking only multiplies BLAS calls (a 2-layer MLP's 8 MB hidden layer ran slower
# blocked: each small threaded call synchronizes BLAS's threads).
MIN_X_BYTES = 32 << 20


def block_rows(x) -> int:
    """Rows of ``x`` (2-d) per block."""
    row_bytes = max(1, x.shape[1] * x.itemsize)
    return max(MIN_BLOCK_ROWS, BLOCK_BYTES // row_bytes)


class FloatingPointState:
    """The run's floating-point error bookkeeping (``Program.run``): ``found`` collects
    the kernels' sticky flags (None: nobody asked), ``log``/``lines`` NumPy's own words
    from its calls, named by the step that made them."""
    __slots__ = ("found", "log", "lines")

    def __init__(self, found, log, lines):
        self.found, self.log, self.lines = found, log, lines

    def before_call(self) -> None:
        if self.found is not None:
            self.found.append(fp_flags.take())

    def after_call(self, step) -> None:
        if self.found is not None:
            fp_flags.take()                 # the call's own: NumPy names them in ``lines``
            if self.lines.lines:
                self.log.step(step.step, self.lines.take())


def run_group(program, first, last, values, addresses, sizes, param_base, threads,
              fp) -> bool:
    """Compute steps ``first..last`` of ``program`` by blocks of rows; False (nothing
    done that matters) where the group's run-time checks fail.  ``fp``: a
    ``FloatingPointState``."""
    steps = program.steps[first:last + 1]
    e1, e2 = steps[0], steps[-1]
    x, w = values[e1.args[0]], values[e1.args[1]]
    n = x.shape[0]
    rows = block_rows(x)
    if x.ndim != 2 or w.ndim not in (1, 2) or n < 2 * rows or x.nbytes < MIN_X_BYTES:
        return False
    produced = {e1.out}
    dtype = program.values[e1.out - program.n_inputs][0]
    z = values[e1.out] = np.empty(x.shape[:1] + w.shape[1:], dtype=dtype)
    addresses[e1.out] = z.ctypes.data
    launches = []
    for offset, step in enumerate(steps[1:-1], first + 1):
        if isinstance(step, KernelStep):
            if evaluate(step.extent, sizes) != n:
                return False
            launches.append(_prepare_launch(program, offset, step, values, addresses, sizes,
                                            param_base, fp.found))
            produced.update(step.writes)
        elif isinstance(step, ExternStep):
            program._extern(step, values, sizes, None, set(), ())
            if step.args[0] in produced and not _keeps_rows(values[step.out], values[step.args[0]], n):
                return False
            produced.add(step.out)
            addresses[step.out] = values[step.out].ctypes.data
        else:
            return False
    product = _blocked_product(values, e2, produced, n)
    other = next(values[k] for k in e2.args if k not in produced)
    if product is None or not np.may_share_memory(other, x):
        return False        # the second product must read X again (X.T): else no reuse
    parts = _parts(threads, n, rows)
    # Each part sums its rows' products on its own; the parts are added in order.
    totals = [None] * parts
    bounds = [min(n, rows * (-(-n // rows) * t // parts)) for t in range(parts + 1)]
    work = (x, w, z, launches, product, rows, e1, e2, fp)
    if parts == 1:
        totals[0] = _rows_product(work, 0, n, threads)
    else:
        if fp.found is not None:
            fp.found.append(fp_flags.take())        # this thread's so far: parts start clean
        state = (np.geterr(), np.geterrcall())      # NumPy's error state is per thread
        with blas_threads.single():
            workers.run_all([(_part, (work, bounds[t], bounds[t + 1], state, totals, t))
                             for t in range(parts)])
    total = totals[0]
    for other in totals[1:]:
        np.add(total, other, out=total)
    values[e2.out] = np.ascontiguousarray(total)
    return True


def _parts(threads, n, rows) -> int:
    """Threads to run the blocks on: each part calls single-threaded BLAS on its own
    blocks (a multi-threaded BLAS call per block would synchronize its threads twice a
    block, costly on a busy machine); 1 where BLAS's threads cannot be set per thread."""
    if threads <= 1 or blas_threads.set_local is None:
        return 1
    return max(1, min(threads, n // (2 * rows)))


def _part(work, start, stop, state, totals, t) -> None:
    """One thread's share of the blocks, on single-threaded BLAS."""
    fp = work[-1]
    errors, call = state
    if fp.found is not None:
        fp_flags.clear()
    with np.errstate(call=call, **errors):
        totals[t] = _rows_product(work, start, stop, 1)
    if fp.found is not None:
        fp.found.append(fp_flags.take())


def _rows_product(work, start, stop, threads):
    """The group over rows ``[start, stop)`` block by block: E2's product over them."""
    x, w, z, launches, product, rows, e1, e2, fp = work
    total = None
    for begin in range(start, stop, rows):
        end = min(stop, begin + rows)
        fp.before_call()
        np.matmul(x[begin:end], w, out=z[begin:end])
        fp.after_call(e1)
        for launch in launches:
            _launch_rows(launch, begin, end, threads)
        fp.before_call()
        part = product(begin, end)
        fp.after_call(e2)
        if total is None:
            total = part.copy()
        else:
            np.add(total, part, out=total)
    return total


def _keeps_rows(view, base, n) -> bool:
    """``view`` reads row i of ``base`` at its row i (a reshape (n,) -> (n, 1), say)."""
    return (view.ndim >= 1 and base.ndim >= 1 and view.shape[0] == n == base.shape[0]
            and view.strides[0] == base.strides[0] and view.ctypes.data == base.ctypes.data)


def _blocked_product(values, e2, produced, n):
    """``(start, stop) -> e2``'s product over those rows, or None."""
    a, b = (values[k] for k in e2.args)
    if e2.args[1] in produced and e2.args[0] not in produced and a.ndim == 2 and a.shape[1] == n:
        return lambda start, stop: np.matmul(a[:, start:stop], b[start:stop])
    if e2.args[0] in produced and e2.args[1] not in produced and a.ndim == 1 and b.ndim == 2:
        return lambda start, stop: np.matmul(a[start:stop], b[start:stop])
    return None


def _prepare_launch(program, index, step, values, addresses, sizes, param_base, found):
    """Allocate ``step``'s results whole and build its launch arguments once (``found``:
    where parallel parts put their floating-point flags, or None)."""
    fn, args, writes, pointer_array = program._launches[index]
    for number, dtype, shape in writes:
        out = values[number] = buffer_pool.empty(
            tuple(d if isinstance(d, int) else sizes[d.index] for d in shape), dtype)
        addresses[number] = out.ctypes.data
    pointers = pointer_array(*[addresses[k] for k in args])
    block = None
    if step.scalars:
        block = np.zeros(len(step.scalars), dtype=np.int64)
        for j, k in enumerate(step.scalars):
            block[j:j + 1].view(values[k].dtype)[0] = values[k][()]
        pointers[len(args)] = block.ctypes.data
    work_per_row = max(1, evaluate(step.work, sizes) // max(1, evaluate(step.extent, sizes)))
    param = param_base + program._param_offsets[index]
    parallel_fn = fn if found is None else fp_flags.Flagged(fn, found)
    return fn, parallel_fn, pointers, param, work_per_row, block


def _launch_rows(launch, start, stop, threads) -> None:
    """The kernel over outer-loop rows ``[start, stop)``, split across threads when large."""
    fn, parallel_fn, pointers, param, work_per_row, _ = launch
    parts = min(threads, stop - start)
    if parts <= 1 or (stop - start) * work_per_row < workers.MIN_PARALLEL_WORK:
        fn(pointers, param, param, start, stop)
        return
    if parallel_fn is not fn:
        parallel_fn.found.append(fp_flags.take())   # this thread's so far: parts start clean
    bounds = [start + (stop - start) * t // parts for t in range(parts + 1)]
    workers.run_all([(parallel_fn, (pointers, param, param, bounds[t], bounds[t + 1]))
                     for t in range(parts)])
