"""What runs inside one Dask task: a block's lazynum program, and the reductions' combines.

A ``Program`` is plain picklable data (op names, attrs, argument positions, Python
scalars): the plan travels to the workers, never native code.  ``run_block`` rebuilds the
program's graph over the task's NumPy blocks and syncs it there, so the worker's own
compile cache (in memory, and on disk under ``LAZYNUM_CACHE_DIR``) compiles it once per
graph signature and replays it for every later block and task.

Block sizes enter the graph as symbols with a declared range (``symbolic.fresh``): one
symbol per *index axis* of the blockwise loop, shared by every input read along it.
Declared-range symbols are not duck-sized, so a square interior block and a ragged edge
block key alike: an edge block never recompiles (a block dim of 0 or 1 is static, as
everywhere in lazynum, so an edge block of length 1 has its own program).
"""
from __future__ import annotations

import contextlib

import functools
from typing import NamedTuple

import numpy as np

from ..array.conversion import reshape_node
from ..control import settings
from ..expr import node as nodes, symbolic
from ..expr.registry import lookup
from ..runtime.sync import sync_nodes

_HUGE = 1 << 62         # the declared upper bound of a block size (a range, never checked)


class Program(NamedTuple):
    """One blockwise task's work, as data.

    Attributes
    ----------
    inputs : tuple of tuple
        Per input block, the index axis (a letter) of each dim, or None for a dim of size 1.
    steps : tuple of tuple
        ``("op", name, attrs, refs)``: the primitive ``name`` on earlier values;
        ``("scalar", value, dtype)``: a Python scalar as a runtime parameter;
        ``("reshape", spec, ref)``: a C-order reshape to ``spec`` (index letters or 1).
        A ref ``r >= 0`` is step ``r``'s value, ``r < 0`` is input ``-1 - r``.
    output : int or tuple of int
        The ref of the value the task returns; for a tuple of refs (values of one shape,
        computed by one sync), a structured array whose field ``r<k>`` is the k-th.
    backend : str
        The client's backend setting (``llvm`` or ``numpy``).
    windows : tuple
        Per input, None or, per dim, ``(offset, extra)``: the block overlaps its
        neighbours by ``extra`` (``dask.array.overlap``) and the input is the window
        ``block[offset:offset + n]``, ``n`` the dim's index-axis size (a stencil's shifted
        slice, ``halo``).  Empty: no windows.
    """
    inputs: tuple
    steps: tuple
    output: int
    backend: str
    windows: tuple = ()


def run_block(*blocks, program: Program):
    """Compute ``program`` on one task's NumPy ``blocks`` (see module docstring).

    The client's backend is used, and the recompile warning is off: a block's sync has no
    user line (every task's is Dask's), so its programs would all count as one line's.
    The immediate tier is off too: every leaf of a block's graph is computed, and a small
    block would otherwise run op by op instead of as the one fused program the plan is
    (and compile counts would depend on block sizes)."""
    current = settings.get()
    overrides = {}
    if current.backend != program.backend:
        overrides["backend"] = program.backend
    if current.recompile_limit:
        overrides["recompile_limit"] = 0
    if current.immediate_below:
        overrides["immediate_below"] = 0
    with _own_checks():
        if overrides:
            with settings.config(**overrides):
                return _run(blocks, program)
        return _run(blocks, program)


@contextlib.contextmanager
def _own_checks():
    """The block's syncs see only its own run-time checks: the client's (a dropped ``y[5]``
    of the program that Dask is computing, on the thread that runs the block under the
    synchronous scheduler) are the client's next sync's business (``runtime.unread_checks``),
    and they read distributed inputs that have no data in a block."""
    state = nodes.thread.state
    saved = state.checks, state.read_checks
    state.checks, state.read_checks = [], set()
    try:
        yield
    finally:
        state.checks, state.read_checks = saved


def _run(blocks, program: Program):
    blocks = _windowed(blocks, program)
    sizes = _index_sizes(blocks, program.inputs)
    leaves = [nodes.constant(np.asarray(block), _block_shape(block, axes, sizes))
              for block, axes in zip(blocks, program.inputs)]
    values: list = []

    def get(ref):
        return leaves[-1 - ref] if ref < 0 else values[ref]

    for step in program.steps:
        kind = step[0]
        if kind == "op":
            _, name, attrs, refs = step
            values.append(nodes.apply(lookup(name), tuple(get(r) for r in refs), attrs))
        elif kind == "scalar":
            values.append(nodes.scalar(step[1], np.dtype(step[2])))
        else:
            _, spec, ref = step
            values.append(reshape_node(get(ref), tuple(sizes[d] if type(d) is str else 1
                                                       for d in spec)))
    if type(program.output) is int:
        out = get(program.output)
        if out.buffer is None:
            sync_nodes([out], "dask_block", explicit=True)
        return out.buffer
    outs = [get(ref) for ref in program.output]          # one sync: one fused program
    pending = [n for n in outs if n.buffer is None]
    if pending:
        sync_nodes(pending, "dask_block", explicit=True)
    record = np.empty(np.shape(outs[0].buffer),
                      [(f"r{k}", n.dtype) for k, n in enumerate(outs)])
    for k, n in enumerate(outs):
        record[f"r{k}"] = n.buffer
    return record


def _windowed(blocks, program: Program) -> list:
    """Each input's block, windows cut out of their overlapped blocks (NumPy views: the
    kernel reads them with strides, nothing is copied)."""
    if not any(program.windows):
        return blocks
    extents: dict = {}
    for block, axes, window in zip(blocks, program.inputs, program.windows):
        for d, (letter, extent) in enumerate(zip(axes, np.shape(block))):
            if letter is not None:
                extents.setdefault(letter, int(extent) - (window[d][1] if window else 0))
    out = []
    for block, axes, window in zip(blocks, program.inputs, program.windows):
        if window:
            block = np.asarray(block)[tuple(slice(o, o + (extents[a] if a else 1))
                                            for a, (o, _) in zip(axes, window))]
        out.append(block)
    return out


def _index_sizes(blocks, inputs) -> dict:
    """Each index axis's extent in this task, as a size symbol (module docstring)."""
    dynamic = settings.get().dynamic_shapes
    sizes: dict = {}
    for block, axes in zip(blocks, inputs):
        for letter, extent in zip(axes, np.shape(block)):
            if letter is not None and letter not in sizes:
                extent = int(extent)
                sizes[letter] = (symbolic.fresh(extent, 2, _HUGE)
                                 if dynamic and extent >= 2 else extent)
    return sizes


def _block_shape(block, axes, sizes) -> tuple:
    return tuple(sizes[letter] if letter is not None else int(d)
                 for letter, d in zip(axes, np.shape(block)))


# --- tree reductions: partial results per block, combined by NumPy --------------------------

_COMBINES = {"reduce_sum": np.add, "reduce_prod": np.multiply, "reduce_max": np.maximum,
             "reduce_min": np.minimum, "reduce_fmax": np.fmax, "reduce_fmin": np.fmin,
             "reduce_any": np.logical_or, "reduce_all": np.logical_and}


def can_combine(name: str) -> bool:
    return name in _COMBINES


def keep(x, axis=None, keepdims=True):
    """The chunk step of a tree reduction whose partials a lazynum task already made."""
    return x


def combine(x, axis=None, keepdims=True, *, name: str):
    """Fold partial results of reduction ``name`` along ``axis`` (float32 sums in float64:
    the partials are already block sums, and this keeps the total as exact as a kernel's)."""
    ufunc = _COMBINES[name]
    if ufunc is np.add and x.dtype == np.float32:
        return ufunc.reduce(x, axis=axis, keepdims=keepdims, dtype=np.float64).astype(np.float32)
    return ufunc.reduce(x, axis=axis, keepdims=keepdims)


def combiner(name: str):
    """``combine`` for reduction ``name``, as a picklable callable."""
    return functools.partial(combine, name=name)


def combine_fields(x, axis=None, keepdims=True, *, items: tuple):
    """Fold structured partials (several reductions' partials, made by one task per block):
    ``items`` are ``(name, fields)``, ``name`` a reduction folding its one field with
    ``combine``, or ``"moments"`` folding three (count, mean, squared deviations)."""
    folded: dict = {}
    for name, fields in items:
        columns = [x[f"r{k}"] for k in fields]
        if name == "moments":
            values = combine_moments(*columns, axis=axis, keepdims=keepdims)
        else:
            values = (combine(columns[0], axis, keepdims, name=name),)
        folded.update(zip(fields, values))
    out = np.empty(np.shape(folded[0]), x.dtype)
    for k, value in folded.items():
        out[f"r{k}"] = value
    return out


def fields_combiner(items: tuple):
    """``combine_fields`` for ``items``, as a picklable callable."""
    return functools.partial(combine_fields, items=tuple(items))


def combine_moments(count, mean, squares, axis=None, keepdims=True):
    """Chan's parallel fold of per-block (count, mean, sum of squared deviations from that
    mean) into the same for their union, in float64: the squared deviations of the union
    are the blocks' plus each block's count times its mean's squared distance to the
    union's mean (no cancellation: every term is a sum of squares)."""
    n = count.astype(np.float64)
    m = mean.astype(np.float64)
    total = n.sum(axis=axis, keepdims=True)
    union = (n * m).sum(axis=axis, keepdims=True) / np.where(total > 0, total, 1)
    spread = squares.astype(np.float64).sum(axis=axis, keepdims=True) \
        + (n * (m - union) ** 2).sum(axis=axis, keepdims=True)
    if not keepdims:
        total, union, spread = (np.squeeze(v, axis=axis) for v in (total, union, spread))
    return total, union, spread
